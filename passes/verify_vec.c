/* verify_vec.c - the rules of the vector ops (docs/verify.md section 8; OF_VEC in the op
 * record), PTOAS's verifier in its order and words: one function per op class, with the
 * per-op facts (element types per architecture, messages, the variant of a class, the
 * declared attributes) in the op's row of ir/ops.def (OpInfo). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "verify_int.h"

#define fail verify_op_error

/* ---- element types ------------------------------------------------------------ */
/* PTOAS tests integers by width (i8, si8 and ui8 are all 8-bit) and floats by kind: the
 * EL_* bits of ir.h. */

/* MLIR's IntegerType (any width and signedness; not index) */
static bool is_int(DType d) { return dtype_is_int(d); }
static bool is_signless(DType d) { return dtype_kind(d) == DK_INT; }
/* MLIR's FloatType: the builtin floats; PTOAS's own !pto.* element types are not floats */
static bool is_float(DType d) { return dtype_kind(d) == DK_FLOAT; }

/* PTOAS's low-precision types: fp8 (isPTOFloat8Type), hif8, !pto.f8E8M0, packed fp4,
 * hif8x2, bf16x2. The builtin f8E8M0FNU is not among them (PTOAS's test names its own E8M0
 * type only): the vector ops reject it by their element type lists, and tcvt takes it with
 * any pair that has no low-precision side. */
static bool low_precision(DType d) { return dtype_is_low_precision(d); }

/* The op's row (element types, messages, variant): OpInfo, ir/ops.def. */
typedef OpInfo VecOp;

/* ---- shared checks (PTOAS's helpers, same order and words) ---------------------------- */
static bool known(int64_t x) { return x != DIM_DYNAMIC; }
static bool differ(int64_t a, int64_t b) { return known(a) && known(b) && a != b; }
static bool a5(const V *v) { return v->arch == ARCH_A5; }
static int R(const V *v, RoleId r) { return op_role(v->op->kind, r); }
static const TileBody *T(const V *v, RoleId r) { return R(v, r) >= 0 ? v->tb[R(v, r)] : NULL; }
static const char *N(const V *v, RoleId r) { (void)v; return role_name(r); }

/* the element type test of the op's row for the architecture */
static bool elem_ok(const V *v, const VecOp *o, DType d)
{
    return (dtype_elem_bit(d) & (a5(v) ? o->dt_a5 : o->dt_a3)) != 0;
}
static bool elem_fail(V *v, const VecOp *o) { return fail(v, -1, "%s", a5(v) ? o->dt_msg_a5 : o->dt_msg_a3); }

/* verifyTileBufCommon: the low-precision types are not for these ops */
static bool tile_common(V *v, RoleId r, bool allow_low)
{
    const TileBody *t = T(v, r);
    if (t && !allow_low && low_precision(t->dtype))
        return fail(v, R(v, r), "%s: dtype %s is not supported by this op yet", N(v, r), dtype_name(t->dtype));
    return true;
}

static bool in_vec(V *v, RoleId r)
{
    if (T(v, r)->loc != LOC_VEC)
        return fail(v, R(v, r), "expects %s to be in the vec address space", N(v, r));
    return true;
}

/* verifyVecTileCommon: vec space and row_major blayout */
static bool vec_tile(V *v, RoleId r)
{
    if (!tile_common(v, r, false) || !in_vec(v, r))
        return false;
    if (T(v, r)->blayout != BL_ROW_MAJOR)
        return fail(v, R(v, r), "expects %s to use the row_major blayout", N(v, r));
    return true;
}

/* verifyNDStyleVecTile: vec, row_major, none_box */
static bool nd_vec_tile(V *v, RoleId r)
{
    if (!vec_tile(v, r))
        return false;
    if (T(v, r)->slayout != SL_NONE_BOX)
        return fail(v, R(v, r), "expects %s to use the none_box slayout", N(v, r));
    return true;
}

static bool same_elem(V *v, RoleId a, RoleId b)
{
    if (T(v, a)->dtype != T(v, b)->dtype)
        return fail(v, R(v, a), "expects %s and %s to have the same element type", N(v, a), N(v, b));
    return true;
}

static bool same_valid(V *v, RoleId a, RoleId b)
{
    const TileBody *x = T(v, a), *y = T(v, b);
    char sa[64], sb[64];
    if (differ(x->vrow, y->vrow) || differ(x->vcol, y->vcol))
        return fail(v, R(v, a), "expects %s and %s to have the same valid_shape, but got %s and %s", N(v, a),
                    N(v, b), verify_shape_str(x->vrow, x->vcol, sa), verify_shape_str(y->vrow, y->vcol, sb));
    return true;
}

static bool same_valid_dim(V *v, RoleId a, RoleId b, int dim)
{
    const TileBody *x = T(v, a), *y = T(v, b);
    char sa[64], sb[64];
    if (dim == 0 ? differ(x->vrow, y->vrow) : differ(x->vcol, y->vcol))
        return fail(v, R(v, a), "expects %s and %s to have the same valid_shape[%d], but got %s and %s", N(v, a),
                    N(v, b), dim, verify_shape_str(x->vrow, x->vcol, sa), verify_shape_str(y->vrow, y->vcol, sb));
    return true;
}

static bool nonzero(V *v, RoleId r, int dim)
{
    const TileBody *t = T(v, r);
    if ((dim == 0 ? t->vrow : t->vcol) == 0)
        return fail(v, R(v, r), "expects %s valid_shape[%d] to be non-zero", N(v, r), dim);
    return true;
}

static bool is_row_major(const TileBody *t) { return t->blayout == BL_ROW_MAJOR; }
static int64_t static_bytes(const TileBody *t) { return t->rows * t->cols * (int64_t)dtype_size(t->dtype); }

static bool tmp_capacity(V *v, int64_t need)
{
    const TileBody *t = T(v, ROLE_TMP);
    if (static_bytes(t) < need)
        return fail(v, R(v, ROLE_TMP), "expects tmp capacity to be at least %lld bytes, but got %lld bytes",
                    (long long)need, (long long)static_bytes(t));
    return true;
}

/* ---- elementwise binary ------------------------------------------------------------------ */
/* PTOAS's verifyShiftLikeBinaryTileOpCommon (tshl, tshr): one element type message for the
 * three, the layout, then the valid shapes against dst */
static bool verify_shift(V *v, const VecOp *o)
{
    const TileBody *s0 = T(v, ROLE_SRC0), *s1 = T(v, ROLE_SRC1), *d = T(v, ROLE_DST);
    if (!tile_common(v, ROLE_SRC0, false) || !tile_common(v, ROLE_SRC1, false) || !tile_common(v, ROLE_DST, false))
        return false;
    if (s0->dtype != s1->dtype || s0->dtype != d->dtype)
        return fail(v, -1, "expects src0, src1, and dst to have the same element type");
    if (!is_row_major(s0) || !is_row_major(s1) || !is_row_major(d))
        return fail(v, -1, "expects src0, src1, and dst to use row-major layout");
    if (!same_valid(v, ROLE_SRC0, ROLE_DST) || !same_valid(v, ROLE_SRC1, ROLE_DST))
        return false;
    return elem_ok(v, o, s0->dtype) || elem_fail(v, o);
}

/* txor's A2/A3 tmp (PTOAS checks it before the element type): dst's element type and
 * valid shape, row-major, at least dst's bytes. A5 ignores it. */
static bool xor_tmp(V *v, RoleId peer, const char *peers)
{
    const TileBody *t = T(v, ROLE_TMP), *d = T(v, ROLE_DST);
    if (!t || a5(v))
        return true;
    if (!tile_common(v, ROLE_TMP, false))
        return false;
    if (t->dtype != T(v, peer)->dtype)
        return fail(v, R(v, ROLE_TMP), "expects tmp to have the same element type as %s", peers);
    if (!is_row_major(t))
        return fail(v, R(v, ROLE_TMP), "expects tmp to use row-major layout");
    if (peer == ROLE_SRC0 && !same_valid(v, ROLE_TMP, ROLE_DST))
        return false;
    return tmp_capacity(v, static_bytes(d));
}

/* tprelu (PTOAS's TPReluOp): f16 / f32 tiles of one shape; on A2/A3 a tmp is an 8-bit mask
 * of dst's valid rows + 1 and ceil(cols / 8) valid columns, rows of at least 32 bytes, and on
 * A3 every operand in its own storage */
