/* vec_avx512.c - hand-written AVX-512 kernels of the vector ops (docs/vector-ops.md, Kernels).
 *
 * vec.c asks these tables first when ptort_use_avx512() holds and falls back to the compiled
 * loops of vec_kern.h where an entry is NULL. Every kernel gives the bytes of the portable
 * loop; the points where that needs care:
 * - NaN operands: the portable loops let a NaN left operand win (vk_nanfirst). x86 returns the
 *   first source operand's NaN (quieted) when both are NaN, and GCC may swap the operands of
 *   a commutative intrinsic, so add/mul/sub/div are written as inline assembly with the left
 *   operand as the first source. That saves the blend the compiled loops need.
 * - f16 widens with vcvtph2ps (exact; a signalling NaN comes back quiet, which the portable
 *   loop's next operation does too) and narrows with vcvtps2ph (RNE, NaN keeps its top payload
 *   bits and becomes quiet, as vk_f32_to_f16).
 * - bf16 widens by shifting (exact) and narrows with the portable loop's integer RNE, applied
 *   to the even and odd halves of 32-bit lanes, so no lane shuffles are needed. (vcvtneps2bf16
 *   is not used: it flushes subnormals.)
 * - f16/bf16 max and min compare sign-magnitude keys as 16-bit integers: the same order as the
 *   fp32 comparison of the widened values (-0 == +0), and NaN never compares.
 * - trsqrt keeps the simulator's (float)(1.0 / sqrt((double)x)) without binary64 square roots
 *   and divisions: a binary64 estimate good to 2^-42 decides the f32 rounding unless it lies
 *   within 2^-42 of a rounding boundary (about one input in 2^17); those lanes, and only
 *   those, take the binary64 sqrt and division. Zero, negative, Inf and NaN inputs are fixed
 *   up lane by lane. `make test-exhaustive` checks all 2^32 inputs.
 */
#include <math.h>

#include "internal.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

#define ZTARGET "avx512f,avx512bw,avx512vl,avx512dq,avx2,f16c,fma"
#define ZT __attribute__((target(ZTARGET)))
#define ZI static inline __attribute__((always_inline, target(ZTARGET)))
#define RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)

/* ---- pinned-order arithmetic --------------------------------------------------------- */

#define Z_PIN(name, insn)                                                                    \
    ZI __m512 name(__m512 a, __m512 b)                                                       \
    {                                                                                        \
        __m512 r;                                                                            \
        __asm__(insn " %2, %1, %0" : "=v"(r) : "v"(a), "v"(b));                              \
        return r;                                                                            \
    }
Z_PIN(z_add, "vaddps")
Z_PIN(z_sub, "vsubps")
Z_PIN(z_mul, "vmulps")
Z_PIN(z_div, "vdivps")
/* a + b and a - b as a * 1 + b and a * 1 - b (one rounding of the exact sum, so the same
 * value; a NaN a still wins): the f16 kernels' widenings and narrowings share the adders'
 * pipes on the development machine, and the fused forms run on the multipliers' instead
 * (tadds.f16 0.39x -> 0.45x memcpy). */
#define Z_PIN_FMA(name, insn)                                                                \
    ZI __m512 name(__m512 a, __m512 b)                                                       \
    {                                                                                        \
        __m512 r = a;                                                                        \
        __asm__(insn " %2, %1, %0" : "+v"(r) : "v"(_mm512_set1_ps(1.0f)), "v"(b));           \
        return r;                                                                            \
    }
Z_PIN_FMA(z_hadd, "vfmadd213ps")
Z_PIN_FMA(z_hsub, "vfmsub213ps")
#define z_hmul z_mul
#define z_hdiv z_div

/* lanes [0, k) of 16 / 32 (none for k <= 0) */
ZI __mmask16 z_m16(int64_t k)
{
    return k >= 16 ? (__mmask16)0xFFFF : k <= 0 ? 0 : (__mmask16)((1u << k) - 1);
}
ZI __mmask32 z_m32(int64_t k)
{
    return k >= 32 ? (__mmask32)0xFFFFFFFFu : k <= 0 ? 0 : (__mmask32)((1u << k) - 1);
}

/* ---- f16 <-> f32 --------------------------------------------------------------------- */

ZI __m512 z_ldh(const uint16_t *p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
ZI __m512 z_ldhm(const uint16_t *p, __mmask16 m)
{
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
}
ZI void z_sth(uint16_t *p, __m512 v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtps_ph(v, RNE));
}
ZI void z_sthm(uint16_t *p, __mmask16 m, __m512 v)
{
    _mm256_mask_storeu_epi16(p, m, _mm512_cvtps_ph(v, RNE));
}

/* ---- bf16 <-> f32 on the even (lo) and odd (hi) halves of 32-bit lanes ------------------ */

ZI __m512 z_bflo(__m512i v)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(v, 16));
}
ZI __m512 z_bfhi(__m512i v)
{
    return _mm512_castsi512_ps(_mm512_and_si512(v, _mm512_set1_epi32((int)0xFFFF0000u)));
}
/* vk_f32_to_bf16 with the result in the top 16 bits of each lane */
ZI __m512i z_bfround(__m512 r)
{
    __m512i x = _mm512_castps_si512(r);
    __m512i bias = _mm512_add_epi32(_mm512_set1_epi32(0x7FFF),
                                    _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1)));
    __m512i t = _mm512_add_epi32(x, bias);
    __mmask16 nan = _mm512_cmp_ps_mask(r, r, _CMP_UNORD_Q);
    return _mm512_mask_or_epi32(t, nan, x, _mm512_set1_epi32(0x00400000));
}
ZI __m512i z_bfpack(__m512 lo, __m512 hi)
{
    return _mm512_mask_blend_epi16((__mmask32)0xAAAAAAAAu, _mm512_srli_epi32(z_bfround(lo), 16),
                                   z_bfround(hi));
}

/* ---- elementwise binary -------------------------------------------------------------- */

