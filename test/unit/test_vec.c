/* test_vec.c - the vector ops (docs/vector-ops.md): worked vectors computed by hand in the
 * comments, every f16 and bf16 input of each unary op against the independent model of
 * ref_vec.h, the valid-region rules, the error statuses, and the three kernel sets
 * (AVX-512, AVX2, portable) giving the same bytes on random and special inputs.
 */
#include <math.h>
#include <stdlib.h>

#include "ptort.h"
#include "ref_vec.h"
#include "unit.h"

extern int ptort_cpu_cap;

static ptort_ctx *a5, *a3;

static uint8_t *vec(ptort_ctx *c)
{
    return ptort_mem(c, PTORT_VEC, NULL);
}

static ptort_tile T(ptort_dtype dt, int64_t rows, int64_t cols, int64_t addr)
{
    return ptort_tile_make(PTORT_VEC, dt, rows, cols, addr);
}

/* 0 = best available, 1 = AVX2 at most, 2 = portable */
static void set_path(int p)
{
    ptort_cpu_cap = p;
}

static void fill_f32(ptort_tile *t, const float *v, int64_t rows, int64_t cols)
{
    ptort_tile_fill(a5, t, v, rows, cols);
}

static float rd_f32(int64_t addr)
{
    float f;
    memcpy(&f, vec(a5) + addr, 4);
    return f;
}

static uint16_t rd16(int64_t addr)
{
    uint16_t h;
    memcpy(&h, vec(a5) + addr, 2);
    return h;
}

static uint32_t rd32(int64_t addr)
{
    uint32_t u;
    memcpy(&u, vec(a5) + addr, 4);
    return u;
}

/* ---- elementwise ------------------------------------------------------------------------ */

static void binary_f32(void)
{
    /* 1 x 8 row-major f32 */
    ptort_tile a = T(PTORT_F32, 1, 8, 0), b = T(PTORT_F32, 1, 8, 64), d = T(PTORT_F32, 1, 8, 128);
    float x[8] = {1.0f, 0.1f, 16777216.0f, -0.0f, 3.0f, 1e30f, NAN, 1.0f};
    float y[8] = {2.0f, 0.2f, 1.0f, 0.0f, -0.0f, 1e30f, 1.0f, 0.0f};
    fill_f32(&a, x, 1, 8);
    fill_f32(&b, y, 1, 8);
    CHECK(ptort_vbinary(a5, PTORT_VOP_ADD, &a, &b, &d) == PTORT_OK);
    /* 0.1f + 0.2f = 0x3E99999A (0.3000000119), 2^24 + 1 rounds to even 2^24, -0 + 0 = +0,
     * 3 + -0 = 3, 1e30 + 1e30 = 2e30 (0x71C9F2CA), NaN + 1 = NaN (quiet), 1 + 0 = 1 */
    CHECK_EQ(rd32(128), 0x40400000u);
    CHECK_EQ(rd32(132), 0x3E99999Au);
    CHECK_EQ(rd32(136), 0x4B800000u);
    CHECK_EQ(rd32(140), 0x00000000u);
    CHECK_EQ(rd32(144), 0x40400000u);
    CHECK_EQ(rd32(148), 0x71C9F2CAu);
    CHECK_EQ(rd32(152), 0x7FC00000u);
    CHECK(ptort_vbinary(a5, PTORT_VOP_DIV, &a, &b, &d) == PTORT_OK);
    /* 1/2 = 0.5, 0.1f/0.2f = 0.5 exactly (0.2f = 2 * 0.1f), 2^24/1, -0/0 = NaN (default NaN
     * 0xFFC00000 on x86), 3/-0 = -Inf, 1e30/1e30 = 1, NaN/1 = NaN, 1/0 = +Inf */
    CHECK_EQ(rd32(128), 0x3F000000u);
    CHECK_EQ(rd32(132), 0x3F000000u);
    CHECK_EQ(rd32(140) & 0x7FC00000u, 0x7FC00000u);
    CHECK_EQ(rd32(144), 0xFF800000u);
    CHECK_EQ(rd32(148), 0x3F800000u);
    CHECK_EQ(rd32(156), 0x7F800000u);
    CHECK(ptort_vbinary(a5, PTORT_VOP_MAX, &a, &b, &d) == PTORT_OK);
    /* max(a, b) = a < b ? b : a: max(-0, +0) = -0 (first kept), max(3, -0) = 3,
     * max(NaN, 1) = NaN (a kept), max(1, 0) = 1 */
    CHECK_EQ(rd32(140), 0x80000000u);
    CHECK_EQ(rd32(152), 0x7FC00000u);
    CHECK(ptort_vbinary(a5, PTORT_VOP_MAX, &b, &a, &d) == PTORT_OK);
    /* max(+0, -0) = +0, max(1, NaN) = 1 */
    CHECK_EQ(rd32(140), 0x00000000u);
    CHECK_EQ(rd32(152), 0x3F800000u);
    CHECK(ptort_vbinary(a5, PTORT_VOP_MIN, &a, &b, &d) == PTORT_OK);
    /* min(a, b) = b < a ? b : a: min(-0, +0) = -0, min(3, -0) = -0, min(NaN, 1) = NaN */
    CHECK_EQ(rd32(140), 0x80000000u);
    CHECK_EQ(rd32(144), 0x80000000u);
    CHECK_EQ(rd32(152), 0x7FC00000u);
}

static void binary_f16_bf16(void)
{
    ptort_tile a = T(PTORT_F16, 1, 16, 0), b = T(PTORT_F16, 1, 16, 64), d = T(PTORT_F16, 1, 16, 128);
    /* 1 + 2^-11: a tie between 1 and 1 + 2^-10, to even -> 1 (0x3C00);
     * 1 + 3 * 2^-11 -> 1 + 2^-9 (0x3C02); 65504 + 16 -> tie, to even -> Inf (0x7C00);
     * 2^-24 + 2^-24 = 2^-23 (subnormal 0x0002); 0.1 * 0.1 in f32 then rounded once:
     * 0x2E66 (0.0999755859375) squared = 0.009995117..., f16 0x211E */
    uint16_t x[16] = {0x3C00, 0x3C00, 0x7BFF, 0x0001, 0x2E66};
    uint16_t y[16] = {0x1000, 0x1600, 0x4C00, 0x0001, 0x2E66};
    memcpy(vec(a5) + 0, x, 32);
    memcpy(vec(a5) + 64, y, 32);
    CHECK(ptort_vbinary(a5, PTORT_VOP_ADD, &a, &b, &d) == PTORT_OK);
    CHECK_EQ(rd16(128), 0x3C00u);
    CHECK_EQ(rd16(130), 0x3C02u);
    CHECK_EQ(rd16(132), 0x7C00u);
    CHECK_EQ(rd16(134), 0x0002u);
    CHECK(ptort_vbinary(a5, PTORT_VOP_MUL, &a, &b, &d) == PTORT_OK);
    CHECK_EQ(rd16(136), ref_to_f16(ref_f16_val(0x2E66) * ref_f16_val(0x2E66)));
    CHECK_EQ(rd16(136), 0x211Eu);

    ptort_tile ab = T(PTORT_BF16, 1, 16, 0), bb = T(PTORT_BF16, 1, 16, 64), db = T(PTORT_BF16, 1, 16, 128);
    /* bf16: 1 + 2^-8 -> tie, even -> 1 (0x3F80); 1 + 3 * 2^-8 -> 0x3F82;
     * 3 * 1.5 = 4.5 exact (0x4090) */
    uint16_t bx[16] = {0x3F80, 0x3F80, 0x4040};
    uint16_t by[16] = {0x3B80, 0x3C40, 0x3FC0};
    memcpy(vec(a5) + 0, bx, 32);
    memcpy(vec(a5) + 64, by, 32);
    CHECK(ptort_vbinary(a5, PTORT_VOP_ADD, &ab, &bb, &db) == PTORT_OK);
    CHECK_EQ(rd16(128), 0x3F80u);
    CHECK_EQ(rd16(130), 0x3F82u);
    CHECK(ptort_vbinary(a5, PTORT_VOP_MUL, &ab, &bb, &db) == PTORT_OK);
    CHECK_EQ(rd16(132), 0x4090u);
}

static void integers(void)
{
    ptort_tile a = T(PTORT_I8, 1, 32, 0), b = T(PTORT_I8, 1, 32, 64), d = T(PTORT_I8, 1, 32, 128);
    int8_t x[32] = {100, -128, 7, -7};
    int8_t y[32] = {100, -1, 2, 2};
    memcpy(vec(a5), x, 32);
    memcpy(vec(a5) + 64, y, 32);
    /* wrap-around: 100 + 100 = 200 -> -56; -128 + -1 -> 127 */
    CHECK(ptort_vbinary(a5, PTORT_VOP_ADD, &a, &b, &d) == PTORT_OK);
    CHECK_EQ((uint8_t)vec(a5)[128], 0xC8u);
    CHECK_EQ((uint8_t)vec(a5)[129], 0x7Fu);
    /* 100 * 100 = 10000 = 0x2710 -> 0x10; -128 * -1 = 128 -> -128 */
    CHECK(ptort_vbinary(a5, PTORT_VOP_MUL, &a, &b, &d) == PTORT_OK);
    CHECK_EQ((uint8_t)vec(a5)[128], 0x10u);
    CHECK_EQ((uint8_t)vec(a5)[129], 0x80u);
    /* abs(-128) wraps to -128; neg(-7) = 7 */
    CHECK(ptort_vunary(a5, PTORT_VOP_ABS, &a, &d) == PTORT_OK);
    CHECK_EQ((uint8_t)vec(a5)[129], 0x80u);
    CHECK_EQ((uint8_t)vec(a5)[131], 7u);
    /* i8 is a5 only */
    ptort_tile a3a = a, a3d = d;
    CHECK_STATUS(a3, ptort_vbinary(a3, PTORT_VOP_ADD, &a3a, &a3a, &a3d), PTORT_E_ARCH, "needs arch a5");
    /* bf16 tadd is a5 only too (PTOAS's TAddOp: bf16 on A5); tsub takes bf16 everywhere */
    ptort_tile hb = T(PTORT_BF16, 1, 16, 0), hd = T(PTORT_BF16, 1, 16, 64);
    CHECK_STATUS(a3, ptort_vbinary(a3, PTORT_VOP_ADD, &hb, &hb, &hd), PTORT_E_ARCH,
                 "tadd: element type bf16 of dst needs arch a5");
    CHECK(ptort_vbinary(a5, PTORT_VOP_ADD, &hb, &hb, &hd) == PTORT_OK);
    CHECK(ptort_vbinary(a3, PTORT_VOP_SUB, &hb, &hb, &hd) == PTORT_OK);
    ptort_tile i = T(PTORT_I32, 1, 8, 0), j = T(PTORT_I32, 1, 8, 64), k = T(PTORT_I32, 1, 8, 128);
    int32_t ix[8] = {INT32_MAX, INT32_MIN, -5, 5};
    int32_t iy[8] = {1, 3, 5, -5};
    memcpy(vec(a5), ix, 32);
    memcpy(vec(a5) + 64, iy, 32);
    CHECK(ptort_vbinary(a5, PTORT_VOP_SUB, &i, &j, &k) == PTORT_OK);
    /* INT32_MAX - 1; INT32_MIN - 3 wraps to 0x7FFFFFFD; -10; 10 */
    CHECK_EQ(rd32(128), 0x7FFFFFFEu);
    CHECK_EQ(rd32(132), 0x7FFFFFFDu);
    CHECK_EQ(rd32(136), (uint32_t)-10);
    CHECK(ptort_vbinary(a5, PTORT_VOP_MIN, &i, &j, &k) == PTORT_OK);
    CHECK_EQ(rd32(128), 1u);
    CHECK_EQ(rd32(132), 0x80000000u);
    CHECK_EQ(rd32(140), (uint32_t)-5);
}

static void scalar_ops(void)
{
    ptort_tile a = T(PTORT_F32, 2, 8, 0), d = T(PTORT_F32, 2, 8, 128);
    float x[16] = {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8};
    fill_f32(&a, x, 2, 8);
    CHECK(ptort_vscalar(a5, PTORT_VOP_SUB, &a, 0x3F000000u, &d) == PTORT_OK);   /* - 0.5 */
    CHECK(rd_f32(128) == 0.5f && rd_f32(128 + 60) == -8.5f);
    CHECK(ptort_vscalar(a5, PTORT_VOP_DIV, &a, 0x40400000u, &d) == PTORT_OK);   /* / 3 */
    CHECK_EQ(rd32(128), 0x3EAAAAABu);                     /* 1/3 rounded to nearest */
    CHECK(ptort_vscalar(a5, PTORT_VOP_MAX, &a, 0xC0800000u, &d) == PTORT_OK);
    CHECK(rd_f32(128 + 32) == -1.0f && rd_f32(128 + 60) == -4.0f);   /* max(x, -4) */
    ptort_tile h = T(PTORT_F16, 1, 16, 0), hd = T(PTORT_F16, 1, 16, 64);
    uint16_t hx[16] = {0x3C00, 0x7BFF};
    memcpy(vec(a5), hx, 32);
    /* f16 scalar 0x3C00 (1.0) in the low 16 bits: 1 + 1 = 2 (0x4000), 65504 + 1 = 65504 */
    CHECK(ptort_vscalar(a5, PTORT_VOP_ADD, &h, 0x3C00u, &hd) == PTORT_OK);
    CHECK_EQ(rd16(64), 0x4000u);
    CHECK_EQ(rd16(66), 0x7BFFu);
    /* texpands: valid region only */
    ptort_tile e = T(PTORT_F16, 2, 16, 256);
    e.valid_rows = 2;
    e.valid_cols = 5;
    memset(vec(a5) + 256, 0xEE, 64);
    CHECK(ptort_texpands(a5, 0xABCDu, &e) == PTORT_OK);
    uint8_t want[64];
    memset(want, 0xEE, 64);
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 5; c++) {
            want[r * 32 + 2 * c] = 0xCD;
            want[r * 32 + 2 * c + 1] = 0xAB;
        }
    CHECK_BYTES(vec(a5) + 256, want, 64);
}