static bool prelu_tmp_a3(V *v)
{
    const TileBody *t = T(v, ROLE_TMP), *d = T(v, ROLE_DST);
    if (!(dtype_elem_bit(t->dtype) & EL_I8) || !is_int(t->dtype))
        return fail(v, R(v, ROLE_TMP), "expects A2/A3 tmp element type to be u8");
    if (!vec_tile(v, ROLE_TMP))
        return false;
    if (known(d->vrow) && t->rows < d->vrow + 1)
        return fail(v, R(v, ROLE_TMP), "expects A2/A3 tmp shape[0] to be at least dst valid_shape[0] + 1 (%lld)",
                    (long long)(d->vrow + 1));
    if (known(d->vcol) && known(t->vcol) && t->vcol < (d->vcol + 7) / 8)
        return fail(v, R(v, ROLE_TMP),
                    "expects A2/A3 tmp valid_shape[1] to be at least ceil(dst valid_shape[1] / 8) (%lld)",
                    (long long)((d->vcol + 7) / 8));
    if (!known(d->vrow) || !known(d->vcol))
        return fail(v, -1, "expects A2/A3 tprelu dst valid_shape to be static when tmp is provided");
    int64_t packed = ((d->vcol + 7) / 8 + 31) / 32 * 32;
    if (!tmp_capacity(v, (d->vrow + 1) * (packed > 32 ? packed : 32)))
        return false;
    if (v->arch == ARCH_A3) {
        ValueId s0 = v->val[R(v, ROLE_SRC0)], s1 = v->val[R(v, ROLE_SRC1)], tm = v->val[R(v, ROLE_TMP)],
                dd = v->val[R(v, ROLE_DST)];
        if (s0 == s1 || s0 == tm || s0 == dd || s1 == tm || s1 == dd || tm == dd)
            return fail(v, -1, "expects A3 src0, src1, tmp, and dst to use different storage");
    }
    return true;
}

static bool verify_prelu(V *v, const VecOp *o)
{
    const TileBody *s0 = T(v, ROLE_SRC0), *s1 = T(v, ROLE_SRC1), *d = T(v, ROLE_DST), *t = T(v, ROLE_TMP);
    if (!tile_common(v, ROLE_SRC0, false) || !tile_common(v, ROLE_SRC1, false) || !tile_common(v, ROLE_DST, false) ||
        (t && !tile_common(v, ROLE_TMP, false)))
        return false;
    if (s0->dtype != s1->dtype || s0->dtype != d->dtype)
        return fail(v, -1, "expects dst/src0/src1 to have the same element type");
    if (!elem_ok(v, o, s0->dtype))
        return elem_fail(v, o);
    if (!is_row_major(s0) || !is_row_major(s1) || !is_row_major(d))
        return fail(v, -1, "expects src0, src1, and dst to use row-major layout");
    if (!same_valid(v, ROLE_SRC0, ROLE_DST) || !same_valid(v, ROLE_SRC1, ROLE_DST))
        return false;
    if (s0->rows != s1->rows || s0->cols != s1->cols || s0->rows != d->rows || s0->cols != d->cols)
        return fail(v, -1, "expects src0/src1/dst to have the same shape");
    if (!t && v->arch == ARCH_A3) { /* the tmp bufferize creates is checked by this rule too */
        ValueId x = v->val[R(v, ROLE_SRC0)], y = v->val[R(v, ROLE_SRC1)], z = v->val[R(v, ROLE_DST)];
        if (x == y || x == z || y == z)
            return fail(v, -1, "expects A3 src0, src1, tmp, and dst to use different storage");
    }
    if (!t)
        return true;
    return a5(v) ? vec_tile(v, ROLE_TMP) : prelu_tmp_a3(v);
}

static bool verify_pow(V *v, const VecOp *o);
static bool scalar_ods(V *v);

/* trem (src0, src1), trems and tfmods (src, scalar): PTOAS's TRemOp / TRemSOp / TFModSOp.
 * trem's and trems's tmp: on A2/A3 dst's element type, 2 (trems: 1) valid rows covering
 * dst's valid columns, 2 (1) rows of dst's bytes; on A5 any vec tile. */
static bool verify_rem(V *v, const VecOp *o)
{
    bool scalar = o->variant != VB_REM;
    RoleId a = scalar ? ROLE_SRC : ROLE_SRC0;
    const TileBody *d = T(v, ROLE_DST), *t = T(v, ROLE_TMP);
    if (scalar && !scalar_ods(v))
        return false;
    if (!tile_common(v, a, false) || (!scalar && !tile_common(v, ROLE_SRC1, false)) || !tile_common(v, ROLE_DST, false))
        return false;
    if ((!scalar && !same_elem(v, ROLE_SRC0, ROLE_SRC1)) || !same_elem(v, a, ROLE_DST) ||
        (!scalar && !same_valid(v, ROLE_SRC0, ROLE_SRC1)) || !same_valid(v, a, ROLE_DST))
        return false;
    if (!is_row_major(T(v, a)) || (!scalar && !is_row_major(T(v, ROLE_SRC1))) || !is_row_major(d))
        return fail(v, -1, scalar ? "expects src and dst to use row-major layout"
                                  : "expects src0, src1, and dst to use row-major layout");
    DType e = T(v, a)->dtype;
    if (scalar && v->ty[R(v, ROLE_SCALAR)]->dtype != e)
        return fail(v, R(v, ROLE_SCALAR), "expects scalar type to match the tile element type");
    if (!t || o->variant == VS_FMODS)
        return elem_ok(v, o, e) || elem_fail(v, o);
    if (!tile_common(v, ROLE_TMP, false) || !vec_tile(v, ROLE_TMP))
        return false;
    if (!a5(v)) {
        int64_t rows = scalar ? 1 : 2;
        if (t->dtype != d->dtype)
            return fail(v, R(v, ROLE_TMP), "expects tmp and dst to have the same element type");
        if (known(t->vrow) && t->vrow < rows)
            return fail(v, R(v, ROLE_TMP), "expects A2/A3 tmp valid_shape[0] to be at least %lld", (long long)rows);
        if (known(d->vcol) && known(t->vcol) && t->vcol < d->vcol)
            return fail(v, R(v, ROLE_TMP), "expects A2/A3 tmp valid columns to cover dst valid columns");
        if (!tmp_capacity(v, rows * d->cols * (int64_t)dtype_size(e)))
            return false;
    }
    return elem_ok(v, o, e) || elem_fail(v, o);
}

static bool verify_binary(V *v, const VecOp *o)
{
    if (o->variant == VB_SHIFT)
        return verify_shift(v, o);
    if (o->variant == VB_POW)
        return verify_pow(v, o);
    if (o->variant == VB_PRELU)
        return verify_prelu(v, o);
    if (o->variant == VB_REM)
        return verify_rem(v, o);
    if (!tile_common(v, ROLE_SRC0, false) || !tile_common(v, ROLE_SRC1, false) || !tile_common(v, ROLE_DST, false))
        return false;
    if (!same_elem(v, ROLE_SRC0, ROLE_SRC1) || !same_elem(v, ROLE_SRC0, ROLE_DST) ||
        !same_valid(v, ROLE_SRC0, ROLE_SRC1) || !same_valid(v, ROLE_SRC0, ROLE_DST))
        return false;
    if (!is_row_major(T(v, ROLE_SRC0)) || !is_row_major(T(v, ROLE_SRC1)) || !is_row_major(T(v, ROLE_DST)))
        return fail(v, -1, "expects src0, src1, and dst to use row-major layout");
    if (o->variant == VB_XOR && !xor_tmp(v, ROLE_SRC0, "src0, src1, and dst"))
        return false;
    return elem_ok(v, o, T(v, ROLE_SRC0)->dtype) || elem_fail(v, o);
}

/* ---- elementwise unary --------------------------------------------------------------------- */
static bool verify_unary(V *v, const VecOp *o)
{
    DType e = T(v, ROLE_SRC)->dtype;
    switch (o->variant) {
    case VU_NEG:
        if (!tile_common(v, ROLE_SRC, false) || !in_vec(v, ROLE_SRC) || !tile_common(v, ROLE_DST, false) ||
            !in_vec(v, ROLE_DST) || !same_elem(v, ROLE_SRC, ROLE_DST))
            return false;
        /* A5 tneg only needs the columns to agree */
        if (a5(v) ? !same_valid_dim(v, ROLE_SRC, ROLE_DST, 1) : !same_valid(v, ROLE_SRC, ROLE_DST))
            return false;
        return elem_ok(v, o, e) || elem_fail(v, o);
    case VU_NOT: /* tnot: the valid shapes before the element types */
        if (!vec_tile(v, ROLE_SRC) || !vec_tile(v, ROLE_DST) || !same_valid(v, ROLE_SRC, ROLE_DST) ||
            !same_elem(v, ROLE_SRC, ROLE_DST))
            return false;
        return elem_ok(v, o, e) || elem_fail(v, o);
    case VU_ABS:
    case VU_RELU:
        if (!vec_tile(v, ROLE_SRC) || !vec_tile(v, ROLE_DST) || !same_elem(v, ROLE_SRC, ROLE_DST) ||
            !same_valid(v, ROLE_SRC, ROLE_DST))
            return false;
        return elem_ok(v, o, e) || elem_fail(v, o);
    default: /* trecip tsqrt trsqrt texp: verifyVecTileUnaryOp without bf16 and i8 */
        if (!vec_tile(v, ROLE_SRC) || !vec_tile(v, ROLE_DST) || !same_elem(v, ROLE_SRC, ROLE_DST))
            return false;
        if (!(dtype_elem_bit(e) & EL_I_F))
            return fail(v, -1, "expects vec tile element types to be supported");
        if (!same_valid(v, ROLE_SRC, ROLE_DST))
            return false;
        if (!elem_ok(v, o, e))
            return elem_fail(v, o);
        if (o->variant == VU_RECIP && v->arch == ARCH_A3 && v->val[R(v, ROLE_SRC)] == v->val[R(v, ROLE_DST)])
            return fail(v, -1, "expects A3 trecip src and dst to use different storage");
        if (o->variant == VU_RSQRT) {
            bool has, high = opaque_attr(v->op, "precisionType", "high_precision", &has);
            if (high && !T(v, ROLE_TMP))
                return fail(v, -1, "expects tmp when precisionType is high_precision");
            if (T(v, ROLE_TMP)) {
                if (!vec_tile(v, ROLE_TMP))
                    return false;
                if (static_bytes(T(v, ROLE_TMP)) < 32)
                    return fail(v, R(v, ROLE_TMP), "expects tmp to be at least 32 bytes when provided");
            }
        }
        return true;
    }
}

