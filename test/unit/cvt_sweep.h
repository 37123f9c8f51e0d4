/* cvt_sweep.h - tcvt f32 -> f16, bf16, i16 and i32 on every STRIDE-th fp32 pattern against
 * the independent model of ref_vec.h (docs/vector-ops.md, tcvt). The patterns go through
 * ptort_tcvt in 512 x 512 tiles, so the kernels the CPU picks are the ones checked (exhaustive.c
 * runs the sweep once per kernel set). Saturation alternates per tile; i32 takes every pattern
 * in all seven rounding modes (a rounding bug can sit on a single pattern, as ODD's did on
 * -0.49999997), f16, bf16 and i16 one mode per tile, rotating over the seven, so every (mode, saturation)
 * setting sees patterns of every exponent. exhaustive.c runs it with stride 1; test_cvt_sample.c with
 * a large odd stride in `make check`. f32 has no integer destination narrower than i16 (the
 * pto-isa tcvt table); cvt16_sweep covers f16 -> i8 / u8.
 */
#ifndef CVT_SWEEP_H
#define CVT_SWEEP_H

#include <stdio.h>

#include "ptort.h"
#include "ref_vec.h"

static uint64_t cvt_sweep(uint64_t stride, uint64_t *checked)
{
    enum { N = 512 };
    int64_t sizes[PTORT_NUM_LOCS] = {4 << 20, 0, 0, 0, 0, 0, 0};
    ptort_ctx *ctx = ptort_ctx_new(PTORT_A5, sizes);
    if (!ctx)
        return 1;
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, N, N, 0);
    ptort_tile h = ptort_tile_make(PTORT_VEC, PTORT_F16, N, N, 4 * N * N);
    ptort_tile b = ptort_tile_make(PTORT_VEC, PTORT_BF16, N, N, 6 * N * N);
    ptort_tile s = ptort_tile_make(PTORT_VEC, PTORT_I16, N, N, 8 * N * N);
    ptort_tile w = ptort_tile_make(PTORT_VEC, PTORT_I32, N, N, 10 * N * N);
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    uint64_t bad = 0, n = 0, next = 0, end = 1ull << 32, tile = 0;
    while (next < end) {
        uint32_t *x = (uint32_t *)(void *)mem;
        int64_t filled = 0;
        for (; filled < N * N && next < end; filled++, next += stride)
            x[filled] = (uint32_t)next;
        for (int64_t i = filled; i < N * N; i++)
            x[i] = 0;
        int sat = (int)(tile & 1);
        int rm = (int)((tile >> 1) % 7);
        tile++;
        if (ptort_tcvt(ctx, &src, &h, (ptort_rmode)rm, sat, NULL) ||
            ptort_tcvt(ctx, &src, &b, (ptort_rmode)rm, sat, NULL) ||
            ptort_tcvt(ctx, &src, &s, (ptort_rmode)rm, sat, NULL)) {
            fprintf(stderr, "cvt_sweep: %s\n", ptort_error(ctx));
            bad++;
            break;
        }
        const uint16_t *hh = (const uint16_t *)(const void *)(mem + h.addr);
        const uint16_t *bb = (const uint16_t *)(const void *)(mem + b.addr);
        const uint16_t *ss = (const uint16_t *)(const void *)(mem + s.addr);
        const uint32_t *ww = (const uint32_t *)(const void *)(mem + w.addr);
        for (int rm32 = 0; rm32 < 7; rm32++) {
            if (ptort_tcvt(ctx, &src, &w, (ptort_rmode)rm32, sat, NULL)) {
                fprintf(stderr, "cvt_sweep: %s\n", ptort_error(ctx));
                bad++;
                break;
            }
            for (int64_t i = 0; i < filled; i++) {
                double v = unit_u2f(x[i]);
                uint32_t want = ref_f2i(v, rm32, sat, -2147483648.0, 2147483647.0, 32);
                if (ww[i] != want) {
                    if (bad < 10)
                        fprintf(stderr, "cvt mismatch at 0x%08x sat %d rm %d: i32 0x%08x, expected 0x%08x\n",
                                x[i], sat, rm32, ww[i], want);
                    bad++;
                }
            }
            n += (uint64_t)filled;
        }
        for (int64_t i = 0; i < filled; i++) {
            uint32_t p = x[i];
            float f = unit_u2f(p);
            double v = f;
            uint16_t wh, wb;
            /* the modes as docs/numerics.md gives them: NONE is nearest even, and ODD rounds
             * to odd only into f16 */
            int hm = rm == 0 ? 1 : rm, bm = rm == 0 || rm == 6 ? 1 : rm;
            if (sat) {
                /* clamp to the destination's finite range first, NaN to its largest value */
                double hv = isnan(v) || v > 65504.0 ? 65504.0 : v < -65504.0 ? -65504.0 : v;
                double bmax = ref_bf16_val(0x7F7F);
                double bv = isnan(v) || v > bmax ? bmax : v < -bmax ? -bmax : v;
                wh = (uint16_t)ref_round_fmt_rm(hv, 11, -14, 5, hm);
                wb = (uint16_t)ref_round_fmt_rm(bv, 8, -126, 8, bm);
            } else if (isnan(v)) {
                wh = ref_f32_to_f16(p);
                wb = ref_f32_to_bf16(p);
            } else {
                wh = (uint16_t)ref_round_fmt_rm(v, 11, -14, 5, hm);
                wb = (uint16_t)ref_round_fmt_rm(v, 8, -126, 8, bm);
            }
            uint16_t ws = (uint16_t)ref_f2i(v, rm, sat, -32768.0, 32767.0, 16);
            if (hh[i] != wh || bb[i] != wb || ss[i] != ws) {
                if (bad < 10)
                    fprintf(stderr, "cvt mismatch at 0x%08x sat %d rm %d: f16 0x%04x/0x%04x bf16 0x%04x/0x%04x i16 0x%04x/0x%04x\n",
                            p, sat, rm, hh[i], wh, bb[i], wb, ss[i], ws);
                bad++;
            }
            n += 3;
        }
    }
    ptort_ctx_free(ctx);
    *checked = n;
    return bad;
}

#endif
