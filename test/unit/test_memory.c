/* test_memory.c - contexts and memory spaces (docs/memory.md section 1), descriptor and address
 * checks (docs/verify.md section 1, docs/memory.md section 5), shared bytes between overlapping tiles,
 * and independent contexts on two threads.
 */
#include <pthread.h>
#include <stdlib.h>

#include "ptort.h"
#include "unit.h"

static void capacities(void)
{
    static const int64_t a3[] = {196608, 524288, 65536, 65536, 131072, 65536, 196608};
    static const int64_t a5[] = {253952, 524288, 65536, 65536, 262144, 65536, 253952};
    static const int64_t al[] = {32, 32, 512, 512, 512, 32, 32};
    ptort_ctx *c3 = ptort_ctx_new(PTORT_A3, NULL), *c5 = ptort_ctx_new(PTORT_A5, NULL);
    int64_t sizes[PTORT_NUM_LOCS] = {0, 0, 0, 0, 0, 8192, 0};
    ptort_ctx *co = ptort_ctx_new(PTORT_A2, sizes);
    CHECK(c3 && c5 && co);
    for (int l = 0; l < PTORT_NUM_LOCS; l++) {
        int64_t n3, n5;
        uint8_t *m = ptort_mem(c3, (ptort_loc)l, &n3);
        ptort_mem(c5, (ptort_loc)l, &n5);
        CHECK_EQ(n3, a3[l]);
        CHECK_EQ(n5, a5[l]);
        CHECK_EQ(ptort_loc_alignment((ptort_loc)l), al[l]);
        int zero = 1;
        for (int64_t i = 0; i < n3; i++)
            zero &= m[i] == 0;
        CHECK(zero);
    }
    int64_t nb;
    ptort_mem(co, PTORT_BIAS, &nb);
    CHECK_EQ(nb, 8192);
    CHECK(ptort_mem(c3, PTORT_NUM_LOCS, NULL) == NULL);
    CHECK(ptort_ctx_new((ptort_arch)7, NULL) == NULL);
    CHECK(strcmp(ptort_error(c3), "") == 0);
    ptort_ctx_free(c3);
    ptort_ctx_free(c5);
    ptort_ctx_free(co);
}