/* ---- tile-scalar ops and texpands --------------------------------------------------------------- */
/* The scalar of role r: an integer or a float (not an index). */
static bool scalar_numeric(V *v, RoleId r)
{
    const Type *t = v->ty[R(v, r)];
    if (!t || t->kind != TY_SCALAR || !(is_int(t->dtype) || is_float(t->dtype)))
        return fail(v, R(v, r), "scalar must be a scalar type (integer/float)");
    return true;
}

/* PTOAS's operand constraint (ODS, checked before the op's verifier): the scalar of
 * tadds ... tmins and texpands is a signless integer or a float, so ui32/si32 and index
 * are rejected with MLIR's text. */
static bool scalar_ods(V *v)
{
    const Type *t = v->ty[R(v, ROLE_SCALAR)];
    if (t && t->kind == TY_SCALAR && (is_signless(t->dtype) || is_float(t->dtype)))
        return true;
    char b[128];
    return fail(v, R(v, ROLE_SCALAR), "operand #%d must be numeric (integer/float), but got '%s'",
                R(v, ROLE_SCALAR), t ? type_str(t, b, sizeof b) : "?");
}

/* tpow (base, exp) and tpows (src, scalar): PTOAS's TPowOp / TPowSOp. The element types
 * depend on precisionType; an integer tile takes no tmp, a float one's tmp has dst's
 * element type and valid shape, is row-major, and on A2/A3 holds dst's bytes. */
static bool verify_pow(V *v, const VecOp *o)
{
    bool pows = o->variant == VS_POWS;
    RoleId a = pows ? ROLE_SRC : ROLE_BASE, b = pows ? ROLE_SCALAR : ROLE_EXP;
    const char *opn = pows ? "tpows" : "tpow";
    if (pows && !scalar_ods(v))
        return false;
    if (!tile_common(v, a, false) || (!pows && !tile_common(v, b, false)) || !tile_common(v, ROLE_DST, false))
        return false;
    if ((!pows && !same_elem(v, a, b)) || !same_elem(v, a, ROLE_DST) || (!pows && !same_valid(v, a, b)) ||
        !same_valid(v, a, ROLE_DST))
        return false;
    if (!is_row_major(T(v, a)) || (!pows && !is_row_major(T(v, b))) || !is_row_major(T(v, ROLE_DST)))
        return fail(v, -1, pows ? "expects src and dst to use row-major layout"
                                : "expects base, exp, and dst to use row-major layout");
    DType e = T(v, a)->dtype;
    if (pows) {
        const Type *st = v->ty[R(v, ROLE_SCALAR)];
        if (st->dtype != e)
            return fail(v, R(v, ROLE_SCALAR), "expects scalar type to match the tile element type");
    }
    bool has, high = opaque_attr(v->op, "precisionType", "high_precision", &has);
    unsigned bit = dtype_elem_bit(e);
    bool integer = is_int(e) && (bit & (EL_I8 | EL_I16 | EL_I32));
    if (!a5(v) && high)
        return fail(v, -1, "A2/A3 does not support precisionType=high_precision");
    if (a5(v) && high && !(bit & (EL_F16 | EL_F32 | EL_BF16)))
        return fail(v, -1, "expects A5 %s element type to be f16/f32/bf16 when precisionType=high_precision", opn);
    if (!high && !elem_ok(v, o, e))
        return elem_fail(v, o);
    const TileBody *t = T(v, ROLE_TMP);
    if (integer && t)
        return fail(v, -1, pows ? "does not accept tmp when element type is integer (the integer pows lowering uses the "
                                  "3-operand form TPOWS(dst, src, scalar))"
                                : "does not accept tmp when element type is integer (the integer pow lowering uses the "
                                  "3-operand form TPOW(dst, base, exp))");
    if (!t)
        return true;
    if (!tile_common(v, ROLE_TMP, false) || !same_elem(v, ROLE_TMP, ROLE_DST))
        return false;
    if (!is_row_major(t))
        return fail(v, R(v, ROLE_TMP), "expects tmp to use row-major layout");
    if (!same_valid(v, ROLE_TMP, ROLE_DST))
        return false;
    return a5(v) || tmp_capacity(v, static_bytes(T(v, ROLE_DST)));
}

/* PTOAS's AnySignlessInteger operand constraint (the bitwise tile-scalar ops' scalar) */
static bool scalar_signless_int(V *v)
{
    const Type *t = v->ty[R(v, ROLE_SCALAR)];
    if (t && t->kind == TY_SCALAR && is_signless(t->dtype))
        return true;
    char b[128];
    return fail(v, R(v, ROLE_SCALAR), "operand #%d must be signless integer, but got '%s'", R(v, ROLE_SCALAR),
                t ? type_str(t, b, sizeof b) : "?");
}

/* tands tors txors (verifyDistinctRowMajorUnaryTileOpCommon), tshls, tshrs */
static bool verify_bitwise_scalar(V *v, const VecOp *o)
{
    const TileBody *s = T(v, ROLE_SRC);
    if (!scalar_signless_int(v))
        return false;
    if (o->variant == VS_SHLS) {
        if (!tile_common(v, ROLE_SRC, false) || !tile_common(v, ROLE_DST, false) || !same_elem(v, ROLE_SRC, ROLE_DST))
            return false;
        if (!is_int(s->dtype))
            return elem_fail(v, o);
        int64_t k;
        if (ir_const_int(v->f, v->val[R(v, ROLE_SCALAR)], &k) && k < 0)
            return fail(v, R(v, ROLE_SCALAR), "expects tshls scalar to be non-negative");
        return true;
    }
    if (o->variant == VS_SHRS) {
        if (!vec_tile(v, ROLE_SRC) || !vec_tile(v, ROLE_DST) || !same_valid(v, ROLE_SRC, ROLE_DST) ||
            !same_elem(v, ROLE_SRC, ROLE_DST))
            return false;
        return elem_ok(v, o, s->dtype) || elem_fail(v, o);
    }
    if (v->val[R(v, ROLE_SRC)] == v->val[R(v, ROLE_DST)])
        return fail(v, -1, "expects src and dst to use different storage");
    if (!tile_common(v, ROLE_SRC, false) || !tile_common(v, ROLE_DST, false) || !same_elem(v, ROLE_SRC, ROLE_DST))
        return false;
    if (!is_row_major(s) || !is_row_major(T(v, ROLE_DST)))
        return fail(v, -1, "expects src and dst to use row-major layout");
    if (!same_valid(v, ROLE_SRC, ROLE_DST))
        return false;
    if (o->variant == VS_XORS && !xor_tmp(v, ROLE_SRC, "src and dst"))
        return false;
    return elem_ok(v, o, s->dtype) || elem_fail(v, o);
}

/* tlrelu (src, slope): PTOAS's TLReluOp. Its slope is an F32 operand (ODS, every arch);
 * src and dst are vec tiles of one element type and valid shape. */
static bool verify_lrelu(V *v, const VecOp *o)
{
    int si = R(v, ROLE_SLOPE);
    const Type *st = v->ty[si];
    char b[128];
    if (!(st && st->kind == TY_SCALAR && st->dtype == DT_F32))
        return fail(v, si, "operand #%d must be 32-bit float, but got '%s'", si, st ? type_str(st, b, sizeof b) : "?");
    if (!tile_common(v, ROLE_SRC, false) || !in_vec(v, ROLE_SRC) || !tile_common(v, ROLE_DST, false) ||
        !in_vec(v, ROLE_DST) || !same_elem(v, ROLE_SRC, ROLE_DST) || !same_valid(v, ROLE_SRC, ROLE_DST))
        return false;
    return elem_ok(v, o, T(v, ROLE_SRC)->dtype) || elem_fail(v, o);
}