/* Valid region: dst 4 x 16 with valid 3 x 5; source padding holds NaN and must not leak,
 * bytes of dst outside the valid region keep their sentinel. */
static void valid_region(void)
{
    ptort_tile a = T(PTORT_F32, 4, 16, 0), b = T(PTORT_F32, 4, 16, 256), d = T(PTORT_F32, 4, 16, 512);
    a.valid_rows = b.valid_rows = d.valid_rows = 3;
    a.valid_cols = b.valid_cols = d.valid_cols = 5;
    for (int i = 0; i < 64; i++) {
        float v = (i % 16) < 5 && i / 16 < 3 ? (float)i : NAN;
        memcpy(vec(a5) + 4 * i, &v, 4);
        memcpy(vec(a5) + 256 + 4 * i, &v, 4);
    }
    memset(vec(a5) + 512, 0x5A, 256);
    CHECK(ptort_vbinary(a5, PTORT_VOP_ADD, &a, &b, &d) == PTORT_OK);
    int ok = 1;
    for (int i = 0; i < 64; i++) {
        uint32_t got = rd32(512 + 4 * i);
        int in = (i % 16) < 5 && i / 16 < 3;
        float want = 2.0f * (float)i;
        ok &= in ? got == unit_f2u(want) : got == 0x5A5A5A5Au;
    }
    CHECK(ok);
    /* the same through the unary and scalar paths, and a compact (rows + 1) layout */
    memset(vec(a5) + 512, 0x5A, 256);
    CHECK(ptort_vunary(a5, PTORT_VOP_NEG, &a, &d) == PTORT_OK);
    CHECK_EQ(rd32(512 + 4 * 17), unit_f2u(-17.0f));
    CHECK_EQ(rd32(512 + 4 * 5), 0x5A5A5A5Au);
    CHECK_EQ(rd32(512 + 4 * 48), 0x5A5A5A5Au);
}

/* ---- unary ops: every f16 and bf16 input --------------------------------------------------- */

/* The reference of op on f16/bf16 bits X (docs/vector-ops.md): abs is x < 0 ? -x : x (-0 and
 * NaN unchanged), neg flips the sign bit,
 * relu keeps x unless x < 0, NaN inputs of sqrt/recip/rsqrt come back quiet, sqrt and rsqrt
 * of x < 0 give the default NaN (sign set), others round the exact fp64 result once (rsqrt,
 * A5RSQRT 0: sqrt and the division each rounded in fp64 first; A5RSQRT 1: the root rounded to
 * the element type, then the division); exp is libm's expf rounded to f16, as the simulator
 * computes it. */
static uint16_t ref_unary16(ptort_vop op, uint16_t x, int bf, int a5rsqrt)
{
    double v = bf ? ref_bf16_val(x) : ref_f16_val(x);
    uint16_t quiet = bf ? 0x0040 : 0x0200, dnan = bf ? 0xFFC0 : 0xFE00;
    switch (op) {
    case PTORT_VOP_ABS: return v < 0 ? x ^ 0x8000 : x;
    case PTORT_VOP_NEG: return x ^ 0x8000;
    case PTORT_VOP_RELU: return v < 0 ? 0 : x;
    default: break;
    }
    if (isnan(v))
        return x | quiet;
    double r;
    if (op == PTORT_VOP_EXP) /* the simulator's half(expf(x)): one fp32 exp, then f16 */
        return ref_to_f16((double)expf((float)v));
    if (op == PTORT_VOP_SQRT) {
        if (v < 0)
            return dnan;
        r = sqrt(v);
    } else if (op == PTORT_VOP_RECIP) {
        r = 1.0 / v;
    } else {
        if (v < 0)
            return dnan;
        /* A5: the root rounded to the element type, then 1 / root rounded again; the other
         * archs: the simulator's 1 / sqrt in binary64, rounded once */
        r = a5rsqrt ? 1.0 / (bf ? ref_bf16_val(ref_to_bf16(sqrt(v))) : ref_f16_val(ref_to_f16(sqrt(v))))
                    : 1.0 / sqrt(v);
    }
    return bf ? ref_to_bf16(r) : ref_to_f16(r);
}

static void unary_exhaustive(void)
{
    /* all 65536 patterns in a 256 x 256 tile: 128 KiB source, 128 KiB result */
    ptort_tile s = T(PTORT_F16, 256, 256, 0), d = T(PTORT_F16, 256, 256, 131072);
    static const ptort_vop ops[] = {PTORT_VOP_ABS, PTORT_VOP_NEG, PTORT_VOP_RELU, PTORT_VOP_SQRT,
                                    PTORT_VOP_RECIP, PTORT_VOP_RSQRT, PTORT_VOP_EXP};
    for (int bf = 0; bf < 2; bf++) {
        s.dtype = d.dtype = bf ? PTORT_BF16 : PTORT_F16;
        for (int i = 0; i < 65536; i++) {
            uint16_t h = (uint16_t)i;
            memcpy(vec(a5) + 2 * i, &h, 2);
        }
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            if (bf && ops[o] >= PTORT_VOP_SQRT) {
                /* tsqrt / trecip / trsqrt / texp take f32 and f16 only */
                CHECK_STATUS(a5, ptort_vunary(a5, ops[o], &s, &d), PTORT_E_DTYPE, "not supported");
                continue;
            }
            for (int path = 0; path < 3; path++) {
                set_path(path);
                memset(vec(a5) + 131072, 0, 131072);
                CHECK(ptort_vunary(a5, ops[o], &s, &d) == PTORT_OK);
                int bad = 0;
                for (int i = 0; i < 65536; i++) {
                    uint16_t got = rd16(131072 + 2 * i), want = ref_unary16(ops[o], (uint16_t)i, bf, 1);
                    if (got != want && bad++ < 3)
                        fprintf(stderr, "    %s op %d path %d x=0x%04x: got 0x%04x want 0x%04x\n",
                                bf ? "bf16" : "f16", (int)ops[o], path, i, got, want);
                }
                CHECK(bad == 0);
                /* a3 (a smaller vec space: two halves of 128 x 256): the simulator's formula */
                for (int half = 0; ops[o] == PTORT_VOP_RSQRT && half < 2; half++) {
                    ptort_tile hs = T(s.dtype, 128, 256, 0), hd = T(s.dtype, 128, 256, 65536);
                    memcpy(vec(a3), vec(a5) + half * 65536, 65536);
                    CHECK(ptort_vunary(a3, ops[o], &hs, &hd) == PTORT_OK);
                    for (int i = 0; i < 32768; i++) {
                        uint16_t got, x = (uint16_t)(half * 32768 + i), want = ref_unary16(ops[o], x, bf, 0);
                        memcpy(&got, vec(a3) + 65536 + 2 * i, 2);
                        if (got != want && bad++ < 3)
                            fprintf(stderr, "    a3 %s rsqrt path %d x=0x%04x: got 0x%04x want 0x%04x\n",
                                    bf ? "bf16" : "f16", path, x, got, want);
                    }
                    CHECK(bad == 0);
                }
            }
            set_path(0);
        }
    }
    /* bf16 through the tile-scalar path: every input times 3 (one rounding), max with -0 */
    for (int path = 0; path < 3; path++) {
        set_path(path);
        CHECK(ptort_vscalar(a5, PTORT_VOP_MUL, &s, 0x4040u, &d) == PTORT_OK);
        int bad = 0;
        for (int i = 0; i < 65536; i++) {
            double v = ref_bf16_val((uint16_t)i);
            uint16_t want = isnan(v) ? (uint16_t)(i | 0x40) : ref_to_bf16(v * 3.0);
            bad += rd16(131072 + 2 * i) != want;
        }
        CHECK(bad == 0);
    }
    set_path(0);
}

static uint32_t rnd(void);

/* f16 tprelu (tile-tile) and tlrelu (tile-scalar): every f16 pattern as x against slopes of
 * every class (zeros, Infs, NaNs, subnormals, extremes, random); the three kernel sets give
 * the same bytes (AVX-512 has its own kernel), and x > 0 keeps x's bits. */
static void prelu16_patterns(void)
{
    static const uint16_t ys[16] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFD23, 0x3C00,
                                    0xBC00, 0x0001, 0x8001, 0x7BFF, 0x3555, 0x2E66};
    ptort_tile a = T(PTORT_F16, 128, 256, 0), b = T(PTORT_F16, 128, 256, 65536),
               d = T(PTORT_F16, 128, 256, 131072);
    static uint8_t first[65536];
    uint16_t yv[16];
    memcpy(yv, ys, sizeof yv);
    yv[14] = (uint16_t)rnd();
    yv[15] = (uint16_t)rnd();
    int bad = 0;
    for (int half = 0; half < 2; half++) {
        for (int i = 0; i < 32768; i++) {
            uint16_t x = (uint16_t)(half * 32768 + i), y = yv[(i * 7 + i / 32) % 16];
            memcpy(vec(a5) + 2 * i, &x, 2);
            memcpy(vec(a5) + 65536 + 2 * i, &y, 2);
        }
        for (int form = 0; form < 17; form++) {
            int ok = 1;
            for (int path = 0; path < 3; path++) {
                set_path(path);
                ok &= (form == 16 ? ptort_vbinary(a5, PTORT_VOP_PRELU, &a, &b, &d)
                                  : ptort_vscalar(a5, PTORT_VOP_LRELU, &a, yv[form], &d)) == PTORT_OK;
                if (path == 0)
                    memcpy(first, vec(a5) + 131072, 65536);
                else
                    ok &= memcmp(first, vec(a5) + 131072, 65536) == 0;
            }
            set_path(0);
            if (!ok && bad++ < 3)
                fprintf(stderr, "    f16 prelu form %d half %d: kernel sets differ\n", form, half);
            for (int i = 0; i < 32768; i++) {
                uint16_t x = (uint16_t)(half * 32768 + i);
                if (!(x & 0x8000) && x && x <= 0x7C00 && rd16(131072 + 2 * i) != x && bad++ < 3)
                    fprintf(stderr, "    f16 prelu 0x%04x > 0 not kept\n", x);
            }
        }
    }
    CHECK(bad == 0);
}

/* Every f16 and bf16 pattern as the left operand of add, sub, mul, div, max and min against
 * 32 right operands (zeros, Infs, NaNs, extremes, ties, random), tile-tile and tile-scalar:
 * the three kernel sets give the same bytes, and every 3rd left operand is checked against
 * ref_binary16. */
static void binary16_patterns(void)
{
    static const uint16_t yf[32] = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFD23, 0x3C00,
                                    0xBC00, 0x0001, 0x8001, 0x03FF, 0x7BFF, 0xFBFF, 0x1000, 0x3C01,
                                    0x4248, 0xC248, 0x0400, 0x2E66, 0x5A00, 0xD9FF, 0x3555, 0x00FF};
    static const uint16_t yb[32] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0xFFA3, 0x3F80,
                                    0xBF80, 0x0001, 0x8001, 0x007F, 0x7F7F, 0xFF7F, 0x3B80, 0x3F81,
                                    0x4049, 0xC049, 0x0080, 0x3DCD, 0x6A00, 0xE9FF, 0x3EAB, 0x00FF};
    /* x: 128 x 256 patterns at 0 (two halves), y at 64 KiB, result at 128 KiB */
    ptort_tile a = T(PTORT_F16, 128, 256, 0), b = T(PTORT_F16, 128, 256, 65536),
               d = T(PTORT_F16, 128, 256, 131072);
    static uint8_t first[65536];
    for (int bf = 0; bf < 2; bf++) {
        const uint16_t *ys = bf ? yb : yf;
        uint16_t yv[32];
        memcpy(yv, ys, sizeof yv);
        for (int k = 24; k < 32; k++)
            yv[k] = (uint16_t)rnd();
        a.dtype = b.dtype = d.dtype = bf ? PTORT_BF16 : PTORT_F16;
        int bad = 0;
        for (int half = 0; half < 2; half++) {
            for (int i = 0; i < 32768; i++) {
                uint16_t x = (uint16_t)(half * 32768 + i), y = yv[(i * 7 + i / 32) % 32];
                memcpy(vec(a5) + 2 * i, &x, 2);
                memcpy(vec(a5) + 65536 + 2 * i, &y, 2);
            }
            for (int op = 0; op < 6; op++) {
                ptort_vop vop = (ptort_vop)(PTORT_VOP_ADD + op);
                for (int form = 0; form < 33; form++) {
                    /* form 32: tile-tile; 0..31: tile-scalar with yv[form] */
                    int ok = 1;
                    for (int path = 0; path < 3; path++) {
                        set_path(path);
                        ok &= (form == 32 ? ptort_vbinary(a5, vop, &a, &b, &d)
                                          : ptort_vscalar(a5, vop, &a, yv[form], &d)) == PTORT_OK;
                        if (path == 0)
                            memcpy(first, vec(a5) + 131072, 65536);
                        else
                            ok &= memcmp(first, vec(a5) + 131072, 65536) == 0;
                    }
                    set_path(0);
                    if (!ok && bad++ < 3)
                        fprintf(stderr, "    %s op %d form %d: kernel sets differ\n", bf ? "bf16" : "f16", op, form);
                    for (int i = 0; i < 32768; i += 3) {
                        uint16_t x = (uint16_t)(half * 32768 + i);
                        uint16_t y = form == 32 ? yv[(i * 7 + i / 32) % 32] : yv[form];
                        uint16_t got = rd16(131072 + 2 * i), want = ref_binary16(op, x, y, bf);
                        if (got != want && bad++ < 3)
                            fprintf(stderr, "    %s op %d 0x%04x, 0x%04x: got 0x%04x want 0x%04x\n",
                                    bf ? "bf16" : "f16", op, x, y, got, want);
                    }
                }
            }
        }
        CHECK(bad == 0);
    }
}

