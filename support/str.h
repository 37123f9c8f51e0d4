/* str.h - a growable, NUL-terminated string buffer. Start with StrBuf b = {0};
 * allocation failures exit(3) (arena.h's xgrow). */
#ifndef PTOAS_STR_H
#define PTOAS_STR_H
#include <stddef.h>
#include "arena.h"
#include "diag.h"

typedef struct StrBuf {
    char *p;
    size_t len, cap;
} StrBuf;

void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_put_int(StrBuf *b, long long v); /* as "%lld", without printf */
void sb_printf(StrBuf *b, const char *fmt, ...) DIAG_PRINTF(2, 3);
void sb_free(StrBuf *b);

/* Length of the well-formed UTF-8 sequence at p (at most avail bytes), 0 if
 * the bytes there are not one (overlong forms and surrogates included). */
size_t str_utf8_len(const unsigned char *p, size_t avail);

/* The byte that the text of a string literal (between its quotes) holds at p[*i], with
 * MLIR's escapes decoded (\n \t \" \\ and \XX, two hex digits); *i moves past it. */
unsigned char str_unescape_next(const char *p, size_t len, size_t *i);

#endif