static bool verify_tile_scalar(V *v, const VecOp *o)
{
    if (o->variant == VS_LRELU)
        return verify_lrelu(v, o);
    if (o->variant == VS_BITWISE || o->variant == VS_XORS || o->variant == VS_SHLS || o->variant == VS_SHRS)
        return verify_bitwise_scalar(v, o);
    if (o->variant == VS_POWS)
        return verify_pow(v, o);
    if (o->variant == VS_REMS || o->variant == VS_FMODS)
        return verify_rem(v, o);
    bool divs = o->variant == VS_DIVS;
    const Type *st = v->ty[R(v, ROLE_SCALAR)];
    /* tdivs takes any operand types and first asks for one tile and one integer/float */
    if (divs && !(st && st->kind == TY_SCALAR && (is_int(st->dtype) || is_float(st->dtype))))
        return fail(v, R(v, ROLE_SCALAR), "expects one tile-like operand and one scalar operand in ins(...)");
    if (!divs && !scalar_ods(v))
        return false;
    if (!tile_common(v, ROLE_SRC, false) || !tile_common(v, ROLE_DST, false) || !in_vec(v, ROLE_SRC) ||
        !in_vec(v, ROLE_DST) || !same_elem(v, ROLE_SRC, ROLE_DST) || !same_valid_dim(v, ROLE_SRC, ROLE_DST, 0) ||
        !same_valid_dim(v, ROLE_SRC, ROLE_DST, 1) || !scalar_numeric(v, ROLE_SCALAR))
        return false;
    return elem_ok(v, o, T(v, ROLE_SRC)->dtype) || elem_fail(v, o);
}

static bool verify_expands(V *v, const VecOp *o)
{
    const TileBody *d = T(v, ROLE_DST);
    if (!scalar_ods(v) || !tile_common(v, ROLE_DST, false))
        return false;
    if (d->loc != LOC_VEC && d->loc != LOC_MAT)
        return fail(v, R(v, ROLE_DST), "expects dst to be in the vec or mat address space");
    const Type *s = v->ty[R(v, ROLE_SCALAR)];
    if (!s || s->kind != TY_SCALAR || s->dtype != d->dtype)
        return fail(v, R(v, ROLE_SCALAR), "expects scalar type == dst element type");
    if (!a5(v) && d->loc == LOC_VEC && !is_row_major(d))
        return fail(v, R(v, ROLE_DST), "expects vec dst to use row-major layout on A2/A3");
    return elem_ok(v, o, d->dtype) || elem_fail(v, o);
}

/* ---- reductions ------------------------------------------------------------------------------ */
/* verifyRowReductionDstLayout */
static bool row_reduce_dst(V *v)
{
    const TileBody *d = T(v, ROLE_DST);
    if (!tile_common(v, ROLE_DST, false) || !in_vec(v, ROLE_DST))
        return false;
    if (d->slayout != SL_NONE_BOX)
        return fail(v, R(v, ROLE_DST), "expects dst to use the none_box slayout");
    if (d->blayout == BL_COL_MAJOR && d->cols != 1)
        return fail(v, R(v, ROLE_DST), "expects DN-style dst to have shape[1] == 1");
    return true;
}

static bool verify_row_reduce(V *v, const VecOp *o)
{
    const TileBody *s = T(v, ROLE_SRC), *d = T(v, ROLE_DST), *t = T(v, ROLE_TMP);
    if (!nd_vec_tile(v, ROLE_SRC))
        return false;
    if (t && (!tile_common(v, ROLE_TMP, false) || !in_vec(v, ROLE_TMP)))
        return false;
    if (!row_reduce_dst(v) || !same_elem(v, ROLE_SRC, ROLE_DST))
        return false;
    if (t && !a5(v) && t->dtype != s->dtype)
        return fail(v, R(v, ROLE_TMP), "expects A2/A3 tmp to have the same element type as src and dst");
    /* a 0x0 dst is PyPTO's no-op marker: accepted */
    if (!(d->vrow == 0 && d->vcol == 0)) {
        if (!nonzero(v, ROLE_SRC, 0) || !nonzero(v, ROLE_SRC, 1) || !same_valid_dim(v, ROLE_SRC, ROLE_DST, 0))
            return false;
        if (known(d->vcol) && d->vcol != 1)
            return fail(v, R(v, ROLE_DST), "expects dst valid_shape[1] to be 1");
    }
    if (!elem_ok(v, o, s->dtype))
        return elem_fail(v, o);
    if (t && !a5(v))
        return tmp_capacity(v, 32);
    return true;
}

static bool col_reduce_region(V *v)
{
    const TileBody *d = T(v, ROLE_DST);
    if (d->vrow == 0 && d->vcol == 0)
        return true;
    /* tcolprod may have an empty src on A5 too (PTOAS's requireNonZeroSrcOnA5) */
    if (a5(v) && op_info(v->op->kind)->variant != VCR_PROD && (!nonzero(v, ROLE_SRC, 0) || !nonzero(v, ROLE_SRC, 1)))
        return false;
    return same_valid_dim(v, ROLE_SRC, ROLE_DST, 1);
}

static bool verify_col_reduce(V *v, const VecOp *o)
{
    const TileBody *s = T(v, ROLE_SRC), *d = T(v, ROLE_DST), *t = T(v, ROLE_TMP);
    if (!nd_vec_tile(v, ROLE_SRC) || !nd_vec_tile(v, ROLE_DST))
        return false;
    if (o->variant == VCR_MAXMIN || o->variant == VCR_PROD) {
        if (!same_elem(v, ROLE_SRC, ROLE_DST) || !col_reduce_region(v))
            return false;
        return elem_ok(v, o, s->dtype) || elem_fail(v, o);
    }
    const Attr *bin = ir_attr_find(v->op->attrs, v->op->nattrs, "isBinary");
    bool binary = bin && bin->val->kind == AV_BOOL && bin->val->u.b;
    if (t && !bin)
        return fail(v, -1, "tmp operand requires isBinary attribute");
    if (t) {
        if (!nd_vec_tile(v, ROLE_TMP))
            return false;
        if (s->dtype != d->dtype || s->dtype != t->dtype)
            return fail(v, -1, "expects src/tmp/dst element types to match");
        if (binary && known(s->vcol) && t->cols < s->vcol)
            return fail(v, R(v, ROLE_TMP),
                        "expects tmp shape[1] to be at least src valid_shape[1] when isBinary is true; got %lld vs %lld",
                        (long long)t->cols, (long long)s->vcol);
        if (binary) {
            if (!known(s->vrow) || !known(s->vcol))
                return fail(v, -1, "expects static src valid_shape and element size to verify tcolsum tmp");
            if (!tmp_capacity(v, (s->vrow + 1) / 2 * s->vcol * (int64_t)dtype_size(s->dtype)))
                return false;
        }
    }
    if (s->dtype != d->dtype)
        return fail(v, -1, "expects src/dst element types to match");
    if (!col_reduce_region(v))
        return false;
    return elem_ok(v, o, s->dtype) || elem_fail(v, o);
}

/* ---- broadcasts ----------------------------------------------------------------------------- */
/* 32 bytes of the element type: the row-major per-row operand's width */
static int64_t block_cols(DType d) { return dtype_elem_bit(d) & EL_I8 ? 32 : dtype_elem_bit(d) & (EL_F16 | EL_I16) ? 16 : 8; }

/* PTOAS's A2/A3 tmp contract of the tmp form: a col-major per-row scalar operand,
 * a vec tmp of dst's element type, big enough for dst's rows. */
static bool row_expand_tmp_contract(V *v)
{
    const TileBody *t = T(v, ROLE_TMP), *d = T(v, ROLE_DST);
    if (!t || a5(v))
        return true;
    const TileBody *s0 = T(v, ROLE_SRC0), *s1 = T(v, ROLE_SRC1);
    bool s0full = !differ(s0->vrow, d->vrow) && !differ(s0->vcol, d->vcol);
    bool s1full = !differ(s1->vrow, d->vrow) && !differ(s1->vcol, d->vcol);
    const TileBody *x = s0full ? s1 : s1full ? s0 : NULL;
    if (!x || x->blayout != BL_COL_MAJOR || (known(x->vcol) && x->vcol != 1))
        return fail(v, -1, "expects A2/A3 tmp-form trowexpand to use mode 1 (ColMajor per-row scalar expanded "
                           "operand)");
    if (!tile_common(v, ROLE_TMP, false) || !in_vec(v, ROLE_TMP))
        return false;
    if (t->dtype != d->dtype)
        return fail(v, R(v, ROLE_TMP), "expects tmp and dst to have the same element type");
    int64_t need = !known(d->vrow) ? 8192 : d->vrow < 256 ? (d->vrow + 7) / 8 * 256 : 30 * 256;
    if (static_bytes(t) < need)
        return fail(v, R(v, ROLE_TMP), "expects A2/A3 trowexpand tmp capacity to be at least %lld bytes, but got %lld bytes",
                    (long long)need, (long long)static_bytes(t));
    return true;
}

