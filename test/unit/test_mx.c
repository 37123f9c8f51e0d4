/* test_mx.c - tquant MXFP8 / MXFP4 against docs/numerics.md section 1.
 *
 * Expected bytes are the worked vectors of docs/numerics.md or values worked out by hand in the
 * comments next to them (exponents from the bit rules, codes from the e4m3/e2m1 grids).
 */
#include <math.h>
#include <stdlib.h>

#include "ptort.h"
#include "unit.h"

static ptort_ctx *ctx;

/* One MX op's tiles, placed at fixed addresses of vec. */
typedef struct {
    ptort_tile src, dst, exp, max, sc, zz;
} Io;

enum { A_SRC = 0, A_DST = 131072, A_EXP = 163840, A_MAX = 180224, A_SC = 196608, A_ZZ = 229376 };

static int64_t round32(int64_t bytes)
{
    return (bytes + 31) / 32 * 32;
}

/* Sets up tiles for an M x N valid src region on an R x C physical src. */
static void setup(Io *io, int fp4, ptort_dtype sdt, ptort_group_axis ax, int64_t r, int64_t c,
                  int64_t m, int64_t n, int flat)
{
    int sz = ptort_dtype_size(sdt);
    io->src = ptort_tile_make(PTORT_VEC, sdt, r, c, A_SRC);
    io->src.valid_rows = m;
    io->src.valid_cols = n;
    io->dst = ptort_tile_make(PTORT_VEC, fp4 ? PTORT_F4E2M1X2 : PTORT_F8E4M3FN, r,
                              fp4 ? round32(c / 2) : round32(c), A_DST);
    io->dst.valid_rows = m;
    io->dst.valid_cols = fp4 ? (n + 1) / 2 : n;
    int64_t er, ec, pr;
    if (ax == PTORT_AXIS1) {
        pr = r;
        er = m;
        ec = (n + 31) / 32;
        if (flat) {
            ec = er * ec;
            er = pr = 1;
        }
    } else {
        pr = r / 32;
        er = m / 32;
        ec = n;
    }
    io->exp = ptort_tile_make(PTORT_VEC, PTORT_U8, pr, round32(ec), A_EXP);
    io->exp.valid_rows = er;
    io->exp.valid_cols = ec;
    io->max = ptort_tile_make(PTORT_VEC, sdt, pr, round32(ec * sz) / sz, A_MAX);
    io->max.valid_rows = er;
    io->max.valid_cols = ec;
    io->sc = io->max;
    io->sc.addr = A_SC;
}

/* Converts fp32 inputs to the src dtype's raw elements. */
static void to_src(ptort_dtype sdt, const float *in, void *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (sdt == PTORT_F32)
            memcpy((uint8_t *)out + 4 * i, &in[i], 4);
        else {
            uint16_t h = sdt == PTORT_F16 ? ptort_f32_to_f16(in[i]) : ptort_f32_to_bf16(in[i]);
            memcpy((uint8_t *)out + 2 * i, &h, 2);
        }
    }
}

/* Element (r, c) of a tile as raw bits. */
static uint32_t get(const ptort_tile *t, int64_t r, int64_t c)
{
    uint8_t *mem = ptort_mem(ctx, t->loc, NULL);
    int sz = ptort_dtype_size(t->dtype);
    uint32_t v = 0;
    memcpy(&v, mem + t->addr + ptort_tile_offset(t, r, c) * sz, (size_t)sz);
    return v;
}

/* The expected scale 2^(127-e) (e < 0xFE) in the src dtype; independent of the runtime. */
static uint32_t scale_bits(ptort_dtype sdt, unsigned e)
{
    float s = ldexpf(1.0f, 127 - (int)e);
    if (sdt == PTORT_F32)
        return unit_f2u(s);
    if (sdt == PTORT_BF16)
        return unit_f2u(s) >> 16;
    /* f16: powers of two 2^-24 .. 2^15 exist; larger -> Inf, smaller -> 0 for these tests */
    int k = 127 - (int)e;
    if (k > 15)
        return 0x7C00;
    if (k >= -14)
        return (uint32_t)(k + 15) << 10;
    if (k >= -24)
        return 1u << (k + 24);
    return 0;
}

static uint32_t max_bits(ptort_dtype sdt, float m)
{
    if (sdt == PTORT_F32)
        return unit_f2u(m);
    if (sdt == PTORT_BF16)
        return unit_f2u(m) >> 16;
    return ptort_f32_to_f16(m);
}

/* Runs one group of 32 (the inputs, then zeros) on a 1-row tile and checks e, the codes (fp8
 * bytes or fp4 nibbles), max and scaling. */
static void one_group(ptort_quant_type qt, ptort_scale_alg alg, ptort_dtype sdt,
                      const float *in, int nin, unsigned e, const uint8_t *codes, float m)
{
    int fp4 = qt == PTORT_MXFP4_E2M1;
    Io io;
    setup(&io, fp4, sdt, PTORT_AXIS1, 1, 32, 1, 32, 0);
    float x[32] = {0};
    memcpy(x, in, (size_t)nin * sizeof(float));
    uint8_t raw[128];
    to_src(sdt, x, raw, 32);
    CHECK(ptort_tile_fill(ctx, &io.src, raw, 1, 32) == PTORT_OK);
    ptort_status st = ptort_tquant_mx(ctx, qt, alg, PTORT_AXIS1, &io.src, &io.dst, &io.exp,
                                      &io.max, &io.sc, NULL);
    if (!CHECK(st == PTORT_OK)) {
        fprintf(stderr, "    %s\n", ptort_error(ctx));
        return;
    }
    CHECK_EQ(get(&io.exp, 0, 0), e);
    uint8_t want[32] = {0};
    memcpy(want, codes, (size_t)nin);
    if (!fp4) {
        uint8_t got[32];
        for (int i = 0; i < 32; i++)
            got[i] = (uint8_t)get(&io.dst, 0, i);
        CHECK_BYTES(got, want, 32);
    } else {
        uint8_t got[16], wb[16];
        for (int i = 0; i < 16; i++) {
            got[i] = (uint8_t)get(&io.dst, 0, i);
            wb[i] = (uint8_t)(want[2 * i] | want[2 * i + 1] << 4);
        }
        CHECK_BYTES(got, wb, 16);
    }
    CHECK_EQ(get(&io.max, 0, 0), max_bits(sdt, m));
    CHECK_EQ(get(&io.sc, 0, 0), scale_bits(sdt, e));
}

static const ptort_dtype all_src[3] = {PTORT_F32, PTORT_F16, PTORT_BF16};

