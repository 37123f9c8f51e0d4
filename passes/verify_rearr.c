/* verify_rearr.c - the rules of the rearrangement ops (docs/verify.md section 8): tgather's
 * index form and tfillpad, PTOAS's verifiers in their order and words (lib/PTO/IR/PTO.cpp,
 * TGatherOp::verify, TFillPadOp::verify). verify_vec.c dispatches here by op class. */
#include <stdio.h>
#include <string.h>
#include "verify_int.h"

#define fail verify_op_error

static bool rk_known(int64_t x) { return x != DIM_DYNAMIC; }
static bool rk_a5(const V *v) { return v->arch == ARCH_A5; }
static int rk_role(const V *v, RoleId r) { return op_role(v->op->kind, r); }
static const TileBody *rk_tile(const V *v, RoleId r)
{
    int i = rk_role(v, r);
    return i >= 0 ? v->tb[i] : NULL;
}

/* verifyTileBufCommon: low-precision element types only where the op allows them */
static bool rk_common(V *v, RoleId r, bool allow_low)
{
    const TileBody *t = rk_tile(v, r);
    if (t && !allow_low && dtype_is_low_precision(t->dtype))
        return fail(v, rk_role(v, r), "%s: dtype %s is not supported by this op yet", role_name(r),
                    dtype_name(t->dtype));
    return true;
}

/* isSupportedGatherElemTypeA2A3 / the A5 index form's list (any signedness by width; fp8) */
static bool gather_elem_a3(DType d)
{
    unsigned w = dtype_int_width(d);
    return d == DT_F16 || d == DT_F32 || (dtype_is_int(d) && (w == 16 || w == 32));
}
static bool gather_elem_a5(DType d)
{
    unsigned w = dtype_int_width(d);
    return dtype_is_fp8(d) || d == DT_F16 || d == DT_F32 || (dtype_is_int(d) && (w == 8 || w == 16 || w == 32));
}

/* valid_shape[1] equals the columns where both are static */
static bool full_width(V *v, RoleId r)
{
    const TileBody *t = rk_tile(v, r);
    if (rk_known(t->vcol) && t->vcol != t->cols)
        return fail(v, rk_role(v, r), "expects %s valid_shape[1] to equal %s cols", role_name(r), role_name(r));
    return true;
}

/* the mask form's axis, or an index / compare form that has one */
static bool no_axis(V *v)
{
    if (ir_attr_find(v->op->attrs, v->op->nattrs, "axis"))
        return fail(v, -1, "axis attribute must not be provided without maskPattern");
    return true;
}

static bool verify_gather(V *v)
{
    bool a5 = rk_a5(v);
    const TileBody *s = rk_tile(v, ROLE_SRC), *d = rk_tile(v, ROLE_DST), *ix = rk_tile(v, ROLE_INDICES),
                   *t = rk_tile(v, ROLE_TMP);
    if (!no_axis(v))
        return false;
    if (!a5 && !t)
        return fail(v, -1, "index-form tgather expects both indices and tmp");
    if (!rk_common(v, ROLE_SRC, a5) || !rk_common(v, ROLE_DST, a5) || !rk_common(v, ROLE_INDICES, false) ||
        (t && !rk_common(v, ROLE_TMP, false)))
        return false;
    if (s->dtype != d->dtype)
        return fail(v, rk_role(v, ROLE_SRC), "expects src and dst to have the same element type");
    if (a5 ? !gather_elem_a5(s->dtype) : !gather_elem_a3(s->dtype))
        return fail(v, rk_role(v, ROLE_SRC), "%s", a5 ? op_info(v->op->kind)->dt_msg_a5 : op_info(v->op->kind)->dt_msg_a3);
    if (!dtype_is_int(ix->dtype))
        return fail(v, rk_role(v, ROLE_INDICES), "indices element type must be integer");
    unsigned w = dtype_int_width(ix->dtype);
    if (!(w == 32 || (a5 && w == 16)))
        return fail(v, rk_role(v, ROLE_INDICES), "expects indices element type to be i32%s", a5 ? " or i16" : "");
    if (!full_width(v, ROLE_DST) || !full_width(v, ROLE_INDICES))
        return false;
    if (!a5) {
        if (t->dtype != ix->dtype)
            return fail(v, rk_role(v, ROLE_TMP), "expects tmp and indices to have the same element type");
        if ((rk_known(ix->vrow) && rk_known(t->vrow) && ix->vrow != t->vrow) ||
            (rk_known(ix->vcol) && rk_known(t->vcol) && ix->vcol != t->vcol))
            return fail(v, rk_role(v, ROLE_INDICES), "expects indices and tmp to have the same valid_shape");
    }
    return true;
}

/* #pto<cmp MODE>'s mode is eq or gt (absent: eq) */
static bool cmp_eq_or_gt(const V *v, bool *eq)
{
    const Attr *a = ir_attr_find(v->op->attrs, v->op->nattrs, "cmpMode");
    *eq = true;
    if (!a || !a->val || a->val->kind != AV_OPAQUE)
        return true;
    Str t = a->val->u.s;
    bool is_eq = t.len >= 3 && memcmp(t.p + t.len - 3, "eq>", 3) == 0;
    bool is_gt = t.len >= 3 && memcmp(t.p + t.len - 3, "gt>", 3) == 0;
    *eq = is_eq;
    return is_eq || is_gt;
}

/* vec space, row_major blayout (verifyVecTileCommonA2A3) */
static bool vec_row_major(V *v, RoleId r)
{
    const TileBody *t = rk_tile(v, r);
    if (t->loc != LOC_VEC)
        return fail(v, rk_role(v, r), "expects %s to be in the vec address space", role_name(r));
    if (t->blayout != BL_ROW_MAJOR)
        return fail(v, rk_role(v, r), "expects %s to use the row_major blayout", role_name(r));
    return true;
}

static bool verify_gather_cmp(V *v)
{
    const TileBody *s = rk_tile(v, ROLE_SRC), *d = rk_tile(v, ROLE_DST), *c = rk_tile(v, ROLE_CDST);
    if (!no_axis(v))
        return false;
    if (!rk_tile(v, ROLE_TMP))
        return fail(v, -1, "compare-form tgather expects dst, cdst, kValue, and tmp");
    if (!rk_common(v, ROLE_SRC, false) || !rk_common(v, ROLE_DST, false) || !rk_common(v, ROLE_CDST, false) ||
        !rk_common(v, ROLE_TMP, false))
        return false;
    if (!dtype_is_int(d->dtype) || dtype_int_width(d->dtype) != 32)
        return fail(v, rk_role(v, ROLE_DST), "expects dst element type to be i32");
    if (c->dtype != d->dtype)
        return fail(v, rk_role(v, ROLE_CDST), "expects cdst to have the same element type as dst");
    const Type *k = v->ty[rk_role(v, ROLE_KVALUE)];
    if (!k || k->kind != TY_SCALAR || k->dtype != s->dtype)
        return fail(v, rk_role(v, ROLE_KVALUE), "expects kValue to have the same type as src element type");
    bool eq;
    if (!cmp_eq_or_gt(v, &eq))
        return fail(v, -1, "expects compare-form tgather cmpMode to be eq or gt");
    /* MLIR's isInteger(width): any signedness */
    DType e = s->dtype;
    unsigned w = dtype_is_int(e) ? dtype_int_width(e) : 0;
    if (rk_a5(v) && !(e == DT_F16 || e == DT_F32 || w == 16 || w == 32))
        return fail(v, rk_role(v, ROLE_SRC), "expects A5 compare-form tgather src element type to be i16/i32/f16/f32");
    if (!rk_a5(v) && !(e == DT_F16 || e == DT_F32 || (w == 32 && eq)))
        return fail(v, rk_role(v, ROLE_SRC),
                    "expects A2/A3 compare-form tgather src element type to be f16/f32, or i32 when cmpMode=eq");
    return vec_row_major(v, ROLE_SRC) && vec_row_major(v, ROLE_DST) && vec_row_major(v, ROLE_CDST) &&
           vec_row_major(v, ROLE_TMP);
}