/* the per-row operand of trowexpandmax/min: [R, 1] or row-major [R, 32 bytes] */
static bool row_bcast_operand(V *v, RoleId r, bool need_non_row_major)
{
    const TileBody *x = T(v, r), *d = T(v, ROLE_DST);
    if (differ(x->vrow, d->vrow))
        return fail(v, R(v, r), "expects %s valid_shape[0] to equal dst valid_shape[0]", N(v, r));
    if (need_non_row_major && is_row_major(x))
        return fail(v, R(v, r), "expects %s to use a non-row-major layout when tmp is present", N(v, r));
    if (is_row_major(x)) {
        if (known(x->vcol) && x->vcol != block_cols(d->dtype))
            return fail(v, R(v, r), "expects row-major %s valid_shape[1] to be 32/sizeof(dtype)", N(v, r));
        return true;
    }
    if (known(x->vcol) && x->vcol != 1)
        return fail(v, R(v, r), "expects non-row-major %s valid_shape[1] to be 1", N(v, r));
    return true;
}

/* src `full` matches dst and `bc` is the per-row operand (PTOAS's checkFullAndBroadcast) */
static bool row_full_and_bcast(V *v, RoleId full, RoleId bc)
{
    const TileBody *f = T(v, full), *dt = T(v, ROLE_DST);
    if (!is_row_major(f))
        return fail(v, R(v, full), "expects %s to use row-major layout when it matches dst", N(v, full));
    if (differ(f->vrow, dt->vrow))
        return fail(v, R(v, full), "expects %s valid_shape[0] to equal dst valid_shape[0]", N(v, full));
    if (differ(f->vcol, dt->vcol))
        return fail(v, R(v, full), "expects %s valid_shape[1] to equal dst valid_shape[1]", N(v, full));
    /* PTOAS's A2/A3 verifier passes its A3 here for a2 too */
    return row_bcast_operand(v, bc, T(v, ROLE_TMP) && !a5(v));
}

/* Whether PTOAS's second try (src1 the full operand, src0 per-row) passes when src0
 * matches dst too, checked without reporting: with a tmp on A2/A3 it never does (the tmp
 * contract then takes src1 as the expanded operand, which is row-major). */
static bool row_src1_path_ok(const V *v)
{
    const TileBody *s0 = T(v, ROLE_SRC0), *s1 = T(v, ROLE_SRC1), *d = T(v, ROLE_DST);
    if ((T(v, ROLE_TMP) && !a5(v)) || !is_row_major(s1) || differ(s0->vrow, d->vrow))
        return false;
    int64_t want = is_row_major(s0) ? block_cols(d->dtype) : 1;
    return !known(s0->vcol) || s0->vcol == want;
}

static bool verify_row_expand_maxmin(V *v, const VecOp *o)
{
    const TileBody *s0 = T(v, ROLE_SRC0), *s1 = T(v, ROLE_SRC1), *d = T(v, ROLE_DST), *t = T(v, ROLE_TMP);
    if (!tile_common(v, ROLE_SRC0, false) || !tile_common(v, ROLE_SRC1, false) || !tile_common(v, ROLE_DST, false))
        return false;
    if (t) {
        if (!tile_common(v, ROLE_TMP, false))
            return false;
        if (t->dtype != d->dtype)
            return fail(v, R(v, ROLE_TMP), "expects tmp and dst to have the same element type");
    }
    if (s0->dtype != d->dtype || s1->dtype != d->dtype)
        return fail(v, -1, "expects src0, src1, and dst to have the same element type");
    if (!elem_ok(v, o, d->dtype))
        return elem_fail(v, o);
    if (!is_row_major(d))
        return fail(v, R(v, ROLE_DST), "expects dst to use row-major layout");
    if (d->vrow == 0 && d->vcol == 0)
        return true;
    if (!nonzero(v, ROLE_DST, 0) || !nonzero(v, ROLE_DST, 1))
        return false;
    bool s0m = !differ(s0->vrow, d->vrow) && !differ(s0->vcol, d->vcol);
    bool s1m = !differ(s1->vrow, d->vrow) && !differ(s1->vcol, d->vcol);
    /* PTOAS tries src0 as the full operand, then src1, and accepts when either passes
     * (it prints the first try's error but returns success); when both fail the first
     * failed check reports */
    if (s0m && s1m && row_src1_path_ok(v))
        return true;
    /* trowexpandexpdif: PTOAS's enforceTmpContract false */
    bool contract = o->variant != VR_EXPDIF;
    if (s0m)
        return row_full_and_bcast(v, ROLE_SRC0, ROLE_SRC1) && (!contract || row_expand_tmp_contract(v));
    if (s1m)
        return row_full_and_bcast(v, ROLE_SRC1, ROLE_SRC0) && (!contract || row_expand_tmp_contract(v));
    return fail(v, -1, "expects one of src0/src1 to match dst valid_shape and the other to be a per-row scalar vector");
}

static bool verify_row_expand(V *v, const VecOp *o)
{
    if (o->variant == VR_PLAIN) {
        const TileBody *s = T(v, ROLE_SRC), *d = T(v, ROLE_DST);
        if (!tile_common(v, ROLE_SRC, false) || !nd_vec_tile(v, ROLE_DST) || !in_vec(v, ROLE_SRC))
            return false;
        if (s->slayout != SL_NONE_BOX)
            return fail(v, R(v, ROLE_SRC), "expects src to use the none_box slayout");
        if (s->dtype != d->dtype)
            return fail(v, -1, "expects src and dst to have the same element type");
        if (!elem_ok(v, o, s->dtype))
            return elem_fail(v, o);
        if (d->vrow == 0 && d->vcol == 0)
            return true;
        return same_valid_dim(v, ROLE_SRC, ROLE_DST, 0) && nonzero(v, ROLE_SRC, 0) && nonzero(v, ROLE_SRC, 1) &&
               nonzero(v, ROLE_DST, 0) && nonzero(v, ROLE_DST, 1);
    }
    if (o->variant == VR_MAXMIN || o->variant == VR_EXPDIF)
        return verify_row_expand_maxmin(v, o);
    /* verifyTRowExpandBinaryCore */
    const TileBody *s0 = T(v, ROLE_SRC0), *s1 = T(v, ROLE_SRC1), *d = T(v, ROLE_DST);
    if (!tile_common(v, ROLE_SRC0, false) || !tile_common(v, ROLE_SRC1, false) || !tile_common(v, ROLE_DST, false) ||
        (T(v, ROLE_TMP) && !tile_common(v, ROLE_TMP, false)))
        return false;
    if (!same_elem(v, ROLE_SRC0, ROLE_DST))
        return false;
    if (s0->dtype != s1->dtype)
        return fail(v, -1, "expects src0 and src1 to have the same element type");
    if (!is_row_major(d))
        return fail(v, R(v, ROLE_DST), "expects dst to use row-major layout");
    if (o->variant == VR_ADD) {
        if (!same_valid(v, ROLE_SRC0, ROLE_DST))
            return false;
        if (!is_row_major(s0))
            return fail(v, R(v, ROLE_SRC0), "expects src0 to use row-major layout");
    }
    if (!elem_ok(v, o, s0->dtype))
        return elem_fail(v, o);
    if (o->variant == VR_ADD) {
        if (differ(s1->vrow, d->vrow))
            return fail(v, R(v, ROLE_SRC1), "expects src1 valid_shape[0] to equal dst valid_shape[0]");
        if (is_row_major(s1) && known(s1->vcol) && s1->vcol != block_cols(s0->dtype))
            return fail(v, R(v, ROLE_SRC1), "expects row-major src1 valid_shape[1] to be 32/sizeof(dtype)");
        if (!is_row_major(s1) && known(s1->vcol) && s1->vcol != 1)
            return fail(v, R(v, ROLE_SRC1), "expects non-row-major src1 valid_shape[1] to be 1");
    }
    if (o->variant == VR_DIV) {
        bool has, high = opaque_attr(v->op, "precisionType", "high_precision", &has);
        if (high && !T(v, ROLE_TMP))
            return fail(v, -1, "expects tmp when precisionType is high_precision");
    }
    return row_expand_tmp_contract(v);
}

static bool verify_col_expand(V *v, const VecOp *o)
{
    if (o->variant == VC_PLAIN) {
        const TileBody *s = T(v, ROLE_SRC), *d = T(v, ROLE_DST);
        if (!nd_vec_tile(v, ROLE_SRC) || !nd_vec_tile(v, ROLE_DST))
            return false;
        if (s->dtype != d->dtype)
            return fail(v, -1, "expects src and dst to have the same element type");
        if (!elem_ok(v, o, s->dtype))
            return elem_fail(v, o);
        return same_valid_dim(v, ROLE_SRC, ROLE_DST, 1);
    }
    const TileBody *s0 = T(v, ROLE_SRC0), *s1 = T(v, ROLE_SRC1), *d = T(v, ROLE_DST);
    if (!elem_ok(v, o, s0->dtype) || !elem_ok(v, o, s1->dtype) || !elem_ok(v, o, d->dtype))
        return elem_fail(v, o);
    if (s0->rows != d->rows || s0->cols != d->cols)
        return fail(v, -1, "expects src0/dst to have same shape");
    if (!same_valid(v, ROLE_SRC0, ROLE_DST))
        return false;
    if (!is_row_major(s0))
        return fail(v, R(v, ROLE_SRC0), "expects src0 to use row-major layout");
    if (!is_row_major(s1))
        return fail(v, R(v, ROLE_SRC1), "expects src1 to use row-major layout");
    if (!is_row_major(d))
        return fail(v, R(v, ROLE_DST), "expects dst to use row-major layout");
    if (differ(s1->vcol, d->vcol))
        return fail(v, R(v, ROLE_SRC1), "expects src1 valid_shape[1] to equal dst valid_shape[1]");
    return true;
}

