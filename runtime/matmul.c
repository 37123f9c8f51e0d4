/* matmul.c - the cube's products: tmatmul, .acc, .bias, .mx, .mx.acc, .mx.bias and tgemv,
 * .acc, .mx, .mx.acc, .mx.bias (docs/cube.md; tgemv.bias keeps gemv.c).
 *
 * The contract (docs/cube.md 3) fixes every rounding: each output element is one chain over
 * k in order, so the kernels vectorize across output columns (and block rows), never across
 * k. Operands are first widened out of their layouts into row-major fp32 (int32 for i8)
 * scratch arrays, the chains run there, and the epilogue adds acc_in or bias and writes dst
 * through its layout. The fp32 kernels exist three times -- AVX-512, AVX2 and portable
 * (libm fmaf) -- and give the same bits: a fused multiply-add has one correctly rounded
 * result, and NaN payloads, the one thing the instruction forms disagree on, are replaced
 * by the default NaN at the end.
 */
#include <math.h>
#include <stdio.h>

#include "internal.h"

#define MM_QNAN 0x7FC00000u

/* The operands of one call, with the sizes the checks derived. */
typedef struct {
    const ptort_tile *acc, *lhs, *asc, *rhs, *bsc, *bias, *dst;
    int gemv, mx;
    char name[24];
    int64_t m, k, n;
} Mm;

static void mm_name(Mm *o)
{
    snprintf(o->name, sizeof o->name, "%s%s%s", o->gemv ? "tgemv" : "tmatmul", o->mx ? ".mx" : "",
             o->acc ? ".acc" : o->bias ? ".bias" : "");
}

/* ---- checks ------------------------------------------------------------------------------- */

static ptort_status check_locs(ptort_ctx *ctx, const Mm *o)
{
    const ptort_tile *t[7] = {o->lhs, o->rhs, o->dst, o->acc, o->bias, o->asc, o->bsc};
    static const char *const role[7] = {"lhs", "rhs", "dst", "acc_in", "bias", "a_scale", "b_scale"};
    static const ptort_loc want[7] = {PTORT_LEFT, PTORT_RIGHT, PTORT_ACC, PTORT_ACC, PTORT_BIAS, PTORT_SCALING,
                                      PTORT_SCALING};
    ptort_status st;
    for (int i = 0; i < 7; i++) {
        if (!t[i])
            continue;
        if ((st = ptort_check_operand(ctx, o->name, role[i], t[i])))
            return st;
        if (t[i]->loc != want[i])
            return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects %s to be in the %s address space", o->name, role[i],
                              ptort_loc_name(want[i]));
    }
    return PTORT_OK;
}

/* R x C of a tile must lie inside its physical shape */
static ptort_status fits(ptort_ctx *ctx, const Mm *o, const char *role, const ptort_tile *t, int64_t r, int64_t c)
{
    if (r > t->rows || c > t->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects %s (%lld x %lld) to hold %lld x %lld elements", o->name, role,
                          (long long)t->rows, (long long)t->cols, (long long)r, (long long)c);
    return PTORT_OK;
}

static ptort_status check_shapes(ptort_ctx *ctx, Mm *o)
{
    o->m = o->lhs->valid_rows;
    o->k = o->lhs->valid_cols;
    o->n = o->rhs->valid_cols;
    if (o->m < 1 || o->m > 4095 || o->k < 1 || o->k > 4095 || o->n < 1 || o->n > 4095)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects m, k, and n valid sizes to be in [1, 4095], but got m=%lld, k=%lld, n=%lld",
                          o->name, (long long)o->m, (long long)o->k, (long long)o->n);
    if (o->gemv && o->m != 1)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects lhs valid_shape[0] to be 1 for tgemv", o->name);
    int64_t g = (o->k + 31) / 32;
    ptort_status st;
    if ((st = fits(ctx, o, "rhs", o->rhs, o->k, o->n)) || (st = fits(ctx, o, "dst", o->dst, o->m, o->n)) ||
        (o->acc && (st = fits(ctx, o, "acc_in", o->acc, o->m, o->n))) ||
        (o->bias && (st = fits(ctx, o, "bias", o->bias, 1, o->n))) ||
        (o->asc && (st = fits(ctx, o, "a_scale", o->asc, o->m, g))) ||
        (o->bsc && (st = fits(ctx, o, "b_scale", o->bsc, g, o->n))))
        return st;
    return PTORT_OK;
}

