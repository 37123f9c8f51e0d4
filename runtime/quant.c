/* quant.c - tquant INT8_SYM / INT8_ASYM and tdequant (NUMERICS.md sections 2 and 3).
 *
 * Operands are checked once per op (VERIFY.md sections 2 and 4); the per-row loops are then
 * straight-line fp32 code over contiguous rows, which GCC vectorizes.
 */
#include "internal.h"

/* Reads the per-row parameter of row R: column 0 of row R, or the single value of a [1, 1]
 * tile (NUMERICS.md 2: one value for all rows). */
static float param_at(ptort_ctx *ctx, const ptort_tile *p, const Layout *l, int64_t r)
{
    if (p->valid_rows == 1)
        r = 0;
    uint32_t v;
    memcpy(&v, tile_base(ctx, p) + (layout_row_off(l, r) + layout_col_off(l, 0)) * 4, 4);
    return u2f(v);
}

/* clamp(rint(v), lo, hi) for lo, hi integers with |lo|, |hi| < 2^22: clamping first is the
 * same because rint is monotonic; adding 1.5 * 2^23 makes the FPU round to an integer with
 * ties to even, and the low bits of the sum are that integer. NaN gives 0. */
static inline int32_t round_clamp(float v, float lo, float hi)
{
    v = v == v ? v : 0.0f;
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    return (int32_t)(f2u(v + 12582912.0f) - 0x4B400000u);
}

PTORT_HOT
static void quant_sym_row(const uint32_t *x, int8_t *q, int64_t n, float s)
{
    for (int64_t c = 0; c < n; c++)
        q[c] = (int8_t)round_clamp(u2f(x[c]) * s, -128.0f, 127.0f);
}

PTORT_HOT
static void quant_asym_row(const uint32_t *x, uint8_t *q, int64_t n, float s, float z)
{
    for (int64_t c = 0; c < n; c++) {
        float v = u2f(x[c]) * s;
        q[c] = (uint8_t)round_clamp(v + z, 0.0f, 255.0f);
    }
}

static ptort_status check_vec(ptort_ctx *ctx, const char *op, const char *role,
                              const ptort_tile *t)
{
    if (t->loc != PTORT_VEC)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects %s to be in the vec address space, but got %s",
                          op, role, ptort_loc_name(t->loc));
    return PTORT_OK;
}

static ptort_status check_f32(ptort_ctx *ctx, const char *op, const char *role,
                              const ptort_tile *t)
{
    if (t->dtype != PTORT_F32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects %s to have element type f32, but got %s",
                          op, role, ptort_dtype_name(t->dtype));
    return PTORT_OK;
}

ptort_status ptort_tquant_int8(ptort_ctx *ctx, ptort_quant_type qt, const ptort_tile *src,
                               const ptort_tile *scale, const ptort_tile *offset,
                               const ptort_tile *dst, const ptort_tile *tmp)
{
    static const char op[] = "tquant";
    if (!ctx)
        return PTORT_E_ARG;
    if (qt == PTORT_INT8_SYM && offset)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: INT8_SYM quantization must not have an offset operand", op);
    if (qt == PTORT_INT8_ASYM && !offset)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: INT8_ASYM quantization requires an offset operand", op);
    if (qt != PTORT_INT8_SYM && qt != PTORT_INT8_ASYM)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: quant_type %d does not match the operands", op, (int)qt);
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) ||
        (st = ptort_check_operand(ctx, op, "scale", scale)) ||
        (offset && (st = ptort_check_operand(ctx, op, "offset", offset))) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)) ||
        (tmp && (st = ptort_check_operand(ctx, op, "tmp", tmp))))
        return st;
    if ((st = check_f32(ctx, op, "src", src)) || (st = check_f32(ctx, op, "scale", scale)) ||
        (offset && (st = check_f32(ctx, op, "offset", offset))) ||
        (tmp && (st = check_f32(ctx, op, "tmp", tmp))))
        return st;
    if (qt == PTORT_INT8_SYM && dst->dtype != PTORT_I8)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects dst element type i8 for INT8_SYM quantization, but got %s",
                          op, ptort_dtype_name(dst->dtype));
    if (qt == PTORT_INT8_ASYM && dst->dtype != PTORT_U8)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects dst element type ui8 for INT8_ASYM quantization, but got %s",
                          op, ptort_dtype_name(dst->dtype));
    if ((st = check_vec(ctx, op, "src", src)) || (st = check_vec(ctx, op, "scale", scale)) ||
        (offset && (st = check_vec(ctx, op, "offset", offset))) ||
        (st = check_vec(ctx, op, "dst", dst)) || (tmp && (st = check_vec(ctx, op, "tmp", tmp))))
        return st;
    if (!tile_is_row_major(src) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects src and dst to use row-major layout", op);
    if (tmp && !tile_is_row_major(tmp))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects tmp to use row-major layout", op);
    if (src->valid_rows != dst->valid_rows || src->valid_cols != dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects src and dst to have the same valid_shape, but got [%lld, %lld] vs [%lld, %lld]",
                          op, (long long)src->valid_rows, (long long)src->valid_cols,
                          (long long)dst->valid_rows, (long long)dst->valid_cols);
    const ptort_tile *params[2] = {scale, offset};
    static const char *const pnames[2] = {"scale", "offset"};
    for (int i = 0; i < 2; i++) {
        const ptort_tile *p = params[i];
        if (!p)
            continue;
        int ok = p->valid_cols == 1 && (p->valid_rows == dst->valid_rows || p->valid_rows == 1);
        if (!ok)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects %s valid_shape to be [R, 1] or [1, 1], but got [%lld, %lld]",
                              op, pnames[i], (long long)p->valid_rows, (long long)p->valid_cols);
        if (ctx->arch != PTORT_A5 && tile_is_row_major(p))
            return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects A2/A3 %s to use non-row-major layout",
                              op, pnames[i]);
    }
    if (tmp && ctx->arch != PTORT_A5 && (tmp->rows != src->rows || tmp->cols != src->cols))
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects A2/A3 tmp to have the same shape as src", op);

    Layout ls, lo;
    layout_of(scale, &ls);
    if (offset)
        layout_of(offset, &lo);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int64_t sst = tile_row_stride(src) * 4, dstr = tile_row_stride(dst);
    for (int64_t r = 0; r < dst->valid_rows; r++) {
        const uint32_t *x = (const uint32_t *)(const void *)(sb + r * sst);
        float s = param_at(ctx, scale, &ls, r);
        if (qt == PTORT_INT8_SYM)
            quant_sym_row(x, (int8_t *)(db + r * dstr), dst->valid_cols, s);
        else
            quant_asym_row(x, db + r * dstr, dst->valid_cols, s, param_at(ctx, offset, &lo, r));
    }
    return PTORT_OK;
}

