/* vec.c - the vector ops of quantization kernels (docs/vector-ops.md): elementwise binary and
 * unary ops, tile-scalar ops, texpands, row and column reductions, row and column
 * broadcasts, tcvt and tci, with the numerics of the pto-isa CPU simulator.
 *
 * The op meaning lives in tables: which dtypes each op accepts (VecOpInfo), and the row
 * loops of vec_kern.h generated per (op, dtype) by the VEC_*_TABLE X-macros below. Those
 * loops are compiled three times (portable, AVX2, AVX-512) and one set is picked per call;
 * all sets give the same bits. The entry points check the operands once, then walk the
 * valid region row by row: nothing outside dst's valid region is written and nothing
 * outside the sources' valid regions is read.
 */
#include <math.h>
#include <stdlib.h>

#include "internal.h"

/* ---- element models ------------------------------------------------------------------- */

/* The row loops carry their own optimize attributes (VK_OPT), and GCC inlines a helper into
 * them only when the helper is always_inline; so the element helpers are local copies. */
#if defined(__GNUC__)
#define VK_INLINE static inline __attribute__((always_inline))
#else
#define VK_INLINE static inline
#endif

VK_INLINE uint32_t vk_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

VK_INLINE float vk_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* f16 bits -> f32 value, exactly (internal.h's f16_bits_to_f32_bits). */
VK_INLINE float vk_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t em = (uint32_t)(h & 0x7FFFu) << 13;
    uint32_t r = vk_f2u(vk_u2f(em) * 0x1p112f);
    r |= em >= 0x0F800000u ? 0x7F800000u : 0;
    return vk_u2f(r | sign);
}

/* f32 -> f16 bits, RNE, overflow -> Inf, NaN -> quiet NaN (payload kept): the encoder of
 * internal.h written without branches so that the row loops vectorize. */
