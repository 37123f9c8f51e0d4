/* verify_moves.c - the on-chip moves between the cube's and the vector's spaces: PTOAS's
 * rules and messages for pto.textract, pto.tinsert, pto.ttrans and pto.tget_scale_addr
 * (docs/verify.md), one function per class. pto.tmov's rules stay in verify.c. */
#include <string.h>
#include "verify_int.h"
#include "target.h"

#define fail(v, ...) verify_op_error((v), -1, __VA_ARGS__)

static bool known(int64_t x) { return x != DIM_DYNAMIC; }
static int R(const V *v, RoleId role) { return op_role(v->op->kind, role); }
static const TileBody *tb(const V *v, RoleId role) { return v->tb[R(v, role)]; }
static bool has(const V *v, RoleId role) { return R(v, role) >= 0 && v->val[R(v, role)] != NO_VALUE; }

/* MLIR's isInteger(bits): any signedness */
static bool int_w(DType d, unsigned bits)
{
    DTypeKind k = dtype_kind(d);
    return (k == DK_INT || k == DK_SINT || k == DK_UINT) && dtype_bits(d) == bits;
}
static bool is_f32(DType d) { return d == DT_F32; }
/* a builtin MLIR float type of 8 bits (FloatType::getWidth() == 8) */
static bool float8(DType d) { return dtype_kind(d) == DK_FLOAT && dtype_bits(d) == 8; }
static bool fp4_packed(DType d) { return d == DT_F4E2M1X2 || d == DT_F4E1M2X2; }
static bool f16_bf16_f32(DType d) { return d == DT_F16 || d == DT_BF16 || d == DT_F32; }

/* the blayout PTOAS's rules see for role's tile (target_rule_blayout: a left tile_buf's is the
 * arch's, whatever the text says) */
static BLayout rule_blayout(const V *v, RoleId role) { return target_rule_blayout(v->ty[R(v, role)], v->arch); }

static bool nz(const TileBody *t) { return t->blayout != BL_ROW_MAJOR && t->slayout == SL_ROW_MAJOR; }
static bool nd(const TileBody *t) { return t->blayout == BL_ROW_MAJOR && t->slayout == SL_NONE_BOX; }
static bool col_row(const TileBody *t) { return t->blayout == BL_COL_MAJOR && t->slayout == SL_ROW_MAJOR; }

/* verifyTileBufCommon: the low-precision types only where allowed, valid <= shape */
static bool tile_common(V *v, RoleId role, const char *name, bool allow_low)
{
    const TileBody *t = tb(v, role);
    if (!t)
        return true;
    if (!allow_low && dtype_is_low_precision(t->dtype))
        return fail(v, "%s: dtype %s is not supported by this op yet", name, dtype_name(t->dtype));
    if (known(t->vrow) && t->vrow > t->rows)
        return fail(v, "expects %s to satisfy valid_shape[0] <= shape[0]", name);
    if (known(t->vcol) && t->vcol > t->cols)
        return fail(v, "expects %s to satisfy valid_shape[1] <= shape[1]", name);
    return true;
}

/* The reluPreMode, accToVecMode and tinsertMode attributes as PTOAS reads them. */
typedef struct Forms {
    bool fp, pq, relu, mode, insert_mode;
    Loc src, dst;
} Forms;

static Forms forms_of(const V *v)
{
    Forms f = {0};
    bool relu_set;
    bool no_relu = opaque_attr(v->op, "reluPreMode", "no_relu", &relu_set);
    f.fp = has(v, ROLE_FP);
    f.pq = has(v, ROLE_PRE_QUANT_SCALAR);
    f.relu = relu_set && !no_relu;
    f.mode = ir_attr_find(v->op->attrs, v->op->nattrs, "accToVecMode") != NULL;
    f.insert_mode = ir_attr_find(v->op->attrs, v->op->nattrs, "tinsertMode") != NULL;
    f.src = (Loc)tb(v, ROLE_SRC)->loc;
    f.dst = (Loc)tb(v, ROLE_DST)->loc;
    return f;
}

