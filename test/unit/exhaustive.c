/* exhaustive.c - checks the runtime's e4m3 and e2m1 encoders against the reference of
 * ref_fp.h on every fp32 bit pattern (or every Nth with --stride N), tcvt f32 -> f16, bf16,
 * i16 and i32 on every pattern (i32 in all seven rmodes) and f16 -> i8 / u8 on every f16
 * pattern in every rmode and saturation setting, the tcvt sweeps once per kernel set
 * (AVX-512 where the CPU has it, AVX2, portable); trsqrt f32 on every pattern against the
 * simulator's formula (a3) and A5's root-then-division (a5), and the f16 / bf16 binary ops on every pair of patterns (every Nth
 * right operand) on the CPU's widest kernel set against the portable one. `make test-exhaustive` runs it with
 * --stride 1. Exit status 0 iff there is no mismatch.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptort.h"
#include "ref_fp.h"
#include "cvt_sweep.h"

extern int ptort_cpu_cap;

/* 0 = best available, 1 = AVX2 at most, 2 = portable */
static void set_path(int p)
{
    ptort_cpu_cap = p;
}

/* tcvt f16 -> i8 and f16 -> u8 on all 65536 f16 patterns, every rmode, with and without
 * saturation, against ref_f2i (the value of an f16 pattern is exact in a double). */
static uint64_t cvt16_sweep(uint64_t *checked)
{
    /* the u8 result ends at 256 KiB, past a5's 253952-byte vec: room as --mem-size */
    int64_t sizes[PTORT_NUM_LOCS] = {262144, 0, 0, 0, 0, 0, 0};
    ptort_ctx *ctx = ptort_ctx_new(PTORT_A5, sizes);
    if (!ctx)
        return 1;
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F16, 256, 256, 0);
    ptort_tile d8 = ptort_tile_make(PTORT_VEC, PTORT_I8, 256, 256, 131072);
    ptort_tile u8 = ptort_tile_make(PTORT_VEC, PTORT_U8, 256, 256, 196608);
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    for (int i = 0; i < 65536; i++) {
        uint16_t h = (uint16_t)i;
        memcpy(mem + 2 * i, &h, 2);
    }
    uint64_t bad = 0, n = 0;
    for (int rm = 0; rm < 7; rm++)
        for (int sat = 0; sat < 2; sat++) {
            if (ptort_tcvt(ctx, &src, &d8, (ptort_rmode)rm, sat, NULL) ||
                ptort_tcvt(ctx, &src, &u8, (ptort_rmode)rm, sat, NULL)) {
                fprintf(stderr, "cvt16_sweep: %s\n", ptort_error(ctx));
                ptort_ctx_free(ctx);
                return bad + 1;
            }
            for (int i = 0; i < 65536; i++) {
                double v = ref_f16_val((uint16_t)i);
                uint8_t ws = (uint8_t)ref_f2i(v, rm, sat, -128.0, 127.0, 8);
                uint8_t wu = (uint8_t)ref_f2i(v, rm, sat, 0.0, 255.0, 8);
                uint8_t gs = mem[d8.addr + i], gu = mem[u8.addr + i];
                if (gs != ws || gu != wu) {
                    if (bad < 10)
                        fprintf(stderr, "cvt16 mismatch at f16 0x%04x rm %d sat %d: i8 0x%02x/0x%02x u8 0x%02x/0x%02x\n",
                                i, rm, sat, gs, ws, gu, wu);
                    bad++;
                }
                n += 2;
            }
        }
    ptort_ctx_free(ctx);
    *checked = n;
    return bad;
}

/* trsqrt f32 on every STRIDE-th pattern, 2^18 per call, with the kernels the CPU picks, per
 * arch (docs/numerics.md 8.2): on a3 the simulator's (float)(1.0 / sqrt((double)x)), on a5
 * vsqrt then vdiv, each rounded to f32 (binary64 results rounded to f32, which double
 * rounding leaves correct for sqrt and division: 53 >= 2 * 24 + 2), bit for bit. */
