/* scalar.c - the scalar ops of generated code (docs/scalars.md): arith's
 * integer, float, compare and cast ops with every case MLIR leaves undefined
 * turned into an error, and pto.load_scalar / pto.store_scalar.
 *
 * An integer of width W (1 to 64; index is 64) is held in an int64_t,
 * sign-extended from bit W-1, so i1 true is -1. The arithmetic runs on
 * uint64_t, where C defines wrap-around, and is sign-extended back. A float
 * (f16, bf16, f32) is held in a float that holds a value of its type exactly;
 * every op rounds its exact result once to the type (round to nearest even). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

static const char *const sop_names[PTORT_NUM_SOPS] = {
    "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui", "arith.remsi", "arith.remui",
    "arith.ceildivsi", "arith.floordivsi", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
    "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrsi", "arith.shrui",
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf", "arith.minimumf", "arith.negf",
    "arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci",
};

/* ---- integers ---------------------------------------------------------------------- */

int64_t ptort_sext(uint64_t x, unsigned w)
{
    if (w >= 64)
        return (int64_t)x;
    uint64_t m = (uint64_t)1 << (w - 1);
    x &= (m << 1) - 1;
    return (int64_t)(x ^ m) - (int64_t)m;
}

uint64_t ptort_zext(int64_t x, unsigned w)
{
    return w >= 64 ? (uint64_t)x : (uint64_t)x & (((uint64_t)1 << w) - 1);
}

static int64_t smin_of(unsigned w) { return w >= 64 ? INT64_MIN : -((int64_t)1 << (w - 1)); }
static int64_t smax_of(unsigned w) { return w >= 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1; }
static uint64_t umax_of(unsigned w) { return w >= 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1; }

/* Arithmetic right shift of a 64-bit value by s < 64, without relying on C's
 * implementation-defined shift of negative numbers. */
static int64_t ashr(int64_t a, unsigned s)
{
    return a < 0 ? (int64_t)~(~(uint64_t)a >> s) : (int64_t)((uint64_t)a >> s);
}

/* Is the exact signed (unsigned) result x, known to fit in 64 bits, representable in W bits? */
static int fits_s(int64_t x, unsigned w) { return x >= smin_of(w) && x <= smax_of(w); }

static ptort_status ub(ptort_ctx *ctx, ptort_sop op, const char *what)
{
    return ptort_fail(ctx, PTORT_E_UB, "'%s': %s", sop_names[op], what);
}