/* verifyNonNegativeIndexRowCol and the static bounds of a window: textract bounds the
 * dst's shape in src's, tinsert src's valid shape in dst's */
static bool window_bounds(V *v, bool extract)
{
    int64_t row = 0, col = 0;
    bool rk = ir_const_int(v->f, v->val[R(v, ROLE_INDEX_ROW)], &row);
    bool ck = ir_const_int(v->f, v->val[R(v, ROLE_INDEX_COL)], &col);
    if (rk && row < 0)
        return fail(v, "expects indexRow to be non-negative");
    if (ck && col < 0)
        return fail(v, "expects indexCol to be non-negative");
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST);
    const TileBody *big = extract ? s : d;
    int64_t r = extract ? d->rows : s->vrow, c = extract ? d->cols : s->vcol;
    if (rk && known(r) && row + r > big->rows)
        return fail(v, extract ? "expects indexRow + dst.rows <= src.rows" : "expects indexRow + src.rows <= dst.rows");
    if (ck && known(c) && col + c > big->cols)
        return fail(v, extract ? "expects indexCol + dst.cols <= src.cols" : "expects indexCol + src.cols <= dst.cols");
    return true;
}

/* ---- textract -------------------------------------------------------------------------- */
static bool a3_acc_cast(DType s, DType d) { return is_f32(s) && (d == DT_F16 || d == DT_BF16); }
static bool a3_acc_quant(DType s, DType d)
{
    return is_f32(s) ? int_w(d, 8) : int_w(s, 32) && (int_w(d, 8) || d == DT_F16 || int_w(d, 16));
}
static bool a5_acc_cast(DType s, DType d) { return is_f32(s) ? f16_bf16_f32(d) : int_w(s, 32) && int_w(d, 32); }
static bool a5_acc_quant_extract(DType s, DType d)
{
    if (is_f32(s))
        return int_w(d, 8) || f16_bf16_f32(d) || float8(d);
    return int_w(s, 32) && (int_w(d, 8) || d == DT_F16 || d == DT_BF16);
}
/* isA5VectorPreQuantTypePair (tinsert's quantizing forms) */
static bool a5_acc_quant_insert(DType s, DType d)
{
    if (is_f32(s))
        return int_w(d, 8) || float8(d) || d == DT_HIF8 || f16_bf16_f32(d);
    return int_w(s, 32) && (int_w(d, 8) || d == DT_F16 || d == DT_BF16);
}

static bool extract_common(V *v, const Forms *f, bool a5)
{
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST);
    if (!tile_common(v, ROLE_SRC, "src", a5) || !tile_common(v, ROLE_DST, "dst", a5) || !window_bounds(v, true))
        return false;
    if (f->fp) {
        if (!tile_common(v, ROLE_FP, "fp", a5))
            return false;
        if (tb(v, ROLE_FP)->loc != LOC_SCALING)
            return fail(v, "expects fp to use loc=scaling");
    }
    if (f->src != LOC_ACC && s->dtype != d->dtype)
        return fail(v, "expects src and dst to have the same element type");
    return true;
}

/* the optional forms' rules both arches check first */
static bool extract_forms(V *v, const Forms *f)
{
    if (f->fp && f->pq)
        return fail(v, "expects fp and preQuantScalar to be mutually exclusive");
    if (f->fp && f->src != LOC_ACC)
        return fail(v, "expects fp form to use loc=acc src");
    if (f->pq && f->src != LOC_ACC)
        return fail(v, "expects preQuantScalar form to use loc=acc src");
    if (f->relu && f->src != LOC_ACC)
        return fail(v, "expects reluPreMode form to use loc=acc src");
    return true;
}

