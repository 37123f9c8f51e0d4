/* verify_cube.c - the cube's compute ops (docs/verify.md 7, docs/cube.md): pto.tmatmul,
 * .acc, .bias, .mx, .mx.acc, .mx.bias and pto.tgemv, .acc, .mx, .mx.acc, .mx.bias (OC_MATMUL).
 *
 * PTOAS checks each op with a few shared rule groups (the operands' spaces and shapes, the
 * bias tile, the type triple, the MX scale tiles) in an order that differs by op and by
 * architecture; verify_matmul runs the groups in the op's order and stops at the first
 * failure. The runtime's own rules (which PTOAS lacks) follow as warnings. */
#include <stdarg.h>
#include <stdio.h>
#include "verify_int.h"
#include "target.h"

static bool known(int64_t x) { return x != DIM_DYNAMIC; }
static bool differ(int64_t a, int64_t b) { return known(a) && known(b) && a != b; }
static int64_t logical(int64_t valid, int64_t phys) { return known(valid) ? valid : phys; }

static void put_dim(char *buf, size_t n, int64_t x)
{
    if (known(x))
        snprintf(buf, n, "%lld", (long long)x);
    else
        snprintf(buf, n, "?");
}

/* MLIR's isInteger(N): any signedness */
static bool int_of(DType d, unsigned bits) { return dtype_is_int(d) && dtype_int_width(d) == bits; }

/* The op's operands by role index (-1: the op has no such role). */
typedef struct {
    V *v;
    int acc, lhs, asc, rhs, bsc, bias, dst;
    const char *acc_name; /* "acc_in" or "c_in" */
    bool gemv, a5;
} Mm;

static const TileBody *T(const Mm *m, int role) { return role >= 0 ? m->v->tb[role] : NULL; }

/* verifyTileBufCommon: a low-precision element type only where the op allows it */
static bool tile_common(Mm *m, int role, bool allow_low)
{
    const TileBody *t = T(m, role);
    if (!allow_low && dtype_is_low_precision(t->dtype))
        return verify_op_error(m->v, role, "%s: dtype %s is not supported by this op yet",
                               op_info(m->v->op->kind)->role[role], dtype_name(t->dtype));
    return true;
}

/* verifyAccTileCommon */
static bool acc_tile(Mm *m, int role, const char *name)
{
    if (!tile_common(m, role, false))
        return false;
    if (T(m, role)->loc != LOC_ACC)
        return verify_op_error(m->v, role, "expects %s to be in the acc address space", name);
    return true;
}

/* the valid m, k, n against [lo, 4095] */
static bool mkn_range(Mm *m, int64_t lo)
{
    const TileBody *a = T(m, m->lhs), *b = T(m, m->rhs);
    int64_t d[3] = {a->vrow, a->vcol, b->vcol};
    for (int i = 0; i < 3; i++)
        if (known(d[i]) && (d[i] < lo || d[i] > 4095))
            return verify_op_error(m->v, -1, "expects m, k, and n valid sizes to be in [%lld, 4095]", (long long)lo);
    return true;
}

/* the logical (valid, else physical) shapes lhs[M,K], rhs[K,N], dst[M,N] */
static bool mkn_shapes(Mm *m)
{
    const TileBody *a = T(m, m->lhs), *b = T(m, m->rhs), *d = T(m, m->dst);
    if (logical(a->vrow, a->rows) != logical(d->vrow, d->rows) || logical(b->vcol, b->cols) != logical(d->vcol, d->cols) ||
        logical(a->vcol, a->cols) != logical(b->vrow, b->rows))
        return verify_op_error(m->v, -1, "expects static matmul tile shapes lhs[M,K], rhs[K,N], and dst[M,N]");
    return true;
}

static bool spaces3(Mm *m)
{
    if (T(m, m->lhs)->loc != LOC_LEFT || T(m, m->rhs)->loc != LOC_RIGHT || T(m, m->dst)->loc != LOC_ACC)
        return verify_op_error(m->v, T(m, m->lhs)->loc != LOC_LEFT ? m->lhs : m->rhs,
                               "expects lhs, rhs, and dst to use the left, right, and acc address spaces");
    return true;
}

/* the blayout PTOAS's rules see for role's tile: a left tile_buf's is the target's, whatever
 * the text says (target_rule_blayout) */
