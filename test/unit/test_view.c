/* test_view.c - tile views (ptort_tile_reshape, ptort_tile_subview, ptort_tile_set_valid):
 * descriptors over the bytes of another tile. Expected addresses and elements are worked out
 * by hand in the comments from the layout formulas of docs/numerics.md section 5.
 */
#include "ptort.h"
#include "unit.h"

static ptort_ctx *ctx;

static float *vecf(int64_t addr)
{
    return (float *)(void *)(ptort_mem(ctx, PTORT_VEC, NULL) + addr);
}

/* treshape: a 1x32 f32 tile seen as 16x2 (the MX sample's exponent storage pattern); element
 * (r, c) of the view is element (0, 2r + c) of the source, the same bytes. */
static void reshape(void)
{
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, 1, 32, 64), v;
    float x[32];
    for (int i = 0; i < 32; i++)
        x[i] = (float)i;
    CHECK(ptort_tile_fill(ctx, &src, x, 1, 32) == PTORT_OK);
    ptort_tile as = ptort_tile_make(PTORT_VEC, PTORT_F32, 16, 2, 0);
    CHECK(ptort_tile_reshape(ctx, &src, &as, &v) == PTORT_OK);
    CHECK_EQ(v.addr, 64);
    CHECK(v.rows == 16 && v.cols == 2 && v.valid_rows == 16 && v.valid_cols == 2);
    float got[32];
    CHECK(ptort_tile_read(ctx, &v, got, 16, 2) == PTORT_OK);
    CHECK_BYTES(got, x, sizeof got);
    /* a write through the view is seen through the source: (7, 1) is (0, 15) */
    vecf(64)[ptort_tile_offset(&v, 7, 1)] = -1.0f;
    CHECK(ptort_tile_read(ctx, &src, got, 1, 32) == PTORT_OK);
    CHECK(got[15] == -1.0f && got[14] == 14.0f);
    /* another dtype of the same byte size: 1x32 f32 = 128 bytes = 4x32 ui8 */
    as = ptort_tile_make(PTORT_VEC, PTORT_U8, 4, 32, 0);
    CHECK(ptort_tile_reshape(ctx, &src, &as, &v) == PTORT_OK);
    CHECK_EQ(v.dtype, PTORT_U8);

    as = ptort_tile_make(PTORT_VEC, PTORT_F32, 16, 4, 0);
    CHECK_STATUS(ctx, ptort_tile_reshape(ctx, &src, &as, &v), PTORT_E_SHAPE,
                 "treshape: expects src and dst to have the same total byte size, but got 128 and 256");
    as = ptort_tile_make(PTORT_MAT, PTORT_F32, 16, 2, 0);
    CHECK_STATUS(ctx, ptort_tile_reshape(ctx, &src, &as, &v), PTORT_E_LAYOUT,
                 "treshape: expects src and dst to use the same loc");
    as = ptort_tile_make(PTORT_VEC, PTORT_U8, 16, 8, 0);
    as.slayout = PTORT_SL_ROW_MAJOR;
    as.fractal = 32;
    CHECK_STATUS(ctx, ptort_tile_reshape(ctx, &src, &as, &v), PTORT_E_LAYOUT,
                 "cannot reshape between boxed and non-boxed tile layouts");
}