/* ---- tcvt and tci ------------------------------------------------------------------------ */
static bool fp8(DType d) { return dtype_is_fp8(d); }
static bool fp4(DType d) { return d == DT_F4E2M1X2 || d == DT_F4E1M2X2; }

/* PTO-ISA's A5 low-precision conversions (PTOAS isA5LowPrecisionTCvtPair) */
static bool a5_low_pair(DType s, DType d)
{
    if (s == DT_F32)
        return fp8(d) || d == DT_HIF8;
    if (s == DT_F16)
        return d == DT_HIF8;
    if (s == DT_BF16)
        return fp4(d);
    if (fp4(s))
        return d == DT_BF16;
    if (fp8(s) || s == DT_HIF8)
        return d == DT_F32;
    return false;
}

/* a packed fp4 tile counts two elements per byte along its packed dimension */
static void logical(const TileBody *t, bool valid, int64_t out[2])
{
    out[0] = valid ? t->vrow : t->rows;
    out[1] = valid ? t->vcol : t->cols;
    if (fp4(t->dtype)) {
        int k = t->blayout == BL_COL_MAJOR ? 0 : 1;
        if (known(out[k]))
            out[k] *= 2;
    }
}

static int tcvt_sat_mode(const Op *op)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, "sat_mode");
    if (!a)
        a = ir_attr_find(op->attrs, op->nattrs, "satmode");
    if (a && a->val->kind == AV_ENUM && a->val->u.e.kind == EK_SAT_MODE)
        return a->val->u.e.value;
    return SAT_OFF;
}

/* The tcvt pairs of pto-isa's TCvt per arch (include/pto/npu/a2a3 and a5 TCvt.hpp, the
 * table of docs/isa/TCVT.md), by the runtime's dtype names less "PTORT_": the pairs PTOAS
 * verifies that the NPU cannot convert get a warning. int4 and the low-precision pairs
 * (a5_low_pair) are left out: ptoas has no int4 and checks those with PTOAS's rule. */
static const char *const cvt_isa_a2a3[] = {
    "F32>F16", "F32>BF16", "F32>F32", "F32>I32", "F32>I16", "F32>I64", "F16>F32", "F16>I32",
    "F16>I16", "F16>I8", "F16>U8", "BF16>F32", "BF16>I32", "I16>F16", "I16>F32", "I32>F32",
    "I32>I16", "I32>I64", "I32>F16", "I64>F32", "I64>I32", "U8>F16", "I8>F16", NULL};
static const char *const cvt_isa_a5[] = {
    "F32>F32", "F32>F16", "F32>BF16", "F32>I16", "F32>I32", "F32>I64", "F16>F32", "F16>I32",
    "F16>I16", "F16>I8", "F16>U8", "BF16>F32", "BF16>I32", "BF16>F16", "I16>U8", "I16>F16",
    "I16>F32", "I16>U32", "I16>I32", "I32>F32", "I32>I16", "I32>U16", "I32>I64", "I32>U8",
    "I64>F32", "I64>I32", "U8>F16", "U8>U16", "I8>F16", "I8>I16", "I8>I32", "U32>U8",
    "U32>U16", "U32>I16", NULL};

/* Whether pto-isa converts s -> d on the arch of v (low-precision pairs: a5_low_pair). */
static bool cvt_isa_pair(const V *v, DType s, DType d)
{
    const char *rs = dtype_rt_name(s), *rd = dtype_rt_name(d);
    if (!rs || !rd)
        return false;
    char key[48];
    snprintf(key, sizeof key, "%s>%s", rs + 6, rd + 6);
    for (const char *const *p = a5(v) ? cvt_isa_a5 : cvt_isa_a2a3; *p; p++)
        if (strcmp(*p, key) == 0)
            return true;
    return false;
}

/* A pair PTOAS verifies but the NPU or ptoas's runtime cannot convert: a warning (an error
 * with --Werror), so that `ptoas run` stopping at the op is no surprise (docs/vector-ops.md,
 * tcvt). The runtime runs every non-low-precision pair of pto-isa's table but i64, and
 * i32 -> f16 on a5 too (A2/A3's conversion), which A5 lacks. */
static void warn_cvt_pair(V *v, DType s, DType d)
{
    const char *arch = a5(v) ? "A5" : "A2/A3";
    bool low = low_precision(s) || low_precision(d);
    bool isa = low ? a5_low_pair(s, d) : cvt_isa_pair(v, s, d);
    bool i64 = dtype_int_width(s) == 64 || dtype_int_width(d) == 64;
    if (!isa && a5(v) && !strcmp(dtype_rt_name(s) ? dtype_rt_name(s) : "", "PTORT_I32") && d == DT_F16)
        diag_warning(v->d, v->op->name_span,
                     "'pto.tcvt' op conversion %s -> %s has no implementation in pto-isa for %s; "
                     "ptoas run converts as A2/A3 does", dtype_name(s), dtype_name(d), arch);
    else if (!isa)
        diag_warning(v->d, v->op->name_span,
                     "'pto.tcvt' op conversion %s -> %s has no implementation in pto-isa for %s; "
                     "ptoas run stops at it", dtype_name(s), dtype_name(d), arch);
    else if (low || i64)
        diag_warning(v->d, v->op->name_span,
                     "'pto.tcvt' op conversion %s -> %s is not implemented by the ptoas runtime; "
                     "ptoas run stops at it", dtype_name(s), dtype_name(d));
}

static bool verify_cvt_rules(V *v)
{
    const TileBody *s = T(v, ROLE_SRC), *d = T(v, ROLE_DST), *t = T(v, ROLE_TMP);
    int64_t a[2], b[2];
    logical(s, false, a);
    logical(d, false, b);
    if (differ(a[0], b[0]) || differ(a[1], b[1]))
        return fail(v, -1, "expects src and dst to have compatible shapes");
    logical(s, true, a);
    logical(d, true, b);
    if (differ(a[0], b[0]) || differ(a[1], b[1]))
        return fail(v, -1, "expects src and dst to have the same valid_shape");
    if (a5(v)) {
        if ((low_precision(s->dtype) || low_precision(d->dtype)) && !a5_low_pair(s->dtype, d->dtype))
            return fail(v, -1, "expects A5 tcvt low-precision type pairs to match PTO-ISA support");
        return !t || vec_tile(v, ROLE_TMP);
    }
    if (low_precision(s->dtype) || low_precision(d->dtype))
        return fail(v, -1, "expects A2/A3 tcvt low-precision element types to be unsupported");
    if (!t)
        return true;
    if (!vec_tile(v, ROLE_TMP))
        return false;
    bool i16 = dtype_elem_bit(d->dtype) & EL_I16, i8 = dtype_elem_bit(d->dtype) & EL_I8;
    bool needs = tcvt_sat_mode(v->op) == SAT_OFF &&
                 ((s->dtype == DT_F32 && i16) || (s->dtype == DT_F16 && (i16 || i8)));
    if (!needs)
        return true;
    if (!known(d->vrow) || !known(d->vcol))
        return fail(v, -1, "expects static src shape and dst valid_shape to verify tcvt tmp");
    int64_t rows = d->vrow, cols = d->vcol, need = 0;
    if (rows > 0 && cols > 0 && s->dtype == DT_F32) {
        int64_t head = 4 * 64 * (cols / 64 < 255 ? cols / 64 : 255);
        int64_t rem = cols % 64;
        int64_t tail = rem == 0 ? 0 : 32 * (((rows < 255 ? rows : 255) - 1) * (s->cols / 8) + (rem + 7) / 8);
        need = head > tail ? head : tail;
    } else if (cols > 0 && s->dtype == DT_F16) {
        int64_t w = cols < 64 ? cols : 64;
        int64_t h16 = 32 * ((w + 7) / 8), h8 = 128 + 32 * ((w + 15) / 16);
        need = i8 ? (h16 > h8 ? h16 : h8) : h16;
    }
    if (static_bytes(t) < need)
        return fail(v, R(v, ROLE_TMP), "expects tcvt tmp capacity to be at least %lld bytes", (long long)need);
    return true;
}

static bool verify_cvt(V *v)
{
    if (!verify_cvt_rules(v))
        return false;
    warn_cvt_pair(v, T(v, ROLE_SRC)->dtype, T(v, ROLE_DST)->dtype);
    return true;
}