static void descriptors(void)
{
    ptort_ctx *c = ptort_ctx_new(PTORT_A3, NULL);
    ptort_tile t = ptort_tile_make(PTORT_VEC, PTORT_F32, 4, 8, 0), b;
    CHECK(ptort_tile_check(c, &t) == PTORT_OK);
    CHECK_EQ(ptort_tile_bytes(&t), 128);
    b = t;
    b.addr = 16;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_ADDR,
                 "addr must be aligned to 32 bytes for local tile memory space, got 16");
    b.addr = -32;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_ADDR, "addr must be non-negative, got -32");
    b.addr = 196608 - 96;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_ADDR,
                 "tile at address 196512 with size 128 exceeds vec capacity 196608");
    b.addr = 196608 - 128;
    CHECK(ptort_tile_check(c, &b) == PTORT_OK);
    b = t;
    b.loc = PTORT_LEFT;
    b.addr = 256;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_ADDR, "aligned to 512 bytes");
    b = t;
    b.rows = 0;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DESC, "tile_buf rows/cols must be positive");
    b = t;
    b.valid_cols = 9;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DESC, "tile_buf valid_col (9) exceeds col (8)");
    b = t;
    b.valid_rows = -1;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DESC, "valid_row (-1) is negative");
    /* rows (columns) of any byte size execute: PTOAS accepts them, the verifier only warns.
     * A 4x4 f32 tile at 0 occupies 64 bytes, element (r, c) at r*4 + c; col-major (r, c)
     * at c*4 + r. */
    b = t;
    b.cols = b.valid_cols = 4;
    CHECK(ptort_tile_check(c, &b) == PTORT_OK);
    CHECK_EQ(ptort_tile_bytes(&b), 64);
    CHECK_EQ(ptort_tile_offset(&b, 2, 3), 11);
    b = t;
    b.blayout = PTORT_BL_COL_MAJOR;
    CHECK(ptort_tile_check(c, &b) == PTORT_OK);
    CHECK_EQ(ptort_tile_offset(&b, 2, 3), 14);
    b = t;
    b.fractal = 64;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DESC, "unsupported s_fractal_size: 64, must be one of {32, 512, 1024}");
    b = ptort_tile_make(PTORT_MAT, PTORT_F16, 24, 32, 0);
    b.blayout = PTORT_BL_COL_MAJOR;
    b.slayout = PTORT_SL_ROW_MAJOR;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DESC,
                 "expects boxed tile rows to be a multiple of innerRows (16), but got 24");
    b.loc = PTORT_VEC;                 /* vec tiles may have partial boxes */
    CHECK(ptort_tile_check(c, &b) == PTORT_OK);
    CHECK_EQ(ptort_tile_bytes(&b), 32 * 32 * 2);
    b.cols = b.valid_cols = 24;        /* and partial column boxes (PTOAS's [16, 2] ZZ views) */
    CHECK(ptort_tile_check(c, &b) == PTORT_OK);
    CHECK_EQ(ptort_tile_bytes(&b), 32 * 32 * 2);
    b.loc = PTORT_MAT;
    b.rows = b.valid_rows = 32;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DESC,
                 "expects boxed tile cols to be a multiple of innerCols (16), but got 24");
    b.loc = PTORT_VEC;
    b.rows = b.valid_rows = 24;
    b.cols = b.valid_cols = 32;
    b.compact = PTORT_COMPACT_ROW_PLUS_ONE;
    CHECK(ptort_tile_check(c, &b) == PTORT_OK);  /* NZ+1: (1 * 33 + 32) * 16 * 2 bytes */
    CHECK_EQ(ptort_tile_bytes(&b), 2080);
    b.compact = PTORT_COMPACT_NORMAL;
    CHECK(ptort_tile_check(c, &b) == PTORT_OK);
    b.blayout = PTORT_BL_ROW_MAJOR;               /* ZZ: compact, but no row_plus_one */
    CHECK(ptort_tile_check(c, &b) == PTORT_OK);
    b.compact = PTORT_COMPACT_ROW_PLUS_ONE;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DESC,
                 "compact=row_plus_one has no pto-isa element layout for a row_major/row_major tile");
    b.blayout = PTORT_BL_COL_MAJOR;               /* NN: neither */
    b.slayout = PTORT_SL_COL_MAJOR;
    b.compact = PTORT_COMPACT_NORMAL;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DESC,
                 "compact=normal has no pto-isa element layout for a col_major/col_major tile");
    b = t;
    b.dtype = (ptort_dtype)99;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DESC, "unknown dtype");
    b.dtype = PTORT_I64; /* 64-bit integers are host data: views and scalar accesses only */
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DTYPE, "no tile op computes i64");
    b.dtype = PTORT_U64;
    CHECK_STATUS(c, ptort_tile_check(c, &b), PTORT_E_DTYPE, "no tile op computes ui64");
    CHECK_EQ(ptort_dtype_size(PTORT_I64), 8);
    CHECK(strcmp(ptort_dtype_npy_descr(PTORT_U64), "<u8") == 0);
    CHECK_STATUS(c, ptort_tile_check(c, NULL), PTORT_E_ARG, "missing tile descriptor");
    CHECK(ptort_tile_bytes(NULL) == -1);
    ptort_tile p = ptort_tile_make(PTORT_VEC, PTORT_F4E2M1X2, 2, 32, 0);
    CHECK_EQ(ptort_tile_bytes(&p), 64);
    ptort_ctx_free(c);
}

/* Two tiles at overlapping addresses see the same bytes. */
/* Footprints and box rules of every element size, layout and fractal at shapes on both
 * sides of the box sides, against the rules written out here with divisions (the runtime
 * uses shifts and masks): the inner box (docs/verify.md section 1), a boxed tile of one row
 * stored flat, rows and cols rounded up to the box; on LEFT (not VEC) the rows and cols must
 * be box multiples (rows of one row or a fractal of 32 excepted); the address aligned to
 * 512 bytes on LEFT, 32 on VEC. */