VK_INLINE uint16_t vk_f32_to_f16(float f)
{
    uint32_t x = vk_f2u(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t a = x & 0x7FFFFFFFu;
    uint32_t nan = 0x7E00u | ((a >> 13) & 0x1FFu);
    uint32_t h = a - (112u << 23);
    h = (h + 0xFFFu + ((h >> 13) & 1u)) >> 13;
    h = h > 0x7C00u ? 0x7C00u : h;
    /* subnormal results: adding 0.5 (ulp 2^-24) rounds |f| to a multiple of 2^-24 */
    uint32_t sub = vk_f2u(vk_u2f(a) + 0.5f) - 0x3F000000u;
    uint32_t r = a >= 0x38800000u ? h : sub;
    r = a > 0x7F800000u ? nan : r;
    return (uint16_t)(sign | r);
}

VK_INLINE uint16_t vk_f32_to_bf16(float f)
{
    uint32_t x = vk_f2u(f);
    uint32_t r = (x + 0x7FFFu + ((x >> 16) & 1u)) >> 16;
    r = (x & 0x7FFFFFFFu) > 0x7F800000u ? (x >> 16) | 0x40u : r;
    return (uint16_t)r;
}

#define LD_F32(x) vk_u2f(x)
#define ST_F32(v) vk_f2u(v)
#define LD_F16(x) vk_f16_to_f32(x)
#define ST_F16(v) vk_f32_to_f16(v)
#define LD_BF16(x) vk_u2f((uint32_t)(x) << 16)
#define ST_BF16(v) vk_f32_to_bf16(v)
#define LD_I(x) ((int32_t)(x))
#define LD_U(x) ((uint32_t)(x))
#define ST_I(v) (v)

/* X(op, dtype, storage type, compute type, kind, LD, ST, sign bit) per dtype group. */
#define VDT_FLOAT(X, op)                                                   \
    X(op, f32, uint32_t, float, F, LD_F32, ST_F32, 0x80000000u)            \
    X(op, f16, uint16_t, float, F, LD_F16, ST_F16, 0x8000u)                \
    X(op, bf16, uint16_t, float, F, LD_BF16, ST_BF16, 0x8000u)
#define VDT_SINT(X, op)                                                    \
    X(op, i32, int32_t, int32_t, I, LD_I, ST_I, 0)                         \
    X(op, i16, int16_t, int32_t, I, LD_I, ST_I, 0)                         \
    X(op, i8, int8_t, int32_t, I, LD_I, ST_I, 0)
#define VDT_UINT(X, op)                                                    \
    X(op, u32, uint32_t, uint32_t, I, LD_U, ST_I, 0)                       \
    X(op, u16, uint16_t, int32_t, I, LD_I, ST_I, 0)                        \
    X(op, u8, uint8_t, int32_t, I, LD_I, ST_I, 0)
#define VDT_ALL(X, op) VDT_FLOAT(X, op) VDT_SINT(X, op) VDT_UINT(X, op)

/* Binary elements: arithmetic computes in the compute type and rounds once (float) or wraps
 * (integers, through unsigned arithmetic); max/min pick one of the stored operands as
 * std::max(a, b) = a < b ? b : a and std::min(a, b) = b < a ? b : a do. */
/* When both operands are NaN, x86 returns the first one (quieted), but which operand comes
 * first in the instruction is the compiler's choice for + and *; NANFIRST makes it the
 * left operand in every kernel set. */
VK_INLINE float vk_nanfirst(float a, float r)
{
    return a != a ? a + a : r;
}
#define ARITH_F(CT, o, a, b) vk_nanfirst(a, (a) o (b))
#define ARITH_I(CT, o, a, b) ((CT)((uint32_t)(a) o (uint32_t)(b)))
/* Integer division truncates toward zero (C's /). The entry points reject a zero divisor
 * before any kernel runs (div_zero); the kernels still give 0 for it so that no copy can
 * trap. x / -1 is the negation, wrapping: INT32_MIN / -1 = INT32_MIN, as the simulator's
 * i16 and i8 (which C promotes to int) give -32768 / -1 = -32768 and -128 / -1 = -128. */
VK_INLINE int32_t vk_idiv(int32_t a, int32_t b)
{
    return b == 0 ? 0 : b == -1 ? (int32_t)(0u - (uint32_t)a) : a / b;
}
VK_INLINE uint32_t vk_udiv(uint32_t a, uint32_t b)
{
    return b == 0 ? 0 : a / b;
}
#define DIV_F(CT, a, b) vk_nanfirst(a, (a) / (b))
#define DIV_I(CT, a, b) _Generic((CT)0, int32_t: vk_idiv, uint32_t: vk_udiv)(a, b)
#define BINEL_add(K, CT, LD, ST, x, y) ST(ARITH_##K(CT, +, LD(x), LD(y)))
#define BINEL_sub(K, CT, LD, ST, x, y) ST(ARITH_##K(CT, -, LD(x), LD(y)))
#define BINEL_mul(K, CT, LD, ST, x, y) ST(ARITH_##K(CT, *, LD(x), LD(y)))
#define BINEL_div(K, CT, LD, ST, x, y) ST(DIV_##K(CT, LD(x), LD(y)))
#define BINEL_max(K, CT, LD, ST, x, y) (LD(x) < LD(y) ? (y) : (x))
#define BINEL_min(K, CT, LD, ST, x, y) (LD(y) < LD(x) ? (y) : (x))
/* pow, as the simulator: floats are (T)(float)pow((double)x, (double)y), the C library's
 * binary64 pow rounded to f32 (and from there to f16 / bf16), except that the NaN cases are
 * fixed here rather than left to the library (glibc drops the sign of some NaN bases):
 * pow(x, +-0) = pow(1, y) = 1, otherwise a NaN operand comes back quiet, the base's first.
 * Integers raise by repeated squaring with wrap-around, x^0 = 1 and 1^y = 1, and a negative
 * exponent gives 0 except for the base -1 (+-1 by the exponent's parity). */
VK_INLINE float vk_pow(float x, float y)
{
    if (y == 0.0f || x == 1.0f)
        return 1.0f;
    if (x != x)
        return x + x;
    if (y != y)
        return y + y;
    return (float)pow((double)x, (double)y);
}
VK_INLINE uint32_t vk_ipow(uint32_t base, int64_t e)
{
    if (e == 0 || base == 1u)
        return 1u;
    if (e < 0)
        return base == 0xFFFFFFFFu ? (e % 2 == 0 ? 1u : 0xFFFFFFFFu) : 0u;
    uint32_t r = 1u;
    for (; e > 0; e >>= 1) {
        if (e & 1)
            r *= base;
        base *= base;
    }
    return r;
}
#define POW_F(CT, LD, ST, x, y) ST(vk_pow(LD(x), LD(y)))
#define POW_I(CT, LD, ST, x, y) vk_ipow((uint32_t)LD(x), (int64_t)LD(y))
#define BINEL_pow(K, CT, LD, ST, x, y) POW_##K(CT, LD, ST, x, y)
/* prelu, as the simulator: x > 0 ? x : x * slope (one rounding; NaN x gives x * slope) */
#define BINEL_prelu(K, CT, LD, ST, x, y) (LD(x) > 0 ? (x) : ST(ARITH_##K(CT, *, LD(x), LD(y))))
/* tlrelu: prelu with one slope (the simulator's OP_LRELU, the slope in the tile's type) */
#define BINEL_lrelu BINEL_prelu
/* fmod and rem, as the simulator: fmod is C's truncated remainder (integer %, binary64 fmod,
 * exact, so one value in any float type); rem (its OP_REM) then adds the divisor when the
 * operands' signs (x >= 0) differ and the remainder is not 0: the floored remainder, the sum
 * rounded once in T. NaN operands come back quiet, the dividend's first; fmod(Inf, y) and
 * fmod(x, 0.0) are the default NaN. The entry points reject a zero integer divisor
 * (div_zero); the kernels give 0 for it and for INT_MIN % -1 (undefined in C). */
VK_INLINE float vk_fmodf(float x, float y)
{
    if (x != x)
        return x + x;
    if (y != y)
        return y + y;
    return (float)fmod((double)x, (double)y);
}
VK_INLINE float vk_remf(float x, float y)
{
    float r = vk_fmodf(x, y);
    return ((x >= 0) != (y >= 0) && r != 0) ? r + y : r;
}
VK_INLINE int32_t vk_imod(int32_t a, int32_t b)
{
    return b == 0 || b == -1 ? 0 : a % b;
}
VK_INLINE int32_t vk_irem(int32_t a, int32_t b)
{
    int32_t r = vk_imod(a, b);
    return ((a >= 0) != (b >= 0) && r != 0) ? r + b : r;
}
VK_INLINE uint32_t vk_umod(uint32_t a, uint32_t b)
{
    return b == 0 ? 0 : a % b;
}
#define FMOD_F(CT, LD, ST, x, y) ST(vk_fmodf(LD(x), LD(y)))
#define FMOD_I(CT, LD, ST, x, y) _Generic((CT)0, int32_t: vk_imod, uint32_t: vk_umod)(LD(x), LD(y))
#define REM_F(CT, LD, ST, x, y) ST(vk_remf(LD(x), LD(y)))
#define REM_I(CT, LD, ST, x, y) _Generic((CT)0, int32_t: vk_irem, uint32_t: vk_umod)(LD(x), LD(y))
#define BINEL_fmod(K, CT, LD, ST, x, y) FMOD_##K(CT, LD, ST, x, y)
#define BINEL_rem(K, CT, LD, ST, x, y) REM_##K(CT, LD, ST, x, y)

/* Unary elements. abs is the simulator's x < 0 ? -x : x, so -0 and NaN (of either sign) pass
 * unchanged; neg of a float flips the sign bit (NaN bits kept); integers wrap
 * (abs(INT_MIN) = INT_MIN). relu is std::max(x, 0): x < 0 ? 0 : x, so NaN and -0
 * pass unchanged. sqrt and recip round once; rsqrt here is the simulator's
 * (DType)(1.0 / sqrt((double)x)): sqrt and the division in fp64, then one more rounding (A2/A3,
 * whose vrsqrt is not documented further; on A5 ptort_vunary runs sqrt, then recip).
 * exp is the simulator's (float)exp((double)x) on f32; on f16 it is half(expf(x)), which
 * this gives too: half((float)exp((double)x)) equals it on every f16 input (test_vec). */
#define NEGI(CT, v) ((CT)(0u - (uint32_t)(v)))
/* x < 0 per compute type; never for u32 (written so that no compare of an unsigned value with
 * 0 is left for the compiler to warn about) */
VK_INLINE int vk_below0_f(float v) { return v < 0; }
VK_INLINE int vk_below0_i(int32_t v) { return v < 0; }
VK_INLINE int vk_below0_u(uint32_t v) { (void)v; return 0; }
#define VK_BELOW0(CT, v) _Generic((CT)0, float: vk_below0_f, int32_t: vk_below0_i, uint32_t: vk_below0_u)(v)
#define ABS_F(CT, LD, ST, SB, TY, x) ((TY)(LD(x) < 0 ? (x) ^ (TY)(SB) : (x)))
#define ABS_I(CT, LD, ST, SB, TY, x) ((TY)(LD(x) < 0 ? NEGI(CT, LD(x)) : LD(x)))
#define NEG_F(CT, LD, ST, SB, TY, x) ((TY)((x) ^ (TY)(SB)))
#define NEG_I(CT, LD, ST, SB, TY, x) ((TY)NEGI(CT, LD(x)))
#define UNEL_abs(K, CT, LD, ST, SB, TY, x) ABS_##K(CT, LD, ST, SB, TY, x)
#define UNEL_neg(K, CT, LD, ST, SB, TY, x) NEG_##K(CT, LD, ST, SB, TY, x)
#define UNEL_relu(K, CT, LD, ST, SB, TY, x) (VK_BELOW0(CT, LD(x)) ? (TY)0 : (x))
#define UNEL_sqrt(K, CT, LD, ST, SB, TY, x) ST(sqrtf(LD(x)))
#define UNEL_recip(K, CT, LD, ST, SB, TY, x) ST(1.0f / LD(x))
#define UNEL_rsqrt(K, CT, LD, ST, SB, TY, x) ST((float)(1.0 / sqrt((double)LD(x))))
#define UNEL_exp(K, CT, LD, ST, SB, TY, x) ST((float)exp((double)LD(x)))
/* log is the simulator's (T)log((double)x), one rounding from binary64 into T: f32 directly,
 * f16 and bf16 through an f32 rounded to odd (which then rounds to the narrow type as the
 * binary64 value would), so never through F16C's f32 loop (VK_ARITH_log 0). */
VK_INLINE float vk_f64_odd(double d)
{
    float f = (float)d;
    uint32_t u = vk_f2u(f);
    if (d == d && (double)f != d && !(u & 1))
        u = fabs((double)f) > fabs(d) ? u - 1 : u + 1;
    return vk_u2f(u);
}
#define UNEL_log(K, CT, LD, ST, SB, TY, x) \
    ST(sizeof(TY) == 4 ? (float)log((double)LD(x)) : vk_f64_odd(log((double)LD(x))))

/* Bitwise elements (integers only): and, or, xor, not on the stored bits; shifts as the
 * simulator's C++ `src0 << src1` / `src0 >> src1` after integer promotion: 8- and 16-bit
 * operands shift as 32-bit ints and are truncated back, left shifts wrap (C++20), right
 * shifts are arithmetic for signed types and logical for unsigned ones. The entry points
 * reject an amount outside [0, 31] (undefined in C++) before any kernel runs
 * (shift_amounts); the kernels mask it so that no copy is undefined. */
#define BINEL_and(K, CT, LD, ST, x, y) ((x) & (y))
#define BINEL_or(K, CT, LD, ST, x, y) ((x) | (y))
#define BINEL_xor(K, CT, LD, ST, x, y) ((x) ^ (y))
#define BINEL_shl(K, CT, LD, ST, x, y) ((uint32_t)LD(x) << ((uint32_t)LD(y) & 31u))
#define BINEL_shr(K, CT, LD, ST, x, y) (LD(x) >> ((uint32_t)LD(y) & 31u))
#define UNEL_not(K, CT, LD, ST, SB, TY, x) ((TY)~(x))
#define VDT_INT(X, op) VDT_SINT(X, op) VDT_UINT(X, op)

#define VEC_BIN_TABLE(X)                                                   \
    VDT_ALL(X, add) VDT_ALL(X, sub) VDT_ALL(X, mul) VDT_ALL(X, div)        \
    VDT_ALL(X, max) VDT_ALL(X, min) VDT_ALL(X, pow)                       \
    VDT_FLOAT(X, prelu) VDT_ALL(X, fmod) VDT_ALL(X, rem) VDT_FLOAT(X, lrelu)
/* the integer-only ops: no F16C path (vec_kern.h's DEF_IBIN / DEF_IUN) */
#define VEC_IBIN_TABLE(X)                                                  \
    VDT_INT(X, and) VDT_INT(X, or) VDT_INT(X, xor) VDT_INT(X, shl)         \
    VDT_INT(X, shr)
#define VEC_IUN_TABLE(X) VDT_INT(X, not)
#define VEC_UN_TABLE(X)                                                    \
    VDT_FLOAT(X, abs) VDT_SINT(X, abs) VDT_FLOAT(X, neg) VDT_SINT(X, neg)  \
    VDT_UINT(X, neg)                                                       \
    VDT_FLOAT(X, relu) VDT_SINT(X, relu) VDT_UINT(X, relu)                 \
    VDT_FLOAT(X, sqrt) VDT_FLOAT(X, recip) VDT_FLOAT(X, rsqrt)               \
    VDT_FLOAT(X, exp) VDT_FLOAT(X, log)

/* Reductions: X(name, source storage type, accumulator type, LD to accumulator, step).
 * Sums of f16/bf16 accumulate in f32 (rows) or as the table says (columns, see vec_col_sum);
 * integer sums wrap. max/min steps are std::max(acc, x) / std::min(acc, x). */
#define ACC_ADDF(a, v) vk_nanfirst(a, (a) + (v))
#define ACC_ADDI(a, v) ((int32_t)((uint32_t)(a) + (uint32_t)(v)))
#define ACC_MAX(a, v) ((a) < (v) ? (v) : (a))
#define ACC_MIN(a, v) ((v) < (a) ? (v) : (a))
/* column sums accumulating in f16 / bf16: every step rounds to the narrow type */
#define ACC_ADD16(a, v) LD_F16(ST_F16(ACC_ADDF(a, v)))
#define ACC_ADDB16(a, v) LD_BF16(ST_BF16(ACC_ADDF(a, v)))
#define RED_GROUP(X, op, ACCF, ACCI)                                       \
    X(op##_f32, uint32_t, float, LD_F32, ACCF)                             \
    X(op##_f16, uint16_t, float, LD_F16, ACCF)                             \
    X(op##_bf16, uint16_t, float, LD_BF16, ACCF)                           \
    X(op##_i32, int32_t, int32_t, LD_I, ACCI)                              \
    X(op##_i16, int16_t, int32_t, LD_I, ACCI)                              \
    X(op##_i8, int8_t, int32_t, LD_I, ACCI)                                \
    X(op##_u8, uint8_t, int32_t, LD_I, ACCI)
#define VEC_RRED_TABLE(X)                                                  \
    RED_GROUP(X, sum, ACC_ADDF, ACC_ADDI) RED_GROUP(X, max, ACC_MAX, ACC_MAX) \
    RED_GROUP(X, min, ACC_MIN, ACC_MIN)
#define VEC_CRED_TABLE(X)                                                  \
    VEC_RRED_TABLE(X)                                                      \
    X(sum16_f16, uint16_t, float, LD_F16, ACC_ADD16)                       \
    X(sum16_bf16, uint16_t, float, LD_BF16, ACC_ADDB16)

/* ---- tcvt elements ---------------------------------------------------------------------- */

/* Rounding to an integral value in fp32 (exact, as the simulator's fp64 rounding of an fp32
 * value is), branch-free: below 2^23 in magnitude adding and subtracting 2^23 rounds to
 * nearest even; truncation goes through int32. Values >= 2^23, Inf and NaN pass. */
VK_INLINE float vk_trunc(float v)
{
    return fabsf(v) < 8388608.0f ? (float)(int32_t)(fabsf(v) < 8388608.0f ? v : 0.0f) : v;
}
VK_INLINE float vk_rint(float v)
{
    float big = v < 0 ? -8388608.0f : 8388608.0f;
    return fabsf(v) < 8388608.0f ? (v + big) - big : v;
}
VK_INLINE float vk_floor(float v)
{
    float t = vk_trunc(v);
    return t > v ? t - 1.0f : t;
}
VK_INLINE float vk_ceil(float v)
{
    float t = vk_trunc(v);
    return t < v ? t + 1.0f : t;
}
VK_INLINE float vk_round(float v)      /* ties away from zero */
{
    float t = vk_trunc(v), d = v - t;
    return d >= 0.5f ? t + 1.0f : d <= -0.5f ? t - 1.0f : t;
}
/* The simulator's float -> int cast as x86 executes it: truncation, and every value outside
 * int32 (and NaN) becomes INT32_MIN; narrower destinations keep the low bits. With
 * saturation the value was clamped before and only +2^31 (the fp32 rounding of INT32_MAX)
 * needs care: it gives INT32_MAX. */
VK_INLINE int32_t vk_f2i(float r, int sat)
{
    int inr = (r >= -2147483648.0f) & (r < 2147483648.0f);
    int32_t i = (int32_t)(inr ? r : 0.0f);
    int32_t bad = (sat & (r >= 2147483648.0f)) ? INT32_MAX : INT32_MIN;
    return inr ? i : bad;
}

/* Saturation bounds [lo, hi] per (source, destination): the intersection of both ranges;
 * NaN saturates to hi (the simulator's clamp(std::min(hi, NaN)) = hi). */
VK_INLINE float vk_clampf(float v, float lo, float hi)
{
    v = v != v ? hi : v;
    v = v < lo ? lo : v;
    return v > hi ? hi : v;
}

#define F16_MAXF 65504.0f
#define BF16_MAXF 3.38953139e38f
#define F32_MAXF 3.40282347e38f

/* float -> int: clamp (sat), round per RM, convert (x86 cast), narrow (DTY keeps low bits). */
#define CV_F2I(LD, DTY, RF, lo, hi, S) (DTY)(vk_f2i(RF((S) ? vk_clampf(LD(x), lo, hi) : LD(x)), S))
#define CVT_F2I_LOOP(STY, DTY, LD, RF, lo, hi, S) \
    for (int64_t i = 0; i < n; i++) { STY x = s[i]; d[i] = CV_F2I(LD, DTY, RF, lo, hi, S); }
/* one loop per rounding mode and saturation setting */
#define CVT_F2I_SWITCH(STY, DTY, LD, lo, hi, S)                                                \
    switch (rm) {                                                                              \
    case PTORT_RM_RINT: CVT_F2I_LOOP(STY, DTY, LD, vk_rint, lo, hi, S) break;                  \
    case PTORT_RM_ROUND: CVT_F2I_LOOP(STY, DTY, LD, vk_round, lo, hi, S) break;                \
    case PTORT_RM_FLOOR: CVT_F2I_LOOP(STY, DTY, LD, vk_floor, lo, hi, S) break;                \
    case PTORT_RM_CEIL: CVT_F2I_LOOP(STY, DTY, LD, vk_ceil, lo, hi, S) break;                  \
    default: /* TRUNC (ptort_tcvt maps NONE and ODD to it): the C cast truncates */            \
        CVT_F2I_LOOP(STY, DTY, LD, vk_trunc, lo, hi, S) break;                                 \
    }
#define CVT_F2I_LOOPS(STY, DTY, LD, lo, hi)                                                    \
    const STY *s = (const STY *)ps;                                                            \
    DTY *d = (DTY *)pd;                                                                        \
    if (sat) {                                                                                 \
        CVT_F2I_SWITCH(STY, DTY, LD, lo, hi, 1)                                                \
    } else {                                                                                   \
        CVT_F2I_SWITCH(STY, DTY, LD, lo, hi, 0)                                                \
    }

/* float -> float and int -> float: one rounding (RNE) whatever RM says, as the simulator's
 * static_cast; saturation clamps to the smaller range first. */
#define CV_F2F(LD, ST, lo, hi, S) ST((S) ? vk_clampf(LD(x), lo, hi) : LD(x))
#define CV_I2F(LD, ST, lo, hi, S) ST((float)LD(x))
/* i32 -> f16: the only int -> float pair whose source range exceeds the destination's, so
 * saturation clamps to +-65504 first; without it 65520 and beyond become Inf. The f32 value
 * is exact below 2^24 and Inf-bound above, so the two roundings are one. */
#define CV_I2FS(LD, ST, lo, hi, S) ST((float)((S) ? vk_clampi(LD(x), lo, hi) : LD(x)))
/* int -> int: wrap-around, or clamp to the intersection of both ranges */
VK_INLINE int64_t vk_clampi(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}
#define CV_I2I(LD, ST, lo, hi, S) ((S) ? vk_clampi(LD(x), lo, hi) : LD(x))
/* the saturating and the plain loop, each with a constant S */
#define CVT_PLAIN_LOOP(STY, DTY, CV, LD, ST, lo, hi)                                           \
    const STY *s = (const STY *)ps;                                                            \
    DTY *d = (DTY *)pd;                                                                        \
    (void)rm;                                                                                  \
    if (sat) {                                                                                 \
        for (int64_t i = 0; i < n; i++) { STY x = s[i]; d[i] = (DTY)CV(LD, ST, lo, hi, 1); }   \
    } else {                                                                                   \
        for (int64_t i = 0; i < n; i++) { STY x = s[i]; d[i] = (DTY)CV(LD, ST, lo, hi, 0); }   \
    }

#define LD_I64(x) ((int64_t)(x))
#define ST_SAME(v) (v)

/* f16 -> f32 quiets a signalling NaN (as F16C and the C conversion do); other values exact */
#define ST_F32Q(v) (vk_f2u(v) | ((v) != (v) ? 0x00400000u : 0u))
/* x86 sets: f16 -> f32 is vcvtph2ps; f16 -> i16/i8/u8 widens blocks and runs the f32 loop,
 * whose saturation bounds are the same */
#define CVT_F16_WIDEN                                                                          \
    if (VK_F16C_SET && !sat) {                                                                 \
        vk_f16c_cvt(NULL, ps, pd, n, 0, rm, 4);                                                \
        return;                                                                                \
    }
#define CVT_F16_VIA_F32(dd, dsize, lo, hi)                                                     \
    if (VK_F16C_SET) {                                                                         \
        if (!vk_f16c_f2i(ps, pd, n, sat, rm, dsize, lo, hi))                                   \
            vk_f16c_cvt(KN(cvt_f32_##dd), ps, pd, n, sat, rm, dsize);                          \
        return;                                                                                \
    }

/* Conversions the f16 paths use internally (not tcvt pairs of their own). */
#define VEC_CVT_INTERNAL(X)                                                                    \
    X(f32, i8, CVT_F2I_LOOPS(uint32_t, int8_t, LD_F32, -128.0f, 127.0f))                      \
    X(f32, u8, CVT_F2I_LOOPS(uint32_t, uint8_t, LD_F32, 0.0f, 255.0f))

/* X(src, dst, body) for every pair tcvt accepts (docs/vector-ops.md, section tcvt). */
#define VEC_CVT_TABLE(X)                                                                       \
    X(f32, f16, CVT_PLAIN_LOOP(uint32_t, uint16_t, CV_F2F, LD_F32, ST_F16, -F16_MAXF, F16_MAXF)) \
    X(f32, bf16, CVT_PLAIN_LOOP(uint32_t, uint16_t, CV_F2F, LD_F32, ST_BF16, -BF16_MAXF, BF16_MAXF)) \
    X(f32, f32, CVT_PLAIN_LOOP(uint32_t, uint32_t, CV_F2F, LD_F32, ST_F32, -F32_MAXF, F32_MAXF)) \
    X(f16, f32, CVT_F16_WIDEN CVT_PLAIN_LOOP(uint16_t, uint32_t, CV_F2F, LD_F16, ST_F32Q, -F16_MAXF, F16_MAXF)) \
    X(bf16, f32, CVT_PLAIN_LOOP(uint16_t, uint32_t, CV_F2F, LD_BF16, ST_F32, -BF16_MAXF, BF16_MAXF)) \
    X(bf16, f16, CVT_PLAIN_LOOP(uint16_t, uint16_t, CV_F2F, LD_BF16, ST_F16, -F16_MAXF, F16_MAXF)) \
    X(f32, i32, CVT_F2I_LOOPS(uint32_t, int32_t, LD_F32, -2147483648.0f, 2147483647.0f))      \
    X(f32, i16, CVT_F2I_LOOPS(uint32_t, int16_t, LD_F32, -32768.0f, 32767.0f))                \
    X(f16, i32, CVT_F2I_LOOPS(uint16_t, int32_t, LD_F16, -F16_MAXF, F16_MAXF))                \
    X(f16, i16, CVT_F16_VIA_F32(i16, 2, -32768.0f, 32767.0f) CVT_F2I_LOOPS(uint16_t, int16_t, LD_F16, -32768.0f, 32767.0f))                \
    X(f16, i8, CVT_F16_VIA_F32(i8, 1, -128.0f, 127.0f) CVT_F2I_LOOPS(uint16_t, int8_t, LD_F16, -128.0f, 127.0f))                      \
    X(f16, u8, CVT_F16_VIA_F32(u8, 1, 0.0f, 255.0f) CVT_F2I_LOOPS(uint16_t, uint8_t, LD_F16, 0.0f, 255.0f))                        \
    X(bf16, i32, CVT_F2I_LOOPS(uint16_t, int32_t, LD_BF16, -2147483648.0f, 2147483647.0f))    \
    X(i32, f32, CVT_PLAIN_LOOP(int32_t, uint32_t, CV_I2F, LD_I, ST_F32, 0, 0))                \
    X(i32, f16, CVT_PLAIN_LOOP(int32_t, uint16_t, CV_I2FS, LD_I64, ST_F16, -65504, 65504))   \
    X(i16, f32, CVT_PLAIN_LOOP(int16_t, uint32_t, CV_I2F, LD_I, ST_F32, 0, 0))                \
    X(i16, f16, CVT_PLAIN_LOOP(int16_t, uint16_t, CV_I2F, LD_I, ST_F16, 0, 0))                \
    X(i8, f16, CVT_PLAIN_LOOP(int8_t, uint16_t, CV_I2F, LD_I, ST_F16, 0, 0))                  \
    X(u8, f16, CVT_PLAIN_LOOP(uint8_t, uint16_t, CV_I2F, LD_I, ST_F16, 0, 0))                 \
    X(i32, i16, CVT_PLAIN_LOOP(int32_t, int16_t, CV_I2I, LD_I64, ST_SAME, -32768, 32767))     \
    X(i32, u16, CVT_PLAIN_LOOP(int32_t, uint16_t, CV_I2I, LD_I64, ST_SAME, 0, 65535))         \
    X(i32, u8, CVT_PLAIN_LOOP(int32_t, uint8_t, CV_I2I, LD_I64, ST_SAME, 0, 255))             \
    X(i16, i32, CVT_PLAIN_LOOP(int16_t, int32_t, CV_I2I, LD_I64, ST_SAME, -32768, 32767))     \
    X(i16, u32, CVT_PLAIN_LOOP(int16_t, uint32_t, CV_I2I, LD_I64, ST_SAME, 0, 32767))         \
    X(i16, u8, CVT_PLAIN_LOOP(int16_t, uint8_t, CV_I2I, LD_I64, ST_SAME, 0, 255))             \
    X(i8, i16, CVT_PLAIN_LOOP(int8_t, int16_t, CV_I2I, LD_I64, ST_SAME, -128, 127))           \
    X(i8, i32, CVT_PLAIN_LOOP(int8_t, int32_t, CV_I2I, LD_I64, ST_SAME, -128, 127))           \
    X(u8, u16, CVT_PLAIN_LOOP(uint8_t, uint16_t, CV_I2I, LD_I64, ST_SAME, 0, 255))            \
    X(u32, u8, CVT_PLAIN_LOOP(uint32_t, uint8_t, CV_I2I, LD_I64, ST_SAME, 0, 255))            \
    X(u32, u16, CVT_PLAIN_LOOP(uint32_t, uint16_t, CV_I2I, LD_I64, ST_SAME, 0, 65535))        \
    X(u32, i16, CVT_PLAIN_LOOP(uint32_t, int16_t, CV_I2I, LD_I64, ST_SAME, 0, 32767))

/* ---- the kernel table type -------------------------------------------------------------- */

typedef void (*BinFn)(const void *a, const void *b, void *d, int64_t n, int scalar);
typedef void (*UnFn)(const void *a, void *d, int64_t n);
typedef void (*CvtFn)(const void *s, void *d, int64_t n, int sat, ptort_rmode rm);

typedef struct {
    BinFn bin[PTORT_NUM_VOPS][PTORT_NUM_DTYPES];
    UnFn un[PTORT_NUM_VOPS][PTORT_NUM_DTYPES];
#define RRED_FIELD(name, STY, AT, LDA, ACC) \
    void (*rred_##name)(const uint8_t *, int64_t, int64_t, int64_t, int, AT, AT *, AT *);
    VEC_RRED_TABLE(RRED_FIELD)
#undef RRED_FIELD
#define CRED_FIELD(name, STY, AT, LDA, ACC) \
    void (*cred_##name)(const uint8_t *, int64_t, int64_t, int64_t, int, AT, AT *);
    VEC_CRED_TABLE(CRED_FIELD)
#undef CRED_FIELD
#define CVT_FIELD(s, d, body) CvtFn cvt_##s##_##d;
    VEC_CVT_INTERNAL(CVT_FIELD)
    VEC_CVT_TABLE(CVT_FIELD)
#undef CVT_FIELD
} VecKernels;

/* dtype indices of the X-macro names */
enum {
    VDT_f32 = PTORT_F32, VDT_f16 = PTORT_F16, VDT_bf16 = PTORT_BF16, VDT_i32 = PTORT_I32,
    VDT_i16 = PTORT_I16, VDT_i8 = PTORT_I8, VDT_u32 = PTORT_U32, VDT_u16 = PTORT_U16,
    VDT_u8 = PTORT_U8
};
enum {
#define PTORT_VOP(id, name) VOP_##name = PTORT_VOP_##id,
#include "ptort_vops.def"
};

/* ---- the three compilations ------------------------------------------------------------- */

#if defined(__GNUC__) && !defined(__clang__)
#define VK_OPT __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define VK_OPT
#endif

/* Which (op, dtype) loops the x86 sets run through F16C blocks (vec_kern.h). */
#define VK_IS_F16_f16 1
#define VK_IS_F16_f32 0
#define VK_IS_F16_bf16 0
#define VK_IS_F16_i32 0
#define VK_IS_F16_i16 0
#define VK_IS_F16_i8 0
#define VK_IS_F16_u32 0
#define VK_IS_F16_u16 0
#define VK_IS_F16_u8 0
#define VK_ARITH_add 1
#define VK_ARITH_sub 1
#define VK_ARITH_mul 1
#define VK_ARITH_div 1
#define VK_ARITH_max 0
#define VK_ARITH_min 0
#define VK_ARITH_abs 0
#define VK_ARITH_neg 0
#define VK_ARITH_relu 0
#define VK_ARITH_sqrt 1
#define VK_ARITH_recip 1
#define VK_ARITH_rsqrt 1
#define VK_ARITH_exp 1
#define VK_ARITH_log 0
#define VK_ARITH_pow 0
#define VK_ARITH_prelu 0
#define VK_ARITH_fmod 0
#define VK_ARITH_rem 0
#define VK_ARITH_lrelu 0

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define VK_F16C __attribute__((target("avx2,f16c")))
#define F16C_BLOCK 512

/* f16 <-> f32 for N elements with F16C; the tail goes through an 8-lane buffer. */
VK_F16C static void vk_widen16(const uint16_t *h, float *f, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(f + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(h + i))));
    if (i < n) {
        uint16_t t[8] = {0};
        float o[8];
        memcpy(t, h + i, (size_t)(n - i) * 2);
        _mm256_storeu_ps(o, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)t)));
        memcpy(f + i, o, (size_t)(n - i) * 4);
    }
}

VK_F16C static void vk_narrow16(const float *f, uint16_t *h, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(void *)(h + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(f + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    if (i < n) {
        float t[8] = {0};
        uint16_t o[8];
        memcpy(t, f + i, (size_t)(n - i) * 4);
        _mm_storeu_si128((__m128i *)(void *)o,
                         _mm256_cvtps_ph(_mm256_loadu_ps(t), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        memcpy(h + i, o, (size_t)(n - i) * 2);
    }
}

typedef void (*UnF32)(const void *, void *, int64_t);

/* f16 add/sub/mul/div, 8 lanes: widen, the f32 operation with ARITH_F's NaN rule (a NaN
 * left operand wins), narrow; the tail (< 8) goes through 8-lane buffers. */
#define DEF_F16C_BIN(op, VOP)                                                                  \
    VK_F16C static inline __m128i vk_f16c8_##op(__m128i ha, __m128i hb)                       \
    {                                                                                          \
        __m256 x = _mm256_cvtph_ps(ha), y = _mm256_cvtph_ps(hb);                               \
        __m256 r = VOP(x, y);                                                                  \
        r = _mm256_blendv_ps(r, _mm256_add_ps(x, x), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));       \
        return _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);              \
    }                                                                                          \
    VK_F16C static void vk_f16c_bin_##op(const void *pa, const void *pb, void *pd, int64_t n, \
                                         int scalar)                                           \
    {                                                                                          \
        const uint16_t *a = pa, *b = pb;                                                       \
        uint16_t *d = pd;                                                                      \
        __m128i hs = _mm_set1_epi16((short)b[0]);                                              \
        int64_t i = 0;                                                                         \
        for (; i + 8 <= n; i += 8) {                                                           \
            __m128i ha = _mm_loadu_si128((const __m128i *)(const void *)(a + i));              \
            __m128i hb = scalar ? hs : _mm_loadu_si128((const __m128i *)(const void *)(b + i)); \
            _mm_storeu_si128((__m128i *)(void *)(d + i), vk_f16c8_##op(ha, hb));               \
        }                                                                                      \
        if (i < n) {                                                                           \
            uint16_t ta[8] = {0}, tb[8] = {0}, td[8];                                          \
            memcpy(ta, a + i, (size_t)(n - i) * 2);                                            \
            if (scalar)                                                                        \
                memcpy(tb, &hs, 16);                                                           \
            else                                                                               \
                memcpy(tb, b + i, (size_t)(n - i) * 2);                                        \
            __m128i r = vk_f16c8_##op(_mm_loadu_si128((const __m128i *)(const void *)ta),      \
                                      _mm_loadu_si128((const __m128i *)(const void *)tb));     \
            _mm_storeu_si128((__m128i *)(void *)td, r);                                        \
            memcpy(d + i, td, (size_t)(n - i) * 2);                                            \
        }                                                                                      \
    }
DEF_F16C_BIN(add, _mm256_add_ps)
DEF_F16C_BIN(sub, _mm256_sub_ps)
DEF_F16C_BIN(mul, _mm256_mul_ps)
DEF_F16C_BIN(div, _mm256_div_ps)
/* never called (max/min select stored operands); named so that every op expands */
#define vk_f16c_bin_max vk_f16c_bin_add
#define vk_f16c_bin_min vk_f16c_bin_add
#define vk_f16c_bin_pow vk_f16c_bin_add
#define vk_f16c_bin_prelu vk_f16c_bin_add
#define vk_f16c_bin_fmod vk_f16c_bin_add
#define vk_f16c_bin_rem vk_f16c_bin_add
#define vk_f16c_bin_lrelu vk_f16c_bin_add

/* An f16 unary op as its f32 loop over widened blocks. */
static void vk_f16c_un(UnF32 f32, const void *pa, void *pd, int64_t n)
{
    _Alignas(32) float A[F16C_BLOCK], D[F16C_BLOCK];
    const uint16_t *a = pa;
    uint16_t *d = pd;
    for (int64_t i = 0; i < n; i += F16C_BLOCK) {
        int64_t m = n - i < F16C_BLOCK ? n - i : F16C_BLOCK;
        vk_widen16(a + i, A, m);
        f32(A, D, m);
        vk_narrow16(D, d + i, m);
    }
}
/* tcvt from f16 through F16C blocks: FN converts f32 -> the destination (DSIZE bytes per
 * element); NULL means the destination is f32 itself. */
static void vk_f16c_cvt(void (*fn)(const void *, void *, int64_t, int, ptort_rmode),
                        const void *ps, void *pd, int64_t n, int sat, ptort_rmode rm, int dsize)
{
    _Alignas(32) float A[F16C_BLOCK];
    const uint16_t *s = ps;
    uint8_t *d = pd;
    if (!fn) {
        vk_widen16(s, pd, n);
        return;
    }
    for (int64_t i = 0; i < n; i += F16C_BLOCK) {
        int64_t m = n - i < F16C_BLOCK ? n - i : F16C_BLOCK;
        vk_widen16(s + i, A, m);
        fn(A, d + i * dsize, m, sat, rm);
    }
}
/* f16 -> i8/u8 (DSIZE 1) or i16 (2) for RINT, FLOOR, CEIL, TRUNC and NONE in one F16C pass:
 * widen, clamp to [LO, HI] with NaN -> HI when saturating, round (vroundps is exact, as
 * vk_rint & co.), vcvttps2dq (out of range and NaN -> INT32_MIN, the x86 cast), then keep the
 * low bytes. Returns 0 (nothing done) for the other modes. */
VK_F16C static inline __m256i vk_f16c_f2i8(const uint16_t *p, int sat, int mode, __m256 lo, __m256 hi)
{
    __m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
    if (sat) {
        x = _mm256_blendv_ps(x, hi, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
        x = _mm256_min_ps(_mm256_max_ps(x, lo), hi);
    }
    switch (mode) {
    case 0: x = _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); break;
    case 1: x = _mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); break;
    case 2: x = _mm256_round_ps(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); break;
    default: break;                    /* truncation is the conversion's own */
    }
    return _mm256_cvttps_epi32(x);
}

VK_F16C static int vk_f16c_f2i(const void *ps, void *pd, int64_t n, int sat, ptort_rmode rm,
                               int dsize, float lo, float hi)
{
    int mode = rm == PTORT_RM_RINT ? 0 : rm == PTORT_RM_FLOOR ? 1 : rm == PTORT_RM_CEIL ? 2
             : rm == PTORT_RM_TRUNC || rm == PTORT_RM_NONE ? 3 : -1;
    if (mode < 0)
        return 0;
    const uint16_t *s = ps;
    uint8_t *d = pd;
    const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
    const __m256i keep = _mm256_set1_epi32(dsize == 1 ? 0xFF : 0xFFFF);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i a = _mm256_and_si256(vk_f16c_f2i8(s + i, sat, mode, vlo, vhi), keep);
        __m256i b = _mm256_and_si256(vk_f16c_f2i8(s + i + 8, sat, mode, vlo, vhi), keep);
        /* packus of values already cut to 8 / 16 bits cannot saturate: it keeps the low bits */
        __m256i w = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
        if (dsize == 2) {
            _mm256_storeu_si256((__m256i *)(void *)(d + 2 * i), w);
        } else {
            __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
            _mm_storeu_si128((__m128i *)(void *)(d + i), bytes);
        }
    }
    if (i < n) {
        uint16_t t[16] = {0};
        uint8_t o[32];
        memcpy(t, s + i, (size_t)(n - i) * 2);
        vk_f16c_f2i(t, o, 16, sat, rm, dsize, lo, hi);
        memcpy(d + i * dsize, o, (size_t)(n - i) * (size_t)dsize);
    }
    return 1;
}
#else
static int vk_f16c_f2i(const void *ps, void *pd, int64_t n, int sat, ptort_rmode rm, int dsize,
                       float lo, float hi)
{
    (void)ps, (void)pd, (void)n, (void)sat, (void)rm, (void)dsize, (void)lo, (void)hi;
    return 0;
}
static void vk_f16c_cvt(void (*fn)(const void *, void *, int64_t, int, ptort_rmode),
                        const void *ps, void *pd, int64_t n, int sat, ptort_rmode rm, int dsize)
{
    (void)fn, (void)ps, (void)pd, (void)n, (void)sat, (void)rm, (void)dsize;
}
/* no F16C outside x86: the hooks are never taken (VK_F16C_SET is 0) */
static void vk_f16c_bin_add(const void *pa, const void *pb, void *pd, int64_t n, int scalar)
{
    (void)pa, (void)pb, (void)pd, (void)n, (void)scalar;
}
static void vk_f16c_un(void (*f32)(const void *, void *, int64_t), const void *pa, void *pd,
                       int64_t n)
{
    (void)f32, (void)pa, (void)pd, (void)n;
}
#define vk_f16c_bin_sub vk_f16c_bin_add
#define vk_f16c_bin_mul vk_f16c_bin_add
#define vk_f16c_bin_div vk_f16c_bin_add
#define vk_f16c_bin_max vk_f16c_bin_add
#define vk_f16c_bin_min vk_f16c_bin_add
#define vk_f16c_bin_pow vk_f16c_bin_add
#define vk_f16c_bin_prelu vk_f16c_bin_add
#define vk_f16c_bin_fmod vk_f16c_bin_add
#define vk_f16c_bin_rem vk_f16c_bin_add
#define vk_f16c_bin_lrelu vk_f16c_bin_add
#endif

#define KSUF _c
#define KATTR VK_OPT
#define VK_F16C_SET 0
#define VK_RBLK(name, p, st, j0, n, ng, acc, jv) ((void)0)
#define RBLK_MAXG 1
#include "vec_kern.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define VK_X86 1
#undef VK_F16C_SET
#define VK_F16C_SET 1

/* Row-reduction blocks for the x86 kernel sets: 8 rows x 8 columns are loaded (widened to
 * 32-bit lanes), transposed in registers so that vector c holds column c of the 8 rows, and
 * the 8 accumulators (one lane per row) take the columns in order -- each row's sequential
 * order is kept. The steps are the ACC_* ones: max(x, acc) / min(x, acc) of x86 return acc
 * unless x is strictly greater / less (NaN x is never taken), as acc < x ? x : acc does. */
#define VK_AVX2 __attribute__((target("avx2,f16c")))
#undef RBLK_MAXG
#define RBLK_MAXG 4

VK_AVX2 static inline void vk_tr8(__m256 v[8])
{
    __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
    __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
    __m256 t4 = _mm256_unpacklo_ps(v[4], v[5]), t5 = _mm256_unpackhi_ps(v[4], v[5]);
    __m256 t6 = _mm256_unpacklo_ps(v[6], v[7]), t7 = _mm256_unpackhi_ps(v[6], v[7]);
    __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    v[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    v[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    v[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    v[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    v[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    v[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    v[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    v[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

/* 8 elements of a row at column j, widened to 32-bit lanes */
#define RB_LD_f32(p, j) _mm256_loadu_ps((const float *)(const void *)(p) + (j))
#define RB_LD_i32(p, j) _mm256_loadu_ps((const float *)(const void *)(p) + (j))
#define RB_LD_f16(p, j) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)((p) + 2 * (j))))
#define RB_LD_bf16(p, j) \
    _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)((p) + 2 * (j)))), 16))
#define RB_LD_i16(p, j) \
    _mm256_castsi256_ps(_mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(const void *)((p) + 2 * (j)))))
#define RB_LD_i8(p, j) \
    _mm256_castsi256_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)((p) + (j)))))
#define RB_LD_u8(p, j) \
    _mm256_castsi256_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)((p) + (j)))))