/* trsqrt f32 on every 4099th pattern and on the special values, on every kernel set: on a3
 * against the simulator's (float)(1.0 / sqrt((double)x)) -- the AVX-512 kernel's exact
 * fallback (estimates near a rounding boundary, about 1 in 2^17 inputs) runs for some of
 * these -- and on a5 against A5's vsqrt then vdiv: s = sqrt(x) rounded to f32 (binary64's
 * sqrt rounded to f32 is, 53 >= 2 * 24 + 2), then 1 / s rounded to f32 (likewise).
 * `make test-exhaustive` checks all 2^32 patterns. */
static void rsqrt_f32_patterns(void)
{
    ptort_tile s = T(PTORT_F32, 128, 128, 0), d = T(PTORT_F32, 128, 128, 65536);
    int bad = 0;
    uint64_t next = 0;
    while (next < (1ull << 32)) {
        uint32_t *x = (uint32_t *)(void *)vec(a5);
        int first = next == 0;
        for (int i = 0; i < 16384; i++, next += 4099)
            x[i] = (uint32_t)next;
        if (first) {
            static const uint32_t sp[] = {0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                          0x7F800001u, 0xFFBFFFFFu, 0x3F800000u, 0x00000001u,
                                          0x80000001u, 0x7F7FFFFFu, 0x40800000u, 0x3E800000u,
                                          /* estimates near a rounding boundary */
                                          0x3F83C7B7u, 0x3F88C0D3u, 0x3F8A5C86u, 0x3F9349AAu};
            memcpy(x + 3, sp, sizeof sp);
        }
        memcpy(vec(a3), x, 65536);
        for (int path = 0; path < 3; path++) {
            set_path(path);
            for (int arch = 0; arch < 2; arch++) {
                ptort_ctx *c = arch ? a5 : a3;
                CHECK(ptort_vunary(c, PTORT_VOP_RSQRT, &s, &d) == PTORT_OK);
                for (int i = 0; i < 16384; i++) {
                    double v = unit_u2f(x[i]);
                    uint32_t want = arch ? unit_f2u((float)(1.0 / (double)(float)sqrt(v)))
                                         : unit_f2u((float)(1.0 / sqrt(v)));
                    uint32_t got;
                    memcpy(&got, vec(c) + 65536 + 4 * i, 4);
                    if (got != want && bad++ < 3)
                        fprintf(stderr, "    trsqrt %s path %d 0x%08x: got 0x%08x want 0x%08x\n",
                                arch ? "a5" : "a3", path, x[i], got, want);
                }
            }
        }
        set_path(0);
    }
    CHECK(bad == 0);
}

/* texpands on every kernel set: element sizes 1, 2 and 4, valid widths 1 .. 200 of a
 * 3 x 256 tile (so the last stores are partial) and one dense tile; every valid element is
 * the scalar, every other byte keeps its sentinel. */
static void expands_fill(void)
{
    static const ptort_dtype dts[] = {PTORT_I8, PTORT_F16, PTORT_F32};
    int bad = 0;
    for (int path = 0; path < 3; path++) {
        set_path(path);
        for (size_t k = 0; k < 3; k++) {
            int esz = ptort_dtype_size(dts[k]);
            for (int w = 1; w <= 200; w += (w < 70 ? 1 : 13)) {
                ptort_tile d = T(dts[k], 3, 256, 0);
                d.valid_cols = w;
                if (w == 200)
                    d = T(dts[k], 3, 200, 0);            /* dense: one run of 600 */
                memset(vec(a5), 0xEE, 4096);
                CHECK(ptort_texpands(a5, 0xA1B2C3D4u, &d) == PTORT_OK);
                const uint8_t want[4] = {0xD4, 0xC3, 0xB2, 0xA1};
                for (int64_t b = 0; b < 4096; b++) {
                    int64_t r = b / (d.cols * esz), c = b % (d.cols * esz) / esz;
                    int in = r < 3 && c < w;
                    uint8_t e = in ? want[b % esz] : 0xEE;
                    if (vec(a5)[b] != e && bad++ < 3)
                        fprintf(stderr, "    texpands path %d size %d width %d byte %lld: 0x%02x\n",
                                path, esz, w, (long long)b, vec(a5)[b]);
                }
            }
        }
    }
    set_path(0);
    CHECK(bad == 0);
}

/* trsqrt per arch, worked by hand: x = 1.1506855 (0x3F9349AA). A5 rounds sqrt(x) to
 * 1.0727001 (0x3F894E3D), and 1 / 1.0727001 = 0.93222... lies 0.18 of the way from 0x3F6EA66D
 * to 0x3F6EA66E: 0x3F6EA66D. The simulator's binary64 1 / sqrt(x) lies 0.5000016 of the way:
 * 0x3F6EA66E, which a3 keeps (its vrsqrt is not documented further). */
static void rsqrt_per_arch(void)
{
    ptort_tile s = T(PTORT_F32, 1, 8, 0), d = T(PTORT_F32, 1, 8, 64);
    s.valid_cols = d.valid_cols = 1;
    uint32_t x = 0x3F9349AAu, got;
    for (int path = 0; path < 3; path++) {
        set_path(path);
        memcpy(vec(a5), &x, 4);
        memcpy(vec(a3), &x, 4);
        CHECK(ptort_vunary(a5, PTORT_VOP_RSQRT, &s, &d) == PTORT_OK);
        memcpy(&got, vec(a5) + 64, 4);
        CHECK_EQ(got, 0x3F6EA66Du);
        CHECK(ptort_vunary(a3, PTORT_VOP_RSQRT, &s, &d) == PTORT_OK);
        memcpy(&got, vec(a3) + 64, 4);
        CHECK_EQ(got, 0x3F6EA66Eu);
    }
    set_path(0);
}

/* trowsum per arch, worked by hand (docs/numerics.md 8.3). f32, 67 columns: 2^25, 63 zeros,
 * then 1, 1, 1. A5 sums the blocks of 64 apart: 2^25 and 3, and 2^25 + 3 rounds to 2^25 + 4
 * (0x4C000001). A2/A3 (E = 64 lanes, one whole repeat and a tail of 3): tmp = repeat 0, its
 * lanes 0..2 + the tail: 2^25 + 1 rounds back to 2^25, lanes 1 and 2 become 1; vcadd of tmp
 * left to right: 2^25 + 1 rounds back twice: 2^25 (0x4C000000). f16, 129 columns: 1, 2^-11,
 * 2^-11, zeros, 2^-11 at column 128. A5: block 0 sums to 1 + 2^-10 (0x3C01); + 2^-11 is a
 * tie between 0x3C01 and 0x3C02, to even: 0x3C02. A2/A3 (E = 128): tmp lane 0 = 1 + 2^-11, a
 * tie rounded to 1 in f16; vcadd: 1 + 2^-11 + 2^-11 = 1 + 2^-10 in f32, exact in f16: 0x3C01. */
static void rowsum_blocks(void)
{
    ptort_tile s = T(PTORT_F32, 1, 128, 0), d = T(PTORT_F32, 1, 8, 1024);
    s.valid_cols = 67;
    d.valid_cols = 1;
    float x[128] = {0x1p25f};
    x[64] = x[65] = x[66] = 1.0f;
    ptort_tile h = T(PTORT_F16, 1, 256, 0), hd = T(PTORT_F16, 1, 16, 1024);
    h.valid_cols = 129;
    hd.valid_cols = 1;
    uint16_t hx[256] = {0x3C00, 0x1000, 0x1000};
    hx[128] = 0x1000;
    for (int path = 0; path < 3; path++) {
        set_path(path);
        for (int arch = 0; arch < 2; arch++) {
            ptort_ctx *c = arch ? a5 : a3;
            uint32_t got = 0;
            memcpy(vec(c), x, sizeof x);
            CHECK(ptort_vrowreduce(c, PTORT_VOP_SUM, &s, NULL, &d) == PTORT_OK);
            memcpy(&got, vec(c) + 1024, 4);
            CHECK_EQ(got, arch ? 0x4C000001u : 0x4C000000u);
            memcpy(vec(c), hx, sizeof hx);
            CHECK(ptort_vrowreduce(c, PTORT_VOP_SUM, &h, NULL, &hd) == PTORT_OK);
            memcpy(&got, vec(c) + 1024, 4);
            CHECK_EQ(got & 0xFFFF, arch ? 0x3C02u : 0x3C01u);
        }
    }
    set_path(0);
}

/* A2/A3's trowsum f32 (pto-isa npu/a2a3 TRowReduceOps.hpp), one row of N columns, worked by
 * hand; a5 and --numerics=sim (left to right) give 2^25 (0x4C000000) for each: every 1 or 2
 * added to 2^25 rounds back (ulp 4, 2 a tie to the even 2^25).
 * - N = 128 (two repeats of 64): tmp = rep0 + rep1 lane by lane. 2^25 at 0, 1 at 1, 2 at 65:
 *   tmp lane 1 = 3; vcadd: 2^25 + 3 rounds to 2^25 + 4 (0x4C000001).
 * - N = 197 (three repeats and a tail of 5): tmp = rep0 + rep1, + rep2, then lanes 0..4 + the
 *   tail. 2^25 at 0 and 1 at 65, 129, 193: tmp lane 1 = 3: 0x4C000001.
 * - N = 320 (five repeats): tmp0 = rep0 + rep1, tmp1 = rep2 + rep3, tmp0 += rep4, then
 *   tmp0 += tmp1. 2^25 at 0, 1 at 128, 2 at 192: lane 0 = 2^25 + (1 + 2): 0x4C000001.
 * - [64, 128] into a DN [64, 1] dst (TryOptimizeFP32Reduce): g = sums of 8, t[k] = g[k] +
 *   g[k + 8], vcgadd(t). Row 0: 2^25 at 0, 1 at 8, 9, 10: g1 = 3, t1 = 3: 0x4C000001. The same
 *   row in a 1 x 128 tile (the general path: vcadd of 2^25, 1, 1, 1 left to right): 0x4C000000.
 *   Row 1 (1 at 0 and 64, 0x1p-22 at 127): t0 = 2, t7 = 0x1p-22, sum 2 + 0x1p-22 (0x40000001,
 *   exact); the general path gives the same there. */
static void rowsum_a3(void)
{
    static const struct {
        int64_t n;
        int idx[3];
        float v[3];
    } cases[] = {
        {128, {1, 65, 0}, {1, 2, 0}},
        {197, {65, 129, 193}, {1, 1, 1}},
        {320, {128, 192, 0}, {1, 2, 0}},
    };
    static float x[8192];
    ptort_tile d = T(PTORT_F32, 64, 1, 40960);
    d.blayout = PTORT_BL_COL_MAJOR;
    for (int path = 0; path < 3; path++) {
        set_path(path);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            ptort_tile s = T(PTORT_F32, 1, 320, 0), d1 = d;
            s.valid_cols = cases[i].n;
            d1.valid_rows = 1;
            memset(x, 0, sizeof x);
            x[0] = 0x1p25f;
            for (int k = 0; k < 3; k++)
                x[cases[i].idx[k]] += cases[i].v[k];
            for (int arch = 0; arch < 2; arch++) {
                ptort_ctx *c = arch ? a5 : a3;
                memcpy(vec(c), x, 320 * 4);
                CHECK(ptort_vrowreduce(c, PTORT_VOP_SUM, &s, NULL, &d1) == PTORT_OK);
                uint32_t got;
                memcpy(&got, vec(c) + 40960, 4);
                CHECK_EQ(got, arch ? 0x4C000000u : 0x4C000001u);
            }
        }
        memset(x, 0, sizeof x);
        x[0] = 0x1p25f;
        x[8] = x[9] = x[10] = 1.0f;
        x[128] = x[192] = 1.0f;
        x[255] = 0x1p-22f;
        ptort_tile s = T(PTORT_F32, 64, 128, 0), one = T(PTORT_F32, 1, 128, 0), d1 = d;
        d1.valid_rows = 1;
        uint32_t got[2];
        memcpy(vec(a3), x, sizeof x);
        CHECK(ptort_vrowreduce(a3, PTORT_VOP_SUM, &s, NULL, &d) == PTORT_OK);
        memcpy(got, vec(a3) + 40960, 8);
        CHECK_EQ(got[0], 0x4C000001u);
        CHECK_EQ(got[1], 0x40000001u);
        CHECK(ptort_vrowreduce(a3, PTORT_VOP_SUM, &one, NULL, &d1) == PTORT_OK);
        memcpy(got, vec(a3) + 40960, 4);
        CHECK_EQ(got[0], 0x4C000000u);
    }
    set_path(0);
}

