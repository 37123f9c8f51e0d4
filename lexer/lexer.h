/* lexer.h - the re2c lexer's state. The text must be followed by a NUL byte
 * at text[len] (the sentinel); NUL bytes before it are reported as errors. */
#ifndef PTOAS_LEXER_H
#define PTOAS_LEXER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "diag.h"

typedef struct Lexer {
    const unsigned char *start, *cur, *lim, *marker, *ctxmarker;
    uint32_t base;     /* offset of start in the source file: spans are absolute */
    bool nl;           /* a newline was skipped since the last token */
    bool bol;          /* the last token returned is the first on its line */
    DiagEngine *diag;
} Lexer;

void lex_init(Lexer *lx, const char *text, size_t len, uint32_t base, DiagEngine *diag);
/* Returns the next token kind (parser.h) and its span. */
int lex_next(Lexer *lx, Span *loc);

#endif
