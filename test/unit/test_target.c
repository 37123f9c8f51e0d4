/* test_target.c - the runtime's copy of the target facts (memory.c: capacities,
 * alignments, inner boxes and tile sizes) agrees with the compiler's (ir/target.c).
 * The runtime must not depend on ir/, so the two are kept apart and compared here:
 * every memory space on every architecture, and tile sizes over every layout,
 * fractal, compact mode and element type both know, at shapes that need rounding. */
#include "ptort.h"
#include "target.h"
#include "unit.h"

static const struct {
    DType d;
    ptort_dtype rt;
} dtypes[] = {
    {DT_I8, PTORT_I8},     {DT_I16, PTORT_I16},   {DT_I32, PTORT_I32},   {DT_UI8, PTORT_U8},
    {DT_UI16, PTORT_U16},  {DT_UI32, PTORT_U32},  {DT_F16, PTORT_F16},   {DT_BF16, PTORT_BF16},
    {DT_F32, PTORT_F32},   {DT_F8E4M3FN, PTORT_F8E4M3FN}, {DT_F8E5M2, PTORT_F8E5M2},
    {DT_F8E8M0FNU, PTORT_F8E8M0FNU}, {DT_F4E2M1X2, PTORT_F4E2M1X2},
};

int main(void)
{
    /* the enums line up: same spaces in the same order, same names */
    CHECK_EQ(LOC_COUNT, PTORT_NUM_LOCS);
    for (int l = 0; l < LOC_COUNT; l++)
        CHECK(strcmp(enum_info[EK_LOC].names[l], ptort_loc_name((ptort_loc)l)) == 0);

    /* capacities per architecture, and alignments */
    static const struct {
        Arch a;
        ptort_arch rt;
    } arch[] = {{ARCH_A2, PTORT_A2}, {ARCH_A3, PTORT_A3}, {ARCH_A5, PTORT_A5}};
    for (size_t i = 0; i < sizeof arch / sizeof arch[0]; i++)
        for (int l = 0; l < LOC_COUNT; l++)
            CHECK_EQ(target_capacity(arch[i].a, (Loc)l), ptort_loc_capacity(arch[i].rt, (ptort_loc)l));
    for (int l = 0; l < LOC_COUNT; l++)
        CHECK_EQ(target_alignment((Loc)l), ptort_loc_alignment((ptort_loc)l));
    /* a few values by hand, so that both copies cannot drift together */
    CHECK_EQ(target_capacity(ARCH_A5, LOC_VEC), 253952);
    CHECK_EQ(target_capacity(ARCH_A3, LOC_VEC), 196608);
    CHECK_EQ(target_capacity(ARCH_A3, LOC_ACC), 131072);
    CHECK_EQ(target_alignment(LOC_LEFT), 512);
    CHECK_EQ(target_alignment(LOC_VEC), 32);

    /* inner boxes and tile sizes */
    static const int64_t dims[] = {1, 2, 3, 16, 17, 32, 33, 64};
    static const int fractals[] = {32, 512, 1024};
    int compared = 0, bad = 0; /* one check for the sweep: each miss is printed */
    for (size_t di = 0; di < sizeof dtypes / sizeof dtypes[0]; di++)
        for (int bl = 0; bl < 2; bl++)
            for (int sl = 0; sl < 3; sl++)
                for (int fi = 0; fi < 3; fi++)
                    for (int cm = 0; cm < 3; cm++)
                        for (size_t ri = 0; ri < sizeof dims / sizeof dims[0]; ri++)
                            for (size_t ci = 0; ci < sizeof dims / sizeof dims[0]; ci++) {
                                if (cm && sl != SL_NONE_BOX)
                                    continue; /* compact needs none_box */
                                TileBody b = {0};
                                b.rows = dims[ri];
                                b.cols = dims[ci];
                                b.vrow = b.rows;
                                b.vcol = b.cols;
                                b.dtype = dtypes[di].d;
                                b.blayout = (uint8_t)bl;
                                b.slayout = (uint8_t)sl;
                                b.fractal = fractals[fi];
                                b.compact = (uint8_t)cm;
                                ptort_tile t = ptort_tile_make(PTORT_VEC, dtypes[di].rt, b.rows, b.cols, 0);
                                t.blayout = (ptort_blayout)bl;
                                t.slayout = (ptort_slayout)sl;
                                t.fractal = fractals[fi];
                                t.compact = cm;
                                int64_t want = ptort_tile_bytes(&t), got = target_tile_bytes(&b);
                                /* A boxed tile of one row is flat in the runtime (docs/numerics.md
                                 * 5: element c at offset c) while tassign reserves whole boxes
                                 * (docs/memory.md 1): the reservation covers every byte used. */
                                if (sl != SL_NONE_BOX && b.rows == 1) {
                                    bad += !(got >= want && want > 0);
                                    compared++;
                                    continue;
                                }
                                if (want != got)
                                    fprintf(stderr, "dtype %s bl %d sl %d fractal %d compact %d %lldx%lld: "
                                                    "target %lld, runtime %lld\n",
                                            dtype_name(b.dtype), bl, sl, fractals[fi], cm, (long long)b.rows,
                                            (long long)b.cols, (long long)got, (long long)want);
                                bad += got != want;
                                compared++;
                            }
    CHECK_EQ(bad, 0);
    CHECK(compared > 1000);
    /* by hand: an f16 16x16 box tile, a 17-row one rounds to 32 rows */
    TileBody nz = {.rows = 17, .cols = 16, .dtype = DT_F16, .blayout = BL_COL_MAJOR, .slayout = SL_ROW_MAJOR,
                   .fractal = 512};
    int64_t ir, ic;
    tile_inner_box(&nz, &ir, &ic);
    CHECK_EQ(ir, 16);
    CHECK_EQ(ic, 16);
    CHECK_EQ(target_tile_bytes(&nz), 32 * 16 * 2);

    /* the blayout the rules read: a left tile_buf's is the arch's whatever it writes; a Level 1
     * tile's, and any other space's, the written one */
    for (int w = BL_ROW_MAJOR; w <= BL_COL_MAJOR; w++) {
        Type left = {.kind = TY_TILE_BUF, .tile = {.loc = LOC_LEFT, .blayout = (uint8_t)w}};
        CHECK_EQ(target_rule_blayout(&left, ARCH_A2), BL_ROW_MAJOR);
        CHECK_EQ(target_rule_blayout(&left, ARCH_A3), BL_ROW_MAJOR);
        CHECK_EQ(target_rule_blayout(&left, ARCH_A5), BL_COL_MAJOR);
        Type tile = left, right = left;
        tile.kind = TY_TILE;
        right.tile.loc = LOC_RIGHT;
        CHECK_EQ(target_rule_blayout(&tile, ARCH_A5), w);
        CHECK_EQ(target_rule_blayout(&right, ARCH_A3), w);
        CHECK_EQ(target_rule_blayout(&right, ARCH_A5), w);
    }
    return unit_done();
}
