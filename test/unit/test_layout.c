/* test_layout.c - element addressing (docs/numerics.md section 5), tmov, host fill/read, tload and
 * tstore with padding (section 6), view bounds, and the f16/bf16 conversions.
 */
#include <math.h>
#include <stdlib.h>

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

/* The formulas of docs/numerics.md section 5, written out again for the tests (R, C rounded to boxes). */
static int64_t spec_offset(int kind, int64_t R, int64_t C, int64_t IR, int64_t IC, int64_t r, int64_t c)
{
    int64_t sr = r / IR, ir = r % IR, sc = c / IC, ic = c % IC;
    switch (kind) {
    case 0: return sc * R * IC + sr * IR * IC + ir * IC + ic;   /* NZ */
    case 1: return sr * C * IR + sc * IR * IC + ir * IC + ic;   /* ZZ */
    case 2: return sr * C * IR + sc * IR * IC + ic * IR + ir;   /* ZN */
    default: return sc * R * IC + sr * IR * IC + ic * IR + ir;  /* NN */
    }
}

static void formulas(void)
{
    /* Hand-computed points (see the derivations in docs/runtime.md's layout section). */
    ptort_tile nz = boxed(PTORT_MAT, PTORT_F16, 32, 32, PTORT_BL_COL_MAJOR, PTORT_SL_ROW_MAJOR, 512, 0);
    CHECK_EQ(ptort_tile_offset(&nz, 17, 20), 788);      /* 1*32*16 + 1*256 + 1*16 + 4 */
    ptort_tile zz = boxed(PTORT_VEC, PTORT_U8, 32, 4, PTORT_BL_ROW_MAJOR, PTORT_SL_ROW_MAJOR, 32, 0);
    CHECK_EQ(ptort_tile_offset(&zz, 17, 3), 99);        /* 1*4*16 + 1*32 + 1*2 + 1 */
    ptort_tile zn = boxed(PTORT_RIGHT, PTORT_F16, 32, 32, PTORT_BL_ROW_MAJOR, PTORT_SL_COL_MAJOR, 512, 0);
    CHECK_EQ(ptort_tile_offset(&zn, 17, 20), 833);      /* 1*32*16 + 1*256 + 4*16 + 1 */
    ptort_tile nn = boxed(PTORT_VEC, PTORT_U8, 4, 32, PTORT_BL_COL_MAJOR, PTORT_SL_COL_MAJOR, 32, 0);
    CHECK_EQ(ptort_tile_offset(&nn, 3, 17), 99);        /* 1*4*16 + 1*32 + 1*2 + 1 */
    ptort_tile rm = ptort_tile_make(PTORT_VEC, PTORT_F32, 4, 8, 0);
    CHECK_EQ(ptort_tile_offset(&rm, 2, 3), 19);
    ptort_tile cm = ptort_tile_make(PTORT_VEC, PTORT_F32, 8, 4, 0);
    cm.blayout = PTORT_BL_COL_MAJOR;
    CHECK_EQ(ptort_tile_offset(&cm, 2, 3), 26);         /* 3*8 + 2 */
    rm.compact = PTORT_COMPACT_ROW_PLUS_ONE;
    CHECK_EQ(ptort_tile_offset(&rm, 2, 3), 21);         /* 2*9 + 3 */
    CHECK_EQ(ptort_tile_bytes(&rm), (3 * 9 + 8) * 4);
    cm.compact = PTORT_COMPACT_ROW_PLUS_ONE;
    CHECK_EQ(ptort_tile_offset(&cm, 2, 3), 29);         /* 3*9 + 2 */
    CHECK_EQ(ptort_tile_bytes(&cm), (3 * 9 + 8) * 4);
    /* Compact boxed tiles (docs/memory.md 1), from pto-isa: a5's compact TEXTRACT to Left
     * steps between columns of NZ boxes by ceil(valid_rows / 16) boxes, its ND-to-NZ TMOV
     * with row_plus_one by ceil(valid_rows / 16) * 16 + 1 box rows of C0 = 32 bytes.
     * f32 NZ 48x16 with 20 valid rows: box 16x8, columns of boxes 32 (33) rows apart;
     * (17, 10) is box column 1, box row 1, inner row 1, inner col 2. */
    ptort_tile cnz = boxed(PTORT_MAT, PTORT_F32, 48, 16, PTORT_BL_COL_MAJOR, PTORT_SL_ROW_MAJOR, 512, 0);
    cnz.valid_rows = 20;
    CHECK_EQ(ptort_tile_offset(&cnz, 17, 10), 522);     /* not compact: 1*48*8 + 128 + 8 + 2 */
    cnz.compact = PTORT_COMPACT_NORMAL;
    CHECK_EQ(ptort_tile_offset(&cnz, 17, 10), 394);     /* 1*32*8 + 1*16*8 + 1*8 + 2 */
    CHECK_EQ(ptort_tile_offset(&cnz, 32, 0), -1);       /* past the compact rows */
    CHECK_EQ(ptort_tile_bytes(&cnz), 48 * 16 * 4);      /* the size stays rows x cols */
    cnz.compact = PTORT_COMPACT_ROW_PLUS_ONE;
    CHECK_EQ(ptort_tile_offset(&cnz, 17, 10), 402);     /* 1*33*8 + 128 + 8 + 2 */
    CHECK_EQ(ptort_tile_bytes(&cnz), (15 * 49 + 48) * 4); /* PTOAS's footprint is the larger */
    cnz.rows = 40;                                      /* vec-style partial box: NZ+1's is */
    CHECK_EQ(ptort_tile_bytes(&cnz), (49 + 48) * 8 * 4);
    ptort_tile czn = boxed(PTORT_RIGHT, PTORT_F16, 32, 64, PTORT_BL_ROW_MAJOR, PTORT_SL_COL_MAJOR, 512, 0);
    czn.valid_cols = 20;                                /* a5's compact TEXTRACT to Right */
    czn.compact = PTORT_COMPACT_NORMAL;                 /* box rows ceil(20/16)*16 = 32 cols apart */
    CHECK_EQ(ptort_tile_offset(&czn, 17, 18), 801);     /* 1*32*16 + 1 + 1*256 + 2*16 */
    czn.compact = PTORT_COMPACT_NULL;
    CHECK_EQ(ptort_tile_offset(&czn, 17, 18), 1313);    /* 1*64*16 + 1 + 1*256 + 2*16 */
    ptort_tile one = boxed(PTORT_VEC, PTORT_F16, 1, 32, PTORT_BL_ROW_MAJOR, PTORT_SL_ROW_MAJOR, 512, 0);
    CHECK_EQ(ptort_tile_offset(&one, 0, 20), 20);       /* rows = 1: offset c */
    ptort_tile v = boxed(PTORT_VEC, PTORT_F32, 20, 32, PTORT_BL_COL_MAJOR, PTORT_SL_ROW_MAJOR, 1024, 0);
    CHECK_EQ(ptort_tile_offset(&v, 17, 21), 789);       /* R' = 32: 1*32*16 + 256 + 16 + 5 */
    CHECK_EQ(ptort_tile_bytes(&v), 32 * 32 * 4);
    CHECK_EQ(ptort_tile_offset(&rm, 4, 0), -1);

    /* Every boxed layout and box size against the formulas, at every element. */
    static const ptort_dtype dts[] = {PTORT_F32, PTORT_F16, PTORT_U8};
    static const int fr[] = {1024, 32, 512};
    int bad = 0, n = 0;
    for (int d = 0; d < 3; d++)
        for (int f = 0; f < 3; f++)
            for (int kind = 0; kind < 4; kind++) {
                int rowbox = kind == 0 || kind == 1;
                ptort_blayout bl = kind == 0 || kind == 3 ? PTORT_BL_COL_MAJOR : PTORT_BL_ROW_MAJOR;
                int sz = ptort_dtype_size(dts[d]);
                int64_t IR, IC;
                if (fr[f] == 1024)
                    IR = IC = 16;
                else if (fr[f] == 32)
                    IR = rowbox ? 16 : 2, IC = rowbox ? 2 : 16;
                else
                    IR = rowbox ? 16 : 32 / sz, IC = rowbox ? 32 / sz : 16;
                int64_t R = 2 * IR, C = 3 * IC;
                ptort_tile t = boxed(PTORT_MAT, dts[d], R, C, bl,
                                     rowbox ? PTORT_SL_ROW_MAJOR : PTORT_SL_COL_MAJOR, fr[f], 0);
                CHECK(ptort_tile_check(ctx, &t) == PTORT_OK);
                for (int64_t r = 0; r < R; r++)
                    for (int64_t c = 0; c < C; c++, n++)
                        bad += ptort_tile_offset(&t, r, c) != spec_offset(kind, R, C, IR, IC, r, c);
            }
    CHECK(bad == 0 && n > 0);
}

