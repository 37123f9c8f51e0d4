/* gemv.c - tgemv.bias (docs/numerics.md section 4).
 *
 * For each output column j the sum is one fmaf chain over k in order, so the loop runs over
 * k outside and j inside: row k of rhs is widened to fp32 once, then every accumulator
 * takes one fused multiply-add. The chain per j is unchanged, and the inner loop vectorizes.
 * fmaf must be a real fused operation: on x86-64 a copy of the loop compiled for FMA
 * hardware is picked at run time, else the libm fmaf (correct, slower) is used.
 */
#include <math.h>

#include "internal.h"

/* acc + bias as docs/numerics.md section 4 writes it, NaN payloads included: the C expression
 * `acc + bias` on x86 SSE returns its first operand's NaN (quieted) when both
 * are NaN, the NaN operand's (quieted) when one is. A plain `+` leaves the
 * operand order to the compiler (it is commutative for numbers), and the
 * vectorized loop gave the bias's NaN, so the choice is made here. */
static inline uint32_t add_nan_first(uint32_t acc, uint32_t bias)
{
    if ((acc & 0x7fffffffu) > 0x7f800000u)
        return acc | 0x00400000u;
    if ((bias & 0x7fffffffu) > 0x7f800000u)
        return bias | 0x00400000u;
    return f2u(u2f(acc) + u2f(bias));
}

/* Widens columns [0, n) of row R of tile T to fp32 (or int32 for i8) patterns in OUT. */
PTORT_HOT
static void widen_tile_row(ptort_ctx *ctx, const ptort_tile *t, const Layout *l,
                           const int64_t *col, int64_t r, int64_t n, uint32_t *out)
{
    const uint8_t *p = tile_base(ctx, t);
    int64_t ro = layout_row_off(l, r);
    int contiguous = l->kind == LAY_ROW || l->kind == LAY_FLAT;
    switch (t->dtype) {
    case PTORT_F32:
    case PTORT_I32: {
        const uint32_t *q = (const uint32_t *)(const void *)p + ro;
        if (contiguous)
            memcpy(out, q, (size_t)n * 4);
        else
            for (int64_t j = 0; j < n; j++)
                out[j] = q[col[j]];
        break;
    }
    case PTORT_F16: {
        const uint16_t *q = (const uint16_t *)(const void *)p + ro;
        if (contiguous)
            for (int64_t j = 0; j < n; j++)
                out[j] = f16_bits_to_f32_bits(q[j]);
        else
            for (int64_t j = 0; j < n; j++)
                out[j] = f16_bits_to_f32_bits(q[col[j]]);
        break;
    }
    case PTORT_BF16: {
        const uint16_t *q = (const uint16_t *)(const void *)p + ro;
        if (contiguous)
            for (int64_t j = 0; j < n; j++)
                out[j] = (uint32_t)q[j] << 16;
        else
            for (int64_t j = 0; j < n; j++)
                out[j] = (uint32_t)q[col[j]] << 16;
        break;
    }
    case PTORT_I8: {
        const int8_t *q = (const int8_t *)p + ro;
        for (int64_t j = 0; j < n; j++)
            out[j] = (uint32_t)(int32_t)q[contiguous ? j : col[j]];
        break;
    }
    default:                                     /* check_gemv admits no other type */
        break;
    }
}