static bool verify_ci(V *v)
{
    const TileBody *d = T(v, ROLE_DST), *t = T(v, ROLE_TMP);
    const Type *s = v->ty[R(v, ROLE_S)];
    /* PTOAS's operand constraint on S (any integer, not index) comes before its verifier */
    if (!s || s->kind != TY_SCALAR || !is_int(s->dtype)) {
        char b[128];
        return fail(v, R(v, ROLE_S), "operand #0 must be integer, but got '%s'", s ? type_str(s, b, sizeof b) : "?");
    }
    if (!tile_common(v, ROLE_DST, false) || (t && !tile_common(v, ROLE_TMP, false)))
        return false;
    unsigned e = dtype_elem_bit(d->dtype);
    if (!is_int(d->dtype))
        return fail(v, R(v, ROLE_DST), "expects dst element type to be integer");
    if (!(e & (EL_I16 | EL_I32)))
        return fail(v, R(v, ROLE_DST), "expects dst element type to be i16/i32");
    bool w32 = e & EL_I32;
    if (t && !a5(v)) {
        if (t->loc != LOC_VEC)
            return fail(v, R(v, ROLE_TMP), "expects tmp to be in vec address space");
        if (t->dtype != DT_F32 && !(dtype_elem_bit(t->dtype) & EL_I32))
            return fail(v, R(v, ROLE_TMP), "expects A2/A3 tmp element type to be a 4-byte type");
        if (t->blayout != BL_ROW_MAJOR)
            return fail(v, R(v, ROLE_TMP), "expects tmp blayout to be row_major");
        if (t->slayout != SL_NONE_BOX)
            return fail(v, R(v, ROLE_TMP), "expects tmp slayout to be none_box");
        if (t->fractal != 512)
            return fail(v, R(v, ROLE_TMP), "expects tmp fractal size to be 512");
        if (static_bytes(t) < (w32 ? 768 : 1792))
            return fail(v, R(v, ROLE_TMP), "expects A2/A3 tmp capacity to be at least %d bytes for %d-bit dst element type",
                        w32 ? 768 : 1792, w32 ? 32 : 16);
    }
    if (s->dtype != d->dtype)
        return fail(v, R(v, ROLE_S), "expects S and dst element type to be exactly the same type");
    if (d->cols == 1)
        return fail(v, R(v, ROLE_DST), "expects dst cols to be different from 1");
    return true;
}

/* ---- compare and select (PTOAS's TCmpOp, TCmpSOp, TSelOp, TSelSOp) ------------------------- */
/* verifyVecTileStorage: verifyTileBufCommon, then the vec space */
static bool vec_storage(V *v, RoleId r) { return tile_common(v, r, false) && in_vec(v, r); }

/* MLIR's isInteger(8): an 8-bit integer of any signedness */
static bool int8(DType d) { return is_int(d) && dtype_int_width(d) == 8; }

/* tcmp: A2/A3 vec tiles whose valid rows (and src0/src1's valid columns) agree; A5 any
 * tile_bufs of one shape. dst is the i8 mask on both. */
static bool verify_tcmp(V *v, const VecOp *o)
{
    const TileBody *s0 = T(v, ROLE_SRC0), *s1 = T(v, ROLE_SRC1), *d = T(v, ROLE_DST);
    bool ok = a5(v) ? tile_common(v, ROLE_SRC0, false) && tile_common(v, ROLE_SRC1, false) && tile_common(v, ROLE_DST, false)
                    : vec_storage(v, ROLE_SRC0) && vec_storage(v, ROLE_SRC1) && vec_storage(v, ROLE_DST);
    if (!ok)
        return false;
    if (s0->dtype != s1->dtype)
        return fail(v, -1, "expects src0 and src1 to have the same element type");
    if (!elem_ok(v, o, s0->dtype))
        return elem_fail(v, o);
    if (!int8(d->dtype))
        return fail(v, -1, "expects dst element type to be i8");
    if (a5(v)) {
        if (s0->rows != s1->rows || s0->cols != s1->cols || s0->rows != d->rows || s0->cols != d->cols)
            return fail(v, -1, "expects src0, src1, and dst to have the same shape");
        return true;
    }
    if (differ(s0->vrow, s1->vrow))
        return fail(v, -1, "expects src0 and src1 to have the same valid row");
    if (differ(s0->vcol, s1->vcol))
        return fail(v, -1, "expects src0 and src1 to have the same valid column");
    if (differ(s0->vrow, d->vrow))
        return fail(v, -1, "expects src0 valid row to equal dst valid row");
    return true;
}

/* tcmps: vec tiles with the same valid rows, any numeric scalar (MLIR's ScalarType first);
 * dst's element type is not checked (pto-isa's A5 writes u32 masks) */
static bool verify_tcmps(V *v, const VecOp *o)
{
    const TileBody *s = T(v, ROLE_SRC), *d = T(v, ROLE_DST);
    if (!scalar_ods(v))
        return false;
    if (!vec_storage(v, ROLE_SRC) || !vec_storage(v, ROLE_DST))
        return false;
    if (!elem_ok(v, o, s->dtype))
        return elem_fail(v, o);
    if (differ(s->vrow, d->vrow))
        return fail(v, -1, "expects src and dst to have the same valid_shape[0]");
    return true;
}

/* tsel: src0, src1, dst of one element type, row-major (the mask is not checked); an A2/A3
 * tmp holds the compare mask: 4-byte elements, 16 bytes for 16-bit data, 8 for 32-bit */
static bool verify_tsel(V *v, const VecOp *o)
{
    const TileBody *s0 = T(v, ROLE_SRC0), *s1 = T(v, ROLE_SRC1), *d = T(v, ROLE_DST), *t = T(v, ROLE_TMP);
    if (!tile_common(v, ROLE_SRC0, false) || !tile_common(v, ROLE_SRC1, false) || !tile_common(v, ROLE_DST, false) ||
        (t && !vec_tile(v, ROLE_TMP)))
        return false;
    if (s0->dtype != s1->dtype || s0->dtype != d->dtype)
        return fail(v, -1, "expects src0, src1, and dst to have the same element type");
    if (!is_row_major(s0) || !is_row_major(s1) || !is_row_major(d))
        return fail(v, -1, "expects src0, src1, and dst to use row-major layout");
    if (!elem_ok(v, o, s0->dtype))
        return elem_fail(v, o);
    if (a5(v) || !t)
        return true;
    if (dtype_size(t->dtype) != 4)
        return fail(v, R(v, ROLE_TMP), "expects A2/A3 tsel tmp element type to be 4 bytes wide");
    return tmp_capacity(v, dtype_size(d->dtype) == 2 ? 16 : 8);
}

/* MLIR's "operand #N must be numeric (integer/float)" for tsels's scalar, which comes after
 * the optional tmp */
static bool tsels_scalar_ods(V *v)
{
    const Type *t = v->ty[R(v, ROLE_SCALAR)];
    if (t && t->kind == TY_SCALAR && (is_signless(t->dtype) || is_float(t->dtype)))
        return true;
    char b[128];
    int at = R(v, ROLE_SCALAR) - (T(v, ROLE_TMP) ? 0 : 1);
    return fail(v, R(v, ROLE_SCALAR), "operand #%d must be numeric (integer/float), but got '%s'", at,
                t ? type_str(t, b, sizeof b) : "?");
}

/* tsels: src and dst of one element type and valid shape; A2/A3 row-major src and dst and a
 * tmp of their element type holding one src row, A5 a row-major mask too */
static bool verify_tsels(V *v, const VecOp *o)
{
    const TileBody *s = T(v, ROLE_SRC), *d = T(v, ROLE_DST), *t = T(v, ROLE_TMP);
    if (!tsels_scalar_ods(v))
        return false;
    if (!tile_common(v, ROLE_MASK, false) || !tile_common(v, ROLE_SRC, false) || !tile_common(v, ROLE_DST, false) ||
        (t && !tile_common(v, ROLE_TMP, false)))
        return false;
    if (s->dtype != d->dtype)
        return fail(v, -1, "expects src and dst to have the same element type");
    if (differ(s->vrow, d->vrow) || differ(s->vcol, d->vcol))
        return fail(v, -1, "expects src and dst to have the same valid_shape");
    if (a5(v)) {
        if (!is_row_major(T(v, ROLE_MASK)) || !is_row_major(s) || !is_row_major(d))
            return fail(v, -1, "expects mask, src, and dst to use row-major layout");
        return elem_ok(v, o, s->dtype) || elem_fail(v, o);
    }
    if (!is_row_major(s) || !is_row_major(d))
        return fail(v, -1, "expects src and dst to use row-major layout");
    if (t) {
        if (t->dtype != s->dtype)
            return fail(v, R(v, ROLE_TMP), "expects A2/A3 tsels tmp to have the same element type as src and dst");
        if (!is_row_major(t))
            return fail(v, R(v, ROLE_TMP), "expects A2/A3 tsels tmp to use row-major layout");
        if (!tmp_capacity(v, s->cols * (int64_t)dtype_size(s->dtype)))
            return false;
    }
    return elem_ok(v, o, s->dtype) || elem_fail(v, o);
}

static bool verify_cmp_sel(V *v, const VecOp *o)
{
    switch (v->op->kind) {
    case OP_TCMP: return verify_tcmp(v, o);
    case OP_TCMPS: return verify_tcmps(v, o);
    case OP_TSEL: return verify_tsel(v, o);
    default: return verify_tsels(v, o);
    }
}