ptort_status ptort_scalar_int(ptort_ctx *ctx, ptort_sop op, int64_t a, int64_t b, unsigned w, unsigned flags,
                              int64_t *r)
{
    if (!r || w < 1 || w > 64 || op < PTORT_SOP_ADDI || op > PTORT_SOP_SHRUI)
        return ptort_fail(ctx, PTORT_E_ARG, "ptort_scalar_int: bad arguments");
    uint64_t ua = ptort_zext(a, w), ub_ = ptort_zext(b, w);
    int nsw = (flags & PTORT_SOP_NSW) != 0, nuw = (flags & PTORT_SOP_NUW) != 0;
    int64_t x = 0;
    switch (op) {
    case PTORT_SOP_ADDI:
    case PTORT_SOP_SUBI: {
        int add = op == PTORT_SOP_ADDI;
        x = ptort_sext(add ? (uint64_t)a + (uint64_t)b : (uint64_t)a - (uint64_t)b, w);
        if (nsw) {
            int64_t e;
            int over = add ? __builtin_add_overflow(a, b, &e) : __builtin_sub_overflow(a, b, &e);
            if (over || !fits_s(e, w))
                return ub(ctx, op, "signed overflow with the nsw flag");
        }
        if (nuw) {
            uint64_t e;
            int over = add ? __builtin_add_overflow(ua, ub_, &e) : __builtin_sub_overflow(ua, ub_, &e);
            if (over || e > umax_of(w))
                return ub(ctx, op, "unsigned overflow with the nuw flag");
        }
        break;
    }
    case PTORT_SOP_MULI:
        x = ptort_sext((uint64_t)a * (uint64_t)b, w);
        if (nsw) {
            int64_t e;
            if (__builtin_mul_overflow(a, b, &e) || !fits_s(e, w))
                return ub(ctx, op, "signed overflow with the nsw flag");
        }
        if (nuw) {
            uint64_t e;
            if (__builtin_mul_overflow(ua, ub_, &e) || e > umax_of(w))
                return ub(ctx, op, "unsigned overflow with the nuw flag");
        }
        break;
    case PTORT_SOP_DIVSI:
    case PTORT_SOP_CEILDIVSI:
    case PTORT_SOP_FLOORDIVSI:
        if (b == 0)
            return ub(ctx, op, "division by zero");
        if (a == smin_of(w) && b == -1)
            return ub(ctx, op, "signed division overflow (the minimum value divided by -1)");
        x = a / b;
        if (a % b != 0 && op == PTORT_SOP_CEILDIVSI && (a < 0) == (b < 0))
            x++;
        if (a % b != 0 && op == PTORT_SOP_FLOORDIVSI && (a < 0) != (b < 0))
            x--;
        break;
    case PTORT_SOP_REMSI:
        if (b == 0)
            return ub(ctx, op, "division by zero");
        x = b == -1 ? 0 : a % b; /* the minimum value % -1 is 0, with no overflow */
        break;
    case PTORT_SOP_DIVUI:
    case PTORT_SOP_REMUI:
        if (ub_ == 0)
            return ub(ctx, op, "division by zero");
        x = ptort_sext(op == PTORT_SOP_DIVUI ? ua / ub_ : ua % ub_, w);
        break;
    case PTORT_SOP_MAXSI: x = a > b ? a : b; break;
    case PTORT_SOP_MINSI: x = a < b ? a : b; break;
    case PTORT_SOP_MAXUI: x = ua > ub_ ? a : b; break;
    case PTORT_SOP_MINUI: x = ua < ub_ ? a : b; break;
    case PTORT_SOP_ANDI: x = (int64_t)((uint64_t)a & (uint64_t)b); break;
    case PTORT_SOP_ORI: x = (int64_t)((uint64_t)a | (uint64_t)b); break;
    case PTORT_SOP_XORI: x = (int64_t)((uint64_t)a ^ (uint64_t)b); break;
    case PTORT_SOP_SHLI:
    case PTORT_SOP_SHRSI:
    case PTORT_SOP_SHRUI: {
        if (ub_ >= w) {
            char m[96];
            snprintf(m, sizeof m, "shift amount %llu is not less than the bit width %u", (unsigned long long)ub_, w);
            return ub(ctx, op, m);
        }
        unsigned s = (unsigned)ub_;
        if (op == PTORT_SOP_SHRSI)
            x = ashr(a, s);
        else if (op == PTORT_SOP_SHRUI)
            x = ptort_sext(ua >> s, w);
        else {
            x = ptort_sext(ua << s, w);
            if (nsw && ashr(x, s) != a)
                return ub(ctx, op, "signed overflow with the nsw flag (bits shifted out)");
            if (nuw && ptort_zext(x, w) >> s != ua)
                return ub(ctx, op, "unsigned overflow with the nuw flag (bits shifted out)");
        }
        break;
    }
    default:
        break;
    }
    *r = x;
    return PTORT_OK;
}

int64_t ptort_scalar_cmpi(int pred, int64_t a, int64_t b, unsigned w)
{
    uint64_t ua = ptort_zext(a, w), ub_ = ptort_zext(b, w);
    int t;
    switch (pred) {
    case 0: t = a == b; break;
    case 1: t = a != b; break;
    case 2: t = a < b; break;
    case 3: t = a <= b; break;
    case 4: t = a > b; break;
    case 5: t = a >= b; break;
    case 6: t = ua < ub_; break;
    case 7: t = ua <= ub_; break;
    case 8: t = ua > ub_; break;
    default: t = ua >= ub_; break;
    }
    return t ? -1 : 0;
}