PTORT_VECTORIZE
static void fma_row_libm(float *acc, const uint32_t *b, float a, int64_t n)
{
    for (int64_t j = 0; j < n; j++)
        acc[j] = fmaf(a, u2f(b[j]), acc[j]);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define PTORT_HAVE_FMA_CLONE 1
#include <immintrin.h>

__attribute__((target("avx2,fma"))) PTORT_VECTORIZE
static void fma_row_hw(float *acc, const uint32_t *b, float a, int64_t n)
{
    for (int64_t j = 0; j < n; j++)
        acc[j] = __builtin_fmaf(a, u2f(b[j]), acc[j]);
}

/* The whole product for a rhs with contiguous rows (row-major none_box): for each block of
 * 64 columns, 8 accumulators stay in registers while k runs over the rows in order, so each
 * column still gets its own fmaf chain over k = 0 .. K-1 (docs/numerics.md 4). Row elements are
 * widened on the fly (vcvtph2ps for f16 is exact; it only quiets a signalling NaN, which the
 * fused multiply-add would quiet anyway). */
#define GEMV_HW(NAME, T, LOAD8, WIDEN1)                                                      \
    __attribute__((target("avx2,fma,f16c")))                                                 \
    static void NAME(const uint8_t *base, int64_t stride, const float *a, int64_t k,          \
                     int64_t n, float *out)                                                   \
    {                                                                                         \
        int64_t j = 0;                                                                        \
        for (; j + 64 <= n; j += 64) {                                                        \
            __m256 c0 = _mm256_setzero_ps(), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0,     \
                   c6 = c0, c7 = c0;                                                          \
            for (int64_t kk = 0; kk < k; kk++) {                                              \
                const T *p = (const T *)(const void *)(base + kk * stride) + j;               \
                __m256 av = _mm256_set1_ps(a[kk]);                                            \
                c0 = _mm256_fmadd_ps(av, LOAD8(p), c0);                                       \
                c1 = _mm256_fmadd_ps(av, LOAD8(p + 8), c1);                                   \
                c2 = _mm256_fmadd_ps(av, LOAD8(p + 16), c2);                                  \
                c3 = _mm256_fmadd_ps(av, LOAD8(p + 24), c3);                                  \
                c4 = _mm256_fmadd_ps(av, LOAD8(p + 32), c4);                                  \
                c5 = _mm256_fmadd_ps(av, LOAD8(p + 40), c5);                                  \
                c6 = _mm256_fmadd_ps(av, LOAD8(p + 48), c6);                                  \
                c7 = _mm256_fmadd_ps(av, LOAD8(p + 56), c7);                                  \
            }                                                                                 \
            _mm256_storeu_ps(out + j, c0);                                                    \
            _mm256_storeu_ps(out + j + 8, c1);                                                \
            _mm256_storeu_ps(out + j + 16, c2);                                               \
            _mm256_storeu_ps(out + j + 24, c3);                                               \
            _mm256_storeu_ps(out + j + 32, c4);                                               \
            _mm256_storeu_ps(out + j + 40, c5);                                               \
            _mm256_storeu_ps(out + j + 48, c6);                                               \
            _mm256_storeu_ps(out + j + 56, c7);                                               \
        }                                                                                     \
        for (; j + 8 <= n; j += 8) {                                                          \
            __m256 c0 = _mm256_setzero_ps();                                                  \
            for (int64_t kk = 0; kk < k; kk++) {                                              \
                const T *p = (const T *)(const void *)(base + kk * stride) + j;               \
                c0 = _mm256_fmadd_ps(_mm256_set1_ps(a[kk]), LOAD8(p), c0);                    \
            }                                                                                 \
            _mm256_storeu_ps(out + j, c0);                                                    \
        }                                                                                     \
        for (; j < n; j++) {                                                                  \
            float c = 0.0f;                                                                   \
            for (int64_t kk = 0; kk < k; kk++) {                                              \
                const T *p = (const T *)(const void *)(base + kk * stride) + j;               \
                c = __builtin_fmaf(a[kk], u2f(WIDEN1(*p)), c);                                \
            }                                                                                 \
            out[j] = c;                                                                       \
        }                                                                                     \
    }

#define LOAD8_F16(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define LOAD8_BF16(p) \
    _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p))), 16))
#define LOAD8_F32(p) _mm256_loadu_ps((const float *)(const void *)(p))
#define WIDEN_BF16(h) ((uint32_t)(h) << 16)
#define WIDEN_F32(u) (u)

GEMV_HW(gemv_f16_hw, uint16_t, LOAD8_F16, f16_bits_to_f32_bits)
GEMV_HW(gemv_bf16_hw, uint16_t, LOAD8_BF16, WIDEN_BF16)
GEMV_HW(gemv_f32_hw, uint32_t, LOAD8_F32, WIDEN_F32)
#endif

PTORT_HOT
static void mac_row_i32(uint32_t *acc, const uint32_t *b, uint32_t a, int64_t n)
{
    /* Unsigned arithmetic: wrap-around modulo 2^32 is the defined result (docs/numerics.md 4). */
    for (int64_t j = 0; j < n; j++)
        acc[j] += a * b[j];
}

static ptort_status check_loc(ptort_ctx *ctx, const ptort_tile *t, ptort_loc want,
                              const char *msg)
{
    if (t->loc != want)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "tgemv.bias: %s", msg);
    return PTORT_OK;
}