#define RB_I(f, a, x) _mm256_castsi256_ps(f(_mm256_castps_si256(a), _mm256_castps_si256(x)))
#define RB_sum_F(a, x) \
    _mm256_blendv_ps(_mm256_add_ps(a, x), _mm256_add_ps(a, a), _mm256_cmp_ps(a, a, _CMP_UNORD_Q))
#define RB_max_F(a, x) _mm256_max_ps(x, a)
#define RB_min_F(a, x) _mm256_min_ps(x, a)
#define RB_sum_I(a, x) RB_I(_mm256_add_epi32, a, x)
#define RB_max_I(a, x) RB_I(_mm256_max_epi32, a, x)
#define RB_min_I(a, x) RB_I(_mm256_min_epi32, a, x)

/* Runs columns j0 .. j0 + 8k of NG groups of 8 rows (row stride ST bytes) into ACCIO (NG x 8
 * lanes of 32 bits); returns the first column left for the scalar tail. The groups are
 * independent chains, so the CPU overlaps their steps. */
#define DEF_RBLK(op, dt, K)                                                                    \
    VK_AVX2 static int64_t rblk_##op##_##dt(const uint8_t *p, int64_t st, int64_t j0,          \
                                            int64_t n, int ng, void *accio)                    \
    {                                                                                          \
        __m256 acc[RBLK_MAXG];                                                                 \
        for (int g = 0; g < ng; g++)                                                           \
            acc[g] = _mm256_loadu_ps((const float *)accio + 8 * g);                            \
        int64_t j = j0;                                                                        \
        for (; j + 8 <= n; j += 8) {                                                           \
            for (int g = 0; g < ng; g++) {                                                     \
                const uint8_t *q = p + 8 * g * st;                                             \
                __m256 v[8] = {RB_LD_##dt(q, j), RB_LD_##dt(q + st, j),                        \
                               RB_LD_##dt(q + 2 * st, j), RB_LD_##dt(q + 3 * st, j),           \
                               RB_LD_##dt(q + 4 * st, j), RB_LD_##dt(q + 5 * st, j),           \
                               RB_LD_##dt(q + 6 * st, j), RB_LD_##dt(q + 7 * st, j)};          \
                vk_tr8(v);                                                                     \
                /* written out: GCC -O2 keeps short loops and the vectors in memory */          \
                __m256 a = acc[g];                                                             \
                a = RB_##op##_##K(a, v[0]);                                                    \
                a = RB_##op##_##K(a, v[1]);                                                    \
                a = RB_##op##_##K(a, v[2]);                                                    \
                a = RB_##op##_##K(a, v[3]);                                                    \
                a = RB_##op##_##K(a, v[4]);                                                    \
                a = RB_##op##_##K(a, v[5]);                                                    \
                a = RB_##op##_##K(a, v[6]);                                                    \
                a = RB_##op##_##K(a, v[7]);                                                    \
                acc[g] = a;                                                                    \
            }                                                                                  \
        }                                                                                      \
        for (int g = 0; g < ng; g++)                                                           \
            _mm256_storeu_ps((float *)accio + 8 * g, acc[g]);                                  \
        return j;                                                                              \
    }
#define RBLK_GROUP(X, op) X(op, f32, F) X(op, f16, F) X(op, bf16, F) X(op, i32, I) \
    X(op, i16, I) X(op, i8, I) X(op, u8, I)
RBLK_GROUP(DEF_RBLK, sum)
RBLK_GROUP(DEF_RBLK, max)
RBLK_GROUP(DEF_RBLK, min)

#undef VK_RBLK
#define VK_RBLK(name, p, st, j0, n, ng, acc, jv) ((jv) = rblk_##name(p, st, j0, n, ng, acc))
#define KSUF _avx2
#define KATTR VK_OPT __attribute__((target("avx2,f16c")))
#include "vec_kern.h"
#define KSUF _avx512
#define KATTR VK_OPT __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,f16c,prefer-vector-width=512")))
#include "vec_kern.h"
#endif

static const VecKernels *kernels(void)
{
#if defined(VK_X86)
    if (ptort_use_avx512())
        return &kernels_avx512;
    if (ptort_use_avx2())
        return &kernels_avx2;
#endif
    return &kernels_c;
}

/* The elementwise kernel of (OP, DT): the hand-written AVX-512 one where there is one. */
static BinFn bin_kernel(ptort_vop op, ptort_dtype dt)
{
    BinFn f = ptort_vecz_bin(op, dt);
    return f ? f : kernels()->bin[op][dt];
}

static UnFn un_kernel(ptort_vop op, ptort_dtype dt)
{
    UnFn f = ptort_vecz_un(op, dt);
    return f ? f : kernels()->un[op][dt];
}

/* ---- the op tables ------------------------------------------------------------------------ */

#define DM(dt) (1u << (dt))
#define M_FLOAT (DM(PTORT_F32) | DM(PTORT_F16) | DM(PTORT_BF16))
#define M_A2 (M_FLOAT | DM(PTORT_I32) | DM(PTORT_I16))
#define M_I8 (DM(PTORT_I8) | DM(PTORT_U8))
#define M_U (DM(PTORT_U32) | DM(PTORT_U16))
#define M_ALL (M_A2 | M_I8 | M_U)

/* The entry points of ptort_vops.def's rows. */
enum { VE_vbinary, VE_vscalar, VE_vunary, VE_vrowreduce, VE_vcolreduce, VE_vrowexpand, VE_vcolexpand,
       VE_vrowarg, VE_vcolarg /* the arg reductions (rearr.c) */,
       VE_vternary, VE_vternarys /* taddc tsubc, taddsc tsubsc */, VE_vaxpy };

/* One (entry point, op code) of ptort_vops.def: its name in the PTO text, the dtypes it
 * accepts on every arch and the ones it accepts on a5 only. */
typedef struct {
    int entry;
    ptort_vop op;
    const char *name;
    unsigned dtypes, a5_dtypes;
} VecOpInfo;

static const VecOpInfo vec_ops[] = {
#define PTORT_VK(entry, id, name, dtypes, a5) {VE_##entry, PTORT_VOP_##id, name, dtypes, a5},
#include "ptort_vops.def"
};

/* ---- operand checks ----------------------------------------------------------------------- */

static ptort_status check_dtype(ptort_ctx *ctx, const VecOpInfo *info, const char *role,
                                const ptort_tile *t)
{
    unsigned m = DM(t->dtype);
    if (info->dtypes & m)
        return PTORT_OK;
    if ((info->a5_dtypes & m) && ctx->arch == PTORT_A5)
        return PTORT_OK;
    if (info->a5_dtypes & m)
        return ptort_fail(ctx, PTORT_E_ARCH, "%s: element type %s of %s needs arch a5", info->name,
                          ptort_dtype_name(t->dtype), role);
    return ptort_fail(ctx, PTORT_E_DTYPE, "%s: %s element type %s is not supported", info->name,
                      role, ptort_dtype_name(t->dtype));
}

/* Descriptor, vec space and (when ROW_MAJOR) the row-major none_box layout of one operand. */
static ptort_status check_op(ptort_ctx *ctx, const char *op, const char *role,
                             const ptort_tile *t, int row_major)
{
    if (!t)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: %s operand is missing", op, role);
    ptort_status st = ptort_check_operand(ctx, op, role, t);
    if (st)
        return st;
    if (t->loc != PTORT_VEC)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects %s to be in the vec address space, but got %s",
                          op, role, ptort_loc_name(t->loc));
    if (row_major ? !tile_is_row_major(t) : t->slayout != PTORT_SL_NONE_BOX)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects %s to use %s layout, but got %s", op,
                          role, row_major ? "row-major" : "none_box", ptort_layout_name(t));
    return PTORT_OK;
}