static bool extract_a3(V *v, const Forms *f)
{
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST);
    if (!extract_common(v, f, false))
        return false;
    DType dd = d->dtype;
    if (!(int_w(dd, 8) || f16_bf16_f32(dd)) && !(f->fp && int_w(dd, 16)))
        return fail(v, "expects A2/A3 textract element type to be i8/f16/bf16/f32");
    if (!extract_forms(v, f))
        return false;
    if (f->mode)
        return fail(v, "expects accToVecMode only on A5 acc->vec textract forms");
    if (f->src == LOC_VEC && f->dst == LOC_VEC) {
        if (f->pq || f->relu)
            return fail(v, "expects vec->vec textract to use the base form without preQuantScalar or reluPreMode");
        return true;
    }
    if (f->src == LOC_ACC) {
        if (f->dst != LOC_MAT)
            return fail(v, "expects A2/A3 acc-source textract dst to use loc=mat");
        if (!col_row(s))
            return fail(v, "expects A2/A3 acc-source textract src to use blayout=col_major and slayout=row_major");
        if (!col_row(d))
            return fail(v, "expects A2/A3 acc-source textract dst to use blayout=col_major and slayout=row_major");
        if (d->fractal != 512)
            return fail(v, "expects A2/A3 acc-source textract dst fractal size to be 512");
        if (f->fp || f->pq) {
            if (!a3_acc_quant(s->dtype, dd))
                return fail(v, "expects A2/A3 acc preQuantScalar textract element types to be (src=f32,dst=i8) or "
                               "(src=i32,dst=i8/f16/i16)");
        } else if (!a3_acc_cast(s->dtype, dd)) {
            return fail(v, "expects A2/A3 acc textract element types to be src=f32, dst=f16/bf16");
        }
        return true;
    }
    if (f->src != LOC_MAT)
        return fail(v, "expects A2/A3 textract src to use loc=mat, loc=acc, or loc=vec");
    if (f->dst != LOC_LEFT && f->dst != LOC_RIGHT)
        return fail(v, "expects A2/A3 textract dst to use loc=left, loc=right, loc=mat, or loc=vec");
    if (!(s->blayout == BL_ROW_MAJOR || s->slayout == SL_ROW_MAJOR))
        return fail(v, "expects A2/A3 textract src to use a supported mat blayout/slayout combination");
    if (f->dst == LOC_LEFT && !(rule_blayout(v, ROLE_DST) == BL_ROW_MAJOR && d->slayout == SL_ROW_MAJOR))
        return fail(v, "expects A2/A3 left dst to use row_major blayout and row_major slayout");
    if (f->dst == LOC_RIGHT && !(d->blayout == BL_ROW_MAJOR && d->slayout == SL_COL_MAJOR))
        return fail(v, "expects A2/A3 right dst to use row_major blayout and col_major slayout");
    return true;
}

static bool a5_extract_elem(DType d)
{
    return int_w(d, 8) || float8(d) || d == DT_HIF8 || fp4_packed(d) || f16_bf16_f32(d);
}

static bool extract_a5_acc(V *v, const Forms *f)
{
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST);
    if (!col_row(s))
        return fail(v, "expects A5 acc-source textract src to use blayout=col_major and slayout=row_major");
    if (f->dst == LOC_MAT && !col_row(d))
        return fail(v, "expects A5 acc-source textract dst to use blayout=col_major and slayout=row_major");
    if (f->dst != LOC_MAT && !nd(d))
        return fail(v, "expects A5 acc->vec textract dst to use ND layout (blayout=row_major, slayout=none_box)");
    if (f->fp || f->pq) {
        if (!a5_acc_quant_extract(s->dtype, d->dtype))
            return fail(v, "expects A5 acc preQuantScalar textract element types to be "
                           "(src=f32,dst=i8/fp8/f16/bf16/f32) or (src=i32,dst=i8/f16/bf16)");
    } else if (!a5_acc_cast(s->dtype, d->dtype)) {
        return fail(v, "expects A5 acc textract element types to be (src=f32,dst=f16/bf16/f32) or (src=i32,dst=i32)");
    }
    return true;
}

