/* test_int8.c - tquant INT8_SYM / INT8_ASYM and tdequant (docs/numerics.md sections 2 and 3).
 * Expected values are worked out by hand in the comments.
 */
#include <math.h>

#include "ptort.h"
#include "unit.h"

static ptort_ctx *a5, *a3;

static uint8_t *vec(ptort_ctx *c)
{
    return ptort_mem(c, PTORT_VEC, NULL);
}

/* A column-vector parameter tile (col_major none_box, 8 rows of f32 = 32 bytes). */
static ptort_tile param(int64_t rows, int64_t valid, int64_t addr)
{
    ptort_tile t = ptort_tile_make(PTORT_VEC, PTORT_F32, rows, 1, addr);
    t.blayout = PTORT_BL_COL_MAJOR;
    t.valid_rows = valid;
    return t;
}

static void sym(void)
{
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 32, 0);
    ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_I8, 2, 32, 4096);
    ptort_tile sc = param(8, 2, 8192);
    float x[64] = {2.5f, -2.5f, 0.5f, -0.5f, 1.5f, 127.4f, 127.5f, 128.0f, -128.5f, -129.0f,
                   NAN, INFINITY, -INFINITY, 3.49f, -0.0f, 1e30f};
    x[32] = 1.0f;             /* row 1 scale 2.5 -> 2.5 -> 2 */
    x[33] = 1.4f;             /* 1.4f * 2.5f rounds to 3.5 (below) -> 4 */
    x[34] = -3.0f;            /* -7.5 -> -8 */
    float s[2] = {1.0f, 2.5f};
    ptort_tile_fill(a3, &src, x, 2, 32);
    ptort_tile_fill(a3, &sc, s, 2, 1);
    memset(vec(a3) + 4096, 0x55, 64);
    CHECK(ptort_tquant_int8(a3, PTORT_INT8_SYM, &src, &sc, NULL, &dst, NULL) == PTORT_OK);
    /* rint half-even: 2.5->2, -2.5->-2, 0.5->0, -0.5->0, 1.5->2, 127.4->127, 127.5->128->127,
     * 128->127, -128.5->-128, -129->-128, NaN->0, Inf->127, -Inf->-128, 3.49->3, -0->0,
     * 1e30->127, zeros -> 0 */
    int8_t want0[32] = {2, -2, 0, 0, 2, 127, 127, 127, -128, -128, 0, 127, -128, 3, 0, 127};
    CHECK_BYTES(vec(a3) + 4096, want0, 32);
    /* 1.4f = 1.39999997615814; * 2.5 = 3.49999994 -> fp32 multiply rounds to 3.5 exactly?
     * 1.4f*2.5 = 3.4999999403953552 needs 25 bits; nearest fp32 values are 3.4999997615814
     * and 3.5 (ulp 2^-22 = 2.38e-7): the distance to 3.5 is 5.96e-8 < 1.19e-7 -> 3.5 -> 4. */
    CHECK_EQ((uint8_t)vec(a3)[4096 + 32], 2);
    CHECK_EQ((uint8_t)vec(a3)[4096 + 33], 4);
    CHECK_EQ((uint8_t)vec(a3)[4096 + 34], (uint8_t)-8);

    /* [1, 1] scale: one value for all rows; valid region 1 x 16 of a 2 x 32 tile: nothing
     * else written; tmp accepted and never written. */
    ptort_tile src2 = src, dst2 = dst;
    src2.valid_rows = dst2.valid_rows = 1;
    src2.valid_cols = dst2.valid_cols = 16;
    ptort_tile one = param(8, 1, 8192 + 64);
    float s1 = 4.0f;
    ptort_tile_fill(a3, &one, &s1, 1, 1);
    ptort_tile tmp = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 32, 16384);
    memset(vec(a3) + 16384, 0x77, 256);
    memset(vec(a3) + 4096, 0x55, 64);
    CHECK(ptort_tquant_int8(a3, PTORT_INT8_SYM, &src2, &one, NULL, &dst2, &tmp) == PTORT_OK);
    /* 2.5*4 = 10, -10, 2, -2, 6, 509.6->127, ... */
    int8_t w1[16] = {10, -10, 2, -2, 6, 127, 127, 127, -128, -128, 0, 127, -128, 14, 0, 127};
    CHECK_BYTES(vec(a3) + 4096, w1, 16);
    int untouched = 1;
    for (int i = 16; i < 64; i++)
        untouched &= vec(a3)[4096 + i] == 0x55;
    for (int i = 0; i < 256; i++)
        untouched &= vec(a3)[16384 + i] == 0x77;
    CHECK(untouched);
}

