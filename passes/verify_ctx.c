/* verify_ctx.c - the verifier's one context (verify_int.h): how every verifier file
 * reports, and the attribute query they share. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "verify_int.h"

/* "'NAME' op MSG" at op's name (NAME: the op's spelling when it differs from the table's). */
static void op_report(V *v, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    diag_error(v->d, v->op->name_span, "'%s' op %s", v->name ? v->name : op_info(v->op->kind)->name, msg);
}

bool verify_error(V *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    op_report(v, fmt, ap);
    va_end(ap);
    return false;
}

/* Reports "'op' op MSG" at the op name and a note at role's definition. */
bool verify_op_error(V *v, int role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    op_report(v, fmt, ap);
    va_end(ap);
    const OpInfo *in = op_info(v->op->kind);
    if (role >= 0 && v->val[role] != NO_VALUE)
        diag_note(v->d, v->f->values[v->val[role]].def, "%s defined here", in->role[role]);
    v->errors = true;
    return false;
}

/* An attribute ptoas keeps as written (AV_OPAQUE, e.g. `#pto<st_phase final>`): present, and
 * whether its text contains word. */
bool opaque_attr(const Op *op, const char *key, const char *word, bool *has)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    *has = a && a->val && a->val->kind == AV_OPAQUE;
    if (!*has)
        return false;
    Str t = a->val->u.s;
    size_t n = strlen(word);
    for (uint32_t i = 0; i + n <= t.len; i++)
        if (memcmp(t.p + i, word, n) == 0)
            return true;
    return false;
}

const char *verify_shape_str(int64_t rows, int64_t cols, char buf[48])
{
    char r[21] = "?", c[21] = "?";
    if (rows != DIM_DYNAMIC)
        snprintf(r, sizeof r, "%lld", (long long)rows);
    if (cols != DIM_DYNAMIC)
        snprintf(c, sizeof c, "%lld", (long long)cols);
    snprintf(buf, 48, "%sx%s", r, c);
    return buf;
}
