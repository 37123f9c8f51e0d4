/* build_scalar.c - the builders of issue 24's scalar line of work whose custom forms the
 * shared compute grammar does not cover: pto.tgetval, whose result is a scalar written
 * after a bare `outs` (`ins(%src, %off : T, index) outs : T'`), the casts, declare_tile, the debug
 * ops and the local-array ops. */
#include <string.h>
#include "parse.h"
#include "build.h"

/* Binds D's one result (type RT, written at RS) and emits it; a broken draft is emitted as
 * such, so its uses report nothing more. */
static void emit_one_result(Parser *p, Draft *d, const Type *rt, Span rs)
{
    d->nres = 1;
    const Type **rtys = arena_alloc(&p->m->arena, sizeof *rtys);
    Span *rspans = arena_alloc(&p->m->arena, sizeof *rspans);
    rtys[0] = rt;
    rspans[0] = rs;
    d->rtys = rtys;
    d->rspans = rspans;
    if (!pb_bind_results(p, d, 1)) {
        pb_emit_broken(p, d);
        return;
    }
    pb_emit(p, d);
}

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
    emit_one_result(p, &d, rt, rs);
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
    /* PTOAS's formats print PtrType operands and results unqualified there: `<f32>` */
    bool elide_from = d.kind == OP_ADDPTR || d.kind == OP_PTRTOINT;
    bool elide_to = d.kind == OP_ADDPTR || d.kind == OP_INTTOPTR;
    bool bad_from = pb_text(p, fs).p[0] == '<' && !elide_from, bad_to = pb_text(p, ts).p[0] == '<' && !elide_to;
    if (bad_from || bad_to) {
        ERR(bad_from ? fs : ts, "expected non-function type");
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
    emit_one_result(p, &d, to, ts);
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

/* The debug ops (SYN_DEBUG). FORM 0: `pto.trap {attrs}`; 1: `pto.tprint ins(%src[, %tmp] :
 * T[, T2]) {attrs}`; 2: `pto.print ins("fmt", %v : T) {attrs}` (the string at STR becomes the
 * `format` attribute). Each op takes its own form only: another is where PTOAS's parser
 * stops. */
void pb_op_debug(Parser *p, Span name, int form, TypedUses ins, Span str, uint32_t nattrs, const Type *t, Span ts)
{
    Draft d;
    uint32_t nuses = form == 1 ? ins.uses : form == 2 ? 1 : 0;
    pb_draft_init(p, &d, name, FORM_L2, nuses, nattrs + (form == 1 ? ins.attrs : 0));
    int want = d.kind == OP_TRAP ? 0 : d.kind == OP_TPRINT ? 1 : 2;
    if (form != want) {
        /* where MLIR's parser of the op stops: trap takes no ins, the others need one */
        Span at = pb_next_token(p, name.end);
        if (form == 0)
            ERR(at, "expected 'ins'");
        else if (want == 0)
            ERR(at, "expected operation name in quotes");
        else
            ERR(pb_next_token(p, pb_next_token(p, at.end).end), want == 1 ? "expected SSA operand" : "expected attribute value");
        pb_emit_broken(p, &d);
        return;
    }
    if (form == 1) {
        if (ins.state < 0 || ins.uses != ins.types || ins.uses < 1 || ins.uses > 2) {
            if (ins.state >= 0)
                ERR(name, "'pto.tprint' op expects ins(%%src[, %%tmp] : T[, T2]), but got %u operand%s and %u type%s",
                    ins.uses, ins.uses == 1 ? "" : "s", ins.types, ins.types == 1 ? "" : "s");
            pb_emit_broken(p, &d);
            return;
        }
        d.utys = p->tys + p->ntys - ins.types;
        d.seg[0] = 1;
        d.seg[1] = ins.uses - 1;
    } else if (form == 2) {
        if (!t) {
            pb_emit_broken(p, &d);
            return;
        }
        const Type **utys = arena_alloc(&p->m->arena, sizeof *utys);
        utys[0] = t;
        d.utys = utys;
        d.seg[0] = 1;
        AttrValue *v = pb_attr_simple(p, AV_STRING, str);
        Attr *na = arena_alloc(&p->m->arena, (d.nattrs + 1) * sizeof *na);
        na[0] = (Attr){{"format", 6}, false, str, v};
        memcpy(na + 1, d.attrs, d.nattrs * sizeof *na);
        d.attrs = na;
        d.nattrs++;
    }
    (void)ts;
    if (!pb_bind_results(p, &d, 0)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* The local-array ops (SYN_LOCAL). FORM 0: `%a = pto.declare_local_array {attrs} -> T`;
 * 1: `%v = pto.local_array_get %a[%i, ...] {attrs} : T -> R`; 2: `pto.local_array_set
 * %a[%i, ...], %v {attrs} : T, R`. The event-id arrays' get and set write no R (R NULL, RS
 * the end of T). NIDX indices, all typed index; T must be the op's array type (MLIR's typed
 * parser), the rest is the verifier's. Each op takes its own form only: another is where
 * PTOAS's parser stops. */
void pb_op_local(Parser *p, Span name, int form, uint32_t nidx, uint32_t nattrs, const Type *t, Span ts,
                 const Type *r, Span rs)
{
    Draft d;
    uint32_t nuses = form == 0 ? 0 : 1 + nidx + (form == 2);
    pb_draft_init(p, &d, name, FORM_L2, nuses, nattrs);
    bool ev = d.kind == OP_DECLARE_EVENTID_ARRAY || d.kind == OP_EVENTID_ARRAY_GET || d.kind == OP_EVENTID_ARRAY_SET;
    int want = d.kind == OP_DECLARE_LOCAL_ARRAY || d.kind == OP_DECLARE_EVENTID_ARRAY ? 0
               : d.kind == OP_LOCAL_ARRAY_GET || d.kind == OP_EVENTID_ARRAY_GET ? 1 : 2;
    if (form != want || (form && ev != !r)) {
        Span at = pb_next_token(p, name.end);
        const char *msg = want == 0 ? "expected '->'" : form == 0 ? "expected SSA operand" : want == 1 ? "expected ':'"
                                                                                                     : "expected ','";
        if (form != want && form != 0 && want != 0) { /* the token after ']' */
            at = pb_next_token(p, pb_next_token(p, (nidx ? d.uses[nidx] : pb_next_token(p, d.uses[0].end)).end).end);
        } else if (form == want) { /* the element types: what comes after T */
            at = pb_next_token(p, ts.end);
            msg = ev ? "expected operation name in quotes" : want == 1 ? "expected '->'" : "expected ','";
        }
        ERR(at, "%s", msg);
        pb_emit_broken(p, &d);
        return;
    }
    const Type *at = form == 0 ? r : t;
    Span as = form == 0 ? rs : ts;
    if (!at || d.bad) {
        pb_emit_broken(p, &d);
        return;
    }
    if (at->kind != (ev ? TY_EVENTID_ARRAY : TY_LOCAL_ARRAY)) {
        ERR(as, "invalid kind of type specified");
        pb_emit_broken(p, &d);
        return;
    }
    const Type *ix = type_scalar(&p->m->types, DT_INDEX);
    if (ev && form)
        r = ix;
    if (form) {
        const Type **utys = arena_alloc(&p->m->arena, nuses * sizeof *utys);
        utys[0] = t;
        for (uint32_t i = 0; i < nidx; i++)
            utys[1 + i] = ix;
        if (form == 2)
            utys[1 + nidx] = r;
        d.utys = utys;
        d.seg[0] = 1;
        d.seg[1] = nidx;
        d.seg[2] = form == 2;
        if (ev && nidx != 1) { /* Index:$index, one operand */
            ERR(pb_next_token(p, nidx ? d.uses[1].end : d.uses[0].end), nidx ? "expected ']'" : "expected SSA operand");
            pb_emit_broken(p, &d);
            return;
        }
    }
    if (form == 2) {
        if (!pb_bind_results(p, &d, 0)) {
            pb_emit_broken(p, &d);
            return;
        }
        pb_emit(p, &d);
        return;
    }
    emit_one_result(p, &d, r, rs);
}

/* pto.cmo.cacheinvalid. FORM 0: `all SPACE {attrs}` (SPACE becomes the `space` attribute);
 * 1: `%addr single_cache_line : T {attrs}`, `space` gm unless the dictionary gives it
 * (PTOAS's parser). KW is the word after the name (0) or after %addr (1). */
void pb_op_cmo(Parser *p, Span name, int form, Span kw, AttrValue *space, uint32_t nattrs, const Type *t, Span ts)
{
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, (uint32_t)form, nattrs);
    if (d.bad || (form == 1 && !t)) {
        pb_emit_broken(p, &d);
        return;
    }
    if (form == 0 && !STR_EQ_LIT(pb_text(p, kw), "all")) {
        ERR(kw, "expected SSA operand");
        pb_emit_broken(p, &d);
        return;
    }
    if (form == 1 && !STR_EQ_LIT(pb_text(p, kw), "single_cache_line")) {
        ERR(kw, "expected 'single_cache_line'");
        pb_emit_broken(p, &d);
        return;
    }
    if (form == 0 && (!space || space->kind != AV_ENUM || space->u.e.kind != EK_ADDRESS_SPACE)) {
        if (space)
            ERR(space->span, "invalid kind of attribute specified");
        pb_emit_broken(p, &d);
        return;
    }
    if (form == 0 || !ir_attr_find(d.attrs, d.nattrs, "space")) {
        if (!space) {
            space = pb_new_aval(p, AV_ENUM, name);
            space->u.e.kind = EK_ADDRESS_SPACE;
            space->u.e.value = enum_lookup(EK_ADDRESS_SPACE, "gm", 2);
        }
        Attr *na = arena_alloc(&p->m->arena, (d.nattrs + 1) * sizeof *na);
        na[0] = (Attr){{"space", 5}, false, form ? name : space->span, space};
        memcpy(na + 1, d.attrs, d.nattrs * sizeof *na);
        d.attrs = na;
        d.nattrs++;
    }
    if (form == 1) {
        const Type **utys = arena_alloc(&p->m->arena, sizeof *utys);
        utys[0] = t;
        d.utys = utys;
    }
    d.seg[0] = (uint32_t)form;
    (void)ts;
    if (!pb_bind_results(p, &d, 0)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* The comm signal ops (SYN_COMM): `(%sig, %v : V, T) {attrs}`, ttest's with `-> R`. */
void pb_op_comm(Parser *p, Span name, uint32_t nuses, uint32_t ntypes, uint32_t nattrs, const Type *rt, Span rs)
{
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, nuses, nattrs);
    bool test = d.kind == OP_COMM_TTEST;
    if (d.bad) {
        pb_emit_broken(p, &d);
        return;
    }
    if (nuses != 2 || ntypes != 2) {
        ERR(name, "'%s' op expects (%%signal, %%value : T1, T2), but got %u operand%s and %u type%s",
            op_info(d.kind)->name, nuses, nuses == 1 ? "" : "s", ntypes, ntypes == 1 ? "" : "s");
        pb_emit_broken(p, &d);
        return;
    }
    if (test != (rt != NULL || rs.end > rs.begin)) {
        ERR(test ? pb_next_token(p, rs.end) : rs,
            test ? "expected '->'" : "expected operation name in quotes");
        pb_emit_broken(p, &d);
        return;
    }
    d.utys = p->tys + p->ntys - ntypes;
    d.seg[0] = d.seg[1] = 1;
    if (!test) {
        if (!pb_bind_results(p, &d, 0)) {
            pb_emit_broken(p, &d);
            return;
        }
        pb_emit(p, &d);
        return;
    }
    if (!rt) {
        pb_emit_broken(p, &d);
        return;
    }
    emit_one_result(p, &d, rt, rs);
}