static BLayout rule_blayout(const Mm *m, int role) { return target_rule_blayout(m->v->ty[role], m->v->arch); }

/* A5's fractal layouts: lhs NZ, rhs ZN, dst NZ */
static bool a5_layouts(Mm *m)
{
    const TileBody *a = T(m, m->lhs), *b = T(m, m->rhs), *d = T(m, m->dst);
    V *v = m->v;
    if (rule_blayout(m, m->lhs) != BL_COL_MAJOR)
        return verify_op_error(v, m->lhs, "expects lhs to use the col_major blayout on A5");
    if (rule_blayout(m, m->rhs) != BL_ROW_MAJOR)
        return verify_op_error(v, m->rhs, "expects rhs to use the row_major blayout on A5");
    if (rule_blayout(m, m->dst) != BL_COL_MAJOR)
        return verify_op_error(v, m->dst, "expects dst to use the col_major blayout on A5");
    if (a->slayout != SL_ROW_MAJOR)
        return verify_op_error(v, m->lhs, "expects lhs to use the row_major slayout on A5");
    if (b->slayout != SL_COL_MAJOR)
        return verify_op_error(v, m->rhs, "expects rhs to use the col_major slayout on A5");
    if (d->slayout != SL_ROW_MAJOR)
        return verify_op_error(v, m->dst, "expects dst to use the row_major slayout on A5");
    return true;
}

/* verifyMatTileOperands (A2/A3 part, then A5's layouts) */
static bool mat_operands(Mm *m, bool allow_low)
{
    if (!tile_common(m, m->lhs, allow_low) || !tile_common(m, m->rhs, allow_low) || !acc_tile(m, m->dst, "dst") ||
        !spaces3(m) || !mkn_shapes(m) || !mkn_range(m, 0))
        return false;
    return !m->a5 || a5_layouts(m);
}

/* the gemv rules on the valid shapes: one row, k and n agree */
static bool gemv_shapes(Mm *m)
{
    const TileBody *a = T(m, m->lhs), *b = T(m, m->rhs), *d = T(m, m->dst);
    char x[24], y[24];
    if (differ(a->vrow, 1))
        return verify_op_error(m->v, m->lhs, "expects lhs valid_shape[0] to be 1 for tgemv");
    if (differ(d->vrow, 1))
        return verify_op_error(m->v, m->dst, "expects dst valid_shape[0] to be 1 for tgemv");
    if (differ(a->vcol, b->vrow)) {
        put_dim(x, sizeof x, a->vcol);
        put_dim(y, sizeof y, b->vrow);
        return verify_op_error(m->v, m->lhs, "expects lhs valid_shape[1] to equal rhs valid_shape[0], but got %s vs %s",
                               x, y);
    }
    if (differ(b->vcol, d->vcol)) {
        put_dim(x, sizeof x, b->vcol);
        put_dim(y, sizeof y, d->vcol);
        return verify_op_error(m->v, m->rhs, "expects rhs valid_shape[1] to equal dst valid_shape[1], but got %s vs %s",
                               x, y);
    }
    return true;
}

/* verifyGemvTileOperands: A5 adds the whole matmul operand check */
static bool gemv_operands(Mm *m)
{
    if (!tile_common(m, m->lhs, false) || !tile_common(m, m->rhs, false) || !acc_tile(m, m->dst, "dst"))
        return false;
    if (T(m, m->lhs)->loc != LOC_LEFT || T(m, m->rhs)->loc != LOC_RIGHT)
        return verify_op_error(m->v, T(m, m->lhs)->loc != LOC_LEFT ? m->lhs : m->rhs,
                               "expects lhs and rhs to use the left and right address spaces");
    if (!gemv_shapes(m))
        return false;
    return !m->a5 || mat_operands(m, false);
}