/* f32: 32 lanes per step, the tail masked. */
#define DEF_ZB_F32(op)                                                                       \
    ZT static void zb_##op##_f32(const void *pa, const void *pb, void *pd, int64_t n,        \
                                 int scalar)                                                 \
    {                                                                                        \
        const float *a = pa, *b = pb;                                                        \
        float *d = pd;                                                                       \
        const __m512 s = _mm512_set1_ps(b[0]);                                               \
        int64_t i = 0;                                                                       \
        for (; i + 32 <= n; i += 32) {                                                       \
            __m512 y0 = scalar ? s : _mm512_loadu_ps(b + i);                                 \
            __m512 y1 = scalar ? s : _mm512_loadu_ps(b + i + 16);                            \
            _mm512_storeu_ps(d + i, z_##op(_mm512_loadu_ps(a + i), y0));                     \
            _mm512_storeu_ps(d + i + 16, z_##op(_mm512_loadu_ps(a + i + 16), y1));           \
        }                                                                                    \
        for (; i < n; i += 16) {                                                             \
            __mmask16 m = z_m16(n - i);                                                      \
            __m512 y = scalar ? s : _mm512_maskz_loadu_ps(m, b + i);                         \
            _mm512_mask_storeu_ps(d + i, m, z_##op(_mm512_maskz_loadu_ps(m, a + i), y));     \
        }                                                                                    \
    }

/* f16: widen 16 lanes, the f32 operation, narrow. */
#define DEF_ZB_F16(op)                                                                       \
    ZT static void zb_##op##_f16(const void *pa, const void *pb, void *pd, int64_t n,        \
                                 int scalar)                                                 \
    {                                                                                        \
        const uint16_t *a = pa, *b = pb;                                                     \
        uint16_t *d = pd;                                                                    \
        const __m512 s = _mm512_cvtph_ps(_mm256_set1_epi16((short)b[0]));                    \
        int64_t i = 0;                                                                       \
        if (scalar)                                                                          \
            for (; i + 32 <= n; i += 32) {                                                   \
                z_sth(d + i, z_h##op(z_ldh(a + i), s));                                      \
                z_sth(d + i + 16, z_h##op(z_ldh(a + i + 16), s));                            \
            }                                                                                \
        else                                                                                 \
            for (; i + 32 <= n; i += 32) {                                                   \
                z_sth(d + i, z_h##op(z_ldh(a + i), z_ldh(b + i)));                           \
                z_sth(d + i + 16, z_h##op(z_ldh(a + i + 16), z_ldh(b + i + 16)));            \
            }                                                                                \
        for (; i < n; i += 16) {                                                             \
            __mmask16 m = z_m16(n - i);                                                      \
            __m512 y = scalar ? s : z_ldhm(b + i, m);                                        \
            z_sthm(d + i, m, z_h##op(z_ldhm(a + i, m), y));                                  \
        }                                                                                    \
    }

/* bf16: 32 elements per vector, computed as two f32 halves. */
#define DEF_ZB_BF16(op)                                                                      \
    ZI __m512i zb16_##op(__m512i x, __m512i y)                                               \
    {                                                                                        \
        return z_bfpack(z_##op(z_bflo(x), z_bflo(y)), z_##op(z_bfhi(x), z_bfhi(y)));          \
    }                                                                                        \
    ZT static void zb_##op##_bf16(const void *pa, const void *pb, void *pd, int64_t n,       \
                                  int scalar)                                                \
    {                                                                                        \
        const uint16_t *a = pa, *b = pb;                                                     \
        uint16_t *d = pd;                                                                    \
        const __m512i s = _mm512_set1_epi16((short)b[0]);                                    \
        for (int64_t i = 0; i < n; i += 32) {                                                \
            __mmask32 m = z_m32(n - i);                                                      \
            __m512i y = scalar ? s : _mm512_maskz_loadu_epi16(m, b + i);                     \
            _mm512_mask_storeu_epi16(d + i, m, zb16_##op(_mm512_maskz_loadu_epi16(m, a + i), y)); \
        }                                                                                    \
    }

#define DEF_ZB_FLOATS(op) DEF_ZB_F32(op) DEF_ZB_F16(op) DEF_ZB_BF16(op)
DEF_ZB_FLOATS(add)
DEF_ZB_FLOATS(sub)
DEF_ZB_FLOATS(mul)
DEF_ZB_FLOATS(div)

/* f16 / bf16 max and min select a stored operand by the fp32 comparison of the widened
 * values, as the portable loops do (max: x < y ? y : x, min: y < x ? y : x; NaN never
 * compares). bf16 compares the even and odd halves of 32-bit lanes. */
#define DEF_ZB_MM_F16(op, A, B)                                                              \
    ZT static void zb_##op##_f16(const void *pa, const void *pb, void *pd, int64_t n,        \
                                 int scalar)                                                 \
    {                                                                                        \
        const uint16_t *a = pa, *b = pb;                                                     \
        uint16_t *d = pd;                                                                    \
        const __m256i s = _mm256_set1_epi16((short)b[0]);                                    \
        for (int64_t i = 0; i < n; i += 16) {                                                \
            __mmask16 m = z_m16(n - i);                                                      \
            __m256i x = _mm256_maskz_loadu_epi16(m, a + i);                                  \
            __m256i y = scalar ? s : _mm256_maskz_loadu_epi16(m, b + i);                     \
            __m512 fx = _mm512_cvtph_ps(x), fy = _mm512_cvtph_ps(y);                         \
            __mmask16 take = _mm512_cmp_ps_mask(A, B, _CMP_LT_OQ);                           \
            _mm256_mask_storeu_epi16(d + i, m, _mm256_mask_blend_epi16(take, x, y));         \
        }                                                                                    \
    }
#define DEF_ZB_MM_BF16(op, A, B)                                                             \
    ZT static void zb_##op##_bf16(const void *pa, const void *pb, void *pd, int64_t n,       \
                                  int scalar)                                                \
    {                                                                                        \
        const uint16_t *a = pa, *b = pb;                                                     \
        uint16_t *d = pd;                                                                    \
        const __m512i s = _mm512_set1_epi16((short)b[0]);                                    \
        for (int64_t i = 0; i < n; i += 32) {                                                \
            __mmask32 m = z_m32(n - i);                                                      \
            __m512i x = _mm512_maskz_loadu_epi16(m, a + i);                                  \
            __m512i y = scalar ? s : _mm512_maskz_loadu_epi16(m, b + i);                     \
            __m512 fx = z_bflo(x), fy = z_bflo(y);                                           \
            __m512i lo = _mm512_mask_blend_epi32(_mm512_cmp_ps_mask(A, B, _CMP_LT_OQ), x, y); \
            fx = z_bfhi(x), fy = z_bfhi(y);                                                  \
            __m512i hi = _mm512_mask_blend_epi32(_mm512_cmp_ps_mask(A, B, _CMP_LT_OQ), x, y); \
            _mm512_mask_storeu_epi16(d + i, m, _mm512_mask_blend_epi16((__mmask32)0xAAAAAAAAu, lo, hi)); \
        }                                                                                    \
    }
DEF_ZB_MM_F16(max, fx, fy)
DEF_ZB_MM_F16(min, fy, fx)
DEF_ZB_MM_BF16(max, fx, fy)
DEF_ZB_MM_BF16(min, fy, fx)

/* f16 prelu / lrelu as the portable loop: x > 0 ? x (its bits) : x * slope rounded to f16,
 * the product with x first so that a NaN x comes back quieted. */
ZT static void zb_prelu_f16(const void *pa, const void *pb, void *pd, int64_t n, int scalar)
{
    const uint16_t *a = pa, *b = pb;
    uint16_t *d = pd;
    const __m256i s = _mm256_set1_epi16((short)b[0]);
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = z_m16(n - i);
        __m256i x = _mm256_maskz_loadu_epi16(m, a + i);
        __m256i y = scalar ? s : _mm256_maskz_loadu_epi16(m, b + i);
        __m512 fx = _mm512_cvtph_ps(x);
        __m256i p = _mm512_cvtps_ph(z_mul(fx, _mm512_cvtph_ps(y)), RNE);
        __mmask16 pos = _mm512_cmp_ps_mask(fx, _mm512_setzero_ps(), _CMP_GT_OQ);
        _mm256_mask_storeu_epi16(d + i, m, _mm256_mask_blend_epi16(pos, p, x));
    }
}

/* ---- unary ---------------------------------------------------------------------------- */

/* trsqrt of 8 f32 lanes: the binary64 estimate y of 1/sqrt(x) (rsqrt14 refined by one
 * third-order step: relative error below 2^-42) and, in *NEAR, the lanes whose y lies within
 * 2^10 binary64 ulps of an f32 rounding boundary (the low 29 significand bits near 2^28). */
ZI __m256 z_rsqrt8(__m256 xf, __mmask8 *near)
{
    __m512d x = _mm512_cvtps_pd(xf);
    __m512d y = _mm512_rsqrt14_pd(x);
    __m512d e = _mm512_fnmadd_pd(_mm512_mul_pd(x, y), y, _mm512_set1_pd(1.0));
    __m512d p = _mm512_fmadd_pd(e, _mm512_set1_pd(0.375), _mm512_set1_pd(0.5));
    y = _mm512_fmadd_pd(_mm512_mul_pd(y, e), p, y);
    __m512i b = _mm512_add_epi64(_mm512_castpd_si512(y), _mm512_set1_epi64(1024 - 0x10000000LL));
    *near = _mm512_testn_epi64_mask(b, _mm512_set1_epi64(0x1FFFF800LL));
    return _mm512_cvtpd_ps(y);
}
/* the simulator's formula itself */
ZI __m256 z_rsqrt8_exact(__m256 xf)
{
    __m512d d = _mm512_sqrt_pd(_mm512_cvtps_pd(xf));
    return _mm512_cvtpd_ps(_mm512_div_pd(_mm512_set1_pd(1.0), d));
}
ZI __m512 z_rsqrt16(__m512 x)
{
    __mmask8 n0, n1;
    __m256 xl = _mm512_castps512_ps256(x), xh = _mm512_extractf32x8_ps(x, 1);
    __m512 r = _mm512_insertf32x8(_mm512_castps256_ps512(z_rsqrt8(xl, &n0)), z_rsqrt8(xh, &n1), 1);
    __mmask16 near = (__mmask16)(n0 | (n1 << 8));
    if (near) {
        __m512 e = _mm512_insertf32x8(_mm512_castps256_ps512(z_rsqrt8_exact(xl)), z_rsqrt8_exact(xh), 1);
        r = _mm512_mask_mov_ps(r, near, e);
    }
    /* vfixupimmps by the class of x, 4 bits per class: QNaN, SNaN -> x quieted (2); +-0 ->
     * Inf with x's sign (6); +1 -> +1 (0xA); -Inf and x < 0 -> the default NaN (3); +Inf ->
     * +0 (8); x > 0 keeps the estimate (0) */
    r = _mm512_fixupimm_ps(r, x, _mm512_set1_epi32(0x0383A622), 0);
    return r;
}
ZI __m512 z_sqrt(__m512 x)
{
    return _mm512_sqrt_ps(x);
}
ZI __m512 z_recip(__m512 x)
{
    return _mm512_div_ps(_mm512_set1_ps(1.0f), x);
}

ZT static void zu_rsqrt_f32(const void *pa, void *pd, int64_t n)
{
    const float *a = pa;
    float *d = pd;
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = z_m16(n - i);
        _mm512_mask_storeu_ps(d + i, m, z_rsqrt16(_mm512_maskz_loadu_ps(m, a + i)));
    }
}

/* f16 abs and relu on the bits, 32 lanes: x < 0 (the portable loops' compare of the widened
 * value) holds exactly when the sign is set and the magnitude is in (0, Inf], so -0 and NaN
 * pass unchanged; abs then flips the sign, relu gives +0. */
ZI __mmask32 z_below0_h(__m512i x)
{
    __m512i mag = _mm512_and_si512(x, _mm512_set1_epi16(0x7FFF));
    __mmask32 neg = _mm512_cmpneq_epi16_mask(_mm512_and_si512(x, _mm512_set1_epi16((short)0x8000)),
                                             _mm512_setzero_si512());
    __mmask32 fin = _mm512_cmple_epu16_mask(mag, _mm512_set1_epi16(0x7C00));
    return neg & fin & _mm512_cmpneq_epi16_mask(mag, _mm512_setzero_si512());
}
#define DEF_ZU_H_BITS(op, EXPR)                                                              \
    ZT static void zu_##op##_f16bits(const void *pa, void *pd, int64_t n)                    \
    {                                                                                        \
        const uint16_t *a = pa;                                                              \
        uint16_t *d = pd;                                                                    \
        for (int64_t i = 0; i < n; i += 32) {                                                \
            __mmask32 m = z_m32(n - i);                                                      \
            __m512i x = _mm512_maskz_loadu_epi16(m, a + i);                                  \
            __mmask32 b = z_below0_h(x);                                                     \
            _mm512_mask_storeu_epi16(d + i, m, EXPR);                                        \
        }                                                                                    \
    }
DEF_ZU_H_BITS(abs, _mm512_mask_mov_epi16(x, b, _mm512_xor_si512(x, _mm512_set1_epi16((short)0x8000))))
DEF_ZU_H_BITS(relu, _mm512_mask_mov_epi16(x, b, _mm512_setzero_si512()))

#define DEF_ZU_F16(op)                                                                       \
    ZT static void zu_##op##_f16(const void *pa, void *pd, int64_t n)                        \
    {                                                                                        \
        const uint16_t *a = pa;                                                              \
        uint16_t *d = pd;                                                                    \
        int64_t i = 0;                                                                       \
        for (; i + 16 <= n; i += 16)                                                         \
            z_sth(d + i, z_##op(z_ldh(a + i)));                                              \
        if (i < n) {                                                                         \
            __mmask16 m = z_m16(n - i);                                                      \
            z_sthm(d + i, m, z_##op(z_ldhm(a + i, m)));                                      \
        }                                                                                    \
    }
DEF_ZU_F16(sqrt)
DEF_ZU_F16(recip)
DEF_ZU_F16(rsqrt16)

/* ---- reductions ------------------------------------------------------------------------
 * The steps are vec.c's: sum acc + x with acc's NaN first (z_add), max acc < x ? x : acc =
 * vmaxps(x, acc), min x < acc ? x : acc = vminps(x, acc); sums into f16 / bf16 round every
 * step. f16 widens with vcvtph2ps, bf16 by a shift. */

ZI __m512 z_ld16h(const void *p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
}
ZI __m512 z_ld16hm(const void *p, __mmask16 m)
{
    return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m, p));
}
ZI __m512 z_ld16b(const void *p)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p)), 16));
}
ZI __m512 z_ld16bm(const void *p, __mmask16 m)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, p)), 16));
}
ZI __m512 z_ld16f(const void *p)
{
    return _mm512_loadu_ps(p);
}
ZI __m512 z_ld16fm(const void *p, __mmask16 m)
{
    return _mm512_maskz_loadu_ps(m, p);
}
ZI __m512 z_step_sum(__m512 a, __m512 x)
{
    return z_add(a, x);
}
ZI __m512 z_step_max(__m512 a, __m512 x)
{
    return _mm512_max_ps(x, a);
}
ZI __m512 z_step_min(__m512 a, __m512 x)
{
    return _mm512_min_ps(x, a);
}
ZI __m512 z_step_sumh(__m512 a, __m512 x)
{
    return _mm512_cvtph_ps(_mm512_cvtps_ph(z_add(a, x), RNE));
}
ZI __m512 z_step_sumb(__m512 a, __m512 x)
{
    return _mm512_castsi512_ps(_mm512_and_si512(z_bfround(z_add(a, x)), _mm512_set1_epi32((int)0xFFFF0000u)));
}

