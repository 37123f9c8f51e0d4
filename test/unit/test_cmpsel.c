/* test_cmpsel.c - tcmp, tcmps, tsel, tsels (ptort_vcmp ... ptort_vsels) against vectors worked
 * by hand in the comments (docs/vector-ops.md "Compare and select", docs/numerics.md 11): the
 * packed row mask, NaN and -0, the A2/A3 rules for 32-bit and (tcmps) 16-bit integers, the
 * bytes past the valid columns, selects through a mask, the errors.
 */
#include "ptort.h"
#include "unit.h"

static uint8_t *vec(ptort_ctx *ctx)
{
    return ptort_mem(ctx, PTORT_VEC, NULL);
}

/* f32 [1, NaN, -0, 2, 0, 0, 0, 0, 5] against [2, 1, 0, 2, 0, 0, 0, 0, 4] (9 valid columns):
 * byte 0 from columns 0-7, byte 1 from column 8, bytes 2 and 3 of dst's 4 valid bytes 0. */
static void f32_modes(ptort_ctx *ctx)
{
    ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 16, 0);
    ptort_tile b = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 16, 64);
    ptort_tile m = ptort_tile_make(PTORT_VEC, PTORT_I8, 1, 32, 128);
    a.valid_cols = b.valid_cols = 9;
    m.valid_cols = 4;
    uint32_t x[9] = {0x3F800000u, 0x7FC00000u, 0x80000000u, 0x40000000u, 0, 0, 0, 0, 0x40A00000u};
    uint32_t y[9] = {0x40000000u, 0x3F800000u, 0, 0x40000000u, 0, 0, 0, 0, 0x40800000u};
    memcpy(vec(ctx), x, sizeof x);
    memcpy(vec(ctx) + 64, y, sizeof y);
    memset(vec(ctx) + 128, 0xEE, 32);
    /* per mode: byte 0 (columns 0-7; 4-7 are 0 vs 0), byte 1 (5 vs 4) */
    static const struct { ptort_cmp_mode mode; uint8_t b0, b1; } want[] = {
        {PTORT_CMP_EQ, 0xFC, 0}, /* -0 == 0, 2 == 2, the zeros: bits 2, 3, 4-7 */
        {PTORT_CMP_NE, 0x03, 1}, /* 1 != 2, NaN != 1 */
        {PTORT_CMP_LT, 0x01, 0}, /* 1 < 2 only */
        {PTORT_CMP_LE, 0xFD, 0}, /* all but NaN */
        {PTORT_CMP_GT, 0x00, 1},
        {PTORT_CMP_GE, 0xFC, 1}, /* -0 >= 0, 2 >= 2, zeros */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        CHECK(ptort_vcmp(ctx, want[i].mode, &a, &b, &m) == PTORT_OK);
        uint8_t e[6] = {want[i].b0, want[i].b1, 0, 0, 0xEE, 0xEE}; /* past dst's valid bytes: untouched */
        CHECK_BYTES(vec(ctx) + 128, e, 6);
    }
    /* tcmps against 2.0: lt -> 1, -0, 0 ... (not NaN, not 2, not 5) */
    CHECK(ptort_vcmps(ctx, PTORT_CMP_LT, &a, 0x40000000u, &m) == PTORT_OK);
    CHECK_EQ(vec(ctx)[128], 0xF5);
    CHECK_EQ(vec(ctx)[129], 0);
}

/* A2/A3: i32 compares for equality whatever the mode (ne: its inverse); tcmps on i16 compares
 * the f16 values of the bits. A5 compares the integers. */
static void int_rules(void)
{
    for (int arch = 0; arch < 2; arch++) {
        ptort_ctx *ctx = ptort_ctx_new(arch ? PTORT_A5 : PTORT_A3, NULL);
        if (!CHECK(ctx))
            return;
        ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_I32, 1, 8, 0);
        ptort_tile m = ptort_tile_make(PTORT_VEC, PTORT_I8, 1, 32, 64);
        m.valid_cols = 1;
        int32_t x[8] = {5, 3, 7, -1, 3, 3, 3, 3};
        memcpy(vec(ctx), x, sizeof x);
        CHECK(ptort_vcmps(ctx, PTORT_CMP_GT, &a, 3, &m) == PTORT_OK);
        CHECK_EQ(vec(ctx)[64], arch ? 0x05 : 0xF2); /* a5: 5 > 3, 7 > 3; a3: == 3 at 1, 4-7 */
        CHECK(ptort_vcmps(ctx, PTORT_CMP_NE, &a, 3, &m) == PTORT_OK);
        CHECK_EQ(vec(ctx)[64], 0x0D);
        ptort_tile h = ptort_tile_make(PTORT_VEC, PTORT_I16, 1, 16, 0);
        h.valid_cols = 4;
        /* -1 (0xFFFF: an f16 NaN), -32768 (0x8000: -0), 1, 0x3C00 (1.0 as f16, 15360) vs 0 */
        uint16_t k[4] = {0xFFFFu, 0x8000u, 1, 0x3C00u};
        memcpy(vec(ctx), k, sizeof k);
        CHECK(ptort_vcmps(ctx, PTORT_CMP_LT, &h, 0, &m) == PTORT_OK);
        CHECK_EQ(vec(ctx)[64], arch ? 0x03 : 0x00); /* a3: NaN < 0 no, -0 < 0 no */
        CHECK(ptort_vcmps(ctx, PTORT_CMP_EQ, &h, 0, &m) == PTORT_OK);
        CHECK_EQ(vec(ctx)[64], arch ? 0x00 : 0x02); /* a3: -0 == 0 */
        ptort_ctx_free(ctx);
    }
}

