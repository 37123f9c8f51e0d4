/* test_rdivs.c - tdivs with the scalar first (ptort_vrdivs: dst = scalar / src) against
 * worked vectors computed by hand in the comments: rounding, x / 0, NaN operands (the
 * dividend's NaN wins), f16/bf16 rounding once from f32, the valid region, the errors.
 */
#include "ptort.h"
#include "unit.h"

static ptort_ctx *ctx;

static uint8_t *vec(void)
{
    return ptort_mem(ctx, PTORT_VEC, NULL);
}

static uint32_t rd32(int64_t addr)
{
    uint32_t u;
    memcpy(&u, vec() + addr, 4);
    return u;
}

static uint16_t rd16(int64_t addr)
{
    uint16_t h;
    memcpy(&h, vec() + addr, 2);
    return h;
}

static void f32(void)
{
    ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 8, 0);
    ptort_tile d = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 8, 64);
    /* 3.0, 3e38 (0x7F61B1E6), 0.1 (0x3DCCCCCD), +0, -0, sNaN 0x7FA00000, qNaN 0x7FC00002, Inf */
    uint32_t x[8] = {0x40400000u, 0x7F61B1E6u, 0x3DCCCCCDu, 0, 0x80000000u, 0x7FA00000u, 0x7FC00002u,
                     0x7F800000u};
    memcpy(vec(), x, sizeof x);
    CHECK(ptort_vrdivs(ctx, 0x3F800000u, &a, &d) == PTORT_OK); /* 1.0 / x */
    CHECK_EQ(rd32(64), 0x3EAAAAABu);      /* 1/3 = 0x1.555554..p-2: round up to ...AB */
    CHECK_EQ(rd32(68), 0x00244BFAu);      /* 1/3e38 = 2378746.15 * 2^-149: subnormal 0x244BFA */
    CHECK_EQ(rd32(72), 0x41200000u);      /* 1/0.100000001 = 9.99999985, within half an ulp (2^-21) of 10 */
    CHECK_EQ(rd32(76), 0x7F800000u);      /* 1 / +0 = +Inf */
    CHECK_EQ(rd32(80), 0xFF800000u);      /* 1 / -0 = -Inf */
    CHECK_EQ(rd32(84), 0x7FE00000u);      /* the NaN element, quieted */
    CHECK_EQ(rd32(88), 0x7FC00002u);
    CHECK_EQ(rd32(92), 0x00000000u);      /* 1 / Inf = +0 */
    CHECK(ptort_vrdivs(ctx, 0x00000000u, &a, &d) == PTORT_OK); /* 0 / x */
    CHECK_EQ(rd32(76), 0xFFC00000u);      /* 0 / 0: x86's default NaN */
    CHECK_EQ(rd32(80), 0xFFC00000u);
    CHECK_EQ(rd32(92), 0x00000000u);      /* 0 / Inf = +0 */
    CHECK(ptort_vrdivs(ctx, 0xFFC00001u, &a, &d) == PTORT_OK); /* NaN / x: the dividend wins */
    for (int i = 0; i < 8; i++)
        CHECK_EQ(rd32(64 + 4 * i), 0xFFC00001u);
    CHECK(ptort_vrdivs(ctx, 0x7F800000u, &a, &d) == PTORT_OK); /* Inf / x */
    CHECK_EQ(rd32(64), 0x7F800000u);
    CHECK_EQ(rd32(80), 0xFF800000u);      /* Inf / -0 = -Inf */
    CHECK_EQ(rd32(92), 0xFFC00000u);      /* Inf / Inf: the default NaN */
    CHECK(ptort_vrdivs(ctx, 0xC0E00000u, &a, &d) == PTORT_OK); /* -7 / x */
    CHECK_EQ(rd32(72), 0xC28C0000u);      /* -7/0.100000001 = -69.999999: -70 (ulp 2^-17) */
}