/* Column reductions: 64 columns (4 accumulators) per pass down the rows. */
#define DEF_ZCRED(name, LD, ESZ, STEP)                                                       \
    ZT static void zc_##name(const uint8_t *src, int64_t sst, int64_t rows, int64_t n,       \
                             int first, float init, float *acc)                              \
    {                                                                                        \
        for (int64_t j = 0; j < n; j += 64) {                                                \
            __mmask16 m0 = z_m16(n - j), m1 = z_m16(n - j - 16), m2 = z_m16(n - j - 32);     \
            __mmask16 m3 = z_m16(n - j - 48);                                                \
            const uint8_t *p = src + j * ESZ;                                                \
            __m512 a0 = _mm512_set1_ps(init), a1 = a0, a2 = a0, a3 = a0;                     \
            if (first) {                                                                     \
                a0 = LD##m(p, m0);                                                           \
                a1 = LD##m(p + 16 * ESZ, m1);                                                \
                a2 = LD##m(p + 32 * ESZ, m2);                                                \
                a3 = LD##m(p + 48 * ESZ, m3);                                                \
            }                                                                                \
            if (m3 == 0xFFFF) {                                                              \
                for (int64_t i = first; i < rows; i++) {                                     \
                    const uint8_t *q = p + i * sst;                                          \
                    a0 = STEP(a0, LD(q));                                                    \
                    a1 = STEP(a1, LD(q + 16 * ESZ));                                         \
                    a2 = STEP(a2, LD(q + 32 * ESZ));                                         \
                    a3 = STEP(a3, LD(q + 48 * ESZ));                                         \
                }                                                                            \
            } else {                                                                         \
                for (int64_t i = first; i < rows; i++) {                                     \
                    const uint8_t *q = p + i * sst;                                          \
                    a0 = STEP(a0, LD##m(q, m0));                                             \
                    a1 = STEP(a1, LD##m(q + 16 * ESZ, m1));                                  \
                    a2 = STEP(a2, LD##m(q + 32 * ESZ, m2));                                  \
                    a3 = STEP(a3, LD##m(q + 48 * ESZ, m3));                                  \
                }                                                                            \
            }                                                                                \
            _mm512_mask_storeu_ps(acc + j, m0, a0);                                          \
            _mm512_mask_storeu_ps(acc + j + 16, m1, a1);                                     \
            _mm512_mask_storeu_ps(acc + j + 32, m2, a2);                                     \
            _mm512_mask_storeu_ps(acc + j + 48, m3, a3);                                     \
        }                                                                                    \
    }
DEF_ZCRED(sum_f16, z_ld16h, 2, z_step_sum)
DEF_ZCRED(max_f16, z_ld16h, 2, z_step_max)
DEF_ZCRED(min_f16, z_ld16h, 2, z_step_min)
DEF_ZCRED(sum16_f16, z_ld16h, 2, z_step_sumh)
DEF_ZCRED(sum_bf16, z_ld16b, 2, z_step_sum)
DEF_ZCRED(max_bf16, z_ld16b, 2, z_step_max)
DEF_ZCRED(min_bf16, z_ld16b, 2, z_step_min)
DEF_ZCRED(sum16_bf16, z_ld16b, 2, z_step_sumb)

/* Row reductions, 16 rows at a time: 16 x 16 blocks are loaded (widened), transposed in
 * registers so that vector c holds column c of the 16 rows, and the accumulators (one lane
 * per row) take the columns in order, so every row keeps its sequential order. The last
 * block loads only the columns left (masked) and uses that many vectors; a last group of
 * fewer than 16 rows repeats its last row and stores only the rows it has. */
ZI void z_tr16(__m512 v[16])
{
    __m512 t[16];
#pragma GCC unroll 16
    for (int k = 0; k < 16; k += 2) {
        t[k] = _mm512_unpacklo_ps(v[k], v[k + 1]);
        t[k + 1] = _mm512_unpackhi_ps(v[k], v[k + 1]);
    }
#pragma GCC unroll 16
    for (int k = 0; k < 16; k += 4) {
        v[k] = _mm512_shuffle_ps(t[k], t[k + 2], 0x44);
        v[k + 1] = _mm512_shuffle_ps(t[k], t[k + 2], 0xEE);
        v[k + 2] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0x44);
        v[k + 3] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
    }
#pragma GCC unroll 16
    for (int k = 0; k < 4; k++) {
        t[k] = _mm512_shuffle_f32x4(v[k], v[k + 4], 0x88);
        t[k + 4] = _mm512_shuffle_f32x4(v[k], v[k + 4], 0xDD);
        t[k + 8] = _mm512_shuffle_f32x4(v[k + 8], v[k + 12], 0x88);
        t[k + 12] = _mm512_shuffle_f32x4(v[k + 8], v[k + 12], 0xDD);
    }
#pragma GCC unroll 16
    for (int k = 0; k < 4; k++) {
        v[k] = _mm512_shuffle_f32x4(t[k], t[k + 8], 0x88);
        v[k + 8] = _mm512_shuffle_f32x4(t[k], t[k + 8], 0xDD);
        v[k + 4] = _mm512_shuffle_f32x4(t[k + 4], t[k + 12], 0x88);
        v[k + 12] = _mm512_shuffle_f32x4(t[k + 4], t[k + 12], 0xDD);
    }
}

#define ZU16 _Pragma("GCC unroll 16")
/* One 16-column block of the 16 rows ROW into ACC (columns from C0 when this is the row's
 * first block of a max/min: ACC starts as column 0). */
#define ZR_BLOCK(LD, ESZ, STEP, row, acc)                                                    \
    do {                                                                                     \
        __m512 v[16];                                                                        \
        ZU16 for (int k = 0; k < 16; k++)                                                    \
            v[k] = LD((row)[k] + j * ESZ);                                                   \
        z_tr16(v);                                                                           \
        if (j == 0 && first) {                                                               \
            acc = v[0];                                                                      \
            ZU16 for (int c = 1; c < 16; c++)                                                \
                acc = STEP(acc, v[c]);                                                       \
        } else {                                                                             \
            ZU16 for (int c = 0; c < 16; c++)                                                \
                acc = STEP(acc, v[c]);                                                       \
        }                                                                                    \
    } while (0)
#define ZR_TAIL(LD, ESZ, STEP, row, acc)                                                     \
    do {                                                                                     \
        __m512 v[16];                                                                        \
        __mmask16 m = z_m16(n - j);                                                          \
        ZU16 for (int k = 0; k < 16; k++)                                                    \
            v[k] = LD##m((row)[k] + j * ESZ, m);                                             \
        z_tr16(v);                                                                           \
        int c = 0;                                                                           \
        if (j == 0 && first) {                                                               \
            acc = v[0];                                                                      \
            c = 1;                                                                           \
        }                                                                                    \
        for (; c < n - j; c++)                                                               \
            acc = STEP(acc, v[c]);                                                           \
    } while (0)
/* 16-bit sources first run whole 32-column blocks transposed as 16-bit words, half the
 * shuffles of transposing widened fp32: three rounds of unpacks (words, dwords, qwords, within
 * 128-bit lanes) leave column 8L + t of rows 0-7 (8s..8s+7 in general) in lane L of c[s][t],
 * and a two-source qword permute pairs the lanes of rows 0-7 and 8-15, so that each 256-bit
 * half holds one column of the 16 rows; the halves are widened (W16) and stepped in column
 * order. Returns the accumulator; START: it begins as column 0 (max/min). */
ZI __m512 z_w16h(__m256i h)
{
    return _mm512_cvtph_ps(h);
}
ZI __m512 z_w16b(__m256i h)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
#define DEF_ZR_WIDE(name, W16, STEP)                                                         \
    ZI __m512 zrw_##name(const uint8_t *p, int64_t sst, __m512 acc, int start)              \
    {                                                                                        \
        __m512i v[16], t[16];                                                                \
        /* words: t[2i + h] = rows 2i, 2i+1 of columns 4h .. 4h+3 (per lane) */              \
        ZU16 for (int i = 0; i < 8; i++) {                                                   \
            __m512i x = _mm512_loadu_si512((const void *)(p + 2 * i * sst));                 \
            __m512i y = _mm512_loadu_si512((const void *)(p + (2 * i + 1) * sst));           \
            t[2 * i] = _mm512_unpacklo_epi16(x, y);                                          \
            t[2 * i + 1] = _mm512_unpackhi_epi16(x, y);                                      \
        }                                                                                    \
        /* dwords: v[8g + 2q + h'] with q row quad, columns 4h + 2g .. +1 */                  \
        ZU16 for (int q = 0; q < 4; q++)                                                     \
            ZU16 for (int h = 0; h < 2; h++) {                                               \
                v[4 * h + q] = _mm512_unpacklo_epi32(t[4 * q + h], t[4 * q + 2 + h]);        \
                v[8 + 4 * h + q] = _mm512_unpackhi_epi32(t[4 * q + h], t[4 * q + 2 + h]);    \
            }                                                                                \
        /* qwords: t[8s + tc] = column tc = 4h + 2g + e of rows 8s .. 8s+7 */                 \
        ZU16 for (int s = 0; s < 2; s++)                                                     \
            ZU16 for (int hg = 0; hg < 4; hg++) {                                            \
                int h = hg >> 1, g = hg & 1;                                                 \
                __m512i x = v[8 * g + 4 * h + 2 * s], y = v[8 * g + 4 * h + 2 * s + 1];      \
                t[8 * s + 4 * h + 2 * g] = _mm512_unpacklo_epi64(x, y);                      \
                t[8 * s + 4 * h + 2 * g + 1] = _mm512_unpackhi_epi64(x, y);                  \
            }                                                                                \
        /* v[tc] = columns tc, 8 + tc; v[8 + tc] = columns 16 + tc, 24 + tc (16 rows each) */ \
        const __m512i plo = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);                     \
        const __m512i phi = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);                   \
        ZU16 for (int tc = 0; tc < 8; tc++) {                                                \
            v[tc] = _mm512_permutex2var_epi64(t[tc], plo, t[8 + tc]);                        \
            v[8 + tc] = _mm512_permutex2var_epi64(t[tc], phi, t[8 + tc]);                    \
        }                                                                                    \
        _Pragma("GCC unroll 32") for (int c = 0; c < 32; c++) {                             \
            __m512i w = v[(c >> 4) * 8 + (c & 7)];                                           \
            __m512 x = W16((c >> 3) & 1 ? _mm512_extracti64x4_epi64(w, 1) : _mm512_castsi512_si256(w)); \
            acc = c == 0 && start ? x : STEP(acc, x);                                        \
        }                                                                                    \
        return acc;                                                                          \
    }
DEF_ZR_WIDE(sum_f16, z_w16h, z_step_sum)
DEF_ZR_WIDE(max_f16, z_w16h, z_step_max)
DEF_ZR_WIDE(min_f16, z_w16h, z_step_min)
DEF_ZR_WIDE(sum_bf16, z_w16b, z_step_sum)
DEF_ZR_WIDE(max_bf16, z_w16b, z_step_max)
DEF_ZR_WIDE(min_bf16, z_w16b, z_step_min)
#define ZR_WIDE_f32(name)
/* only when every group of the pass has 16 rows (a last group of fewer repeats its last row
 * through RG in the blocks below) */
#define ZR_WIDE_16(name)                                                                     \
    if (rows - r >= 16 * 4 || (rows - r) % 16 == 0)                                          \
        for (; j + 32 <= n; j += 32) {                                                       \
            const uint8_t *p = src + r * sst + 2 * j;                                        \
            int start = j == 0 && first;                                                     \
            a0 = zrw_##name(p, sst, a0, start);                                              \
            if (ng > 1)                                                                      \
                a1 = zrw_##name(p + 16 * sst, sst, a1, start);                               \
            if (ng > 2)                                                                      \
                a2 = zrw_##name(p + 32 * sst, sst, a2, start);                               \
            if (ng > 3)                                                                      \
                a3 = zrw_##name(p + 48 * sst, sst, a3, start);                               \
        }

/* Up to GMAX groups of 16 rows per pass: each group's accumulator is one dependent chain of
 * steps that overlaps the other groups' loads and transposes (two for f32, whose 16 x 16
 * blocks need more registers; four for the 16-bit 32-column blocks). */
#define ZR_GROUPS(GMAX, M, ...)                                                                    \
    do {                                                                                     \
        M(__VA_ARGS__, rg[0], a0);                                                           \
        if (ng > 1)                                                                          \
            M(__VA_ARGS__, rg[1], a1);                                                       \
        if (ng > 2)                                                                          \
            M(__VA_ARGS__, rg[2 % GMAX], a2);                                                \
        if (ng > 3)                                                                          \
            M(__VA_ARGS__, rg[3 % GMAX], a3);                                                \
    } while (0)
#define DEF_ZRRED(name, LD, ESZ, STEP, WIDE, GMAX)                                           \
    ZT static void zr_##name(const uint8_t *src, int64_t sst, int64_t rows, int64_t n,       \
                             int first, float init, float *out, float *buf)                  \
    {                                                                                        \
        (void)buf;                                                                           \
        for (int64_t r = 0; r < rows; r += 16 * GMAX) {                                      \
            const uint8_t *rg[GMAX][16];                                                     \
            for (int g = 0; g < GMAX; g++)                                                   \
                for (int k = 0; k < 16; k++)                                                 \
                    rg[g][k] = src + (r + 16 * g + k < rows ? r + 16 * g + k : rows - 1) * sst; \
            __m512 a0 = _mm512_set1_ps(init), a1 = a0, a2 = a0, a3 = a0;                     \
            int ng = rows - r >= 16 * GMAX ? GMAX : (int)((rows - r + 15) / 16);             \
            int64_t j = 0;                                                                   \
            WIDE(name)                                                                       \
            for (; j + 16 <= n; j += 16)                                                     \
                ZR_GROUPS(GMAX, ZR_BLOCK, LD, ESZ, STEP);                                          \
            if (j < n)                                                                       \
                ZR_GROUPS(GMAX, ZR_TAIL, LD, ESZ, STEP);                                         \
            _mm512_mask_storeu_ps(out + r, z_m16(rows - r), a0);                             \
            if (ng > 1)                                                                      \
                _mm512_mask_storeu_ps(out + r + 16, z_m16(rows - r - 16), a1);               \
            if (ng > 2)                                                                      \
                _mm512_mask_storeu_ps(out + r + 32, z_m16(rows - r - 32), a2);               \
            if (ng > 3)                                                                      \
                _mm512_mask_storeu_ps(out + r + 48, z_m16(rows - r - 48), a3);               \
        }                                                                                    \
    }
