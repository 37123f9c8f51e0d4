/* build_arith.c - builders of the scalar ops: arith's custom forms
 * (`%r = arith.addi %a, %b overflow<nsw> : i32`, `arith.cmpi slt, %a, %b : index`,
 * `arith.index_cast %a : i32 to index`, ...), their overflow/fastmath flags,
 * func.call, pto.load_scalar and pto.store_scalar, and the checks the generic
 * form of these ops needs before it becomes IR. The type rules are the
 * verifier's (verify_arith.c): here only the shape of what was written. */
#include <string.h>
#include "arith.h"
#include "build.h"
#include "parser.h"

static Span span_of(uint32_t b, uint32_t e)
{
    Span s = {b, e};
    return s;
}

void pb_push_word(Parser *p, Span s) { PUSH(p->words, p->nwords, p->words_cap, s); }

static const char *const flag_cpp[2] = {"::mlir::arith::IntegerOverflowFlags", "::mlir::arith::FastMathFlags"};
static const char *const flag_keys[3] = {ARITH_OVERFLOW_KEY, ARITH_FASTMATH_KEY, "?"};

/* The bits of the flag words on the words stack; false after reporting an
 * unknown one (op: the custom op's name for MLIR's "custom op '...'" prefix). */
static bool flag_bits(Parser *p, int family, const char *op, Span close, unsigned *bits)
{
    *bits = 0;
    char pre[80] = "";
    if (op)
        snprintf(pre, sizeof pre, "custom op '%s' ", op);
    if (p->nwords == 0) {
        ERR(close, "%sexpected valid keyword", pre);
        return false;
    }
    for (size_t i = 0; i < p->nwords; i++) {
        Str w = pb_text(p, p->words[i]);
        int b = arith_flag_lookup(family, w.p, w.len);
        if (b == 0) {
            ERR(p->words[i], "%sexpected %s to be one of: %s", pre, flag_cpp[family], arith_flag_list(family));
            return false;
        }
        if (b > 0)
            *bits |= (unsigned)b;
    }
    return true;
}

/* The custom form's `overflow<...>`/`fastmath<...>` of the op named at p->arith_op:
 * pushed as its attribute, with a NULL value when it is in error (reported). */
uint32_t pb_arith_flags(Parser *p, Span kw, uint32_t nwords, Span whole)
{
    (void)nwords;
    Str k = pb_text(p, kw), on = pb_text(p, p->arith_op);
    OpKind op = op_lookup(on.p, on.len);
    unsigned props = arith_props(op);
    int family = STR_EQ_LIT(k, "overflow") ? 0 : STR_EQ_LIT(k, "fastmath") ? 1 : 2;
    bool takes = (family == 0 && (props & AP_OVERFLOW)) || (family == 1 && (props & AP_FASTMATH));
    AttrValue *v = NULL;
    unsigned bits = 0;
    if (!takes)
        ERR(span_of(kw.begin, kw.begin), "expected ':'");
    else if (flag_bits(p, family, op_info(op)->name, span_of(whole.end - 1, whole.end), &bits)) {
        v = pb_new_aval(p, AV_FLAGS, whole);
        v->u.e.kind = family;
        v->u.e.value = (int)bits;
    }
    Attr a = {{flag_keys[family], (uint32_t)strlen(flag_keys[family])}, false, whole, v};
    PUSH(p->attrs, p->nattrs, p->attrs_cap, a);
    return 1;
}

AttrValue *pb_attr_flags(Parser *p, Span hash, uint32_t nwords, Span whole)
{
    (void)nwords;
    Str h = pb_text(p, hash);
    int family = STR_EQ_LIT(h, "#arith.overflow") ? 0 : STR_EQ_LIT(h, "#arith.fastmath") ? 1 : -1;
    if (family < 0) {
        ERR(hash, "unknown attribute '%.*s'", (int)h.len, h.p);
        return NULL;
    }
    unsigned bits;
    if (!flag_bits(p, family, NULL, span_of(whole.end - 1, whole.end), &bits))
        return NULL;
    AttrValue *v = pb_new_aval(p, AV_FLAGS, whole);
    v->u.e.kind = family;
    v->u.e.value = (int)bits;
    return v;
}

void pb_to_keyword(Parser *p, Span kw)
{
    Str t = pb_text(p, kw);
    if (!STR_EQ_LIT(t, "to"))
        ERR(kw, "expected 'to', but got '%.*s'", (int)t.len, t.p);
}

/* Adds attribute key = v in front of d's attributes. */
static void add_attr(Parser *p, Draft *d, const char *key, AttrValue *v)
{
    Attr *na = arena_alloc(&p->m->arena, (d->nattrs + 1) * sizeof *na);
    na[0] = (Attr){{key, (uint32_t)strlen(key)}, false, v->span, v};
    memcpy(na + 1, d->attrs, d->nattrs * sizeof *na);
    d->attrs = na;
    d->nattrs++;
}

static void drop_attr(Draft *d, uint32_t i)
{
    memmove(&d->attrs[i], &d->attrs[i + 1], (d->nattrs - i - 1) * sizeof *d->attrs);
    d->nattrs--;
}