static void asym(void)
{
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 32, 0);
    ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_U8, 1, 32, 4096);
    ptort_tile sc = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 8, 8192);
    ptort_tile off = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 8, 8224);
    sc.valid_cols = off.valid_cols = 1;
    float s = 0.5f, z = 128.0f;
    ptort_tile_fill(a5, &sc, &s, 1, 1);
    ptort_tile_fill(a5, &off, &z, 1, 1);
    /* x*0.5 + 128: 1 -> 128.5 -> 128; 3 -> 129.5 -> 130; -1 -> 127.5 -> 128; 300 -> 278 ->
     * 255; -300 -> -22 -> 0; NaN -> 0; -Inf -> 0; Inf -> 255; 0 -> 128; -257 -> -0.5 -> 0 */
    float x[32] = {1, 3, -1, 300, -300, NAN, -INFINITY, INFINITY, 0, -257};
    ptort_tile_fill(a5, &src, x, 1, 32);
    CHECK(ptort_tquant_int8(a5, PTORT_INT8_ASYM, &src, &sc, &off, &dst, NULL) == PTORT_OK);
    uint8_t want[10] = {128, 130, 128, 255, 0, 0, 0, 255, 128, 0};
    CHECK_BYTES(vec(a5) + 4096, want, 10);
    CHECK_EQ(vec(a5)[4096 + 10], 128);
    /* Two roundings: x = s = 1 + 2^-23, exact product 1 + 2^-22 + 2^-46 rounds to
     * 1 + 2^-22; + z (1.5 - 2^-22) = 2.5 exactly -> rint 2. A fused multiply-add would see
     * 2.5 + 2^-46 and give 3. */
    s = unit_u2f(0x3F800001);
    z = 1.5f - 0x1p-22f;
    ptort_tile_fill(a5, &sc, &s, 1, 1);
    ptort_tile_fill(a5, &off, &z, 1, 1);
    float w[32] = {unit_u2f(0x3F800001)};
    ptort_tile_fill(a5, &src, w, 1, 32);
    CHECK(ptort_tquant_int8(a5, PTORT_INT8_ASYM, &src, &sc, &off, &dst, NULL) == PTORT_OK);
    CHECK_EQ(vec(a5)[4096], 2);
    s = 1.0f;
    z = 0.0f;
    ptort_tile_fill(a5, &sc, &s, 1, 1);
    ptort_tile_fill(a5, &off, &z, 1, 1);
    float y[32] = {2.5f, 3.5f, 254.5f, 255.5f};
    ptort_tile_fill(a5, &src, y, 1, 32);
    CHECK(ptort_tquant_int8(a5, PTORT_INT8_ASYM, &src, &sc, &off, &dst, NULL) == PTORT_OK);
    uint8_t w2[4] = {2, 4, 254, 255};
    CHECK_BYTES(vec(a5) + 4096, w2, 4);
}