static int is_fp8(ptort_dtype d) { return d == PTORT_F8E4M3FN || d == PTORT_F8E5M2; }

static ptort_status check_dtypes(ptort_ctx *ctx, const Mm *o)
{
    ptort_dtype a = o->lhs->dtype, b = o->rhs->dtype, c = o->dst->dtype;
    if (o->mx) {
        if (ctx->arch != PTORT_A5)
            return ptort_fail(ctx, PTORT_E_ARCH, "%s: is only supported on A5 targets", o->name);
        if (!is_fp8(a) || !is_fp8(b) || c != PTORT_F32)
            return ptort_fail(ctx, PTORT_E_DTYPE,
                              "%s: expects (dst, lhs, rhs) element types to be (f32, fp8, fp8), but got (%s, %s, %s)",
                              o->name, ptort_dtype_name(c), ptort_dtype_name(a), ptort_dtype_name(b));
        const ptort_tile *s[2] = {o->asc, o->bsc};
        for (int i = 0; i < 2; i++)
            if (s[i]->dtype != PTORT_F8E8M0FNU && s[i]->dtype != PTORT_U8 && s[i]->dtype != PTORT_I8)
                return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects %s to hold e8m0 exponents, but got %s", o->name,
                                  i ? "b_scale" : "a_scale", ptort_dtype_name(s[i]->dtype));
        if (o->bias && o->bias->dtype != PTORT_F32)
            return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects bias to have element type f32", o->name);
    } else {
        int ok = (c == PTORT_I32 && a == PTORT_I8 && b == PTORT_I8) ||
                 (c == PTORT_F32 && a == b && (a == PTORT_F16 || a == PTORT_BF16 || a == PTORT_F32)) ||
                 (c == PTORT_F32 && is_fp8(a) && is_fp8(b));
        if (!ok)
            return ptort_fail(ctx, PTORT_E_DTYPE,
                              "%s: expects (dst, lhs, rhs) element types to match one of (i32, i8, i8), (f32, f16, f16), "
                              "(f32, bf16, bf16), (f32, f32, f32), (f32, fp8, fp8), but got (%s, %s, %s)",
                              o->name, ptort_dtype_name(c), ptort_dtype_name(a), ptort_dtype_name(b));
        if (is_fp8(a) && ctx->arch != PTORT_A5)
            return ptort_fail(ctx, PTORT_E_ARCH, "%s: fp8 operands are only supported on A5 targets", o->name);
        if (o->bias && o->bias->dtype != c)
            return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects bias and dst to have the same element type", o->name);
    }
    if (o->acc && o->acc->dtype != c)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects %s and dst to have the same element type", o->name,
                          o->mx ? "c_in" : "acc_in");
    return PTORT_OK;
}

/* ---- widening ------------------------------------------------------------------------------- */

/* Element bits of tile T at (r, c) for rows [0, R) and cols [0, C) into OUT (row-major, C per
 * row): fp32 patterns for the float types (exact), int32 for i8, the raw byte for the others. */
static void widen(ptort_ctx *ctx, const ptort_tile *t, int64_t rows, int64_t cols, int64_t *ct, uint32_t *out)
{
    Layout l;
    layout_of(t, &l);
    layout_col_table(t, cols, ct);
    const uint8_t *p = tile_base(ctx, t);
    int sz = ptort_dtype_size(t->dtype);
    for (int64_t r = 0; r < rows; r++) {
        const uint8_t *q = p + layout_row_off(&l, r) * sz;
        uint32_t *o = out + r * cols;
        switch (t->dtype) {
        case PTORT_F32:
        case PTORT_I32:
            for (int64_t c = 0; c < cols; c++)
                memcpy(o + c, q + ct[c] * 4, 4);
            break;
        case PTORT_F16:
            for (int64_t c = 0; c < cols; c++)
                o[c] = f16_bits_to_f32_bits((uint16_t)load_elem(q, 2, ct[c]));
            break;
        case PTORT_BF16:
            for (int64_t c = 0; c < cols; c++)
                o[c] = load_elem(q, 2, ct[c]) << 16;
            break;
        case PTORT_I8:
            for (int64_t c = 0; c < cols; c++)
                o[c] = (uint32_t)(int32_t)(int8_t)q[ct[c]];
            break;
        case PTORT_F8E4M3FN:
            for (int64_t c = 0; c < cols; c++)
                o[c] = f2u(e4m3_decode(q[ct[c]]));
            break;
        case PTORT_F8E5M2:
            for (int64_t c = 0; c < cols; c++)
                o[c] = f2u(e5m2_decode(q[ct[c]]));
            break;
        default:
            for (int64_t c = 0; c < cols; c++)
                o[c] = q[ct[c]];
            break;
        }
    }
}