static bool extract_a5(V *v, const Forms *f)
{
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST);
    if (!extract_common(v, f, true))
        return false;
    if (!a5_extract_elem(d->dtype))
        return fail(v, "expects A5 textract element type to be an fp8/f16/bf16/f32 or int8 family type");
    if (!extract_forms(v, f))
        return false;
    if (f->mode && !(f->src == LOC_ACC && f->dst == LOC_VEC))
        return fail(v, "expects accToVecMode only on A5 acc->vec textract forms");
    bool ok = (f->src == LOC_MAT && (f->dst == LOC_LEFT || f->dst == LOC_RIGHT || f->dst == LOC_SCALING)) ||
              (f->src == LOC_VEC && (f->dst == LOC_MAT || f->dst == LOC_VEC)) ||
              (f->src == LOC_ACC && (f->dst == LOC_MAT || f->dst == LOC_VEC));
    if (!ok)
        return fail(v, "expects A5 textract to use a supported src/dst loc pair");
    if (f->src == LOC_MAT) {
        if (f->pq || f->relu)
            return fail(v, "expects mat-source textract to use the base form without preQuantScalar or reluPreMode");
        bool row = s->blayout == BL_ROW_MAJOR;
        bool src_ok = (row && s->slayout == SL_COL_MAJOR) || (!row && s->slayout == SL_ROW_MAJOR) ||
                      (f->dst == LOC_LEFT && row);
        if (!src_ok)
            return fail(v, "expects A5 textract src to use a supported mat blayout/slayout combination");
        if (f->dst == LOC_LEFT && !(rule_blayout(v, ROLE_DST) == BL_COL_MAJOR && d->slayout == SL_ROW_MAJOR))
            return fail(v, "expects A5 left dst to use col_major blayout and row_major slayout");
        if (f->dst == LOC_RIGHT && !(d->blayout == BL_ROW_MAJOR && d->slayout == SL_COL_MAJOR))
            return fail(v, "expects A5 right dst to use row_major blayout and col_major slayout");
    } else if (f->src == LOC_VEC && f->dst == LOC_VEC) {
        if (f->pq || f->relu)
            return fail(v, "expects vec-source textract to use the base form without preQuantScalar or reluPreMode");
        if (!nd(s) || !nd(d))
            return fail(v, "expects A5 vec->vec textract src/dst to use ND layout (blayout=row_major, "
                           "slayout=none_box)");
    } else if (f->src == LOC_ACC) {
        return extract_a5_acc(v, f);
    }
    return true;
}

static bool verify_textract(V *v)
{
    if (!tb(v, ROLE_SRC) || !tb(v, ROLE_DST))
        return true;
    Forms f = forms_of(v);
    return v->arch == ARCH_A5 ? extract_a5(v, &f) : extract_a3(v, &f);
}

/* ---- tinsert --------------------------------------------------------------------------- */
/* the optional operands' and attributes' rules (PTOAS's verifyOptionalArgs) */
static bool insert_optional(V *v, const Forms *f, bool a5)
{
    if (f->fp && f->pq)
        return fail(v, "fp and preQuantScalar are mutually exclusive");
    if (f->fp) {
        if (f->src != LOC_ACC)
            return fail(v, "fp is only valid with src loc=acc");
        if (!tile_common(v, ROLE_FP, "fp", a5))
            return false;
        if (tb(v, ROLE_FP)->loc != LOC_SCALING)
            return fail(v, "expects fp to be loc=scaling");
    }
    if (f->pq && f->src != LOC_ACC)
        return fail(v, "preQuantScalar is only valid with src loc=acc");
    if (f->relu && f->src != LOC_ACC)
        return fail(v, "reluPreMode is only valid with src loc=acc");
    if (f->mode) {
        if (!a5)
            return fail(v, "accToVecMode is only supported on A5");
        if (f->src != LOC_ACC || f->dst != LOC_VEC)
            return fail(v, "accToVecMode is only valid with src=acc, dst=vec");
    }
    if (f->insert_mode) {
        if (!a5)
            return fail(v, "tinsertMode is only supported on A5");
        if (f->src != LOC_VEC || f->dst != LOC_MAT)
            return fail(v, "tinsertMode (SPLIT2/SPLIT4) is only valid with src=vec, dst=mat");
        if (!nz(tb(v, ROLE_SRC)))
            return fail(v, "tinsertMode (SPLIT2/SPLIT4) requires src NZ layout (blayout=col_major, slayout=row_major)");
    }
    return true;
}