/* P1111 keeps every element, P0101 / P1010 every second, the others every fourth */
static int64_t mask_times(const V *v)
{
    const Attr *a = ir_attr_find(v->op->attrs, v->op->nattrs, "maskPattern");
    if (!a || !a->val || a->val->kind != AV_OPAQUE)
        return 4;
    Str t = a->val->u.s;
    if (t.len >= 6 && memcmp(t.p + t.len - 6, "P1111>", 6) == 0)
        return 1;
    if (t.len >= 6 && (memcmp(t.p + t.len - 6, "P0101>", 6) == 0 || memcmp(t.p + t.len - 6, "P1010>", 6) == 0))
        return 2;
    return 4;
}

/* isSupportedGatherElemTypeA5: the A2/A3 types, bf16, hif8, the 8-bit floats, 8/16/32-bit integers */
static bool mask_elem_a5(DType d)
{
    unsigned w = dtype_int_width(d);
    return d == DT_F16 || d == DT_F32 || d == DT_BF16 || d == DT_HIF8 || (dtype_kind(d) == DK_FLOAT && dtype_bits(d) == 8) ||
           (dtype_is_int(d) && (w == 8 || w == 16 || w == 32));
}

/* The mask-pattern forms' axis rule: along the axis src's and dst's valid extents agree,
 * across it the wide tile's is the narrow one's times the pattern's expansion (tgather: src is
 * the wide one, tscatter: dst). OP names the op in the missing-axis message. */
static bool mask_axis(V *v, const char *op, const TileBody *src, const TileBody *dst, bool src_wide)
{
    const TileBody *wide = src_wide ? src : dst, *narrow = src_wide ? dst : src;
    const char *wname = src_wide ? "src" : "dst", *nname = src_wide ? "dst" : "src";
    const Attr *ax = ir_attr_find(v->op->attrs, v->op->nattrs, "axis");
    if (!ax)
        return fail(v, -1, "expects mask-pattern %s to provide axis attribute", op);
    int64_t times = mask_times(v);
    bool row = ax->val && ax->val->kind == AV_STRING && STR_EQ_LIT(ax->val->u.s, "row");
    bool col = ax->val && ax->val->kind == AV_STRING && STR_EQ_LIT(ax->val->u.s, "col");
    if (row) {
        if (rk_known(src->vrow) && rk_known(dst->vrow) && dst->vrow != src->vrow)
            return fail(v, -1, "expects dst valid rows to equal src valid rows for row direction");
        if (rk_known(wide->vcol) && rk_known(narrow->vcol) && wide->vcol != narrow->vcol * times)
            return fail(v, -1, "expects %s valid cols to equal %s valid cols times the mask expansion factor for row "
                               "direction", wname, nname);
    } else if (col) {
        if (rk_known(src->vcol) && rk_known(dst->vcol) && dst->vcol != src->vcol)
            return fail(v, -1, "expects dst valid cols to equal src valid cols for col direction");
        if (rk_known(wide->vrow) && rk_known(narrow->vrow) && wide->vrow != narrow->vrow * times)
            return fail(v, -1, "expects %s valid rows to equal %s valid rows times the mask expansion factor for col "
                               "direction", wname, nname);
    } else {
        return fail(v, -1, "Invalid axis value, expected \"row\" or \"col\"");
    }
    return true;
}

static bool verify_gather_mask(V *v)
{
    bool a5 = rk_a5(v);
    const TileBody *s = rk_tile(v, ROLE_SRC), *d = rk_tile(v, ROLE_DST);
    if (!rk_common(v, ROLE_SRC, a5) || !rk_common(v, ROLE_DST, a5))
        return false;
    if (s->blayout != BL_ROW_MAJOR || d->blayout != BL_ROW_MAJOR)
        return fail(v, -1, "expects src and dst to use row-major layout");
    if (s->loc != LOC_VEC || d->loc != LOC_VEC)
        return fail(v, -1, "expects src and dst to be in the vec address space");
    unsigned sb = dtype_size(s->dtype), db = dtype_size(d->dtype);
    if (sb == 0 || db == 0)
        return fail(v, -1, "failed to get element size for src/dst");
    if (sb != db)
        return fail(v, -1, "expects src and dst element sizes to match");
    if (!full_width(v, ROLE_DST) || !mask_axis(v, "tgather", s, d, true))
        return false;
    if (a5) {
        if (!(sb == 1 || sb == 2 || sb == 4))
            return fail(v, -1, "expects A5 mask-pattern gather element size to be 1, 2, or 4 bytes");
        if (!mask_elem_a5(s->dtype) || !mask_elem_a5(d->dtype))
            return fail(v, -1, "expects A5 mask-pattern gather src/dst element type to be "
                               "i8/i16/i32/f16/bf16/f32/fp8-like");
    } else if (!(sb == 2 || sb == 4)) {
        return fail(v, -1, "expects A2/A3 mask-pattern gather element size to be 2 or 4 bytes");
    }
    return true;
}

static bool verify_gatherb(V *v)
{
    const TileBody *d = rk_tile(v, ROLE_DST);
    if (!rk_common(v, ROLE_SRC, false) || !rk_common(v, ROLE_OFFSETS, false) || !rk_common(v, ROLE_DST, false))
        return false;
    if (!rk_a5(v) && d->blayout != BL_ROW_MAJOR)
        return fail(v, rk_role(v, ROLE_DST), "expects dst to use row-major layout");
    unsigned b = dtype_size(d->dtype);
    if (!(b == 1 || b == 2 || b == 4))
        return fail(v, rk_role(v, ROLE_DST), "expects dst element size to be 1, 2, or 4 bytes");
    return true;
}

/* ---- tfillpad ------------------------------------------------------------------------------ */
/* verifyTFillPadLike reports through emitError: no "'pto.tfillpad' op" prefix */
static bool plain_fail(V *v, const char *msg)
{
    diag_error(v->d, v->op->name_span, "%s", msg);
    v->errors = true;
    return false;
}

