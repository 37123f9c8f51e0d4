/* verify_scal.c - the rules of issue 24's scalar line of work (docs/verify.md): single
 * element access (pto.tgetval, pto.tsetval), pointers (pto.addptr, pto.ptrtoint, pto.inttoptr,
 * pto.castptr, pto.tile_buf_addr), the view and tile queries and the debug ops (pto.tprint,
 * pto.print, pto.trap) and the local arrays (pto.declare_local_array, pto.local_array_get/set).
 * PTOAS's rules and texts are errors; the rules
 * the runtime needs and PTOAS lacks are warnings at the op, so that what PTOAS accepts
 * verifies. */
#include <stdio.h>
#include <string.h>
#include "verify_int.h"

#define fail verify_op_error

/* PTOAS's ScalarType (AnySignlessInteger or AnyFloat): the value of tsetval, the result
 * of tgetval. */
static bool numeric(const Type *t)
{
    if (!t || t->kind != TY_SCALAR)
        return false;
    DTypeKind k = dtype_kind(t->dtype);
    return k == DK_INT || (k == DK_FLOAT || k == DK_PTO);
}

/* MLIR's operand constraint text for operand n of the generic order. */
static bool operand_is(V *v, int role, uint32_t n, bool ok, const char *what)
{
    if (ok)
        return true;
    char b[256];
    return fail(v, -1, "operand #%u must be %s, but got '%s'", n, what, type_str(v->ty[role], b, sizeof b));
}

static bool is_index(const Type *t) { return t && t->kind == TY_SCALAR && t->dtype == DT_INDEX; }

/* pto.tgetval ins(%src, %offset : tile_buf, index) outs : T */
static bool verify_tgetval(V *v)
{
    int src = op_role(v->op->kind, ROLE_SRC), off = op_role(v->op->kind, ROLE_OFFSET);
    if (!operand_is(v, off, 1, is_index(v->ty[off]), "index"))
        return false;
    const Type *rt = v->f->values[v->op->res[0]].type;
    if (!numeric(rt)) {
        char b[256];
        return fail(v, -1, "result #0 must be numeric (integer/float), but got '%s'", type_str(rt, b, sizeof b));
    }
    if (!v->ty[src] || v->ty[src]->kind != TY_TILE_BUF)
        return fail(v, src, "expects src to be tile_buf type");
    const TileBody *t = v->tb[src];
    if (t->loc == LOC_MAT)
        return fail(v, src, "Ascend hardware does not support reading from Mat tile_buf to Scalar unit");
    if (t->loc != LOC_VEC)
        return fail(v, src, "expects src memory space to be vec");
    if (rt->dtype != t->dtype)
        return fail(v, src, "expects dst type to match src element type");
    return true;
}

/* pto.tsetval ins(%offset, %val : index, T) outs(%dst : tile_buf). PTOAS compares val's
 * type with dst's element type for shaped types only, which a tile_buf is not; pto-isa's
 * SetValue takes a vec tile's element type: both warnings. */
static bool verify_tsetval(V *v)
{
    int off = op_role(v->op->kind, ROLE_OFFSET), val = op_role(v->op->kind, ROLE_VAL);
    int dst = op_role(v->op->kind, ROLE_DST);
    if (!operand_is(v, off, 1, is_index(v->ty[off]), "index") ||
        !operand_is(v, val, 2, numeric(v->ty[val]), "numeric (integer/float)"))
        return false;
    const TileBody *t = v->tb[dst];
    if (t->loc != LOC_VEC)
        verify_op_warning(v, "expects dst to be in the vec address space (pto-isa's SetValue)");
    if (v->ty[val]->dtype != t->dtype) {
        char b[256];
        verify_op_warning(v, "expects val type to match dst element type, but got '%s' for '%s'",
             type_str(v->ty[val], b, sizeof b), dtype_name(t->dtype));
    }
    return true;
}