static void worked_vectors(void)
{
    for (int d = 0; d < 3; d++) {
        ptort_dtype s = all_src[d];
        for (int alg = 0; alg < 2; alg++) {
            float a[] = {448, -448, 1, 0.5f, -0.0f};
            uint8_t ca[] = {0x7E, 0xFE, 0x38, 0x30, 0x80};
            one_group(PTORT_MXFP8, (ptort_scale_alg)alg, s, a, 5, 0x7F, ca, 448);
            float b[] = {1.0f, -0.25f, 0.1f, 0.0078125f};
            uint8_t cb[] = {0x78, 0xE8, 0x5D, 0x40};
            one_group(PTORT_MXFP8, (ptort_scale_alg)alg, s, b, 4, 0x77, cb, 1.0f);
            float z[1] = {0};
            uint8_t cz[1] = {0};
            one_group(PTORT_MXFP8, (ptort_scale_alg)alg, s, z, 1, 0x00, cz, 0.0f);
        }
        float c[] = {480, -240, 1, 3};
        uint8_t cocp[] = {0x7E, 0xF7, 0x38, 0x44}, cnv[] = {0x77, 0xEF, 0x30, 0x3C};
        one_group(PTORT_MXFP8, PTORT_SCALE_OCP, s, c, 4, 0x7F, cocp, 480);
        one_group(PTORT_MXFP8, PTORT_SCALE_NV, s, c, 4, 0x80, cnv, 480);
        if (s != PTORT_BF16) {
            float f[] = {65504, -1, 0.5f};
            uint8_t focp[] = {0x7E, 0x84, 0x02}, fnv[] = {0x78, 0x82, 0x01};
            one_group(PTORT_MXFP8, PTORT_SCALE_OCP, s, f, 3, 0x86, focp, 65504);
            one_group(PTORT_MXFP8, PTORT_SCALE_NV, s, f, 3, 0x87, fnv, 65504);
        }
        if (s == PTORT_F32)
            continue;
        for (int alg = 0; alg < 2; alg++) {
            float g[] = {6, -6, 3, -0.25f, 0.75f, 1.25f};
            uint8_t cg[] = {0x7, 0xF, 0x5, 0x8, 0x2, 0x2};
            one_group(PTORT_MXFP4_E2M1, (ptort_scale_alg)alg, s, g, 6, 0x7F, cg, 6);
            float z[1] = {0};
            uint8_t cz[1] = {0};
            one_group(PTORT_MXFP4_E2M1, (ptort_scale_alg)alg, s, z, 1, 0x00, cz, 0);
        }
        float h[] = {7, -3.5f, 5, 1};
        uint8_t hocp[] = {0x7, 0xE, 0x6, 0x2}, hnv[] = {0x6, 0xC, 0x4, 0x1};
        one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, s, h, 4, 0x7F, hocp, 7);
        one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_NV, s, h, 4, 0x80, hnv, 7);
    }
    /* The packed bytes of the fp4 vector exactly as docs/numerics.md lists them: F7 85 22. */
    Io io;
    setup(&io, 1, PTORT_F16, PTORT_AXIS1, 1, 32, 1, 32, 0);
    float g[32] = {6, -6, 3, -0.25f, 0.75f, 1.25f};
    uint16_t raw[32];
    to_src(PTORT_F16, g, raw, 32);
    ptort_tile_fill(ctx, &io.src, raw, 1, 32);
    CHECK(ptort_tquant_mx(ctx, PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src, &io.dst,
                          &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
    uint8_t got[3], want[3] = {0xF7, 0x85, 0x22};
    memcpy(got, ptort_mem(ctx, PTORT_VEC, NULL) + A_DST, 3);
    CHECK_BYTES(got, want, 3);
}

/* Single-element groups on the exponent rules' edges (derivations in the comments). */
static void exponent_edges(void)
{
    float x[1];
    uint8_t c[2];
    /* Smallest subnormal 2^-149: OCP E=0 -> 0; NV d underflows to 0 -> 0. Scaled by 2^127
     * it is 2^-22, far below the e4m3 subnormal 2^-9 -> code 0. */
    x[0] = unit_u2f(1);
    c[0] = 0;
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, x, 1, 0, c, x[0]);
    one_group(PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, x, 1, 0, c, x[0]);
    /* Largest subnormal (2^-126 - 2^-149): OCP 0; NV d ~ 2^-134.8, subnormal with a small
     * mantissa -> 0. Scaled by 2^127: ~2 (1.99999976) -> e4m3 2.0 = 0x40. */
    x[0] = unit_u2f(0x007FFFFF);
    c[0] = 0x40;
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, x, 1, 0, c, x[0]);
    one_group(PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, x, 1, 0, c, x[0]);
    /* 2^-118 (E=9): OCP 9-8 = 1; NV d = 2^-118 * K = 1.142857 * 2^-127, subnormal with
     * mantissa 0x492492 > 0x400000 -> 0+1 = 1. s = 2^126 -> 2^8 = 256 = 0x78. */
    x[0] = ldexpf(1.0f, -118);
    c[0] = 0x78;
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, x, 1, 1, c, x[0]);
    one_group(PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, x, 1, 1, c, x[0]);
    /* 2^-119: NV d = 1.142857 * 2^-128, mantissa 0x249249 <= 0x400000 -> 0; s = 2^127 ->
     * 2^8 = 0x78. OCP: E=8, not > 8 -> 0, same code. */
    x[0] = ldexpf(1.0f, -119);
    one_group(PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, x, 1, 0, c, x[0]);
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, x, 1, 0, c, x[0]);
    /* 448: 448 * K = 1 + 1.5*2^-25 rounds to 1.0 -> NV 0x7F; OCP E=135 -> 0x7F. */
    x[0] = 448;
    c[0] = 0x7E;
    one_group(PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, x, 1, 0x7F, c, 448);
    /* The next float after 448: OCP still 0x7F and saturates to 448; NV d > 1 -> 0x80,
     * s = 1/2 -> 224.00002 -> 224 = 0x76. */
    x[0] = unit_u2f(0x43E00001);
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, x, 1, 0x7F, c, x[0]);
    c[0] = 0x76;
    one_group(PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, x, 1, 0x80, c, x[0]);
    /* Significand 1.8 > 1.75: 460.8 -> OCP 0x7F, clipped to 448; NV 0x80, 230.4 -> 224. */
    x[0] = 460.8f;
    c[0] = 0x7E;
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, x, 1, 0x7F, c, x[0]);
    c[0] = 0x76;
    one_group(PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, x, 1, 0x80, c, x[0]);
    /* fp4, significand 1.5 (3 = 1.5*2): OCP E=128 -> 126, s=2 -> 6 = 0x7; NV d = 0.5 -> 126. */
    x[0] = 3;
    c[0] = 0x7;
    one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_F16, x, 1, 126, c, 3);
    one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_NV, PTORT_F16, x, 1, 126, c, 3);
    /* 3.5 = 1.75*2: OCP 126, s=2 -> 7, clipped to 6 (0x7); NV d=0.583 -> 127, s=1 -> 3.5 is a
     * tie between 3 (code 5) and 4 (code 6) -> even code 6. */
    x[0] = 3.5f;
    one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_BF16, x, 1, 126, c, 3.5f);
    c[0] = 0x6;
    one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_NV, PTORT_BF16, x, 1, 127, c, 3.5f);
    /* fp32 max 0x7F7FFFFF: OCP E=254 -> 246, s=2^-119 -> 511.99997 -> saturates 0x7E;
     * NV d ~ 2^119.19 -> 247, s=2^-120 -> 255.99998 -> 256 = 0x78. */
    x[0] = unit_u2f(0x7F7FFFFF);
    c[0] = 0x7E;
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, x, 1, 0xF6, c, x[0]);
    c[0] = 0x78;
    one_group(PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, x, 1, 0xF7, c, x[0]);
    /* bf16 max 0x7F7F (1.9921875 * 2^127), fp4: OCP 252, s=2^-125 -> 7.97 -> 6 (0x7); NV
     * d ~ 1.33 * 2^125 -> 253, s = 2^-126 -> 3.98 -> 4 (0x6). */
    x[0] = unit_u2f(0x7F7F0000);
    c[0] = 0x7;
    one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_BF16, x, 1, 0xFC, c, x[0]);
    c[0] = 0x6;
    one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_NV, PTORT_BF16, x, 1, 0xFD, c, x[0]);
    /* +Inf with a 1.0 beside it: OCP fp8 0xF7 (s = 2^-120: Inf -> 0x7E, 1 -> 0); fp4 0xFD. */
    float inf2[2] = {INFINITY, 1.0f};
    c[0] = 0x7E;
    c[1] = 0x00;
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, inf2, 2, 0xF7, c, INFINITY);
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F16, inf2, 2, 0xF7, c, INFINITY);
    c[0] = 0x7;
    one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_BF16, inf2, 2, 0xFD, c, INFINITY);
    /* -Inf encodes as -max. */
    float ninf[1] = {-INFINITY};
    c[0] = 0xFE;
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, ninf, 1, 0xF7, c, INFINITY);
}

/* NV with +Inf: e = 0xFE, s = 2^-127 (f32 0x00400000, bf16 0x0040, f16 0). */
static void nv_inf(void)
{
    for (int d = 0; d < 3; d++) {
        ptort_dtype s = all_src[d];
        Io io;
        setup(&io, 0, s, PTORT_AXIS1, 1, 32, 1, 32, 0);
        float x[32] = {INFINITY, 1.0f};
        uint8_t raw[128];
        to_src(s, x, raw, 32);
        ptort_tile_fill(ctx, &io.src, raw, 1, 32);
        CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_NV, PTORT_AXIS1, &io.src, &io.dst,
                              &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
        CHECK_EQ(get(&io.exp, 0, 0), 0xFE);
        CHECK_EQ(get(&io.dst, 0, 0), 0x7E);
        CHECK_EQ(get(&io.dst, 0, 1), 0x00);
        uint32_t want = s == PTORT_F32 ? 0x00400000u : s == PTORT_BF16 ? 0x0040u : 0u;
        CHECK_EQ(get(&io.sc, 0, 0), want);
    }
}

/* NV with d = m * K a subnormal fp32 at the boundary of docs/numerics.md's rule: d's
 * mantissa exactly 0x400000 (m = 0x04600000 for MXFP8, K nearest 1/448; m = 0x01400000 for
 * MXFP4, K nearest 1/6, a bf16 value) gives e = 0, one more (0x00400001, from m two or one
 * ulps up) gives e = 1; on every kernel set. */