static void f16_bf16(void)
{
    ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_F16, 1, 16, 0);
    ptort_tile d = ptort_tile_make(PTORT_VEC, PTORT_F16, 1, 16, 64);
    /* 3.0, 65504, 0.5, -0.0, sNaN 0x7D00 */
    uint16_t h[16] = {0x4200u, 0x7BFFu, 0x3800u, 0x8000u, 0x7D00u};
    memcpy(vec(), h, sizeof h);
    CHECK(ptort_vrdivs(ctx, 0x3C00u, &a, &d) == PTORT_OK); /* 1.0 / x */
    CHECK_EQ(rd16(64), 0x3555u);   /* 1/3 = 1.0101..b * 2^-2: mantissa 341.33 -> 0x155 */
    CHECK_EQ(rd16(66), 0x0100u);   /* 1/65504 = 256.125 * 2^-24: subnormal 256 */
    CHECK_EQ(rd16(68), 0x4000u);   /* 1/0.5 = 2 */
    CHECK_EQ(rd16(70), 0xFC00u);   /* 1 / -0 = -Inf */
    CHECK_EQ(rd16(72), 0x7F00u);   /* the NaN, quieted (payload kept) */
    CHECK(ptort_vrdivs(ctx, 0x7BFFu, &a, &d) == PTORT_OK); /* 65504 / x */
    CHECK_EQ(rd16(66), 0x3C00u);   /* 65504/65504 = 1 */
    CHECK_EQ(rd16(68), 0x7C00u);   /* 65504/0.5 = 131008: overflow to Inf */
    ptort_tile b = ptort_tile_make(PTORT_VEC, PTORT_BF16, 1, 16, 0);
    ptort_tile bd = ptort_tile_make(PTORT_VEC, PTORT_BF16, 1, 16, 64);
    /* 3.0, 2.0, 0x0080 (the least normal, 2^-126) */
    uint16_t bx[16] = {0x4040u, 0x4000u, 0x0080u};
    memcpy(vec(), bx, sizeof bx);
    CHECK(ptort_vrdivs(ctx, 0x3F80u, &b, &bd) == PTORT_OK); /* 1.0 / x */
    CHECK_EQ(rd16(64), 0x3EABu);   /* 1/3 = 0x3EAAAAAB in f32: low half 0xAAAB > 0x8000, up */
    CHECK_EQ(rd16(66), 0x3F00u);   /* 1/2 */
    CHECK_EQ(rd16(68), 0x7E80u);   /* 2^126 */
    CHECK(ptort_vrdivs(ctx, 0x8000u, &b, &bd) == PTORT_OK); /* -0 / x */
    CHECK_EQ(rd16(64), 0x8000u);
}

/* dst 2 x 16 with valid 2 x 3: the sentinel outside the valid region stays, the source's
 * padding (NaN) is not read into anything. */
static void valid_region(void)
{
    ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 16, 0);
    ptort_tile d = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 16, 256);
    a.valid_rows = d.valid_rows = 2;
    a.valid_cols = d.valid_cols = 3;
    memset(vec(), 0xFF, 128);
    float x[2][3] = {{1, 2, 4}, {-1, -2, 0.5f}};
    for (int r = 0; r < 2; r++)
        memcpy(vec() + 64 * r, x[r], 12);
    memset(vec() + 256, 0xEE, 128);
    CHECK(ptort_vrdivs(ctx, 0x40000000u, &a, &d) == PTORT_OK); /* 2 / x */
    uint8_t want[128];
    memset(want, 0xEE, 128);
    float y[2][3] = {{2, 1, 0.5f}, {-2, -1, 4}};
    for (int r = 0; r < 2; r++)
        memcpy(want + 64 * r, y[r], 12);
    CHECK_BYTES(vec() + 256, want, 128);
}

static void errors(void)
{
    ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 16, 0);
    ptort_tile d = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 16, 256);
    ptort_tile i = ptort_tile_make(PTORT_VEC, PTORT_I32, 2, 16, 512);
    ptort_tile h = ptort_tile_make(PTORT_VEC, PTORT_F16, 2, 16, 512);
    ptort_tile m = ptort_tile_make(PTORT_MAT, PTORT_F32, 2, 16, 0);
    CHECK_STATUS(ctx, ptort_vrdivs(ctx, 0, NULL, &d), PTORT_E_ARG, "tdivs: src operand is missing");
    ptort_tile u = ptort_tile_make(PTORT_VEC, PTORT_F8E4M3FN, 2, 32, 512);
    CHECK_STATUS(ctx, ptort_vrdivs(ctx, 0, &u, &u), PTORT_E_DTYPE, "tdivs: dst element type f8E4M3FN is not supported");
    /* integers divide (test_vec.c, test/run/vec-idiv.pto); a zero divisor is an error */
    memset(vec() + 512, 0, 128);
    CHECK_STATUS(ctx, ptort_vrdivs(ctx, 7, &i, &i), PTORT_E_UB, "tdivs: division by zero (src element [0, 0] is 0)");
    CHECK_STATUS(ctx, ptort_vrdivs(ctx, 0, &h, &d), PTORT_E_DTYPE,
                 "tdivs: expects src and dst to have the same element type, but got f16 vs f32");
    CHECK_STATUS(ctx, ptort_vrdivs(ctx, 0, &m, &d), PTORT_E_LAYOUT, "tdivs: expects src to be in the vec address space");
    a.valid_cols = 5;
    CHECK_STATUS(ctx, ptort_vrdivs(ctx, 0, &a, &d), PTORT_E_SHAPE,
                 "tdivs: expects src and dst to have the same valid_shape, but got [2, 5] vs [2, 16]");
    CHECK(ptort_vrdivs(NULL, 0, &a, &d) == PTORT_E_ARG);
}

int main(void)
{
    ctx = ptort_ctx_new(PTORT_A5, NULL);
    if (!ctx)
        return 1;
    f32();
    f16_bf16();
    valid_region();
    errors();
    ptort_ctx_free(ctx);
    return unit_done();
}
