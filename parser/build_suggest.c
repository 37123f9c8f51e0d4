/* build_suggest.c - "did you mean" for the parser's errors (support/suggest.h):
 * a mistyped op name, SSA value name or element type gets the closest known
 * names appended to its message, clang's way ("...; did you mean 'pto.tadd'?"),
 * so that the message stays one line with one location and every test that
 * matches its first part still does. */
#include "build.h"
#include <string.h>
#include "suggest.h"

#define SUGGEST_ERRORS 100 /* SSA names are suggested for the first errors only */

/* "; did you mean 'a'?", "; did you mean 'a' or 'b'?", "...'a', 'b' or 'c'?";
 * nothing when sg has no candidate. */
static void put_suggestions(StrBuf *b, const Suggest *sg, const char *sigil)
{
    for (uint32_t i = 0; i < sg->n; i++) {
        sb_puts(b, i == 0 ? "; did you mean '" : i + 1 == sg->n ? " or '" : ", '");
        sb_puts(b, sigil);
        sb_putn(b, sg->name[i], sg->len[i]);
        sb_putc(b, '\'');
    }
    if (sg->n)
        sb_putc(b, '?');
}

const char *pb_suggest_op(Str typed, StrBuf *b)
{
    Suggest sg;
    suggest_init(&sg, typed.p, typed.len);
    for (int k = 0; k < OP_COUNT; k++) {
        const OpInfo *in = op_info((OpKind)k);
        if (in && in->name && k != OP_UNREGISTERED)
            suggest_offer(&sg, in->name, strlen(in->name));
    }
    put_suggestions(b, &sg, "");
    return b->p ? b->p : "";
}

const char *pb_suggest_value(const Parser *p, Str typed, StrBuf *b)
{
    /* each search walks the function's names: past many errors, none (linear time) */
    if (diag_error_count(p->diag) >= SUGGEST_ERRORS)
        return "";
    if (typed.len < 3) /* '%y': every other short name is one edit away */
        return "";
    Suggest sg;
    suggest_init(&sg, typed.p, typed.len);
    for (size_t i = 0; i < p->names_used; i++) {
        const NameSlot *s = &p->names[p->names_touched[i]];
        if (s->name.p && s->id != NO_VALUE && p->fn && !p->fn->values[s->id].undefined)
            suggest_offer(&sg, s->name.p, s->name.len);
    }
    put_suggestions(b, &sg, "%");
    return b->p ? b->p : "";
}

const char *pb_suggest_dtype(Str typed, StrBuf *b)
{
    Suggest sg;
    suggest_init(&sg, typed.p, typed.len);
    for (int d = DT_NONE + 1; d < DT_COUNT; d++)
        suggest_offer(&sg, dtype_name((DType)d), strlen(dtype_name((DType)d)));
    put_suggestions(b, &sg, "");
    if (sg.n == 0) { /* nothing close: the list of the ones that run (a runtime dtype) */
        sb_puts(b, "; element types:");
        bool first = true;
        for (int d = DT_NONE + 1; d < DT_COUNT; d++)
            if (dtype_rt_name((DType)d)) {
                sb_printf(b, "%s %s", first ? "" : ",", dtype_name((DType)d));
                first = false;
            }
    }
    return b->p ? b->p : "";
}
