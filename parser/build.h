/* build.h - helpers shared by the builders (build.c, build_types.c); not for
 * the grammar. Both define ERR and PUSH for a Parser *p in scope. */
#ifndef PTOAS_BUILD_H
#define PTOAS_BUILD_H
#include "parse.h"

#define ERR(sp, ...) diag_error(p->diag, (sp), __VA_ARGS__)
#define PUSH(arr, n, cap, v)                                           \
    do {                                                               \
        if ((n) == (cap))                                              \
            xgrow((void **)&(arr), &(cap), (n) + 1, sizeof *(arr));    \
        (arr)[(n)++] = (v);                                            \
    } while (0)

/* A decimal or 0x integer with optional '-'; false when out of int64 range
 * (hex may use all 64 bits). */
bool pb_parse_int(Str s, int64_t *out);
AttrValue *pb_new_aval(Parser *p, AttrValueKind k, Span s);
/* The part [off, off + len) of span s. */
Span pb_sub_span(Span s, uint32_t off, uint32_t len);

#endif