/* trsqrt with a tmp on A2/A3 is vsqrt then vdiv (pto-isa npu/a2a3 TUnaryOp.hpp,
 * TRsqrtHighPrecision): x = 1.1506855 (0x3F9349AA) gives A5's 0x3F6EA66D (rsqrt_per_arch), and
 * tmp's first 32 bytes hold eight f32 1.0 (0x3F800000); its byte 32 keeps 0xEE. Without tmp
 * (vrsqrt) 0x3F6EA66E. f16 x = 3 (0x4200): sqrt(3) = 1.7320508 rounds to f16 1.7324219
 * (0x3EEE), 1 / 1.7324219 = 0.5772266 lies between 0x389E (0.57714844) and 0x389F
 * (0.57763672), 0.16 of the way: 0x389E; tmp holds sixteen 0x3C00. */
static void rsqrt_tmp_a3(void)
{
    ptort_tile s = T(PTORT_F32, 1, 8, 0), d = T(PTORT_F32, 1, 8, 64), t = T(PTORT_F32, 1, 16, 128);
    ptort_tile hs = T(PTORT_F16, 1, 16, 0), hd = T(PTORT_F16, 1, 16, 64), ht = T(PTORT_F16, 1, 32, 128);
    s.valid_cols = d.valid_cols = 1;
    hs.valid_cols = hd.valid_cols = 1;
    uint32_t x = 0x3F9349AAu, got, one;
    uint16_t h = 0x4200, hg, hone;
    for (int path = 0; path < 3; path++) {
        set_path(path);
        memset(vec(a3), 0xEE, 256);
        memcpy(vec(a3), &x, 4);
        CHECK(ptort_vunary_tmp(a3, PTORT_VOP_RSQRT, &s, &t, &d) == PTORT_OK);
        memcpy(&got, vec(a3) + 64, 4);
        CHECK_EQ(got, 0x3F6EA66Du);
        for (int k = 0; k < 8; k++) {
            memcpy(&one, vec(a3) + 128 + 4 * k, 4);
            CHECK_EQ(one, 0x3F800000u);
        }
        CHECK_EQ(vec(a3)[160], 0xEE);
        CHECK(ptort_vunary_tmp(a3, PTORT_VOP_RSQRT, &s, NULL, &d) == PTORT_OK);
        memcpy(&got, vec(a3) + 64, 4);
        CHECK_EQ(got, 0x3F6EA66Eu);
        memset(vec(a3), 0xEE, 256);
        memcpy(vec(a3), &h, 2);
        CHECK(ptort_vunary_tmp(a3, PTORT_VOP_RSQRT, &hs, &ht, &hd) == PTORT_OK);
        memcpy(&hg, vec(a3) + 64, 2);
        CHECK_EQ(hg, 0x389Eu);
        for (int k = 0; k < 16; k++) {
            memcpy(&hone, vec(a3) + 128 + 2 * k, 2);
            CHECK_EQ(hone, 0x3C00u);
        }
        /* a5 ignores tmp: the same quotient, tmp untouched */
        memset(vec(a5), 0xEE, 256);
        memcpy(vec(a5), &x, 4);
        CHECK(ptort_vunary_tmp(a5, PTORT_VOP_RSQRT, &s, &t, &d) == PTORT_OK);
        memcpy(&got, vec(a5) + 64, 4);
        CHECK_EQ(got, 0x3F6EA66Du);
        CHECK_EQ(vec(a5)[128], 0xEE);
    }
    set_path(0);
}

static void unary_f32(void)
{
    ptort_tile s = T(PTORT_F32, 1, 64, 0), d = T(PTORT_F32, 1, 64, 256);
    /* rsqrt(2) = 1/1.4142135623730951 = 0.7071067811865475 in fp64 -> f32 0x3F3504F3;
     * sqrt(2) -> 0x3FB504F3; recip(3) -> 0x3EAAAAAB; rsqrt(+0) = +Inf, rsqrt(-0) = -Inf,
     * sqrt(-0) = -0, sqrt(-1) = default NaN 0xFFC00000 */
    float x[64] = {2.0f, 3.0f, 0.0f, -0.0f, -1.0f, INFINITY};
    for (int i = 6; i < 64; i++)
        x[i] = ldexpf(1.0f + (float)i / 64.0f, i - 32);
    fill_f32(&s, x, 1, 64);
    for (int path = 0; path < 3; path++) {
        set_path(path);
        CHECK(ptort_vunary(a5, PTORT_VOP_RSQRT, &s, &d) == PTORT_OK);
        CHECK_EQ(rd32(256), 0x3F3504F3u);
        CHECK_EQ(rd32(264), 0x7F800000u);
        CHECK_EQ(rd32(268), 0xFF800000u);
        CHECK_EQ(rd32(272), 0xFFC00000u);
        CHECK_EQ(rd32(276), 0u);
        int bad = 0;
        for (int i = 6; i < 64; i++)   /* A5: f32 root, then f32 division */
            bad += rd32(256 + 4 * i) != unit_f2u((float)(1.0 / (double)(float)sqrt((double)x[i])));
        CHECK(bad == 0);
        CHECK(ptort_vunary(a5, PTORT_VOP_SQRT, &s, &d) == PTORT_OK);
        CHECK_EQ(rd32(256), 0x3FB504F3u);
        CHECK_EQ(rd32(268), 0x80000000u);
        CHECK_EQ(rd32(272), 0xFFC00000u);
        CHECK(ptort_vunary(a5, PTORT_VOP_RECIP, &s, &d) == PTORT_OK);
        CHECK_EQ(rd32(260), 0x3EAAAAABu);
        CHECK(ptort_vunary(a5, PTORT_VOP_RELU, &s, &d) == PTORT_OK);
        CHECK_EQ(rd32(268), 0x80000000u);                    /* relu(-0) = -0 */
        CHECK_EQ(rd32(272), 0u);                             /* relu(-1) = 0 */
    }
    set_path(0);

    /* abs is the simulator's x < 0 ? -x : x: abs(-1.5) = 1.5, but -0 and a NaN of either
     * sign compare false and pass unchanged (a sign-bit clear would give +0 and 0x7FA00001) */
    ptort_tile a = T(PTORT_F32, 1, 8, 0), ad = T(PTORT_F32, 1, 8, 256);
    uint32_t ax[8] = {0xBFC00000u, 0x80000000u, 0xFFA00001u, 0xFFC00000u, 0x7F800001u,
                      0xFF800000u, 0x00000001u, 0x80000001u};
    memcpy(vec(a5), ax, 32);
    for (int path = 0; path < 3; path++) {
        set_path(path);
        CHECK(ptort_vunary(a5, PTORT_VOP_ABS, &a, &ad) == PTORT_OK);
        CHECK_EQ(rd32(256), 0x3FC00000u);
        CHECK_EQ(rd32(260), 0x80000000u);
        CHECK_EQ(rd32(264), 0xFFA00001u);
        CHECK_EQ(rd32(268), 0xFFC00000u);
        CHECK_EQ(rd32(272), 0x7F800001u);
        CHECK_EQ(rd32(276), 0x7F800000u);                    /* abs(-Inf) = +Inf */
        CHECK_EQ(rd32(280), 0x00000001u);
        CHECK_EQ(rd32(284), 0x00000001u);                    /* abs(-min subnormal) */
    }
    set_path(0);
}

/* ---- reductions ------------------------------------------------------------------------------ */

static void reductions(void)
{
    /* 9 rows (one block of 8 lanes and a tail row) x 70 cols (two chunks): each row is
     * 1e8, 1, -1e8, 1, 0, ...: left to right in f32, 1e8 + 1 = 1e8 (ulp 8), - 1e8 = 0,
     * + 1 = 1; a pairwise sum would give 0. */
    enum { R = 9, C = 70, S = 72 };
    ptort_tile s = T(PTORT_F32, R, S, 0), d = T(PTORT_F32, 16, 1, 4096);
    s.valid_cols = C;
    d.blayout = PTORT_BL_COL_MAJOR;
    d.valid_rows = R;
    static float x[R * S];
    memset(x, 0, sizeof x);
    for (int r = 0; r < R; r++) {
        x[r * S + 0] = 1e8f;
        x[r * S + 1] = 1.0f;
        x[r * S + 2] = -1e8f;
        x[r * S + 3] = 1.0f;
        x[r * S + 70] = NAN;                   /* padding: never read */
        x[r * S + 71] = 1e30f;
    }
    x[1 * S + 69] = 5.0f;                      /* row 1: last valid column */
    x[8 * S + 0] = -0.0f;                      /* row 8: -0, 1, -1e8, 1 -> ... */
    fill_f32(&s, x, R, S);
    for (int path = 0; path < 3; path++) {
        set_path(path);
        memset(vec(a5) + 4096, 0x5A, 64);
        CHECK(ptort_vrowreduce(a5, PTORT_VOP_SUM, &s, NULL, &d) == PTORT_OK);
        CHECK(rd_f32(4096) == 1.0f && rd_f32(4096 + 4) == 6.0f && rd_f32(4096 + 28) == 1.0f);
        /* row 8: 0 + -0 + 1 - 1e8 + 1 = -1e8 + 1 -> -99999999 rounds to -1e8 (ulp 8) */
        CHECK(rd_f32(4096 + 32) == -1e8f);
        CHECK_EQ(rd32(4096 + 36), 0x5A5A5A5Au);        /* dst valid rows only */
        CHECK(ptort_vrowreduce(a5, PTORT_VOP_MAX, &s, NULL, &d) == PTORT_OK);
        CHECK(rd_f32(4096) == 1e8f && rd_f32(4096 + 32) == 1.0f);
        CHECK(ptort_vrowreduce(a5, PTORT_VOP_MIN, &s, NULL, &d) == PTORT_OK);
        CHECK(rd_f32(4096) == -1e8f);
    }
    set_path(0);

    /* signed zeros and NaN: max keeps the first of equal values and a leading NaN */
    ptort_tile z = T(PTORT_F32, 4, 8, 0), zd = T(PTORT_F32, 8, 1, 256);
    zd.blayout = PTORT_BL_COL_MAJOR;
    zd.valid_rows = 4;
    float zx[32] = {-0.0f, 0.0f, 0, 0, 0, 0, 0, 0,
                    0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f,
                    NAN, 1, 2, 3, 4, 5, 6, 7,
                    1, NAN, 2, NAN, 0, 0, 0, 0};
    fill_f32(&z, zx, 4, 8);
    CHECK(ptort_vrowreduce(a5, PTORT_VOP_MAX, &z, NULL, &zd) == PTORT_OK);
    CHECK_EQ(rd32(256), 0x80000000u);
    CHECK_EQ(rd32(260), 0x00000000u);
    CHECK_EQ(rd32(264), 0x7FC00000u);
    CHECK(rd_f32(268) == 2.0f);
    CHECK(ptort_vrowreduce(a5, PTORT_VOP_SUM, &z, NULL, &zd) == PTORT_OK);
    CHECK_EQ(rd32(260), 0x00000000u);            /* 0 + -0 + ... = +0 */

    /* bf16 -> f32 max/min of a row or column starting with a signalling NaN: the NaN widened
     * as tcvt widens bf16 (a 16-bit shift, 0x7F81 -> 0x7F810000), not quieted */
    ptort_tile b = T(PTORT_BF16, 2, 16, 0), bd = T(PTORT_F32, 8, 1, 256), bc = T(PTORT_F32, 1, 16, 512);
    bd.blayout = PTORT_BL_COL_MAJOR;
    bd.valid_rows = 2;
    uint16_t bx[32] = {0x7F81, 0x3F80, 0x4000};
    bx[16] = 0x3F80;
    bx[17] = 0xFFA5;                             /* a later NaN is never taken */
    memcpy(vec(a5), bx, 64);
    CHECK(ptort_vrowreduce(a5, PTORT_VOP_MAX, &b, NULL, &bd) == PTORT_OK);
    CHECK_EQ(rd32(256), 0x7F810000u);
    CHECK_EQ(rd32(260), 0x3F800000u);
    CHECK(ptort_vcolreduce(a5, PTORT_VOP_MIN, &b, NULL, &bc) == PTORT_OK);
    CHECK_EQ(rd32(512), 0x7F810000u);
    CHECK_EQ(rd32(516), 0x3F800000u);            /* min(1, NaN) = 1 */

    /* f16 row sum accumulates in f32 and rounds once: 1 + 2^-11 + 2^-11 = 1 + 2^-10
     * (0x3C01); the column sum accumulates in f16 and rounds each step: 1 + 2^-11 -> 1,
     * again -> 1 (0x3C00); into f32 it is exact, 0x3F802000. */
    ptort_tile h = T(PTORT_F16, 3, 16, 0), hd = T(PTORT_F16, 16, 1, 256);
    hd.blayout = PTORT_BL_COL_MAJOR;
    hd.valid_rows = 3;
    h.valid_cols = 3;
    uint16_t hx[48] = {0x3C00, 0x1000, 0x1000};
    hx[16] = 0x1000;
    hx[32] = 0x1000;
    memcpy(vec(a5), hx, sizeof hx);
    CHECK(ptort_vrowreduce(a5, PTORT_VOP_SUM, &h, NULL, &hd) == PTORT_OK);
    CHECK_EQ(rd16(256), 0x3C01u);
    ptort_tile hc = h, hcd = T(PTORT_F16, 1, 16, 512), hcf = T(PTORT_F32, 1, 8, 768);
    hc.valid_cols = 1;
    hx[0] = 0x3C00;
    memcpy(vec(a5), hx, sizeof hx);
    hcd.valid_cols = hcf.valid_cols = 1;
    CHECK(ptort_vcolreduce(a5, PTORT_VOP_SUM, &hc, NULL, &hcd) == PTORT_OK);
    CHECK_EQ(rd16(512), 0x3C00u);
    CHECK(ptort_vcolreduce(a5, PTORT_VOP_SUM, &hc, NULL, &hcf) == PTORT_OK);
    CHECK_EQ(rd32(768), 0x3F802000u);

    /* column max / min over f32 */
    ptort_tile c = T(PTORT_F32, 3, 8, 0), cd = T(PTORT_F32, 1, 8, 256);
    float cx[24] = {1, -0.0f, NAN, 5, 0, 0, 0, 0,
                    2, 0.0f, 1, 4, 0, 0, 0, 0,
                    -3, 0.0f, 2, 6, 0, 0, 0, 0};
    fill_f32(&c, cx, 3, 8);
    CHECK(ptort_vcolreduce(a5, PTORT_VOP_MAX, &c, NULL, &cd) == PTORT_OK);
    CHECK(rd_f32(256) == 2.0f);
    CHECK_EQ(rd32(260), 0x80000000u);
    CHECK_EQ(rd32(264), 0x7FC00000u);
    CHECK(rd_f32(268) == 6.0f);
    CHECK(ptort_vcolreduce(a5, PTORT_VOP_MIN, &c, NULL, &cd) == PTORT_OK);
    CHECK(rd_f32(256) == -3.0f && rd_f32(268) == 4.0f);

    /* f16 -> f32 max of a column / row starting with the signalling NaN 0x7C01: quiet,
     * 0x7FC02000 (f16 -> f16 keeps 0x7C01 itself) */
    ptort_tile sn = T(PTORT_F16, 2, 16, 0), snd = T(PTORT_F32, 1, 8, 256), snh = T(PTORT_F16, 1, 16, 512);
    sn.valid_cols = snd.valid_cols = snh.valid_cols = 1;
    uint16_t snx[32] = {0x7C01};
    snx[16] = 0x3C00;
    memcpy(vec(a5), snx, sizeof snx);
    for (int path = 0; path < 3; path++) {
        set_path(path);
        CHECK(ptort_vcolreduce(a5, PTORT_VOP_MAX, &sn, NULL, &snd) == PTORT_OK);
        CHECK_EQ(rd32(256), 0x7FC02000u);
        CHECK(ptort_vcolreduce(a5, PTORT_VOP_MAX, &sn, NULL, &snh) == PTORT_OK);
        CHECK_EQ(rd16(512), 0x7C01u);
    }
    set_path(0);

    /* i16 -> i32 row sum, wrap-free; i16 -> i16 wraps */
    ptort_tile i = T(PTORT_I16, 1, 16, 0), id = T(PTORT_I32, 1, 8, 256), ih = T(PTORT_I16, 1, 16, 512);
    id.valid_cols = ih.valid_cols = 1;
    int16_t ix[16] = {30000, 30000, 30000, -1};
    i.valid_cols = 4;
    memcpy(vec(a5), ix, 32);
    CHECK(ptort_vrowreduce(a5, PTORT_VOP_SUM, &i, NULL, &id) == PTORT_OK);
    CHECK_EQ(rd32(256), 89999u);
    CHECK(ptort_vrowreduce(a5, PTORT_VOP_SUM, &i, NULL, &ih) == PTORT_OK);
    CHECK_EQ(rd16(512), (uint16_t)(89999 - 65536));
    /* errors */
    CHECK_STATUS(a5, ptort_vrowreduce(a5, PTORT_VOP_SUM, &s, NULL, &hd), PTORT_E_DTYPE, "f32 -> f16");
    CHECK_STATUS(a5, ptort_vcolreduce(a5, PTORT_VOP_MAX, &c, NULL, &d), PTORT_E_SHAPE, "valid_shape [1, 8]");
    CHECK_STATUS(a5, ptort_vrowreduce(a5, PTORT_VOP_ADD, &s, NULL, &d), PTORT_E_ARG, "not sum");
}