static ptort_status check_gemv(ptort_ctx *ctx, const ptort_tile *lhs, const ptort_tile *rhs,
                               const ptort_tile *bias, const ptort_tile *dst)
{
    static const char op[] = "tgemv.bias";
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "lhs", lhs)) ||
        (st = ptort_check_operand(ctx, op, "rhs", rhs)) ||
        (st = ptort_check_operand(ctx, op, "bias", bias)) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if ((st = check_loc(ctx, dst, PTORT_ACC, "expects dst to be in the acc address space")))
        return st;
    if (lhs->loc != PTORT_LEFT || rhs->loc != PTORT_RIGHT)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects lhs and rhs to use the left and right address spaces", op);
    if ((st = check_loc(ctx, bias, PTORT_BIAS, "expects bias to be in the bias address space")))
        return st;
    if (lhs->valid_rows != 1)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects lhs valid_shape[0] to be 1 for tgemv", op);
    if (dst->valid_rows != 1)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects dst valid_shape[0] to be 1 for tgemv", op);
    if (lhs->valid_cols != rhs->valid_rows)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects lhs valid_shape[1] to equal rhs valid_shape[0], but got %lld vs %lld",
                          op, (long long)lhs->valid_cols, (long long)rhs->valid_rows);
    if (rhs->valid_cols != dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects rhs valid_shape[1] to equal dst valid_shape[1], but got %lld vs %lld",
                          op, (long long)rhs->valid_cols, (long long)dst->valid_cols);
    if (lhs->cols != rhs->rows)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects lhs cols to equal rhs rows, but got %lld vs %lld",
                          op, (long long)lhs->cols, (long long)rhs->rows);
    if (rhs->cols != dst->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects rhs cols to equal dst cols, but got %lld vs %lld",
                          op, (long long)rhs->cols, (long long)dst->cols);
    int64_t k = lhs->valid_cols, n = rhs->valid_cols;
    if (k < 1 || k > 4095 || n < 1 || n > 4095)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects k and n valid sizes to be in [1, 4095], but got k=%lld, n=%lld",
                          op, (long long)k, (long long)n);
    ptort_dtype a = lhs->dtype, b = rhs->dtype, c = dst->dtype;
    /* no low-precision row on any architecture: PTOAS rejects fp8 and hif8 operands of
     * tgemv.bias on A5 as on A2/A3 (docs/numerics.md 4) */
    int ok = a == b && ((c == PTORT_I32 && a == PTORT_I8) ||
                        (c == PTORT_F32 && (a == PTORT_F16 || a == PTORT_BF16 || a == PTORT_F32)));
    if (!ok)
        return ptort_fail(ctx, PTORT_E_DTYPE,
                          "%s: expects (dst, lhs, rhs) element types to match one of (i32, i8, i8), (f32, f16, f16), (f32, bf16, bf16), (f32, f32, f32), but got (%s, %s, %s)",
                          op, ptort_dtype_name(c), ptort_dtype_name(a), ptort_dtype_name(b));
    if (bias->dtype != dst->dtype)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects bias and dst to have the same element type", op);
    if (bias->rows != 1)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects bias to have 1 row", op);
    if (bias->valid_cols != dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects bias valid_shape[1] to equal dst valid_shape[1], but got %lld vs %lld",
                          op, (long long)bias->valid_cols, (long long)dst->valid_cols);
    if (ctx->arch == PTORT_A5) {
        static const char *const msgs[] = {
            "expects lhs to use the col_major blayout on A5", "expects rhs to use the row_major blayout on A5",
            "expects dst to use the col_major blayout on A5", "expects lhs to use the row_major slayout on A5",
            "expects rhs to use the col_major slayout on A5", "expects dst to use the row_major slayout on A5",
            "expects bias to use the row_major blayout on A5"};
        int bad[] = {lhs->blayout != PTORT_BL_COL_MAJOR, rhs->blayout != PTORT_BL_ROW_MAJOR,
                     dst->blayout != PTORT_BL_COL_MAJOR, lhs->slayout != PTORT_SL_ROW_MAJOR,
                     rhs->slayout != PTORT_SL_COL_MAJOR, dst->slayout != PTORT_SL_ROW_MAJOR,
                     bias->blayout != PTORT_BL_ROW_MAJOR};
        for (int i = 0; i < 7; i++)
            if (bad[i])
                return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: %s", op, msgs[i]);
    }
    return PTORT_OK;
}