PTORT_HOT
static void dequant_i8_row(const int8_t *q, uint32_t *y, int64_t n, float s, float z)
{
    for (int64_t c = 0; c < n; c++) {
        float v = (float)q[c] - z;
        y[c] = f2u(v * s);
    }
}

PTORT_HOT
static void dequant_i16_row(const int16_t *q, uint32_t *y, int64_t n, float s, float z)
{
    for (int64_t c = 0; c < n; c++) {
        float v = (float)q[c] - z;
        y[c] = f2u(v * s);
    }
}

static int same_type(const ptort_tile *a, const ptort_tile *b)
{
    return a->loc == b->loc && a->dtype == b->dtype && a->rows == b->rows &&
           a->cols == b->cols && a->valid_rows == b->valid_rows &&
           a->valid_cols == b->valid_cols && a->blayout == b->blayout &&
           a->slayout == b->slayout && a->fractal == b->fractal && a->pad == b->pad &&
           a->compact == b->compact;
}

ptort_status ptort_tdequant(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *scale,
                            const ptort_tile *offset, const ptort_tile *dst)
{
    static const char op[] = "tdequant";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) ||
        (st = ptort_check_operand(ctx, op, "scale", scale)) ||
        (st = ptort_check_operand(ctx, op, "offset", offset)) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if (src->dtype != PTORT_I8 && src->dtype != PTORT_I16)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src element type i8 or i16, but got %s",
                          op, ptort_dtype_name(src->dtype));
    if (dst->dtype != PTORT_F32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects dst element type f32, but got %s",
                          op, ptort_dtype_name(dst->dtype));
    if (scale->dtype != PTORT_F32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects scale element type f32, but got %s",
                          op, ptort_dtype_name(scale->dtype));
    if (offset->dtype != PTORT_F32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects offset element type f32, but got %s",
                          op, ptort_dtype_name(offset->dtype));
    if (!same_type(scale, offset))
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects scale and offset to have the same type", op);
    if (src->valid_rows != dst->valid_rows || src->valid_cols != dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects src and dst to have the same valid_shape, but got [%lld, %lld] vs [%lld, %lld]",
                          op, (long long)src->valid_rows, (long long)src->valid_cols,
                          (long long)dst->valid_rows, (long long)dst->valid_cols);
    if (scale->valid_rows != dst->valid_rows || scale->valid_cols < 1)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects scale valid_shape[0] to equal dst valid_shape[0], but got %lld vs %lld",
                          op, (long long)scale->valid_rows, (long long)dst->valid_rows);
    if (!tile_is_row_major(src) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects src and dst to use row-major layout", op);
    if ((st = check_vec(ctx, op, "src", src)) || (st = check_vec(ctx, op, "scale", scale)) ||
        (st = check_vec(ctx, op, "offset", offset)) || (st = check_vec(ctx, op, "dst", dst)))
        return st;

    Layout ls, lo;
    layout_of(scale, &ls);
    layout_of(offset, &lo);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int esz = ptort_dtype_size(src->dtype);
    int64_t sst = tile_row_stride(src) * esz, dst_st = tile_row_stride(dst) * 4;
    for (int64_t r = 0; r < dst->valid_rows; r++) {
        /* The scale is read at column 0 of row r (NUMERICS.md 3), through its layout. */
        float s = param_at(ctx, scale, &ls, r), z = param_at(ctx, offset, &lo, r);
        uint32_t *y = (uint32_t *)(void *)(db + r * dst_st);
        if (esz == 1)
            dequant_i8_row((const int8_t *)(sb + r * sst), y, dst->valid_cols, s, z);
        else
            dequant_i16_row((const int16_t *)(const void *)(sb + r * sst), y, dst->valid_cols, s, z);
    }
    return PTORT_OK;
}