/* Where reduction results land: contiguous destinations are converted as a whole, strided
 * ones (a row-major [R, 8] row-reduction dst, a column-major [2, C] column-reduction dst)
 * element by element; positions between the results keep their bytes. On every path. */
static void reduction_stores(void)
{
    /* f32 4 x 16, valid 4 x 3: row r is (r + 1, 0.5, -0.25); row 3 has the signalling NaN
     * 0x7F800001 in column 1, which the sum quiets: 0x7FC00001 */
    ptort_tile s = T(PTORT_F32, 4, 16, 0);
    s.valid_cols = 3;
    float x[64] = {0};
    for (int r = 0; r < 4; r++) {
        x[r * 16] = (float)(r + 1);
        x[r * 16 + 1] = 0.5f;
        x[r * 16 + 2] = -0.25f;
    }
    fill_f32(&s, x, 4, 16);
    uint32_t snan = 0x7F800001u;
    memcpy(vec(a5) + (3 * 16 + 1) * 4, &snan, 4);
    ptort_tile rs = T(PTORT_F32, 4, 8, 4096), rc = T(PTORT_F32, 8, 1, 8192);
    rs.valid_cols = 1;
    rc.blayout = PTORT_BL_COL_MAJOR;
    rc.valid_rows = 4;
    /* bf16 3 x 16, valid 3 x 5, column max into a column-major [2, 16] dst (stride 2):
     * columns (1, 2, -3), (-0, +0, -0), (0x7F81 sNaN, 1, 2), (Inf, 1, -Inf), (-1, -2, -0.5) */
    ptort_tile b = T(PTORT_BF16, 3, 16, 12288), bc = T(PTORT_BF16, 2, 16, 16384);
    b.valid_cols = bc.valid_cols = 5;
    bc.blayout = PTORT_BL_COL_MAJOR;
    bc.valid_rows = 1;
    uint16_t bx[48] = {0x3F80, 0x8000, 0x7F81, 0x7F80, 0xBF80};
    uint16_t b1[5] = {0x4000, 0x0000, 0x3F80, 0x3F80, 0xC000};
    uint16_t b2[5] = {0xC040, 0x8000, 0x4000, 0xFF80, 0xBF00};
    memcpy(bx + 16, b1, sizeof b1);
    memcpy(bx + 32, b2, sizeof b2);
    for (int path = 0; path < 3; path++) {
        set_path(path);
        memset(vec(a5) + 4096, 0x5A, 128);
        memset(vec(a5) + 8192, 0x5A, 32);
        CHECK(ptort_vrowreduce(a5, PTORT_VOP_SUM, &s, NULL, &rs) == PTORT_OK);
        CHECK(ptort_vrowreduce(a5, PTORT_VOP_SUM, &s, NULL, &rc) == PTORT_OK);
        for (int r = 0; r < 3; r++) {
            /* (r + 1) + 0.5 - 0.25 */
            CHECK(rd_f32(4096 + 32 * r) == (float)r + 1.25f);
            CHECK(rd_f32(8192 + 4 * r) == (float)r + 1.25f);
            CHECK_EQ(rd32(4096 + 32 * r + 4), 0x5A5A5A5Au);
        }
        CHECK_EQ(rd32(4096 + 96), 0x7FC00001u);
        CHECK_EQ(rd32(8192 + 12), 0x7FC00001u);
        CHECK_EQ(rd32(8192 + 16), 0x5A5A5A5Au);
        memcpy(vec(a5) + 12288, bx, sizeof bx);
        memset(vec(a5) + 16384, 0x5A, 64);
        CHECK(ptort_vcolreduce(a5, PTORT_VOP_MAX, &b, NULL, &bc) == PTORT_OK);
        /* 2, -0 (the first of equal values), the leading NaN itself, Inf, -0.5 */
        static const uint16_t want[5] = {0x4000, 0x8000, 0x7F81, 0x7F80, 0xBF00};
        for (int j = 0; j < 5; j++) {
            CHECK_EQ(rd16(16384 + 4 * j), want[j]);
            CHECK_EQ(rd16(16384 + 4 * j + 2), 0x5A5Au);
        }
        CHECK_EQ(rd16(16384 + 20), 0x5A5Au);
        /* no NaN: the contiguous bf16 dst is converted as a whole */
        ptort_tile b4 = b, bd = T(PTORT_BF16, 1, 16, 16384);
        b4.valid_cols = bd.valid_cols = 2;
        memset(vec(a5) + 16384, 0x5A, 32);
        CHECK(ptort_vcolreduce(a5, PTORT_VOP_MIN, &b4, NULL, &bd) == PTORT_OK);
        CHECK_EQ(rd16(16384), 0xC040u);
        CHECK_EQ(rd16(16386), 0x8000u);
        CHECK_EQ(rd16(16388), 0x5A5Au);
        /* i16 row sum into i16 (wraps) and i32 */
        ptort_tile i = T(PTORT_I16, 2, 16, 20480), ih = T(PTORT_I16, 16, 1, 24576), iw = T(PTORT_I32, 8, 1, 24640);
        i.valid_cols = 2;
        ih.blayout = iw.blayout = PTORT_BL_COL_MAJOR;
        ih.valid_rows = iw.valid_rows = 2;
        int16_t ix[32] = {30000, 30000};
        ix[16] = -3;
        ix[17] = 1;
        memcpy(vec(a5) + 20480, ix, sizeof ix);
        memset(vec(a5) + 24576, 0x5A, 128);
        CHECK(ptort_vrowreduce(a5, PTORT_VOP_SUM, &i, NULL, &ih) == PTORT_OK);
        CHECK(ptort_vrowreduce(a5, PTORT_VOP_SUM, &i, NULL, &iw) == PTORT_OK);
        CHECK_EQ(rd16(24576), (uint16_t)(60000 - 65536));
        CHECK_EQ(rd16(24578), 0xFFFEu);
        CHECK_EQ(rd16(24580), 0x5A5Au);
        CHECK_EQ(rd32(24640), 60000u);
        CHECK_EQ(rd32(24644), 0xFFFFFFFEu);
        CHECK_EQ(rd32(24648), 0x5A5A5A5Au);
    }
    set_path(0);
}

/* ---- broadcasts ------------------------------------------------------------------------------ */

static void broadcasts(void)
{
    ptort_tile s = T(PTORT_F32, 2, 16, 0), v = T(PTORT_F32, 8, 1, 256), d = T(PTORT_F32, 2, 16, 512);
    v.blayout = PTORT_BL_COL_MAJOR;
    v.valid_rows = 2;
    s.valid_cols = d.valid_cols = 10;
    float x[32], vv[2] = {2.0f, -4.0f};
    for (int i = 0; i < 32; i++)
        x[i] = (float)(i + 1);
    fill_f32(&s, x, 2, 16);
    fill_f32(&v, vv, 2, 1);
    memset(vec(a5) + 512, 0x5A, 128);
    CHECK(ptort_vrowexpand(a5, PTORT_VOP_MUL, &s, &v, &d) == PTORT_OK);
    CHECK(rd_f32(512) == 2.0f && rd_f32(512 + 36) == 20.0f && rd_f32(512 + 64) == -68.0f);
    CHECK_EQ(rd32(512 + 40), 0x5A5A5A5Au);
    /* the vector as src0: dst = v / src */
    CHECK(ptort_vrowexpand(a5, PTORT_VOP_DIV, &v, &s, &d) == PTORT_OK);
    CHECK(rd_f32(512 + 4) == 1.0f && rd_f32(512 + 64 + 12) == -0.2f);
    /* trowexpand */
    CHECK(ptort_vrowexpand(a5, PTORT_VOP_COPY, &v, NULL, &d) == PTORT_OK);
    CHECK(rd_f32(512 + 36) == 2.0f && rd_f32(512 + 64) == -4.0f);
    /* row-major [R, 8] vector: element c reads v[r][c % 8] */
    ptort_tile w = T(PTORT_F32, 2, 8, 1024);
    float wv[16] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 20, 30, 40, 50, 60, 70, 80};
    fill_f32(&w, wv, 2, 8);
    CHECK(ptort_vrowexpand(a5, PTORT_VOP_SUB, &s, &w, &d) == PTORT_OK);
    /* row 0 col 9: 10 - w[0][1] = 8; row 1 col 8: 25 - 10 = 15 */
    CHECK(rd_f32(512 + 36) == 8.0f && rd_f32(512 + 64 + 32) == 15.0f);
    /* column broadcast: dst[i][j] = src[i][j] - v[0][j] */
    ptort_tile cv = T(PTORT_F32, 1, 16, 1024);
    cv.valid_cols = 10;
    float cvv[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 100};
    fill_f32(&cv, cvv, 1, 16);
    CHECK(ptort_vcolexpand(a5, PTORT_VOP_SUB, &s, &cv, &d) == PTORT_OK);
    CHECK(rd_f32(512) == 0.0f && rd_f32(512 + 36) == -90.0f && rd_f32(512 + 64 + 36) == -74.0f);
    CHECK(ptort_vcolexpand(a5, PTORT_VOP_COPY, &cv, NULL, &d) == PTORT_OK);
    CHECK(rd_f32(512 + 64 + 36) == 100.0f);
    CHECK_EQ(rd32(512 + 64 + 40), 0x5A5A5A5Au);
    /* errors */
    ptort_tile bad = v;
    bad.valid_rows = 1;
    CHECK_STATUS(a5, ptort_vrowexpand(a5, PTORT_VOP_MUL, &s, &bad, &d), PTORT_E_SHAPE, "per-row operand");
    CHECK_STATUS(a5, ptort_vrowexpand(a5, PTORT_VOP_ABS, &s, &v, &d), PTORT_E_ARG, "not supported");
}