static uint64_t rsqrt_sweep_arch(ptort_arch arch, uint64_t stride, uint64_t *checked)
{
    enum { N = 512 };
    int64_t sizes[PTORT_NUM_LOCS] = {4 << 20, 0, 0, 0, 0, 0, 0};
    ptort_ctx *ctx = ptort_ctx_new(arch, sizes);
    if (!ctx)
        return 1;
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, N, N, 0);
    ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_F32, N, N, 4 * N * N);
    uint32_t *x = (uint32_t *)(void *)ptort_mem(ctx, PTORT_VEC, NULL), *y = x + N * N;
    uint64_t bad = 0, n = 0, next = 0, end = 1ull << 32;
    while (next < end) {
        int64_t filled = 0;
        for (; filled < N * N && next < end; filled++, next += stride)
            x[filled] = (uint32_t)next;
        for (int64_t i = filled; i < N * N; i++)
            x[i] = 0;
        if (ptort_vunary(ctx, PTORT_VOP_RSQRT, &src, &dst)) {
            fprintf(stderr, "rsqrt_sweep: %s\n", ptort_error(ctx));
            bad++;
            break;
        }
        for (int64_t i = 0; i < filled; i++) {
            float f;
            memcpy(&f, &x[i], 4);
            float r = arch == PTORT_A5 ? (float)(1.0 / (double)(float)sqrt((double)f))
                                       : (float)(1.0 / sqrt((double)f));
            uint32_t want;
            memcpy(&want, &r, 4);
            if (y[i] != want && bad++ < 10)
                fprintf(stderr, "trsqrt %s mismatch at 0x%08x: 0x%08x want 0x%08x\n",
                        arch == PTORT_A5 ? "a5" : "a3", x[i], y[i], want);
        }
        n += (uint64_t)filled;
    }
    ptort_ctx_free(ctx);
    *checked = n;
    return bad;
}

static uint64_t rsqrt_sweep(uint64_t stride, uint64_t *checked)
{
    uint64_t c3 = 0, c5 = 0;
    uint64_t bad = rsqrt_sweep_arch(PTORT_A3, stride, &c3) + rsqrt_sweep_arch(PTORT_A5, stride, &c5);
    *checked = c3 + c5;
    return bad;
}

/* tadd, tsub, tmul, tdiv, tmax and tmin on f16 and bf16: every left operand against every
 * STRIDE-th right operand, the widest kernel set against the portable one, byte for byte. */
static uint64_t binary16_sweep(uint64_t stride, uint64_t *checked)
{
    int64_t sizes[PTORT_NUM_LOCS] = {4 << 20, 0, 0, 0, 0, 0, 0};
    ptort_ctx *ctx = ptort_ctx_new(PTORT_A5, sizes);
    if (!ctx)
        return 1;
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    uint16_t *xa = (uint16_t *)(void *)mem, *xb = xa + 65536;
    const uint8_t *d0 = mem + 4 * 65536, *d1 = mem + 6 * 65536;
    uint64_t bad = 0, n = 0;
    for (int i = 0; i < 65536; i++)
        xa[i] = (uint16_t)i;
    for (int bf = 0; bf < 2; bf++) {
        ptort_dtype dt = bf ? PTORT_BF16 : PTORT_F16;
        ptort_tile a = ptort_tile_make(PTORT_VEC, dt, 256, 256, 0);
        ptort_tile b = ptort_tile_make(PTORT_VEC, dt, 256, 256, 2 * 65536);
        ptort_tile d[2] = {ptort_tile_make(PTORT_VEC, dt, 256, 256, 4 * 65536),
                           ptort_tile_make(PTORT_VEC, dt, 256, 256, 6 * 65536)};
        for (uint64_t yv = 0; yv < 65536; yv += stride) {
            for (int i = 0; i < 65536; i++)
                xb[i] = (uint16_t)yv;
            for (int op = PTORT_VOP_ADD; op <= PTORT_VOP_MIN; op++) {
                for (int path = 0; path < 2; path++) {
                    ptort_cpu_cap = path ? 2 : 0;
                    if (ptort_vbinary(ctx, (ptort_vop)op, &a, &b, &d[path])) {
                        fprintf(stderr, "binary16_sweep: %s\n", ptort_error(ctx));
                        ptort_cpu_cap = 0;
                        ptort_ctx_free(ctx);
                        return bad + 1;
                    }
                }
                ptort_cpu_cap = 0;
                if (memcmp(d0, d1, 2 * 65536) != 0) {
                    for (int i = 0; i < 65536; i++) {
                        uint16_t g, w;
                        memcpy(&g, d0 + 2 * i, 2);
                        memcpy(&w, d1 + 2 * i, 2);
                        if (g != w && bad++ < 10)
                            fprintf(stderr, "%s op %d 0x%04x, 0x%04x: 0x%04x, portable 0x%04x\n",
                                    bf ? "bf16" : "f16", op, i, (unsigned)yv, g, w);
                    }
                }
                n += 65536;
            }
        }
    }
    ptort_ctx_free(ctx);
    *checked = n;
    return bad;
}

/* The MXFP8 row kernel (the AVX2 one where the CPU has it) on every pattern p with
 * |p| <= 0x43FFFFFF (all of e4m3's rounding and saturation range, NaN excluded): groups of
 * 32 hold 0x43FFFFFF (so OCP e = 127 and the scale is exactly 1) and 31 patterns, whose
 * codes must equal the scalar encoder's (itself checked against the reference above). */