/* verifyMatBiasTile */
static bool bias_tile(Mm *m, bool need_f32)
{
    const TileBody *c = T(m, m->bias), *d = T(m, m->dst);
    if (!tile_common(m, m->bias, false))
        return false;
    if (c->loc != LOC_BIAS)
        return verify_op_error(m->v, m->bias, "expects bias to be in the bias address space");
    if (c->rows != 1)
        return verify_op_error(m->v, m->bias, "expects bias to have 1 row");
    if (need_f32 && c->dtype != DT_F32)
        return verify_op_error(m->v, m->bias, "expects bias to have element type f32");
    if (!need_f32 && c->dtype != d->dtype)
        return verify_op_error(m->v, m->bias, "expects bias and dst to have the same element type");
    if (m->a5 && rule_blayout(m, m->bias) != BL_ROW_MAJOR)
        return verify_op_error(m->v, m->bias, "expects bias to use the row_major blayout on A5");
    return true;
}

/* verifyMatmulTypeTriple */
static bool type_triple(Mm *m)
{
    DType a = T(m, m->lhs)->dtype, b = T(m, m->rhs)->dtype, d = T(m, m->dst)->dtype;
    if (int_of(d, 32) && int_of(a, 8) && int_of(b, 8))
        return true;
    if (d == DT_F32 && a == b && (a == DT_F16 || a == DT_BF16 || a == DT_F32))
        return true;
    if (m->a5 && d == DT_F32 && ((dtype_is_fp8(a) && dtype_is_fp8(b)) || (a == DT_HIF8 && b == DT_HIF8)))
        return true;
    return verify_op_error(m->v, m->dst,
                           "expects (dst, lhs, rhs) element types to match one of (i32, i8, i8), (f32, f16, f16), "
                           "(f32, bf16, bf16), (f32, f32, f32)%s",
                           m->a5 ? ", (f32, fp8, fp8), or (f32, hif8, hif8)" : "");
}

/* verifyA5MxTypeTriple: fp8/fp8 (E4M3FN, E5M2) or packed fp4/fp4 into f32 */
static bool mx_triple(Mm *m)
{
    DType a = T(m, m->lhs)->dtype, b = T(m, m->rhs)->dtype;
    bool f8a = a == DT_F8E4M3FN || a == DT_F8E5M2, f8b = b == DT_F8E4M3FN || b == DT_F8E5M2;
    bool f4a = a == DT_F4E2M1X2 || a == DT_F4E1M2X2, f4b = b == DT_F4E2M1X2 || b == DT_F4E1M2X2;
    if (!(f8a && f8b) && !(f4a && f4b))
        return verify_op_error(m->v, m->lhs, "expects A5 mx lhs/rhs element types to be a supported fp8/fp8 or fp4/fp4 pair");
    if (T(m, m->dst)->dtype != DT_F32)
        return verify_op_error(m->v, m->dst, "expects A5 mx result dst to use f32 element type");
    return true;
}

/* verifyA5MxMatTileOperands: the A5 matmul rules with low precision, K in whole 64s */
static bool mx_mat_operands(Mm *m)
{
    if (!mat_operands(m, true))
        return false;
    int64_t k[2] = {T(m, m->lhs)->cols, T(m, m->rhs)->rows};
    for (int i = 0; i < 2; i++)
        if (k[i] < 1 || k[i] % 64)
            return verify_op_error(m->v, i ? m->rhs : m->lhs,
                                   "expects %s physical K shape to be a positive multiple of 64 on A5", i ? "rhs" : "lhs");
    return mkn_range(m, 1);
}

/* verifyA5MxGemvTileOperands */
static bool mx_gemv_operands(Mm *m)
{
    if (!tile_common(m, m->lhs, true) || !tile_common(m, m->rhs, true) || !acc_tile(m, m->dst, "dst") ||
        !spaces3(m) || !mkn_shapes(m) || !mkn_range(m, 1) || !gemv_shapes(m))
        return false;
    return a5_layouts(m);
}

static int64_t ceil32(int64_t k) { return known(k) ? (k + 31) / 32 : DIM_DYNAMIC; }

/* verifyA5MxMatScaleTile: a_scale [M, ceil(K/32)] row-major ZZ, b_scale [ceil(K/32), N]
 * col-major NN, fractal 32, in shape and in valid shape */