static void set_pass(int pass);

static void nv_subnormal_d(void)
{
    static const struct { int fp4; uint32_t m; unsigned e; } cases[] = {
        {0, 0x04600000u, 0}, {0, 0x045FFFFEu, 0}, {0, 0x04600002u, 1},
        {1, 0x01400000u, 0}, {1, 0x01410000u, 1},
    };
    for (int pass = 0; pass < 3; pass++) {
        set_pass(pass);
        for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            int fp4 = cases[i].fp4;
            ptort_dtype sdt = fp4 ? PTORT_BF16 : PTORT_F32;
            Io io;
            setup(&io, fp4, sdt, PTORT_AXIS1, 1, 32, 1, 32, 0);
            uint8_t raw[128] = {0};
            if (fp4) {
                uint16_t h = (uint16_t)(cases[i].m >> 16);
                memcpy(raw + 6, &h, 2);
            } else {
                memcpy(raw + 12, &cases[i].m, 4);
            }
            ptort_tile_fill(ctx, &io.src, raw, 1, 32);
            CHECK(ptort_tquant_mx(ctx, fp4 ? PTORT_MXFP4_E2M1 : PTORT_MXFP8, PTORT_SCALE_NV, PTORT_AXIS1,
                                  &io.src, &io.dst, &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
            CHECK_EQ(get(&io.exp, 0, 0), cases[i].e);
        }
    }
    set_pass(0);
}

/* Ties through the op (group max 448 -> e = 0x7F, s = 1) and the encoders directly. */
static void rounding_ties(void)
{
    float x[] = {448, 1.0625f, 1.1875f, ldexpf(0.5f, -9), ldexpf(1.5f, -9), ldexpf(2.5f, -9),
                 -ldexpf(0.5f, -9), -ldexpf(1.5f, -9), 17.0f, 19.0f, -0.0f, 240 + 8, 464};
    /* 1.0625 tie 1|1.125 -> 1.0 (0x38); 1.1875 tie 1.125|1.25 -> 1.25 (0x3A); 0.5 ulp_sub -> 0;
     * 1.5 -> 2 (0x02); 2.5 -> 2; negatives keep the sign (0x80, 0x82); 17 tie 16|18 -> 16
     * (0x58); 19 tie 18|20 -> 20 (0x5A); -0 -> 0x80; 248 tie 240|256 -> 256 (0x78);
     * 464 -> saturates to 448 (0x7E). */
    uint8_t c[] = {0x7E, 0x38, 0x3A, 0x00, 0x02, 0x02, 0x80, 0x82, 0x58, 0x5A, 0x80, 0x78, 0x7E};
    one_group(PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, x, 13, 0x7F, c, 464);
    /* OCP with max 464: E=135 -> 0x7F as well, so the codes are the same. */

    /* e2m1 grid 0 .5 1 1.5 2 3 4 6: ties go to the even code. */
    float y[] = {6, 0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f, -0.25f, -5.0f, 0.3f};
    uint8_t d[] = {0x7, 0x0, 0x2, 0x2, 0x4, 0x4, 0x6, 0x6, 0x8, 0xE, 0x1};
    one_group(PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_F16, y, 11, 0x7F, d, 6);

    CHECK_EQ(ptort_f32_to_e4m3(-0.0f), 0x80);
    CHECK_EQ(ptort_f32_to_e4m3(-ldexpf(1.0f, -11)), 0x80);
    CHECK_EQ(ptort_f32_to_e4m3(0.0f), 0x00);
    CHECK_EQ(ptort_f32_to_e4m3(INFINITY), 0x7E);
    CHECK_EQ(ptort_f32_to_e4m3(-INFINITY), 0xFE);
    CHECK_EQ(ptort_f32_to_e4m3(NAN), 0x7F);
    CHECK_EQ(ptort_f32_to_e4m3(1e30f), 0x7E);
    CHECK_EQ(ptort_f32_to_e4m3(ldexpf(1.0f, -6)), 0x08);       /* smallest normal */
    CHECK_EQ(ptort_f32_to_e4m3(ldexpf(7.5f, -9)), 0x08);       /* 7.5 ulp ties up to 8 */
    CHECK_EQ(ptort_f32_to_e4m3(ldexpf(6.5f, -9)), 0x06);       /* 6.5 ties down to 6 */
    CHECK_EQ(ptort_f32_to_e2m1(-0.0f), 0x8);
    CHECK_EQ(ptort_f32_to_e2m1(-0.1f), 0x8);
    CHECK_EQ(ptort_f32_to_e2m1(INFINITY), 0x7);
    CHECK_EQ(ptort_f32_to_e2m1(-INFINITY), 0xF);
    CHECK_EQ(ptort_f32_to_e2m1(NAN), 0x7);
    CHECK_EQ(ptort_f32_to_e2m1(100.0f), 0x7);
    CHECK(ptort_e4m3_to_f32(0x7E) == 448.0f);
    CHECK(ptort_e4m3_to_f32(0x01) == ldexpf(1.0f, -9));
    CHECK(isnan(ptort_e4m3_to_f32(0xFF)));
    CHECK(ptort_e2m1_to_f32(0xF) == -6.0f);
    CHECK(ptort_e8m0_to_f32(0x7F) == 1.0f);
}

/* A NaN anywhere poisons the group: e 0xFF, codes 0x7F / 0x7, max and scaling the quiet NaN
 * of the dtype; the neighbouring group is unaffected. */
static void nan_poisoning(void)
{
    static const uint32_t qnan[3] = {0x7FC00000u, 0x7E00u, 0x7FC0u};
    for (int d = 0; d < 3; d++) {
        ptort_dtype s = all_src[d];
        for (int fp4 = 0; fp4 < 2; fp4++) {
            if (fp4 && s == PTORT_F32)
                continue;
            for (int alg = 0; alg < 2; alg++) {
                Io io;
                setup(&io, fp4, s, PTORT_AXIS1, 1, 64, 1, 64, 0);
                float x[64] = {0};
                x[3] = NAN;
                x[4] = 1.0f;
                x[32] = 1.0f;
                uint8_t raw[256];
                to_src(s, x, raw, 64);
                ptort_tile_fill(ctx, &io.src, raw, 1, 64);
                CHECK(ptort_tquant_mx(ctx, fp4 ? PTORT_MXFP4_E2M1 : PTORT_MXFP8,
                                      (ptort_scale_alg)alg, PTORT_AXIS1, &io.src, &io.dst,
                                      &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
                CHECK_EQ(get(&io.exp, 0, 0), 0xFF);
                CHECK_EQ(get(&io.max, 0, 0), qnan[d]);
                CHECK_EQ(get(&io.sc, 0, 0), qnan[d]);
                int bad = 0;
                for (int i = 0; i < (fp4 ? 16 : 32); i++)
                    bad |= get(&io.dst, 0, i) != (fp4 ? 0x77u : 0x7Fu);
                CHECK(!bad);
                /* group 1: 1.0 alone -> OCP 0x77 (fp8) / 0x7D (fp4), NV the same */
                CHECK_EQ(get(&io.exp, 0, 1), fp4 ? 0x7D : 0x77);
                CHECK_EQ(get(&io.max, 0, 1), max_bits(s, 1.0f));
            }
        }
    }
}

/* Valid region smaller than the tile: partial last group, a large value outside the valid
 * region that must not count, and sentinels everywhere outside the valid regions. */
static void partial_groups(void)
{
    uint8_t *vec = ptort_mem(ctx, PTORT_VEC, NULL);
    for (int fp4 = 0; fp4 < 2; fp4++) {
        Io io;
        setup(&io, fp4, PTORT_F16, PTORT_AXIS1, 4, 64, 3, 41, 0);
        memset(vec + A_DST, 0xAA, 32768);
        memset(vec + A_EXP, 0xAA, 65536);
        float x[4 * 64];
        for (int i = 0; i < 4 * 64; i++)
            x[i] = 1000.0f;                   /* outside the valid region */
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 41; c++)
                x[r * 64 + c] = c < 32 ? 2.0f : 0.5f;
        uint16_t raw[4 * 64];
        to_src(PTORT_F16, x, raw, 4 * 64);
        ptort_tile_fill(ctx, &io.src, raw, 4, 64);
        CHECK(ptort_tquant_mx(ctx, fp4 ? PTORT_MXFP4_E2M1 : PTORT_MXFP8, PTORT_SCALE_OCP,
                              PTORT_AXIS1, &io.src, &io.dst, &io.exp, &io.max, &io.sc,
                              NULL) == PTORT_OK);
        /* group 0: max 2 (E=128) -> fp8 e = 0x78, s = 2^7; fp4 e = 0x7E, s = 2. Group 1 (9
         * valid 0.5s; the 1000s outside the valid region count as 0): max 0.5 (E=126) -> fp8
         * 0x76, s = 2^9; fp4 0x7C, s = 2^3. fp8: 2*2^7 = 0.5*2^9 = 256 -> 0x78; fp4:
         * 2*2 = 0.5*8 = 4 -> code 6. */
        int bad = 0;
        for (int r = 0; r < 4; r++) {
            for (int g = 0; g < 32; g++) {
                uint32_t e = get(&io.exp, r, g);
                uint32_t want = r < 3 && g < 2 ? (fp4 ? (g ? 0x7C : 0x7E) : (g ? 0x76 : 0x78)) : 0xAA;
                bad |= e != want;
            }
            int64_t dc = io.dst.cols;
            for (int c = 0; c < dc; c++) {
                uint32_t v = get(&io.dst, r, c), want = 0xAA;
                if (r < 3 && !fp4 && c < 41)
                    want = 0x78;
                if (r < 3 && fp4 && c < 20)
                    want = 0x66;
                if (r < 3 && fp4 && c == 20)
                    want = 0x06;                /* element 40, high nibble 0 (41 is odd) */
                bad |= v != want;
            }
        }
        CHECK(!bad);
        /* max/scaling: only [3, 2] written */
        int badm = 0;
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < io.max.cols; c++) {
                uint32_t m = get(&io.max, r, c), s = get(&io.sc, r, c);
                if (r < 3 && c < 2) {
                    badm |= m != ptort_f32_to_f16(c ? 0.5f : 2.0f);
                    /* f16 scales: 2 = 0x4000, 8 = 0x4800, 2^7 = 0x5800, 2^9 = 0x6000 */
                    badm |= s != (fp4 ? (c ? 0x4800u : 0x4000u) : (c ? 0x6000u : 0x5800u));
                } else {
                    badm |= m != 0xAAAA || s != 0xAAAA;
                }
            }
        CHECK(!badm);
    }
}

/* axis0 (DN): groups run down columns; exp is [M/32, N]. */
static void axis0(void)
{
    Io io;
    setup(&io, 0, PTORT_F32, PTORT_AXIS0, 32, 32, 32, 32, 0);
    float x[32 * 32] = {0};
    float col0[] = {448, -448, 1, 0.5f, -0.0f};
    for (int i = 0; i < 5; i++)
        x[i * 32 + 0] = col0[i];
    x[5 * 32 + 1] = NAN;
    x[7 * 32 + 1] = 1.0f;
    x[9 * 32 + 3] = 1.0f;                     /* column 3: 1.0 alone -> 0x77, s = 2^8 -> 0x78 */
    CHECK(ptort_tile_fill(ctx, &io.src, x, 32, 32) == PTORT_OK);
    CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS0, &io.src, &io.dst,
                          &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
    CHECK_EQ(get(&io.exp, 0, 0), 0x7F);
    CHECK_EQ(get(&io.exp, 0, 1), 0xFF);
    CHECK_EQ(get(&io.exp, 0, 2), 0x00);
    CHECK_EQ(get(&io.exp, 0, 3), 0x77);
    uint8_t c0[5], w0[5] = {0x7E, 0xFE, 0x38, 0x30, 0x80};
    for (int i = 0; i < 5; i++)
        c0[i] = (uint8_t)get(&io.dst, i, 0);
    CHECK_BYTES(c0, w0, 5);
    int bad = 0;
    for (int r = 0; r < 32; r++)
        bad |= get(&io.dst, r, 1) != 0x7F || get(&io.dst, r, 2) != 0 ||
               get(&io.dst, r, 3) != (r == 9 ? 0x78u : 0u);
    CHECK(!bad);
    CHECK_EQ(get(&io.max, 0, 1), 0x7FC00000u);
    CHECK_EQ(get(&io.sc, 0, 3), unit_f2u(256.0f));
    CHECK_EQ(get(&io.max, 0, 0), unit_f2u(448.0f));

    /* fp4 axis0 from bf16, NV: column 0 holds 7, -3.5, 5, 1 -> e 0x80, codes 6 C 4 1. */
    setup(&io, 1, PTORT_BF16, PTORT_AXIS0, 32, 64, 32, 64, 0);
    float y[32 * 64] = {0};
    float v[] = {7, -3.5f, 5, 1};
    for (int i = 0; i < 4; i++)
        y[i * 64] = v[i];
    uint16_t raw[32 * 64];
    to_src(PTORT_BF16, y, raw, 32 * 64);
    ptort_tile_fill(ctx, &io.src, raw, 32, 64);
    CHECK(ptort_tquant_mx(ctx, PTORT_MXFP4_E2M1, PTORT_SCALE_NV, PTORT_AXIS0, &io.src, &io.dst,
                          &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
    CHECK_EQ(get(&io.exp, 0, 0), 0x80);
    uint8_t lo[4], wl[4] = {0x6, 0xC, 0x4, 0x1};
    for (int i = 0; i < 4; i++)
        lo[i] = (uint8_t)(get(&io.dst, i, 0) & 0xF);
    CHECK_BYTES(lo, wl, 4);
}

/* Flat [1, M*G] exponents and the ZZ exponent tile (storeMode nz). */
static void flat_and_zz(void)
{
    Io io;
    setup(&io, 0, PTORT_F32, PTORT_AXIS1, 2, 64, 2, 64, 1);
    float x[128] = {0};
    x[0] = 1.0f;      /* (0, g0): 0x77 */
    x[32] = 2.0f;     /* (0, g1): 0x78 */
    x[64] = 4.0f;     /* (1, g0): 0x79 */
    x[96] = 8.0f;     /* (1, g1): 0x7A */
    ptort_tile_fill(ctx, &io.src, x, 2, 64);
    CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src, &io.dst,
                          &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
    uint8_t e[4], we[4] = {0x77, 0x78, 0x79, 0x7A};
    for (int k = 0; k < 4; k++)
        e[k] = (uint8_t)get(&io.exp, 0, k);
    CHECK_BYTES(e, we, 4);

    /* ZZ: M = 32, N = 128 (G = 4); group (r, g) has max 2^((r*4+g) % 8), so
     * e = 0x77 + (r*4+g) % 8, and byte ((r/16*G/2 + g/2)*16 + r%16)*2 + g%2 of the exp_zz
     * tile (an ND tile, written as plain bytes from its address) is e[r][g]. */
    setup(&io, 0, PTORT_F32, PTORT_AXIS1, 32, 128, 32, 128, 0);
    static float y[32 * 128];
    memset(y, 0, sizeof y);
    for (int r = 0; r < 32; r++)
        for (int g = 0; g < 4; g++)
            y[r * 128 + g * 32 + 5] = ldexpf(1.0f, (r * 4 + g) % 8);
    ptort_tile_fill(ctx, &io.src, y, 32, 128);
    io.zz = ptort_tile_make(PTORT_VEC, PTORT_U8, 1, 128, A_ZZ);
    uint8_t *vec = ptort_mem(ctx, PTORT_VEC, NULL);
    memset(vec + A_ZZ, 0xAA, 256);
    CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src, &io.dst,
                          &io.exp, &io.max, &io.sc, &io.zz) == PTORT_OK);
    uint8_t want[128];
    int bad = 0;
    for (int r = 0; r < 32; r++)
        for (int g = 0; g < 4; g++) {
            uint8_t ev = (uint8_t)(0x77 + (r * 4 + g) % 8);
            want[((r / 16 * 2 + g / 2) * 16 + r % 16) * 2 + g % 2] = ev;
            bad |= get(&io.exp, r, g) != ev;
        }
    CHECK(!bad);
    CHECK_BYTES(vec + A_ZZ, want, 128);
    CHECK_EQ(vec[A_ZZ + 128], 0xAA);

    /* the same from flat exponents ([1, 128]), into a 4 x 32 exp_zz tile: the same bytes */
    setup(&io, 0, PTORT_F32, PTORT_AXIS1, 32, 128, 32, 128, 1);
    ptort_tile_fill(ctx, &io.src, y, 32, 128);
    io.zz = ptort_tile_make(PTORT_VEC, PTORT_U8, 4, 32, A_ZZ);
    memset(vec + A_ZZ, 0xAA, 256);
    CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src, &io.dst,
                          &io.exp, &io.max, &io.sc, &io.zz) == PTORT_OK);
    CHECK_BYTES(vec + A_ZZ, want, 128);
    CHECK_EQ(vec[A_ZZ + 128], 0xAA);

    /* exp_zz requires N % 64 == 0 (whole pairs of groups), one element per group, ND */
    setup(&io, 0, PTORT_F32, PTORT_AXIS1, 16, 32, 16, 32, 0);
    io.zz = ptort_tile_make(PTORT_VEC, PTORT_U8, 1, 32, A_ZZ);
    io.zz.valid_cols = 16;
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src,
                                      &io.dst, &io.exp, &io.max, &io.sc, &io.zz),
                 PTORT_E_SHAPE, "multiple of 64");
    io.zz.valid_cols = 8;
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src,
                                      &io.dst, &io.exp, &io.max, &io.sc, &io.zz),
                 PTORT_E_SHAPE, "exp_zz valid element count to equal MX group count");
    io.zz = ptort_tile_make(PTORT_VEC, PTORT_U8, 16, 32, A_ZZ);
    io.zz.slayout = PTORT_SL_ROW_MAJOR;
    io.zz.valid_cols = 1;
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src,
                                      &io.dst, &io.exp, &io.max, &io.sc, &io.zz),
                 PTORT_E_LAYOUT, "row_major none_box");
}

