/* vec_rdivs.c - tdivs with the scalar first: dst = scalar / src (pto-isa's TDIVS(dst, scalar,
 * src), the simulator's OP_RDIVS). Float dtypes as tdivs with the tile first: f32 divides in
 * binary32 with round-to-nearest-even; f16 and bf16 divide in f32 and round once, which is
 * exact for division. When both operands are NaN the result is the scalar, quieted (x86's
 * first-operand rule, which the simulator's `scalar / src` follows); a NaN element alone
 * gives that NaN, quieted. Only the valid region is read or written.
 */
#include "internal.h"

/* The float division with the dividend's NaN first: a + a quiets a NaN dividend. */
static inline float rdiv(float s, float x)
{
    return s != s ? s + s : s / x;
}

PTORT_HOT static void rdivs_f32(const uint8_t *src, uint8_t *dst, int64_t n, uint32_t sbits)
{
    float s = u2f(sbits);
    for (int64_t i = 0; i < n; i++) {
        uint32_t x;
        memcpy(&x, src + 4 * i, 4);
        uint32_t r = f2u(rdiv(s, u2f(x)));
        memcpy(dst + 4 * i, &r, 4);
    }
}

PTORT_HOT static void rdivs_f16(const uint8_t *src, uint8_t *dst, int64_t n, uint32_t sbits)
{
    float s = u2f(f16_bits_to_f32_bits((uint16_t)sbits));
    for (int64_t i = 0; i < n; i++) {
        uint16_t x;
        memcpy(&x, src + 2 * i, 2);
        uint16_t r = f32_to_f16_bits(rdiv(s, u2f(f16_bits_to_f32_bits(x))));
        memcpy(dst + 2 * i, &r, 2);
    }
}

PTORT_HOT static void rdivs_bf16(const uint8_t *src, uint8_t *dst, int64_t n, uint32_t sbits)
{
    float s = u2f((sbits & 0xFFFFu) << 16);
    for (int64_t i = 0; i < n; i++) {
        uint16_t x;
        memcpy(&x, src + 2 * i, 2);
        uint16_t r = f32_to_bf16_bits(rdiv(s, u2f((uint32_t)x << 16)));
        memcpy(dst + 2 * i, &r, 2);
    }
}

/* Integers: the quotient truncated toward zero, computed in int64 (so INT32_MIN / -1 is
 * 2^31, which wraps to INT32_MIN) and stored as its low bytes. SIGNED: the dtype's elements
 * are signed. The caller has rejected zero divisors. */
static void rdivs_int(const uint8_t *src, uint8_t *dst, int64_t n, uint32_t sbits, int size, int sign)
{
    int sh = 32 - 8 * size;
    int64_t s = sign ? (int64_t)((int32_t)(sbits << sh) >> sh) : (int64_t)((sbits << sh) >> sh);
    for (int64_t i = 0; i < n; i++) {
        uint32_t x = load_elem(src, size, i);
        int64_t y = sign ? (int64_t)((int32_t)(x << sh) >> sh) : (int64_t)x;
        store_elem(dst, size, i, y ? (uint32_t)(uint64_t)(s / y) : 0u);
    }
}

static ptort_status check(ptort_ctx *ctx, const char *role, const ptort_tile *t)
{
    if (!t)
        return ptort_fail(ctx, PTORT_E_ARG, "tdivs: %s operand is missing", role);
    ptort_status st = ptort_check_operand(ctx, "tdivs", role, t);
    if (st)
        return st;
    if (t->loc != PTORT_VEC)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "tdivs: expects %s to be in the vec address space, but got %s",
                          role, ptort_loc_name(t->loc));
    if (!tile_is_row_major(t))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "tdivs: expects %s to use row-major layout, but got %s", role,
                          ptort_layout_name(t));
    return PTORT_OK;
}

ptort_status ptort_vrdivs(ptort_ctx *ctx, uint32_t scalar, const ptort_tile *src, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = check(ctx, "src", src)) || (st = check(ctx, "dst", dst)))
        return st;
    void (*kern)(const uint8_t *, uint8_t *, int64_t, uint32_t) =
        dst->dtype == PTORT_F32 ? rdivs_f32 : dst->dtype == PTORT_F16 ? rdivs_f16
                                           : dst->dtype == PTORT_BF16 ? rdivs_bf16 : NULL;
    ptort_dtype dt = dst->dtype;
    int ints = dt == PTORT_I32 || dt == PTORT_I16 || dt == PTORT_U32 || dt == PTORT_U16;
    int ints_a5 = dt == PTORT_I8 || dt == PTORT_U8;
    if (!kern && ints_a5 && ctx->arch != PTORT_A5)
        return ptort_fail(ctx, PTORT_E_ARCH, "tdivs: element type %s of dst needs arch a5",
                          ptort_dtype_name(dt));
    if (!kern && !ints && !ints_a5)
        return ptort_fail(ctx, PTORT_E_DTYPE, "tdivs: dst element type %s is not supported",
                          ptort_dtype_name(dst->dtype));
    if (src->dtype != dst->dtype)
        return ptort_fail(ctx, PTORT_E_DTYPE,
                          "tdivs: expects src and dst to have the same element type, but got %s vs %s",
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    if (src->valid_rows != dst->valid_rows || src->valid_cols != dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "tdivs: expects src and dst to have the same valid_shape, but got [%lld, %lld] vs "
                          "[%lld, %lld]",
                          (long long)src->valid_rows, (long long)src->valid_cols, (long long)dst->valid_rows,
                          (long long)dst->valid_cols);
    int64_t es = ptort_dtype_size(dst->dtype);
    if (!kern) {
        int sign = dt == PTORT_I32 || dt == PTORT_I16 || dt == PTORT_I8;
        /* a zero divisor is C's undefined behaviour (a trap on x86): an error, before any write */
        for (int64_t r = 0; r < dst->valid_rows; r++)
            for (int64_t c = 0; c < dst->valid_cols; c++)
                if (load_elem(tile_base(ctx, src) + r * tile_row_stride(src) * es, (int)es, c) == 0)
                    return ptort_fail(ctx, PTORT_E_UB, "tdivs: division by zero (src element [%lld, %lld] is 0)",
                                      (long long)r, (long long)c);
        for (int64_t r = 0; r < dst->valid_rows; r++)
            rdivs_int(tile_base(ctx, src) + r * tile_row_stride(src) * es,
                      tile_base(ctx, dst) + r * tile_row_stride(dst) * es, dst->valid_cols, scalar, (int)es, sign);
        return PTORT_OK;
    }
    for (int64_t r = 0; r < dst->valid_rows; r++)
        kern(tile_base(ctx, src) + r * tile_row_stride(src) * es, tile_base(ctx, dst) + r * tile_row_stride(dst) * es,
             dst->valid_cols, scalar);
    return PTORT_OK;
}
