/* actions.h - the language server's code actions (actions.c, docs/lsp.md
 * section 8): quick fixes computed from an Analysis. Offsets are bytes; the
 * server converts positions and writes the JSON. */
#ifndef PTOAS_LSP_ACTIONS_H
#define PTOAS_LSP_ACTIONS_H
#include "analysis.h"

/* Replace text[span) by text (an insertion when the span is empty). */
typedef struct FeatEdit {
    Span span;
    char *text;
} FeatEdit;

typedef enum { FA_QUICKFIX, FA_SOURCE } FeatActionKind;

typedef struct FeatAction {
    char *title;
    FeatActionKind kind;
    uint32_t diag;        /* the diagnostic it fixes (index into Analysis.diags); UINT32_MAX if none */
    bool preferred;       /* the one obvious fix (LSP isPreferred) */
    FeatEdit *edits;      /* in document order; insertions at one offset in the order given */
    uint32_t nedits, edits_cap;
} FeatAction;

typedef struct FeatActions {
    FeatAction *v;
    uint32_t n, cap;
} FeatActions;

/* The actions for the lines [begin, end] cover (byte offsets of the request's
 * range): for each diagnostic that starts or ends on those lines, the
 * replacement of a misspelled op name, SSA value name or element type by the
 * closest known one, and its expected-* comments; then, when the file has diagnostics, the
 * expected-* comments for all of them (kind FA_SOURCE, offered anywhere). */
void feat_code_actions(const Analysis *a, uint32_t begin, uint32_t end, FeatActions *out);
void feat_actions_free(FeatActions *acts);

#endif