static void dim_str(char *b, size_t n, int64_t x)
{
    if (rk_known(x))
        snprintf(b, n, "%lld", (long long)x);
    else
        snprintf(b, n, "?");
}

/* loc=mat: one Tile<...> specialization for both, so the valid shapes and pads agree */
static bool fillpad_mat(V *v)
{
    const Type *st = v->ty[rk_role(v, ROLE_SRC)], *dt = v->ty[rk_role(v, ROLE_DST)];
    const TileBody *s = &st->tile, *d = &dt->tile;
    if (st == dt)
        return true;
    char fields[256] = "", a[24], b[24], sb[512], db[512];
    size_t n = 0;
    if (s->vrow != d->vrow) {
        dim_str(a, sizeof a, s->vrow), dim_str(b, sizeof b, d->vrow);
        n += (size_t)snprintf(fields + n, sizeof fields - n, "%sv_row (%s vs %s)", n ? ", " : "", a, b);
    }
    if (s->vcol != d->vcol) {
        dim_str(a, sizeof a, s->vcol), dim_str(b, sizeof b, d->vcol);
        n += (size_t)snprintf(fields + n, sizeof fields - n, "%sv_col (%s vs %s)", n ? ", " : "", a, b);
    }
    if (s->pad != d->pad)
        snprintf(fields + n, sizeof fields - n, "%spad (%d vs %d)", n ? ", " : "", s->pad, d->pad);
    diag_error(v->d, v->op->name_span,
               "expects src/dst tile types to be lowerable to TFILLPAD for loc=mat%s%s\n  src: %s\n  dst: %s\n"
               "  note: heterogeneous TFILLPAD overload is only available for loc=vec",
               fields[0] ? "; mismatching fields: " : "", fields, type_str(st, sb, sizeof sb), type_str(dt, db, sizeof db));
    v->errors = true;
    return false;
}

/* #pto.pad_value<KIND>'s value (PadValue's number), -1 when unreadable */
static int pad_attr_value(const Attr *a)
{
    static const char *const names[] = {"null", "zero", "max", "min"};
    if (!a->val || a->val->kind != AV_OPAQUE)
        return -1;
    Str t = a->val->u.s;
    for (int k = 0; k < 4; k++) {
        char want[32];
        int n = snprintf(want, sizeof want, "<%s>", names[k]);
        if (t.len >= (uint32_t)n && memcmp(t.p + t.len - n, want, (size_t)n) == 0)
            return k;
    }
    return -1;
}

static bool verify_fillpad(V *v)
{
    const TileBody *s = rk_tile(v, ROLE_SRC), *d = rk_tile(v, ROLE_DST);
    if (ir_attr_find(v->op->attrs, v->op->nattrs, "mode"))
        return fail(v, -1, "does not accept 'mode'; PTOAS infers TFILLPAD lowering from physical shape and planned "
                           "addresses");
    unsigned sb = dtype_size(s->dtype), db = dtype_size(d->dtype);
    if (sb == 0 || db == 0)
        return plain_fail(v, "unsupported element type (expects int/float element types)");
    if (sb != db)
        return plain_fail(v, "expects sizeof(src element) == sizeof(dst element)");
    if (!(sb == 1 || sb == 2 || sb == 4))
        return plain_fail(v, "expects element size to be 1, 2, or 4 bytes");
    bool expanded = false;
    int64_t sd[2] = {s->rows, s->cols}, dd[2] = {d->rows, d->cols};
    for (int i = 0; i < 2; i++) {
        if (sd[i] == dd[i])
            continue;
        if (sd[i] > dd[i])
            return plain_fail(v, "expects each dst physical shape dimension to be >= src");
        expanded = true;
    }
    if (expanded && (s->loc != LOC_VEC || d->loc != LOC_VEC))
        return plain_fail(v, "expects expanded TFILLPAD only for loc=vec");
    if (s->loc == LOC_MAT && d->loc == LOC_MAT && !fillpad_mat(v))
        return false;
    if (d->pad == 0)
        return plain_fail(v, "expects dst PadVal != Null for tfillpad");
    const Attr *pv = ir_attr_find(v->op->attrs, v->op->nattrs, "padValue");
    if (pv) {
        if (d->loc != LOC_MAT)
            return fail(v, -1, "expects padValue attribute only for loc=mat tfillpad");
        if (pad_attr_value(pv) != d->pad)
            return fail(v, -1, "expects padValue attribute to match dst tile pad configuration");
    }
    return true;
}

/* ---- trowargmax trowargmin tcolargmax tcolargmin ---------------------------------------- */
static bool vec_storage(V *v, RoleId r);
static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* tile common, vec space (verifyVecTileStorage) */
static bool vec_storage(V *v, RoleId r)
{
    if (!rk_common(v, r, false))
        return false;
    if (rk_tile(v, r)->loc != LOC_VEC)
        return fail(v, rk_role(v, r), "expects %s to be in the vec address space", role_name(r));
    return true;
}

/* verifyNDStyleVecTile / verifyRowReductionSrcLayout: vec, row_major, none_box */
static bool nd_vec(V *v, RoleId r)
{
    if (!vec_storage(v, r))
        return false;
    const TileBody *t = rk_tile(v, r);
    if (t->blayout != BL_ROW_MAJOR)
        return fail(v, rk_role(v, r), "expects %s to use the row_major blayout", role_name(r));
    if (t->slayout != SL_NONE_BOX)
        return fail(v, rk_role(v, r), "expects %s to use the none_box slayout", role_name(r));
    return true;
}

static bool arg_capacity(V *v)
{
    const TileBody *t = rk_tile(v, ROLE_TMP);
    int64_t have = t->rows * t->cols * (int64_t)dtype_size(t->dtype);
    if (have < 32)
        return fail(v, rk_role(v, ROLE_TMP), "expects tmp capacity to be at least 32 bytes, but got %lld bytes",
                    (long long)have);
    return true;
}

/* getArgReductionTmpMinStride: the A2/A3 large-column workspace's columns */
static int64_t arg_min_stride(DType d, int64_t vcol)
{
    int64_t bits = dtype_bits(d), rep = 2048 / bits, blk = 256 / bits, repeats = ceil_div(vcol, rep);
    return (ceil_div(repeats * 2, blk) + ceil_div(repeats, blk)) * blk;
}

static bool arg_stride(V *v, const TileBody *s, const TileBody *t)
{
    if (!rk_known(s->vcol))
        return true;
    int64_t need = arg_min_stride(s->dtype, s->vcol);
    if (rk_known(t->vcol) && t->vcol < need)
        return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp valid_shape[1] to be at least %lld for src "
                    "valid_shape[1] = %lld", (long long)need, (long long)s->vcol);
    return true;
}