/* axis0 with interleave (PTORT_MX_INTERLEAVE): exp is [M/64, 2N], the exponents of row
 * groups 2p and 2p+1 of column c side by side at [p][2c] and [p][2c+1]. M = 128 bf16 rows
 * (4 row groups, 2 pairs), N = 32. Group g of column c holds one nonzero, 2^(c - 8*g) at row
 * 32*g + c % 32, so its max is that power and (OCP fp8) e = 127 + c - 8*g - 8 = 119 + c - 8g:
 *   exp[p][2c + d] = 119 + c - 8*(2p + d).
 * The element scales to 2^(c - 8g) * 2^(127 - e) = 2^8 = 256 -> e4m3 0x78 (exponent field
 * 8 + 7 = 15, mantissa 0). max[g][c] = 2^(c - 8g) in bf16, scaling[g][c] = 2^(8 - c + 8g). */
static void interleaved(void)
{
    enum { M = 128, N = 32 };
    Io io;
    setup(&io, 0, PTORT_BF16, PTORT_AXIS0, M, N, M, N, 0);
    io.exp = ptort_tile_make(PTORT_VEC, PTORT_U8, M / 64, 64, A_EXP);   /* align32(2N) */
    static float x[M * N];
    memset(x, 0, sizeof x);
    for (int g = 0; g < 4; g++)
        for (int c = 0; c < N; c++)
            x[(32 * g + c % 32) * N + c] = ldexpf(1.0f, c - 8 * g);
    static uint16_t raw[M * N];
    to_src(PTORT_BF16, x, raw, M * N);
    CHECK(ptort_tile_fill(ctx, &io.src, raw, M, N) == PTORT_OK);
    uint8_t *vec = ptort_mem(ctx, PTORT_VEC, NULL);
    ptort_status st = ptort_tquant_mx_ex(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS0,
                                         PTORT_MX_INTERLEAVE, &io.src, &io.dst, &io.exp,
                                         &io.max, &io.sc, NULL);
    if (!CHECK(st == PTORT_OK))
        fprintf(stderr, "    %s\n", ptort_error(ctx));
    /* the exponent bytes as laid out: row p is 64 bytes at A_EXP + 64p */
    uint8_t want[2 * 64];
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < N; c++)
            for (int d = 0; d < 2; d++)
                want[p * 64 + 2 * c + d] = (uint8_t)(119 + c - 8 * (2 * p + d));
    CHECK_BYTES(vec + A_EXP, want, 128);
    int bad = 0;
    for (int g = 0; g < 4; g++)
        for (int c = 0; c < N; c++) {
            bad |= get(&io.max, g, c) != unit_f2u(ldexpf(1.0f, c - 8 * g)) >> 16;
            bad |= get(&io.sc, g, c) != unit_f2u(ldexpf(1.0f, 8 - c + 8 * g)) >> 16;
            for (int i = 0; i < 32; i++)
                bad |= get(&io.dst, 32 * g + i, c) != (i == c % 32 ? 0x78u : 0u);
        }
    CHECK(!bad);

    /* the same source without interleave: exp[g][c] = 119 + c - 8g, row-major [4, 32] */
    setup(&io, 0, PTORT_BF16, PTORT_AXIS0, M, N, M, N, 0);
    CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS0, &io.src, &io.dst,
                          &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
    bad = 0;
    for (int g = 0; g < 4; g++)
        for (int c = 0; c < N; c++)
            bad |= get(&io.exp, g, c) != (uint32_t)(119 + c - 8 * g);
    CHECK(!bad);

    /* rejects: axis1, 32 valid rows, a [M/32, N] exponent tile, unknown flags */
    Io b;
    setup(&b, 0, PTORT_F32, PTORT_AXIS1, 64, 32, 64, 32, 0);
    CHECK_STATUS(ctx, ptort_tquant_mx_ex(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1,
                                         PTORT_MX_INTERLEAVE, &b.src, &b.dst, &b.exp, &b.max,
                                         &b.sc, NULL),
                 PTORT_E_ARG, "expects interleave to be used only with grpAxis=axis0");
    setup(&b, 0, PTORT_F16, PTORT_AXIS0, 64, 32, 32, 32, 0);
    b.exp.cols = 64;
    b.exp.valid_cols = 64;
    CHECK_STATUS(ctx, ptort_tquant_mx_ex(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS0,
                                         PTORT_MX_INTERLEAVE, &b.src, &b.dst, &b.exp, &b.max,
                                         &b.sc, NULL),
                 PTORT_E_SHAPE, "expects src valid rows to be a multiple of 64 when interleave is true");
    setup(&b, 0, PTORT_F16, PTORT_AXIS0, 96, 32, 64, 32, 0);
    CHECK_STATUS(ctx, ptort_tquant_mx_ex(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS0,
                                         PTORT_MX_INTERLEAVE, &b.src, &b.dst, &b.exp, &b.max,
                                         &b.sc, NULL),
                 PTORT_E_SHAPE, "expects src physical rows to be a multiple of 64 when interleave is true");
    setup(&b, 0, PTORT_F16, PTORT_AXIS0, 64, 32, 64, 32, 0);
    CHECK_STATUS(ctx, ptort_tquant_mx_ex(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS0,
                                         PTORT_MX_INTERLEAVE, &b.src, &b.dst, &b.exp, &b.max,
                                         &b.sc, NULL),
                 PTORT_E_SHAPE, "expects exp valid_shape to match [M/64, 2N] for grpAxis=axis0 with interleave=true, but got [2, 32]");
    CHECK_STATUS(ctx, ptort_tquant_mx_ex(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS0, 2,
                                         &b.src, &b.dst, &b.exp, &b.max, &b.sc, NULL),
                 PTORT_E_ARG, "unknown flags 0x2");
}

