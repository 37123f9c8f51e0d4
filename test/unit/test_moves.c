/* test_moves.c - the on-chip moves (docs/numerics.md 8.4): textract and tinsert windows between
 * fractal layouts, ttrans, the acc cast and the bias widening, tstore's atomic add; exact bytes
 * at hand-computed offsets.
 */
#include <math.h>

#include "ptort.h"
#include "unit.h"

static ptort_ctx *ctx;

static ptort_tile boxed(ptort_loc loc, ptort_dtype dt, int64_t r, int64_t c, ptort_blayout bl,
                        ptort_slayout sl, int fractal, int64_t addr)
{
    ptort_tile t = ptort_tile_make(loc, dt, r, c, addr);
    t.blayout = bl;
    t.slayout = sl;
    t.fractal = fractal;
    return t;
}

static uint16_t *mem16(ptort_loc loc, int64_t addr)
{
    int64_t n;
    return (uint16_t *)(void *)(ptort_mem(ctx, loc, &n) + addr);
}

/* A 32x64 NZ f16 mat tile holding r*64 + c; the 16x32 window at (16, 32) extracted into a ZZ
 * left tile (A2/A3's left layout) and an NZ one (A5's). */
static void extract_windows(void)
{
    ptort_tile m = boxed(PTORT_MAT, PTORT_F16, 32, 64, PTORT_BL_COL_MAJOR, PTORT_SL_ROW_MAJOR, 512, 0);
    uint16_t host[32 * 64];
    for (int i = 0; i < 32 * 64; i++)
        host[i] = (uint16_t)i;
    CHECK_EQ(ptort_tile_fill(ctx, &m, host, 32, 64), PTORT_OK);
    /* NZ: (17, 40) sits at sc*R*16 + sr*256 + ir*16 + ic = 2*512 + 256 + 16 + 8 */
    CHECK_EQ(mem16(PTORT_MAT, 0)[1304], 17 * 64 + 40);
    ptort_tile zz = boxed(PTORT_LEFT, PTORT_F16, 16, 32, PTORT_BL_ROW_MAJOR, PTORT_SL_ROW_MAJOR, 512, 0);
    CHECK_EQ(ptort_textract(ctx, &m, 16, 32, &zz), PTORT_OK);
    /* ZZ: dst (1, 20) = src (17, 52) at sr*C*16 + sc*256 + ir*16 + ic = 256 + 16 + 4 */
    CHECK_EQ(mem16(PTORT_LEFT, 0)[276], 17 * 64 + 52);
    ptort_tile nz = boxed(PTORT_LEFT, PTORT_F16, 16, 32, PTORT_BL_COL_MAJOR, PTORT_SL_ROW_MAJOR, 512, 1024);
    CHECK_EQ(ptort_textract(ctx, &m, 16, 32, &nz), PTORT_OK);
    /* NZ: dst (1, 20) at 1*16*16 + 1*16 + 4 = 276 as well (one row of boxes), dst (15, 3) at 243 */
    CHECK_EQ(mem16(PTORT_LEFT, 1024)[243], 31 * 64 + 35);
    CHECK_EQ(ptort_textract(ctx, &m, 17, 32, &nz), PTORT_E_SHAPE);
    CHECK_EQ(ptort_textract(ctx, &m, 0, -1, &nz), PTORT_E_SHAPE);
}

/* tinsert of a 3x5 valid region into a 16x16 row-major f16 vec tile at (2, 9); the rest stays. */
static void insert_window(void)
{
    ptort_tile d = ptort_tile_make(PTORT_VEC, PTORT_F16, 16, 16, 0);
    uint16_t z[256];
    for (int i = 0; i < 256; i++)
        z[i] = 0xAAAA;
    CHECK_EQ(ptort_tile_fill(ctx, &d, z, 16, 16), PTORT_OK);
    ptort_tile s = ptort_tile_make(PTORT_VEC, PTORT_F16, 8, 16, 1024);
    s.valid_rows = 3;
    s.valid_cols = 5;
    uint16_t h[128];
    for (int i = 0; i < 128; i++)
        h[i] = (uint16_t)(0x100 + i);
    CHECK_EQ(ptort_tile_fill(ctx, &s, h, 3, 5), PTORT_OK);
    CHECK_EQ(ptort_tinsert(ctx, &s, 2, 9, &d), PTORT_OK);
    CHECK_EQ(mem16(PTORT_VEC, 0)[2 * 16 + 9], 0x100);
    CHECK_EQ(mem16(PTORT_VEC, 0)[4 * 16 + 13], 0x100 + 2 * 5 + 4);
    CHECK_EQ(mem16(PTORT_VEC, 0)[4 * 16 + 14], 0xAAAA);
    CHECK_EQ(mem16(PTORT_VEC, 0)[5 * 16 + 9], 0xAAAA);
    CHECK_EQ(ptort_tinsert(ctx, &s, 14, 0, &d), PTORT_E_SHAPE);
}