static ptort_status same_dtype(ptort_ctx *ctx, const char *op, const char *role,
                               const ptort_tile *t, const ptort_tile *dst)
{
    if (t->dtype != dst->dtype)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects %s and dst to have the same element type, but got %s vs %s",
                          op, role, ptort_dtype_name(t->dtype), ptort_dtype_name(dst->dtype));
    return PTORT_OK;
}

static ptort_status same_valid(ptort_ctx *ctx, const char *op, const char *role,
                               const ptort_tile *t, const ptort_tile *dst)
{
    if (t->valid_rows != dst->valid_rows || t->valid_cols != dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects %s and dst to have the same valid_shape, but got [%lld, %lld] vs [%lld, %lld]",
                          op, role, (long long)t->valid_rows, (long long)t->valid_cols,
                          (long long)dst->valid_rows, (long long)dst->valid_cols);
    return PTORT_OK;
}

/* The row of (ENTRY, OP); NULL if the entry point does not compute OP. */
static const VecOpInfo *op_info(int entry, ptort_vop op)
{
    for (size_t i = 0; i < sizeof vec_ops / sizeof vec_ops[0]; i++)
        if (vec_ops[i].entry == entry && vec_ops[i].op == op)
            return &vec_ops[i];
    return NULL;
}

/* Byte address of row R of a checked row-major tile. */
static inline uint8_t *row_ptr(ptort_ctx *ctx, const ptort_tile *t, int64_t r)
{
    return tile_base(ctx, t) + r * tile_row_stride(t) * ptort_dtype_size(t->dtype);
}

/* Whether rows R0..R0+N of tiles are one contiguous run (row stride == valid cols). */
static int dense(const ptort_tile *t)
{
    return tile_row_stride(t) == t->valid_cols || t->valid_rows == 1;
}

/* Integer division: a zero divisor among the ROWS x COLS elements of T that the op reads
 * (the simulator's C division is undefined there and traps on x86) fails with PTORT_E_UB
 * before anything is written. Float dtypes divide by zero as IEEE 754 says. */
static int is_float_dt(ptort_dtype dt)
{
    return (M_FLOAT >> dt) & 1u;
}

static ptort_status div_zero(ptort_ctx *ctx, const char *op, const char *role, const ptort_tile *t,
                             int64_t rows, int64_t cols)
{
    if (is_float_dt(t->dtype))
        return PTORT_OK;
    Layout l;
    layout_of(t, &l);
    const uint8_t *base = tile_base(ctx, t);
    int esz = ptort_dtype_size(t->dtype);
    for (int64_t r = 0; r < rows; r++) {
        int64_t ro = layout_row_off(&l, r);
        for (int64_t c = 0; c < cols; c++)
            if (load_elem(base, esz, ro + layout_col_off(&l, c)) == 0)
                return ptort_fail(ctx, PTORT_E_UB, "%s: division by zero (%s element [%lld, %lld] is 0)",
                                  op, role, (long long)r, (long long)c);
    }
    return PTORT_OK;
}

/* Shifts: an amount outside [0, 31] among the ROWS x COLS elements of T (or the scalar S
 * when T is NULL) fails with PTORT_E_UB before anything is written: the simulator's C++
 * shift of the promoted operand is undefined there (docs/vector-ops.md). */
static int64_t shift_value(ptort_dtype dt, uint32_t bits)
{
    int is_signed = dt == PTORT_I32 || dt == PTORT_I16 || dt == PTORT_I8;
    return is_signed ? ptort_sext(bits, 8u * (unsigned)ptort_dtype_size(dt)) : (int64_t)bits;
}

static int shift_bad(ptort_dtype dt, uint32_t bits)
{
    int64_t v = shift_value(dt, bits);
    return v < 0 || v > 31;
}

static ptort_status shift_amounts(ptort_ctx *ctx, const char *op, const ptort_tile *t, const uint8_t *s,
                                  ptort_dtype dt, int64_t rows, int64_t cols)
{
    int esz = ptort_dtype_size(dt);
    if (!t) {
        uint32_t bits = (uint32_t)load_elem(s, esz, 0);
        if (shift_bad(dt, bits))
            return ptort_fail(ctx, PTORT_E_UB, "%s: shift amount %lld is outside [0, 31]", op,
                              (long long)shift_value(dt, bits));
        return PTORT_OK;
    }
    Layout l;
    layout_of(t, &l);
    const uint8_t *base = tile_base(ctx, t);
    for (int64_t r = 0; r < rows; r++) {
        int64_t ro = layout_row_off(&l, r);
        for (int64_t c = 0; c < cols; c++) {
            uint32_t bits = (uint32_t)load_elem(base, esz, ro + layout_col_off(&l, c));
            if (shift_bad(dt, bits))
                return ptort_fail(ctx, PTORT_E_UB, "%s: shift amount %lld (src1 element [%lld, %lld]) is outside [0, 31]",
                                  op, (long long)shift_value(dt, bits), (long long)r, (long long)c);
        }
    }
    return PTORT_OK;
}

/* ---- --numerics=sim: the CPU simulator's NaN choices (docs/numerics.md 9) -------------------- */

/* A float element's bits: NaN, and its quiet bit. */
static int nan_bits(ptort_dtype dt, uint32_t u)
{
    return dt == PTORT_F32 ? (u & 0x7FFFFFFFu) > 0x7F800000u
         : dt == PTORT_F16 ? (u & 0x7FFFu) > 0x7C00u : (u & 0x7FFFu) > 0x7F80u;
}
static uint32_t quiet_bit(ptort_dtype dt)
{
    return dt == PTORT_F32 ? 0x00400000u : dt == PTORT_F16 ? 0x0200u : 0x0040u;
}

/* tadd/tmul and tadds/tmuls of two NaNs: the simulator's `src0 + src1` (`src + scalar`), as
 * GCC compiles it for x86-64, returns the second operand's NaN, quieted, where the hardware
 * rule of ptoas returns the first's. B is a tile, or BS one element. */
static void sim_two_nan(ptort_ctx *ctx, const ptort_tile *a, const ptort_tile *b, const uint8_t *bs,
                        const ptort_tile *d)
{
    ptort_dtype dt = d->dtype;
    int esz = ptort_dtype_size(dt);
    for (int64_t r = 0; r < d->valid_rows; r++) {
        const uint8_t *pa = row_ptr(ctx, a, r), *pb = b ? row_ptr(ctx, b, r) : bs;
        uint8_t *pd = row_ptr(ctx, d, r);
        for (int64_t c = 0; c < d->valid_cols; c++) {
            uint32_t y = load_elem(pb, esz, b ? c : 0);
            if (nan_bits(dt, load_elem(pa, esz, c)) && nan_bits(dt, y))
                store_elem(pd, esz, c, y | quiet_bit(dt));
        }
    }
}

/* The same for the broadcasts (trowexpandadd/mul, tcolexpandadd/mul), whose simulator loops
 * call the same `src0 + src1`: dst[r][c] = op(src0[r][c % vc0], src1[R][c % vc1]), R = r, or
 * 0 for the column broadcasts (S1_ROW0). */
static void sim_two_nan_bcast(ptort_ctx *ctx, const ptort_tile *s0, const ptort_tile *s1, const ptort_tile *d,
                              int s1_row0)
{
    ptort_dtype dt = d->dtype;
    int esz = ptort_dtype_size(dt);
    Layout l0, l1;
    layout_of(s0, &l0);
    layout_of(s1, &l1);
    const uint8_t *b0 = tile_base(ctx, s0), *b1 = tile_base(ctx, s1);
    for (int64_t r = 0; r < d->valid_rows; r++) {
        int64_t o0 = layout_row_off(&l0, r), o1 = layout_row_off(&l1, s1_row0 ? 0 : r);
        uint8_t *pd = row_ptr(ctx, d, r);
        for (int64_t c = 0; c < d->valid_cols; c++) {
            uint32_t x = load_elem(b0, esz, o0 + layout_col_off(&l0, c % s0->valid_cols));
            uint32_t y = load_elem(b1, esz, o1 + layout_col_off(&l1, c % s1->valid_cols));
            if (nan_bits(dt, x) && nan_bits(dt, y))
                store_elem(pd, esz, c, y | quiet_bit(dt));
        }
    }
}

/* f16 tneg: the simulator's `-x` on _Float16 goes through f32 on x86-64, which quiets a
 * signalling NaN (0x7C01 -> 0xFE01); the hardware rule flips the sign bit only (0xFC01). */
static void sim_neg_f16(ptort_ctx *ctx, const ptort_tile *d)
{
    for (int64_t r = 0; r < d->valid_rows; r++) {
        uint8_t *pd = row_ptr(ctx, d, r);
        for (int64_t c = 0; c < d->valid_cols; c++) {
            uint32_t v = load_elem(pd, 2, c);
            if (nan_bits(PTORT_F16, v))
                store_elem(pd, 2, c, v | 0x0200u);
        }
    }
}

/* ---- elementwise ---------------------------------------------------------------------------- */

/* Runs KERNEL over the valid region of DST, row by row, or as one run when every operand is
 * dense. B may be NULL (unary) or a scalar (B_SCALAR). */
static void run_rows(ptort_ctx *ctx, const ptort_tile *a, const ptort_tile *b, const void *bs,
                     const ptort_tile *d, BinFn bin, UnFn un)
{
    int64_t rows = d->valid_rows, cols = d->valid_cols;
    if (rows == 0 || cols == 0)
        return;
    if (dense(a) && dense(d) && (!b || dense(b))) {
        cols *= rows;
        rows = 1;
    }
    for (int64_t r = 0; r < rows; r++) {
        const void *pa = row_ptr(ctx, a, r);
        void *pd = row_ptr(ctx, d, r);
        if (un)
            un(pa, pd, cols);
        else if (b)
            bin(pa, row_ptr(ctx, b, r), pd, cols, 0);
        else
            bin(pa, bs, pd, cols, 1);
    }
}

ptort_status ptort_vbinary(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0,
                           const ptort_tile *src1, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vbinary, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "elementwise op %d is not a binary op", (int)op);
    ptort_status st;
    if ((st = check_op(ctx, info->name, "src0", src0, 1)) ||
        (st = check_op(ctx, info->name, "src1", src1, 1)) ||
        (st = check_op(ctx, info->name, "dst", dst, 1)) ||
        (st = check_dtype(ctx, info, "dst", dst)) ||
        (st = same_dtype(ctx, info->name, "src0", src0, dst)) ||
        (st = same_dtype(ctx, info->name, "src1", src1, dst)) ||
        (st = same_valid(ctx, info->name, "src0", src0, dst)) ||
        (st = same_valid(ctx, info->name, "src1", src1, dst)) ||
        ((op == PTORT_VOP_DIV || op == PTORT_VOP_REM || op == PTORT_VOP_FMOD) &&
         (st = div_zero(ctx, info->name, "src1", src1, dst->valid_rows, dst->valid_cols))) ||
        ((op == PTORT_VOP_SHL || op == PTORT_VOP_SHR) &&
         (st = shift_amounts(ctx, info->name, src1, NULL, dst->dtype, dst->valid_rows, dst->valid_cols))))
        return st;
    run_rows(ctx, src0, src1, NULL, dst, bin_kernel(op, dst->dtype), NULL);
    if (ctx->numerics == PTORT_NUMERICS_SIM && is_float_dt(dst->dtype) &&
        (op == PTORT_VOP_ADD || op == PTORT_VOP_MUL))
        sim_two_nan(ctx, src0, src1, NULL, dst);
    return PTORT_OK;
}

/* TRSQRT as vsqrt, then vdiv(1, root), each rounded in the element type (docs/numerics.md
 * 8.2): tsqrt's kernel into dst, then trecip's in place. */
static ptort_status rsqrt_div(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst)
{
    run_rows(ctx, src, NULL, NULL, dst, NULL, un_kernel(PTORT_VOP_SQRT, dst->dtype));
    run_rows(ctx, dst, NULL, NULL, dst, NULL, un_kernel(PTORT_VOP_RECIP, dst->dtype));
    return PTORT_OK;
}

ptort_status ptort_vunary(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src,
                          const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vunary, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "elementwise op %d is not a unary op", (int)op);
    ptort_status st;
    if ((st = check_op(ctx, info->name, "src", src, 1)) ||
        (st = check_op(ctx, info->name, "dst", dst, 1)) ||
        (st = check_dtype(ctx, info, "dst", dst)) ||
        (st = same_dtype(ctx, info->name, "src", src, dst)) ||
        (st = same_valid(ctx, info->name, "src", src, dst)))
        return st;
    if (op == PTORT_VOP_RSQRT && ctx->arch == PTORT_A5 && ctx->numerics == PTORT_NUMERICS_HW)
        return rsqrt_div(ctx, src, dst);
    run_rows(ctx, src, NULL, NULL, dst, NULL, un_kernel(op, dst->dtype));
    if (ctx->numerics == PTORT_NUMERICS_SIM && op == PTORT_VOP_NEG && dst->dtype == PTORT_F16)
        sim_neg_f16(ctx, dst);
    return PTORT_OK;
}

/* A unary op with its tmp operand (NULL when absent): only trsqrt reads it. A2/A3's
 * TRSQRT_IMPL(dst, src, tmp) is TRsqrtHighPrecision: vector_dup fills tmp's first 32 bytes
 * with T(1.0), then vsqrt(dst, src) and vdiv(dst, tmp, dst) (pto-isa npu/a2a3 TUnaryOp.hpp),
 * so A5's rule with those bytes written to tmp first. A5's tmp form is its plain TRSQRT;
 * without tmp, for other ops and in --numerics=sim, ptort_vunary. */