/* A5's tmp (an unused placeholder): verifyVecTileCommon, vec and row_major */
static bool nd_vec_or_dynamic_tmp(V *v)
{
    if (!vec_storage(v, ROLE_TMP))
        return false;
    if (rk_tile(v, ROLE_TMP)->blayout != BL_ROW_MAJOR)
        return fail(v, rk_role(v, ROLE_TMP), "expects tmp to use the row_major blayout");
    return true;
}

static bool same_src_tmp(V *v, const TileBody *s, const TileBody *t)
{
    if (s->dtype != t->dtype)
        return fail(v, rk_role(v, ROLE_SRC), "expects src and tmp to have the same element type");
    return true;
}

/* verifyTRowArgTmpA2A3: the workspace forms of the row arg reductions */
static bool row_arg_tmp_a3(V *v, const TileBody *s, const TileBody *t)
{
    if (!vec_storage(v, ROLE_TMP) || !same_src_tmp(v, s, t))
        return false;
    if (s->vrow == t->vrow && s->vcol == t->vcol)
        return arg_capacity(v);
    int64_t rep = 2048 / (int64_t)dtype_bits(s->dtype);
    if (rk_known(s->vcol) && s->vcol <= rep) {
        if (t->slayout == SL_NONE_BOX && t->blayout == BL_COL_MAJOR) { /* DN */
            if (t->cols != 1)
                return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp DN layout to have shape[1] == 1");
            if (rk_known(t->vcol) && t->vcol != 1)
                return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp DN layout to have valid_shape[1] == 1");
            if (rk_known(s->vrow) && rk_known(t->vrow) && t->vrow < s->vrow * 2)
                return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp DN layout to have valid_shape[0] >= %lld",
                            (long long)(s->vrow * 2));
            return arg_capacity(v);
        }
        if (t->slayout != SL_NONE_BOX)
            return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp to use DN 1-col or ND 2-col layout when src "
                                                 "valid_shape[1] fits in one repeat");
        if (rk_known(s->vrow) && rk_known(t->vrow) && t->vrow < s->vrow)
            return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp valid_shape[0] to cover src valid rows");
        if (rk_known(t->vcol) && t->vcol < 2)
            return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp valid_shape[1] to be at least 2 in the small-col "
                                                 "ND path");
        return arg_capacity(v);
    }
    if (t->blayout != BL_ROW_MAJOR)
        return fail(v, rk_role(v, ROLE_TMP), "expects tmp to use the row_major blayout");
    if (t->rows != s->rows)
        return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp shape[0] to match src shape[0]");
    if (rk_known(s->vrow) && rk_known(t->vrow) && t->vrow < s->vrow)
        return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp valid_shape[0] to cover src valid rows");
    return arg_stride(v, s, t) && arg_capacity(v);
}

/* verifyTColArgTmpA2A3 */
static bool col_arg_tmp_a3(V *v, const TileBody *s, const TileBody *t)
{
    if (!vec_storage(v, ROLE_TMP))
        return false;
    if (t->blayout != BL_ROW_MAJOR)
        return fail(v, rk_role(v, ROLE_TMP), "expects tmp to use the row_major blayout");
    if (!same_src_tmp(v, s, t))
        return false;
    if (s->vrow == t->vrow && s->vcol == t->vcol)
        return arg_capacity(v);
    if (rk_known(t->vrow) && t->vrow < 1)
        return fail(v, rk_role(v, ROLE_TMP), "expects A2/A3 tmp valid_shape[0] to be at least 1");
    return arg_stride(v, s, t) && arg_capacity(v);
}

/* the row ops' dst: vec, none_box, a DN [R, 1] or an ND tile (verifyRowReductionDstLayout) */
static bool row_arg_dst(V *v)
{
    const TileBody *d = rk_tile(v, ROLE_DST);
    if (!vec_storage(v, ROLE_DST))
        return false;
    if (d->slayout != SL_NONE_BOX)
        return fail(v, rk_role(v, ROLE_DST), "expects dst to use the none_box slayout");
    if (d->blayout == BL_COL_MAJOR && d->cols != 1)
        return fail(v, rk_role(v, ROLE_DST), "expects DN-style dst to have shape[1] == 1");
    return true;
}

static bool arg_dst_type(V *v)
{
    DType d = rk_tile(v, ROLE_DST)->dtype;
    if (!dtype_is_int(d) || dtype_int_width(d) != 32)
        return fail(v, rk_role(v, ROLE_DST), "expects dst element type to be i32 or ui32");
    return true;
}

static bool nonzero_src(V *v, const TileBody *s)
{
    if (rk_known(s->vrow) && s->vrow == 0)
        return fail(v, rk_role(v, ROLE_SRC), "expects src valid_shape[0] to be non-zero");
    if (rk_known(s->vcol) && s->vcol == 0)
        return fail(v, rk_role(v, ROLE_SRC), "expects src valid_shape[1] to be non-zero");
    return true;
}

static bool verify_row_arg(V *v)
{
    const TileBody *s = rk_tile(v, ROLE_SRC), *t = rk_tile(v, ROLE_TMP), *d = rk_tile(v, ROLE_DST);
    if (!nd_vec(v, ROLE_SRC))
        return false;
    if (t && !(rk_a5(v) ? nd_vec_or_dynamic_tmp(v) : row_arg_tmp_a3(v, s, t)))
        return false;
    if (!row_arg_dst(v) || !nonzero_src(v, s))
        return false;
    if (rk_known(s->vrow) && rk_known(d->vrow) && s->vrow != d->vrow)
        return fail(v, rk_role(v, ROLE_SRC), "expects src and dst to have the same valid_shape[0]");
    if (rk_known(d->vcol) && d->vcol != 1)
        return fail(v, rk_role(v, ROLE_DST), "expects dst valid_shape[1] to be 1");
    unsigned w = dtype_is_int(s->dtype) ? dtype_int_width(s->dtype) : 0;
    if (!(w == 16 || w == 32 || s->dtype == DT_F16 || s->dtype == DT_F32))
        return fail(v, rk_role(v, ROLE_SRC), "expects src element type to be i16/i32/f16/f32");
    return arg_dst_type(v);
}

static bool verify_col_arg(V *v)
{
    const TileBody *s = rk_tile(v, ROLE_SRC), *t = rk_tile(v, ROLE_TMP), *d = rk_tile(v, ROLE_DST);
    if (!nd_vec(v, ROLE_SRC))
        return false;
    if (t && !(rk_a5(v) ? nd_vec_or_dynamic_tmp(v) : col_arg_tmp_a3(v, s, t)))
        return false;
    if (!nd_vec(v, ROLE_DST))
        return false;
    if (rk_known(d->vrow) && d->vrow != 1)
        return fail(v, rk_role(v, ROLE_DST), "expects dst valid_shape[0] to be 1");
    if (!(d->vrow == 0 && d->vcol == 0)) {
        if (!nonzero_src(v, s))
            return false;
        if (rk_known(s->vcol) && rk_known(d->vcol) && s->vcol != d->vcol)
            return fail(v, rk_role(v, ROLE_SRC), "expects src and dst to have the same valid_shape[1]");
    }
    unsigned bits = dtype_bits(s->dtype);
    bool int_or_float = dtype_is_int(s->dtype) || dtype_kind(s->dtype) == DK_FLOAT;
    if (!(int_or_float && (bits == 8 || bits == 16 || bits == 32)))
        return fail(v, rk_role(v, ROLE_SRC), "%s", t && !rk_a5(v) ? "expects src/tmp element type to be 1, 2, or 4 bytes wide"
                                                                  : "expects src element type to be 1, 2, or 4 bytes wide");
    return arg_dst_type(v);
}