/* tmov ND -> ZZ exponents (16x2 boxes), DN -> ZZ (2x16 boxes) and ND -> NZ data. */
static void tmovs(void)
{
    uint8_t *mat = ptort_mem(ctx, PTORT_VEC, NULL);
    enum { G = 4, M = 32 };
    uint8_t e[M * 32];
    for (int i = 0; i < M * 32; i++)
        e[i] = (uint8_t)(i * 7 + 3);
    ptort_tile nd = ptort_tile_make(PTORT_VEC, PTORT_U8, M, 32, 0);
    nd.valid_cols = G;
    ptort_tile_fill(ctx, &nd, e, M, 32);
    ptort_tile zz = boxed(PTORT_VEC, PTORT_U8, M, G, PTORT_BL_ROW_MAJOR, PTORT_SL_ROW_MAJOR, 32, 4096);
    memset(mat + 4096, 0xAA, 512);
    ptort_tile tmp = ptort_tile_make(PTORT_VEC, PTORT_U8, M, 32, 8192);
    memset(mat + 8192, 0x5A, M * 32);
    CHECK(ptort_tmov(ctx, &nd, &zz, &tmp) == PTORT_OK);
    uint8_t want[M * G];
    for (int r = 0; r < M; r++)
        for (int c = 0; c < G; c++)
            want[((r / 16 * G / 2 + c / 2) * 16 + r % 16) * 2 + c % 2] = e[r * 32 + c];
    CHECK_BYTES(mat + 4096, want, M * G);
    CHECK_EQ(mat[4096 + M * G], 0xAA);
    int tmp_ok = 1;
    for (int i = 0; i < M * 32; i++)
        tmp_ok &= mat[8192 + i] == 0x5A;
    CHECK(tmp_ok);

    /* DN exponents [2, 32] -> col_major/col_major fractal 32: offset (c/16)*R*16 +
     * (r/2)*32 + (c%16)*2 + r%2 with R = 2. */
    ptort_tile dn = ptort_tile_make(PTORT_VEC, PTORT_U8, 2, 32, 0);
    ptort_tile_fill(ctx, &dn, e, 2, 32);
    ptort_tile dz = boxed(PTORT_VEC, PTORT_U8, 2, 32, PTORT_BL_COL_MAJOR, PTORT_SL_COL_MAJOR, 32, 4096);
    CHECK(ptort_tmov(ctx, &dn, &dz, NULL) == PTORT_OK);
    uint8_t w2[64];
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 32; c++)
            w2[(c / 16) * 2 * 16 + (r / 2) * 32 + (c % 16) * 2 + r % 2] = e[r * 32 + c];
    CHECK_BYTES(mat + 4096, w2, 64);

    /* ND -> NZ fp8 data, 32 x 64 bytes, boxes 16 x 32 */
    static uint8_t d[32 * 64], w3[32 * 64];
    for (int i = 0; i < 32 * 64; i++)
        d[i] = (uint8_t)(i ^ (i >> 5));
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F8E4M3FN, 32, 64, 0);
    ptort_tile_fill(ctx, &src, d, 32, 64);
    ptort_tile nz = boxed(PTORT_VEC, PTORT_F8E4M3FN, 32, 64, PTORT_BL_COL_MAJOR, PTORT_SL_ROW_MAJOR, 512, 4096);
    CHECK(ptort_tmov(ctx, &src, &nz, NULL) == PTORT_OK);
    for (int r = 0; r < 32; r++)
        for (int c = 0; c < 64; c++)
            w3[(c / 32) * 32 * 32 + (r / 16) * 16 * 32 + (r % 16) * 32 + c % 32] = d[r * 64 + c];
    CHECK_BYTES(mat + 4096, w3, 32 * 64);
    /* and back: NZ -> ND reproduces the data */
    ptort_tile back = ptort_tile_make(PTORT_VEC, PTORT_F8E4M3FN, 32, 64, 16384);
    CHECK(ptort_tmov(ctx, &nz, &back, NULL) == PTORT_OK);
    CHECK_BYTES(mat + 16384, d, 32 * 64);

    CHECK_STATUS(ctx, ptort_tmov(ctx, &src, &nd, NULL), PTORT_E_DTYPE,
                 "expects src and dst to have the same element type");
    ptort_tile nz2 = nz;
    nz2.valid_cols = 32;
    CHECK_STATUS(ctx, ptort_tmov(ctx, &src, &nz2, NULL), PTORT_E_SHAPE,
                 "expects src and dst to have the same valid_shape");
}