/* tsel / tsels: mask row r at the mask's row r; mask 0x05 in row 0, 0xFE in row 1 */
static void selects(ptort_ctx *ctx)
{
    ptort_tile m = ptort_tile_make(PTORT_VEC, PTORT_I8, 2, 32, 0);
    ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_I16, 2, 16, 64);
    ptort_tile b = ptort_tile_make(PTORT_VEC, PTORT_I16, 2, 16, 128);
    ptort_tile d = ptort_tile_make(PTORT_VEC, PTORT_I16, 2, 16, 192);
    a.valid_cols = b.valid_cols = d.valid_cols = 8;
    memset(vec(ctx), 0, 256);
    vec(ctx)[0] = 0x05;
    vec(ctx)[32] = 0xFE;
    for (int i = 0; i < 32; i++) {
        uint16_t x = (uint16_t)(100 + i), y = (uint16_t)(200 + i);
        memcpy(vec(ctx) + 64 + 2 * i, &x, 2);
        memcpy(vec(ctx) + 128 + 2 * i, &y, 2);
    }
    CHECK(ptort_vsel(ctx, &m, &a, &b, &d) == PTORT_OK);
    uint16_t r0[8], r1[8];
    memcpy(r0, vec(ctx) + 192, 16);
    memcpy(r1, vec(ctx) + 224, 16);
    CHECK_EQ(r0[0], 100);
    CHECK_EQ(r0[1], 201);
    CHECK_EQ(r0[2], 102);
    CHECK_EQ(r0[7], 207);
    CHECK_EQ(r1[0], 216);
    CHECK_EQ(r1[1], 117);
    CHECK_EQ(r1[7], 123);
    CHECK(ptort_vsels(ctx, &m, &a, 0xFFFFu, &d) == PTORT_OK);
    memcpy(r0, vec(ctx) + 192, 16);
    CHECK_EQ(r0[0], 100);
    CHECK_EQ(r0[1], 0xFFFF);
    CHECK_EQ(r0[2], 102);
}

static void errors(ptort_ctx *ctx)
{
    ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 16, 0);
    ptort_tile m = ptort_tile_make(PTORT_VEC, PTORT_I8, 1, 32, 64);
    ptort_tile small = ptort_tile_make(PTORT_VEC, PTORT_I8, 1, 1, 96);
    ptort_tile bad = ptort_tile_make(PTORT_VEC, PTORT_F8E4M3FN, 1, 32, 128);
    CHECK_STATUS(ctx, ptort_vcmp(ctx, (ptort_cmp_mode)9, &a, &a, &m), PTORT_E_ARG, "tcmp: compare mode 9 is out of range");
    CHECK_STATUS(ctx, ptort_vcmp(ctx, PTORT_CMP_EQ, &bad, &bad, &m), PTORT_E_DTYPE,
                 "tcmp: element type f8E4M3FN is not supported");
    CHECK_STATUS(ctx, ptort_vsel(ctx, &small, &a, &a, &a), PTORT_E_SHAPE,
                 "tsel: expects a mask of at least 1 rows of 2 bytes, but got 1 rows of 1 bytes");
    CHECK(ptort_vcmps(NULL, PTORT_CMP_EQ, &a, 0, &m) == PTORT_E_ARG);
}

int main(void)
{
    ptort_ctx *ctx = ptort_ctx_new(PTORT_A5, NULL);
    if (!ctx)
        return 1;
    f32_modes(ctx);
    int_rules();
    selects(ctx);
    errors(ctx);
    ptort_ctx_free(ctx);
    return unit_done();
}