/* ---- the fp32 chains: C[i][j] = fmaf chain over k of A[i][k] * B[k][j], from +0 ------------- */

PTORT_VECTORIZE
static void mm_f32_portable(const float *a, const float *b, float *c, int64_t m, int64_t k, int64_t n)
{
    for (int64_t i = 0; i < m; i++) {
        float *ci = c + i * n;
        for (int64_t j = 0; j < n; j++)
            ci[j] = 0.0f;
        for (int64_t kk = 0; kk < k; kk++) {
            float av = a[i * k + kk];
            const float *bk = b + kk * n;
            for (int64_t j = 0; j < n; j++)
                ci[j] = fmaf(av, bk[j], ci[j]);
        }
    }
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define MM_X86 1

/* AVX2: blocks of 4 rows x 16 columns (8 accumulators), then single rows, then single columns */
__attribute__((target("avx2,fma")))
static void mm_f32_avx2(const float *a, const float *b, float *c, int64_t m, int64_t k, int64_t n)
{
    int64_t i = 0, n16 = n - n % 16;
    for (; i + 4 <= m; i += 4)
        for (int64_t j = 0; j < n16; j += 16) {
            __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00,
                   c31 = c00;
            for (int64_t kk = 0; kk < k; kk++) {
                const float *bk = b + kk * n + j;
                __m256 b0 = _mm256_loadu_ps(bk), b1 = _mm256_loadu_ps(bk + 8);
                __m256 a0 = _mm256_set1_ps(a[i * k + kk]), a1 = _mm256_set1_ps(a[(i + 1) * k + kk]);
                __m256 a2 = _mm256_set1_ps(a[(i + 2) * k + kk]), a3 = _mm256_set1_ps(a[(i + 3) * k + kk]);
                c00 = _mm256_fmadd_ps(a0, b0, c00);
                c01 = _mm256_fmadd_ps(a0, b1, c01);
                c10 = _mm256_fmadd_ps(a1, b0, c10);
                c11 = _mm256_fmadd_ps(a1, b1, c11);
                c20 = _mm256_fmadd_ps(a2, b0, c20);
                c21 = _mm256_fmadd_ps(a2, b1, c21);
                c30 = _mm256_fmadd_ps(a3, b0, c30);
                c31 = _mm256_fmadd_ps(a3, b1, c31);
            }
            float *ci = c + i * n + j;
            _mm256_storeu_ps(ci, c00);
            _mm256_storeu_ps(ci + 8, c01);
            _mm256_storeu_ps(ci + n, c10);
            _mm256_storeu_ps(ci + n + 8, c11);
            _mm256_storeu_ps(ci + 2 * n, c20);
            _mm256_storeu_ps(ci + 2 * n + 8, c21);
            _mm256_storeu_ps(ci + 3 * n, c30);
            _mm256_storeu_ps(ci + 3 * n + 8, c31);
        }
    for (int64_t r = 0; r < m; r++) {
        int64_t j = r < i ? n16 : 0;              /* rows of whole blocks: only the tail columns */
        for (; j + 8 <= n; j += 8) {
            __m256 acc = _mm256_setzero_ps();
            for (int64_t kk = 0; kk < k; kk++)
                acc = _mm256_fmadd_ps(_mm256_set1_ps(a[r * k + kk]), _mm256_loadu_ps(b + kk * n + j), acc);
            _mm256_storeu_ps(c + r * n + j, acc);
        }
        for (; j < n; j++) {
            float acc = 0.0f;
            for (int64_t kk = 0; kk < k; kk++)
                acc = __builtin_fmaf(a[r * k + kk], b[kk * n + j], acc);
            c[r * n + j] = acc;
        }
    }
}

/* AVX-512: blocks of 4 rows x 64 columns (16 accumulators), the column tail in 16-wide masked
 * steps, the row tail one row at a time */
#define MM512_STEP4(bk, AR, V)                                                                 \
    do {                                                                                       \
        __m512 b_ = (V);                                                                       \
        (void)(bk);                                                                            \
        AR##0 = _mm512_fmadd_ps(a0, b_, AR##0);                                                \
        AR##1 = _mm512_fmadd_ps(a1, b_, AR##1);                                                \
        AR##2 = _mm512_fmadd_ps(a2, b_, AR##2);                                                \
        AR##3 = _mm512_fmadd_ps(a3, b_, AR##3);                                                \
    } while (0)

__attribute__((target("avx512f,fma")))
static void mm512_rows4(const float *a, const float *b, float *c, int64_t k, int64_t n)
{
    int64_t j = 0;
    for (; j + 64 <= n; j += 64) {
        __m512 p0 = _mm512_setzero_ps(), p1 = p0, p2 = p0, p3 = p0, q0 = p0, q1 = p0, q2 = p0, q3 = p0;
        __m512 r0 = p0, r1 = p0, r2 = p0, r3 = p0, s0 = p0, s1 = p0, s2 = p0, s3 = p0;
        for (int64_t kk = 0; kk < k; kk++) {
            const float *bk = b + kk * n + j;
            __m512 a0 = _mm512_set1_ps(a[kk]), a1 = _mm512_set1_ps(a[k + kk]);
            __m512 a2 = _mm512_set1_ps(a[2 * k + kk]), a3 = _mm512_set1_ps(a[3 * k + kk]);
            MM512_STEP4(bk, p, _mm512_loadu_ps(bk));
            MM512_STEP4(bk, q, _mm512_loadu_ps(bk + 16));
            MM512_STEP4(bk, r, _mm512_loadu_ps(bk + 32));
            MM512_STEP4(bk, s, _mm512_loadu_ps(bk + 48));
        }
        __m512 out[4][4] = {{p0, q0, r0, s0}, {p1, q1, r1, s1}, {p2, q2, r2, s2}, {p3, q3, r3, s3}};
        for (int rr = 0; rr < 4; rr++)
            for (int v = 0; v < 4; v++)
                _mm512_storeu_ps(c + rr * n + j + 16 * v, out[rr][v]);
    }
    for (; j < n; j += 16) {
        __mmask16 mk = n - j >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - j)) - 1);
        __m512 p0 = _mm512_setzero_ps(), p1 = p0, p2 = p0, p3 = p0;
        for (int64_t kk = 0; kk < k; kk++) {
            const float *bk = b + kk * n + j;
            __m512 a0 = _mm512_set1_ps(a[kk]), a1 = _mm512_set1_ps(a[k + kk]);
            __m512 a2 = _mm512_set1_ps(a[2 * k + kk]), a3 = _mm512_set1_ps(a[3 * k + kk]);
            MM512_STEP4(bk, p, _mm512_maskz_loadu_ps(mk, bk));
        }
        _mm512_mask_storeu_ps(c + j, mk, p0);
        _mm512_mask_storeu_ps(c + n + j, mk, p1);
        _mm512_mask_storeu_ps(c + 2 * n + j, mk, p2);
        _mm512_mask_storeu_ps(c + 3 * n + j, mk, p3);
    }
}