DEF_ZRRED(sum_f32, z_ld16f, 4, z_step_sum, ZR_WIDE_f32, 2)
DEF_ZRRED(max_f32, z_ld16f, 4, z_step_max, ZR_WIDE_f32, 2)
DEF_ZRRED(min_f32, z_ld16f, 4, z_step_min, ZR_WIDE_f32, 2)
DEF_ZRRED(sum_f16, z_ld16h, 2, z_step_sum, ZR_WIDE_16, 4)
DEF_ZRRED(max_f16, z_ld16h, 2, z_step_max, ZR_WIDE_16, 4)
DEF_ZRRED(min_f16, z_ld16h, 2, z_step_min, ZR_WIDE_16, 4)
DEF_ZRRED(sum_bf16, z_ld16b, 2, z_step_sum, ZR_WIDE_16, 4)
DEF_ZRRED(max_bf16, z_ld16b, 2, z_step_max, ZR_WIDE_16, 4)
DEF_ZRRED(min_bf16, z_ld16b, 2, z_step_min, ZR_WIDE_16, 4)

/* ---- tgemv.bias with an a5 rhs ---------------------------------------------------------
 * f16 rhs in ZN boxes of 16 x 16 (docs/numerics.md 5: boxes row after row, each box column-
 * major, so the 16 k values of one column are 32 contiguous bytes): the 16 columns of a box
 * are widened (vcvtph2ps, exact), transposed to its 16 rows, and each row takes its step
 * acc[j] = fmaf(a[k], b[k][j], acc[j]) in k order, as gemv.c's loops do. Two column blocks at
 * once, so that their chains overlap. BOXROW: bytes from one row of boxes to the next. */