ptort_status ptort_vunary_tmp(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src,
                              const ptort_tile *tmp, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    if (op != PTORT_VOP_RSQRT || !tmp || ctx->arch == PTORT_A5 || ctx->numerics == PTORT_NUMERICS_SIM)
        return ptort_vunary(ctx, op, src, dst);
    const VecOpInfo *info = op_info(VE_vunary, PTORT_VOP_RSQRT);
    ptort_status st;
    if ((st = check_op(ctx, info->name, "src", src, 1)) ||
        (st = check_op(ctx, info->name, "dst", dst, 1)) ||
        (st = check_dtype(ctx, info, "dst", dst)) ||
        (st = same_dtype(ctx, info->name, "src", src, dst)) ||
        (st = same_valid(ctx, info->name, "src", src, dst)) ||
        (st = ptort_check_operand(ctx, info->name, "tmp", tmp)))
        return st;
    int esz = ptort_dtype_size(dst->dtype);
    if (tmp->loc != PTORT_VEC || tmp->rows * tmp->cols * ptort_dtype_size(tmp->dtype) < 32)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects tmp to be a vec tile of at least 32 bytes", info->name);
    uint8_t *t = tile_base(ctx, tmp);
    for (int k = 0; k < 32; k += esz)
        store_elem(t, esz, k / esz, esz == 4 ? 0x3F800000u : 0x3C00u);
    return rsqrt_div(ctx, src, dst);
}

/* The scalar's raw bits as one element of DT (low 1, 2 or 4 bytes). */
static void scalar_elem(ptort_dtype dt, uint32_t bits, uint8_t out[4])
{
    store_elem(out, ptort_dtype_size(dt), 0, bits);
}

ptort_status ptort_vscalar(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src, uint32_t scalar,
                           const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vscalar, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "elementwise op %d is not a tile-scalar op", (int)op);
    ptort_status st;
    if ((st = check_op(ctx, info->name, "src", src, 1)) ||
        (st = check_op(ctx, info->name, "dst", dst, 1)) ||
        (st = check_dtype(ctx, info, "dst", dst)) ||
        (st = same_dtype(ctx, info->name, "src", src, dst)) ||
        (st = same_valid(ctx, info->name, "src", src, dst)))
        return st;
    _Alignas(4) uint8_t s[4];
    scalar_elem(dst->dtype, scalar, s);
    if ((op == PTORT_VOP_DIV || op == PTORT_VOP_REM || op == PTORT_VOP_FMOD) && !is_float_dt(dst->dtype) &&
        load_elem(s, ptort_dtype_size(dst->dtype), 0) == 0)
        return ptort_fail(ctx, PTORT_E_UB, "%s: division by zero (the scalar is 0)", info->name);
    if ((op == PTORT_VOP_SHL || op == PTORT_VOP_SHR) &&
        (st = shift_amounts(ctx, info->name, NULL, s, dst->dtype, 0, 0)))
        return st;
    run_rows(ctx, src, NULL, s, dst, bin_kernel(op, dst->dtype), NULL);
    if (ctx->numerics == PTORT_NUMERICS_SIM && is_float_dt(dst->dtype) &&
        (op == PTORT_VOP_ADD || op == PTORT_VOP_MUL))
        sim_two_nan(ctx, src, NULL, s, dst);
    return PTORT_OK;
}

/* ---- taddc tsubc taddsc tsubsc ---------------------------------------------------------- */

/* The simulator's `x + y` of two NaNs on x86-64 (sim_two_nan): the second, quieted. X is N
 * elements; Y N elements, or one (Y_SCALAR); D gets the fixes. */
static void sim_nan_row(ptort_dtype dt, const uint8_t *x, const uint8_t *y, int y_scalar, uint8_t *d, int64_t n)
{
    int esz = ptort_dtype_size(dt);
    for (int64_t i = 0; i < n; i++) {
        uint32_t a = load_elem(x, esz, i), b = load_elem(y, esz, y_scalar ? 0 : i);
        if (nan_bits(dt, a) && nan_bits(dt, b))
            store_elem(d, esz, i, b | quiet_bit(dt));
    }
}

/* dst = (a OP b) + c over dst's valid region, B a tile or (B NULL) the element BS: the first
 * step into a row buffer, then tadd's kernel from it and c into a second one copied to dst,
 * so each step rounds in the element type as two chained tadd/tsub would and dst may be any
 * of the sources. */
static ptort_status run_ternary(ptort_ctx *ctx, const VecOpInfo *info, const ptort_tile *a, const ptort_tile *b,
                                const uint8_t *bs, const ptort_tile *c, const ptort_tile *d)
{
    ptort_dtype dt = d->dtype;
    BinFn first = bin_kernel(info->op, dt), add = bin_kernel(PTORT_VOP_ADD, dt);
    if (!first || !add)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: element type %s is not supported", info->name,
                          ptort_dtype_name(dt));
    int64_t rows = d->valid_rows, cols = d->valid_cols;
    if (rows == 0 || cols == 0)
        return PTORT_OK;
    size_t bytes = (size_t)cols * (size_t)ptort_dtype_size(dt);
    uint8_t *t = malloc(2 * bytes + 64);
    if (!t)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: out of memory", info->name);
    uint8_t *u = t + bytes + 32;
    int sim = ctx->numerics == PTORT_NUMERICS_SIM && is_float_dt(dt);
    for (int64_t r = 0; r < rows; r++) {
        const uint8_t *pa = row_ptr(ctx, a, r), *pb = b ? row_ptr(ctx, b, r) : bs, *pc = row_ptr(ctx, c, r);
        first(pa, pb, t, cols, !b);
        if (sim && info->op == PTORT_VOP_ADD)
            sim_nan_row(dt, pa, pb, !b, t, cols);
        add(t, pc, u, cols, 0);
        if (sim)
            sim_nan_row(dt, t, pc, 0, u, cols);
        memcpy(row_ptr(ctx, d, r), u, bytes);
    }
    free(t);
    return PTORT_OK;
}

static ptort_status ternary_checks(ptort_ctx *ctx, const VecOpInfo *info, const char *const names[3],
                                   const ptort_tile *const srcs[3], const ptort_tile *dst)
{
    ptort_status st;
    if ((st = check_op(ctx, info->name, "dst", dst, 1)) || (st = check_dtype(ctx, info, "dst", dst)))
        return st;
    for (int i = 0; i < 3; i++)
        if (names[i] && ((st = check_op(ctx, info->name, names[i], srcs[i], 1)) ||
                         (st = same_dtype(ctx, info->name, names[i], srcs[i], dst)) ||
                         (st = same_valid(ctx, info->name, names[i], srcs[i], dst))))
            return st;
    return PTORT_OK;
}

ptort_status ptort_vternary(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0, const ptort_tile *src1,
                            const ptort_tile *src2, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vternary, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "elementwise op %d is not a ternary op", (int)op);
    static const char *const names[3] = {"src0", "src1", "src2"};
    const ptort_tile *const srcs[3] = {src0, src1, src2};
    ptort_status st = ternary_checks(ctx, info, names, srcs, dst);
    return st ? st : run_ternary(ctx, info, src0, src1, NULL, src2, dst);
}

ptort_status ptort_vternarys(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0, uint32_t scalar,
                             const ptort_tile *src1, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vternarys, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "elementwise op %d is not a tile-scalar-tile op", (int)op);
    static const char *const names[3] = {"src0", NULL, "src1"};
    const ptort_tile *const srcs[3] = {src0, NULL, src1};
    ptort_status st = ternary_checks(ctx, info, names, srcs, dst);
    if (st)
        return st;
    _Alignas(4) uint8_t s[4];
    scalar_elem(dst->dtype, scalar, s);
    return run_ternary(ctx, info, src0, NULL, s, src1, dst);
}

/* ---- taxpy ---------------------------------------------------------------------------------- */

/* A float element's bits as a double (exact), and its class. */
static double axpy_val(ptort_dtype dt, uint32_t b)
{
    uint32_t f = dt == PTORT_F32 ? b : dt == PTORT_F16 ? f16_bits_to_f32_bits((uint16_t)b) : b << 16;
    return (double)u2f(f);
}

/* The exact value X rounded once to DT (RNE, overflow to Inf, subnormals kept), from S, X
 * rounded to double, and E = X - S exactly: round to odd first (S with its last bit set when
 * E is not 0; 53 bits, more than f32's 24 + 2, so the second rounding is innocuous), then to
 * f32 the same way for the 16-bit types, then RNE. */
static uint32_t axpy_round(ptort_dtype dt, double s, double e)
{
    if (e != 0) {
        uint64_t u;
        memcpy(&u, &s, 8);
        if (!(u & 1))
            s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
    }
    float f = (float)s;
    if (dt == PTORT_F32)
        return f2u(f);
    if (isfinite(f) && (double)f != s) {
        uint32_t b = f2u(f);
        if (!(b & 1))
            f = nextafterf(f, (double)f < s ? INFINITY : -INFINITY);
    }
    return dt == PTORT_F16 ? f32_to_f16_bits(f) : f32_to_bf16_bits(f);
}

/* One element of the hardware's fused a * x + y in DT: a NaN operand gives that NaN quieted,
 * the first of a, x, y; Inf * 0 and Inf - Inf the default NaN (docs/numerics.md 12). X is
 * already in DT (the f16 source widened). */
static uint32_t axpy_hw(ptort_dtype dt, uint32_t a, uint32_t x, uint32_t y)
{
    static const uint32_t dnan[] = {[PTORT_F32] = 0xFFC00000u, [PTORT_F16] = 0xFE00u, [PTORT_BF16] = 0xFFC0u};
    if (nan_bits(dt, a))
        return a | quiet_bit(dt);
    if (nan_bits(dt, x))
        return x | quiet_bit(dt);
    if (nan_bits(dt, y))
        return y | quiet_bit(dt);
    double va = axpy_val(dt, a), vx = axpy_val(dt, x), vy = axpy_val(dt, y);
    if ((isinf(va) && vx == 0) || (isinf(vx) && va == 0))
        return dnan[dt];
    double p = va * vx; /* exact: at most 48 significant bits, no overflow or underflow */
    if (isinf(p) && isinf(vy) && (p > 0) != (vy > 0))
        return dnan[dt];
    if (isinf(p) || isinf(vy))
        return axpy_round(dt, p + vy, 0);
    double s = p + vy, bp = s - vy, by = s - bp; /* TwoSum: e = p + vy - s exactly */
    double e = (p - bp) + (vy - by);
    return axpy_round(dt, s, e);
}

ptort_status ptort_vaxpy(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src, uint32_t scalar,
                         const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vaxpy, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "elementwise op %d is not taxpy's", (int)op);
    ptort_status st;
    if ((st = check_op(ctx, info->name, "src", src, 1)) || (st = check_op(ctx, info->name, "dst", dst, 1)) ||
        (st = check_dtype(ctx, info, "dst", dst)) || (st = same_valid(ctx, info->name, "src", src, dst)))
        return st;
    ptort_dtype dt = dst->dtype;
    int widen = src->dtype == PTORT_F16 && dt == PTORT_F32;
    if (!widen && (st = same_dtype(ctx, info->name, "src", src, dst)))
        return st;
    int sim = ctx->numerics == PTORT_NUMERICS_SIM, esz = ptort_dtype_size(dt), ssz = ptort_dtype_size(src->dtype);
    uint32_t a = scalar & (esz == 4 ? 0xFFFFFFFFu : 0xFFFFu);
    for (int64_t r = 0; r < dst->valid_rows; r++) {
        const uint8_t *ps = row_ptr(ctx, src, r);
        uint8_t *pd = row_ptr(ctx, dst, r);
        for (int64_t c = 0; c < dst->valid_cols; c++) {
            uint32_t x = load_elem(ps, ssz, c), y = load_elem(pd, esz, c);
            if (widen)
                x = f16_bits_to_f32_bits((uint16_t)x);
            uint32_t v;
            if (sim) { /* the simulator: dst + src * scalar, each rounded (docs/numerics.md 9) */
                _Alignas(4) uint8_t xa[4], aa[4], t[4], ya[4], o[4];
                store_elem(xa, esz, 0, x);
                store_elem(aa, esz, 0, a);
                store_elem(ya, esz, 0, y);
                bin_kernel(PTORT_VOP_MUL, dt)(xa, aa, t, 1, 1);
                bin_kernel(PTORT_VOP_ADD, dt)(ya, t, o, 1, 1);
                sim_nan_row(dt, xa, aa, 1, t, 1);
                sim_nan_row(dt, ya, t, 1, o, 1);
                v = load_elem(o, esz, 0);
            } else {
                v = axpy_hw(dt, a, x, y);
            }
            store_elem(pd, esz, c, v);
        }
    }
    return PTORT_OK;
}

/* Fills N elements of SIZE bytes at P with the element E: plain store loops, which the
 * compiler turns into vector stores. */
VK_OPT static void fill_elems(uint8_t *p, int size, int64_t n, const uint8_t *e)
{
    if (ptort_vecz_fill(p, size, n, e))
        return;
    if (size == 4) {
        uint32_t v, *q = (uint32_t *)(void *)p;
        memcpy(&v, e, 4);
        for (int64_t i = 0; i < n; i++)
            q[i] = v;
    } else if (size == 2) {
        uint16_t v, *q = (uint16_t *)(void *)p;
        memcpy(&v, e, 2);
        for (int64_t i = 0; i < n; i++)
            q[i] = v;
    } else {
        memset(p, e[0], (size_t)n);
    }
}

ptort_status ptort_texpands(ptort_ctx *ctx, uint32_t scalar, const ptort_tile *dst)
{
    static const char op[] = "texpands";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = check_op(ctx, op, "dst", dst, 1)))
        return st;
    /* PTOAS: i8 only on A5 */
    static const VecOpInfo info = {-1, PTORT_NUM_VOPS, "texpands", M_A2 | M_U, M_I8};
    if ((st = check_dtype(ctx, &info, "dst", dst)))
        return st;
    _Alignas(4) uint8_t s[4];
    scalar_elem(dst->dtype, scalar, s);
    int size = ptort_dtype_size(dst->dtype);
    int64_t rows = dst->valid_rows, cols = dst->valid_cols;
    if (dense(dst)) {
        cols *= rows;
        rows = 1;
    }
    for (int64_t r = 0; r < rows && cols > 0; r++)
        fill_elems(row_ptr(ctx, dst, r), size, cols, s);
    return PTORT_OK;
}

/* ---- reductions ----------------------------------------------------------------------------- */

/* Accumulators: float for float sources, int32 for integer ones. */
typedef union {
    float f;
    int32_t i;
} Acc;

/* Whether a (source, destination) pair is accepted by a reduction (simulator's lists). */
static int red_pair_ok(ptort_vop op, int row, ptort_dtype s, ptort_dtype d)
{
    if (op == PTORT_VOP_PROD)                               /* one type; bf16 columns only */
        return s == d && (DM(s) & (M_A2 | M_U)) && !(row && s == PTORT_BF16);
    if (s == d && (s == PTORT_U32 || s == PTORT_U16))     /* red_unsigned, rows and columns */
        return 1;
    int floats = (s == d && (s == PTORT_F32 || s == PTORT_F16 || s == PTORT_BF16)) ||
                 ((s == PTORT_F16 || s == PTORT_BF16) && d == PTORT_F32);
    if (row && op == PTORT_VOP_SUM)
        return floats || (s == PTORT_I16 && (d == PTORT_I16 || d == PTORT_I32)) ||
               (s == PTORT_I32 && d == PTORT_I32);
    if (row)
        return floats || (s == d && (s == PTORT_I32 || s == PTORT_I16));
    /* columns: integers accumulate in their own type (wrapping) */
    int ints = s == d && (s == PTORT_I32 || s == PTORT_I16 || s == PTORT_I8 || s == PTORT_U8);
    return floats || ints;
}