/* fill/read round trips through every layout; col-major bytes checked by hand. */
static void fill_read(void)
{
    float host[16 * 16], back[16 * 16];
    for (int i = 0; i < 256; i++)
        host[i] = (float)i;
    ptort_tile cm = ptort_tile_make(PTORT_MAT, PTORT_F32, 16, 16, 0);
    cm.blayout = PTORT_BL_COL_MAJOR;
    CHECK(ptort_tile_fill(ctx, &cm, host, 16, 16) == PTORT_OK);
    float *m = (float *)(void *)ptort_mem(ctx, PTORT_MAT, NULL);
    CHECK(m[1] == 16.0f && m[16] == 1.0f && m[3 * 16 + 2] == 2 * 16 + 3);
    int bad = 0;
    for (int bl = 0; bl < 2; bl++)
        for (int sl = 0; sl < 3; sl++)
            for (int f = 0; f < 3; f++) {
                static const int fr[] = {32, 512, 1024};
                ptort_tile t = boxed(PTORT_MAT, PTORT_F32, 16, 16, (ptort_blayout)bl,
                                     (ptort_slayout)sl, fr[f], 4096);
                if (ptort_tile_check(ctx, &t) != PTORT_OK)
                    continue;
                memset(back, 0, sizeof back);
                bad += ptort_tile_fill(ctx, &t, host, 16, 16) != PTORT_OK;
                bad += ptort_tile_read(ctx, &t, back, 16, 16) != PTORT_OK;
                bad += memcmp(host, back, sizeof host) != 0;
            }
    CHECK(bad == 0);
    CHECK_STATUS(ctx, ptort_tile_fill(ctx, &cm, host, 17, 16), PTORT_E_SHAPE, "does not fit");
}

