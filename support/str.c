/* str.c - StrBuf, the growable string every printer and report builds its
 * text in before writing it out in large pieces. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "str.h"

void sb_putn(StrBuf *b, const char *s, size_t n)
{
    xgrow((void **)&b->p, &b->cap, b->len + n + 1, 1);
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void sb_putc(StrBuf *b, char c) { sb_putn(b, &c, 1); }

void sb_put_int(StrBuf *b, long long v)
{
    char tmp[24], *end = tmp + sizeof tmp, *s = end;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        *--s = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--s = '-';
    sb_putn(b, s, (size_t)(end - s));
}

void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_printf(StrBuf *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        sb_putn(b, tmp, (size_t)n);
        return;
    }
    xgrow((void **)&b->p, &b->cap, b->len + (size_t)n + 1, 1);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void sb_free(StrBuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}