static void rejects(void)
{
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 32, 0);
    ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_I8, 1, 32, 4096);
    ptort_tile sc = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 8, 8192);
    sc.valid_cols = 1;
    CHECK_STATUS(a3, ptort_tquant_int8(a3, PTORT_INT8_SYM, &src, &sc, NULL, &dst, NULL),
                 PTORT_E_LAYOUT, "expects A2/A3 scale to use non-row-major layout");
    CHECK(ptort_tquant_int8(a5, PTORT_INT8_SYM, &src, &sc, NULL, &dst, NULL) == PTORT_OK);
    CHECK_STATUS(a5, ptort_tquant_int8(a5, PTORT_INT8_SYM, &src, &sc, &sc, &dst, NULL),
                 PTORT_E_ARG, "INT8_SYM quantization must not have an offset operand");
    CHECK_STATUS(a5, ptort_tquant_int8(a5, PTORT_INT8_ASYM, &src, &sc, NULL, &dst, NULL),
                 PTORT_E_ARG, "INT8_ASYM quantization requires an offset operand");
    CHECK_STATUS(a5, ptort_tquant_int8(a5, PTORT_INT8_ASYM, &src, &sc, &sc, &dst, NULL),
                 PTORT_E_DTYPE, "expects dst element type ui8 for INT8_ASYM");
    ptort_tile s16 = src;
    s16.dtype = PTORT_F16;
    CHECK_STATUS(a5, ptort_tquant_int8(a5, PTORT_INT8_SYM, &s16, &sc, NULL, &dst, NULL),
                 PTORT_E_DTYPE, "expects src to have element type f32, but got f16");
    ptort_tile d2 = dst;
    d2.valid_cols = 16;
    CHECK_STATUS(a5, ptort_tquant_int8(a5, PTORT_INT8_SYM, &src, &sc, NULL, &d2, NULL),
                 PTORT_E_SHAPE, "expects src and dst to have the same valid_shape");
    ptort_tile s2 = sc;
    s2.valid_cols = 2;
    CHECK_STATUS(a5, ptort_tquant_int8(a5, PTORT_INT8_SYM, &src, &s2, NULL, &dst, NULL),
                 PTORT_E_SHAPE, "expects scale valid_shape to be [R, 1] or [1, 1], but got [1, 2]");
    ptort_tile m = dst;
    m.loc = PTORT_MAT;
    CHECK_STATUS(a5, ptort_tquant_int8(a5, PTORT_INT8_SYM, &src, &sc, NULL, &m, NULL),
                 PTORT_E_LAYOUT, "expects dst to be in the vec address space");
    ptort_tile bad = dst;
    bad.addr = 253952;
    CHECK_STATUS(a5, ptort_tquant_int8(a5, PTORT_INT8_SYM, &src, &sc, NULL, &bad, NULL),
                 PTORT_E_ADDR, "exceeds vec capacity");
    ptort_tile tmp = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 32, 16384);
    ptort_tile sca3 = ptort_tile_make(PTORT_VEC, PTORT_F32, 8, 1, 8192);
    sca3.blayout = PTORT_BL_COL_MAJOR;
    sca3.valid_rows = 1;
    CHECK_STATUS(a3, ptort_tquant_int8(a3, PTORT_INT8_SYM, &src, &sca3, NULL, &dst, &tmp),
                 PTORT_E_SHAPE, "expects A2/A3 tmp to have the same shape as src");
}

static void dequant(void)
{
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_I8, 2, 32, 0);
    ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 32, 4096);
    ptort_tile sc = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 8, 8192);
    ptort_tile off = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 8, 8256);
    dst.valid_cols = src.valid_cols = 5;
    int8_t q[64] = {-128, 127, 0, 1, -1};
    q[32] = 10;
    q[33] = 7;
    ptort_tile_fill(a5, &src, q, 2, 32);
    /* column 0 holds the parameter; column 1 is a decoy the hardware ignores */
    float s[16] = {0.5f, 99, 0, 0, 0, 0, 0, 0, 3.0f, 99}, z[16] = {1.0f, 99, 0, 0, 0, 0, 0, 0, 0.1f, 99};
    ptort_tile_fill(a5, &sc, s, 2, 8);
    ptort_tile_fill(a5, &off, z, 2, 8);
    memset(vec(a5) + 4096, 0xEE, 256);
    CHECK(ptort_tdequant(a5, &src, &sc, &off, &dst) == PTORT_OK);
    float out[64];
    ptort_tile_read(a5, &dst, out, 2, 32);
    /* row 0: (q - 1) * 0.5: -64.5, 63, -0.5, 0, -1 */
    CHECK(out[0] == -64.5f && out[1] == 63.0f && out[2] == -0.5f && out[3] == 0.0f &&
          out[4] == -1.0f);
    CHECK(!signbit(out[3]));
    /* row 1: (10 - 0.1f) * 3: 10 - 0.1f = 9.8999999985 -> fp32 9.89999962 (0x411E6666);
     * * 3 = 29.6999989 -> fp32 0x41ED9999 (29.69999886); a fused (10-0.1)*3 in double gives
     * 29.7 -> 0x41ED999A, so this pins the two separate roundings. */
    CHECK_EQ(unit_f2u(out[32]), 0x41ED9999u);
    CHECK_EQ(unit_f2u(out[33]), unit_f2u((7.0f - 0.1f) * 3.0f));
    CHECK_EQ(unit_f2u(out[5]), 0xEEEEEEEEu);    /* outside the valid region */

    ptort_tile s16 = ptort_tile_make(PTORT_VEC, PTORT_I16, 2, 16, 0);
    ptort_tile d16 = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 16, 4096);
    int16_t h[32] = {-32768, 32767};
    ptort_tile_fill(a5, &s16, h, 2, 16);
    CHECK(ptort_tdequant(a5, &s16, &sc, &off, &d16) == PTORT_OK);
    ptort_tile_read(a5, &d16, out, 1, 2);
    CHECK(out[0] == -16384.5f && out[1] == 16383.0f);
    CHECK_STATUS(a5, ptort_tdequant(a5, &dst, &sc, &off, &d16), PTORT_E_DTYPE,
                 "expects src element type i8 or i16, but got f32");
    ptort_tile off2 = off;
    off2.rows = 1;
    off2.valid_rows = 1;
    CHECK_STATUS(a5, ptort_tdequant(a5, &s16, &sc, &off2, &d16), PTORT_E_SHAPE,
                 "expects scale and offset to have the same type");
    ptort_tile sc1 = sc, of1 = off;
    sc1.valid_rows = of1.valid_rows = 1;
    CHECK_STATUS(a5, ptort_tdequant(a5, &s16, &sc1, &of1, &d16), PTORT_E_SHAPE,
                 "expects scale valid_shape[0] to equal dst valid_shape[0], but got 1 vs 2");
}