static uint32_t arith_operands(ArithClass c)
{
    return c == AC_SELECT ? 3 : c == AC_FLOAT_UN || c == AC_CAST ? 1 : 2;
}

/* The custom form's flags clause (pb_arith_flags): false if it was in error; the
 * default (`overflow<none>`) is not kept. */
static bool custom_flags(Draft *d)
{
    for (uint32_t i = 0; i < d->nattrs; i++) {
        if (d->attrs[i].key.p != flag_keys[0] && d->attrs[i].key.p != flag_keys[1] &&
            d->attrs[i].key.p != flag_keys[2])
            continue;
        if (!d->attrs[i].val)
            return false;
        if (d->attrs[i].val->u.e.value == 0)
            drop_attr(d, i);
        return true;
    }
    return true;
}

void pb_op_arith(Parser *p, Span name, uint32_t nuses, uint32_t nattrs, uint32_t ntypes, const Type *to, Span ts)
{
    Draft d;
    pb_draft_init(p, &d, name, FORM_L1, nuses, nattrs);
    ArithClass c = arith_class(d.kind);
    const char *opn = op_info(d.kind)->name;
    const Type *const *tys = p->tys + p->ntys - ntypes;
    const Span *tspans = p->ty_spans + p->ntys - ntypes;
    Span pred = p->arith_pred;
    bool ok = true;
    if (c == AC_CMPI) {
        Str t = pb_text(p, pred);
        if (t.len >= 2 && t.p[0] == '"') {
            t.p++;
            t.len -= 2;
        }
        int k = pred.end > pred.begin ? cmpi_lookup(t.p, t.len) : -1;
        if (k < 0) {
            ERR(pred.end > pred.begin ? pred : d.uses[0],
                "custom op '%s' expected string or keyword containing one of the following enum values for "
                "attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]",
                opn);
            ok = false;
        } else {
            AttrValue *v = pb_new_aval(p, AV_INT, pred);
            v->type = DT_I64;
            v->u.i = k;
            add_attr(p, &d, ARITH_PREDICATE_KEY, v);
        }
    } else if (pred.end > pred.begin) {
        ERR(pred, "expected SSA operand");
        ok = false;
    }
    uint32_t need = arith_operands(c);
    if (ok && nuses != need) {
        ERR(name, "custom op '%s' expected %u operand%s", opn, need, need == 1 ? "" : "s");
        ok = false;
    }
    ok = ok && custom_flags(&d);
    if (ok && c == AC_CAST && !to) {
        ERR(span_of(tspans[ntypes - 1].end, tspans[ntypes - 1].end), "custom op '%s' expected 'to'", opn);
        ok = false;
    }
    if (ok && c != AC_CAST && to) {
        ERR(ts, "custom op '%s' expects no 'to' type: it is not a cast", opn);
        ok = false;
    }
    uint32_t want_types = c == AC_SELECT && ntypes == 2 ? 2 : 1;
    if (ok && ntypes != want_types) {
        ERR(tspans[want_types], "custom op '%s' expected %s type after ':', but got %u", opn,
            c == AC_SELECT ? "one (or the condition's and one)" : "one", ntypes);
        ok = false;
    }
    const Type *rt = NULL;
    const Type **utys = arena_zalloc(&p->m->arena, 3 * sizeof *utys);
    Span rs = name;
    if (ok) {
        const Type *t = tys[ntypes - 1];
        rs = tspans[ntypes - 1];
        switch (c) {
        case AC_SELECT:
            utys[0] = ntypes == 2 ? tys[0] : type_scalar(&p->m->types, DT_I1);
            utys[1] = utys[2] = t;
            rt = t;
            break;
        case AC_CAST:
            utys[0] = t;
            rt = to;
            rs = ts;
            break;
        case AC_CMPI:
            utys[0] = utys[1] = t;
            rt = type_scalar(&p->m->types, DT_I1);
            break;
        default:
            utys[0] = utys[1] = t;
            rt = t;
            break;
        }
        d.utys = utys;
        for (uint32_t i = 0; i < need; i++)
            d.seg[i] = 1;
    }
    d.nres = 1;
    d.rtys = rt ? &rt : NULL;
    d.rspans = &rs;
    if (!ok || !pb_bind_results(p, &d, 1)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

void pb_op_call(Parser *p, Span name, Span callee, uint32_t nuses, uint32_t nattrs, uint32_t nparams,
                uint32_t nresults)
{
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, nuses, nattrs);
    const Type *const *params = p->tys + p->ntys - nresults - nparams;
    d.rtys = p->tys + p->ntys - nresults;
    d.rspans = p->ty_spans + p->ntys - nresults;
    d.nres = nresults;
    if (nparams != nuses) {
        ERR(name, "'func.call' op expects %u operand type%s, but got %u", nuses, nuses == 1 ? "" : "s", nparams);
        d.rtys = NULL;
        pb_emit_broken(p, &d);
        return;
    }
    d.utys = params;
    d.seg[0] = nuses;
    add_attr(p, &d, "callee", pb_attr_simple(p, AV_SYMBOL, callee));
    if (!pb_bind_results(p, &d, nresults)) {
        d.rtys = NULL;
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* `pto.load_scalar %p[%i] : !pto.ptr<T> -> T`: operands (ptr, offset) */
void pb_op_load_scalar(Parser *p, Span name, uint32_t nattrs, const Type *pt, Span ps, const Type *rt, Span rs)
{
    (void)ps;
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, 2, nattrs);
    const Type **utys = arena_zalloc(&p->m->arena, 2 * sizeof *utys);
    utys[0] = pt;
    utys[1] = type_scalar(&p->m->types, DT_INDEX);
    d.utys = utys;
    d.seg[0] = d.seg[1] = 1;
    d.nres = 1;
    d.rtys = rt ? &rt : NULL;
    d.rspans = &rs;
    if (!pt || !rt || !pb_bind_results(p, &d, 1)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* `pto.store_scalar %v, %p[%i] : !pto.ptr<T>, T`: written value first, operands (ptr, offset, value) */
void pb_op_store_scalar(Parser *p, Span name, uint32_t nattrs, const Type *pt, Span ps, const Type *vt, Span vs)
{
    (void)ps;
    (void)vs;
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, 3, nattrs);
    Span *u = arena_alloc(&p->m->arena, 3 * sizeof *u);
    u[0] = d.uses[1];
    u[1] = d.uses[2];
    u[2] = d.uses[0];
    d.uses = u;
    const Type **utys = arena_zalloc(&p->m->arena, 3 * sizeof *utys);
    utys[0] = pt;
    utys[1] = type_scalar(&p->m->types, DT_INDEX);
    utys[2] = vt;
    d.utys = utys;
    d.seg[0] = d.seg[1] = d.seg[2] = 1;
    if (!pt || !vt || !pb_bind_results(p, &d, 0)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

/* The generic form of a scalar op: MLIR's operand and result counts; the
 * properties, when present, of the kind the op stores. */
bool pb_scalar_generic(Parser *p, Draft *d, uint32_t nresults)
{
    const OpInfo *in = op_info(d->kind);
    const char *opn = in->name;
    ArithClass c = arith_class(d->kind);
    if (c != AC_NONE) {
        uint32_t need = arith_operands(c);
        if (d->n != need) {
            if (need == 1)
                ERR(d->name, "'%s' op requires a single operand", opn);
            else
                ERR(d->name, "'%s' op expected %u operands, but found %u", opn, need, d->n);
            return false;
        }
        if (nresults != 1) {
            ERR(d->name, "'%s' op requires one result", opn);
            return false;
        }
        for (uint32_t i = 0; i < need; i++)
            d->seg[i] = 1;
    } else if (d->kind == OP_CALL) {
        d->seg[0] = d->n;
    } else {
        uint32_t need = d->kind == OP_LOAD_SCALAR ? 2 : 3, nres = d->kind == OP_LOAD_SCALAR ? 1 : 0;
        if (d->n != need) {
            ERR(d->name, "'%s' op expected %u operands, but found %u", opn, need, d->n);
            return false;
        }
        if (nresults != nres) {
            ERR(d->name, nres ? "'%s' op requires one result" : "'%s' op requires zero results", opn);
            return false;
        }
        for (uint32_t i = 0; i < need; i++)
            d->seg[i] = 1;
    }
    /* properties of the wrong kind: MLIR cannot convert them */
    unsigned props = arith_props(d->kind);
    for (uint32_t i = 0; i < d->nattrs; i++) {
        const Attr *a = &d->attrs[i];
        AttrValueKind want;
        int family = -1;
        if ((props & AP_OVERFLOW) && STR_EQ_LIT(a->key, ARITH_OVERFLOW_KEY))
            want = AV_FLAGS, family = 0;
        else if ((props & AP_FASTMATH) && STR_EQ_LIT(a->key, ARITH_FASTMATH_KEY))
            want = AV_FLAGS, family = 1;
        else if ((props & AP_PREDICATE) && STR_EQ_LIT(a->key, ARITH_PREDICATE_KEY))
            want = AV_INT;
        else if (d->kind == OP_CALL && STR_EQ_LIT(a->key, "callee"))
            want = AV_SYMBOL;
        else
            continue;
        const AttrValue *v = a->val;
        bool good = v && v->kind == want && (family < 0 || (int)v->u.e.kind == family) &&
                    (want != AV_INT || v->type == DT_I64);
        if (!good) {
            StrBuf b = {0};
            if (v)
                print_attr_value(&b, v);
            sb_putc(&b, '\0');
            ERR(d->name, "invalid properties {%.*s = %s} for op %s: Invalid attribute `%.*s` in property conversion: %s",
                (int)a->key.len, a->key.p, b.p, opn, (int)a->key.len, a->key.p, b.p);
            sb_free(&b);
            return false;
        }
        if (family >= 0 && v->u.e.value == 0) { /* #arith.overflow<none>: the default */
            drop_attr(d, i);
            i--;
        }
    }
    return true;
}