/* ---- tsort32 --------------------------------------------------------------------------------- */
/* verifyVecTileCommon: tile common, vec, row_major */
static bool vec_common(V *v, RoleId r)
{
    if (!vec_storage(v, r))
        return false;
    if (rk_tile(v, r)->blayout != BL_ROW_MAJOR)
        return fail(v, rk_role(v, r), "expects %s to use the row_major blayout", role_name(r));
    return true;
}

static bool verify_sort32(V *v)
{
    const TileBody *s = rk_tile(v, ROLE_SRC), *d = rk_tile(v, ROLE_DST), *ix = rk_tile(v, ROLE_IDX),
                   *t = rk_tile(v, ROLE_TMP);
    if (!vec_common(v, ROLE_SRC) || !vec_common(v, ROLE_DST) || !vec_common(v, ROLE_IDX) ||
        (t && !vec_common(v, ROLE_TMP)))
        return false;
    if (t && !rk_a5(v)) { /* A2/A3: tmp holds a padded copy of src */
        int64_t need = s->rows * s->cols * (int64_t)dtype_size(s->dtype), have = t->rows * t->cols * (int64_t)dtype_size(t->dtype);
        if (have < need)
            return fail(v, rk_role(v, ROLE_TMP), "expects tmp capacity to be at least %lld bytes, but got %lld bytes",
                        (long long)need, (long long)have);
    }
    if (s->dtype != d->dtype)
        return fail(v, rk_role(v, ROLE_SRC), "expects src and dst to have the same element type");
    if (s->dtype != DT_F16 && s->dtype != DT_F32)
        return fail(v, rk_role(v, ROLE_SRC), "expects src and dst element type to be f16 or f32");
    if (!dtype_is_int(ix->dtype) || dtype_int_width(ix->dtype) != 32)
        return fail(v, rk_role(v, ROLE_IDX), "expects idx element type to be i32/u32");
    return true;
}

/* ---- thistogram ------------------------------------------------------------------------------ */
/* the byte attribute, or the legacy isMSB (false: 0, true: 1); default 1. False when reported */
static bool hist_byte(V *v, int64_t *byte)
{
    const Attr *b = ir_attr_find(v->op->attrs, v->op->nattrs, "byte");
    const Attr *m = ir_attr_find(v->op->attrs, v->op->nattrs, "isMSB");
    *byte = b && b->val && b->val->kind == AV_INT ? b->val->u.i : 1;
    if (m && m->val && m->val->kind == AV_BOOL) {
        int64_t legacy = m->val->u.b ? 1 : 0;
        if (b && *byte != legacy)
            return fail(v, -1, "does not allow conflicting 'byte' and legacy 'isMSB' attributes");
        *byte = legacy;
    }
    if (*byte < 0 || *byte > 3)
        return fail(v, -1, "expects byte to be in range [0, 3]");
    return true;
}

/* PTOAS's hasCompatibleKnownExtent */
static bool compatible(int64_t a, int64_t b) { return !rk_known(a) || !rk_known(b) || a == b; }

static bool hist_idx(V *v, int64_t byte, const TileBody *s, const TileBody *ix)
{
    if (dtype_int_width(s->dtype) == 16) {
        if (byte > 1)
            return fail(v, -1, "expects byte to be 0 or 1 when src element type is ui16");
        if (ix->blayout != BL_COL_MAJOR || ix->slayout != SL_NONE_BOX)
            return fail(v, -1, "expects idx to use DN layout (col_major + none_box) when src element type is ui16");
        if (!compatible(s->rows, ix->rows) || !compatible(s->vrow, ix->vrow))
            return fail(v, -1, "expects idx rows and valid rows to match src when src element type is ui16");
        if (ix->cols != 1 || (rk_known(ix->vcol) && ix->vcol != 0 && ix->vcol != 1))
            return fail(v, -1, "expects idx to have exactly one physical column and 0 or 1 valid column when src "
                               "element type is ui16");
        return true;
    }
    if (byte == 3)
        return true;
    if (ix->blayout != BL_ROW_MAJOR || ix->slayout != SL_NONE_BOX)
        return fail(v, -1, "expects idx to use row_major + none_box layout when src element type is ui32 and byte is "
                           "0, 1, or 2");
    if (!compatible(s->cols, ix->cols) || !compatible(s->vcol, ix->vcol))
        return fail(v, -1, "expects idx cols and valid cols to match src when src element type is ui32 and byte is 0, "
                           "1, or 2");
    int64_t want = 3 - byte;
    if (ix->rows != want || (rk_known(ix->vrow) && ix->vrow != 0 && ix->vrow != want))
        return fail(v, -1, "expects idx rows to match the byte-selected filter depth and idx valid rows to be 0 or "
                           "match it when src element type is ui32 and byte is 0, 1, or 2");
    return true;
}

static bool verify_histogram(V *v)
{
    int64_t byte;
    if (!hist_byte(v, &byte))
        return false;
    if (!rk_a5(v))
        return fail(v, -1, "thistogram is only supported on A5");
    const TileBody *s = rk_tile(v, ROLE_SRC), *ix = rk_tile(v, ROLE_IDX), *d = rk_tile(v, ROLE_DST);
    if (!rk_common(v, ROLE_SRC, false) || !rk_common(v, ROLE_IDX, false) || !rk_common(v, ROLE_DST, false))
        return false;
    static const RoleId order[] = {ROLE_SRC, ROLE_IDX, ROLE_DST};
    for (int i = 0; i < 3; i++)
        if (rk_tile(v, order[i])->loc != LOC_VEC)
            return fail(v, -1, "expects %s to be in the vec address space", role_name(order[i]));
    if (s->blayout != BL_ROW_MAJOR || s->slayout != SL_NONE_BOX)
        return fail(v, -1, "expects src to use row_major + none_box layout");
    if (d->blayout != BL_ROW_MAJOR || d->slayout != SL_NONE_BOX)
        return fail(v, -1, "expects dst to use row_major + none_box layout");
    unsigned sw = dtype_is_int(s->dtype) ? dtype_int_width(s->dtype) : 0;
    if (sw != 16 && sw != 32)
        return fail(v, -1, "expects src element type to be ui16 or ui32");
    if (!dtype_is_int(ix->dtype) || dtype_int_width(ix->dtype) != 8)
        return fail(v, -1, "expects idx element type to be ui8");
    if (!dtype_is_int(d->dtype) || dtype_int_width(d->dtype) != 32)
        return fail(v, -1, "expects dst element type to be ui32");
    if (!compatible(s->rows, d->rows) || !compatible(s->vrow, d->vrow))
        return fail(v, -1, "expects dst rows and valid rows to match src");
    if (!hist_idx(v, byte, s, ix))
        return false;
    if (d->cols < 256)
        return fail(v, -1, "expects dst shape[1] to be at least 256");
    if (rk_known(d->vcol) && d->vcol != 0 && d->vcol < 256)
        return fail(v, -1, "expects dst valid_shape[1] to be 0 or at least 256");
    return true;
}