__attribute__((target("avx512f,fma")))
static void mm512_row1(const float *a, const float *b, float *c, int64_t k, int64_t n)
{
    int64_t j = 0;
    for (; j + 64 <= n; j += 64) {
        __m512 p0 = _mm512_setzero_ps(), p1 = p0, p2 = p0, p3 = p0;
        for (int64_t kk = 0; kk < k; kk++) {
            const float *bk = b + kk * n + j;
            __m512 a0 = _mm512_set1_ps(a[kk]);
            p0 = _mm512_fmadd_ps(a0, _mm512_loadu_ps(bk), p0);
            p1 = _mm512_fmadd_ps(a0, _mm512_loadu_ps(bk + 16), p1);
            p2 = _mm512_fmadd_ps(a0, _mm512_loadu_ps(bk + 32), p2);
            p3 = _mm512_fmadd_ps(a0, _mm512_loadu_ps(bk + 48), p3);
        }
        _mm512_storeu_ps(c + j, p0);
        _mm512_storeu_ps(c + j + 16, p1);
        _mm512_storeu_ps(c + j + 32, p2);
        _mm512_storeu_ps(c + j + 48, p3);
    }
    for (; j < n; j += 16) {
        __mmask16 mk = n - j >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - j)) - 1);
        __m512 p0 = _mm512_setzero_ps();
        for (int64_t kk = 0; kk < k; kk++)
            p0 = _mm512_fmadd_ps(_mm512_set1_ps(a[kk]), _mm512_maskz_loadu_ps(mk, b + kk * n + j), p0);
        _mm512_mask_storeu_ps(c + j, mk, p0);
    }
}