/* ttrans of a 2x3 f32 region into a 4x4 tile, and a square one in place. */
static void transposes(void)
{
    ptort_tile s = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 8, 0);
    s.valid_cols = 3;
    uint32_t x[6] = {1, 2, 3, 4, 5, 6}, out[32];
    CHECK_EQ(ptort_tile_fill(ctx, &s, x, 2, 3), PTORT_OK);
    ptort_tile d = ptort_tile_make(PTORT_VEC, PTORT_F32, 8, 8, 1024);
    CHECK_EQ(ptort_ttrans(ctx, &s, &d), PTORT_OK);
    CHECK_EQ(ptort_tile_read(ctx, &d, out, 3, 2), PTORT_OK);
    static const uint32_t want[6] = {1, 4, 2, 5, 3, 6};
    CHECK_BYTES(out, want, sizeof want);
    ptort_tile q = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 8, 2048);
    q.valid_cols = 2;
    uint32_t y[4] = {1, 2, 3, 4}, t[4];
    CHECK_EQ(ptort_tile_fill(ctx, &q, y, 2, 2), PTORT_OK);
    CHECK_EQ(ptort_ttrans(ctx, &q, &q), PTORT_OK);
    CHECK_EQ(ptort_tile_read(ctx, &q, t, 2, 2), PTORT_OK);
    static const uint32_t wq[4] = {1, 3, 2, 4};
    CHECK_BYTES(t, wq, sizeof wq);
    ptort_tile small = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 8, 4096);
    CHECK_EQ(ptort_ttrans(ctx, &s, &small), PTORT_E_SHAPE);
}

/* The casts: acc f32 -> f16 / bf16 (RNE) and mat f16 -> bias f32 (exact). */
static void casts(void)
{
    ptort_tile a = boxed(PTORT_ACC, PTORT_F32, 1, 16, PTORT_BL_COL_MAJOR, PTORT_SL_ROW_MAJOR, 1024, 0);
    uint32_t v[4] = {0x3F800001u, 0x477FF000u /* 65520 */, 0x33800000u /* 2^-24 */, 0x80000000u};
    a.valid_cols = 4;
    CHECK_EQ(ptort_tile_fill(ctx, &a, v, 1, 4), PTORT_OK);
    ptort_tile h = ptort_tile_make(PTORT_VEC, PTORT_F16, 1, 16, 0), b = ptort_tile_make(PTORT_VEC, PTORT_BF16, 1, 16, 64);
    h.valid_cols = b.valid_cols = 4;
    CHECK_EQ(ptort_tmov(ctx, &a, &h, NULL), PTORT_OK);
    CHECK_EQ(ptort_tmov(ctx, &a, &b, NULL), PTORT_OK);
    uint16_t oh[4], ob[4];
    CHECK_EQ(ptort_tile_read(ctx, &h, oh, 1, 4), PTORT_OK);
    CHECK_EQ(ptort_tile_read(ctx, &b, ob, 1, 4), PTORT_OK);
    static const uint16_t wh[4] = {0x3C00, 0x7C00, 0x0001, 0x8000}, wb[4] = {0x3F80, 0x4780, 0x3380, 0x8000};
    CHECK_BYTES(oh, wh, sizeof wh);
    CHECK_BYTES(ob, wb, sizeof wb);
    ptort_tile m = ptort_tile_make(PTORT_MAT, PTORT_F16, 1, 16, 0), bias = ptort_tile_make(PTORT_BIAS, PTORT_F32, 1, 16, 0);
    m.valid_cols = bias.valid_cols = 3;
    uint16_t mh[3] = {0x0001, 0xFC00, 0x3555};
    CHECK_EQ(ptort_tile_fill(ctx, &m, mh, 1, 3), PTORT_OK);
    CHECK_EQ(ptort_tmov(ctx, &m, &bias, NULL), PTORT_OK);
    uint32_t ob32[3];
    CHECK_EQ(ptort_tile_read(ctx, &bias, ob32, 1, 3), PTORT_OK);
    static const uint32_t wb32[3] = {0x33800000u, 0xFF800000u, 0x3EAAA000u};
    CHECK_BYTES(ob32, wb32, sizeof wb32);
    ptort_tile v32 = ptort_tile_make(PTORT_VEC, PTORT_I32, 1, 16, 128);
    v32.valid_cols = 4;
    CHECK_EQ(ptort_tmov(ctx, &a, &v32, NULL), PTORT_E_DTYPE);
}