static uint64_t kernel_compare(uint64_t stride, uint64_t *checked)
{
    enum { M = 64, N = 128, G = N / 32 };
    ptort_ctx *ctx = ptort_ctx_new(PTORT_A5, NULL);
    if (!ctx)
        return 1;
    ptort_tile src = ptort_tile_make(PTORT_VEC, PTORT_F32, M, N, 0);
    ptort_tile dst = ptort_tile_make(PTORT_VEC, PTORT_F8E4M3FN, M, N, M * N * 4);
    ptort_tile ex = ptort_tile_make(PTORT_VEC, PTORT_U8, M, 32, M * N * 5);
    ex.valid_cols = G;
    ptort_tile mx = ptort_tile_make(PTORT_VEC, PTORT_F32, M, 8, M * N * 5 + M * 32);
    mx.valid_cols = G;
    ptort_tile sc = mx;
    sc.addr = mx.addr + M * 32;
    uint8_t *mem = ptort_mem(ctx, PTORT_VEC, NULL);
    uint32_t *x = (uint32_t *)(void *)mem;
    const uint8_t *codes = mem + dst.addr;
    uint64_t bad = 0, n = 0, next = 0, end = 1ull << 32;
    while (next < end) {
        int64_t filled = 0;
        for (int64_t i = 0; i < M * N; i++) {
            uint32_t b = 0;
            if (i % 32 == 0) {
                b = 0x43FFFFFFu;
            } else {
                while (next < end && ((uint32_t)next & 0x7FFFFFFFu) > 0x43FFFFFFu)
                    next = (next | 0x7FFFFFFFu) + 1;          /* skip to the negative half */
                if (next < end) {
                    b = (uint32_t)next;
                    next += stride;
                    filled = i + 1;
                }
            }
            x[i] = b;
        }
        if (ptort_tquant_mx(ctx, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_AXIS1, &src, &dst, &ex,
                            &mx, &sc, NULL) != PTORT_OK) {
            fprintf(stderr, "kernel_compare: %s\n", ptort_error(ctx));
            bad++;
            break;
        }
        for (int64_t i = 0; i < filled; i++) {
            if (i % 32 == 0)
                continue;
            float f;
            memcpy(&f, &x[i], 4);
            uint8_t want = ptort_f32_to_e4m3(f);
            n++;
            if (codes[i] != want) {
                if (bad < 5)
                    fprintf(stderr, "kernel mismatch at 0x%08x: 0x%02x (scalar 0x%02x)\n", x[i],
                            codes[i], want);
                bad++;
            }
        }
    }
    ptort_ctx_free(ctx);
    *checked = n;
    return bad;
}

int main(int argc, char **argv)
{
    uint64_t stride = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc) {
            char *end;
            stride = strtoull(argv[++i], &end, 10);
            if (*end || stride == 0) {
                fprintf(stderr, "exhaustive: --stride needs a positive integer\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: exhaustive [--stride N]\n");
            return 2;
        }
    }
    uint64_t checked = 0;
    uint64_t bad = ref_compare(stride, &checked);
    printf("exhaustive (stride %llu): %llu encodings checked, %llu mismatches\n",
           (unsigned long long)stride, (unsigned long long)checked, (unsigned long long)bad);
    uint64_t kchecked = 0, kbad = kernel_compare(stride, &kchecked);
    printf("exhaustive (stride %llu): %llu MXFP8 kernel encodings checked, %llu mismatches\n",
           (unsigned long long)stride, (unsigned long long)kchecked, (unsigned long long)kbad);
    static const char *const paths[] = {"best", "avx2", "portable"};
    uint64_t cbad = 0;
    for (int p = 0; p < 3; p++) {
        set_path(p);
        uint64_t cchecked = 0, b = cvt_sweep(stride, &cchecked);
        printf("exhaustive (stride %llu, %s kernels): %llu tcvt f32 -> f16/bf16/i16/i32 conversions checked, %llu mismatches\n",
               (unsigned long long)stride, paths[p], (unsigned long long)cchecked, (unsigned long long)b);
        uint64_t hchecked = 0, hb = cvt16_sweep(&hchecked);
        printf("exhaustive (%s kernels): %llu tcvt f16 -> i8/u8 conversions checked (7 rmodes, sat on/off), %llu mismatches\n",
               paths[p], (unsigned long long)hchecked, (unsigned long long)hb);
        cbad += b + hb;
        fflush(stdout);
    }
    set_path(0);
    uint64_t rchecked = 0, rbad = rsqrt_sweep(stride, &rchecked);
    printf("exhaustive (stride %llu): %llu trsqrt f32 results checked, %llu mismatches\n",
           (unsigned long long)stride, (unsigned long long)rchecked, (unsigned long long)rbad);
    uint64_t bchecked = 0, bbad = binary16_sweep(stride, &bchecked);
    printf("exhaustive (stride %llu): %llu f16/bf16 binary results checked against the portable kernels, %llu mismatches\n",
           (unsigned long long)stride, (unsigned long long)bchecked, (unsigned long long)bbad);
    return bad || kbad || cbad || rbad || bbad ? 1 : 0;
}
