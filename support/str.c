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

/* Length of the well-formed UTF-8 sequence at p (at most avail bytes), 0 if
 * the bytes there are not one (overlong forms and surrogates included). */
size_t str_utf8_len(const unsigned char *p, size_t avail)
{
    if (avail == 0)
        return 0;
    unsigned c = p[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (avail < n || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

static unsigned hex_value(char h)
{
    return h <= '9' ? (unsigned)(h - '0') : (unsigned)((h | 0x20) - 'a' + 10);
}

unsigned char str_unescape_next(const char *p, size_t len, size_t *i)
{
    unsigned char c = (unsigned char)p[(*i)++];
    if (c != '\\' || *i >= len)
        return c;
    char e = p[(*i)++];
    if (e == 'n')
        return '\n';
    if (e == 't')
        return '\t';
    if (e == '"' || e == '\\')
        return (unsigned char)e;
    if (*i >= len)
        return c;
    char h = p[(*i)++];
    return (unsigned char)(hex_value(e) << 4 | hex_value(h));
}