/* ---- tconcat ------------------------------------------------------------------------------ */
static bool verify_concat(V *v)
{
    const TileBody *a = rk_tile(v, ROLE_SRC0), *b = rk_tile(v, ROLE_SRC1), *d = rk_tile(v, ROLE_DST);
    if (!rk_common(v, ROLE_SRC0, false) || !rk_common(v, ROLE_SRC1, false) || !rk_common(v, ROLE_DST, false))
        return false;
    if (a->dtype != b->dtype || a->dtype != d->dtype)
        return fail(v, -1, "expects src0, src1, and dst to have the same element type");
    if (rk_known(a->vrow) && rk_known(d->vrow) && a->vrow != d->vrow)
        return fail(v, -1, "expects src0 valid row to match dst valid row");
    if (rk_known(b->vrow) && rk_known(d->vrow) && b->vrow != d->vrow)
        return fail(v, -1, "expects src1 valid row to match dst valid row");
    if (rk_known(a->vcol) && rk_known(b->vcol) && a->vcol + b->vcol > d->cols)
        return fail(v, -1, "expects src0.valid_col + src1.valid_col <= dst.cols");
    static const RoleId order[] = {ROLE_SRC0, ROLE_SRC1, ROLE_DST};
    for (int i = 0; i < 3; i++)
        if (rk_tile(v, order[i])->loc != LOC_VEC)
            return fail(v, -1, "expects %s to use loc=vec", role_name(order[i]));
    if (rk_a5(v) && (a->blayout != BL_ROW_MAJOR || b->blayout != BL_ROW_MAJOR || d->blayout != BL_ROW_MAJOR))
        return fail(v, -1, "expects src0, src1, and dst to use row-major layout");
    unsigned w = dtype_is_int(a->dtype) ? dtype_int_width(a->dtype) : 0;
    if (!(a->dtype == DT_F16 || a->dtype == DT_F32 || a->dtype == DT_BF16 || w == 8 || w == 16 || w == 32))
        return fail(v, -1, "expects element type to be i8, i16, i32, f16, f32, or bf16");
    return true;
}

/* ---- mgather / mscatter (MGatherOp::verify, MScatterOp::verify) ------------------------ */

/* The value word of an enum attribute kept as written (`#pto<coalesce row>`, or
 * `#pto.coalesce<row>`): its last word before '>', in buf; false when absent. */
static bool m_word(const V *v, const char *key, char *buf, size_t n)
{
    const Attr *a = ir_attr_find(v->op->attrs, v->op->nattrs, key);
    buf[0] = 0;
    if (!a || !a->val || a->val->kind != AV_OPAQUE)
        return false;
    Str t = a->val->u.s;
    size_t end = t.len;
    while (end > 0 && (t.p[end - 1] == '>' || t.p[end - 1] == ' '))
        end--;
    size_t b = end;
    while (b > 0 && t.p[b - 1] != ' ' && t.p[b - 1] != '<')
        b--;
    snprintf(buf, n, "%.*s", (int)(end - b), t.p + b);
    return true;
}

/* isSupportedMGatherMScatterPayloadElemType: 8/16/32-bit integers of any signedness, f16,
 * bf16, f32; on A5 also the fp8 family and hif8 */
static bool m_payload(const V *v, DType d)
{
    unsigned w = dtype_is_int(d) ? dtype_int_width(d) : 0;
    return d == DT_F16 || d == DT_BF16 || d == DT_F32 || w == 8 || w == 16 || w == 32 ||
           (rk_a5(v) && (dtype_is_fp8(d) || d == DT_HIF8));
}

/* verifyNDStyleVecTile: vec, row_major, none_box (low precision on A5 only) */
static bool m_nd_vec(V *v, RoleId r)
{
    const TileBody *t = rk_tile(v, r);
    if (!rk_common(v, r, rk_a5(v)))
        return false;
    if (t->loc != LOC_VEC)
        return fail(v, rk_role(v, r), "expects %s to be in the vec address space", role_name(r));
    if (t->blayout != BL_ROW_MAJOR)
        return fail(v, rk_role(v, r), "expects %s to use the row_major blayout", role_name(r));
    if (t->slayout != SL_NONE_BOX)
        return fail(v, rk_role(v, r), "expects %s to use the none_box slayout", role_name(r));
    return true;
}

/* verifyMGatherMScatterIdxTile: a vec none_box tile (either blayout) */
static bool m_idx_tile(V *v)
{
    const TileBody *t = rk_tile(v, ROLE_IDX);
    if (!t)
        return fail(v, rk_role(v, ROLE_IDX), "expects idx to be a !pto.tile_buf");
    if (!rk_common(v, ROLE_IDX, false))
        return false;
    if (t->loc != LOC_VEC)
        return fail(v, rk_role(v, ROLE_IDX), "expects idx to be in the vec address space");
    if (t->slayout != SL_NONE_BOX)
        return fail(v, rk_role(v, ROLE_IDX), "expects idx to use the none_box slayout");
    return true;
}

/* verifyMGatherMScatterMemOperand: the table's element type, a partition view */
static bool m_mem(V *v, DType data, const char *label)
{
    const Type *m = v->ty[rk_role(v, ROLE_MEM)];
    if (!m || m->dtype != data)
        return fail(v, rk_role(v, ROLE_MEM), "expects mem element type to match %s element type", label);
    if (m->kind != TY_PART_VIEW)
        return fail(v, rk_role(v, ROLE_MEM), "expects mem to be !pto.partition_tensor_view");
    return true;
}

/* verifyMGatherMScatterTileShape: idx's valid shape against the data tile's, by coalesce
 * mode ("" when omitted: mscatter infers it) */