static void load_store(void)
{
    float h[4 * 10];
    for (int i = 0; i < 40; i++)
        h[i] = (float)i;
    ptort_view tv = ptort_view_make(h, sizeof h, PTORT_F32, 4, 10, 10, 1);
    ptort_view pv;
    CHECK(ptort_view_partition(ctx, &tv, 1, 2, 2, 8, &pv) == PTORT_OK);
    ptort_tile t = ptort_tile_make(PTORT_VEC, PTORT_F32, 4, 8, 0);
    t.valid_rows = 2;
    uint32_t *vec = (uint32_t *)(void *)ptort_mem(ctx, PTORT_VEC, NULL);
    static const uint32_t padv[4] = {0x12345678u, 0u, 0x7F7FFFFFu, 0xFF7FFFFFu};
    for (int pad = 0; pad < 4; pad++) {
        t.pad = pad;
        for (int i = 0; i < 32; i++)
            vec[i] = 0x12345678u;
        CHECK(ptort_tload(ctx, &pv, &t) == PTORT_OK);
        CHECK(unit_u2f(vec[0]) == 12.0f && unit_u2f(vec[7]) == 19.0f && unit_u2f(vec[8]) == 22.0f);
        CHECK_EQ(vec[16], padv[pad]);
        CHECK_EQ(vec[31], padv[pad]);
    }
    /* f16 pad max/min, with valid cols < cols: the tail of each valid row is padded too. */
    uint16_t hh[16] = {1, 2, 3, 4};
    ptort_view v16 = ptort_view_make(hh, sizeof hh, PTORT_F16, 1, 4, 4, 1);
    ptort_tile t16 = ptort_tile_make(PTORT_VEC, PTORT_F16, 2, 16, 0);
    t16.valid_rows = 1;
    t16.valid_cols = 4;
    t16.pad = PTORT_PAD_MAX;
    CHECK(ptort_tload(ctx, &v16, &t16) == PTORT_OK);
    uint16_t *v16p = (uint16_t *)(void *)vec;
    CHECK(v16p[3] == 4 && v16p[4] == 0x7BFF && v16p[31] == 0x7BFF);
    t16.pad = PTORT_PAD_MIN;
    CHECK(ptort_tload(ctx, &v16, &t16) == PTORT_OK);
    CHECK(v16p[4] == 0xFBFF);

    /* transposed view into a col-major tile */
    ptort_view tr = ptort_view_make(h, sizeof h, PTORT_F32, 8, 4, 1, 10);
    ptort_tile ct = ptort_tile_make(PTORT_VEC, PTORT_F32, 8, 4, 0);
    ct.blayout = PTORT_BL_COL_MAJOR;
    CHECK(ptort_tload(ctx, &tr, &ct) == PTORT_OK);
    float out[32];
    ptort_tile_read(ctx, &ct, out, 8, 4);
    CHECK(out[0] == 0 && out[1] == 10 && out[4] == 1 && out[31] == 37);

    /* tstore writes the valid region only */
    float dstbuf[4 * 10];
    for (int i = 0; i < 40; i++)
        dstbuf[i] = -1;
    ptort_view dv = ptort_view_make(dstbuf, sizeof dstbuf, PTORT_F32, 4, 10, 10, 1), dpv;
    ptort_view_partition(ctx, &dv, 2, 1, 2, 8, &dpv);
    t.pad = 0;
    CHECK(ptort_tload(ctx, &pv, &t) == PTORT_OK);
    CHECK(ptort_tstore(ctx, &t, &dpv) == PTORT_OK);
    CHECK(dstbuf[21] == 12.0f && dstbuf[28] == 19.0f && dstbuf[31] == 22.0f && dstbuf[20] == -1 &&
          dstbuf[29] == -1 && dstbuf[19] == -1);

    /* out of bounds: a buffer one element too small, a negative offset, a bad window */
    for (int i = 0; i < 32; i++)
        vec[i] = 0x12345678u;
    ptort_view small = ptort_view_make(h, sizeof h - 4, PTORT_F32, 4, 10, 10, 1), sp;
    ptort_view_partition(ctx, &small, 2, 2, 2, 8, &sp);
    CHECK_STATUS(ctx, ptort_tload(ctx, &sp, &t), PTORT_E_VIEW,
                 "view accesses elements [22, 39], outside the host buffer of 39 elements");
    CHECK_EQ(vec[0], 0x12345678u);
    sp.offset = -1;
    CHECK_STATUS(ctx, ptort_tstore(ctx, &t, &sp), PTORT_E_VIEW, "outside the host buffer");
    CHECK_STATUS(ctx, ptort_view_partition(ctx, &tv, 3, 0, 2, 8, &sp), PTORT_E_VIEW,
                 "exceeds the view shape");
    CHECK_STATUS(ctx, ptort_tload(ctx, &tv, &t), PTORT_E_SHAPE,
                 "expects the view shape to equal the tile valid_shape, but got [4, 10] vs [2, 8]");
    /* a view of another element type of the same size moves the bits (PTOAS's same-bitwidth
     * transfer): an i32 view of the f32 buffer loads 12.0f's bits 0x41400000 unchanged */
    ptort_view bits = pv;
    bits.dtype = PTORT_I32;
    CHECK(ptort_tload(ctx, &bits, &t) == PTORT_OK);
    CHECK_EQ(vec[0], 0x41400000u);
    ptort_view wrong = pv;
    wrong.dtype = PTORT_F16;
    CHECK_STATUS(ctx, ptort_tload(ctx, &wrong, &t), PTORT_E_DTYPE,
                 "expects the view and the tile to have the same element size, but got f16 and f32");

    /* Another view shape with as many elements (pto-isa ND transfer): tile row r goes to view
     * row r and runs on along the row. A [1, 32] ui8 tile into a [16, 2] view of a 16 x 3
     * buffer (row stride 3) writes bytes 0..31, not every third one; a [2, 16] tile into an
     * [8, 4] view (stride 4) writes row 1 from byte 4. */
    uint8_t hb[48], tb[32];
    memset(hb, 0xEE, sizeof hb);
    for (int i = 0; i < 32; i++)
        tb[i] = (uint8_t)(i + 1);
    ptort_tile u = ptort_tile_make(PTORT_VEC, PTORT_U8, 1, 32, 0);
    CHECK(ptort_tile_fill(ctx, &u, tb, 1, 32) == PTORT_OK);
    ptort_view hv = ptort_view_make(hb, sizeof hb, PTORT_U8, 16, 2, 3, 1);
    CHECK(ptort_tstore(ctx, &u, &hv) == PTORT_OK);
    CHECK_BYTES(hb, tb, 32);
    CHECK_EQ(hb[32], 0xEE);
    u = ptort_tile_make(PTORT_VEC, PTORT_U8, 2, 16, 0);
    memset(hb, 0xEE, sizeof hb);
    hv = ptort_view_make(hb, sizeof hb, PTORT_U8, 8, 4, 4, 1);
    CHECK(ptort_tstore(ctx, &u, &hv) == PTORT_OK);
    uint8_t w2[21];
    memcpy(w2, tb, 16);                             /* tile row 0 (bytes 1..16, from u above) */
    memcpy(w2 + 4, tb + 16, 16);                    /* row 1 at 4, over row 0's tail */
    w2[20] = 0xEE;
    CHECK_BYTES(hb, w2, 21);
    /* load back through a [16, 2] view into a [1, 32] tile */
    memset(vec, 0, 64);
    for (int i = 0; i < 32; i++)
        hb[i] = (uint8_t)(100 + i);
    hv = ptort_view_make(hb, sizeof hb, PTORT_U8, 16, 2, 2, 1);
    u = ptort_tile_make(PTORT_VEC, PTORT_U8, 1, 32, 0);
    CHECK(ptort_tload(ctx, &hv, &u) == PTORT_OK);
    CHECK_BYTES((uint8_t *)vec, hb, 32);
    /* more tile rows than view rows, or another element count: rejected */
    u = ptort_tile_make(PTORT_VEC, PTORT_U8, 32, 1, 0);
    CHECK_STATUS(ctx, ptort_tload(ctx, &hv, &u), PTORT_E_SHAPE,
                 "expects the view shape to equal the tile valid_shape, but got [16, 2] vs [32, 1]");
    u = ptort_tile_make(PTORT_VEC, PTORT_U8, 1, 64, 0);
    CHECK_STATUS(ctx, ptort_tload(ctx, &hv, &u), PTORT_E_SHAPE, "but got [16, 2] vs [1, 64]");
    /* an empty valid region moves nothing, whatever the view's shape (PTOAS issue 708) */
    u.valid_rows = 0;
    memset(hb, 0xEE, sizeof hb);
    CHECK(ptort_tstore(ctx, &u, &hv) == PTORT_OK);
    CHECK_EQ(hb[0], 0xEE);
    u.valid_rows = 1;
    u.valid_cols = 0;
    CHECK(ptort_tload(ctx, &hv, &u) == PTORT_OK);
}