static bool insert_a3(V *v, const Forms *f)
{
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST);
    if (!insert_optional(v, f, false))
        return false;
    if (f->src == LOC_VEC && f->dst == LOC_VEC) {
        if (f->pq || f->relu)
            return fail(v, "expects vec->vec tinsert to use the base form without preQuantScalar or reluPreMode");
        if (s->dtype != d->dtype || !(int_w(s->dtype, 8) || f16_bf16_f32(s->dtype)))
            return fail(v, "expects A2/A3 vec->vec tinsert src/dst to have same supported dtype (i8/f16/bf16/f32)");
        return true;
    }
    if (f->src != LOC_ACC || f->dst != LOC_MAT)
        return fail(v, "expects A2/A3 tinsert to use acc->mat or vec->vec");
    if (!nz(s))
        return fail(v, "expects A2/A3 tinsert src to use blayout=col_major and slayout=row_major");
    if (!nz(d))
        return fail(v, "expects A2/A3 tinsert dst to use blayout=col_major and slayout=row_major");
    if (d->fractal != 512)
        return fail(v, "expects A2/A3 tinsert dst fractal size to be 512");
    if (f->fp || f->pq) {
        if (!a3_acc_quant(s->dtype, d->dtype))
            return fail(v, "expects A2/A3 acc fp/preQuantScalar tinsert element types to be (src=f32,dst=i8) or "
                           "(src=i32,dst=i8/f16/i16)");
    } else if (!a3_acc_cast(s->dtype, d->dtype)) {
        return fail(v, "expects A2/A3 tinsert element types to be src=f32, dst=f16/bf16");
    }
    return true;
}

/* fp8 (any 8-bit builtin float), hif8, packed fp4, i8, i32, f16, bf16, f32 */
static bool a5_vec_elem(DType d)
{
    return float8(d) || d == DT_HIF8 || fp4_packed(d) || int_w(d, 8) || int_w(d, 32) || f16_bf16_f32(d);
}

static bool insert_a5_acc(V *v, const Forms *f)
{
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST);
    if (!nz(s))
        return fail(v, "expects A5 acc->mat tinsert src to use blayout=col_major and slayout=row_major");
    if (f->dst == LOC_MAT && !nz(d))
        return fail(v, "expects A5 acc->mat tinsert dst to use blayout=col_major and slayout=row_major");
    if (f->dst == LOC_VEC && !nd(d) && !nz(d))
        return fail(v, "expects A5 acc->vec tinsert dst to use ND(row_major/none_box) or NZ(col_major/row_major) layout");
    bool quant = f->fp || f->pq;
    bool ok = quant ? a5_acc_quant_insert(s->dtype, d->dtype) : a5_acc_cast(s->dtype, d->dtype);
    if (!ok)
        return fail(v, "expects A5 acc-source tinsert element types to be (src=f32,dst=f16/bf16/f32) or "
                       "(src=i32,dst=i32)%s",
                    quant ? "; with fp/scalar: (src=f32,dst=i8/fp8/f16/bf16/f32) or (src=i32,dst=i8/f16/bf16)" : "");
    return true;
}