/* tstore's atomic add: f32 rounds once, inf + -inf is the quiet NaN, i32 wraps. */
static void atomic_stores(void)
{
    ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 8, 0);
    a.valid_cols = 3;
    uint32_t x[3] = {0x3F800000u /* 1 */, 0x7F800000u, 0x33800000u /* 2^-24 */};
    CHECK_EQ(ptort_tile_fill(ctx, &a, x, 1, 3), PTORT_OK);
    uint32_t g[3] = {0x3F800000u, 0xFF800000u, 0x3F800000u};
    ptort_view v = ptort_view_make(g, sizeof g, PTORT_F32, 1, 3, 3, 1);
    CHECK_EQ(ptort_tstore_ex(ctx, &a, &v, 1), PTORT_OK);
    static const uint32_t wg[3] = {0x40000000u, 0x7FC00000u, 0x3F800000u /* 1 + 2^-24 ties to 1 */};
    CHECK_BYTES(g, wg, sizeof wg);
    ptort_tile i = ptort_tile_make(PTORT_VEC, PTORT_I32, 1, 8, 64);
    i.valid_cols = 2;
    uint32_t xi[2] = {0x7FFFFFFFu, 5};
    CHECK_EQ(ptort_tile_fill(ctx, &i, xi, 1, 2), PTORT_OK);
    uint32_t gi[2] = {1, 0xFFFFFFFFu};
    ptort_view vi = ptort_view_make(gi, sizeof gi, PTORT_I32, 1, 2, 2, 1);
    CHECK_EQ(ptort_tstore_ex(ctx, &i, &vi, 1), PTORT_OK);
    static const uint32_t wi[2] = {0x80000000u, 4};
    CHECK_BYTES(gi, wi, sizeof wi);
    ptort_tile h = ptort_tile_make(PTORT_VEC, PTORT_F16, 1, 16, 128);
    uint16_t gh[16];
    ptort_view vh = ptort_view_make(gh, sizeof gh, PTORT_F16, 1, 16, 16, 1);
    CHECK_EQ(ptort_tstore_ex(ctx, &h, &vh, 1), PTORT_E_DTYPE);
}