static void conversions(void)
{
    CHECK_EQ(ptort_f32_to_f16(65504.0f), 0x7BFF);
    CHECK_EQ(ptort_f32_to_f16(65519.0f), 0x7BFF);
    CHECK_EQ(ptort_f32_to_f16(65520.0f), 0x7C00);        /* tie -> even -> 65536 = Inf */
    CHECK_EQ(ptort_f32_to_f16(ldexpf(1, -24)), 0x0001);
    CHECK_EQ(ptort_f32_to_f16(ldexpf(1, -25)), 0x0000);  /* tie -> even 0 */
    CHECK_EQ(ptort_f32_to_f16(ldexpf(3, -26)), 0x0001);
    CHECK_EQ(ptort_f32_to_f16(ldexpf(3, -25)), 0x0002);  /* 1.5 ulp -> 2 */
    CHECK_EQ(ptort_f32_to_f16(1.0f + ldexpf(1, -11)), 0x3C00);
    CHECK_EQ(ptort_f32_to_f16(1.0f + ldexpf(3, -11)), 0x3C02);
    CHECK_EQ(ptort_f32_to_f16(ldexpf(1023, -24)), 0x03FF);
    CHECK_EQ(ptort_f32_to_f16(ldexpf(2047, -25)), 0x0400); /* rounds up into the normals */
    CHECK_EQ(ptort_f32_to_f16(-0.0f), 0x8000);
    CHECK_EQ(ptort_f32_to_f16(-INFINITY), 0xFC00);
    CHECK_EQ(ptort_f32_to_f16(NAN) & 0x7E00, 0x7E00);
    CHECK(ptort_f16_to_f32(0x0001) == ldexpf(1, -24));
    CHECK(ptort_f16_to_f32(0x3555) == 0.333251953125f);
    CHECK(ptort_f16_to_f32(0xFC00) == -INFINITY);
    CHECK(isnan(ptort_f16_to_f32(0x7E00)));
    CHECK(ptort_f16_to_f32(0x7BFF) == 65504.0f);
    CHECK(ptort_f16_to_f32(0x83FF) == -ldexpf(1023, -24));
    CHECK_EQ(ptort_f32_to_bf16(1.0f + ldexpf(1, -8)), 0x3F80);
    CHECK_EQ(ptort_f32_to_bf16(1.0f + ldexpf(3, -8)), 0x3F82);
    CHECK_EQ(ptort_f32_to_bf16(unit_u2f(0x7F7FFFFF)), 0x7F80);
    CHECK_EQ(ptort_f32_to_bf16(unit_u2f(0x7F800001)), 0x7FC0);
    CHECK(ptort_bf16_to_f32(0x3FC0) == 1.5f);
    CHECK(ptort_e5m2_to_f32(0x7C) == INFINITY);
    CHECK(isnan(ptort_e5m2_to_f32(0x7D)));
    CHECK(ptort_e5m2_to_f32(0x01) == ldexpf(1, -16));
    CHECK(ptort_e5m2_to_f32(0x7B) == 57344.0f);
}