/* Stores accumulator V of a reduction as an element of DT at P. */
static void store_acc(uint8_t *p, ptort_dtype dt, Acc v)
{
    switch (dt) {
    case PTORT_F32: {
        /* a NaN result is quiet (an f16 source's signalling NaN widens to a quiet one, as
         * tcvt's and F16C's widening do) */
        uint32_t u = f2u(v.f);
        u |= (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x00400000u : 0u;
        memcpy(p, &u, 4);
        break;
    }
    case PTORT_F16: { uint16_t h = vk_f32_to_f16(v.f); memcpy(p, &h, 2); break; }
    case PTORT_BF16: { uint16_t h = vk_f32_to_bf16(v.f); memcpy(p, &h, 2); break; }
    default: store_elem(p, ptort_dtype_size(dt), 0, (uint32_t)v.i); break;
    }
}

/* max/min keep a leading NaN (element X0 of SRC's type) bit for bit: the element itself
 * when source and destination have one type, and for bf16 -> f32 its 16-bit shift, the
 * bf16 widening of tcvt, which keeps a signalling NaN signalling. Returns 1 with the bits. */
static int lead_nan(ptort_dtype s, ptort_dtype d, uint32_t x0, uint32_t *bits)
{
    int nan = s == PTORT_F32 ? (x0 & 0x7FFFFFFFu) > 0x7F800000u
              : s == PTORT_F16 ? (x0 & 0x7FFFu) > 0x7C00u
              : s == PTORT_BF16 ? (x0 & 0x7FFFu) > 0x7F80u : 0;
    if (nan && s == d)
        *bits = x0;
    else if (nan && s == PTORT_BF16 && d == PTORT_F32)
        *bits = x0 << 16;
    else
        return 0;
    return 1;
}

/* Stores the N accumulators ACC as elements of DT at P, P + STEP, ... (STEP in elements):
 * store_acc for each, but a contiguous run (STEP 1) converts as a whole with the tcvt
 * kernels, whose f32 -> f16 / bf16 rounding is store_acc's (RNE, NaN kept quiet). */
static void store_accs(uint8_t *p, int64_t step, ptort_dtype dt, const Acc *acc, int64_t n)
{
    int dsz = ptort_dtype_size(dt);
    if (step != 1) {
        for (int64_t i = 0; i < n; i++)
            store_acc(p + i * step * dsz, dt, acc[i]);
        return;
    }
    const VecKernels *k = kernels();
    switch (dt) {
    case PTORT_F16:
    case PTORT_BF16: {
        CvtFn f = ptort_vecz_cvt(PTORT_F32, dt, PTORT_RM_RINT);
        if (!f)
            f = dt == PTORT_F16 ? k->cvt_f32_f16 : k->cvt_f32_bf16;
        f(acc, p, n, 0, PTORT_RM_RINT);
        break;
    }
    case PTORT_F32:
    case PTORT_I32:
        memcpy(p, acc, (size_t)n * 4);
        if (dt == PTORT_F32) {
            uint32_t *q = (uint32_t *)(void *)p;
            int any = 0;
            for (int64_t i = 0; i < n; i++)
                any |= (q[i] & 0x7FFFFFFFu) > 0x7F800000u;
            for (int64_t i = 0; any && i < n; i++)       /* store_acc: a NaN result is quiet */
                q[i] |= (q[i] & 0x7FFFFFFFu) > 0x7F800000u ? 0x00400000u : 0u;
        }
        break;
    default:
        for (int64_t i = 0; i < n; i++)
            store_elem(p, dsz, i, (uint32_t)acc[i].i);
        break;
    }
}

/* Whether any of the N elements of DT at P, P + STRIDE bytes, ... is a float NaN. */
static int any_nan(const uint8_t *p, int64_t stride, ptort_dtype dt, int64_t n)
{
    int size = ptort_dtype_size(dt), any = 0;
    uint32_t mag = dt == PTORT_F32 ? 0x7FFFFFFFu : 0x7FFFu;
    uint32_t inf = dt == PTORT_F32 ? 0x7F800000u : dt == PTORT_F16 ? 0x7C00u : 0x7F80u;
    for (int64_t i = 0; i < n; i++)
        any |= (load_elem(p + i * stride, size, 0) & mag) > inf;
    return any;
}

static ptort_status reduce_checks(ptort_ctx *ctx, const char *op, ptort_vop vop, int row,
                                  const ptort_tile *src, const ptort_tile *tmp,
                                  const ptort_tile *dst)
{
    ptort_status st;
    if ((st = check_op(ctx, op, "src", src, 1)) || (st = check_op(ctx, op, "dst", dst, 0)) ||
        (tmp && (st = check_op(ctx, op, "tmp", tmp, 0))))
        return st;
    if (!red_pair_ok(vop, row, src->dtype, dst->dtype))
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: element types %s -> %s are not supported", op,
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    /* PTOAS: column reductions of bf16 and 8-bit elements only on A5 */
    if (!row && ctx->arch != PTORT_A5 && (DM(src->dtype) & (DM(PTORT_BF16) | M_I8)))
        return ptort_fail(ctx, PTORT_E_ARCH, "%s: element type %s of src needs arch a5", op,
                          ptort_dtype_name(src->dtype));
    if (row && (dst->valid_rows != src->valid_rows || dst->valid_cols != 1))
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects dst valid_shape [%lld, 1], but got [%lld, %lld]", op,
                          (long long)src->valid_rows, (long long)dst->valid_rows,
                          (long long)dst->valid_cols);
    if (!row && (dst->valid_cols != src->valid_cols || dst->valid_rows != 1))
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects dst valid_shape [1, %lld], but got [%lld, %lld]", op,
                          (long long)src->valid_cols, (long long)dst->valid_rows,
                          (long long)dst->valid_cols);
    if (src->valid_cols == 0 && row && src->valid_rows > 0 && vop != PTORT_VOP_SUM)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects a non-empty src valid_shape", op);
    if (src->valid_rows == 0 && !row && src->valid_cols > 0 && vop != PTORT_VOP_SUM && vop != PTORT_VOP_PROD)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects a non-empty src valid_shape", op);
    return PTORT_OK;
}

/* ui16 / ui32 reductions (PTOAS's verifier takes them as 16- and 32-bit integers): sums wrap
 * in the element type, max/min compare unsigned, in the simulator's order (see above). Not hot
 * paths, so one portable loop over uint32 accumulators; ROW picks rows or columns. */
static void red_unsigned(ptort_ctx *ctx, ptort_vop op, int row, const ptort_tile *src,
                         const ptort_tile *dst)
{
    int ssz = ptort_dtype_size(src->dtype), dsz = ptort_dtype_size(dst->dtype);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int64_t sstride = tile_row_stride(src) * ssz;
    int64_t outer = row ? src->valid_rows : src->valid_cols, inner = row ? src->valid_cols : src->valid_rows;
    int64_t step = row ? (dst->blayout == PTORT_BL_ROW_MAJOR ? tile_row_stride(dst) : 1)
                       : (dst->blayout == PTORT_BL_ROW_MAJOR ? 1 : dst->rows + (dst->compact == PTORT_COMPACT_ROW_PLUS_ONE));
    for (int64_t o = 0; o < outer; o++) {
        uint32_t acc = 0;
        for (int64_t k = 0; k < inner; k++) {
            uint32_t x = row ? load_elem(sb + o * sstride, ssz, k) : load_elem(sb + k * sstride, ssz, o);
            if (op == PTORT_VOP_SUM)
                acc += x;
            else if (k == 0)
                acc = x;
            else if (op == PTORT_VOP_MAX)
                acc = acc < x ? x : acc;
            else
                acc = x < acc ? x : acc;
        }
        store_elem(db + o * step * dsz, dsz, 0, acc);
    }
}

/* ---- products: trowprod / tcolprod (docs/numerics.md 8.8) ----------------------------------- */

/* a * b on elements of DT, bits in and out: vmul's (and C's) product. A NaN operand gives
 * that NaN quieted, a's when both are; an invalid product (0 * Inf) the default NaN of
 * docs/numerics.md 8.5; f16 and bf16 products are exact in f32, so rounding that to the type
 * is the type's own rounding. Integers wrap (store_elem keeps the low bits). */
static uint32_t prod_mul(ptort_dtype dt, uint32_t a, uint32_t b)
{
    if (!is_float_dt(dt))
        return a * b;
    uint32_t mag = dt == PTORT_F32 ? 0x7FFFFFFFu : 0x7FFFu;
    uint32_t inf = dt == PTORT_F32 ? 0x7F800000u : dt == PTORT_F16 ? 0x7C00u : 0x7F80u;
    uint32_t quiet = dt == PTORT_F32 ? 0x00400000u : dt == PTORT_F16 ? 0x0200u : 0x0040u;
    if ((a & mag) > inf)
        return a | quiet;
    if ((b & mag) > inf)
        return b | quiet;
    float x = dt == PTORT_F32 ? u2f(a) : dt == PTORT_F16 ? vk_f16_to_f32((uint16_t)a) : u2f(a << 16);
    float y = dt == PTORT_F32 ? u2f(b) : dt == PTORT_F16 ? vk_f16_to_f32((uint16_t)b) : u2f(b << 16);
    float p = x * y;
    if (p != p)
        return dt == PTORT_F32 ? 0xFFC00000u : dt == PTORT_F16 ? 0xFE00u : 0xFFC0u;
    return dt == PTORT_F32 ? f2u(p) : dt == PTORT_F16 ? vk_f32_to_f16(p) : vk_f32_to_bf16(p);
}

static uint32_t prod_one(ptort_dtype dt)
{
    return dt == PTORT_F32 ? 0x3F800000u : dt == PTORT_F16 ? 0x3C00u : dt == PTORT_BF16 ? 0x3F80u : 1u;
}

/* The product of the N elements of DT at P, in the order of the context's arch: the
 * simulator folds from 1 left to right; A2/A3 multiply the row into one 32-byte block of
 * lanes (lane l takes columns l, l + w, ...; from 1), then the scalar unit multiplies the
 * lanes left to right (f16 lanes as floats, rounded to f16 once); A5 multiplies into one
 * 256-byte vector of lanes, then halves it w / 2, w / 4, ... times: lane m *= lane m + half. */
static uint32_t prod_row(const ptort_ctx *ctx, ptort_dtype dt, const uint8_t *p, int64_t n)
{
    int sz = ptort_dtype_size(dt);
    uint32_t acc = prod_one(dt), lane[128] = {0};
    if (ctx->numerics == PTORT_NUMERICS_SIM) {
        for (int64_t j = 0; j < n; j++)
            acc = prod_mul(dt, acc, load_elem(p, sz, j));
        return acc;
    }
    int w = (ctx->arch == PTORT_A5 ? 256 : 32) / sz;
    for (int l = 0; l < w; l++)
        lane[l] = acc;
    for (int64_t j = 0; j < n; j++)
        lane[j % w] = prod_mul(dt, lane[j % w], load_elem(p, sz, j));
    if (ctx->arch == PTORT_A5) {
        for (int half = w / 2; half >= 1; half /= 2)
            for (int m = 0; m < half; m++)
                lane[m] = prod_mul(dt, lane[m], lane[m + half]);
        return lane[0];
    }
    if (dt == PTORT_F16) {
        /* the lanes widened (a NaN quieted, as C's conversion does), multiplied in f32 */
        acc = f2u(vk_f16_to_f32((uint16_t)lane[0]));
        for (int l = 1; l < w; l++)
            acc = prod_mul(PTORT_F32, acc, f2u(vk_f16_to_f32((uint16_t)lane[l])));
        acc = (acc & 0x7FFFFFFFu) > 0x7F800000u ? acc | 0x00400000u : acc;
        return vk_f32_to_f16(u2f(acc));
    }
    acc = lane[0];
    for (int l = 1; l < w; l++)
        acc = prod_mul(dt, acc, lane[l]);
    return acc;
}

/* The product of column J (ROWS elements STRIDE bytes apart from P): the simulator folds
 * from 1; A2/A3 start from row 0 and multiply the rows in, top to bottom; A5 starts from row
 * 0 and multiplies in the products of rows (1, 2), (3, 4), ..., then an odd last row. */
static uint32_t prod_col(const ptort_ctx *ctx, ptort_dtype dt, const uint8_t *p, int64_t stride,
                         int64_t rows, int64_t j)
{
    int sz = ptort_dtype_size(dt);
#define PX(i) load_elem(p + (i) * stride, sz, j)
    if (ctx->numerics == PTORT_NUMERICS_SIM) {
        uint32_t acc = prod_one(dt);
        for (int64_t i = 0; i < rows; i++)
            acc = prod_mul(dt, acc, PX(i));
        return acc;
    }
    uint32_t acc = PX(0);
    int64_t i = 1;
    if (ctx->arch == PTORT_A5)
        for (; i + 1 < rows; i += 2)
            acc = prod_mul(dt, acc, prod_mul(dt, PX(i), PX(i + 1)));
    for (; i < rows; i++)
        acc = prod_mul(dt, acc, PX(i));
#undef PX
    return acc;
}

/* trowprod (ROW) and tcolprod after reduce_checks: an empty tcolprod leaves dst as it was
 * (pto-isa returns early). Not hot paths: one portable loop per row or column. */
static ptort_status prod_reduce(ptort_ctx *ctx, int row, const ptort_tile *src, const ptort_tile *dst)
{
    ptort_dtype dt = src->dtype;
    int sz = ptort_dtype_size(dt);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int64_t sstride = tile_row_stride(src) * sz;
    if (row) {
        int64_t step = dst->blayout == PTORT_BL_ROW_MAJOR ? tile_row_stride(dst) : 1;
        for (int64_t r = 0; r < src->valid_rows; r++)
            store_elem(db + r * step * sz, sz, 0, prod_row(ctx, dt, sb + r * sstride, src->valid_cols));
        return PTORT_OK;
    }
    if (src->valid_rows == 0)
        return PTORT_OK;
    int64_t step = dst->blayout == PTORT_BL_ROW_MAJOR ? 1 : dst->rows + (dst->compact == PTORT_COMPACT_ROW_PLUS_ONE);
    for (int64_t j = 0; j < src->valid_cols; j++)
        store_elem(db + j * step * sz, sz, 0, prod_col(ctx, dt, sb, sstride, src->valid_rows, j));
    return PTORT_OK;
}

/* The kernel of (op, source dtype) from a row or column table, as a tagged pointer. */
#define RED_PICK(pre, k, op, dt, fn_f, fn_i)                                                   \
    do {                                                                                       \
        switch (dt) {                                                                          \
        case PTORT_F32: fn_f = k->pre##_##op##_f32; break;                                     \
        case PTORT_F16: fn_f = k->pre##_##op##_f16; break;                                     \
        case PTORT_BF16: fn_f = k->pre##_##op##_bf16; break;                                   \
        case PTORT_I32: fn_i = k->pre##_##op##_i32; break;                                     \
        case PTORT_I16: fn_i = k->pre##_##op##_i16; break;                                     \
        case PTORT_I8: fn_i = k->pre##_##op##_i8; break;                                       \
        default: fn_i = k->pre##_##op##_u8; break;                                             \
        }                                                                                      \
    } while (0)

typedef void (*RRedF)(const uint8_t *, int64_t, int64_t, int64_t, int, float, float *, float *);
typedef void (*RRedI)(const uint8_t *, int64_t, int64_t, int64_t, int, int32_t, int32_t *, int32_t *);
typedef void (*CRedF)(const uint8_t *, int64_t, int64_t, int64_t, int, float, float *);
typedef void (*CRedI)(const uint8_t *, int64_t, int64_t, int64_t, int, int32_t, int32_t *);

/* A5's TROWSUM of f32 and f16 (docs/numerics.md 8.3): the row in blocks of one 256-byte
 * vector (64 f32 or 128 f16 lanes), each summed by vcadd into the element type, and the block
 * sums added to an accumulator that starts at +0 by vadd in the element type, block after
 * block. vcadd's order inside a block is not documented; the runtime sums a block left to
 * right in f32 (the simulator's loop; FF, the row kernel), which for f16 is rounded to f16
 * at the block's end. OUT gets rows accumulators (exact f16 values for f16), OUT + ROWS the
 * block sums and OUT + 2 * ROWS the kernel's scratch. */
static void rowsum_a5(RRedF ff, const uint8_t *sb, int64_t sstride, int64_t rows, int64_t n,
                      ptort_dtype dt, Acc *out)
{
    int64_t w = dt == PTORT_F32 ? 64 : 128, esz = ptort_dtype_size(dt);
    Acc *blk = out + rows;
    for (int64_t r = 0; r < rows; r++)
        out[r].f = 0.0f;
    for (int64_t j0 = 0; j0 < n; j0 += w) {
        ff(sb + j0 * esz, sstride, rows, n - j0 < w ? n - j0 : w, 0, 0.0f, &blk[0].f, &out[2 * rows].f);
        for (int64_t r = 0; r < rows; r++) {
            float b = blk[r].f, a = out[r].f;
            if (dt == PTORT_F16)
                b = vk_f16_to_f32(vk_f32_to_f16(b));
            a = vk_nanfirst(a, a + b);
            /* f16 + f16 rounded to f32 and then to f16 is the f16 addition (24 >= 2 * 11 + 2) */
            out[r].f = dt == PTORT_F16 ? vk_f16_to_f32(vk_f32_to_f16(a)) : a;
        }
    }
}

/* ---- A2/A3's TROWSUM of f32 and f16 (docs/numerics.md 8.3) ----------------------------------
 * pto-isa npu/a2a3 TRowSum.hpp (TRowSumOp) through TRowReduceOps.hpp (TRowReduceInstr): with
 * E = 64 (f32) or 128 (f16) lanes per repeat, P = n / E whole repeats and R = n % E:
 * - n <= E: one vcadd of the row;
 * - otherwise tmp (E lanes per repeat) = repeat 0 when P = 1, else tmp[i] = rep[2i] + rep[2i+1]
 *   lane by lane for i < P/2, and for an odd P tmp[0] += rep[P-1]; the tail's R lanes are added
 *   to tmp[0]'s first R lanes; the P/2 tmp repeats are then paired down (tmp[i] = tmp[2i] +
 *   tmp[2i+1], an odd one left over added to the last pair's sum) to tmp[0], and one vcadd of
 *   tmp[0]'s E lanes gives the result;
 * - f32 sources of exactly [64, 128], [32, 256], [16, 512] or [8, 1024] (valid = physical
 *   shape) into a DN [R, 1] dst take TryOptimizeFP32Reduce's vcgadd steps (a3_fast).
 * Every vadd rounds to T lane by lane; vcadd / vcgadd sum left to right in f32 from +0 and round
 * to T (the order inside them is not documented; the same choice as A5's vcadd). */