/* subview of a row-major 8x16 f32 tile at 0 (element (r, c) at 16r + c). */
static void subview(void)
{
    ptort_tile p = ptort_tile_make(PTORT_VEC, PTORT_F32, 8, 16, 0), v;
    for (int i = 0; i < 128; i++)
        vecf(0)[i] = (float)i;
    /* full rows 4..7: the window's own layout steps like p's, so it is a 4x16 tile at
     * 4*16*4 = 256 bytes */
    CHECK(ptort_tile_subview(ctx, &p, 4, 0, 4, 16, 4, 16, &v) == PTORT_OK);
    CHECK(v.addr == 256 && v.rows == 4 && v.cols == 16 && v.valid_rows == 4);
    /* a 4x8 window at (2, 8): it keeps p's 8x16 shape (row stride 16) at (2*16 + 8)*4 = 160,
     * valid 3x8; element (1, 2) is p's (3, 10) = 58 */
    CHECK(ptort_tile_subview(ctx, &p, 2, 8, 4, 8, 3, 8, &v) == PTORT_OK);
    CHECK(v.addr == 160 && v.rows == 8 && v.cols == 16 && v.valid_rows == 3 && v.valid_cols == 8);
    CHECK(vecf(v.addr)[ptort_tile_offset(&v, 1, 2)] == 58.0f);
    /* an op reads the window: tmov into a 3x8 tile gives rows 2..4, columns 8..15 */
    ptort_tile d = ptort_tile_make(PTORT_VEC, PTORT_F32, 3, 8, 4096);
    CHECK(ptort_tmov(ctx, &v, &d, NULL) == PTORT_OK);
    float got[24], want[24];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 8; c++)
            want[r * 8 + c] = (float)((r + 2) * 16 + 8 + c);
    CHECK(ptort_tile_read(ctx, &d, got, 3, 8) == PTORT_OK);
    CHECK_BYTES(got, want, sizeof got);

    /* col-major 16x8 f32: (r, c) at 16c + r; the 16x4 window from column 4 is a 16x4 tile at
     * 4*16*4 = 256 */
    ptort_tile cm = p;
    cm.rows = 16, cm.cols = 8, cm.valid_rows = 16, cm.valid_cols = 8;
    cm.blayout = PTORT_BL_COL_MAJOR;
    CHECK(ptort_tile_subview(ctx, &cm, 0, 4, 16, 4, 16, 4, &v) == PTORT_OK);
    CHECK(v.addr == 256 && v.rows == 16 && v.cols == 4);

    /* NZ f16 32x32 in mat (16x16 boxes, col-major box order): a boxed col-major subview
     * keeps all rows; columns 16..31 start at box column 1 = 1*32*16 elements = 1024 bytes */
    ptort_tile nz = ptort_tile_make(PTORT_MAT, PTORT_F16, 32, 32, 0);
    nz.blayout = PTORT_BL_COL_MAJOR;
    nz.slayout = PTORT_SL_ROW_MAJOR;
    CHECK(ptort_tile_subview(ctx, &nz, 0, 16, 32, 16, 32, 16, &v) == PTORT_OK);
    CHECK(v.addr == 1024 && v.rows == 32 && v.cols == 16);
    CHECK_STATUS(ctx, ptort_tile_subview(ctx, &nz, 16, 0, 16, 32, 16, 32, &v), PTORT_E_SHAPE,
                 "expects a boxed col-major subview to keep all 32 source rows from row 0");
    CHECK_STATUS(ctx, ptort_tile_subview(ctx, &nz, 0, 8, 32, 16, 32, 16, &v), PTORT_E_SHAPE,
                 "expects offsets and sizes to be multiples of the inner box 16x16");

    CHECK_STATUS(ctx, ptort_tile_subview(ctx, &p, 6, 0, 4, 16, 4, 16, &v), PTORT_E_SHAPE,
                 "subview: the window [6, 0] + [4, 16] leaves the source's 8x16 shape");
    CHECK_STATUS(ctx, ptort_tile_subview(ctx, &p, 0, 0, 4, 8, 5, 8, &v), PTORT_E_SHAPE,
                 "expects the valid shape [5, 8] within the sizes [4, 8]");
    CHECK_STATUS(ctx, ptort_tile_subview(ctx, &p, -1, 0, 4, 8, 4, 8, &v), PTORT_E_SHAPE,
                 "expects non-negative offsets, but got [-1, 0]");
    /* (0, 1) is 4 bytes in: not a vec address */
    CHECK_STATUS(ctx, ptort_tile_subview(ctx, &p, 0, 1, 4, 8, 4, 8, &v), PTORT_E_ADDR,
                 "subview: result: addr must be aligned to 32 bytes");
}

static void set_valid(void)
{
    ptort_tile t = ptort_tile_make(PTORT_VEC, PTORT_F16, 32, 32, 0);
    CHECK(ptort_tile_set_valid(ctx, &t, 5, 0) == PTORT_OK);
    CHECK(t.valid_rows == 5 && t.valid_cols == 0);
    CHECK_STATUS(ctx, ptort_tile_set_valid(ctx, &t, 33, 1), PTORT_E_SHAPE,
                 "set_validshape: expects row operand <= shape dim (32), but got 33");
    CHECK_STATUS(ctx, ptort_tile_set_valid(ctx, &t, 1, -2), PTORT_E_SHAPE,
                 "expects col operand to be non-negative, but got -2");
    CHECK(t.valid_rows == 5 && t.valid_cols == 0);
}

int main(void)
{
    ctx = ptort_ctx_new(PTORT_A5, NULL);
    if (!CHECK(ctx != NULL))
        return unit_done();
    reshape();
    subview();
    set_valid();
    ptort_ctx_free(ctx);
    return unit_done();
}