/* ---- tcvt and tci ---------------------------------------------------------------------------- */

/* Integer division, worked by hand: truncation toward zero, x / -1 wrapping (INT32_MIN / -1 =
 * INT32_MIN, as i16's -32768 / -1 = -32768 in the simulator's promoted C division), unsigned
 * division for u8; a zero divisor fails with PTORT_E_UB in every op form, writing nothing. */
static void int_div(void)
{
    ptort_tile a = T(PTORT_I32, 1, 8, 0), b = T(PTORT_I32, 1, 8, 64), d = T(PTORT_I32, 1, 8, 128);
    int32_t x[8] = {-7, 7, -7, INT32_MIN, INT32_MIN, INT32_MAX, 5, 0};
    int32_t y[8] = {2, -2, -2, -1, 1, -1, 7, -3};
    int32_t want[8] = {-3, -3, 3, INT32_MIN, INT32_MIN, -INT32_MAX, 0, 0};
    for (int path = 0; path < 3; path++) {
        set_path(path);
        memcpy(vec(a5), x, 32);
        memcpy(vec(a5) + 64, y, 32);
        CHECK(ptort_vbinary(a5, PTORT_VOP_DIV, &a, &b, &d) == PTORT_OK);
        CHECK_BYTES(vec(a5) + 128, want, 32);
        /* tile / scalar -2 and scalar 100 / tile */
        int32_t ws[8] = {3, -3, 3, 0x40000000, 0x40000000, -1073741823, -2, 0};
        CHECK(ptort_vscalar(a5, PTORT_VOP_DIV, &a, (uint32_t)-2, &d) == PTORT_OK);
        CHECK_BYTES(vec(a5) + 128, ws, 32);
        int32_t wr[8] = {50, -50, -50, -100, 100, -100, 14, -33};
        CHECK(ptort_vrdivs(a5, 100, &b, &d) == PTORT_OK);
        CHECK_BYTES(vec(a5) + 128, wr, 32);
        /* i16: -32768 / -1 wraps to -32768; u16: 65535 / 2 = 32767 */
        ptort_tile h = T(PTORT_I16, 1, 16, 0), hb = T(PTORT_I16, 1, 16, 64), hd = T(PTORT_I16, 1, 16, 128);
        h.valid_cols = hb.valid_cols = hd.valid_cols = 2;
        int16_t hx[16] = {-32768, -9}, hy[16] = {-1, 4}, hw[2] = {-32768, -2};
        memcpy(vec(a5), hx, 32);
        memcpy(vec(a5) + 64, hy, 32);
        CHECK(ptort_vbinary(a5, PTORT_VOP_DIV, &h, &hb, &hd) == PTORT_OK);
        CHECK_BYTES(vec(a5) + 128, hw, 4);
        /* u8 (a5): 200 / 3 = 66, unsigned */
        ptort_tile u = T(PTORT_U8, 1, 32, 0), ud = T(PTORT_U8, 1, 32, 128);
        u.valid_cols = ud.valid_cols = 1;
        vec(a5)[0] = 200;
        CHECK(ptort_vscalar(a5, PTORT_VOP_DIV, &u, 3u, &ud) == PTORT_OK);
        CHECK_EQ(vec(a5)[128], 66);
    }
    set_path(0);
    /* zero divisors: every form fails before writing */
    memcpy(vec(a5), x, 32);
    memcpy(vec(a5) + 64, y, 32);
    memset(vec(a5) + 68, 0, 4);                  /* b[1] = 0 */
    memset(vec(a5) + 128, 0x5A, 32);
    uint8_t untouched[32];
    memset(untouched, 0x5A, 32);
    CHECK_STATUS(a5, ptort_vbinary(a5, PTORT_VOP_DIV, &a, &b, &d), PTORT_E_UB,
                 "tdiv: division by zero (src1 element [0, 1] is 0)");
    CHECK_BYTES(vec(a5) + 128, untouched, 32);
    CHECK_STATUS(a5, ptort_vscalar(a5, PTORT_VOP_DIV, &a, 0, &d), PTORT_E_UB, "tdivs: division by zero (the scalar is 0)");
    CHECK_STATUS(a5, ptort_vrdivs(a5, 1, &a, &d), PTORT_E_UB, "tdivs: division by zero (src element [0, 7] is 0)");
    CHECK_BYTES(vec(a5) + 128, untouched, 32);
    ptort_tile col = T(PTORT_I32, 8, 1, 64);
    col.blayout = PTORT_BL_COL_MAJOR;
    ptort_tile full = T(PTORT_I32, 8, 8, 256), fd = T(PTORT_I32, 8, 8, 512);
    memset(vec(a5) + 256, 1, 256);
    CHECK_STATUS(a5, ptort_vrowexpand(a5, PTORT_VOP_DIV, &full, &col, &fd), PTORT_E_UB,
                 "trowexpanddiv: division by zero (src1 element [1, 0] is 0)");
    /* the per-row operand as the dividend: the full tile is the divisor, and has no zero */
    CHECK(ptort_vrowexpand(a5, PTORT_VOP_DIV, &col, &full, &fd) == PTORT_OK);
    CHECK_STATUS(a5, ptort_vcolexpand(a5, PTORT_VOP_DIV, &full, &b, &fd), PTORT_E_UB,
                 "tcolexpanddiv: division by zero (src1 element [0, 1] is 0)");
    /* floats divide by zero as IEEE 754 says */
    ptort_tile f = T(PTORT_F32, 1, 8, 0), fz = T(PTORT_F32, 1, 8, 64), fq = T(PTORT_F32, 1, 8, 128);
    memset(vec(a5) + 64, 0, 32);
    CHECK(ptort_vbinary(a5, PTORT_VOP_DIV, &f, &fz, &fq) == PTORT_OK);
    /* integer tdiv is a5 only (the verifier's A2/A3 tdiv takes floats) */
    CHECK_STATUS(a3, ptort_vbinary(a3, PTORT_VOP_DIV, &a, &b, &d), PTORT_E_ARCH, "needs arch a5");
}

/* tcvt i32 -> f16: one rounding to nearest even; 65520 and beyond overflow to Inf, or with
 * saturation clamp to +-65504. */
static void cvt_i32_f16(void)
{
    ptort_tile s = T(PTORT_I32, 1, 8, 0), d = T(PTORT_F16, 1, 16, 64);
    d.valid_cols = 8;
    int32_t x[8] = {2049, 2051, 65504, 65519, 65520, -70000, INT32_MIN, -3};
    memcpy(vec(a5), x, 32);
    uint16_t plain[8] = {0x6800, 0x6802, 0x7BFF, 0x7BFF, 0x7C00, 0xFC00, 0xFC00, 0xC200};
    uint16_t sat[8] = {0x6800, 0x6802, 0x7BFF, 0x7BFF, 0x7BFF, 0xFBFF, 0xFBFF, 0xC200};
    for (int path = 0; path < 3; path++) {
        set_path(path);
        CHECK(ptort_tcvt(a5, &s, &d, PTORT_RM_RINT, 0, NULL) == PTORT_OK);
        CHECK_BYTES(vec(a5) + 64, plain, 16);
        CHECK(ptort_tcvt(a5, &s, &d, PTORT_RM_RINT, 1, NULL) == PTORT_OK);
        CHECK_BYTES(vec(a5) + 64, sat, 16);
        CHECK(ptort_tcvt(a3, &s, &d, PTORT_RM_RINT, 0, NULL) == PTORT_OK);
    }
    set_path(0);
}

/* The rounding mode of the float destinations (docs/numerics.md, tcvt), worked by hand (the
 * same values as ref.py's self-test), per mode NONE RINT ROUND FLOOR CEIL TRUNC ODD, on every
 * kernel set. */
static void cvt_rmode_float(void)
{
    static const struct {
        ptort_dtype s, d;
        uint32_t x;
        uint32_t want[7];
    } cases[] = {
        /* 1.0014658 = 1 + 1.501 * 2^-10: between 0x3C01 and 0x3C02, above the midpoint */
        {PTORT_F32, PTORT_F16, 0x3F803008u, {0x3C02, 0x3C02, 0x3C02, 0x3C01, 0x3C02, 0x3C01, 0x3C01}},
        {PTORT_F32, PTORT_F16, 0xBF803008u, {0xBC02, 0xBC02, 0xBC02, 0xBC02, 0xBC01, 0xBC01, 0xBC01}},
        /* 1 + 2^-11: a tie; RINT to the even 0x3C00, ROUND away, ODD to the odd 0x3C01 */
        {PTORT_F32, PTORT_F16, 0x3F801000u, {0x3C00, 0x3C00, 0x3C01, 0x3C00, 0x3C01, 0x3C00, 0x3C01}},
        /* 70000 and -70000: beyond 65504; toward zero stops at 0x7BFF */
        {PTORT_F32, PTORT_F16, 0x4788B800u, {0x7C00, 0x7C00, 0x7C00, 0x7BFF, 0x7C00, 0x7BFF, 0x7BFF}},
        {PTORT_F32, PTORT_F16, 0xC788B800u, {0xFC00, 0xFC00, 0xFC00, 0xFC00, 0xFBFF, 0xFBFF, 0xFBFF}},
        /* 2^-26 and -2^-26, below half the smallest subnormal 2^-24 */
        {PTORT_F32, PTORT_F16, 0x32800000u, {0, 0, 0, 0, 1, 0, 1}},
        {PTORT_F32, PTORT_F16, 0xB2800000u, {0x8000, 0x8000, 0x8000, 0x8001, 0x8000, 0x8000, 0x8001}},
        /* Inf and NaN pass in every mode */
        {PTORT_F32, PTORT_F16, 0xFF800000u, {0xFC00, 0xFC00, 0xFC00, 0xFC00, 0xFC00, 0xFC00, 0xFC00}},
        {PTORT_F32, PTORT_F16, 0x7FC00000u, {0x7E00, 0x7E00, 0x7E00, 0x7E00, 0x7E00, 0x7E00, 0x7E00}},
        /* 1 + 2^-9 into bf16 (a quarter ulp above 0x3F80); ODD is nearest even here */
        {PTORT_F32, PTORT_BF16, 0x3F804000u, {0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F81, 0x3F80, 0x3F80}},
        /* f32 -> f32 rounds to an integral value: 2.5, -0.3 (-0 keeps its sign) */
        {PTORT_F32, PTORT_F32, 0x40200000u, {0x40000000, 0x40000000, 0x40400000, 0x40000000, 0x40400000, 0x40000000, 0x40000000}},
        {PTORT_F32, PTORT_F32, 0xBE99999Au, {0x80000000, 0x80000000, 0x80000000, 0xBF800000, 0x80000000, 0x80000000, 0x80000000}},
        /* i32 2^24 + 1 (a tie) and -(2^24 + 1) into f32 */
        {PTORT_I32, PTORT_F32, 16777217u, {0x4B800000, 0x4B800000, 0x4B800001, 0x4B800000, 0x4B800001, 0x4B800000, 0x4B800000}},
        {PTORT_I32, PTORT_F32, (uint32_t)-16777217, {0xCB800000, 0xCB800000, 0xCB800001, 0xCB800001, 0xCB800000, 0xCB800000, 0xCB800000}},
        /* i32 -> f16 is A2/A3's vconv_deq, without a mode: 2049 -> 2048 always */
        {PTORT_I32, PTORT_F16, 2049u, {0x6800, 0x6800, 0x6800, 0x6800, 0x6800, 0x6800, 0x6800}},
        /* i16 2049: a tie between 2048 (0x6800) and 2050 (0x6801) */
        {PTORT_I16, PTORT_F16, 2049u, {0x6800, 0x6800, 0x6801, 0x6800, 0x6801, 0x6800, 0x6800}},
        /* bf16 70144 (0x4789) beyond f16's range; bf16 2^-26 (0x3280) below it */
        {PTORT_BF16, PTORT_F16, 0x4789u, {0x7C00, 0x7C00, 0x7C00, 0x7BFF, 0x7C00, 0x7BFF, 0x7C00}},
        {PTORT_BF16, PTORT_F16, 0x3280u, {0, 0, 0, 0, 1, 0, 0}},
    };
    for (int path = 0; path < 3; path++) {
        set_path(path);
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            int ss = ptort_dtype_size(cases[c].s), ds = ptort_dtype_size(cases[c].d);
            ptort_tile s = T(cases[c].s, 1, 32 / ss, 0), d = T(cases[c].d, 1, 32 / ds, 64);
            s.valid_cols = d.valid_cols = 1;
            memcpy(vec(a5), &cases[c].x, (size_t)ss);
            for (int rm = 0; rm <= 6; rm++) {
                uint32_t got = 0;
                CHECK(ptort_tcvt(a5, &s, &d, (ptort_rmode)rm, 0, NULL) == PTORT_OK);
                memcpy(&got, vec(a5) + 64, (size_t)ds);
                if (got != cases[c].want[rm])
                    fprintf(stderr, "    cvt_rmode_float: case %zu rm %d path %d: 0x%x want 0x%x\n",
                            c, rm, path, got, cases[c].want[rm]);
                CHECK_EQ(got, cases[c].want[rm]);
            }
        }
    }
    set_path(0);
}

/* f32 -> i32 next to the ties, worked by hand: -0.49999997 (0xBEFFFFFF) is not a tie (its
 * binary32 difference from -1 would round to one). ODD has no integer form in pto-isa's
 * TCvt (A5 and A2/A3 fall back to their default, truncation), so its row is TRUNC's. */