static bool m_shape(V *v, const TileBody *t, const char *name, const char *mode)
{
    const TileBody *ix = rk_tile(v, ROLE_IDX);
    bool row_major = ix->blayout == BL_ROW_MAJOR, col_major = ix->blayout == BL_COL_MAJOR;
    bool unit0 = !rk_known(ix->vrow) || ix->vrow <= 1, unit1 = !rk_known(ix->vcol) || ix->vcol <= 1;
    bool row_1xr = row_major && unit0 && compatible(ix->vcol, t->vrow);
    bool row_rx1 = col_major && compatible(ix->vrow, t->vrow) && unit1;
    bool base_row = row_major && compatible(ix->vrow, t->vrow) && unit1;
    bool elem = compatible(ix->vrow, t->vrow) && compatible(ix->vcol, t->vcol);
    if (!mode[0]) {
        if (base_row || elem)
            return true;
        return fail(v, -1, "expects idx valid_shape to be [%s.valid_row, 0|1] or match %s valid_shape when coalesce "
                           "is omitted", name, name);
    }
    bool row = strcmp(mode, "row") == 0;
    if (row && (row_1xr || row_rx1))
        return true;
    if (!row && elem)
        return true;
    if (row)
        return fail(v, -1, "expects row-coalesce idx valid_shape to be [0|1, %s.valid_row] or [%s.valid_row, 0|1]",
                    name, name);
    return fail(v, -1, "expects elem-coalesce idx valid_shape to match %s valid_shape", name);
}

/* verifyMGatherGm2L1: a mat NZ dst, the index (and elem's scratch) in global memory */
static bool m_gather_l1(V *v, const char *mode)
{
    const TileBody *d = rk_tile(v, ROLE_DST);
    if (d->blayout != BL_COL_MAJOR || d->slayout != SL_ROW_MAJOR)
        return fail(v, -1, "expects GM->L1 mgather dst (loc=mat) to use blayout=col_major and slayout=row_major (NZ)");
    if (d->fractal != 512)
        return fail(v, -1, "expects GM->L1 mgather dst fractal size to be 512");
    if (!m_payload(v, d->dtype))
        return fail(v, -1, "expects GM->L1 mgather dst element type to be i8/ui8/i16/ui16/i32/ui32/f16/bf16/f32 (and on "
                           "A5 targets also float8_e4m3/float8_e5m2 family types)");
    int64_t c0 = 32 / (dtype_bits(d->dtype) / 8 > 0 ? dtype_bits(d->dtype) / 8 : 1);
    if (d->cols % c0 != 0)
        return fail(v, -1, "expects GM->L1 mgather dst padded cols to be a multiple of %lld (C0 = 32 / sizeof(elem))",
                    (long long)c0);
    if (d->rows % 16 != 0)
        return fail(v, -1, "expects GM->L1 mgather dst padded rows to be a multiple of 16 (FRACTAL_NZ_ROW)");
    if (!m_mem(v, d->dtype, "dst"))
        return false;
    const Type *ix = v->ty[rk_role(v, ROLE_IDX)];
    if (ix->kind == TY_TILE_BUF || ix->kind == TY_TILE)
        return fail(v, -1, "expects GM->L1 mgather idx to be a GM tensor partition_tensor_view, not a tile_buf");
    if (ix->kind != TY_PART_VIEW)
        return fail(v, -1, "expects GM->L1 mgather idx to be a partition_tensor_view");
    if (!dtype_is_int(ix->dtype) || dtype_int_width(ix->dtype) != 32)
        return fail(v, -1, "expects GM->L1 mgather idx element type to be i32");
    if (!mode[0])
        return fail(v, -1, "expects GM->L1 mgather to specify an explicit coalesce attribute (row or elem)");
    int sr = rk_role(v, ROLE_GM_SCRATCH);
    const Type *sc = sr >= 0 && v->val[sr] != NO_VALUE ? v->ty[sr] : NULL;
    if (strcmp(mode, "elem") == 0) {
        if (!sc)
            return fail(v, -1, "expects GM->L1 mgather with coalesce=elem to provide a GM scratch operand");
        if (sc->kind != TY_PART_VIEW)
            return fail(v, sr, "expects GM->L1 mgather scratch to be a partition_tensor_view");
        if (sc->dtype != d->dtype)
            return fail(v, sr, "expects GM->L1 mgather scratch element type to match dst element type");
    } else if (sc) {
        return fail(v, sr, "expects GM->L1 mgather with coalesce=row to omit the scratch operand");
    }
    return true;
}

static bool verify_mgather(V *v)
{
    char mode[16], oob[16];
    if (!m_word(v, "coalesce", mode, sizeof mode))
        return fail(v, -1, "requires attribute 'coalesce'");
    m_word(v, "gatherOob", oob, sizeof oob);
    if (!verify_declared_attrs(v))
        return false;
    const TileBody *d = rk_tile(v, ROLE_DST);
    if (d->loc == LOC_MAT)
        return m_gather_l1(v, mode);
    int sr = rk_role(v, ROLE_GM_SCRATCH);
    if (sr >= 0 && v->val[sr] != NO_VALUE)
        return fail(v, sr, "expects scratch operand only on GM->L1 (loc=mat) mgather");
    if (!m_nd_vec(v, ROLE_DST) || !m_idx_tile(v))
        return false;
    const TileBody *ix = rk_tile(v, ROLE_IDX);
    if (!m_payload(v, d->dtype))
        return fail(v, -1, "expects dst element type to be i8/ui8/i16/ui16/i32/ui32/f16/bf16/f32 (and on A5 targets "
                           "also float8_e4m3/float8_e5m2 family types)");
    if (!dtype_is_int(ix->dtype) || dtype_int_width(ix->dtype) != 32)
        return fail(v, rk_role(v, ROLE_IDX), "expects idx element type to be signless i32");
    return m_mem(v, d->dtype, "dst") && m_shape(v, d, "dst", mode);
}

/* isSupportedMScatterAtomicPayloadElemType: add i32 (any signedness) / f16 / f32, max and
 * min i32 / f32 */
static bool m_atomic_ok(DType d, const char *atomic)
{
    bool i32 = dtype_is_int(d) && dtype_int_width(d) == 32;
    if (!atomic[0] || strcmp(atomic, "none") == 0)
        return true;
    if (strcmp(atomic, "add") == 0)
        return i32 || d == DT_F16 || d == DT_F32;
    return i32 || d == DT_F32;
}

static bool verify_mscatter(V *v)
{
    char mode[16], atomic[16], oob[16], conflict[16];
    bool has_mode = m_word(v, "coalesce", mode, sizeof mode);
    m_word(v, "scatterAtomicOp", atomic, sizeof atomic);
    m_word(v, "scatterOob", oob, sizeof oob);
    bool has_conflict = m_word(v, "scatterConflict", conflict, sizeof conflict);
    if (!verify_declared_attrs(v))
        return false;
    if (!m_nd_vec(v, ROLE_SRC) || !m_idx_tile(v))
        return false;
    const TileBody *s = rk_tile(v, ROLE_SRC), *ix = rk_tile(v, ROLE_IDX);
    if (!m_payload(v, s->dtype))
        return fail(v, -1, "expects src element type to be i8/ui8/i16/ui16/i32/ui32/f16/bf16/f32 (and on A5 targets "
                           "also float8_e4m3/float8_e5m2 family types)");
    if (!dtype_is_int(ix->dtype) || dtype_int_width(ix->dtype) != 32)
        return fail(v, rk_role(v, ROLE_IDX), "expects idx element type to be signless i32");
    if (!m_mem(v, s->dtype, "src") || !m_shape(v, s, "src", has_mode ? mode : ""))
        return false;
    bool atomic_set = atomic[0] && strcmp(atomic, "none") != 0, oob_set = oob[0] && strcmp(oob, "undefined") != 0;
    if (!has_mode && (atomic_set || oob_set || has_conflict))
        return fail(v, -1, "expects coalesce when scatterAtomicOp/scatterOob/scatterConflict is specified");
    if (has_conflict && !rk_a5(v))
        return fail(v, -1, "expects scatterConflict only on A5 targets");
    if (!m_atomic_ok(s->dtype, atomic))
        return fail(v, -1, "expects scatterAtomicOp-compatible src element type: add supports i32/ui32/f16/f32, "
                           "max/min support signless i32/f32");
    return true;
}