static void rejects(void)
{
    Io io;
    setup(&io, 0, PTORT_F32, PTORT_AXIS1, 1, 32, 1, 32, 0);
    ptort_ctx *a3 = ptort_ctx_new(PTORT_A3, NULL);
    CHECK_STATUS(a3, ptort_tquant_mx(a3, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src,
                                     &io.dst, &io.exp, &io.max, &io.sc, NULL),
                 PTORT_E_ARCH, "MX quantization is only supported on A5");
    ptort_ctx_free(a3);
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_AXIS1,
                                      &io.src, &io.dst, &io.exp, &io.max, &io.sc, NULL),
                 PTORT_E_DTYPE, "expects src element type f16 or bf16 for MXFP4_E2M1");
    Io b = io;
    b.src.valid_cols = 16;
    b.dst.valid_cols = 16;
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &b.src,
                                      &b.dst, &b.exp, &b.max, &b.sc, NULL),
                 PTORT_E_SHAPE, "valid_shape[1] to be a multiple of 32");
    b = io;
    b.dst.addr = A_DST + 16;
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &b.src,
                                      &b.dst, &b.exp, &b.max, &b.sc, NULL),
                 PTORT_E_ADDR, "addr must be aligned to 32 bytes");
    b = io;
    b.max.addr = 253952;
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &b.src,
                                      &b.dst, &b.exp, &b.max, &b.sc, NULL),
                 PTORT_E_ADDR, "exceeds vec capacity 253952");
    b = io;
    b.max.dtype = PTORT_F16;
    b.max.cols = 16;
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &b.src,
                                      &b.dst, &b.exp, &b.max, &b.sc, NULL),
                 PTORT_E_DTYPE, "expects max to have the src element type");
    b = io;
    b.exp.valid_cols = 2;
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &b.src,
                                      &b.dst, &b.exp, &b.max, &b.sc, NULL),
                 PTORT_E_SHAPE, "expects exp valid_shape to match canonical");
    b = io;
    b.dst.dtype = PTORT_F16;
    b.dst.cols = 32;
    CHECK_STATUS(ctx, ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &b.src,
                                      &b.dst, &b.exp, &b.max, &b.sc, NULL),
                 PTORT_E_DTYPE, "expects dst element type f8E4M3FN, i8 or ui8");
    /* i8 and f8E8M0FNU exponent tiles are accepted */
    b = io;
    b.exp.dtype = PTORT_F8E8M0FNU;
    CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &b.src, &b.dst,
                          &b.exp, &b.max, &b.sc, NULL) == PTORT_OK);
}

