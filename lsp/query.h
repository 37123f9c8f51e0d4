/* query.h - what the language server computes from an Analysis: hover
 * text, completion items, inlay hints (query.c). Offsets are bytes; the
 * server converts positions. */
#ifndef PTOAS_LSP_QUERY_H
#define PTOAS_LSP_QUERY_H
#include "analysis.h"
#include "str.h"

/* A character of SSA value names, symbol names and op names. */
bool feat_ident_char(char c);

/* Markdown for the entity at offset (an SSA value, an op name, an enum
 * value); *at is its span. False when there is nothing to say. */
bool feat_hover(const Analysis *a, uint32_t offset, StrBuf *md, Span *at);

/* LSP CompletionItemKind values used. */
enum { CK_FUNCTION = 3, CK_FIELD = 5, CK_VARIABLE = 6, CK_KEYWORD = 14, CK_ENUM_MEMBER = 20 };

typedef struct FeatItem {
    char *label;          /* also the inserted text */
    const char *detail;   /* static, may be NULL */
    int kind;
} FeatItem;
typedef struct FeatItems {
    FeatItem *v;
    uint32_t n, cap;
} FeatItems;

/* The completions at offset; *repl is the text they replace (the word
 * typed so far). */
void feat_complete(const Analysis *a, uint32_t offset, FeatItems *out, Span *repl);
void feat_items_free(FeatItems *it);

typedef struct FeatHint {
    uint32_t at;          /* the hint goes right after this offset */
    char *label;
} FeatHint;
typedef struct FeatHints {
    FeatHint *v;
    uint32_t n, cap;
} FeatHints;

/* The hints in [begin, end]: each tile's tassign address after its name
 * (alloc_tile results, tile arguments, Level 1 results), and each
 * function's peak per memory space after its name. None unless the file
 * assembles. */
void feat_inlay_hints(const Analysis *a, uint32_t begin, uint32_t end, FeatHints *out);
void feat_hints_free(FeatHints *h);

#endif