static void box_footprints(void)
{
    static const int64_t shapes[] = {1, 2, 3, 8, 15, 16, 17, 31, 32, 33, 64};
    static const int fractals[] = {32, 512, 1024};
    ptort_ctx *c = ptort_ctx_new(PTORT_A5, NULL);
    int bad = 0, runs = 0;
    for (int dt = 0; dt < PTORT_NUM_TILE_DTYPES; dt++)
        for (int bl = 0; bl < 2; bl++)
            for (int sl = 0; sl < 3; sl++)
                for (int f = 0; f < 3; f++)
                    for (unsigned ri = 0; ri < sizeof shapes / sizeof shapes[0]; ri++)
                        for (unsigned ci = 0; ci < sizeof shapes / sizeof shapes[0]; ci++) {
                            int64_t r = shapes[ri], cc = shapes[ci], sz = ptort_dtype_size((ptort_dtype)dt);
                            int64_t ir = 1, ic = 1;
                            if (sl != PTORT_SL_NONE_BOX) {
                                int row = sl == PTORT_SL_ROW_MAJOR;
                                if (fractals[f] == 1024)
                                    ir = ic = 16;
                                else if (fractals[f] == 32)
                                    ir = row ? 16 : 2, ic = row ? 2 : 16;
                                else
                                    ir = row ? 16 : 32 / sz, ic = row ? 32 / sz : 16;
                            }
                            int64_t pr = sl != PTORT_SL_NONE_BOX && r == 1 ? 1 : (r + ir - 1) / ir * ir;
                            int64_t want = pr * ((cc + ic - 1) / ic * ic) * sz;
                            ptort_tile t = ptort_tile_make(PTORT_LEFT, (ptort_dtype)dt, r, cc, 512);
                            t.blayout = (ptort_blayout)bl;
                            t.slayout = (ptort_slayout)sl;
                            t.fractal = fractals[f];
                            int boxok = sl == PTORT_SL_NONE_BOX ||
                                        ((r % ir == 0 || r == 1 || fractals[f] == 32) && cc % ic == 0);
                            bad += ptort_tile_bytes(&t) != want;
                            bad += ptort_tile_check(c, &t) != (boxok ? PTORT_OK : PTORT_E_DESC);
                            t.addr = 512 + 256;
                            bad += ptort_tile_check(c, &t) != (boxok ? PTORT_E_ADDR : PTORT_E_DESC);
                            t.loc = PTORT_VEC;
                            bad += ptort_tile_check(c, &t) != PTORT_OK;
                            t.addr = 512 + 16;
                            bad += ptort_tile_check(c, &t) != PTORT_E_ADDR;
                            runs++;
                        }
    CHECK_EQ(runs, PTORT_NUM_TILE_DTYPES * 2 * 3 * 3 * 11 * 11);
    CHECK_EQ(bad, 0);
    ptort_ctx_free(c);
}

static void sharing(void)
{
    ptort_ctx *c = ptort_ctx_new(PTORT_A3, NULL);
    ptort_tile a = ptort_tile_make(PTORT_VEC, PTORT_F32, 2, 8, 0);
    ptort_tile b = ptort_tile_make(PTORT_VEC, PTORT_U8, 2, 32, 32);   /* = a's row 1 */
    float x[16] = {0};
    x[8] = 1.0f;                                                       /* 0x3F800000 */
    ptort_tile_fill(c, &a, x, 2, 8);
    uint8_t y[64];
    ptort_tile_read(c, &b, y, 2, 32);
    CHECK(y[0] == 0x00 && y[1] == 0x00 && y[2] == 0x80 && y[3] == 0x3F);
    ptort_ctx_free(c);
}

/* Each thread owns a context and runs the same MX kernel; results must agree. */
static void *worker(void *arg)
{
    uint8_t *out = arg;
    ptort_ctx *c = ptort_ctx_new(PTORT_A5, NULL);
    if (!c)
        return NULL;
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, 32, 64, 0);
    ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_F8E4M3FN, 32, 64, 16384);
    ptort_tile e = ptort_tile_make(PTORT_VEC, PTORT_U8, 32, 32, 32768);
    e.valid_cols = 2;
    ptort_tile m = ptort_tile_make(PTORT_VEC, PTORT_F32, 32, 8, 65536);
    m.valid_cols = 2;
    ptort_tile s = m;
    s.addr = 98304;
    float x[32 * 64];
    for (int i = 0; i < 32 * 64; i++)
        x[i] = (float)(i % 97) - 48.5f;
    for (int rep = 0; rep < 200; rep++) {
        ptort_tile_fill(c, &src, x, 32, 64);
        if (ptort_tquant_mx(c, PTORT_MXFP8, PTORT_SCALE_NV, PTORT_AXIS1, &src, &dst, &e, &m, &s, NULL))
            break;
    }
    ptort_tile_read(c, &dst, out, 32, 64);
    ptort_ctx_free(c);
    return NULL;
}

static void threads(void)
{
    static uint8_t r1[32 * 64], r2[32 * 64];
    pthread_t t1, t2;
    CHECK(pthread_create(&t1, NULL, worker, r1) == 0);
    CHECK(pthread_create(&t2, NULL, worker, r2) == 0);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    CHECK_BYTES(r1, r2, sizeof r1);
    /* (0 % 97) - 48.5 = -48.5 in a group with max 48.5: NV e = ceil(log2(48.5/448)) + 127
     * = 124, s = 8 -> -388 -> e4m3 grid at [256, 448] steps 32: 384 = 1.5 * 2^8, exponent
     * field 15, mantissa 4 -> 0x7C, negative -> 0xFC. */
    CHECK_EQ(r1[0], 0xFC);
}

int main(void)
{
    capacities();
    descriptors();
    box_footprints();
    sharing();
    threads();
    return unit_done();
}
