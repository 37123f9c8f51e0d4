/* build_scalar.c - the builders of issue 24's scalar line of work whose custom forms the
 * shared compute grammar does not cover: pto.tgetval, whose result is a scalar written
 * after a bare `outs` (`ins(%src, %off : T, index) outs : T'`). */
#include "parse.h"
#include "build.h"

/* `%r = pto.tgetval ins(%src, %off : T, index) outs : R {attrs}`: operands (src, offset),
 * one scalar result of type R. */
void pb_op_tgetval(Parser *p, Span name, TypedUses ins, uint32_t nattrs, const Type *rt, Span rs)
{
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, ins.uses, nattrs + ins.attrs);
    if (ins.state < 0 || !rt) {
        pb_emit_broken(p, &d);
        return;
    }
    if (op_info(d.kind)->cls != OC_GETVAL) {
        /* only tgetval has a result after `outs`; the others' outs are parenthesized */
        ERR(name, "'%s' op expects 'outs(' after its ins operands", op_info(d.kind)->name);
        pb_emit_broken(p, &d);
        return;
    }
    if (ins.uses != ins.types) {
        ERR(name, "'%s' op has %u 'ins' operand%s, but %u type%s", op_info(d.kind)->name, ins.uses,
            ins.uses == 1 ? "" : "s", ins.types, ins.types == 1 ? "" : "s");
        pb_emit_broken(p, &d);
        return;
    }
    if (ins.uses != 2) {
        ERR(name, "'%s' op expects 2 ins operands (src, offset), but got %u", op_info(d.kind)->name, ins.uses);
        pb_emit_broken(p, &d);
        return;
    }
    d.utys = p->tys + p->ntys - ins.types;
    d.seg[0] = d.seg[1] = 1;
    d.nres = 1;
    const Type **rtys = arena_alloc(&p->m->arena, sizeof *rtys);
    Span *rspans = arena_alloc(&p->m->arena, sizeof *rspans);
    rtys[0] = rt;
    rspans[0] = rs;
    d.rtys = rtys;
    d.rspans = rspans;
    if (!pb_bind_results(p, &d, 1)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* `%r = pto.X %a[, %b] {attrs} : T -> R {attrs}` (SYN_CAST): T is %a's type, %b (addptr's
 * offset, a view query's dimension) is an index; one result of type R. */
void pb_op_cast(Parser *p, Span name, uint32_t nuses, uint32_t nattrs, const Type *from, Span fs, const Type *to,
                Span ts)
{
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, nuses, nattrs);
    const OpInfo *in = op_info(d.kind);
    if (!from || !to || d.bad) {
        pb_emit_broken(p, &d);
        return;
    }
    if (nuses != in->nroles) {
        /* MLIR's custom parser stops at the token after the operands it takes */
        ERR(nuses > in->nroles ? d.uses[in->nroles] : fs, nuses > in->nroles ? "expected ':'" : "expected ','");
        pb_emit_broken(p, &d);
        return;
    }
    const Type **utys = arena_alloc(&p->m->arena, 2 * sizeof *utys);
    utys[0] = from;
    utys[1] = type_scalar(&p->m->types, DT_INDEX);
    d.utys = utys;
    for (uint32_t i = 0; i < nuses; i++)
        d.seg[i] = 1;
    d.nres = 1;
    const Type **rtys = arena_alloc(&p->m->arena, sizeof *rtys);
    Span *rspans = arena_alloc(&p->m->arena, sizeof *rspans);
    rtys[0] = to;
    rspans[0] = ts;
    d.rtys = rtys;
    d.rspans = rspans;
    if (!pb_bind_results(p, &d, 1)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* `%t = pto.declare_tile {attrs} -> T`: no operands, one tile result. */
void pb_op_declare_tile(Parser *p, Span name, uint32_t nattrs, const Type *t, Span tspan)
{
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, (uint32_t)p->nuses, nattrs);
    if (d.kind != OP_DECLARE_TILE || p->nkws) { /* alloc_tile's format has ':', declare_tile's no keywords */
        /* MLIR stops at the '->' after alloc_tile's attributes, at declare_tile's first keyword */
        Span at = d.kind != OP_DECLARE_TILE ? pb_next_token(p, d.nattrs ? d.attrs[d.nattrs - 1].span.end : name.end)
                                            : p->kws[0].key;
        ERR(at, d.kind != OP_DECLARE_TILE ? "expected ':'" : "expected '->'");
        pb_emit_broken(p, &d);
        return;
    }
    d.nres = 1;
    d.rtys = &t;
    d.rspans = &tspan;
    if (!t || !pb_bind_results(p, &d, 1)) {
        pb_emit_broken(p, &d);
        return;
    }
    if (!type_is_tile(t) || t->kind != TY_TILE_BUF) {
        char b[256];
        ERR(tspan, "'pto.declare_tile' op result #0 must be a ranked tensor, partition view or tile_buf, but got '%s'",
            type_str(t, b, sizeof b));
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}