/* Many groups of pseudo-random data (the vectorized loops, AVX2 copies included) against a
 * scalar reference: OCP exponent from the bit rule, s = 2^(127-e) by ldexpf, and the
 * exhaustively tested scalar encoder. */
static void random_groups(void)
{
    enum { M = 64, N = 128 };
    static float x[M * N];
    unsigned seed = 99;
    for (int i = 0; i < M * N; i++) {
        seed = seed * 1103515245u + 12345u;
        int ex = (int)((seed >> 24) % 40) - 20;
        x[i] = ldexpf((float)(int)((seed >> 4) & 0xFFFFF) - 524288.0f, ex - 19);
    }
    Io io;
    setup(&io, 0, PTORT_F32, PTORT_AXIS1, M, N, M, N, 0);
    ptort_tile_fill(ctx, &io.src, x, M, N);
    CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src, &io.dst,
                          &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
    static uint8_t codes[M * N];
    ptort_tile_read(ctx, &io.dst, codes, M, N);
    int bad = 0;
    for (int r = 0; r < M; r++)
        for (int g = 0; g < N / 32; g++) {
            float m = 0;
            for (int i = 0; i < 32; i++)
                m = fmaxf(m, fabsf(x[r * N + g * 32 + i]));
            unsigned big = unit_f2u(m) >> 23, e = big > 8 ? big - 8 : 0;
            float s = ldexpf(1.0f, 127 - (int)e);
            bad += get(&io.exp, r, g) != e;
            for (int i = 0; i < 32; i++)
                bad += codes[r * N + g * 32 + i] != ptort_f32_to_e4m3(x[r * N + g * 32 + i] * s);
        }
    CHECK(bad == 0);
}

/* The AVX-512 and AVX2 row kernels against the portable code on random bit patterns: NaN groups, +-Inf,
 * subnormals, huge and tiny groups, every source dtype, both algorithms, widths that are and
 * are not multiples of 32; every byte of dst, exp, max and scaling must agree. */
extern int ptort_cpu_cap;

/* 0 = the widest kernels the CPU has, 1 = AVX2 at most, 2 = portable */
static void set_pass(int pass)
{
    ptort_cpu_cap = pass;
}

/* Element i of a source of dtype sdt from the f32 pattern b: f32 as is, bf16 its upper half,
 * f16 the sign and the exponent/mantissa bits below bit 13 (a pattern, not a conversion). */
static void put_src(uint8_t *host, int64_t i, ptort_dtype sdt, uint32_t b)
{
    if (sdt == PTORT_F32) {
        memcpy(host + 4 * i, &b, 4);
        return;
    }
    uint16_t h = (uint16_t)(b >> 16);
    if (sdt == PTORT_F16)
        h = (uint16_t)((b >> 16 & 0x8000u) | (b >> 13 & 0x7FFFu));
    memcpy(host + 2 * i, &h, 2);
}
static void fast_vs_portable(void)
{
    enum { M = 8, C = 160 };
    static const ptort_dtype sdts[3] = {PTORT_F32, PTORT_F16, PTORT_BF16};
    static const int64_t widths[] = {160, 128, 97, 64, 33, 32, 31, 7, 1};
    static uint8_t host[M * C * 4];
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    unsigned seed = 2024;
    int bad = 0;
    for (int fp4 = 0; fp4 < 2; fp4++)
        for (int d = 0; d < 3; d++)
            for (int nv = 0; nv < 2; nv++)
                for (unsigned wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
                    ptort_dtype sdt = sdts[d];
                    if ((fp4 && sdt == PTORT_F32) || (sdt == PTORT_F32 && widths[wi] % 32))
                        continue;                  /* not accepted (docs/verify.md) */
                    int sz = ptort_dtype_size(sdt);
                    for (int i = 0; i < M * C; i++) {
                        seed = seed * 1103515245u + 12345u;
                        uint32_t b = seed ^ (seed << 9);
                        int grp = (i % C) / 32 + (i / C) * 8;
                        /* per group: an exponent window, so that maxima vary by group */
                        uint32_t ex = (uint32_t)((grp * 37 + 11) % 254);
                        if (seed % 11 != 0)
                            b = (b & 0x807FFFFFu) | (((ex + (seed >> 27) % 8) & 0xFF) << 23);
                        if (grp % 7 == 3 && seed % 97 == 0)
                            b = 0x7FC00000u | (seed & 1u) << 31;   /* NaN in some groups */
                        if (grp % 5 == 1 && seed % 53 == 0)
                            b = 0x7F800000u | (seed & 2u) << 30;   /* +-Inf */
                        put_src(host, i, sdt, b);
                    }
                    Io io;
                    setup(&io, fp4, sdt, PTORT_AXIS1, M, C, M, widths[wi], 0);
                    ptort_tile_fill(ctx, &io.src, host, M, C);
                    (void)sz;
                    static uint8_t out[3][A_SC + 8192];
                    for (int pass = 0; pass < 3; pass++) {
                        set_pass(pass);
                        memset(mem + A_DST, 0xA5, sizeof out[0] - A_DST);
                        (void)(CHECK(ptort_tquant_mx(ctx, fp4 ? PTORT_MXFP4_E2M1 : PTORT_MXFP8,
                                              nv ? PTORT_SCALE_NV : PTORT_SCALE_OCP, PTORT_AXIS1,
                                              &io.src, &io.dst, &io.exp, &io.max, &io.sc,
                                              NULL) == PTORT_OK) ||
                            fprintf(stderr, "fp4=%d sdt=%d nv=%d n=%lld: %s\n", fp4, (int)sdt, nv,
                                    (long long)widths[wi], ptort_error(ctx)));
                        memcpy(out[pass] + A_DST, mem + A_DST, sizeof out[0] - A_DST);
                    }
                    set_pass(0);
                    bad += memcmp(out[0] + A_DST, out[2] + A_DST, sizeof out[0] - A_DST) != 0;
                    bad += memcmp(out[1] + A_DST, out[2] + A_DST, sizeof out[0] - A_DST) != 0;
                }
    CHECK_EQ(bad, 0);
}

/* MXFP8 from f32 with chunks (16 groups) that mix groups the 16-bit-lane encoder takes with
 * groups it hands to the fp32 kernel: e4m3 subnormal codes (an element 2^-16 below the
 * group's maximum), all-zero groups (e = 0), tiny (2^-125) and huge (2^126) ones. The counts
 * per chunk walk through the kernel choice: a few fallbacks (kept per group), more than
 * three (the chunk redone whole, then the next chunks on the fp32 kernel until a recount
 * finds few), and exponent-only fallbacks. Contiguous rows (one long row) and strided rows
 * (one call per row, the choice carried across rows); all bytes against the portable code. */