ZT static void zg_zn16(const uint8_t *b, int64_t boxrow, const float *a, int64_t k, int64_t n,
                       float *out)
{
    for (int64_t j = 0; j < n;) {
        int two = j + 32 <= n;
        __m512 acc0 = _mm512_setzero_ps(), acc1 = acc0;
        for (int64_t k0 = 0; k0 < k; k0 += 16) {
            const uint8_t *p = b + (k0 / 16) * boxrow + (j / 16) * 512;
            __m512 v[16];
            ZU16 for (int l = 0; l < 16; l++)
                v[l] = z_ld16h(p + 32 * l);
            z_tr16(v);
            ZU16 for (int i = 0; i < 16; i++)
                acc0 = _mm512_fmadd_ps(_mm512_set1_ps(a[k0 + i]), v[i], acc0);
            if (two) {
                ZU16 for (int l = 0; l < 16; l++)
                    v[l] = z_ld16h(p + 512 + 32 * l);
                z_tr16(v);
                ZU16 for (int i = 0; i < 16; i++)
                    acc1 = _mm512_fmadd_ps(_mm512_set1_ps(a[k0 + i]), v[i], acc1);
            }
        }
        _mm512_storeu_ps(out + j, acc0);
        if (two)
            _mm512_storeu_ps(out + j + 16, acc1);
        j += two ? 32 : 16;
    }
}