/* ---- pointers (PTOAS's AddPtrOp, PtrToIntOp, IntToPtrOp, CastPtrOp, TileBufAddrOp) ---- */

static bool is_ptr(const Type *t) { return t && t->kind == TY_PTR; }
static bool is_int(const Type *t) { return t && t->kind == TY_SCALAR && dtype_is_int(t->dtype); }
static bool is_i64(const Type *t) { return is_int(t) && dtype_int_width(t->dtype) == 64; }
/* gm whether written or not */
static int space_of(const Type *t) { return t->ptr_space == PS_DEFAULT ? PS_GM : t->ptr_space; }

/* PTOAS's isEmitCSupportedScalarType: f16 bf16 f32 f64, 8/16/32/64-bit integers, the fp8
 * types, hif8 and the packed fp4 pairs. */
static bool emitc_scalar(DType d)
{
    if (d == DT_F16 || d == DT_BF16 || d == DT_F32 || d == DT_F64 || dtype_is_fp8(d))
        return true;
    if (d == DT_HIF8 || d == DT_F4E1M2X2 || d == DT_F4E2M1X2)
        return true;
    unsigned w = dtype_is_int(d) ? dtype_int_width(d) : 0;
    return w == 8 || w == 16 || w == 32 || w == 64;
}

/* PTOAS's validateIntToPtrUses: every use of the result is the pointer of a scalar access. */
static bool inttoptr_uses(V *v)
{
    ValueId r = v->op->res[0];
    for (const Op *u = ir_first_op(v->f); u; u = ir_next_op(u))
        for (uint32_t i = 0; i < u->nopnds; i++) {
            if (u->opnds[i] != r || (i == 0 && (u->kind == OP_LOAD_SCALAR || u->kind == OP_STORE_SCALAR)))
                continue;
            verify_error(v, "result may only be used as the pointer operand of pto.load_scalar or "
                            "pto.store_scalar; found use by '%s'", op_info(u->kind)->name);
            diag_note(v->d, u->name_span, "disallowed pto.inttoptr use here");
            return false;
        }
    return true;
}

/* The pointer space of a tile's loc (vec = ub, mat = l1, ...). */
static int loc_space(int loc)
{
    static const int map[LOC_COUNT] = {[LOC_VEC] = PS_UB, [LOC_MAT] = PS_L1, [LOC_LEFT] = PS_L0A,
                                       [LOC_RIGHT] = PS_L0B, [LOC_ACC] = PS_L0C, [LOC_BIAS] = PS_BT,
                                       [LOC_SCALING] = PS_FB};
    return map[loc];
}

static bool verify_ptr_op(V *v)
{
    const Type *a = v->ty[0], *rt = v->f->values[v->op->res[0]].type;
    char b[256];
    switch (v->op->kind) {
    case OP_ADDPTR:
        if (!is_ptr(a))
            return verify_error(v, "ptr operand must be !pto.ptr<...>");
        if (!is_index(v->ty[1]))
            return verify_error(v, "operand #1 must be index, but got '%s'", type_str(v->ty[1], b, sizeof b));
        if (!is_ptr(rt))
            return verify_error(v, "result must be !pto.ptr<...>");
        if (a != rt)
            return verify_error(v, "result type must match ptr operand type");
        return true;
    case OP_PTRTOINT:
        if (!is_i64(rt))
            return verify_error(v, "result must be i64");
        if (!is_ptr(a))
            return verify_error(v, "ptr operand must be !pto.ptr<...>");
        return true;
    case OP_INTTOPTR:
        if (!is_i64(a))
            return verify_error(v, "address operand must be i64");
        if (!is_ptr(rt))
            return verify_error(v, "result must be !pto.ptr<...>");
        if (!emitc_scalar(rt->dtype))
            return verify_error(v, "result element type is not supported by EmitC: '%s'", dtype_name(rt->dtype));
        return inttoptr_uses(v);
    case OP_CASTPTR:
        if (!is_ptr(a) && !is_int(a))
            return verify_error(v, "input must be an integer, memref, or !pto.ptr<...>");
        if (!is_ptr(rt) && !is_int(rt))
            return verify_error(v, "result must be an integer or !pto.ptr<...>");
        if (is_int(a) && is_int(rt))
            return verify_error(v, "integer-to-integer cast is not a ptr cast");
        if (is_ptr(a) && is_ptr(rt) && space_of(a) != space_of(rt))
            return verify_error(v, "ptr-to-ptr cast must stay within the same PTO memory space");
        return true;
    default: /* OP_TILE_BUF_ADDR */
        if (!a || a->kind != TY_TILE_BUF)
            return verify_error(v, "source must be a !pto.tile_buf<...> or memref");
        if (!is_ptr(rt))
            return verify_error(v, "result must be a memref or !pto.ptr<...>");
        if (rt->dtype != a->tile.dtype)
            return verify_error(v, "pointer result element type must match tile element type");
        if (space_of(rt) != loc_space(a->tile.loc))
            return verify_error(v, "pointer result must stay within the tile memory space");
        return true;
    }
}