static bool mx_mat_scale(Mm *m, int role, bool left)
{
    const TileBody *s = T(m, role), *a = T(m, m->lhs), *b = T(m, m->rhs);
    const char *name = left ? "a_scale" : "b_scale";
    if (!tile_common(m, role, true))
        return false;
    if (s->loc != LOC_SCALING)
        return verify_op_error(m->v, role, "expects %s to be in the scaling address space", name);
    const char *want = left ? "[M, ceil(K/32)]" : "[ceil(K/32), N]";
    int64_t shp[2][3] = {{a->rows, a->cols, b->cols}, {a->vrow, a->vcol, b->vcol}};
    int64_t have[2][2] = {{s->rows, s->cols}, {s->vrow, s->vcol}};
    for (int i = 0; i < 2; i++) {
        int64_t sk = ceil32(shp[i][1]);
        if (differ(have[i][0], left ? shp[i][0] : sk) || differ(have[i][1], left ? sk : shp[i][2]))
            return verify_op_error(m->v, role, "expects %s %s to be %s", name, i ? "valid_shape" : "shape", want);
    }
    const char *lay = left ? "row_major" : "col_major";
    if (rule_blayout(m, role) != (left ? BL_ROW_MAJOR : BL_COL_MAJOR))
        return verify_op_error(m->v, role, "expects %s to use the %s blayout on A5", name, lay);
    if (s->slayout != (left ? SL_ROW_MAJOR : SL_COL_MAJOR))
        return verify_op_error(m->v, role, "expects %s to use the %s slayout on A5", name, lay);
    if (s->fractal != 32)
        return verify_op_error(m->v, role, "expects %s to use fractal=32 on A5", name);
    return true;
}

/* verifyA5MxGemvScaleTile: shapes only */
static bool mx_gemv_scale(Mm *m, int role, bool left)
{
    const TileBody *s = T(m, role), *a = T(m, m->lhs), *b = T(m, m->rhs);
    const char *name = left ? "a_scale" : "b_scale";
    if (!tile_common(m, role, true))
        return false;
    if (s->loc != LOC_SCALING)
        return verify_op_error(m->v, role, "expects %s to be in the scaling address space", name);
    int64_t sk = ceil32(a->vcol);
    int64_t want[4] = {left ? a->vrow : sk, left ? sk : b->cols, left ? a->vrow : sk, left ? sk : b->vcol};
    int64_t have[4] = {s->rows, s->cols, s->vrow, s->vcol};
    for (int i = 0; i < 4; i++)
        if (differ(have[i], want[i]))
            return verify_op_error(m->v, role, "expects %s shape/valid_shape to be %s", name,
                                   left ? "[M, ceil(K/32)]" : "[ceil(K/32), aligned_N]/[ceil(K/32), N]");
    return true;
}

static bool same_elem_valid(Mm *m, int role, const char *name)
{
    const TileBody *x = T(m, role), *d = T(m, m->dst);
    if (x->dtype != d->dtype)
        return verify_op_error(m->v, role, "expects %s and dst to have the same element type", name);
    if (differ(x->vrow, d->vrow) || differ(x->vcol, d->vcol))
        return verify_op_error(m->v, role, "expects %s and dst to have the same valid_shape", name);
    return true;
}

/* the MX ops (A5 only) */
static bool verify_mx(Mm *m)
{
    const char *name = op_info(m->v->op->kind)->name + 4;
    if (!m->a5)
        return verify_error(m->v, "%s is only supported on A5 targets", name);
    if (m->acc >= 0 && !acc_tile(m, m->acc, "c_in"))
        return false;
    if (!(m->gemv ? mx_gemv_operands(m) : mx_mat_operands(m)))
        return false;
    bool scales = m->gemv ? mx_gemv_scale(m, m->asc, true) && mx_gemv_scale(m, m->bsc, false)
                          : mx_mat_scale(m, m->asc, true) && mx_mat_scale(m, m->bsc, false);
    if (!scales || (m->bias >= 0 && !bias_tile(m, true)) || !mx_triple(m))
        return false;
    if (m->acc >= 0)
        return same_elem_valid(m, m->acc, "c_in");
    if (m->gemv && m->bias >= 0) {
        const TileBody *c = T(m, m->bias), *d = T(m, m->dst);
        if (c->cols != d->cols)
            return verify_op_error(m->v, m->bias, "expects bias and dst to have the same column shape");
        if (differ(c->vrow, d->vrow) || differ(c->vcol, d->vcol))
            return verify_op_error(m->v, m->bias, "expects bias and dst to have the same valid_shape");
    }
    return true;
}