int ptort_vecz_gemv_zn16(const uint8_t *b, int64_t boxrow, const float *a, int64_t k, int64_t n,
                         float *out)
{
    if (!ptort_use_avx512())
        return 0;
    zg_zn16(b, boxrow, a, k, n, out);
    return 1;
}

/* ---- tcvt -----------------------------------------------------------------------------
 * vec.c's conversions on 16 lanes. Saturation clamps to [lo, hi] first (NaN -> hi, as
 * vk_clampf); float -> int converts with the mode's rounding (vcvtps2dq with embedded
 * rounding, vcvttps2dq for truncation: out of range and NaN give INT32_MIN, the x86 cast
 * vk_f2i models; rounding an exact integral value first changes nothing) and keeps the low
 * bytes (vpmovdb / vpmovdw). Only the modes x86 has (RINT, FLOOR, CEIL, TRUNC, NONE) and destinations narrower than 32 bits
 * are here; the rest stay with vec.c. */
ZI __m512 z_clamp(__m512 x, float lo, float hi)
{
    __m512 vh = _mm512_set1_ps(hi);
    x = _mm512_mask_mov_ps(x, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), vh);
    return _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(lo)), vh);
}
ZI __m512i z_f2i(__m512 x, int sat, int mode, float lo, float hi)
{
    if (sat)
        x = z_clamp(x, lo, hi);
    /* the conversion itself rounds per mode (embedded rounding): the same as rounding to
     * an integral value first */
    switch (mode) {
    case PTORT_RM_RINT: return _mm512_cvt_roundps_epi32(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    case PTORT_RM_FLOOR: return _mm512_cvt_roundps_epi32(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    case PTORT_RM_CEIL: return _mm512_cvt_roundps_epi32(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC);
    default: return _mm512_cvttps_epi32(x);   /* TRUNC, NONE */
    }
}
ZI void z_st_i8(void *p, __mmask16 m, __m512i v)
{
    if (m == 0xFFFF)
        _mm_storeu_si128((__m128i *)p, _mm512_cvtepi32_epi8(v));
    else
        _mm_mask_storeu_epi8(p, m, _mm512_cvtepi32_epi8(v));
}
ZI void z_st_i16(void *p, __mmask16 m, __m512i v)
{
    if (m == 0xFFFF)
        _mm256_storeu_si256((__m256i *)p, _mm512_cvtepi32_epi16(v));
    else
        _mm256_mask_storeu_epi16(p, m, _mm512_cvtepi32_epi16(v));
}

/* to bytes, 64 per step: the low bytes of four vectors packed (no saturation: they are cut
 * to 8 bits first) and put back in order */
#define DEF_ZCVT_F2B(name, LD, SSZ, LO, HI)                                                  \
    ZT static void zv_##name(const void *ps, void *pd, int64_t n, int sat, ptort_rmode rm)   \
    {                                                                                        \
        const uint8_t *s = ps;                                                               \
        uint8_t *d = pd;                                                                     \
        int mode = (int)rm;                                                                  \
        const __m512i lo8 = _mm512_set1_epi32(0xFF);                                         \
        const __m512i perm = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15); \
        int64_t i = 0;                                                                       \
        for (; i + 64 <= n; i += 64) {                                                       \
            __m512i a = _mm512_and_si512(z_f2i(LD(s + i * SSZ), sat, mode, LO, HI), lo8);    \
            __m512i b = _mm512_and_si512(z_f2i(LD(s + (i + 16) * SSZ), sat, mode, LO, HI), lo8); \
            __m512i c = _mm512_and_si512(z_f2i(LD(s + (i + 32) * SSZ), sat, mode, LO, HI), lo8); \
            __m512i e = _mm512_and_si512(z_f2i(LD(s + (i + 48) * SSZ), sat, mode, LO, HI), lo8); \
            __m512i w = _mm512_packus_epi16(_mm512_packus_epi32(a, b), _mm512_packus_epi32(c, e)); \
            _mm512_storeu_si512((void *)(d + i), _mm512_permutexvar_epi32(perm, w));         \
        }                                                                                    \
        for (; i < n; i += 16) {                                                             \
            __mmask16 m = z_m16(n - i);                                                      \
            z_st_i8(d + i, m, z_f2i(LD##m(s + i * SSZ, m), sat, mode, LO, HI));              \
        }                                                                                    \
    }
DEF_ZCVT_F2B(f16_i8, z_ld16h, 2, -128.0f, 127.0f)
DEF_ZCVT_F2B(f16_u8, z_ld16h, 2, 0.0f, 255.0f)
/* to 16 bits, 32 per step: two vectors' low halves packed and put back in order */
#define DEF_ZCVT_F2W(name, LD, SSZ, LO, HI)                                                  \
    ZT static void zv_##name(const void *ps, void *pd, int64_t n, int sat, ptort_rmode rm)   \
    {                                                                                        \
        const uint8_t *s = ps;                                                               \
        uint8_t *d = pd;                                                                     \
        int mode = (int)rm;                                                                  \
        const __m512i lo16 = _mm512_set1_epi32(0xFFFF);                                      \
        const __m512i perm = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);                      \
        int64_t i = 0;                                                                       \
        for (; i + 32 <= n; i += 32) {                                                       \
            __m512i a = _mm512_and_si512(z_f2i(LD(s + i * SSZ), sat, mode, LO, HI), lo16);   \
            __m512i b = _mm512_and_si512(z_f2i(LD(s + (i + 16) * SSZ), sat, mode, LO, HI), lo16); \
            _mm512_storeu_si512((void *)(d + 2 * i),                                         \
                                _mm512_permutexvar_epi64(perm, _mm512_packus_epi32(a, b)));  \
        }                                                                                    \
        for (; i < n; i += 16) {                                                             \
            __mmask16 m = z_m16(n - i);                                                      \
            z_st_i16(d + 2 * i, m, z_f2i(LD##m(s + i * SSZ, m), sat, mode, LO, HI));         \
        }                                                                                    \
    }
DEF_ZCVT_F2W(f16_i16, z_ld16h, 2, -32768.0f, 32767.0f)
DEF_ZCVT_F2W(f32_i16, z_ld16f, 4, -32768.0f, 32767.0f)

/* f32 -> f16 (vcvtps2ph RNE) and f16 -> f32 (vcvtph2ps), saturating to +-65504 first */
ZT static void zv_f32_f16(const void *ps, void *pd, int64_t n, int sat, ptort_rmode rm)
{
    const float *s = ps;
    uint16_t *d = pd;
    (void)rm;
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 m = z_m16(n - i);
        __m512 x = _mm512_maskz_loadu_ps(m, s + i);
        if (sat)
            x = z_clamp(x, -65504.0f, 65504.0f);
        z_sthm(d + i, m, x);
    }
}
ZT static void zv_f16_f32(const void *ps, void *pd, int64_t n, int sat, ptort_rmode rm)
{
    const uint16_t *s = ps;
    float *d = pd;
    (void)rm;
    int64_t i = 0;
    if (!sat)
        for (; i + 32 <= n; i += 32) {
            _mm512_storeu_ps(d + i, z_ldh(s + i));
            _mm512_storeu_ps(d + i + 16, z_ldh(s + i + 16));
        }
    for (; i < n; i += 16) {
        __mmask16 m = z_m16(n - i);
        __m512 x = z_ldhm(s + i, m);
        if (sat)
            x = z_clamp(x, -65504.0f, 65504.0f);
        _mm512_mask_storeu_ps(d + i, m, x);
    }
}

/* ---- fills (texpands, trowexpand / tcolexpand without an op) ---------------------------- */

ZT static void z_fill(uint8_t *p, int size, int64_t n, const uint8_t *e)
{
    uint32_t v = 0;
    memcpy(&v, e, (size_t)size);
    __m512i x = size == 4 ? _mm512_set1_epi32((int)v) : size == 2 ? _mm512_set1_epi16((short)v)
                                                                   : _mm512_set1_epi8((char)v);
    int64_t bytes = n * size, i = 0;
    for (; i + 256 <= bytes; i += 256) {
        _mm512_storeu_si512((void *)(p + i), x);
        _mm512_storeu_si512((void *)(p + i + 64), x);
        _mm512_storeu_si512((void *)(p + i + 128), x);
        _mm512_storeu_si512((void *)(p + i + 192), x);
    }
    for (; i < bytes; i += 64) {
        int64_t k = bytes - i;
        __mmask64 m = k >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << k) - 1);
        _mm512_mask_storeu_epi8(p + i, m, x);
    }
}

/* ---- tables ----------------------------------------------------------------------------- */

static const ptort_vbin_fn zbin[PTORT_NUM_VOPS][PTORT_NUM_DTYPES] = {
#define ZB_ROW(op, OP) [PTORT_VOP_##OP] = {[PTORT_F32] = zb_##op##_f32, [PTORT_F16] = zb_##op##_f16, \
                                           [PTORT_BF16] = zb_##op##_bf16},
    ZB_ROW(add, ADD) ZB_ROW(sub, SUB) ZB_ROW(mul, MUL) ZB_ROW(div, DIV)
#undef ZB_ROW
    [PTORT_VOP_MAX] = {[PTORT_F16] = zb_max_f16, [PTORT_BF16] = zb_max_bf16},
    [PTORT_VOP_MIN] = {[PTORT_F16] = zb_min_f16, [PTORT_BF16] = zb_min_bf16},
    [PTORT_VOP_PRELU] = {[PTORT_F16] = zb_prelu_f16},
    [PTORT_VOP_LRELU] = {[PTORT_F16] = zb_prelu_f16},
};

static const ptort_vun_fn zun[PTORT_NUM_VOPS][PTORT_NUM_DTYPES] = {
    [PTORT_VOP_ABS] = {[PTORT_F16] = zu_abs_f16bits},
    [PTORT_VOP_RELU] = {[PTORT_F16] = zu_relu_f16bits},
    [PTORT_VOP_SQRT] = {[PTORT_F16] = zu_sqrt_f16},
    [PTORT_VOP_RECIP] = {[PTORT_F16] = zu_recip_f16},
    [PTORT_VOP_RSQRT] = {[PTORT_F32] = zu_rsqrt_f32, [PTORT_F16] = zu_rsqrt16_f16},
};

ptort_vbin_fn ptort_vecz_bin(ptort_vop op, ptort_dtype dt)
{
    return ptort_use_avx512() ? zbin[op][dt] : NULL;
}

int ptort_vecz_fill(uint8_t *p, int size, int64_t n, const uint8_t *e)
{
    if (!ptort_use_avx512())
        return 0;
    z_fill(p, size, n, e);
    return 1;
}

ptort_vcvt_fn ptort_vecz_cvt(ptort_dtype sdt, ptort_dtype ddt, ptort_rmode rm)
{
    if (!ptort_use_avx512())
        return NULL;
    if (sdt == PTORT_F32 && ddt == PTORT_F16)
        return zv_f32_f16;
    if (sdt == PTORT_F16 && ddt == PTORT_F32)
        return zv_f16_f32;
    if (rm == PTORT_RM_ROUND || rm == PTORT_RM_ODD)
        return NULL;
    if (sdt == PTORT_F16)
        return ddt == PTORT_I8 ? zv_f16_i8 : ddt == PTORT_U8 ? zv_f16_u8 : ddt == PTORT_I16 ? zv_f16_i16 : NULL;
    if (sdt == PTORT_F32 && ddt == PTORT_I16)
        return zv_f32_i16;
    return NULL;
}

ptort_vcred_fn ptort_vecz_cred(ptort_vop op, ptort_dtype sdt, ptort_dtype ddt)
{
    if (!ptort_use_avx512() || (sdt != PTORT_F16 && sdt != PTORT_BF16))
        return NULL;
    int b = sdt == PTORT_BF16;
    switch (op) {
    case PTORT_VOP_SUM:
        if (ddt == sdt)
            return b ? zc_sum16_bf16 : zc_sum16_f16;
        return b ? zc_sum_bf16 : zc_sum_f16;
    case PTORT_VOP_MAX: return b ? zc_max_bf16 : zc_max_f16;
    case PTORT_VOP_MIN: return b ? zc_min_bf16 : zc_min_f16;
    default: return NULL;
    }
}

ptort_vrred_fn ptort_vecz_rred(ptort_vop op, ptort_dtype sdt)
{
    if (!ptort_use_avx512())
        return NULL;
#define ZR_CASE(dt, DT) \
    case PTORT_##DT: return op == PTORT_VOP_SUM ? zr_sum_##dt : op == PTORT_VOP_MAX ? zr_max_##dt : zr_min_##dt;
    switch (sdt) {
    ZR_CASE(f32, F32)
    ZR_CASE(f16, F16)
    ZR_CASE(bf16, BF16)
    default: return NULL;
    }
#undef ZR_CASE
}

ptort_vun_fn ptort_vecz_un(ptort_vop op, ptort_dtype dt)
{
    return ptort_use_avx512() ? zun[op][dt] : NULL;
}

#else

int ptort_vecz_gemv_zn16(const uint8_t *b, int64_t boxrow, const float *a, int64_t k, int64_t n,
                         float *out)
{
    (void)b, (void)boxrow, (void)a, (void)k, (void)n, (void)out;
    return 0;
}

ptort_vbin_fn ptort_vecz_bin(ptort_vop op, ptort_dtype dt)
{
    (void)op, (void)dt;
    return NULL;
}

int ptort_vecz_fill(uint8_t *p, int size, int64_t n, const uint8_t *e)
{
    (void)p, (void)size, (void)n, (void)e;
    return 0;
}

ptort_vcvt_fn ptort_vecz_cvt(ptort_dtype sdt, ptort_dtype ddt, ptort_rmode rm)
{
    (void)sdt, (void)ddt, (void)rm;
    return NULL;
}

ptort_vcred_fn ptort_vecz_cred(ptort_vop op, ptort_dtype sdt, ptort_dtype ddt)
{
    (void)op, (void)sdt, (void)ddt;
    return NULL;
}

ptort_vrred_fn ptort_vecz_rred(ptort_vop op, ptort_dtype sdt)
{
    (void)op, (void)sdt;
    return NULL;
}

ptort_vun_fn ptort_vecz_un(ptort_vop op, ptort_dtype dt)
{
    (void)op, (void)dt;
    return NULL;
}

#endif