/* Many rows of pseudo-random values (the vectorized loops) against a scalar reference built
 * from libm's rintf in the default round-to-nearest-even mode. */
static void random_rows(void)
{
    enum { R = 64, C = 128 };
    static float x[R * C];
    static int8_t q[R * C];
    static uint8_t u[R * C];
    float s[R], z[R];
    unsigned seed = 7;
    for (int i = 0; i < R * C; i++) {
        seed = seed * 1103515245u + 12345u;
        x[i] = ((float)(int)(seed >> 9) - 4194304.0f) / 16384.0f;   /* about +-256 */
        if (i % 61 == 0)
            x[i] = (float)(i % 7) - 3.5f;                           /* exact ties */
    }
    for (int r = 0; r < R; r++) {
        s[r] = 0.25f + (float)r / 32.0f;
        z[r] = (float)(r * 3) + 0.5f;
    }
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, R, C, 0);
    ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_I8, R, C, 65536);
    ptort_tile ud = dst;
    ud.dtype = PTORT_U8;
    ptort_tile sc = ptort_tile_make(PTORT_VEC, PTORT_F32, R, 1, 98304);
    sc.blayout = PTORT_BL_COL_MAJOR;
    ptort_tile of = sc;
    of.addr = 98304 + 4096;
    ptort_tile_fill(a5, &src, x, R, C);
    ptort_tile_fill(a5, &sc, s, R, 1);
    ptort_tile_fill(a5, &of, z, R, 1);
    CHECK(ptort_tquant_int8(a5, PTORT_INT8_SYM, &src, &sc, NULL, &dst, NULL) == PTORT_OK);
    ptort_tile_read(a5, &dst, q, R, C);
    CHECK(ptort_tquant_int8(a5, PTORT_INT8_ASYM, &src, &sc, &of, &ud, NULL) == PTORT_OK);
    ptort_tile_read(a5, &ud, u, R, C);
    int bad = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            float v = rintf(x[r * C + c] * s[r]);
            int want = v > 127 ? 127 : v < -128 ? -128 : (int)v;
            float p = x[r * C + c] * s[r];
            float w = rintf(p + z[r]);
            int wu = w > 255 ? 255 : w < 0 ? 0 : (int)w;
            bad += q[r * C + c] != want || u[r * C + c] != wu;
        }
    CHECK(bad == 0);
}

/* Every valid width 1..128 (vector body, 16-wide SSE2 chunk and scalar tail) on random bit
 * patterns mixed with NaN, Inf, huge, tiny and tie values, against the formulas of
 * docs/numerics.md 2 and 3. Run once more with PTORT_NO_AVX2=1 to cover the SSE2 kernels. */
static float ref_rint_clamp(float v, float lo, float hi)
{
    if (v != v)
        return 0.0f;
    v = rintf(v);
    return v < lo ? lo : v > hi ? hi : v;
}