static float a3_rnd(float v, int f16)
{
    return f16 ? vk_f16_to_f32(vk_f32_to_f16(v)) : v;
}

static float a3_add(float a, float b, int f16)
{
    return a3_rnd(vk_nanfirst(a, a + b), f16);
}

static float a3_vcadd(const float *v, int64_t n, int f16)
{
    float s = 0.0f;
    for (int64_t i = 0; i < n; i++)
        s = vk_nanfirst(s, s + v[i]);
    return a3_rnd(s, f16);
}

/* element j of an f32 or f16 row, widened */
static float a3_ld(const uint8_t *row, int f16, int64_t j)
{
    if (f16) {
        uint16_t h;
        memcpy(&h, row + 2 * j, 2);
        return vk_f16_to_f32(h);
    }
    float f;
    memcpy(&f, row + 4 * j, 4);
    return f;
}

/* One row of TRowReduceInstr's general path; TMP holds max(E, n / 2 + E) floats. */
static float a3_row(const uint8_t *row, int64_t n, int f16, float *tmp)
{
    int64_t e = f16 ? 128 : 64, p = n / e, rem = n % e;
    if (n <= e) {
        for (int64_t j = 0; j < n; j++)
            tmp[j] = a3_ld(row, f16, j);
        return a3_vcadd(tmp, n, f16);
    }
    for (int64_t l = 0; l < e; l++) {
        if (p == 1) {
            tmp[l] = a3_ld(row, f16, l);
            continue;
        }
        for (int64_t i = 0; i < p / 2; i++)
            tmp[i * e + l] = a3_add(a3_ld(row, f16, 2 * i * e + l), a3_ld(row, f16, (2 * i + 1) * e + l), f16);
        if (p % 2)
            tmp[l] = a3_add(tmp[l], a3_ld(row, f16, (p - 1) * e + l), f16);
    }
    for (int64_t l = 0; l < rem; l++)
        tmp[l] = a3_add(tmp[l], a3_ld(row, f16, p * e + l), f16);
    for (int64_t len = p / 2; len > 1;) {
        for (int64_t i = 0; i < len / 2; i++)
            for (int64_t l = 0; l < e; l++)
                tmp[i * e + l] = a3_add(tmp[2 * i * e + l], tmp[(2 * i + 1) * e + l], f16);
        int64_t odd = len % 2;
        len /= 2;
        if (odd)
            for (int64_t l = 0; l < e; l++)
                tmp[(len - 1) * e + l] = a3_add(tmp[(len - 1) * e + l], tmp[2 * len * e + l], f16);
    }
    return a3_vcadd(tmp, e, f16);
}

/* TryOptimizeFP32Reduce's shapes, one row of N f32: g = vcgadd (sums of 8) of the row, then
 * [64, 128]: t[k] = g[k] + g[k + 8]; [32, 256]: v[k] = g[k] + g[k + 8], v[k + 8] = g[k + 16] +
 * g[k + 24], t[k] = v[k] + v[k + 8]; [16, 512]: t = vcgadd(g); [8, 1024]: h = vcgadd(g),
 * t[k] = h[k] + h[k + 8]; the result is vcgadd(t) (k < 8). */
static float a3_fast(const uint8_t *row, int64_t n, float *tmp)
{
    float *g = tmp, *h = tmp + 128, t[8], x[8];
    for (int64_t k = 0; k < n / 8; k++) {
        for (int j = 0; j < 8; j++)
            x[j] = a3_ld(row, 0, 8 * k + j);
        g[k] = a3_vcadd(x, 8, 0);
    }
    for (int k = 0; k < 8; k++) {
        if (n == 128)
            t[k] = a3_add(g[k], g[k + 8], 0);
        else if (n == 256)
            t[k] = a3_add(a3_add(g[k], g[k + 8], 0), a3_add(g[k + 16], g[k + 24], 0), 0);
        else if (n == 512)
            t[k] = a3_vcadd(g + 8 * k, 8, 0);
    }
    if (n == 1024) {
        for (int k = 0; k < 16; k++)
            h[k] = a3_vcadd(g + 8 * k, 8, 0);
        for (int k = 0; k < 8; k++)
            t[k] = a3_add(h[k], h[k + 8], 0);
    }
    return a3_vcadd(t, 8, 0);
}

static int a3_fast_shape(const ptort_tile *src, const ptort_tile *dst)
{
    int64_t r = src->valid_rows, c = src->valid_cols;
    return src->dtype == PTORT_F32 && src->rows == r && src->cols == c && r * c == 8192 &&
           (c == 128 || c == 256 || c == 512 || c == 1024) && dst->blayout != PTORT_BL_ROW_MAJOR &&
           dst->cols == 1;
}

/* OUT[r] = row r's sum; TMP as for a3_row. */
static void rowsum_a3(const ptort_tile *src, const ptort_tile *dst, const uint8_t *sb,
                      int64_t sstride, Acc *out, float *tmp)
{
    int f16 = src->dtype == PTORT_F16, fast = a3_fast_shape(src, dst);
    for (int64_t r = 0; r < src->valid_rows; r++)
        out[r].f = fast ? a3_fast(sb + r * sstride, src->valid_cols, tmp)
                        : a3_row(sb + r * sstride, src->valid_cols, f16, tmp);
}

ptort_status ptort_vrowreduce(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src,
                              const ptort_tile *tmp, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vrowreduce, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "row reduction op %d is not sum, max, min or prod", (int)op);
    const char *name = info->name;
    ptort_status st = reduce_checks(ctx, name, op, 1, src, tmp, dst);
    if (st)
        return st;
    if (op == PTORT_VOP_PROD)
        return prod_reduce(ctx, 1, src, dst);
    if (src->dtype == PTORT_U16 || src->dtype == PTORT_U32) {
        red_unsigned(ctx, op, 1, src, dst);
        return PTORT_OK;
    }
    int64_t rows = src->valid_rows, n = src->valid_cols;
    if (rows == 0)
        return PTORT_OK;
    int isf = src->dtype == PTORT_F32 || src->dtype == PTORT_F16 || src->dtype == PTORT_BF16;
    /* accumulators, A5's block sums (rowsum_a5), the kernels' scratch */
    /* A2/A3's sums (rowsum_a3) need their tmp repeats instead of the kernels' scratch */
    int a3sum = op == PTORT_VOP_SUM && ctx->arch != PTORT_A5 && ctx->numerics == PTORT_NUMERICS_HW &&
                src->dtype == dst->dtype && (src->dtype == PTORT_F32 || src->dtype == PTORT_F16);
    int64_t scr = RED_LANES * RED_CHUNK;
    if (a3sum && n / 2 + 256 > scr)
        scr = n / 2 + 256;
    Acc *out = ptort_scratch(ctx, (size_t)(2 * rows + scr) * sizeof(Acc));
    if (!out)
        return PTORT_E_NOMEM;
    const VecKernels *k = kernels();
    RRedF ff = NULL;
    RRedI fi = NULL;
    if (op == PTORT_VOP_SUM)
        RED_PICK(rred, k, sum, src->dtype, ff, fi);
    else if (op == PTORT_VOP_MAX)
        RED_PICK(rred, k, max, src->dtype, ff, fi);
    else
        RED_PICK(rred, k, min, src->dtype, ff, fi);
    if (isf && ptort_vecz_rred(op, src->dtype))
        ff = ptort_vecz_rred(op, src->dtype);
    /* sums start from 0 (so -0 + -0 sums to +0); max/min start from element 0 */
    int first = op != PTORT_VOP_SUM;
    const uint8_t *sb = tile_base(ctx, src);
    int64_t sstride = tile_row_stride(src) * ptort_dtype_size(src->dtype);
    if (op == PTORT_VOP_SUM && ctx->arch == PTORT_A5 && ctx->numerics == PTORT_NUMERICS_HW &&
        src->dtype == dst->dtype &&
        (src->dtype == PTORT_F32 || src->dtype == PTORT_F16))
        rowsum_a5(ff, sb, sstride, rows, n, src->dtype, out);
    else if (a3sum)
        rowsum_a3(src, dst, sb, sstride, out, &out[2 * rows].f);
    else if (isf)
        ff(sb, sstride, rows, n, first, 0.0f, &out[0].f, &out[2 * rows].f);
    else
        fi(sb, sstride, rows, n, first, 0, &out[0].i, &out[2 * rows].i);
    /* dst is none_box: row r at r * (row-major ? row stride : 1) */
    int dsz = ptort_dtype_size(dst->dtype), ssz = ptort_dtype_size(src->dtype);
    uint8_t *db = tile_base(ctx, dst);
    int64_t step = dst->blayout == PTORT_BL_ROW_MAJOR ? tile_row_stride(dst) : 1;
    /* max/min of a row starting with NaN is that NaN, bit for bit */
    if (!(first && isf && any_nan(sb, sstride, src->dtype, rows))) {
        store_accs(db, step, dst->dtype, out, rows);
        return PTORT_OK;
    }
    for (int64_t r = 0; r < rows; r++) {
        uint8_t *p = db + r * step * dsz;
        uint32_t nb;
        if (lead_nan(src->dtype, dst->dtype, load_elem(sb + r * sstride, ssz, 0), &nb))
            store_elem(p, dsz, 0, nb);
        else
            store_acc(p, dst->dtype, out[r]);
    }
    return PTORT_OK;
}

ptort_status ptort_vcolreduce(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src,
                              const ptort_tile *tmp, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vcolreduce, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "column reduction op %d is not sum, max, min or prod", (int)op);
    const char *name = info->name;
    ptort_status st = reduce_checks(ctx, name, op, 0, src, tmp, dst);
    if (st)
        return st;
    if (op == PTORT_VOP_PROD)
        return prod_reduce(ctx, 0, src, dst);
    if (src->dtype == PTORT_U16 || src->dtype == PTORT_U32) {
        red_unsigned(ctx, op, 0, src, dst);
        return PTORT_OK;
    }
    int64_t rows = src->valid_rows, n = src->valid_cols;
    if (n == 0)
        return PTORT_OK;
    int isf = src->dtype == PTORT_F32 || src->dtype == PTORT_F16 || src->dtype == PTORT_BF16;
    Acc *acc = ptort_scratch(ctx, (size_t)n * sizeof(Acc));
    if (!acc)
        return PTORT_E_NOMEM;
    const VecKernels *k = kernels();
    CRedF ff = NULL;
    CRedI fi = NULL;
    if (op == PTORT_VOP_SUM) {
        /* column sums accumulate in the destination type: f16/bf16 round every step */
        if (dst->dtype == PTORT_F16)
            ff = k->cred_sum16_f16;
        else if (dst->dtype == PTORT_BF16)
            ff = k->cred_sum16_bf16;
        else
            RED_PICK(cred, k, sum, src->dtype, ff, fi);
    } else if (op == PTORT_VOP_MAX) {
        RED_PICK(cred, k, max, src->dtype, ff, fi);
    } else {
        RED_PICK(cred, k, min, src->dtype, ff, fi);
    }
    if (isf && ptort_vecz_cred(op, src->dtype, dst->dtype))
        ff = ptort_vecz_cred(op, src->dtype, dst->dtype);
    int first = op != PTORT_VOP_SUM;
    const uint8_t *sb = tile_base(ctx, src);
    int64_t sstride = tile_row_stride(src) * ptort_dtype_size(src->dtype);
    if (rows == 0) {
        for (int64_t j = 0; j < n; j++)
            acc[j].i = 0;           /* an empty sum: +0 (float and int alike) */
    } else if (isf) {
        ff(sb, sstride, rows, n, first, 0.0f, &acc[0].f);
    } else {
        fi(sb, sstride, rows, n, first, 0, &acc[0].i);
    }
    /* dst is none_box: column j at j * (row-major ? 1 : its column stride) */
    int dsz = ptort_dtype_size(dst->dtype), ssz = ptort_dtype_size(src->dtype);
    uint8_t *db = tile_base(ctx, dst);
    int64_t step = dst->blayout == PTORT_BL_ROW_MAJOR ? 1 : dst->rows + (dst->compact == PTORT_COMPACT_ROW_PLUS_ONE);
    if (!(first && isf && rows > 0 && any_nan(sb, ssz, src->dtype, n))) {
        store_accs(db, step, dst->dtype, acc, n);
        return PTORT_OK;
    }
    for (int64_t j = 0; j < n; j++) {
        uint8_t *p = db + j * step * dsz;
        uint32_t nb;
        if (lead_nan(src->dtype, dst->dtype, load_elem(sb, ssz, j), &nb))
            store_elem(p, dsz, 0, nb);
        else
            store_acc(p, dst->dtype, acc[j]);
    }
    return PTORT_OK;
}

/* ---- broadcasts ------------------------------------------------------------------------------ */

/* Row broadcast: dst[r][c] = op(src0[r][c % vc0], src1[r][c % vc1]) (the simulator's
 * indexing), where one source has dst's valid shape and the other is the per-row vector:
 * [R, 1] none_box (any layout) or row-major [R, 32 / element size]. The vector's row is
 * expanded into a scratch row, then the elementwise kernel runs. */
ptort_status ptort_vrowexpand(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0,
                              const ptort_tile *src1, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vrowexpand, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "row broadcast op %d is not supported", (int)op);
    const char *name = info->name;
    int plain = op == PTORT_VOP_COPY;
    ptort_status st;
    if ((st = check_op(ctx, name, "dst", dst, 1)) || (st = check_dtype(ctx, info, "dst", dst)) ||
        (st = check_op(ctx, name, plain ? "src" : "src0", src0, 0)) ||
        (!plain && (st = check_op(ctx, name, "src1", src1, 0))) ||
        (st = same_dtype(ctx, name, plain ? "src" : "src0", src0, dst)) ||
        (!plain && (st = same_dtype(ctx, name, "src1", src1, dst))))
        return st;
    /* which operand is the full tile (row-major, dst's valid shape) and which the vector */
    const ptort_tile *full = NULL, *vecop = src0;
    int vec_first = 1;
    if (!plain) {
        int f0 = tile_is_row_major(src0) && src0->valid_rows == dst->valid_rows &&
                 src0->valid_cols == dst->valid_cols;
        int f1 = tile_is_row_major(src1) && src1->valid_rows == dst->valid_rows &&
                 src1->valid_cols == dst->valid_cols;
        if (!f0 && !f1)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects src0 or src1 to be row-major with the valid_shape of dst", name);
        full = f0 ? src0 : src1;
        vecop = f0 ? src1 : src0;
        vec_first = !f0;
    }
    int esz = ptort_dtype_size(dst->dtype);
    int64_t want = tile_is_row_major(vecop) ? 32 / esz : 1;
    if (vecop->valid_rows != dst->valid_rows || (plain ? vecop->valid_cols < 1 : vecop->valid_cols != want))
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects the per-row operand valid_shape [%lld, %lld], but got [%lld, %lld]",
                          name, (long long)dst->valid_rows, (long long)(plain ? 1 : want),
                          (long long)vecop->valid_rows, (long long)vecop->valid_cols);
    int64_t rows = dst->valid_rows, cols = dst->valid_cols;
    if (rows == 0 || cols == 0)
        return PTORT_OK;
    /* the divisor is src1: the per-row operand (its first min(vc, cols) columns) or the full tile */
    if (op == PTORT_VOP_DIV &&
        (st = div_zero(ctx, name, "src1", src1, rows, vec_first ? cols : (vecop->valid_cols < cols ? vecop->valid_cols : cols))))
        return st;
    Layout l;
    layout_of(vecop, &l);
    const uint8_t *vb = tile_base(ctx, vecop);
    int64_t vc = plain ? 1 : vecop->valid_cols;
    uint8_t *buf = plain ? NULL : ptort_scratch(ctx, (size_t)(cols * esz));
    if (!plain && !buf)
        return PTORT_E_NOMEM;
    /* the exp-differences: the subtraction, then texp in place (pto-isa's A2/A3 kernels) */
    BinFn bin = plain ? NULL : bin_kernel(op == PTORT_VOP_EXPDIF ? PTORT_VOP_SUB : op, dst->dtype);
    for (int64_t r = 0; r < rows; r++) {
        int64_t ro = layout_row_off(&l, r);
        uint8_t *pd = row_ptr(ctx, dst, r);
        if (vc == 1) {
            const uint8_t *e = vb + (ro + layout_col_off(&l, 0)) * esz;
            if (plain) {
                fill_elems(pd, esz, cols, e);
                continue;
            }
            if (!vec_first) {
                bin(row_ptr(ctx, full, r), e, pd, cols, 1);
                continue;
            }
            fill_elems(buf, esz, cols, e);
        } else {
            /* row-major vector: its vc elements repeat along the row */
            for (int64_t c = 0; c < vc && c < cols; c++)
                memcpy(buf + c * esz, vb + (ro + layout_col_off(&l, c)) * esz, (size_t)esz);
            for (int64_t done = vc; done < cols;) {
                int64_t k2 = done < cols - done ? done : cols - done;
                memcpy(buf + done * esz, buf, (size_t)(k2 * esz));
                done += k2;
            }
        }
        const uint8_t *pf = row_ptr(ctx, full, r);
        if (vec_first)
            bin(buf, pf, pd, cols, 0);
        else
            bin(pf, buf, pd, cols, 0);
    }
    if (ctx->numerics == PTORT_NUMERICS_SIM && is_float_dt(dst->dtype) &&
        (op == PTORT_VOP_ADD || op == PTORT_VOP_MUL))
        sim_two_nan_bcast(ctx, src0, src1, dst, 0);
    if (op == PTORT_VOP_EXPDIF)
        return ptort_vunary(ctx, PTORT_VOP_EXP, dst, dst);
    return PTORT_OK;
}

