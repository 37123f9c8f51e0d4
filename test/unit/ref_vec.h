/* ref_vec.h - slow, independent reference models of the vector ops' numerics (test_vec.c,
 * exhaustive.c). Nothing here shares code with the runtime: values are decoded with ldexp,
 * rounded with nearbyint in double (the default mode is round-to-nearest-even) after scaling
 * by a power of two, and the special cases are spelled out from docs/vector-ops.md.
 */
#ifndef REF_VEC_H
#define REF_VEC_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "bits.h"

static inline double ref_f16_val(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

static inline double ref_bf16_val(uint16_t b)
{
    int e = (b >> 7) & 255, m = b & 127;
    double v = e == 0 ? ldexp(m, -133) : e == 255 ? (m ? NAN : INFINITY) : ldexp(128 + m, e - 134);
    return (b & 0x8000) ? -v : v;
}

/* A binary format with P significand bits (hidden bit included), minimum normal exponent
 * EMIN and exponent field width EW: round the finite double V to it per tcvt rmode RM (1
 * RINT ties to even, 2 ROUND ties away, 3 FLOOR, 4 CEIL, 5 TRUNC, 6 ODD: truncate, then set
 * the last bit when inexact) and return the bits (sign, exponent field, fraction). Overflow
 * gives Inf for the modes that round away from zero there (RINT, ROUND, CEIL of a positive
 * and FLOOR of a negative value), else the largest finite value (IEEE 754, 7.4). */
static inline uint32_t ref_round_fmt_rm(double v, int p, int emin, int ew, int rm)
{
    uint32_t sign = signbit(v) ? 1u << (p - 1 + ew) : 0;
    double a = fabs(v);
    uint32_t inf = ((1u << ew) - 1) << (p - 1);
    if (a == 0)
        return sign;
    if (isinf(a))
        return sign | inf;
    if (sign && (rm == 3 || rm == 4))
        rm = 7 - rm;               /* on the magnitude FLOOR and CEIL swap */
    int ex;
    frexp(a, &ex);                 /* a = f * 2^ex, f in [0.5, 1) */
    int e = ex - 1;                /* a in [2^e, 2^(e+1)) */
    if (e < emin)
        e = emin;                  /* subnormal: fixed quantum 2^(emin - p + 1) */
    double s = ldexp(a, p - 1 - e), q;
    switch (rm) {
    case 2: q = round(s); break;
    case 3: case 5: q = floor(s); break;
    case 4: q = ceil(s); break;
    case 6: q = floor(s); q = q != s && fmod(q, 2.0) == 0 ? q + 1 : q; break;
    default: q = nearbyint(s); break;
    }
    if (q >= ldexp(1, p)) {        /* rounded up to the next binade */
        q /= 2;
        e++;
    }
    if (q < ldexp(1, p - 1))       /* still subnormal */
        return sign | (uint32_t)q;
    int bias = 1 - emin;
    if (e + bias >= (1 << ew) - 1)
        return sign | (rm == 1 || rm == 2 || rm == 4 ? inf : inf - 1);
    return sign | ((uint32_t)(e + bias) << (p - 1)) | ((uint32_t)q - (1u << (p - 1)));
}

static inline uint32_t ref_round_fmt(double v, int p, int emin, int ew)
{
    return ref_round_fmt_rm(v, p, emin, ew, 1);
}

static inline uint16_t ref_to_f16(double v) { return (uint16_t)ref_round_fmt(v, 11, -14, 5); }
static inline uint16_t ref_to_bf16(double v) { return (uint16_t)ref_round_fmt(v, 8, -126, 8); }

/* f32 value -> f16 with the NaN rule of the runtime: quiet NaN, top payload bits kept. */
static inline uint16_t ref_f32_to_f16(uint32_t x)
{
    if ((x & 0x7FFFFFFFu) > 0x7F800000u)
        return (uint16_t)(((x >> 16) & 0x8000u) | 0x7E00u | ((x >> 13) & 0x3FFu));
    return ref_to_f16(unit_u2f(x));
}

static inline uint16_t ref_f32_to_bf16(uint32_t x)
{
    if ((x & 0x7FFFFFFFu) > 0x7F800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    return ref_to_bf16(unit_u2f(x));
}

/* Rounding to an integral value per tcvt rmode into an integer (1 RINT, 2 ROUND, 3 FLOOR,
 * 4 CEIL, 5 TRUNC; 0 NONE and 6 ODD truncate: pto-isa's TCvt has no odd rounding into
 * integers and falls back to its default, truncation). */
static inline double ref_round_int(double v, int rm)
{
    switch (rm) {
    case 1: return nearbyint(v);
    case 2: return round(v);
    case 3: return floor(v);
    case 4: return ceil(v);
    default: return trunc(v);
    }
}

/* The float -> int conversion of docs/vector-ops.md: without saturation an x86 cast to int32
 * (out of range and NaN -> INT32_MIN) keeping the low BITS bits; with saturation a clamp to
 * [LO, HI] (NaN -> HI) first. Returns the destination bits. */
static inline uint32_t ref_f2i(double v, int rm, int sat, double lo, double hi, int bits)
{
    if (sat) {
        if (isnan(v) || v > hi)
            v = hi;
        if (v < lo)
            v = lo;
    }
    double r = ref_round_int(v, rm);
    if (sat && r > hi)
        r = hi;
    int64_t i = (!isnan(r) && r >= -2147483648.0 && r < 2147483648.0) ? (int64_t)r : INT32_MIN;
    uint64_t mask = bits == 32 ? 0xFFFFFFFFull : (1ull << bits) - 1;
    return (uint32_t)((uint64_t)i & mask);
}

/* A binary elementwise op on f16 (BF = 0) or bf16 (BF = 1) bits, docs/vector-ops.md: OP 0 add,
 * 1 sub, 2 mul, 3 div round the exact result once; a NaN operand comes back quiet, the left
 * one first; an invalid operation gives the default NaN (sign set). 4 max = x < y ? y : x,
 * 5 min = y < x ? y : x, comparing values (NaN never compares, -0 == +0). */
static inline uint16_t ref_binary16(int op, uint16_t x, uint16_t y, int bf)
{
    double a = bf ? ref_bf16_val(x) : ref_f16_val(x), b = bf ? ref_bf16_val(y) : ref_f16_val(y);
    uint16_t quiet = bf ? 0x0040 : 0x0200, dnan = bf ? 0xFFC0 : 0xFE00;
    if (op == 4)
        return a < b ? y : x;
    if (op == 5)
        return b < a ? y : x;
    if (isnan(a))
        return x | quiet;
    if (isnan(b))
        return y | quiet;
    double r = op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : a / b;
    if (isnan(r))
        return dnan;
    return bf ? ref_to_bf16(r) : ref_to_f16(r);
}

#endif