/* get_tensor_view_dim/stride, tile_valid_rows/cols: MLIR's operand and result constraints */
static bool verify_query(V *v)
{
    const Type *a = v->ty[0], *rt = v->f->values[v->op->res[0]].type;
    char b[256];
    bool view = op_role(v->op->kind, ROLE_TENSOR_VIEW) >= 0;
    if (view && !(a && (a->kind == TY_TENSOR_VIEW || a->kind == TY_PART_VIEW)))
        return verify_error(v, "operand #0 must be TensorView or PartitionTensorView, but got '%s'",
                            type_str(a, b, sizeof b));
    if (!view && !(a && a->kind == TY_TILE_BUF))
        return verify_error(v, "operand #0 must be a tile_buf, but got '%s'", type_str(a, b, sizeof b));
    if (view && !is_index(v->ty[1]))
        return verify_error(v, "operand #1 must be index, but got '%s'", type_str(v->ty[1], b, sizeof b));
    if (!is_index(rt))
        return verify_error(v, "result #0 must be index, but got '%s'", type_str(rt, b, sizeof b));
    int64_t k;
    if (view && ir_const_int(v->f, v->val[1], &k) && (k < 0 || k >= (int64_t)a->rank))
        verify_op_warning(v, "dimension %lld is outside the view's rank %u", (long long)k, a->rank);
    return true;
}

/* ---- debug (PTOAS's TPrintOp, PrintOp, TrapOp) --------------------------------------- */

/* tprint's printFormat: 0 (absent or width8_precision4), 1 (width8_precision2), 2
 * (width10_precision6), -1 (another word) */
int tprint_format(const Op *op)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, "printFormat");
    if (!a)
        return 0;
    static const char *const words[] = {"width8_precision4>", "width8_precision2>", "width10_precision6>"};
    Str t = a->val->u.s;
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(words[k]);
        if (a->val->kind == AV_OPAQUE && t.len >= 18 + n && !memcmp(t.p + 18, words[k], n) && t.len == 18 + n)
            return k;
    }
    return -1;
}