static void fp8_mixed_chunks(void)
{
    enum { M = 16, N = 512, G = N / 32 };
    /* per chunk (= row here): fallback groups by subnormal, then by exponent */
    static const int nsub[M] = {2, 6, 16, 0, 0, 1, 0, 3, 4, 0, 0, 0, 0, 16, 5, 1};
    static const int nexp[M] = {0, 0, 0, 0, 0, 0, 2, 0, 0, 5, 0, 1, 0, 0, 0, 16};
    static float host[M * (N + 32)];
    static int kinds[M][G];
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    unsigned seed = 99;
    int bad = 0;
    for (int strided = 0; strided < 2; strided++)
        for (int nv = 0; nv < 2; nv++) {
            int64_t c = strided ? N + 32 : N;
            for (int r = 0; r < M; r++)
                for (int g = 0; g < G; g++) {
                    /* groups spread over the chunk: the k-th of 16 positions 5k mod 16 */
                    int pos = (g * 13) % G;              /* 13 = 5^-1 mod 16 */
                    int kind = pos < nsub[r] ? 1 : pos < nsub[r] + nexp[r] ? 2 + pos % 3 : 0;
                    if (nsub[r] + nexp[r] > G && pos < nexp[r])
                        kind = 2 + pos % 3;
                    kinds[r][g] = kind;
                    int sub = 1 + (int)(seed % 31u);
                    for (int i = 0; i < 32; i++) {
                        seed = seed * 1103515245u + 12345u;
                        float v = ldexpf(1.0f + (float)(seed >> 9 & 0x7FFF) / 32768.0f, -(int)(seed >> 24) % 5);
                        if (i == 0)
                            v = 1.5f;                    /* the maximum: 1.5 <= max < 2 */
                        if (kind == 1 && i == sub)
                            v = ldexpf(1.5f, -16);       /* y near 2^-8 */
                        else if (kind == 2)
                            v = 0.0f;
                        else if (kind == 3)
                            v = ldexpf(v, -125);
                        else if (kind == 4)
                            v = ldexpf(v, 126);
                        host[r * c + g * 32 + i] = seed & 0x40 ? -v : v;
                    }
                }
            Io io;
            setup(&io, 0, PTORT_F32, PTORT_AXIS1, M, c, M, N, 0);
            ptort_tile_fill(ctx, &io.src, host, M, c);
            static uint8_t out[3][A_SC + 8192];
            for (int pass = 0; pass < 3; pass++) {
                set_pass(pass);
                memset(mem + A_DST, 0xA5, sizeof out[0] - A_DST);
                CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, nv ? PTORT_SCALE_NV : PTORT_SCALE_OCP, PTORT_AXIS1,
                                      &io.src, &io.dst, &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
                memcpy(out[pass] + A_DST, mem + A_DST, sizeof out[0] - A_DST);
            }
            set_pass(0);
            bad += memcmp(out[0] + A_DST, out[2] + A_DST, sizeof out[0] - A_DST) != 0;
            bad += memcmp(out[1] + A_DST, out[2] + A_DST, sizeof out[0] - A_DST) != 0;
            /* the fallback groups are there: a subnormal code (1 to 7 without the sign) in
             * every group meant to have one, and the counts per row as planned */
            int subs = 0, exps = 0;
            for (int r = 0; r < M; r++)
                for (int g = 0; g < G; g++) {
                    int has = 0;
                    for (int i = 0; i < 32; i++)
                        has |= (out[2][A_DST + r * io.dst.cols + g * 32 + i] & 0x7F) - 1u < 7u;
                    subs += kinds[r][g] == 1 && has;
                    exps += kinds[r][g] >= 2;
                }
            CHECK_EQ(subs, 2 + 6 + 16 + 1 + 3 + 4 + 16 + 5);
            CHECK_EQ(exps, 2 + 5 + 1 + 16);
        }
    CHECK_EQ(bad, 0);
}

/* The AVX-512 axis0 kernels (column groups; per-lane scales) and the interleaved exponent
 * form against the portable code, as fast_vs_portable: random patterns with an exponent
 * window per column so that the column maxima differ, NaN, +-Inf, zero and tiny columns,
 * every source dtype, both algorithms, widths around the 16- and 32-lane steps; every
 * byte of dst, exp, max and scaling must agree. */
static void axis0_vs_portable(void)
{
    enum { M = 64, C = 160 };
    static const ptort_dtype sdts[3] = {PTORT_F32, PTORT_F16, PTORT_BF16};
    static const int64_t widths[] = {160, 128, 97, 64, 33, 32, 31, 17, 16, 15, 7, 1};
    static uint8_t host[M * C * 4];
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    unsigned seed = 77;
    int bad = 0, runs = 0;
    /* tame: every column's maximum near 1 (the exact fast paths take whole chunks) */
    for (int tame = 0; tame < 2; tame++)
    for (int fp4 = 0; fp4 < 2; fp4++)
        for (int d = 0; d < 3; d++)
            for (int nv = 0; nv < 2; nv++)
                for (int il = 0; il < 2; il++)
                    for (unsigned wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
                        ptort_dtype sdt = sdts[d];
                        if (fp4 && sdt == PTORT_F32)
                            continue;
                        for (int i = 0; i < M * C; i++) {
                            seed = seed * 1103515245u + 12345u;
                            uint32_t b = seed ^ (seed << 9);
                            int col = i % C, grp = col + (i / C / 32) * C;
                            uint32_t ex = tame ? (uint32_t)(120 + grp % 8) : (uint32_t)((grp * 37 + 11) % 254);
                            if (tame || seed % 11 != 0)
                                b = (b & 0x807FFFFFu) | (((ex + (seed >> 27) % 8) & 0xFF) << 23);
                            if (tame && seed % 3 == 0)
                                b &= 0x80000000u | (seed % 5 == 0 ? 0u : 0x7FFFFFFFu);  /* some +-0 */
                            if (!tame && grp % 7 == 3 && seed % 97 == 0)
                                b = 0x7FC00000u | (seed & 1u) << 31;
                            if (!tame && grp % 5 == 1 && seed % 53 == 0)
                                b = 0x7F800000u | (seed & 2u) << 30;
                            if (!tame && grp % 13 == 4)
                                b &= 0x80000000u;              /* +-0 columns */
                            put_src(host, i, sdt, b);
                        }
                        int64_t n = widths[wi];
                        Io io;
                        setup(&io, fp4, sdt, PTORT_AXIS0, M, C, M, n, 0);
                        if (il) {
                            io.exp = ptort_tile_make(PTORT_VEC, PTORT_U8, M / 64, round32(2 * n), A_EXP);
                            io.exp.valid_cols = 2 * n;
                        }
                        ptort_tile_fill(ctx, &io.src, host, M, C);
                        static uint8_t out[3][A_SC + 8192];
                        for (int pass = 0; pass < 3; pass++) {
                            set_pass(pass);
                            memset(mem + A_DST, 0xA5, sizeof out[0] - A_DST);
                            (void)(CHECK(ptort_tquant_mx_ex(ctx, fp4 ? PTORT_MXFP4_E2M1 : PTORT_MXFP8,
                                                            nv ? PTORT_SCALE_NV : PTORT_SCALE_OCP, PTORT_AXIS0,
                                                            il ? PTORT_MX_INTERLEAVE : 0, &io.src, &io.dst,
                                                            &io.exp, &io.max, &io.sc, NULL) == PTORT_OK) ||
                                   fprintf(stderr, "fp4=%d sdt=%d nv=%d il=%d n=%lld: %s\n", fp4, (int)sdt,
                                           nv, il, (long long)n, ptort_error(ctx)));
                            memcpy(out[pass] + A_DST, mem + A_DST, sizeof out[0] - A_DST);
                        }
                        set_pass(0);
                        int diff = memcmp(out[0] + A_DST, out[2] + A_DST, sizeof out[0] - A_DST) != 0 ||
                                   memcmp(out[1] + A_DST, out[2] + A_DST, sizeof out[0] - A_DST) != 0;
                        if (diff && bad < 3)
                            fprintf(stderr, "axis0 differs: tame=%d fp4=%d sdt=%d nv=%d il=%d n=%lld\n", tame,
                                    fp4, (int)sdt, nv, il, (long long)n);
                        bad += diff;
                        runs++;
                    }
    CHECK(runs == 2 * (3 * 2 * 2 * 12 + 2 * 2 * 2 * 12));
    CHECK_EQ(bad, 0);
}

/* MXFP8 codes at many scales against the scalar encoder of x * s: groups hold 448 * 2^k
 * (OCP e = 127 + k, s = 2^-k) and 31 patterns from a strided sweep of every |x| <= 511 * 2^k
 * (all of e4m3's rounding, subnormal and saturation range scaled, fp32 subnormals for the
 * small scales), both signs; f32 and bf16 sources (the 16-bit-lane kernel folds the scale
 * into its constants; e = 8 and 10 exercise its fallback). */