static void mm_f32_avx512(const float *a, const float *b, float *c, int64_t m, int64_t k, int64_t n)
{
    int64_t i = 0;
    for (; i + 4 <= m; i += 4)
        mm512_rows4(a + i * k, b, c + i * n, k, n);
    for (; i < m; i++)
        mm512_row1(a + i * k, b, c + i * n, k, n);
}
#endif

/* Which fp32 kernel set runs (docs/cube.md 5): 0 AVX-512, 1 AVX2, 2 portable. */
static int mm_f32_kernel(void)
{
#ifdef MM_X86
    if (ptort_use_avx512())
        return 0;
    if (ptort_use_avx2())
        return 1;
#endif
    return 2;
}

static void mm_f32(const float *a, const float *b, float *c, int64_t m, int64_t k, int64_t n)
{
    switch (mm_f32_kernel()) {
#ifdef MM_X86
    case 0: mm_f32_avx512(a, b, c, m, k, n); return;
    case 1: mm_f32_avx2(a, b, c, m, k, n); return;
#endif
    default: mm_f32_portable(a, b, c, m, k, n); return;
    }
}

/* i8 x i8 -> i32: exact products, sums modulo 2^32 (the order cannot matter) */
PTORT_HOT
static void mm_i32(const uint32_t *a, const uint32_t *b, uint32_t *c, int64_t m, int64_t k, int64_t n)
{
    for (int64_t i = 0; i < m; i++) {
        uint32_t *ci = c + i * n;
        memset(ci, 0, (size_t)n * 4);
        for (int64_t kk = 0; kk < k; kk++) {
            uint32_t av = a[i * k + kk];
            const uint32_t *bk = b + kk * n;
            for (int64_t j = 0; j < n; j++)
                ci[j] += av * bk[j];
        }
    }
}

/* 2^(e - 127) of an e8m0 exponent byte (an i8 scale tile widens sign-extended); NaN for 0xFF */
static double e8m0_value(uint32_t w)
{
    uint32_t e = w & 0xFFu;
    return e == 0xFF ? (double)NAN : ldexp(1.0, (int)e - 127);
}

/* MX: each step adds the exact binary64 term a * b * 2^(ea-127) * 2^(eb-127) to the fp32
 * accumulator in binary64 and rounds the sum to fp32 (docs/cube.md 3.3) */
static void mm_mx(const float *a, const float *b, const uint32_t *sa, const uint32_t *sb, float *c, int64_t m,
                  int64_t k, int64_t n, int64_t g)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int64_t kk = 0; kk < k; kk++) {
                double s = e8m0_value(sa[i * g + kk / 32]) * e8m0_value(sb[(kk / 32) * n + j]);
                double t = (double)a[i * k + kk] * (double)b[kk * n + j] * s;
                acc = (float)((double)acc + t);
            }
            c[i * n + j] = acc;
        }
}

/* ---- epilogue -------------------------------------------------------------------------------- */