static bool verify_debug(V *v)
{
    char b[256];
    if (v->op->kind == OP_PRINT) { /* PrintScalarType: AnyInteger or AnyFloat */
        const Type *t = v->ty[0];
        bool ok = t && t->kind == TY_SCALAR && (dtype_is_int(t->dtype) || dtype_kind(t->dtype) == DK_FLOAT);
        if (!ok)
            return verify_error(v, "operand #0 must be integer/float printable scalar, but got '%s'", type_str(t, b, sizeof b));
        return true;
    }
    if (v->op->kind != OP_TPRINT)
        return true;
    const Attr *pf = ir_attr_find(v->op->attrs, v->op->nattrs, "printFormat");
    if (pf && (pf->val->kind != AV_OPAQUE || pf->val->u.s.len < 19 || memcmp(pf->val->u.s.p, "#pto<print_format ", 18)))
        return verify_error(v, "attribute 'printFormat' failed to satisfy constraint: TPRINT output format mode");
    if (pf && tprint_format(v->op) < 0)
        return verify_error(v, "expected ::mlir::pto::PrintFormat to be one of: width8_precision4, width8_precision2, "
                               "width10_precision6");
    int src = op_role(v->op->kind, ROLE_SRC), tmp = op_role(v->op->kind, ROLE_TMP);
    const Type *t = v->ty[src];
    bool has_tmp = v->val[tmp] != NO_VALUE;
    if (t && t->kind == TY_TILE_BUF) {
        DType e = t->tile.dtype;
        unsigned w = dtype_is_int(e) ? dtype_int_width(e) : 0;
        if (!(e == DT_F16 || e == DT_F32 || w == 8 || w == 16 || w == 32))
            return fail(v, src, "expects printable tile element type");
        int loc = t->tile.loc;
        if (!has_tmp)
            return loc == LOC_VEC ? true : fail(v, src, "expects printable tile_buf without tmp to be in vec address space");
        if (loc == LOC_MAT && v->arch == ARCH_A5)
            return fail(v, src, "expects mat tile printing with tmp only on A2/A3 targets");
        if (loc != LOC_VEC && loc != LOC_MAT && loc != LOC_ACC)
            return fail(v, src, "expects printable tile_buf with tmp to be in vec/mat/acc address space");
        return true;
    }
    if (has_tmp)
        return fail(v, src, "expects tmp only when src is a tile_buf");
    if (t && t->kind == TY_PART_VIEW)
        return true;
    return fail(v, src, "expects tile_buf or partition_tensor_view for src");
}

/* ---- local arrays (PTOAS's DeclareLocalArrayOp, LocalArrayGetOp, LocalArraySetOp) ---- */

#define LOCAL_ARRAY_WHAT "C++ stack-local statically-sized array"

/* ODS's operand and result constraints, then the rank and element-type rules. */
static bool verify_local(V *v)
{
    const Op *op = v->op;
    const Value *vals = v->f->values;
    char b[256], c[256];
    if (op->kind == OP_DECLARE_LOCAL_ARRAY) {
        const Type *rt = vals[op->res[0]].type;
        if (rt && rt->kind == TY_LOCAL_ARRAY)
            return true;
        return fail(v, -1, "result #0 must be " LOCAL_ARRAY_WHAT ", but got '%s'", type_str(rt, b, sizeof b));
    }
    const Type *at = vals[op->opnds[0]].type;
    if (!operand_is(v, 0, 0, at && at->kind == TY_LOCAL_ARRAY, LOCAL_ARRAY_WHAT))
        return false;
    uint32_t nidx = op->seg[1];
    for (uint32_t i = 0; i < nidx; i++) {
        const Type *t = vals[op->opnds[1 + i]].type;
        if (!is_index(t))
            return fail(v, -1, "operand #%u must be variadic of index, but got '%s'", 1 + i, type_str(t, b, sizeof b));
    }
    bool get = op->kind == OP_LOCAL_ARRAY_GET;
    const Type *st = get ? vals[op->res[0]].type : vals[op->opnds[1 + nidx]].type;
    if (!numeric(st)) {
        if (get)
            return fail(v, -1, "result #0 must be numeric (integer/float), but got '%s'", type_str(st, b, sizeof b));
        return fail(v, -1, "operand #%u must be numeric (integer/float), but got '%s'", 1 + nidx,
                    type_str(st, b, sizeof b));
    }
    if (nidx != at->rank)
        return fail(v, -1, "expects %u indices for !pto.local_array of rank %u, got %u", at->rank, at->rank, nidx);
    if (st->dtype != at->dtype) {
        snprintf(c, sizeof c, "%s", dtype_name(at->dtype));
        return fail(v, -1, "%s type %s does not match array element type %s", get ? "result" : "value",
                    type_str(st, b, sizeof b), c);
    }
    return true;
}