static void fp8_scaled_sweep(void)
{
    enum { M = 64, N = 128 };
    static const int ks[] = {-127, -122, -119, -117, -100, -60, -20, -1, 0, 1, 8, 20, 60, 100, 113, 119};
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    int bad = 0;
    long checked = 0;
    for (int bf = 0; bf < 2; bf++)
        for (unsigned ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
            ptort_dtype sdt = bf ? PTORT_BF16 : PTORT_F32;
            int k = ks[ki];
            float mx = ldexpf(448.0f, k), s = ldexpf(1.0f, -k);
            uint32_t top = 0x43FF0000u, step = bf ? 1u : 4099u;
            Io io;
            setup(&io, 0, sdt, PTORT_AXIS1, M, N, M, N, 0);
            static float x[M * N];
            uint64_t next = 0, end = 2ull * (bf ? (top >> 16) + 1 : top + 1);
            while (next < end) {
                int64_t filled = 0;
                for (int i = 0; i < M * N; i++) {
                    float v = 0;
                    if (i % 32 == 0) {
                        v = mx;
                    } else if (next < end) {
                        uint64_t half = end / 2, q = next < half ? next : next - half;
                        uint32_t pat = bf ? (uint32_t)q << 16 : (uint32_t)q;
                        v = ldexpf(unit_u2f(pat), k);
                        if (bf)                      /* keep it a bf16 value */
                            v = unit_u2f(unit_f2u(v) & 0xFFFF0000u);
                        v = next < half ? v : -v;
                        next += step;
                        filled = i + 1;
                    }
                    x[i] = v;
                }
                static uint16_t raw[M * N];
                if (bf) {
                    to_src(PTORT_BF16, x, raw, M * N);
                    ptort_tile_fill(ctx, &io.src, raw, M, N);
                } else {
                    ptort_tile_fill(ctx, &io.src, x, M, N);
                }
                CHECK(ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src, &io.dst,
                                      &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
                const uint8_t *q = mem + A_DST;
                for (int64_t i = 0; i < filled; i++) {
                    uint8_t want = ptort_f32_to_e4m3(x[i] * s);
                    if (q[i / N * io.dst.cols + i % N] != want) {
                        if (bad < 3)
                            fprintf(stderr, "fp8 k=%d bf16=%d x=%08x: %02x, want %02x\n", k, bf,
                                    unit_f2u(x[i]), q[i / N * io.dst.cols + i % N], want);
                        bad++;
                    }
                    checked++;
                }
                if (bad)
                    break;
            }
        }
    CHECK(checked > 1000000);
    CHECK_EQ(bad, 0);
}

/* The MXFP4 16-bit kernels (thresholds per exponent, AVX-512 and AVX2) against the portable fp32 path
 * at every scale: for every maximum of each exponent field (mantissa 0 and all ones, and
 * +Inf), groups hold that maximum and every pattern not above it whose exponent is within
 * 12 of the maximum's (every 97th one further down), both signs; f16 and bf16, OCP and NV.
 * Every byte of dst, exp, max and scaling must agree. */
static int fp4_flush(Io *io, ptort_scale_alg alg, uint8_t *mem)
{
    static uint8_t out[3][A_SC + 8192];
    for (int pass = 0; pass < 3; pass++) {
        set_pass(pass);
        memset(mem + A_DST, 0xA5, sizeof out[0] - A_DST);
        CHECK(ptort_tquant_mx(ctx, PTORT_MXFP4_E2M1, alg, PTORT_AXIS1, &io->src, &io->dst,
                              &io->exp, &io->max, &io->sc, NULL) == PTORT_OK);
        memcpy(out[pass] + A_DST, mem + A_DST, sizeof out[0] - A_DST);
    }
    set_pass(0);
    return memcmp(out[0] + A_DST, out[2] + A_DST, sizeof out[0] - A_DST) != 0 ||
           memcmp(out[1] + A_DST, out[2] + A_DST, sizeof out[0] - A_DST) != 0;
}

static void fp4_all_scales(void)
{
    enum { M = 64, N = 128 };
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    int bad = 0, ops = 0;
    for (int d = 0; d < 2; d++)
        for (int nv = 0; nv < 2; nv++) {
            ptort_dtype sdt = d ? PTORT_BF16 : PTORT_F16;
            ptort_scale_alg alg = nv ? PTORT_SCALE_NV : PTORT_SCALE_OCP;
            unsigned mbits = d ? 7 : 10, inf = d ? 0x7F80u : 0x7C00u;
            Io io;
            setup(&io, 1, sdt, PTORT_AXIS1, M, N, M, N, 0);
            uint16_t *x = (uint16_t *)(void *)(mem + A_SRC);
            int64_t pos = 0;                   /* next element of the src tile */
            for (unsigned mx = 0; mx <= inf; mx++) {
                unsigned mant = mx & ((1u << mbits) - 1);
                if (mant != 0 && mant != (1u << mbits) - 1)
                    continue;
                unsigned em = mx >> mbits;
                for (unsigned p = 0; p < 0x10000u; p++) {
                    unsigned a = p & 0x7FFFu;
                    if (a > mx || ((a >> mbits) + 12 < em && p % 97 != 0))
                        continue;
                    if (pos % 32 == 0)
                        x[pos++] = (uint16_t)mx;
                    x[pos++] = (uint16_t)p;
                    if (pos == M * N) {
                        bad += fp4_flush(&io, alg, mem);
                        ops++;
                        pos = 0;
                    }
                }
                while (pos % 32 != 0)          /* the next maximum starts a new group */
                    x[pos++] = 0;
                if (pos == M * N) {
                    bad += fp4_flush(&io, alg, mem);
                    ops++;
                    pos = 0;
                }
            }
            if (pos > 0) {
                memset(x + pos, 0, (size_t)(M * N - pos) * 2);
                bad += fp4_flush(&io, alg, mem);
                ops++;
            }
        }
    CHECK(ops > 100);
    CHECK_EQ(bad, 0);
}

/* The MXFP4 row kernels on every f16 and every bf16 pattern with |x| <= 7 (e2m1's whole
 * rounding and saturation range): groups hold 7.0 (OCP e = 127, scale exactly 1) and 31
 * patterns; each nibble must be the scalar encoder's code (checked exhaustively). */
static void fp4_all_halves(void)
{
    enum { M = 64, N = 128 };
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    int bad = 0;
    for (int d = 0; d < 2; d++) {
        ptort_dtype sdt = d ? PTORT_BF16 : PTORT_F16;
        uint16_t seven = d ? 0x40E0 : 0x4700;
        Io io;
        setup(&io, 1, sdt, PTORT_AXIS1, M, N, M, N, 0);
        uint32_t next = 0;
        while (next < 0x10000u) {
            uint16_t *x = (uint16_t *)(void *)(mem + A_SRC);
            int64_t filled = 0;
            for (int64_t i = 0; i < M * N; i++) {
                uint16_t h = 0;
                if (i % 32 == 0) {
                    h = seven;
                } else {
                    while (next < 0x10000u && ((next & 0x7FFFu) > seven))
                        next++;
                    if (next < 0x10000u) {
                        h = (uint16_t)next++;
                        filled = i + 1;
                    }
                }
                x[i] = h;
            }
            CHECK(ptort_tquant_mx(ctx, PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_AXIS1, &io.src,
                                  &io.dst, &io.exp, &io.max, &io.sc, NULL) == PTORT_OK);
            const uint8_t *q = mem + A_DST;
            for (int64_t i = 0; i < filled; i++) {
                int64_t r = i / N, c = i % N;
                uint8_t byte = q[r * io.dst.cols + c / 2];
                uint8_t got = c % 2 ? byte >> 4 : byte & 0xF;
                float f = d ? ptort_bf16_to_f32(x[i]) : ptort_f16_to_f32(x[i]);
                bad += got != ptort_f32_to_e2m1(f);
            }
        }
    }
    CHECK_EQ(bad, 0);
}

int main(void)
{
    ctx = ptort_ctx_new(PTORT_A5, NULL);
    if (!CHECK(ctx != NULL))
        return unit_done();
    worked_vectors();
    exponent_edges();
    nv_inf();
    nv_subnormal_d();
    rounding_ties();
    nan_poisoning();
    partial_groups();
    axis0();
    interleaved();
    flat_and_zz();
    rejects();
    random_groups();
    fast_vs_portable();
    fp8_mixed_chunks();
    axis0_vs_portable();
    fp8_scaled_sweep();
    fp4_all_scales();
    for (int pass = 0; pass < 3; pass++) {
        set_pass(pass);
        fp4_all_halves();
    }
    set_pass(0);
    ptort_ctx_free(ctx);
    return unit_done();
}