ptort_status ptort_tgemv_bias(ptort_ctx *ctx, const ptort_tile *lhs, const ptort_tile *rhs,
                              const ptort_tile *bias, const ptort_tile *dst,
                              ptort_acc_phase phase)
{
    if (!ctx)
        return PTORT_E_ARG;
    if ((unsigned)phase > PTORT_ACC_FINAL)
        return ptort_fail(ctx, PTORT_E_ARG, "tgemv.bias: unknown accPhase %d", (int)phase);
    ptort_status st = check_gemv(ctx, lhs, rhs, bias, dst);
    if (st)
        return st;
    int64_t k = lhs->valid_cols, n = rhs->valid_cols;
    size_t need = (size_t)(k + n + 16) * 8 * 2 + (size_t)(k + 3 * n + 64) * 4;
    uint8_t *mem = ptort_scratch(ctx, need);
    if (!mem)
        return PTORT_E_NOMEM;
    int64_t *lcol = (int64_t *)(void *)mem;          /* k + 8 entries */
    int64_t *rcol = lcol + k + 8;                     /* n + 8 entries, reused for bias/dst */
    uint32_t *a = (uint32_t *)(rcol + n + 8);         /* k */
    uint32_t *brow = a + k + 16;                      /* n */
    uint32_t *acc = brow + n + 16;                    /* n */
    uint32_t *bb = acc + n + 16;                      /* n */

    Layout ll, lr, lb, ld;
    layout_of(lhs, &ll);
    layout_of(rhs, &lr);
    layout_of(bias, &lb);
    layout_of(dst, &ld);
    layout_col_table(lhs, k, lcol);
    widen_tile_row(ctx, lhs, &ll, lcol, 0, k, a);
    layout_col_table(rhs, n, rcol);
    memset(acc, 0, (size_t)n * 4);
    int is_int = dst->dtype == PTORT_I32;
    void (*fma_row)(float *, const uint32_t *, float, int64_t) = fma_row_libm;
#ifdef PTORT_HAVE_FMA_CLONE
    if (ptort_cpu_fma())
        fma_row = fma_row_hw;
#endif
    int fused = 0;
#ifdef PTORT_HAVE_FMA_CLONE
    /* Fast path: row-major none_box rhs of f16 / bf16 / f32 on AVX2 + FMA + F16C hardware. */
    if (!is_int && lr.kind == LAY_ROW && ptort_use_avx2()) {
        const uint8_t *rb = tile_base(ctx, rhs);
        int64_t rst = tile_row_stride(rhs) * ptort_dtype_size(rhs->dtype);
        const float *af = (const float *)(const void *)a;
        float *accw = (float *)(void *)acc;
        fused = 1;
        switch (rhs->dtype) {
        case PTORT_F16: gemv_f16_hw(rb, rst, af, k, n, accw); break;
        case PTORT_BF16: gemv_bf16_hw(rb, rst, af, k, n, accw); break;
        case PTORT_F32: gemv_f32_hw(rb, rst, af, k, n, accw); break;
        default: fused = 0; break;
        }
    }
#endif
    /* a5's rhs layout: f16 in ZN 16 x 16 boxes, transposed box by box (AVX-512) */
    if (!is_int && !fused && lr.kind == LAY_ZN && lr.ir == 16 && lr.ic == 16 &&
        rhs->dtype == PTORT_F16 && k % 16 == 0 && n % 16 == 0)
        fused = ptort_vecz_gemv_zn16(tile_base(ctx, rhs), lr.pc * lr.ir * 2,
                                     (const float *)(const void *)a, k, n, (float *)(void *)acc);
    for (int64_t kk = 0; kk < k && !fused; kk++) {
        widen_tile_row(ctx, rhs, &lr, rcol, kk, n, brow);
        if (is_int)
            mac_row_i32(acc, brow, a[kk], n);
        else
            fma_row((float *)(void *)acc, brow, u2f(a[kk]), n);
    }
    layout_col_table(bias, n, rcol);
    widen_tile_row(ctx, bias, &lb, rcol, 0, n, bb);
    layout_col_table(dst, n, rcol);
    uint8_t *out = tile_base(ctx, dst) + layout_row_off(&ld, 0) * 4;
    const float *accf = (const float *)(const void *)acc;
    for (int64_t j = 0; j < n; j++) {
        uint32_t v = is_int ? acc[j] + bb[j] : add_nan_first(f2u(accf[j]), bb[j]);
        memcpy(out + rcol[j] * 4, &v, 4);
    }
    return PTORT_OK;
}