/* tmov with a tmp (X-to-ZZ, pto-isa a5 TMovNdTo2Zz / TMovDnTo2Zz), expected bytes by hand. */
static void tmov_zz(void)
{
    uint8_t *vec = ptort_mem(ctx, PTORT_VEC, NULL);
    enum { S = 0, D = 4096, T = 8192 };
    /* ND: a 2 x 4 exponent tile (groups of two 32-column pairs) E = [1 2 3 4; 5 6 7 8] in a
     * 16x4 src. R = 2 rows pad to one 16-row block, C/2 = 2 boxes: box 0 holds columns 0-1
     * of rows 0..15 = 01 02 05 06 then zeros, box 1 columns 2-3 = 03 04 07 08 then zeros. */
    memset(vec, 0xAA, 12288);
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_U8, 16, 4, S);
    src.valid_rows = 2;
    ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_U8, 16, 4, D);
    dst.slayout = PTORT_SL_ROW_MAJOR;
    dst.valid_rows = 2;
    ptort_tile tmp = ptort_tile_make(PTORT_VEC, PTORT_U8, 1, 96, T);
    tmp.valid_cols = 2;
    const uint8_t e[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    memcpy(vec + S, e, 8);
    ptort_status st = ptort_tmov_zz(ctx, PTORT_AXIS1, &src, &dst, &tmp);
    if (!CHECK(st == PTORT_OK))
        fprintf(stderr, "    %s\n", ptort_error(ctx));
    uint8_t want[64] = {0};
    want[0] = 1, want[1] = 2, want[2] = 5, want[3] = 6;
    want[32] = 3, want[33] = 4, want[34] = 7, want[35] = 8;
    CHECK_BYTES(vec + D, want, 64);
    uint8_t zero[56] = {0};
    CHECK_BYTES(vec + S + 8, zero, 56);           /* src padding rows zeroed in place */
    CHECK_EQ(vec[S + 64], 0xAA);
    CHECK_EQ(vec[T], 0xAA);                       /* tmp is not written */

    /* ND with 17 rows of C = 2: two row blocks; rows 17..31 of the second read 0. */
    memset(vec, 0xAA, 12288);
    src = ptort_tile_make(PTORT_VEC, PTORT_U8, 32, 2, S);
    src.valid_rows = 17;
    dst = ptort_tile_make(PTORT_VEC, PTORT_U8, 32, 2, D);
    dst.slayout = PTORT_SL_ROW_MAJOR;
    dst.fractal = 32;
    dst.valid_rows = 17;
    for (int i = 0; i < 34; i++)
        vec[S + i] = (uint8_t)(i + 1);
    CHECK(ptort_tmov_zz(ctx, PTORT_AXIS1, &src, &dst, &tmp) == PTORT_OK);
    uint8_t w2[64] = {0};
    for (int i = 0; i < 34; i++)
        w2[i] = (uint8_t)(i + 1);
    CHECK_BYTES(vec + D, w2, 64);

    /* DN: M/32 = 4 row groups x N = 16: box p zips rows 2p and 2p+1:
     * E[r][c] = 16r + c -> box 0 = 00 10 01 11 .. 0F 1F, box 1 = 20 30 21 31 .. 2F 3F. */
    memset(vec, 0xAA, 12288);
    src = ptort_tile_make(PTORT_VEC, PTORT_U8, 4, 16, S);
    dst = ptort_tile_make(PTORT_VEC, PTORT_U8, 1, 64, D);
    dst.slayout = PTORT_SL_ROW_MAJOR;
    dst.fractal = 32;
    for (int i = 0; i < 64; i++)
        vec[S + i] = (uint8_t)i;
    CHECK(ptort_tmov_zz(ctx, PTORT_AXIS0, &src, &dst, &tmp) == PTORT_OK);
    uint8_t w3[65];
    for (int q = 0; q < 16; q++) {
        w3[2 * q] = (uint8_t)q, w3[2 * q + 1] = (uint8_t)(0x10 + q);
        w3[32 + 2 * q] = (uint8_t)(0x20 + q), w3[33 + 2 * q] = (uint8_t)(0x30 + q);
    }
    w3[64] = 0xAA;
    CHECK_BYTES(vec + D, w3, 65);
    /* DN with 2 row groups of N = 32: box cb holds columns 16cb.. of rows 0 and 1. */
    src = ptort_tile_make(PTORT_VEC, PTORT_U8, 2, 32, S);
    for (int i = 0; i < 64; i++)
        vec[S + i] = (uint8_t)i;
    CHECK(ptort_tmov_zz(ctx, PTORT_AXIS0, &src, &dst, &tmp) == PTORT_OK);
    for (int q = 0; q < 16; q++) {
        w3[2 * q] = (uint8_t)q, w3[2 * q + 1] = (uint8_t)(0x20 + q);
        w3[32 + 2 * q] = (uint8_t)(0x10 + q), w3[33 + 2 * q] = (uint8_t)(0x30 + q);
    }
    CHECK_BYTES(vec + D, w3, 65);

    /* rejects */
    src = ptort_tile_make(PTORT_VEC, PTORT_U8, 3, 16, S);
    CHECK_STATUS(ctx, ptort_tmov_zz(ctx, PTORT_AXIS0, &src, &dst, &tmp), PTORT_E_SHAPE,
                 "expects src and dst to hold the same exponent count");
    dst.valid_cols = 48;
    CHECK_STATUS(ctx, ptort_tmov_zz(ctx, PTORT_AXIS0, &src, &dst, &tmp), PTORT_E_SHAPE,
                 "DN-to-ZZ src valid_shape[0] to be an even count >= 2");
    dst.valid_cols = 64;
    src = ptort_tile_make(PTORT_VEC, PTORT_I8, 4, 16, S);
    CHECK_STATUS(ctx, ptort_tmov_zz(ctx, PTORT_AXIS0, &src, &dst, &tmp), PTORT_E_DTYPE,
                 "expects src, dst, and tmp to share one element type");
    src = ptort_tile_make(PTORT_VEC, PTORT_U8, 1, 64, S);
    CHECK_STATUS(ctx, ptort_tmov_zz(ctx, PTORT_AXIS1, &src, &dst, &tmp), PTORT_E_SHAPE,
                 "expects ND-to-ZZ src physical capacity to cover align16(dst rows) * dst cols");
    src = ptort_tile_make(PTORT_VEC, PTORT_U8, 16, 64, S);
    src.valid_rows = 1;
    dst.slayout = PTORT_SL_NONE_BOX;
    CHECK_STATUS(ctx, ptort_tmov_zz(ctx, PTORT_AXIS1, &src, &dst, &tmp), PTORT_E_LAYOUT,
                 "expects dst to use blayout=row_major, slayout=row_major (ZZ box)");
    dst.slayout = PTORT_SL_ROW_MAJOR;
    dst.rows = 16;
    tmp.cols = 64;
    CHECK_STATUS(ctx, ptort_tmov_zz(ctx, PTORT_AXIS1, &src, &dst, &tmp), PTORT_E_SHAPE,
                 "expects tmp to provide at least 128 bytes for ND-to-ZZ");
    ptort_ctx *a3 = ptort_ctx_new(PTORT_A3, NULL);
    CHECK_STATUS(a3, ptort_tmov_zz(a3, PTORT_AXIS1, &src, &dst, &tmp), PTORT_E_ARCH,
                 "X-to-ZZ tmov is only supported on A5");
    ptort_ctx_free(a3);
}