/* dst[i][j] = chain (+ acc_in[i][j] | + bias[0][j]); float NaNs become the default NaN */
static void mm_store(ptort_ctx *ctx, const Mm *o, uint32_t *c, uint32_t *extra, int64_t *ct)
{
    int is_int = o->dst->dtype == PTORT_I32;
    const ptort_tile *x = o->acc ? o->acc : o->bias;
    if (x)
        widen(ctx, x, o->acc ? o->m : 1, o->n, ct, extra);
    for (int64_t i = 0; i < o->m; i++)
        for (int64_t j = 0; j < o->n; j++) {
            uint32_t *v = c + i * o->n + j;
            if (x) {
                uint32_t e = extra[(o->acc ? i * o->n : 0) + j];
                *v = is_int ? *v + e : f2u(u2f(e) + u2f(*v));
            }
            if (!is_int && (*v & 0x7FFFFFFFu) > 0x7F800000u)
                *v = MM_QNAN;
        }
    Layout l;
    layout_of(o->dst, &l);
    layout_col_table(o->dst, o->n, ct);
    uint8_t *p = tile_base(ctx, o->dst);
    for (int64_t i = 0; i < o->m; i++) {
        uint8_t *q = p + layout_row_off(&l, i) * 4;
        for (int64_t j = 0; j < o->n; j++)
            memcpy(q + ct[j] * 4, c + i * o->n + j, 4);
    }
}

static ptort_status mm_run(ptort_ctx *ctx, Mm *o, ptort_acc_phase phase)
{
    if (!ctx)
        return PTORT_E_ARG;
    o->mx = o->asc || o->bsc;
    mm_name(o);
    if (!o->lhs || !o->rhs || !o->dst || (o->mx && (!o->asc || !o->bsc)) || (o->acc && o->bias))
        return ptort_fail(ctx, PTORT_E_ARG, "%s: missing or conflicting operands", o->name);
    if ((unsigned)phase > PTORT_ACC_FINAL)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: unknown accPhase %d", o->name, (int)phase);
    ptort_status st;
    if ((st = check_locs(ctx, o)) || (st = check_shapes(ctx, o)) || (st = check_dtypes(ctx, o)))
        return st;
    int64_t m = o->m, k = o->k, n = o->n, g = (k + 31) / 32;
    int64_t big = k > n ? k : n;
    size_t words = (size_t)(m * k + k * n + 2 * m * n + m * g + g * n + 64);
    uint8_t *mem = ptort_scratch(ctx, (size_t)(big + 16) * 8 + words * 4);
    if (!mem)
        return PTORT_E_NOMEM;
    int64_t *ct = (int64_t *)(void *)mem;
    uint32_t *a = (uint32_t *)(ct + big + 16), *b = a + m * k, *c = b + k * n, *extra = c + m * n;
    uint32_t *sa = extra + m * n, *sb = sa + m * g;
    widen(ctx, o->lhs, m, k, ct, a);
    widen(ctx, o->rhs, k, n, ct, b);
    if (o->mx) {
        widen(ctx, o->asc, m, g, ct, sa);
        widen(ctx, o->bsc, g, n, ct, sb);
        mm_mx((const float *)(void *)a, (const float *)(void *)b, sa, sb, (float *)(void *)c, m, k, n, g);
    } else if (o->dst->dtype == PTORT_I32) {
        mm_i32(a, b, c, m, k, n);
    } else {
        mm_f32((const float *)(void *)a, (const float *)(void *)b, (float *)(void *)c, m, k, n);
    }
    mm_store(ctx, o, c, extra, ct);
    return PTORT_OK;
}

ptort_status ptort_tmatmul(ptort_ctx *ctx, const ptort_tile *acc_in, const ptort_tile *lhs,
                           const ptort_tile *a_scale, const ptort_tile *rhs,
                           const ptort_tile *b_scale, const ptort_tile *bias,
                           const ptort_tile *dst, ptort_acc_phase phase)
{
    Mm o = {acc_in, lhs, a_scale, rhs, b_scale, bias, dst, 0, 0, "", 0, 0, 0};
    return mm_run(ctx, &o, phase);
}

ptort_status ptort_tgemv(ptort_ctx *ctx, const ptort_tile *acc_in, const ptort_tile *lhs,
                         const ptort_tile *a_scale, const ptort_tile *rhs,
                         const ptort_tile *b_scale, const ptort_tile *bias,
                         const ptort_tile *dst, ptort_acc_phase phase)
{
    Mm o = {acc_in, lhs, a_scale, rhs, b_scale, bias, dst, 1, 0, "", 0, 0, 0};
    return mm_run(ctx, &o, phase);
}