static bool insert_a5(V *v, const Forms *f)
{
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST);
    if (f->pq && f->src != LOC_ACC)
        return fail(v, "expects preQuantScalar form to use loc=acc src");
    if (f->relu && f->src != LOC_ACC)
        return fail(v, "expects reluPreMode form to use loc=acc src");
    if (f->mode && (f->src != LOC_ACC || f->dst != LOC_VEC))
        return fail(v, "expects accToVecMode only on A5 acc->vec tinsert forms");
    if (f->insert_mode && (f->src != LOC_VEC || f->dst != LOC_MAT))
        return fail(v, "expects tinsertMode only on A5 vec->mat tinsert forms");
    if (!insert_optional(v, f, true))
        return false;
    if (f->src == LOC_ACC && (f->dst == LOC_MAT || f->dst == LOC_VEC))
        return insert_a5_acc(v, f);
    bool same = s->dtype == d->dtype && a5_vec_elem(s->dtype);
    if (f->src == LOC_VEC && f->dst == LOC_MAT) {
        if (f->pq || f->relu)
            return fail(v, "expects vec->mat tinsert to use the base form without preQuantScalar or reluPreMode");
        if (!nz(d))
            return fail(v, "expects A5 vec->mat tinsert dst to use blayout=col_major and slayout=row_major");
        if (!nd(s) && !nz(s))
            return fail(v, "expects A5 vec->mat tinsert src to use ND(row_major/none_box) or NZ(col_major/row_major) "
                           "layout");
        if (f->insert_mode && !nz(s))
            return fail(v, "expects tinsertMode vec->mat tinsert src to use NZ(col_major/row_major) layout");
        if (!same)
            return fail(v, "expects A5 vec->mat tinsert src/dst to have same supported dtype (fp8/f16/bf16/f32/i8/i32)");
        return true;
    }
    if (f->src == LOC_VEC && f->dst == LOC_VEC) {
        if (f->pq || f->relu)
            return fail(v, "expects vec->vec tinsert to use the base form without preQuantScalar or reluPreMode");
        if (!(nd(s) && nd(d)) && !(nz(s) && nz(d)))
            return fail(v, "expects A5 vec->vec tinsert src/dst layouts to match: both ND(row_major/none_box) or both "
                           "NZ(col_major/row_major)");
        if (!same)
            return fail(v, "expects A5 vec->vec tinsert src/dst to have same supported dtype (fp8/f16/bf16/f32/i8/i32)");
        return true;
    }
    return fail(v, "expects A5 tinsert to use a supported src/dst loc pair: acc->mat, acc->vec, vec->mat, or vec->vec");
}

static bool verify_tinsert(V *v)
{
    if (!tb(v, ROLE_SRC) || !tb(v, ROLE_DST))
        return true;
    bool a5 = v->arch == ARCH_A5;
    if (!tile_common(v, ROLE_SRC, "src", a5) || !tile_common(v, ROLE_DST, "dst", a5) || !window_bounds(v, false))
        return false;
    Forms f = forms_of(v);
    return a5 ? insert_a5(v, &f) : insert_a3(v, &f);
}

/* ---- ttrans ---------------------------------------------------------------------------- */
static int64_t static_bytes(const TileBody *t) { return t->rows * t->cols * (int64_t)dtype_size(t->dtype); }

/* PTOAS's ttransUsesTmp: A2/A3 transposes through tmp when the strides allow it */
static bool trans_uses_tmp(const TileBody *s, const TileBody *d)
{
    int64_t sz = dtype_size(s->dtype);
    if (!sz)
        return true;
    int64_t row_stride = sz == 1 ? 32 : 16, per_block = 32 / sz;
    return d->cols % row_stride == 0 && s->cols % per_block == 0 && s->cols / per_block <= 255;
}