/* The event-id arrays: ODS's constraints only (PTOAS has no verifier for them). */
static bool verify_eventid(V *v)
{
    const Op *op = v->op;
    const Value *vals = v->f->values;
    char b[256];
    const char *what = "Manual-only local array for dynamic event ids";
    if (op->kind == OP_DECLARE_EVENTID_ARRAY) {
        const Type *rt = vals[op->res[0]].type;
        if (rt && rt->kind == TY_EVENTID_ARRAY)
            return true;
        return fail(v, -1, "result #0 must be %s, but got '%s'", what, type_str(rt, b, sizeof b));
    }
    const Type *at = vals[op->opnds[0]].type;
    if (!operand_is(v, 0, 0, at && at->kind == TY_EVENTID_ARRAY, what))
        return false;
    for (uint32_t i = 1; i < op->nopnds; i++)
        if (!is_index(vals[op->opnds[i]].type))
            return fail(v, -1, "operand #%u must be index, but got '%s'", i, type_str(vals[op->opnds[i]].type, b, sizeof b));
    if (op->nres && !is_index(vals[op->res[0]].type))
        return fail(v, -1, "result #0 must be index, but got '%s'", type_str(vals[op->res[0]].type, b, sizeof b));
    return true;
}

/* ---- cache maintenance (PTOAS's CmoCacheInvalidOp) ---- */

/* The space is gm (or zero); a line's address a gm pointer or a tensor or partition view. */
static bool verify_cmo(V *v)
{
    const Attr *sp = ir_attr_find(v->op->attrs, v->op->nattrs, "space");
    if (!sp)
        return verify_error(v, "requires attribute 'space'");
    int s = sp->val->kind == AV_ENUM && sp->val->u.e.kind == EK_ADDRESS_SPACE ? sp->val->u.e.value : -1;
    if (s != enum_lookup(EK_ADDRESS_SPACE, "gm", 2) && s != enum_lookup(EK_ADDRESS_SPACE, "zero", 4))
        return verify_error(v, "only supports GM cache maintenance");
    if (v->op->nopnds) {
        const Type *t = v->f->values[v->op->opnds[0]].type;
        bool ok = t && ((t->kind == TY_PTR && (t->ptr_space == PS_DEFAULT || t->ptr_space == PS_GM)) ||
                        t->kind == TY_TENSOR_VIEW || t->kind == TY_PART_VIEW);
        if (!ok)
            return verify_error(v, "single_cache_line address expects a GM pointer or GM tensor view");
    }
    return true;
}

/* ---- communication signals (PTOAS's TNotifyOp, TWaitOp, TTestOp) ---- */

/* Whether the opaque attribute KEY is `#pto<KIND v>` with v one of NAMES (a NULL-ended list);
 * reports MLIR's messages otherwise. */