static void cvt_near_ties(void)
{
    ptort_tile s = T(PTORT_F32, 1, 16, 0), d = T(PTORT_I32, 1, 16, 256);
    static const uint32_t x[16] = {
        0xBEFFFFFFu, 0x3EFFFFFFu, 0xBF000001u, 0x3F000001u, /* -+0.49999997, -+0.50000006 */
        0xBF7FFFFFu, 0x80000001u, 0xBFC00000u, 0x3FC00000u, /* -0.99999994, -2^-149, -+1.5 */
        0xCAFFFFFFu, 0x4AFFFFFFu, 0x4B000001u, 0xCB7FFFFFu, /* -+8388607.5, 8388609, -16777215 */
        0x3E800000u, 0x80000000u, 0xBFFFFFFFu, 0xCF000000u, /* 0.25, -0, -1.9999999, -2^31 */
    };
    memcpy(vec(a5), x, sizeof x);
    static const int32_t want[7][16] = {
        /* NONE  */ {0, 0, 0, 0, 0, 0, -1, 1, -8388607, 8388607, 8388609, -16777215, 0, 0, -1, INT32_MIN},
        /* RINT  */ {0, 0, -1, 1, -1, 0, -2, 2, -8388608, 8388608, 8388609, -16777215, 0, 0, -2, INT32_MIN},
        /* ROUND */ {0, 0, -1, 1, -1, 0, -2, 2, -8388608, 8388608, 8388609, -16777215, 0, 0, -2, INT32_MIN},
        /* FLOOR */ {-1, 0, -1, 0, -1, -1, -2, 1, -8388608, 8388607, 8388609, -16777215, 0, 0, -2, INT32_MIN},
        /* CEIL  */ {0, 1, 0, 1, 0, 0, -1, 2, -8388607, 8388608, 8388609, -16777215, 1, 0, -1, INT32_MIN},
        /* TRUNC */ {0, 0, 0, 0, 0, 0, -1, 1, -8388607, 8388607, 8388609, -16777215, 0, 0, -1, INT32_MIN},
        /* ODD   */ {0, 0, 0, 0, 0, 0, -1, 1, -8388607, 8388607, 8388609, -16777215, 0, 0, -1, INT32_MIN},
    };
    for (int path = 0; path < 3; path++) {
        set_path(path);
        for (int rm = 0; rm <= 6; rm++)
            for (int sat = 0; sat < 2; sat++) {
                memset(vec(a5) + 256, 0x5A, 64);
                CHECK(ptort_tcvt(a5, &s, &d, (ptort_rmode)rm, sat, NULL) == PTORT_OK);
                if (memcmp(vec(a5) + 256, want[rm], 64) != 0)
                    fprintf(stderr, "    cvt_near_ties: path %d rm %d sat %d\n", path, rm, sat);
                CHECK_BYTES(vec(a5) + 256, want[rm], 64);
            }
    }
    set_path(0);
}

static void cvt(void)
{
    ptort_tile s = T(PTORT_F32, 1, 16, 0), d = T(PTORT_I32, 1, 16, 256);
    s.valid_cols = d.valid_cols = 11;
    float x[16] = {2.5f, -2.5f, 3.5f, 0.5f, -0.5f, 1.7f, -1.7f, 2147483648.0f, NAN, INFINITY, -INFINITY};
    fill_f32(&s, x, 1, 16);
    /* worked by hand per rmode */
    static const int32_t want[7][8] = {
        /* NONE  */ {2, -2, 3, 0, 0, 1, -1, INT32_MIN},
        /* RINT  */ {2, -2, 4, 0, 0, 2, -2, INT32_MIN},
        /* ROUND */ {3, -3, 4, 1, -1, 2, -2, INT32_MIN},
        /* FLOOR */ {2, -3, 3, 0, -1, 1, -2, INT32_MIN},
        /* CEIL  */ {3, -2, 4, 1, 0, 2, -1, INT32_MIN},
        /* TRUNC */ {2, -2, 3, 0, 0, 1, -1, INT32_MIN},
        /* ODD   */ {2, -2, 3, 0, 0, 1, -1, INT32_MIN},      /* truncation (no odd form) */
    };
    for (int path = 0; path < 3; path++) {
        set_path(path);
        for (int rm = 0; rm <= 6; rm++) {
            CHECK(ptort_tcvt(a5, &s, &d, (ptort_rmode)rm, 0, NULL) == PTORT_OK);
            CHECK_BYTES(vec(a5) + 256, want[rm], 32);
            /* NaN and +-Inf: INT32_MIN without saturation */
            CHECK(rd32(256 + 32) == 0x80000000u && rd32(256 + 36) == 0x80000000u && rd32(256 + 40) == 0x80000000u);
        }
        /* saturation: 2^31 -> INT32_MAX, NaN -> INT32_MAX, +Inf -> INT32_MAX, -Inf -> INT32_MIN */
        CHECK(ptort_tcvt(a5, &s, &d, PTORT_RM_RINT, 1, NULL) == PTORT_OK);
        CHECK(rd32(256 + 28) == 0x7FFFFFFFu && rd32(256 + 32) == 0x7FFFFFFFu &&
              rd32(256 + 36) == 0x7FFFFFFFu && rd32(256 + 40) == 0x80000000u);
    }
    set_path(0);
    /* f16 -> i8: 200 -> int32 200 -> low byte 0xC8; -300 -> 0xD4; with saturation 127, -128 */
    ptort_tile h = T(PTORT_F16, 1, 16, 0), b = T(PTORT_I8, 1, 32, 256);
    h.valid_cols = b.valid_cols = 3;
    uint16_t hx[16] = {0x5A40, 0xDCB0, 0x3E00};          /* 200, -300, 1.5 */
    memcpy(vec(a5), hx, 32);
    CHECK(ptort_tcvt(a5, &h, &b, PTORT_RM_RINT, 0, NULL) == PTORT_OK);
    uint8_t w1[3] = {0xC8, 0xD4, 2};
    CHECK_BYTES(vec(a5) + 256, w1, 3);
    CHECK(ptort_tcvt(a5, &h, &b, PTORT_RM_RINT, 1, NULL) == PTORT_OK);
    uint8_t w2[3] = {0x7F, 0x80, 2};
    CHECK_BYTES(vec(a5) + 256, w2, 3);
    /* f32 -> f16: FLOOR of 65520 stops at 65504, NaN stays, 1 + 2^-11 -> 1, 1 + 1.5 * 2^-10
     * -> 1 + 2^-10; RINT: 65520 -> Inf, saturated 65504; NaN saturated -> 65504 */
    ptort_tile f = T(PTORT_F32, 1, 8, 0), g = T(PTORT_F16, 1, 16, 256);
    f.valid_cols = g.valid_cols = 4;
    float fx[8] = {65520.0f, NAN, 1.0f + 0x1p-11f, 1.0f + 0x1.8p-10f};
    fill_f32(&f, fx, 1, 8);
    CHECK(ptort_tcvt(a5, &f, &g, PTORT_RM_FLOOR, 0, NULL) == PTORT_OK);
    CHECK(rd16(256) == 0x7BFF && rd16(258) == 0x7E00 && rd16(260) == 0x3C00 && rd16(262) == 0x3C01);
    CHECK(ptort_tcvt(a5, &f, &g, PTORT_RM_RINT, 0, NULL) == PTORT_OK);
    CHECK(rd16(256) == 0x7C00 && rd16(258) == 0x7E00 && rd16(260) == 0x3C00 && rd16(262) == 0x3C02);
    CHECK(ptort_tcvt(a5, &f, &g, PTORT_RM_RINT, 1, NULL) == PTORT_OK);
    CHECK(rd16(256) == 0x7BFF && rd16(258) == 0x7BFF);
    /* i32 -> f32: 2^24 + 1 -> 2^24 (tie, even), 2^24 + 3 -> 2^24 + 4 */
    ptort_tile i = T(PTORT_I32, 1, 8, 0), o = T(PTORT_F32, 1, 8, 256);
    int32_t ix[8] = {16777217, 16777219, -7};
    memcpy(vec(a5), ix, 32);
    CHECK(ptort_tcvt(a5, &i, &o, PTORT_RM_RINT, 0, NULL) == PTORT_OK);
    CHECK(rd_f32(256) == 16777216.0f && rd_f32(260) == 16777220.0f && rd_f32(264) == -7.0f);
    /* i32 -> i16: 40000 wraps to -25536 (0x9C40), saturates to 32767 */
    ptort_tile s16 = T(PTORT_I16, 1, 16, 256);
    i.valid_cols = s16.valid_cols = 1;
    ix[0] = 40000;
    memcpy(vec(a5), ix, 32);
    CHECK(ptort_tcvt(a5, &i, &s16, PTORT_RM_NONE, 0, NULL) == PTORT_OK);
    CHECK_EQ(rd16(256), 0x9C40u);
    CHECK(ptort_tcvt(a5, &i, &s16, PTORT_RM_NONE, 1, NULL) == PTORT_OK);
    CHECK_EQ(rd16(256), 0x7FFFu);
    /* errors */
    ptort_tile i8 = T(PTORT_I8, 1, 32, 256);
    i8.valid_cols = 4;
    CHECK_STATUS(a5, ptort_tcvt(a5, &f, &i8, PTORT_RM_RINT, 0, NULL), PTORT_E_DTYPE, "f32 -> i8 is not supported");
    ptort_tile u = T(PTORT_U16, 1, 16, 256);
    u.valid_cols = 1;
    CHECK_STATUS(a3, ptort_tcvt(a3, &i, &u, PTORT_RM_RINT, 0, NULL), PTORT_E_ARCH, "needs arch a5");
    CHECK_STATUS(a5, ptort_tcvt(a5, &f, &g, (ptort_rmode)9, 0, NULL), PTORT_E_ARG, "rmode 9");
    CHECK_STATUS(a5, ptort_tcvt(a5, &f, &s16, PTORT_RM_RINT, 0, NULL), PTORT_E_SHAPE, "valid_shape");

    /* tci */
    ptort_tile t = T(PTORT_I32, 1, 8, 0), t16 = T(PTORT_I16, 1, 16, 64);
    t.valid_cols = 4;
    memset(vec(a5), 0x77, 32);
    CHECK(ptort_tci(a5, &t, 10, 0) == PTORT_OK);
    int32_t tw[8] = {10, 11, 12, 13};
    memset(tw + 4, 0x77, 16);
    CHECK_BYTES(vec(a5), tw, 32);
    CHECK(ptort_tci(a5, &t, 10, 1) == PTORT_OK);
    CHECK(rd32(12) == 7u);
    t16.valid_cols = 2;
    CHECK(ptort_tci(a5, &t16, 32767, 0) == PTORT_OK);
    CHECK(rd16(64) == 0x7FFF && rd16(66) == 0x8000);
    ptort_tile t2 = T(PTORT_I32, 2, 8, 0);
    CHECK_STATUS(a5, ptort_tci(a5, &t2, 0, 0), PTORT_E_SHAPE, "1 row");
    ptort_tile tf = T(PTORT_F32, 1, 8, 0);
    CHECK_STATUS(a5, ptort_tci(a5, &tf, 0, 0), PTORT_E_DTYPE, "f32");
}

/* Every f16 input through f16 -> f32, i8, u8, i16, i32 with every rmode and saturation
 * setting, on every kernel set, against ref_vec.h. */
static void cvt_f16_exhaustive(void)
{
    ptort_tile s = T(PTORT_F16, 256, 256, 0), d = T(PTORT_F32, 256, 256, 0);
    int64_t cap = 0;
    (void)ptort_mem(a5, PTORT_VEC, &cap);
    /* 128 KiB of f16 at 0; results at 128 KiB (i8/u8/i16 fit, f32/i32 are done in halves) */
    static const struct { ptort_dtype dt; double lo, hi; int bits; } outs[] = {
        {PTORT_I8, -128, 127, 8}, {PTORT_U8, 0, 255, 8}, {PTORT_I16, -32768, 32767, 16},
        {PTORT_I32, -65504, 65504, 32}, {PTORT_F32, 0, 0, 32}};
    for (int i = 0; i < 65536; i++) {
        uint16_t h = (uint16_t)i;
        memcpy(vec(a5) + 2 * i, &h, 2);
    }
    for (size_t o = 0; o < sizeof outs / sizeof outs[0]; o++) {
        int esz = ptort_dtype_size(outs[o].dt);
        int64_t rows = esz == 4 ? 128 : 256;          /* 4-byte results: two halves */
        for (int half = 0; half < (esz == 4 ? 2 : 1); half++) {
            ptort_tile hs = s;
            hs.rows = hs.valid_rows = rows;
            hs.addr = half * 65536;
            d = T(outs[o].dt, rows, 256, 131072);
            for (int path = 0; path < 3; path++) {
                set_path(path);
                int bad = 0;
                for (int rm = 0; rm <= 6; rm++)
                    for (int sat = 0; sat < 2; sat++) {
                        if (outs[o].dt == PTORT_F32 && rm > 0)
                            continue;                 /* rmode does not apply */
                        CHECK(ptort_tcvt(a5, &hs, &d, (ptort_rmode)rm, sat, NULL) == PTORT_OK);
                        for (int i = 0; i < rows * 256; i++) {
                            uint16_t x = (uint16_t)(half * 32768 + i);
                            double v = ref_f16_val(x);
                            uint32_t want, got = 0;
                            memcpy(&got, vec(a5) + 131072 + (int64_t)i * esz, (size_t)esz);
                            if (outs[o].dt == PTORT_F32) {
                                if (sat)
                                    v = isnan(v) || v > 65504 ? 65504 : v < -65504 ? -65504 : v;
                                want = isnan(v) ? (((uint32_t)(x & 0x8000) << 16) | 0x7FC00000u | ((uint32_t)(x & 0x3FF) << 13))
                                                : unit_f2u((float)v);
                            } else {
                                want = ref_f2i(v, rm, sat, outs[o].lo, outs[o].hi, outs[o].bits);
                            }
                            if (got != want && bad++ < 3)
                                fprintf(stderr, "    f16 -> %s rm %d sat %d path %d x=0x%04x: got 0x%x want 0x%x\n",
                                        ptort_dtype_name(outs[o].dt), rm, sat, path, x, got, want);
                        }
                    }
                CHECK(bad == 0);
            }
        }
    }
    set_path(0);
}