/* Column broadcast: dst[i][j] = op(src0[i][j], src1[0][j]); tcolexpand: dst[i][j] = src[0][j].
 * All operands row-major; src1 (src) valid_cols = dst's. */
ptort_status ptort_vcolexpand(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0,
                              const ptort_tile *src1, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    const VecOpInfo *info = op_info(VE_vcolexpand, op);
    if (!info)
        return ptort_fail(ctx, PTORT_E_ARG, "column broadcast op %d is not supported", (int)op);
    const char *name = info->name;
    int plain = op == PTORT_VOP_COPY;
    const ptort_tile *vecop = plain ? src0 : src1;
    const char *vname = plain ? "src" : "src1";
    ptort_status st;
    if ((st = check_op(ctx, name, "dst", dst, 1)) || (st = check_dtype(ctx, info, "dst", dst)) ||
        (!plain && (st = check_op(ctx, name, "src0", src0, 1))) ||
        (st = check_op(ctx, name, vname, vecop, 1)) ||
        (!plain && (st = same_dtype(ctx, name, "src0", src0, dst))) ||
        (st = same_dtype(ctx, name, vname, vecop, dst)) ||
        (!plain && (st = same_valid(ctx, name, "src0", src0, dst))))
        return st;
    if (vecop->valid_cols != dst->valid_cols || vecop->valid_rows < 1)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects %s valid_shape [1, %lld], but got [%lld, %lld]", name, vname,
                          (long long)dst->valid_cols, (long long)vecop->valid_rows,
                          (long long)vecop->valid_cols);
    int64_t rows = dst->valid_rows, cols = dst->valid_cols;
    if (op == PTORT_VOP_DIV && rows > 0 && (st = div_zero(ctx, name, "src1", src1, 1, cols)))
        return st;
    int esz = ptort_dtype_size(dst->dtype);
    const uint8_t *v = tile_base(ctx, vecop);
    /* the exp-differences: the subtraction, then texp in place (pto-isa's A2/A3 kernels) */
    BinFn bin = plain ? NULL : bin_kernel(op == PTORT_VOP_EXPDIF ? PTORT_VOP_SUB : op, dst->dtype);
    for (int64_t r = 0; r < rows && cols > 0; r++) {
        if (plain)
            memmove(row_ptr(ctx, dst, r), v, (size_t)(cols * esz));
        else
            bin(row_ptr(ctx, src0, r), v, row_ptr(ctx, dst, r), cols, 0);
    }
    if (ctx->numerics == PTORT_NUMERICS_SIM && is_float_dt(dst->dtype) && cols > 0 &&
        (op == PTORT_VOP_ADD || op == PTORT_VOP_MUL))
        sim_two_nan_bcast(ctx, src0, src1, dst, 1);
    if (op == PTORT_VOP_EXPDIF && rows > 0 && cols > 0)
        return ptort_vunary(ctx, PTORT_VOP_EXP, dst, dst);
    return PTORT_OK;
}

/* ---- tcvt ------------------------------------------------------------------------------------ */

static CvtFn cvt_pick(const VecKernels *k, ptort_dtype s, ptort_dtype d)
{
#define CVT_CASE(sd, dd, body) \
    if ((int)s == (int)VDT_##sd && (int)d == (int)VDT_##dd) \
        return k->cvt_##sd##_##dd;
    VEC_CVT_TABLE(CVT_CASE)
#undef CVT_CASE
    return NULL;
}

/* Pairs only a5 has (docs/isa tcvt table). */
static int cvt_a5_only(ptort_dtype s, ptort_dtype d)
{
    if (s == PTORT_BF16 && d == PTORT_F16)
        return 1;
    if (s == PTORT_I16 && (d == PTORT_U8 || d == PTORT_U32 || d == PTORT_I32))
        return 1;
    if (s == PTORT_I32 && (d == PTORT_U16 || d == PTORT_U8))
        return 1;
    if ((s == PTORT_U8 && d == PTORT_U16) || s == PTORT_U32)
        return 1;
    return s == PTORT_I8 && (d == PTORT_I16 || d == PTORT_I32);
}

/* ---- tcvt rounding modes ---------------------------------------------------------------
 * The mode a pair really rounds with (docs/numerics.md 8.1): pto-isa's A5 TCvt passes the
 * mode to vcvt / vtrc for every pair that rounds and the A2/A3 one picks a vconv_*r/a/f/c/z
 * variant; ODD exists only for f32 -> f16 and NONE is the default, so those fall back to
 * truncation (float -> integer) or nearest even (the rest). i32 -> f16 is A2/A3's vconv_deq,
 * which takes no mode. */
static ptort_rmode cvt_mode(ptort_dtype s, ptort_dtype d, ptort_rmode rm)
{
    if (is_float_dt(s) && !is_float_dt(d))
        return rm == PTORT_RM_NONE || rm == PTORT_RM_ODD ? PTORT_RM_TRUNC : rm;
    if (s == PTORT_I32 && d == PTORT_F16)
        return PTORT_RM_RINT;
    if (rm == PTORT_RM_NONE || (rm == PTORT_RM_ODD && !(s == PTORT_F32 && d == PTORT_F16)))
        return PTORT_RM_RINT;
    return rm;
}

/* Magnitude codes -> values, the infinity code standing for the next power of two (the
 * neighbour above the largest finite value when rounding). */
static double rm_val_f16(uint32_t m)
{
    return m >= 0x7C00u ? 65536.0 : (double)vk_f16_to_f32((uint16_t)m);
}
static double rm_val_bf16(uint32_t m)
{
    return m >= 0x7F80u ? 0x1p128 : (double)vk_u2f(m << 16);
}
static double rm_val_f32(uint32_t m)
{
    return m >= 0x7F800000u ? 0x1p128 : (double)vk_u2f(m);
}

/* Rounds the finite magnitude A (exact in binary64) per RM, given RB, the magnitude code of
 * its round-to-nearest-even result (INF when that overflowed): an inexact A lies between
 * the codes LO and LO + 1, and the mode picks one (IEEE 754's directions; ODD takes the
 * one with the odd last bit, so it overflows to the largest finite value as TRUNC does). */
static uint32_t rm_pick(uint32_t rb, double a, int neg, ptort_rmode rm, uint32_t inf,
                        double (*val)(uint32_t))
{
    double hv = val(rb);
    if (rm == PTORT_RM_RINT || (hv == a && rb != inf))
        return rb;
    uint32_t lo = (rb == inf || hv > a) ? rb - 1 : rb, hi = lo + 1;
    switch (rm) {
    case PTORT_RM_ROUND: return 2.0 * a == val(lo) + val(hi) ? hi : rb;
    case PTORT_RM_FLOOR: return neg ? hi : lo;
    case PTORT_RM_CEIL: return neg ? lo : hi;
    case PTORT_RM_ODD: return (lo & 1u) ? lo : hi;
    default: return lo;                  /* TRUNC */
    }
}

/* f32 value -> f16 (bf false) or bf16 bits per RM (NaN and Inf as with RNE) */
static uint16_t rm_to_half(float x, ptort_rmode rm, int bf)
{
    uint16_t h = bf ? vk_f32_to_bf16(x) : vk_f32_to_f16(x);
    if (x != x || fabsf(x) == INFINITY)
        return h;
    return (uint16_t)((h & 0x8000u) | rm_pick(h & 0x7FFFu, fabs((double)x), h >> 15, rm, bf ? 0x7F80u : 0x7C00u,
                                              bf ? rm_val_bf16 : rm_val_f16));
}
/* f32 -> f32: vtrc, rounding to an integral value (the sign of a zero result kept) */
static float rm_integral(float v, ptort_rmode rm)
{
    float r = rm == PTORT_RM_ROUND ? vk_round(v) : rm == PTORT_RM_FLOOR ? vk_floor(v)
            : rm == PTORT_RM_CEIL ? vk_ceil(v) : rm == PTORT_RM_TRUNC ? vk_trunc(v) : vk_rint(v);
    return r == 0.0f ? copysignf(0.0f, v) : r;
}

/* The float-destination pairs that round (cvt_rounds), for every mode: the kernels run
 * only RINT's nearest even, and f32 -> f32 as a copy. Saturation clamps first, as in the
 * kernels. */
static int cvt_rounds(ptort_dtype sd, ptort_dtype dd)
{
    return (sd == PTORT_I32 && dd == PTORT_F32) || (sd == PTORT_F32 && is_float_dt(dd)) ||
           (dd == PTORT_F16 && (sd == PTORT_BF16 || sd == PTORT_I16));
}

static void cvt_rounding(ptort_dtype sd, ptort_dtype dd, const void *ps, void *pd, int64_t n,
                         int sat, ptort_rmode rm)
{
    const uint8_t *s = ps;
    uint8_t *d = pd;
    for (int64_t i = 0; i < n; i++) {
        uint32_t u = 0;
        memcpy(&u, s + i * ptort_dtype_size(sd), (size_t)ptort_dtype_size(sd));
        if (sd == PTORT_I32 && dd == PTORT_F32) {
            int32_t v = (int32_t)u;
            uint32_t b = vk_f2u((float)v);
            b = (b & 0x80000000u) | rm_pick(b & 0x7FFFFFFFu, fabs((double)v), v < 0, rm,
                                            0x7F800000u, rm_val_f32);
            memcpy(d + 4 * i, &b, 4);
            continue;
        }
        float x = sd == PTORT_F32 ? vk_u2f(u) : sd == PTORT_BF16 ? LD_BF16(u) : (float)(int16_t)u;
        if (dd == PTORT_F32) {
            uint32_t b = vk_f2u(rm_integral(sat ? vk_clampf(x, -F32_MAXF, F32_MAXF) : x, rm));
            memcpy(d + 4 * i, &b, 4);
        } else if (dd == PTORT_F16) {
            uint16_t h = rm_to_half(sat ? vk_clampf(x, -F16_MAXF, F16_MAXF) : x, rm, 0);
            memcpy(d + 2 * i, &h, 2);
        } else {
            uint16_t h = rm_to_half(sat ? vk_clampf(x, -BF16_MAXF, BF16_MAXF) : x, rm, 1);
            memcpy(d + 2 * i, &h, 2);
        }
    }
}

/* --numerics=sim, float -> integer with saturation or ODD (docs/numerics.md 9): the
 * simulator's TCvt.hpp. Saturation clamps in binary64 to the intersection of both ranges
 * (NaN to the upper bound, std::min's answer) and stores the bound back into the source
 * type, which rounds f32's 2147483647 to 2^31 and f16's 32767 to 32768; ODD rounds to the
 * nearest integer with ties to the odd one; the cast is x86's (outside int32 and NaN:
 * INT32_MIN; narrower destinations keep the low bits), so those bounds come out as
 * INT32_MIN and 0x8000. */
static void cvt_f2i_sim(ptort_dtype sd, ptort_dtype dd, const void *ps, void *pd, int64_t n, int sat,
                        ptort_rmode rm)
{
    static const double lo_of[] = {[PTORT_I32] = -2147483648.0, [PTORT_I16] = -32768.0,
                                   [PTORT_I8] = -128.0, [PTORT_U8] = 0.0};
    static const double hi_of[] = {[PTORT_I32] = 2147483647.0, [PTORT_I16] = 32767.0,
                                   [PTORT_I8] = 127.0, [PTORT_U8] = 255.0};
    double smax = sd == PTORT_F16 ? 65504.0 : sd == PTORT_BF16 ? (double)BF16_MAXF : (double)F32_MAXF;
    double lo = lo_of[dd] > -smax ? lo_of[dd] : -smax, hi = hi_of[dd] < smax ? hi_of[dd] : smax;
    int ssz = ptort_dtype_size(sd), dsz = ptort_dtype_size(dd);
    for (int64_t i = 0; i < n; i++) {
        uint32_t u = load_elem(ps, ssz, i);
        float x = sd == PTORT_F32 ? vk_u2f(u) : sd == PTORT_F16 ? LD_F16(u) : LD_BF16(u);
        double v = x;
        if (sat) {
            v = v < hi ? v : hi; /* NaN: hi */
            v = lo < v ? v : lo;
            float f = (float)v;
            v = sd == PTORT_F32 ? f : sd == PTORT_F16 ? LD_F16(vk_f32_to_f16(f)) : LD_BF16(vk_f32_to_bf16(f));
        }
        switch (rm) {
        case PTORT_RM_RINT: v = rint(v); break;
        case PTORT_RM_ROUND: v = round(v); break;
        case PTORT_RM_FLOOR: v = floor(v); break;
        case PTORT_RM_CEIL: v = ceil(v); break;
        case PTORT_RM_ODD: {
            double f = floor(v), frac = v - f;
            v = frac > 0.5 ? f + 1 : frac < 0.5 ? f : fmod(f, 2.0) != 0.0 ? f : f + 1;
            break;
        }
        default: v = trunc(v); break; /* TRUNC; NONE is the simulator's plain cast */
        }
        int32_t r = v >= -2147483648.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN;
        store_elem(pd, dsz, i, (uint32_t)r);
    }
}

ptort_status ptort_tcvt(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst,
                        ptort_rmode rmode, int saturate, const ptort_tile *tmp)
{
    static const char op[] = "tcvt";
    if (!ctx)
        return PTORT_E_ARG;
    if ((unsigned)rmode > PTORT_RM_ODD)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: rmode %d is out of range", op, (int)rmode);
    ptort_status st;
    if ((st = check_op(ctx, op, "src", src, 1)) || (st = check_op(ctx, op, "dst", dst, 1)) ||
        (tmp && (st = check_op(ctx, op, "tmp", tmp, 0))) ||
        (st = same_valid(ctx, op, "src", src, dst)))
        return st;
    const VecKernels *k = kernels();
    CvtFn fn = cvt_pick(k, src->dtype, dst->dtype);
    if (!fn)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: conversion %s -> %s is not supported", op,
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    if (ctx->arch != PTORT_A5 && cvt_a5_only(src->dtype, dst->dtype))
        return ptort_fail(ctx, PTORT_E_ARCH, "%s: conversion %s -> %s needs arch a5", op,
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    int sim = ctx->numerics == PTORT_NUMERICS_SIM;
    int f2i = is_float_dt(src->dtype) && !is_float_dt(dst->dtype);
    /* the simulator: float destinations always nearest even (a C cast; f32 -> f32 a copy) */
    if (sim && !f2i)
        rmode = PTORT_RM_RINT;
    else if (!(sim && rmode == PTORT_RM_ODD))
        rmode = cvt_mode(src->dtype, dst->dtype, rmode);
    int sim_f2i = sim && f2i && (saturate || rmode == PTORT_RM_ODD);
    CvtFn zfn = ptort_vecz_cvt(src->dtype, dst->dtype, rmode);
    fn = zfn ? zfn : fn;
    int64_t rows = dst->valid_rows, cols = dst->valid_cols;
    if (rows == 0 || cols == 0)
        return PTORT_OK;
    if (dense(src) && dense(dst)) {
        cols *= rows;
        rows = 1;
    }
    /* f32 -> f32 rounds even in RINT; the other float destinations only off nearest even */
    int directed = !sim && cvt_rounds(src->dtype, dst->dtype) &&
                   (rmode != PTORT_RM_RINT || (src->dtype == PTORT_F32 && dst->dtype == PTORT_F32));
    for (int64_t r = 0; r < rows; r++) {
        if (sim_f2i)
            cvt_f2i_sim(src->dtype, dst->dtype, row_ptr(ctx, src, r), row_ptr(ctx, dst, r), cols,
                        saturate != 0, rmode);
        else if (directed)
            cvt_rounding(src->dtype, dst->dtype, row_ptr(ctx, src, r), row_ptr(ctx, dst, r),
                         cols, saturate != 0, rmode);
        else
            fn(row_ptr(ctx, src, r), row_ptr(ctx, dst, r), cols, saturate != 0, rmode);
    }
    return PTORT_OK;
}

/* ---- tci ------------------------------------------------------------------------------------- */

ptort_status ptort_tci(ptort_ctx *ctx, const ptort_tile *dst, int32_t start, int descending)
{
    static const char op[] = "tci";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = check_op(ctx, op, "dst", dst, 1)))
        return st;
    if (dst->dtype != PTORT_I32 && dst->dtype != PTORT_I16 && dst->dtype != PTORT_U32 &&
        dst->dtype != PTORT_U16)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: dst element type %s is not supported", op,
                          ptort_dtype_name(dst->dtype));
    if (dst->rows != 1)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects dst to have 1 row, but got %lld", op,
                          (long long)dst->rows);
    int esz = ptort_dtype_size(dst->dtype);
    uint8_t *p = tile_base(ctx, dst);
    uint32_t s = (uint32_t)start;
    for (int64_t j = 0; j < dst->valid_cols; j++)
        store_elem(p, esz, j, descending ? s - (uint32_t)j : s + (uint32_t)j);
    return PTORT_OK;
}
