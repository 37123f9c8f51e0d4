/* ref_fp.h - slow, obviously-correct reference encoders for e4m3 and e2m1, shared by the
 * exhaustive test (exhaustive.c) and its strided sample in `make check`.
 *
 * The reference enumerates the format's non-negative values from the format definition
 * (computed with ldexp in double), finds the two neighbours of |x| by binary search, and
 * compares |x| with their midpoint (exact in double): below goes down, above goes up, equal
 * goes to the even code. Beyond the largest value it saturates; NaN gives the positive NaN
 * code the runtime documents (0x7F / 0x7); the sign bit is copied, so -0 keeps its sign.
 */
#ifndef REF_FP_H
#define REF_FP_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    double val[128];
    int ncodes;          /* non-negative finite codes 0 .. ncodes-1, in increasing value */
    int sign_shift;      /* position of the sign bit */
    uint8_t nan_code;
} RefFormat;

/* e4m3: bias 7, 3 mantissa bits, codes 0x00..0x7E finite (0x7F is NaN). */
static void ref_init_e4m3(RefFormat *f)
{
    for (int c = 0; c <= 0x7E; c++) {
        int e = c >> 3, m = c & 7;
        f->val[c] = e == 0 ? ldexp(m, -9) : ldexp(8 + m, e - 7 - 3);
    }
    f->ncodes = 0x7F;
    f->sign_shift = 7;
    f->nan_code = 0x7F;
}

/* e2m1: bias 1, 1 mantissa bit, codes 0..7 = 0 .5 1 1.5 2 3 4 6. */
static void ref_init_e2m1(RefFormat *f)
{
    for (int c = 0; c <= 7; c++) {
        int e = c >> 1, m = c & 1;
        f->val[c] = e == 0 ? ldexp(m, -1) : ldexp(2 + m, e - 1 - 1);
    }
    f->ncodes = 8;
    f->sign_shift = 3;
    f->nan_code = 0x7;
}

static uint8_t ref_encode(const RefFormat *f, float x)
{
    if (isnan(x))
        return f->nan_code;
    uint32_t bits;
    memcpy(&bits, &x, 4);
    uint8_t sign = (uint8_t)((bits >> 31) << f->sign_shift);
    double a = fabs((double)x);
    int top = f->ncodes - 1;
    if (a >= f->val[top])
        return (uint8_t)(sign | top);
    int lo = 0, hi = top;                    /* val[lo] <= a < val[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (f->val[mid] <= a)
            lo = mid;
        else
            hi = mid;
    }
    double midpoint = (f->val[lo] + f->val[hi]) / 2;
    int code = a < midpoint ? lo : a > midpoint ? hi : (lo % 2 == 0 ? lo : hi);
    return (uint8_t)(sign | code);
}

/* Compares the runtime's encoders with the reference on the patterns 0, STRIDE, 2*STRIDE,
 * ... below 2^32, plus a list of special patterns; returns the number of mismatches and
 * reports the first few on stderr. */
static uint64_t ref_compare(uint64_t stride, uint64_t *checked)
{
    RefFormat f8, f4;
    ref_init_e4m3(&f8);
    ref_init_e2m1(&f4);
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x00000001u, 0x007FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu,
        0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x43E00000u,
        0x43E00001u, 0x43E80000u, 0x43E7FFFFu, 0x3A800000u, 0x3A000000u, 0x3AC00000u,
        0x40C00000u, 0x40B00000u, 0x40A00000u, 0x3E800000u, 0x3F400000u, 0x3C800000u,
        0x3C7FFFFFu, 0x3BF00000u, 0x3F800000u, 0x3F7FFFFFu};
    uint64_t bad = 0, n = 0;
    uint64_t nspecial = sizeof special / sizeof special[0];
    for (uint64_t i = 0; i < nspecial + ((1ull << 32) + stride - 1) / stride; i++) {
        uint32_t b = i < nspecial ? special[i] : (uint32_t)((i - nspecial) * stride);
        float x;
        memcpy(&x, &b, 4);
        uint8_t r8 = ref_encode(&f8, x), g8 = ptort_f32_to_e4m3(x);
        uint8_t r4 = ref_encode(&f4, x), g4 = ptort_f32_to_e2m1(x);
        n += 2;
        if (r8 != g8 || r4 != g4) {
            if (bad < 5)
                fprintf(stderr, "mismatch at 0x%08x: e4m3 0x%02x (reference 0x%02x), e2m1 0x%x (reference 0x%x)\n",
                        b, g8, r8, g4, r4);
            bad++;
        }
    }
    *checked = n;
    return bad;
}

#endif