static void edge_widths(void)
{
    enum { C = 128 };
    static const uint32_t special[] = {0x7FC00000u, 0xFFC00001u, 0x7F800001u, 0x7F800000u,
                                       0xFF800000u, 0x4F000000u, 0xCF000000u, 0x4EFFFFFFu,
                                       0xCF000001u, 0x80000000u, 0x00000001u, 0x43000000u,
                                       0x42FF0000u, 0x42FF0001u, 0xC3008000u, 0x437F8000u,
                                       0x3F000000u, 0xBF000000u, 0x3FC00000u, 0x4B400000u};
    static float x[C];
    static int8_t q[C], q8[C];
    static uint8_t u[C];
    static float y[C];
    unsigned seed = 99;
    int bad = 0, badu = 0, badd = 0;
    for (int w = 1; w <= C; w++) {
        for (int i = 0; i < C; i++) {
            seed = seed * 1103515245u + 12345u;
            uint32_t b = seed ^ (seed << 7);
            if (seed % 5 == 0)
                b = special[(seed >> 8) % (sizeof special / sizeof special[0])];
            else if (seed % 3 == 0)
                b = (b & 0x807FFFFFu) | ((uint32_t)(120 + (seed >> 20) % 16) << 23);
            memcpy(&x[i], &b, 4);
            q8[i] = (int8_t)(seed >> 13);
        }
        float s = (float)(w % 7) * 0.75f + (w % 2 ? 1.0f : 0.0f), z = (float)(w % 5) * 30.5f;
        ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, C, 0);
        ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_I8, 1, C, 65536);
        ptort_tile ud = dst;
        ud.dtype = PTORT_U8;
        src.valid_cols = dst.valid_cols = ud.valid_cols = w;
        ptort_tile sc = param(8, 1, 98304), of = param(8, 1, 98304 + 64);
        ptort_tile_fill(a5, &src, x, 1, C);
        ptort_tile_fill(a5, &sc, &s, 1, 1);
        ptort_tile_fill(a5, &of, &z, 1, 1);
        memset(vec(a5) + 65536, 0x5A, C);
        CHECK(ptort_tquant_int8(a5, PTORT_INT8_SYM, &src, &sc, NULL, &dst, NULL) == PTORT_OK);
        memcpy(q, vec(a5) + 65536, C);
        CHECK(ptort_tquant_int8(a5, PTORT_INT8_ASYM, &src, &sc, &of, &ud, NULL) == PTORT_OK);
        memcpy(u, vec(a5) + 65536, C);
        for (int i = 0; i < C; i++) {
            float p = x[i] * s;
            int ws = (int)ref_rint_clamp(p, -128.0f, 127.0f);
            int wu = (int)ref_rint_clamp(p + z, 0.0f, 255.0f);
            bad += i < w ? q[i] != ws : (uint8_t)q[i] != 0x5A;
            badu += i < w ? u[i] != wu : u[i] != 0x5A;
        }
        /* tdequant of i8 with the same width */
        ptort_tile qs = ptort_tile_make(PTORT_VEC, PTORT_I8, 1, C, 0);
        ptort_tile yd = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, C, 65536);
        ptort_tile ds = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 8, 98304);
        ptort_tile dz = ds;
        dz.addr = 98304 + 64;
        qs.valid_cols = yd.valid_cols = w;
        float zz = z - 0.3f;
        ptort_tile_fill(a5, &qs, q8, 1, C);
        ptort_tile_fill(a5, &ds, &s, 1, 1);
        ptort_tile_fill(a5, &dz, &zz, 1, 1);
        memset(vec(a5) + 65536, 0x5A, C * 4);
        CHECK(ptort_tdequant(a5, &qs, &ds, &dz, &yd) == PTORT_OK);
        memcpy(y, vec(a5) + 65536, C * 4);
        for (int i = 0; i < C; i++) {
            volatile float d = (float)q8[i] - zz;
            float want = d * s;
            uint32_t got, exp;
            memcpy(&got, &y[i], 4);
            memcpy(&exp, &want, 4);
            badd += i < w ? got != exp : got != 0x5A5A5A5Au;
        }
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(badu, 0);
    CHECK_EQ(badd, 0);
}

int main(void)
{
    a5 = ptort_ctx_new(PTORT_A5, NULL);
    a3 = ptort_ctx_new(PTORT_A3, NULL);
    if (!CHECK(a5 && a3))
        return unit_done();
    sym();
    asym();
    rejects();
    dequant();
    random_rows();
    edge_widths();
    ptort_ctx_free(a5);
    ptort_ctx_free(a3);
    return unit_done();
}