ptort_status ptort_scalar_cast(ptort_ctx *ctx, ptort_sop op, int64_t a, unsigned from, unsigned to, int64_t *r)
{
    if (!r || from < 1 || from > 64 || to < 1 || to > 64 || op < PTORT_SOP_INDEX_CAST || op > PTORT_SOP_TRUNCI)
        return ptort_fail(ctx, PTORT_E_ARG, "ptort_scalar_cast: bad arguments");
    switch (op) {
    case PTORT_SOP_INDEX_CAST: /* signed: sign-extends, or must fit */
        if (!fits_s(a, to))
            return ptort_fail(ctx, PTORT_E_UB, "'%s': %lld does not fit in i%u", sop_names[op], (long long)a, to);
        *r = a;
        break;
    case PTORT_SOP_INDEX_CASTUI: { /* unsigned: zero-extends, or must fit */
        uint64_t u = ptort_zext(a, from);
        if (u > umax_of(to))
            return ptort_fail(ctx, PTORT_E_UB, "'%s': %llu does not fit in i%u (unsigned)", sop_names[op],
                              (unsigned long long)u, to);
        *r = ptort_sext(u, to);
        break;
    }
    case PTORT_SOP_EXTSI: *r = a; break;
    case PTORT_SOP_EXTUI: *r = ptort_sext(ptort_zext(a, from), to); break;
    default: *r = ptort_sext((uint64_t)a, to); break; /* TRUNCI */
    }
    return PTORT_OK;
}

/* ---- floats -------------------------------------------------------------------------- */

/* Precision, smallest normal exponent (frexp's) and largest finite value of a float type. */
static int float_format(ptort_dtype t, int *prec, int *emin, double *max)
{
    switch (t) {
    case PTORT_F16: *prec = 11, *emin = -13, *max = 65504.0; return 1;
    case PTORT_BF16: *prec = 8, *emin = -125, *max = 0x1.fep127; return 1;
    case PTORT_F32: *prec = 24, *emin = -125, *max = FLT_MAX; return 1;
    default: return 0;
    }
}

/* The quiet NaN every op returns (docs/scalars.md: payloads are not kept). */
static float canonical_nan(void) { return u2f(0x7FC00000u); }

float ptort_scalar_round(double x, ptort_dtype t)
{
    int prec, emin;
    double max;
    if (isnan(x) || !float_format(t, &prec, &emin, &max))
        return canonical_nan();
    if (isinf(x) || x == 0)
        return (float)x;
    int e;
    frexp(x, &e);
    double q = ldexp(1.0, (e > emin ? e : emin) - prec);
    double r = nearbyint(x / q) * q; /* exact scaling; the default mode rounds to nearest even */
    if (fabs(r) > max)
        return x < 0 ? -INFINITY : INFINITY;
    return (float)r;
}

float ptort_scalar_from_bits(uint64_t bits, ptort_dtype t)
{
    switch (t) {
    case PTORT_F16: return ptort_f16_to_f32((uint16_t)bits);
    case PTORT_BF16: return ptort_bf16_to_f32((uint16_t)bits);
    default: return u2f((uint32_t)bits);
    }
}