/* the plain ops: PTOAS's group order per op and arch */
static bool verify_plain(Mm *m)
{
    if (m->gemv) {
        if (m->acc >= 0)
            return acc_tile(m, m->acc, "acc_in") && gemv_operands(m);
        return gemv_operands(m) && type_triple(m);
    }
    if (!m->a5) {
        if (m->acc >= 0)
            return acc_tile(m, m->acc, "acc_in") && mat_operands(m, false);
        return mat_operands(m, false) && (m->bias < 0 || bias_tile(m, false)) && type_triple(m);
    }
    return type_triple(m) && (m->acc < 0 || acc_tile(m, m->acc, "acc_in")) && mat_operands(m, true) &&
           (m->bias < 0 || bias_tile(m, false));
}

/* The runtime's own rules (docs/cube.md): warnings, after PTOAS's rules passed. */
static bool runtime_rules(Mm *m)
{
    V *v = m->v;
    const char *name = op_info(v->op->kind)->name;
    const TileBody *a = T(m, m->lhs), *b = T(m, m->rhs), *d = T(m, m->dst);
    char x[3][24];
    int64_t mkn[3] = {a->vrow, a->vcol, b->vcol};
    for (int i = 0; i < 3; i++)
        if (known(mkn[i]) && mkn[i] < 1) {
            for (int j = 0; j < 3; j++)
                put_dim(x[j], sizeof x[j], mkn[j]);
            diag_warning(v->d, v->op->name_span, "'%s' op expects m, k, and n valid sizes to be in [1, 4095], but got "
                         "m=%s, k=%s, n=%s", name, x[0], x[1], x[2]);
            return true;
        }
    DType ta = a->dtype, tb = b->dtype, td = d->dtype;
    bool i8 = (ta == DT_I8 || ta == DT_SI8) && (tb == DT_I8 || tb == DT_SI8) && int_of(td, 32) && td != DT_UI32;
    bool fp = td == DT_F32 && ta == tb && (ta == DT_F16 || ta == DT_BF16 || ta == DT_F32);
    bool f8 = td == DT_F32 && (ta == DT_F8E4M3FN || ta == DT_F8E5M2) && (tb == DT_F8E4M3FN || tb == DT_F8E5M2);
    if (m->asc < 0 && !i8 && !fp && !(f8 && m->a5)) {
        diag_warning(v->d, v->op->name_span, "'%s' op expects (dst, lhs, rhs) element types to be one of (i32, i8, i8), "
                     "(f32, f16, f16), (f32, bf16, bf16), (f32, f32, f32)%s to run", name,
                     m->a5 ? ", (f32, f8E4M3FN or f8E5M2, f8E4M3FN or f8E5M2)" : "");
        return true;
    }
    if (m->asc >= 0 && (T(m, m->asc)->dtype != DT_F8E8M0 && T(m, m->asc)->dtype != DT_F8E8M0FNU &&
                        T(m, m->asc)->dtype != DT_UI8 && T(m, m->asc)->dtype != DT_I8)) {
        diag_warning(v->d, v->op->name_span, "'%s' op expects a_scale and b_scale element types to be e8m0 "
                     "exponents (!pto.f8E8M0, f8E8M0FNU or 8-bit integers) to run", name);
        return true;
    }
    return true;
}

bool verify_matmul(V *v)
{
    OpKind k = v->op->kind;
    Mm m = {v, op_role(k, ROLE_ACC_IN), op_role(k, ROLE_LHS), op_role(k, ROLE_A_SCALE), op_role(k, ROLE_RHS),
            op_role(k, ROLE_B_SCALE), op_role(k, ROLE_BIAS), op_role(k, ROLE_DST), "acc_in", false, v->arch == ARCH_A5};
    if (m.acc < 0) {
        m.acc = op_role(k, ROLE_C_IN);
        m.acc_name = "c_in";
    }
    m.gemv = k == OP_TGEMV || k == OP_TGEMV_ACC || k == OP_TGEMV_MX || k == OP_TGEMV_MX_ACC || k == OP_TGEMV_MX_BIAS;
    if (!T(&m, m.dst)) /* a Level 1 op whose result is no tile: check_kinds reported it */
        return false;
    if (!verify_declared_attrs(v))
        return false;
    bool ok = m.asc >= 0 ? verify_mx(&m) : verify_plain(&m);
    return ok && runtime_rules(&m);
}