/* A 3-D view: a 2x3x4 ramp (element (i, j, k) = 12i + 4j + k) read in the window at
 * [0, 1, 1] of size [2, 2, 3] gives tile rows (0,1) (0,2) (1,1) (1,2), the second-to-last
 * index counting fastest; written back through a view with a negative middle stride; the
 * rank rules and a window that leaves the buffer through a leading dimension. */
static void views_nd(void)
{
    float h[24], out[24];
    for (int i = 0; i < 24; i++)
        h[i] = (float)i, out[i] = -1;
    ptort_view v = ptort_view_make_nd(h, sizeof h, PTORT_F32, 3, (const int64_t[]){2, 3, 4},
                                      (const int64_t[]){12, 4, 1}), p;
    CHECK(ptort_view_partition_nd(ctx, &v, 3, (const int64_t[]){0, 1, 1}, (const int64_t[]){2, 2, 3}, &p) ==
          PTORT_OK);
    ptort_tile t = ptort_tile_make(PTORT_VEC, PTORT_F32, 4, 8, 0);
    t.valid_cols = 3;
    CHECK(ptort_tload(ctx, &p, &t) == PTORT_OK);
    const float *vec = (const float *)ptort_mem(ctx, PTORT_VEC, NULL);
    static const float want[4][3] = {{5, 6, 7}, {9, 10, 11}, {17, 18, 19}, {21, 22, 23}};
    int bad = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 3; c++)
            bad += vec[r * 8 + c] != want[r][c];
    CHECK_EQ(bad, 0);
    /* out viewed as [2][2][3] from element 6 with row stride -3: row (i, j) at 6 + 12i - 3j */
    ptort_view o = ptort_view_make_nd(out, sizeof out, PTORT_F32, 3, (const int64_t[]){2, 2, 3},
                                      (const int64_t[]){12, -3, 1});
    o.offset = 6;
    CHECK(ptort_tstore(ctx, &t, &o) == PTORT_OK);
    CHECK(out[6] == 5 && out[3] == 9 && out[18] == 17 && out[15] == 21 && out[0] == -1 && out[20] == 19);
    CHECK_STATUS(ctx, ptort_view_partition(ctx, &v, 0, 0, 1, 1, &p), PTORT_E_ARG, "2 offsets for a view of rank 3");
    CHECK_STATUS(ctx, ptort_view_partition_nd(ctx, &v, 3, (const int64_t[]){1, 2, 0}, (const int64_t[]){2, 1, 4}, &p),
                 PTORT_E_VIEW, "window at [1, 2, 0] of size [2, 1, 4] exceeds the view shape [2, 3, 4]");
    ptort_view bad6 = ptort_view_make_nd(h, sizeof h, PTORT_F32, 6, (const int64_t[]){1, 1, 1, 1, 1, 1},
                                         (const int64_t[]){1, 1, 1, 1, 1, 1});
    CHECK_STATUS(ctx, ptort_tload(ctx, &bad6, &t), PTORT_E_ARG, "the view has rank 0, not 2 to 5");
    /* the buffer ends before the last row: element 12 + 8 + 1 + 2 = 23 of a 23-element buffer */
    ptort_view small = ptort_view_make_nd(h, sizeof h - 4, PTORT_F32, 3, (const int64_t[]){2, 3, 4},
                                          (const int64_t[]){12, 4, 1});
    CHECK(ptort_view_partition_nd(ctx, &small, 3, (const int64_t[]){0, 1, 1}, (const int64_t[]){2, 2, 3}, &p) ==
          PTORT_OK);
    CHECK_STATUS(ctx, ptort_tload(ctx, &p, &t), PTORT_E_VIEW,
                 "view accesses elements [5, 23], outside the host buffer of 23 elements");
    t.valid_cols = 4; /* 2x2x3 holds 12 elements, the tile 16 */
    CHECK_STATUS(ctx, ptort_tload(ctx, &o, &t), PTORT_E_SHAPE,
                 "expects the view shape to equal the tile valid_shape, but got [2, 2, 3] vs [4, 4]");
}

int main(void)
{
    ctx = ptort_ctx_new(PTORT_A5, NULL);
    if (!CHECK(ctx != NULL))
        return unit_done();
    formulas();
    tmovs();
    tmov_zz();
    fill_read();
    load_store();
    views_nd();
    conversions();
    ptort_ctx_free(ctx);
    return unit_done();
}