static bool verify_ttrans(V *v)
{
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST), *t = tb(v, ROLE_TMP);
    if (!s || !d)
        return true;
    bool a5 = v->arch == ARCH_A5;
    if (!tile_common(v, ROLE_SRC, "src", false) || !tile_common(v, ROLE_DST, "dst", false) ||
        (t && !tile_common(v, ROLE_TMP, "tmp", false)))
        return false;
    DType e = s->dtype;
    if (e != d->dtype || (t && t->dtype != e))
        return fail(v, a5 ? "expects src, tmp, and dst to have the same element type"
                          : "expects src and dst to have the same element type");
    if (!a5 && rule_blayout(v, ROLE_SRC) != BL_ROW_MAJOR)
        return fail(v, "expects A2/A3 transpose src to use the row_major blayout");
    unsigned sz = dtype_size(e);
    if (!sz)
        return fail(v, "failed to get transpose element size");
    if (sz != 1 && sz != 2 && sz != 4)
        return fail(v, "expects transpose element size to be 1, 2, or 4 bytes");
    bool width_ok = sz == 4 ? int_w(e, 32) || e == DT_F32 : sz == 2 ? int_w(e, 16) || e == DT_F16 || e == DT_BF16
                                                                    : int_w(e, 8);
    if (!width_ok)
        return fail(v, "expects transpose element type to match the supported set for its width");
    if (t) {
        int64_t need = !a5 && trans_uses_tmp(s, d) ? static_bytes(s) : 32, got = static_bytes(t);
        if (got < need)
            return fail(v, "expects tmp capacity to be at least %lld bytes, but got %lld bytes", (long long)need,
                        (long long)got);
    }
    if (a5) {
        const TileBody *x[2] = {s, d};
        const RoleId r[2] = {ROLE_SRC, ROLE_DST};
        for (int i = 0; i < 2; i++) {
            int64_t major = rule_blayout(v, r[i]) == BL_ROW_MAJOR ? x[i]->cols : x[i]->rows;
            if (major * (int64_t)sz % 32)
                return fail(v, "expects %s major dimension times element size to be 32-byte aligned on A5",
                            i ? "dst" : "src");
        }
    }
    return true;
}

/* ---- tget_scale_addr ------------------------------------------------------------------- */
static bool compatible(int64_t a, int64_t b) { return !known(a) || !known(b) || a == b; }
static int64_t ceil32(int64_t x) { return known(x) ? (x + 31) / 32 : x; }

static bool verify_tget_scale_addr(V *v)
{
    const TileBody *s = tb(v, ROLE_SRC), *d = tb(v, ROLE_DST);
    if (!s || !d)
        return true;
    if (v->arch != ARCH_A5)
        return fail(v, "tget_scale_addr is only supported on A5");
    if (!tile_common(v, ROLE_SRC, "src", true) || !tile_common(v, ROLE_DST, "dst", true))
        return false;
    if (s->loc != LOC_LEFT && s->loc != LOC_RIGHT)
        return fail(v, "expects src to be in the left or right address space");
    if (d->loc != LOC_SCALING)
        return fail(v, "expects dst to be in the scaling address space");
    if (s->loc == LOC_LEFT) {
        int64_t k = ceil32(s->vcol);
        if (!compatible(d->rows, s->rows) || !compatible(d->cols, k) || !compatible(d->vrow, s->vrow) ||
            !compatible(d->vcol, k))
            return fail(v, "expects dst shape/valid_shape to be [M, ceil(K/32)]");
    } else if (!compatible(d->rows, ceil32(s->vrow)) || !compatible(d->cols, s->cols) ||
               !compatible(d->vrow, ceil32(s->vrow)) || !compatible(d->vcol, s->vcol)) {
        return fail(v, "expects dst shape/valid_shape to be [ceil(K/32), N]");
    }
    return true;
}

bool verify_move_op(V *v)
{
    switch (op_info(v->op->kind)->cls) {
    case OC_EXTRACT: return verify_textract(v);
    case OC_INSERT: return verify_tinsert(v);
    case OC_TRANS: return verify_ttrans(v);
    case OC_SCALE_ADDR: return verify_tget_scale_addr(v);
    default: return true;
    }
}