/* ---- tscatter (TScatterOp::verify) --------------------------------------------------------- */
/* isAllowedDataElem: f16 / f32 / bf16, 8/16/32-bit integers */
static bool scatter_elem(DType d)
{
    unsigned w = dtype_is_int(d) ? dtype_int_width(d) : 0;
    return d == DT_F16 || d == DT_F32 || d == DT_BF16 || w == 8 || w == 16 || w == 32;
}

static bool scatter_index(V *v)
{
    const TileBody *s = rk_tile(v, ROLE_SRC), *ix = rk_tile(v, ROLE_INDEXES), *d = rk_tile(v, ROLE_DST);
    if (!vec_common(v, ROLE_SRC) || !vec_common(v, ROLE_INDEXES) || !vec_common(v, ROLE_DST))
        return false;
    if (s->dtype != d->dtype)
        return fail(v, -1, "expects src/dst to have the same element type");
    if (!scatter_elem(s->dtype))
        return fail(v, -1, "expects src/dst element type to be i8/i16/i32/f16/bf16/f32");
    unsigned iw = dtype_is_int(ix->dtype) ? dtype_int_width(ix->dtype) : 0;
    if (iw != 16 && iw != 32)
        return fail(v, -1, "expects indexes element type to be i16/i32");
    unsigned db = dtype_bits(s->dtype) / 8;
    if (iw / 8 != (db == 1 ? 2 : db))
        return fail(v, -1, "expects indexes element size to match the documented scatter rule");
    int64_t sv[2] = {s->vrow, s->vcol}, iv[2] = {ix->vrow, ix->vcol}, dv[2] = {d->vrow, d->vcol};
    for (int k = 0; k < 2; k++) {
        if (rk_known(sv[k]) && rk_known(iv[k]) && sv[k] != iv[k])
            return fail(v, -1, "expects src and indexes to have the same valid_shape");
        if (rk_known(sv[k]) && rk_known(dv[k]) && dv[k] < sv[k])
            return fail(v, -1, "expects dst valid_shape to be >= src valid_shape");
    }
    return true;
}

static bool scatter_mask(V *v)
{
    const TileBody *s = rk_tile(v, ROLE_SRC), *d = rk_tile(v, ROLE_DST);
    if (!vec_common(v, ROLE_SRC) || !vec_common(v, ROLE_DST))
        return false;
    if (s->dtype != d->dtype)
        return fail(v, -1, "expects src and dst to have the same element type");
    if (!scatter_elem(s->dtype))
        return fail(v, -1, "expects src/dst element type to be i8/i16/i32/f16/bf16/f32");
    return mask_axis(v, "tscatter", s, d, false);
}

static bool verify_scatter(V *v)
{
    int ir = rk_role(v, ROLE_INDEXES);
    bool has_idx = ir >= 0 && v->val[ir] != NO_VALUE;
    bool has_mask = ir_attr_find(v->op->attrs, v->op->nattrs, "maskPattern") != NULL;
    if (has_idx == has_mask)
        return fail(v, -1, "expects exactly one of indexes operand or maskPattern attribute");
    if (has_idx && ir_attr_find(v->op->attrs, v->op->nattrs, "axis"))
        return fail(v, -1, "axis attribute must not be provided with indexes operand");
    return has_idx ? scatter_index(v) : scatter_mask(v);
}

/* ---- tprefetch (TPrefetchOp::verify) --------------------------------------------------------- */
/* isA5TLoadStoreTransferElemType: 8- to 64-bit integers, f16, bf16, f32, the low-precision types */
static bool a5_transfer_elem(DType d)
{
    unsigned w = dtype_is_int(d) ? dtype_int_width(d) : 0;
    return w == 8 || w == 16 || w == 32 || w == 64 || d == DT_F16 || d == DT_BF16 || d == DT_F32 ||
           dtype_is_low_precision(d);
}

static bool verify_prefetch(V *v)
{
    int sr = rk_role(v, ROLE_SRC);
    const Type *s = v->ty[sr];
    const TileBody *d = rk_tile(v, ROLE_DST);
    bool a5 = rk_a5(v);
    if (s->kind != TY_PART_VIEW)
        return fail(v, sr, "expects src to be !pto.partition_tensor_view");
    for (uint32_t i = 0; i < s->rank; i++)
        if (s->dims[i] != DIM_DYNAMIC && s->dims[i] <= 0)
            return fail(v, sr, "expects src shape[%u] to be positive", i);
    if (!rk_common(v, ROLE_DST, a5))
        return false;
    if (d->loc != LOC_VEC && d->loc != LOC_MAT)
        return fail(v, rk_role(v, ROLE_DST), "expects dst to use loc=vec or loc=mat");
    if (dtype_bits(s->dtype) != dtype_bits(d->dtype))
        return fail(v, -1, "expects src and dst element types to have the same element size");
    if (!a5 && (dtype_is_low_precision(s->dtype) || dtype_is_low_precision(d->dtype)))
        return fail(v, -1, "expects A2/A3 tprefetch low-precision element types to be unsupported");
    if (a5 && (!a5_transfer_elem(s->dtype) || !a5_transfer_elem(d->dtype)))
        return fail(v, -1, "expects A5 tprefetch element types to be i8/i16/i32/i64/f16/bf16/f32/f8/hif8/fp4");
    return true;
}

bool verify_rearr_op(V *v)
{
    switch (op_info(v->op->kind)->cls) {
    case OC_GATHER: return verify_gather(v);
    case OC_GATHER_CMP: return verify_gather_cmp(v);
    case OC_GATHER_MASK: return verify_gather_mask(v);
    case OC_GATHERB: return verify_gatherb(v);
    case OC_FILLPAD: return verify_fillpad(v);
    case OC_ROW_ARG: return verify_row_arg(v);
    case OC_COL_ARG: return verify_col_arg(v);
    case OC_SORT32: return verify_sort32(v);
    case OC_HISTOGRAM: return verify_histogram(v);
    case OC_CONCAT: return verify_concat(v);
    case OC_MGATHER: return verify_mgather(v);
    case OC_MSCATTER: return verify_mscatter(v);
    case OC_SCATTER: return verify_scatter(v);
    case OC_PREFETCH: return verify_prefetch(v);
    default: return true;
    }
}