/* The fixpipe's relu and scalar pre-quantization (docs/numerics.md 8.6), worked by hand. */
static void fixpipe_quant(void)
{
    ptort_tile a = boxed(PTORT_ACC, PTORT_F32, 1, 16, PTORT_BL_COL_MAJOR, PTORT_SL_ROW_MAJOR, 1024, 0);
    a.valid_cols = 8;
    /* 2, 3, -200, 1000, NaN, -1, 100, -0 */
    uint32_t v[8] = {0x40000000u, 0x40400000u, 0xC3480000u, 0x447A0000u, 0x7FC00000u, 0xBF800000u, 0x42C80000u,
                     0x80000000u};
    CHECK_EQ(ptort_tile_fill(ctx, &a, v, 1, 8), PTORT_OK);
    ptort_tile q = ptort_tile_make(PTORT_VEC, PTORT_I8, 1, 32, 0);
    q.valid_cols = 8;
    int64_t w = (1LL << 46) | (5LL << 37) | 0x3F400000LL; /* 0.75, offset 5, signed */
    uint8_t o[8];
    CHECK_EQ(ptort_tmove_fix(ctx, PTORT_MOVE_TMOV, &a, 0, 0, &q, 0, 1, w), PTORT_OK);
    CHECK_EQ(ptort_tile_read(ctx, &q, o, 1, 8), PTORT_OK);
    /* 6.5 -> 6, 7.25 -> 7, -145 -> -128, 755 -> 127, NaN -> 0, 4.25 -> 4, 80, 5 */
    static const uint8_t wq[8] = {6, 7, 0x80, 127, 0, 4, 80, 5};
    CHECK_BYTES(o, wq, sizeof wq);
    CHECK_EQ(ptort_tmove_fix(ctx, PTORT_MOVE_TMOV, &a, 0, 0, &q, 1, 1, w), PTORT_OK);
    CHECK_EQ(ptort_tile_read(ctx, &q, o, 1, 8), PTORT_OK);
    CHECK_EQ(o[2], 0); /* relu after the clamp */
    /* unsigned range into an i8 tile: 100 * 2.5 + 3 = 253 stored as its low byte */
    w = (3LL << 37) | 0x40200000LL;
    CHECK_EQ(ptort_tmove_fix(ctx, PTORT_MOVE_TMOV, &a, 0, 0, &q, 0, 1, w), PTORT_OK);
    CHECK_EQ(ptort_tile_read(ctx, &q, o, 1, 8), PTORT_OK);
    CHECK_EQ(o[6], 0xFD);
    CHECK_EQ(o[2], 0); /* -497 clamps to 0 */
    /* f32 -> f16 by 0.1: 1000 * 0.1 = 100.00000149 -> 0x5640; -0 * 0.1 = -0; 1e6 would clamp */
    ptort_tile h = ptort_tile_make(PTORT_VEC, PTORT_F16, 1, 16, 64);
    h.valid_cols = 8;
    uint16_t oh[8];
    CHECK_EQ(ptort_tmove_fix(ctx, PTORT_MOVE_TMOV, &a, 0, 0, &h, 0, 1, 0x3DCCCCCDLL), PTORT_OK);
    CHECK_EQ(ptort_tile_read(ctx, &h, oh, 1, 8), PTORT_OK);
    CHECK_EQ(oh[3], 0x5640);
    CHECK_EQ(oh[4], 0x7E00);
    CHECK_EQ(oh[7], 0x8000);
    /* relu alone, f32 -> f32: -1 and -0 become +0, NaN +0 */
    ptort_tile r = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 16, 128);
    r.valid_cols = 8;
    uint32_t orr[8];
    CHECK_EQ(ptort_tmove_fix(ctx, PTORT_MOVE_TMOV, &a, 0, 0, &r, 1, 0, 0), PTORT_OK);
    CHECK_EQ(ptort_tile_read(ctx, &r, orr, 1, 8), PTORT_OK);
    static const uint32_t wr[8] = {0x40000000u, 0x40400000u, 0, 0x447A0000u, 0, 0, 0x42C80000u, 0};
    CHECK_BYTES(orr, wr, sizeof wr);
    /* i32 -> f16 (DEQF16) by 0.1: INT32_MAX clamps to 65504, -5 -> -0.5 */
    ptort_tile j = boxed(PTORT_ACC, PTORT_I32, 1, 16, PTORT_BL_COL_MAJOR, PTORT_SL_ROW_MAJOR, 1024, 4096);
    j.valid_cols = 2;
    int32_t iv[2] = {2147483647, -5};
    CHECK_EQ(ptort_tile_fill(ctx, &j, iv, 1, 2), PTORT_OK);
    h.valid_cols = 2;
    CHECK_EQ(ptort_tmove_fix(ctx, PTORT_MOVE_TMOV, &j, 0, 0, &h, 0, 1, 0x3DCCCCCDLL), PTORT_OK);
    CHECK_EQ(ptort_tile_read(ctx, &h, oh, 1, 2), PTORT_OK);
    CHECK_EQ(oh[0], 0x7BFF);
    CHECK_EQ(oh[1], 0xB800);
    /* the pairs without numerics, a non-acc src */
    CHECK_EQ(ptort_tmove_fix(ctx, PTORT_MOVE_TMOV, &j, 0, 0, &r, 0, 1, 1), PTORT_E_DTYPE);
    CHECK_EQ(ptort_tmove_fix(ctx, PTORT_MOVE_TMOV, &h, 0, 0, &h, 1, 0, 0), PTORT_E_LAYOUT);
}

int main(void)
{
    ctx = ptort_ctx_new(PTORT_A5, NULL);
    if (!CHECK(ctx != NULL))
        return unit_done();
    extract_windows();
    insert_window();
    transposes();
    casts();
    atomic_stores();
    fixpipe_quant();
    ptort_ctx_free(ctx);
    return unit_done();
}