static bool comm_enum_attr(V *v, const char *key, const char *kind, const char *cpp, const char *const *names)
{
    const Attr *a = ir_attr_find(v->op->attrs, v->op->nattrs, key);
    if (!a)
        return verify_error(v, "requires attribute '%s'", key);
    Str s = a->val->kind == AV_OPAQUE ? a->val->u.s : (Str){"", 0};
    size_t kl = strlen(kind);
    /* #pto<kind v> or #pto.kind<v> */
    const char *p = NULL;
    if (s.len > 5 + kl && !memcmp(s.p, "#pto<", 5) && !memcmp(s.p + 5, kind, kl) && s.p[5 + kl] == ' ')
        p = s.p + 6 + kl;
    else if (s.len > 5 + kl && !memcmp(s.p, "#pto.", 5) && !memcmp(s.p + 5, kind, kl) && s.p[5 + kl] == '<')
        p = s.p + 6 + kl;
    size_t n = p ? (size_t)(s.p + s.len - 1 - p) : 0;
    for (int i = 0; p && names[i]; i++)
        if (strlen(names[i]) == n && !memcmp(names[i], p, n))
            return true;
    char list[128] = "";
    for (int i = 0; names[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    if (!p)
        return verify_error(v, "attribute '%s' failed to satisfy constraint: %s", key,
                            op_info(v->op->kind)->attrs[0].summary);
    return verify_error(v, "expected ::mlir::pto::%s to be one of: %s", cpp, list);
}

/* PTOAS's verifyCommSignalLike and the i32 value rule. */
static bool verify_comm_signal(V *v)
{
    static const char *const notify[] = {"atomic_add", "set", NULL};
    static const char *const cmp[] = {"eq", "ne", "gt", "ge", "lt", "le", NULL};
    const Op *op = v->op;
    bool notify_op = op->kind == OP_COMM_TNOTIFY;
    if (!(notify_op ? comm_enum_attr(v, "notifyOp", "notify_op", "NotifyOp", notify)
                    : comm_enum_attr(v, "cmp", "wait_cmp", "WaitCmp", cmp)))
        return false;
    const Type *st = v->f->values[op->opnds[0]].type, *vt = v->f->values[op->opnds[1]].type;
    char b[256];
    if (!st || !(st->kind == TY_TENSOR_VIEW || st->kind == TY_PART_VIEW || st->kind == TY_TILE_BUF))
        return fail(v, -1, "operand #0 must be TensorView, PartitionTensorView, TileBuf, or Tensor, but got '%s'",
                    type_str(st, b, sizeof b));
    if (!vt || vt->kind != TY_SCALAR || dtype_kind(vt->dtype) != DK_INT)
        return fail(v, -1, "operand #1 must be signless integer, but got '%s'", type_str(vt, b, sizeof b));
    if (op->nres) {
        const Type *rt = v->f->values[op->res[0]].type;
        if (!rt || rt->kind != TY_SCALAR || rt->dtype != DT_I1)
            return fail(v, -1, "result #0 must be 1-bit signless integer, but got '%s'", type_str(rt, b, sizeof b));
    }
    if (st->kind == TY_TILE_BUF)
        return verify_error(v, "expects signal to be a tensor_view or partition_view");
    for (uint32_t i = 0; i < st->rank; i++) {
        if (st->dims[i] == DIM_DYNAMIC)
            return verify_error(v, "does not support dynamic dimensions on signal");
        if (st->dims[i] <= 0)
            return verify_error(v, "expects every static dimension of signal to be positive");
    }
    if (st->dtype != DT_I32)
        return verify_error(v, "expects signal element type to be i32");
    if (dtype_int_width(vt->dtype) != 32)
        return verify_error(v, notify_op ? "expects value to be i32" : "expects cmp_value to be i32");
    return true;
}

bool verify_scal_op(V *v)
{
    if (op_info(v->op->kind)->cls == OC_COMM_SIGNAL) {
        bool ok = verify_comm_signal(v);
        if (!ok)
            v->errors = true;
        return ok;
    }
    if (op_info(v->op->kind)->cls == OC_CMO) {
        bool ok = verify_cmo(v);
        if (!ok)
            v->errors = true;
        return ok;
    }
    if (op_info(v->op->kind)->cls == OC_LOCAL) {
        OpKind k = v->op->kind;
        bool ev = k == OP_DECLARE_EVENTID_ARRAY || k == OP_EVENTID_ARRAY_GET || k == OP_EVENTID_ARRAY_SET;
        bool ok = ev ? verify_eventid(v) : verify_local(v);
        if (!ok)
            v->errors = true;
        return ok;
    }
    const OpInfo *in = op_info(v->op->kind);
    bool ok = in->cls == OC_DEBUG   ? verify_debug(v)
              : in->cls == OC_PTR   ? verify_ptr_op(v)
              : in->cls == OC_QUERY ? verify_query(v)
              : v->op->kind == OP_TGETVAL ? verify_tgetval(v)
                                          : verify_tsetval(v);
    if (!ok)
        v->errors = true;
    return ok;
}