/* Rows of 320 bytes at X and Y agree on their first N bytes. */
static int same_valid_bytes(int64_t x, int64_t y, int rows, int64_t n)
{
    int ok = 1;
    for (int r = 0; r < rows; r++)
        ok &= memcmp(vec(a5) + x + 320 * r, vec(a5) + y + 320 * r, (size_t)n) == 0;
    return ok;
}

/* dst may be one of the sources (Level 2 code reuses buffers): the result is the same as
 * into a separate tile, on every kernel set. */
static void in_place(void)
{
    static const ptort_dtype dts[] = {PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I16};
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        ptort_dtype dt = dts[k];
        int64_t cols = 320 / ptort_dtype_size(dt);
        ptort_tile a = T(dt, 5, cols, 0), b = T(dt, 5, cols, 4096), d = T(dt, 5, cols, 8192);
        a.valid_cols = b.valid_cols = d.valid_cols = cols - 3;
        for (int path = 0; path < 3; path++) {
            set_path(path);
            for (int i = 0; i < 3200; i++) {
                uint16_t h = (uint16_t)(0x3C00 + (i * 37) % 1200);     /* finite for every dtype */
                memcpy(vec(a5) + 2 * i, &h, 2);
                h = (uint16_t)(0x3800 + (i * 11) % 900);
                memcpy(vec(a5) + 4096 + 2 * i, &h, 2);
            }
            CHECK(ptort_vbinary(a5, PTORT_VOP_MUL, &a, &b, &d) == PTORT_OK);
            CHECK(ptort_vbinary(a5, PTORT_VOP_MUL, &a, &b, &a) == PTORT_OK);
            CHECK(same_valid_bytes(0, 8192, 5, (cols - 3) * ptort_dtype_size(dt)));
            CHECK(ptort_vscalar(a5, PTORT_VOP_ADD, &b, 0x3C00u, &d) == PTORT_OK);
            CHECK(ptort_vscalar(a5, PTORT_VOP_ADD, &b, 0x3C00u, &b) == PTORT_OK);
            CHECK(same_valid_bytes(4096, 8192, 5, (cols - 3) * ptort_dtype_size(dt)));
        }
    }
    set_path(0);
}

static void errors(void)
{
    ptort_tile a = T(PTORT_F32, 2, 8, 0), b = T(PTORT_F32, 2, 8, 64), d = T(PTORT_F32, 2, 8, 128);
    ptort_tile h = T(PTORT_F16, 2, 16, 64);
    CHECK_STATUS(a5, ptort_vbinary(a5, PTORT_VOP_ADD, &a, &h, &d), PTORT_E_DTYPE, "same element type");
    ptort_tile sh = b;
    sh.valid_cols = 7;
    CHECK_STATUS(a5, ptort_vbinary(a5, PTORT_VOP_ADD, &a, &sh, &d), PTORT_E_SHAPE, "[2, 7] vs [2, 8]");
    ptort_tile cm = T(PTORT_F32, 8, 8, 256);
    cm.blayout = PTORT_BL_COL_MAJOR;
    cm.valid_rows = 2;
    CHECK_STATUS(a5, ptort_vbinary(a5, PTORT_VOP_ADD, &a, &cm, &d), PTORT_E_LAYOUT, "row-major");
    CHECK_STATUS(a5, ptort_vbinary(a5, PTORT_VOP_ABS, &a, &b, &d), PTORT_E_ARG, "not a binary op");
    CHECK_STATUS(a5, ptort_vbinary(a5, PTORT_VOP_ADD, &a, NULL, &d), PTORT_E_ARG, "missing");
    ptort_tile far = d;
    far.addr = 1 << 30;
    CHECK_STATUS(a5, ptort_vbinary(a5, PTORT_VOP_ADD, &a, &b, &far), PTORT_E_ADDR, "exceeds");
    ptort_tile mat = d;
    mat.loc = PTORT_MAT;
    CHECK_STATUS(a5, ptort_vunary(a5, PTORT_VOP_ABS, &a, &mat), PTORT_E_LAYOUT, "vec address space");
    ptort_tile u = T(PTORT_U16, 2, 16, 0);
    CHECK_STATUS(a5, ptort_vunary(a5, PTORT_VOP_ABS, &u, &u), PTORT_E_DTYPE, "ui16");
    CHECK(ptort_vbinary(NULL, PTORT_VOP_ADD, &a, &b, &d) == PTORT_E_ARG);
}

/* ---- the kernel sets agree ---------------------------------------------------------------- */

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* Random bytes for a 5 x 77 valid region of a 5 x 80 tile at 0 and 64 KiB, with some
 * special values mixed in for floats. */
static void random_tiles(ptort_dtype dt)
{
    uint8_t *m = vec(a5);
    for (int i = 0; i < 2 * 65536; i++)
        m[i] = (uint8_t)rnd();
    if (dt == PTORT_F32) {
        static const uint32_t sp[] = {0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                      0x3F800000u, 0x4F000000u, 0xCF000000u, 0x3F000000u};
        for (int i = 0; i < 400; i++) {
            uint32_t v = (rnd() & 3) ? sp[rnd() % 9] : ((rnd() & 0x83FFFFFFu) | 0x3C000000u);
            memcpy(m + 4 * i, &v, 4);
            v = (rnd() & 3) ? sp[rnd() % 9] : ((rnd() & 0x83FFFFFFu) | 0x3C000000u);
            memcpy(m + 65536 + 4 * i, &v, 4);
        }
    }
}

/* Runs CALL on every path and checks that the NBYTES at 128 KiB agree with the first path. */
#define SAME_ON_PATHS(call, nbytes)                                                           \
    do {                                                                                      \
        static uint8_t first_[65536];                                                         \
        int ok_ = 1;                                                                          \
        for (int p_ = 0; p_ < 3; p_++) {                                                      \
            set_path(p_);                                                                     \
            memset(vec(a5) + 131072, 0, (size_t)(nbytes));                                    \
            ok_ &= (call) == PTORT_OK;                                                        \
            if (p_ == 0)                                                                      \
                memcpy(first_, vec(a5) + 131072, (size_t)(nbytes));                           \
            else                                                                              \
                ok_ &= memcmp(first_, vec(a5) + 131072, (size_t)(nbytes)) == 0;               \
        }                                                                                     \
        set_path(0);                                                                          \
        if (!ok_)                                                                             \
            fprintf(stderr, "    paths differ: %s dtype %s (%d %d)\n", #call, ptort_dtype_name(dt), \
                    dbg_a, dbg_b);                                                            \
        CHECK(ok_);                                                                           \
    } while (0)

static int dbg_a, dbg_b;

static void paths_agree(void)
{
    static const ptort_dtype dts[] = {PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I32, PTORT_I16,
                                      PTORT_I8, PTORT_U8, PTORT_U16, PTORT_U32};
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        ptort_dtype dt = dts[k];
        int esz = ptort_dtype_size(dt);
        int64_t cols = 320 / esz;
        ptort_tile a = T(dt, 5, cols, 0), b = T(dt, 5, cols, 65536), d = T(dt, 5, cols, 131072);
        a.valid_cols = b.valid_cols = d.valid_cols = cols - 3;
        int64_t nb = 5 * 320;
        random_tiles(dt);
        for (int op = PTORT_VOP_ADD; op <= PTORT_VOP_MIN; op++) {
            if (ptort_vbinary(a5, (ptort_vop)op, &a, &b, &d) != PTORT_OK)
                continue;
            SAME_ON_PATHS(ptort_vbinary(a5, (ptort_vop)op, &a, &b, &d), nb);
            uint32_t sc = rnd();
            SAME_ON_PATHS(ptort_vscalar(a5, (ptort_vop)op, &a, sc, &d), nb);
            ptort_tile cv = b;
            cv.valid_rows = 1;
            if (ptort_vcolexpand(a5, (ptort_vop)op, &a, &cv, &d) == PTORT_OK)
                SAME_ON_PATHS(ptort_vcolexpand(a5, (ptort_vop)op, &a, &cv, &d), nb);
            ptort_tile rv = T(dt, 5, 32 / esz, 65536);
            if (ptort_vrowexpand(a5, (ptort_vop)op, &a, &rv, &d) == PTORT_OK) {
                SAME_ON_PATHS(ptort_vrowexpand(a5, (ptort_vop)op, &a, &rv, &d), nb);
                SAME_ON_PATHS(ptort_vrowexpand(a5, (ptort_vop)op, &rv, &a, &d), nb);
            }
            ptort_tile cm = T(dt, 8, 1, 65536);
            cm.blayout = PTORT_BL_COL_MAJOR;
            cm.valid_rows = 5;
            if (ptort_vrowexpand(a5, (ptort_vop)op, &cm, &a, &d) == PTORT_OK)
                SAME_ON_PATHS(ptort_vrowexpand(a5, (ptort_vop)op, &cm, &a, &d), nb);
        }
        for (int op = PTORT_VOP_ABS; op <= PTORT_VOP_EXP; op++) {
            if (ptort_vunary(a5, (ptort_vop)op, &a, &d) != PTORT_OK)
                continue;
            SAME_ON_PATHS(ptort_vunary(a5, (ptort_vop)op, &a, &d), nb);
        }
        static const ptort_vop red[] = {PTORT_VOP_SUM, PTORT_VOP_MAX, PTORT_VOP_MIN};
        static const ptort_dtype outs[] = {PTORT_F32, PTORT_F16, PTORT_BF16, PTORT_I32, PTORT_I16,
                                           PTORT_I8, PTORT_U8};
        /* 45 rows: groups of 16 rows with a partial last one; 80 rows: whole groups only (the
         * AVX-512 f16 / bf16 32-column blocks) */
        for (int bigrows = 45; bigrows <= 80; bigrows += 35) {
            ptort_tile big = T(dt, bigrows, cols, 0);
            big.valid_cols = cols - 3;
            for (int r = 0; r < 3; r++)
                for (size_t o = 0; o < sizeof outs / sizeof outs[0]; o++) {
                    dbg_a = r;
                    dbg_b = (int)outs[o];
                    ptort_tile rd = T(outs[o], 128, 1, 131072), cd = T(outs[o], 1, cols * 4 / ptort_dtype_size(outs[o]), 131072);
                    rd.blayout = PTORT_BL_COL_MAJOR;
                    rd.valid_rows = bigrows;
                    cd.valid_cols = big.valid_cols;
                    if (ptort_vrowreduce(a5, red[r], &big, NULL, &rd) == PTORT_OK)
                        SAME_ON_PATHS(ptort_vrowreduce(a5, red[r], &big, NULL, &rd), 512);
                    if (ptort_vcolreduce(a5, red[r], &big, NULL, &cd) == PTORT_OK)
                        SAME_ON_PATHS(ptort_vcolreduce(a5, red[r], &big, NULL, &cd), 1280);
                }
        }
        for (size_t o = 0; o < sizeof dts / sizeof dts[0]; o++) {
            ptort_tile cd = T(dts[o], 5, 320 / ptort_dtype_size(dts[o]), 131072);
            cd.valid_cols = a.valid_cols;
            if (ptort_tcvt(a5, &a, &cd, PTORT_RM_RINT, 0, NULL) != PTORT_OK)
                continue;
            for (int rm = 0; rm <= 6; rm++)
                for (int sat = 0; sat < 2; sat++)
                    SAME_ON_PATHS(ptort_tcvt(a5, &a, &cd, (ptort_rmode)rm, sat, NULL), 5 * 320);
        }
    }
}

int main(void)
{
    /* the exhaustive f16 sweeps use a 128 KiB source and a 128 KiB result, 256 KiB in all:
     * more than a5's 253952-byte vec, so the vec is sized as --mem-size vec=262144 would */
    int64_t sizes[PTORT_NUM_LOCS] = {262144, 0, 0, 0, 0, 0, 0};
    a5 = ptort_ctx_new(PTORT_A5, sizes);
    a3 = ptort_ctx_new(PTORT_A3, NULL);
    if (!a5 || !a3)
        return 1;
    binary_f32();
    binary_f16_bf16();
    integers();
    scalar_ops();
    valid_region();
    unary_f32();
    unary_exhaustive();
    binary16_patterns();
    expands_fill();
    rsqrt_f32_patterns();
    reductions();
    reduction_stores();
    broadcasts();
    cvt();
    cvt_near_ties();
    cvt_rmode_float();
    rsqrt_per_arch();
    rowsum_blocks();
    rowsum_a3();
    prelu16_patterns();
    rsqrt_tmp_a3();
    int_div();
    cvt_i32_f16();
    cvt_f16_exhaustive();
    in_place();
    errors();
    paths_agree();
    ptort_ctx_free(a5);
    ptort_ctx_free(a3);
    return unit_done();
}
