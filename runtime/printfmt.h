/* printfmt.h - the one grammar of pto.print's format strings, header-only so that codegen
 * (which checks a string before it reaches generated C) and the runtime (which checks it
 * again before it prints) share it without the frontend linking libptort. */
#ifndef PTORT_PRINTFMT_H
#define PTORT_PRINTFMT_H
#include <stddef.h>
#include <string.h>

/* The one conversion of FMT: [*start, *end) its bytes, *lenat and *lenn its length modifier's
 * offset and size. 'i' (integer), 'f' (floating), 'n' (no conversion: text only) or 0 when FMT
 * is not literal text, %% and at most one conversion `%[-+ #0]*W?(.P)?(hh|h|l|ll|j|z|t)?[diouxXc|fFeEgGaA]`
 * with W and P of at most 3 digits, all bytes printable ASCII, newline or tab. */
static inline int ptort_parse_format(const char *fmt, size_t n, size_t *start, size_t *end, size_t *lenat, size_t *lenn)
{
    int kind = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)fmt[i];
        if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f)
            return 0;
        if (c != '%')
            continue;
        if (i + 1 < n && fmt[i + 1] == '%') {
            i++;
            continue;
        }
        if (kind)
            return 0; /* a second conversion: there is one value */
        size_t j = i + 1;
        while (j < n && fmt[j] && strchr("-+ #0", fmt[j]))
            j++;
        for (int d = 0; j < n && fmt[j] >= '0' && fmt[j] <= '9'; j++)
            if (++d > 3)
                return 0;
        if (j < n && fmt[j] == '.') {
            j++;
            for (int d = 0; j < n && fmt[j] >= '0' && fmt[j] <= '9'; j++)
                if (++d > 3)
                    return 0;
        }
        size_t la = j;
        while (j < n && fmt[j] && strchr("hljzt", fmt[j]) && j - la < 2)
            j++;
        if (j >= n)
            return 0;
        if (j - la == 2 && !((fmt[la] == 'h' && fmt[la + 1] == 'h') || (fmt[la] == 'l' && fmt[la + 1] == 'l')))
            return 0;
        if (fmt[j] && strchr("diouxXc", fmt[j]))
            kind = 'i';
        else if (fmt[j] && strchr("fFeEgGaA", fmt[j]))
            kind = 'f';
        else
            return 0;
        if (kind == 'f' && j != la)
            return 0; /* no length modifier on a double */
        *start = i;
        *end = j + 1;
        *lenat = la;
        *lenn = j - la;
        i = j;
    }
    return kind ? kind : 'n';
}

#endif