/* ---- taddc tsubc taddsc tsubsc (PTOAS's TAddCOp, TSubCOp, TAddSCOp, TSubSCOp) -------------- */
/* taddc and taddsc: every tile of one shape (rows, cols); tsubc and tsubsc: one rank, which
 * tile_bufs always have. No element type, valid shape or space rule: the runtime checks the
 * element types and valid shapes pto-isa's one TileData type implies (docs/vector-ops.md). */
static bool verify_ternary(V *v)
{
    bool scalar = v->op->kind == OP_TADDSC || v->op->kind == OP_TSUBSC;
    if (scalar && !scalar_ods(v))
        return false;
    if (v->op->kind == OP_TSUBC || v->op->kind == OP_TSUBSC)
        return true;
    const TileBody *d = T(v, ROLE_DST);
    static const RoleId tiles[] = {ROLE_SRC0, ROLE_SRC1, ROLE_SRC2};
    for (size_t i = 0; i < sizeof tiles / sizeof tiles[0]; i++) {
        const TileBody *t = R(v, tiles[i]) >= 0 ? T(v, tiles[i]) : NULL;
        if (t && (t->rows != d->rows || t->cols != d->cols))
            return fail(v, -1, scalar ? "expects src0/src1/dst to have the same shape"
                                      : "expects src0/src1/src2/dst to have the same shape");
    }
    return true;
}

/* ---- taxpy (PTOAS's TAxpyOp) -------------------------------------------------------------- */
/* src and dst vec tiles of one shape and valid shape, the scalar of src's element type; f16 or
 * f32 (A5: bf16 too), one type or the widening f16 src, f32 dst. dst is read, so the Level 1
 * form, whose result is a fresh tile, has no value to accumulate into. */
static bool verify_axpy(V *v)
{
    if (v->op->nres)
        return fail(v, -1, "has no Level 1 form: dst is read (dst = scalar * src + dst), write it with outs");
    if (!scalar_ods(v) || !vec_tile(v, ROLE_SRC) || !vec_tile(v, ROLE_DST))
        return false;
    const TileBody *s = T(v, ROLE_SRC), *d = T(v, ROLE_DST);
    if (differ(s->vrow, d->vrow) || differ(s->vcol, d->vcol))
        return fail(v, -1, "expects src and dst to have the same valid_shape");
    if (v->ty[R(v, ROLE_SCALAR)]->dtype != s->dtype)
        return fail(v, -1, "expects scalar type to match src element type");
    if (s->rows != d->rows || s->cols != d->cols)
        return fail(v, -1, "expects src and dst to have the same shape");
    if (s->dtype != d->dtype && !(s->dtype == DT_F16 && d->dtype == DT_F32))
        return fail(v, -1, "expects dst/src element types to match, or dst=f32 and src=f16");
    bool ok_d = d->dtype == DT_F16 || d->dtype == DT_F32 || (a5(v) && d->dtype == DT_BF16);
    bool ok_s = s->dtype == DT_F16 || s->dtype == DT_F32 || (a5(v) && s->dtype == DT_BF16);
    if (!ok_d)
        return fail(v, -1, a5(v) ? "expects A5 taxpy dst element type to be f16/bf16/f32"
                                 : "expects A2/A3 taxpy dst element type to be f16/f32");
    if (!ok_s)
        return fail(v, -1, a5(v) ? "expects A5 taxpy src element type to be f16/bf16/f32"
                                 : "expects A2/A3 taxpy src element type to be f16/f32");
    return true;
}

/* ---- declared attributes ---------------------------------------------------------------- */
/* The attributes PTOAS's op declares (the row's attrs): their kind (an enum of ours, an
 * opaque #pto kind, a bool) and the summary MLIR prints when the value has another kind. */

/* `#pto<KIND ...>` or `#pto.KIND<...>` */
static bool opaque_of_kind(Str t, const char *kind)
{
    size_t n = strlen(kind);
    if (t.len > 5 + n && memcmp(t.p, "#pto<", 5) == 0 && memcmp(t.p + 5, kind, n) == 0)
        return t.p[5 + n] == ' ';
    if (t.len > 5 + n && memcmp(t.p, "#pto.", 5) == 0 && memcmp(t.p + 5, kind, n) == 0)
        return t.p[5 + n] == '<';
    return false;
}

/* MLIR checks the declared attributes before the operands and the op's verifier; PTOAS's
 * tcvt parser has renamed satmode to sat_mode by then. */
static bool attr_constraints(V *v)
{
    const OpInfo *in = op_info(v->op->kind);
    for (int i = 0; i < in->nattrs; i++) {
        const OpAttr *x = &in->attrs[i];
        const Attr *a = ir_attr_find(v->op->attrs, v->op->nattrs, x->key);
        if (!a && v->op->kind == OP_TCVT && !strcmp(x->key, "sat_mode"))
            a = ir_attr_find(v->op->attrs, v->op->nattrs, "satmode");
        if (!a)
            continue;
        const AttrValue *val = a->val;
        bool ok = x->kind == OA_ENUM     ? val->kind == AV_ENUM && (int)val->u.e.kind == x->enum_kind
                  : x->kind == OA_OPAQUE ? val->kind == AV_OPAQUE && opaque_of_kind(val->u.s, x->opaque)
                                         : val->kind == AV_BOOL;
        if (!ok)
            return fail(v, -1, "attribute '%s' failed to satisfy constraint: %s", x->key, x->summary);
    }
    return true;
}

/* The same check for the other op classes that declare attributes (verify_cube.c). */
bool verify_declared_attrs(V *v) { return attr_constraints(v); }

/* The vector ops run on the vector unit, which reads and writes vec tiles only;
 * PTOAS checks the space for some of them (in_vec) and accepts the others
 * (tadd on mat tiles): a warning there, PTOAS's message, at the first tile
 * that is not in vec, with a note at its definition. */
static bool vec_space_warning(V *v, const OpInfo *in)
{
    if (in->cls == OC_FILLPAD) /* PTOAS's tfillpad has a mat form of its own (docs/vector-ops.md) */
        return true;
    for (int r = 0; r < in->nroles; r++)
        if (!(in->flags[r] & ROLE_NUM) && v->tb[r] && v->tb[r]->loc != LOC_VEC) {
            diag_warning(v->d, v->op->name_span, "'%s' op expects %s to be in the vec address space, but it is in %s",
                         v->name ? v->name : in->name, in->role[r], enum_info[EK_LOC].names[v->tb[r]->loc]);
            if (v->val[r] != NO_VALUE)
                diag_note(v->d, v->f->values[v->val[r]].def, "%s defined here", in->role[r]);
            return true;
        }
    return true;
}

bool verify_vec_op(V *v)
{
    const OpInfo *in = op_info(v->op->kind);
    const VecOp *o = in;
    if (!attr_constraints(v))
        return false;
    /* A partition view where a tile goes passes PTOAS's operand constraint, and its verifier
     * asks for a tile_buf: the tile roles first, the tmp last */
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < in->nroles; r++) {
            const Type *t = v->ty[r];
            if ((in->flags[r] & ROLE_NUM) || (in->rid[r] == ROLE_TMP) != (pass == 1) || !t)
                continue;
            if (t->kind == TY_PART_VIEW)
                return fail(v, r, "expects %s to be a !pto.tile_buf", in->role[r]);
        }
    /* a Level 1 op without its result has nothing to check yet */
    for (int r = 0; r < in->nroles; r++)
        if (!(in->flags[r] & (ROLE_OPT | ROLE_NUM)) && !v->tb[r])
            return true;
    bool ok;
    switch (in->cls) {
    case OC_BINARY: ok = verify_binary(v, o); break;
    case OC_UNARY: ok = verify_unary(v, o); break;
    case OC_TILE_SCALAR: ok = verify_tile_scalar(v, o); break;
    case OC_EXPANDS: ok = verify_expands(v, o); break;
    case OC_ROW_REDUCE: ok = verify_row_reduce(v, o); break;
    case OC_COL_REDUCE: ok = verify_col_reduce(v, o); break;
    case OC_ROW_EXPAND: ok = verify_row_expand(v, o); break;
    case OC_COL_EXPAND: ok = verify_col_expand(v, o); break;
    case OC_CONVERT: ok = verify_cvt(v); break;
    case OC_CI: ok = verify_ci(v); break;
    case OC_CMP:
    case OC_SEL: ok = verify_cmp_sel(v, o); break;
    case OC_TERNARY: ok = verify_ternary(v); break;
    case OC_AXPY: ok = verify_axpy(v); break;
    case OC_GATHER:
    case OC_GATHER_CMP:
    case OC_GATHER_MASK:
    case OC_GATHERB:
    case OC_ROW_ARG:
    case OC_COL_ARG:
    case OC_SORT32:
    case OC_HISTOGRAM:
    case OC_CONCAT:
    case OC_SCATTER:
    case OC_FILLPAD: ok = verify_rearr_op(v); break;
    default: ok = true; break;
    }
    return ok && vec_space_warning(v, in);
}