ptort_status ptort_scalar_float(ptort_ctx *ctx, ptort_sop op, float a, float b, ptort_dtype t, unsigned fastmath,
                                float *r)
{
    int prec, emin;
    double max;
    if (!r || op < PTORT_SOP_ADDF || op > PTORT_SOP_NEGF || !float_format(t, &prec, &emin, &max))
        return ptort_fail(ctx, PTORT_E_ARG, "ptort_scalar_float: bad arguments");
    int unary = op == PTORT_SOP_NEGF;
    /* In double, then rounded to the type: double rounding is harmless for +, -, *, / when
     * the first precision (53) is at least twice the second plus two (24 + 24 + 2). */
    double x = 0, da = a, db = b;
    switch (op) {
    case PTORT_SOP_ADDF: x = da + db; break;
    case PTORT_SOP_SUBF: x = da - db; break;
    case PTORT_SOP_MULF: x = da * db; break;
    case PTORT_SOP_DIVF: x = da / db; break;
    case PTORT_SOP_MAXIMUMF:
    case PTORT_SOP_MINIMUMF: {
        int mx = op == PTORT_SOP_MAXIMUMF;
        if (isnan(a) || isnan(b))
            x = NAN;
        else if (a == b) /* +0 and -0: maximum is +0, minimum -0 */
            x = mx ? (signbit(a) ? db : da) : (signbit(a) ? da : db);
        else
            x = mx ? (a > b ? da : db) : (a < b ? da : db);
        break;
    }
    default: /* NEGF flips the sign bit, of a NaN too */
        break;
    }
    float y;
    if (unary)
        y = u2f(f2u(a) ^ 0x80000000u);
    else
        y = ptort_scalar_round(x, t);
    if ((fastmath & PTORT_SOP_NNAN) && (isnan(a) || (!unary && isnan(b)) || isnan(y)))
        return ptort_fail(ctx, PTORT_E_UB, "'%s': a NaN operand or result with the nnan fastmath flag", sop_names[op]);
    if ((fastmath & PTORT_SOP_NINF) && (isinf(a) || (!unary && isinf(b)) || isinf(y)))
        return ptort_fail(ctx, PTORT_E_UB, "'%s': an infinite operand or result with the ninf fastmath flag",
                          sop_names[op]);
    *r = y;
    return PTORT_OK;
}

/* ---- pto.load_scalar / pto.store_scalar ------------------------------------------------ */

static ptort_status access(ptort_ctx *ctx, const char *op, size_t size, int64_t index, unsigned bytes)
{
    if (index < 0 || (uint64_t)index >= size / bytes)
        return ptort_fail(ctx, PTORT_E_VIEW, "'%s': element %lld is outside the %zu-byte buffer (%zu elements)", op,
                          (long long)index, size, size / bytes);
    return PTORT_OK;
}

ptort_status ptort_load_scalar_int(ptort_ctx *ctx, const void *p, size_t size, int64_t index, unsigned bytes,
                                   int64_t *r)
{
    ptort_status st = access(ctx, "pto.load_scalar", size, index, bytes);
    if (st != PTORT_OK)
        return st;
    uint64_t v = 0;
    const unsigned char *q = (const unsigned char *)p + (size_t)index * bytes;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)q[i] << (8 * i);
    *r = ptort_sext(v, 8 * bytes);
    return PTORT_OK;
}

ptort_status ptort_store_scalar_int(ptort_ctx *ctx, void *p, size_t size, int64_t index, unsigned bytes, int64_t v)
{
    ptort_status st = access(ctx, "pto.store_scalar", size, index, bytes);
    if (st != PTORT_OK)
        return st;
    unsigned char *q = (unsigned char *)p + (size_t)index * bytes;
    for (unsigned i = 0; i < bytes; i++)
        q[i] = (unsigned char)((uint64_t)v >> (8 * i));
    return PTORT_OK;
}

ptort_status ptort_load_scalar_float(ptort_ctx *ctx, const void *p, size_t size, int64_t index, ptort_dtype t,
                                     float *r)
{
    unsigned bytes = t == PTORT_F32 ? 4 : 2;
    int64_t bits;
    ptort_status st = ptort_load_scalar_int(ctx, p, size, index, bytes, &bits);
    if (st == PTORT_OK)
        *r = ptort_scalar_from_bits(ptort_zext(bits, 8 * bytes), t);
    return st;
}

ptort_status ptort_store_scalar_float(ptort_ctx *ctx, void *p, size_t size, int64_t index, ptort_dtype t, float v)
{
    uint64_t bits = t == PTORT_F16 ? ptort_f32_to_f16(v) : t == PTORT_BF16 ? ptort_f32_to_bf16(v) : f2u(v);
    return ptort_store_scalar_int(ctx, p, size, index, t == PTORT_F32 ? 4 : 2, (int64_t)bits);
}
