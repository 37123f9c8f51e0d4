/* bench_runtime.c - throughput of the runtime kernels against memcpy (`make bench`).
 *
 * For each kernel and a realistic tile shape it prints one line
 *   runtime KERNEL SHAPE: X.XX GB/s, Y.YY x memcpy
 * where GB/s counts the source bytes read per op (for tgemv.bias the rhs matrix) and the
 * memcpy figure copies a buffer of the same size in the same run. Each figure is the best of
 * several timed rounds of enough iterations to last a few milliseconds. An argument limits
 * the run to the kernels whose name contains it (`bench_runtime vec.t`). The vector ops: every
 * elementwise op of ptort_vops.def (tile-tile, tile-scalar, unary) in each of f32, f16 and bf16
 * that a5 takes, every row and column reduction in the three, then broadcasts and tcvt pairs;
 * the targets (issue 25): 0.5x memcpy for MXFP8, tdequant, tgemv.bias and the elementwise ops,
 * 0.4x for MXFP4, 0.3x for trsqrt and the reductions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptort.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef int (*KernelFn)(void *arg);

typedef struct {
    uint8_t *src, *dst;
    size_t n;
} Copy;

static int do_copy(void *arg)
{
    Copy *c = arg;
    memcpy(c->dst, c->src, c->n);
    /* keep the copy observable so it is not optimized away */
    __asm__ volatile("" : : "r"(c->dst) : "memory");
    return 0;
}

/* Iterations of FN that last about 2 ms. */
static int calibrate(KernelFn fn, void *arg)
{
    int iters = 1;
    for (;;) {
        double t0 = now();
        for (int i = 0; i < iters; i++)
            if (fn(arg))
                return -1;
        if (now() - t0 > 0.002 || iters > (1 << 24))
            return iters;
        iters *= 2;
    }
}

static double timed(KernelFn fn, void *arg, int iters)
{
    double t0 = now();
    for (int i = 0; i < iters; i++)
        fn(arg);
    return (now() - t0) / iters;
}

static const char *filter;

/* The kernel and memcpy are timed in alternating rounds (so that both see the same machine
 * load) and the best round of each is kept. */
static void report(const char *kernel, const char *shape, KernelFn fn, void *arg, size_t bytes)
{
    if (filter && !strstr(kernel, filter))
        return;
    /* 64-byte aligned buffers: misaligned ones make memcpy erratic on some CPUs. */
    size_t cap = (bytes + 63) / 64 * 64;
    Copy c = {aligned_alloc(64, cap), aligned_alloc(64, cap), bytes};
    memset(c.src, 1, bytes);
    memset(c.dst, 0, bytes);
    int ik = calibrate(fn, arg), ic = calibrate(do_copy, &c);
    if (ik < 0) {
        printf("runtime %s %s: failed\n", kernel, shape);
        return;
    }
    double tk = 1e30, tm = 1e30;
    for (int round = 0; round < 15; round++) {
        double a = timed(fn, arg, ik), b = timed(do_copy, &c, ic);
        tk = a < tk ? a : tk;
        tm = b < tm ? b : tm;
    }
    free(c.src);
    free(c.dst);
    printf("runtime %s %s: %.2f GB/s, %.2f x memcpy\n", kernel, shape, (double)bytes / tk * 1e-9, tm / tk);
    fflush(stdout);
}

/* ---- kernels ---------------------------------------------------------------------- */

typedef struct {
    ptort_ctx *ctx;
    ptort_quant_type qt;
    ptort_scale_alg alg;
    ptort_tile src, dst, exp, max, sc, extra;
} Op;

static int run_mx(void *arg)
{
    Op *o = arg;
    return ptort_tquant_mx(o->ctx, o->qt, o->alg, PTORT_AXIS1, &o->src, &o->dst, &o->exp,
                           &o->max, &o->sc, NULL);
}

static int run_mx_axis0(void *arg)
{
    Op *o = arg;
    return ptort_tquant_mx(o->ctx, o->qt, o->alg, PTORT_AXIS0, &o->src, &o->dst, &o->exp,
                           &o->max, &o->sc, NULL);
}

/* report for an MX op of an M x N source: its error instead when one call fails. */
static void report_mx(const char *name, int64_t m, int64_t n, KernelFn fn, Op *o, size_t bytes)
{
    char shape[32];
    snprintf(shape, sizeof shape, "%lldx%lld", (long long)m, (long long)n);
    if (fn(o)) {
        printf("runtime %s %s: %s\n", name, shape, ptort_error(o->ctx));
        return;
    }
    report(name, shape, fn, o, bytes);
}

static int run_int8(void *arg)
{
    Op *o = arg;
    return ptort_tquant_int8(o->ctx, o->qt, &o->src, &o->exp,
                             o->qt == PTORT_INT8_ASYM ? &o->max : NULL, &o->dst, NULL);
}

static int run_dequant(void *arg)
{
    Op *o = arg;
    return ptort_tdequant(o->ctx, &o->src, &o->exp, &o->max, &o->dst);
}

static int run_gemv(void *arg)
{
    Op *o = arg;
    return ptort_tgemv_bias(o->ctx, &o->src, &o->extra, &o->sc, &o->dst, PTORT_ACC_FINAL);
}

static void fill_random(ptort_ctx *ctx, const ptort_tile *t)
{
    int64_t n = t->rows * t->cols;
    int sz = ptort_dtype_size(t->dtype);
    uint8_t *h = malloc((size_t)(n * sz));
    unsigned s = 1;
    for (int64_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        float v = ((float)((s >> 8) & 0xFFFF) - 32768.0f) / 1024.0f;
        if (t->dtype == PTORT_F32)
            memcpy(h + 4 * i, &v, 4);
        else if (t->dtype == PTORT_F16 || t->dtype == PTORT_BF16) {
            uint16_t b = t->dtype == PTORT_F16 ? ptort_f32_to_f16(v) : ptort_f32_to_bf16(v);
            memcpy(h + 2 * i, &b, 2);
        } else {
            h[i * sz] = (uint8_t)(s >> 16);
        }
    }
    ptort_tile_fill(ctx, t, h, t->rows, t->cols);
    free(h);
}

/* f32 values whose exponents spread over 2^-30 .. 2^30 inside every group of 32: most groups
 * then hold e4m3 subnormals, which the 16-bit-lane MXFP8 encoder hands to the fp32 kernel. */
static void fill_wide(ptort_ctx *ctx, const ptort_tile *t)
{
    int64_t n = t->rows * t->cols;
    uint32_t *h = malloc((size_t)n * 4);
    unsigned s = 7;
    for (int64_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        uint32_t e = 127 - 30 + (s >> 16) % 61, m = (s >> 8) & 0x7FFFFF;
        s = s * 1103515245u + 12345u;
        h[i] = (s >> 31) << 31 | e << 23 | (m ^ (s & 0x7FFF00));
    }
    ptort_tile_fill(ctx, t, h, t->rows, t->cols);
    free(h);
}

static void bench_mx_in(ptort_ctx *ctx, ptort_quant_type qt, ptort_scale_alg alg, ptort_dtype sdt,
                        int64_t m, int64_t n, const char *name, int wide)
{
    Op o;
    memset(&o, 0, sizeof o);
    o.ctx = ctx;
    o.qt = qt;
    o.alg = alg;
    int sz = ptort_dtype_size(sdt), fp4 = qt == PTORT_MXFP4_E2M1;
    int64_t g = n / 32, gc = (g + 31) / 32 * 32;
    int64_t src_bytes = m * n * sz, dst_cols = fp4 ? n / 2 : n;
    o.src = ptort_tile_make(PTORT_VEC, sdt, m, n, 0);
    o.dst = ptort_tile_make(PTORT_VEC, fp4 ? PTORT_F4E2M1X2 : PTORT_F8E4M3FN, m, dst_cols, src_bytes);
    int64_t a = src_bytes + m * dst_cols;
    o.exp = ptort_tile_make(PTORT_VEC, PTORT_U8, m, gc, a);
    o.exp.valid_cols = g;
    a += m * gc;
    int64_t mc = (g * sz + 31) / 32 * 32 / sz;
    o.max = ptort_tile_make(PTORT_VEC, sdt, m, mc, a);
    o.max.valid_cols = g;
    o.sc = o.max;
    o.sc.addr = a + m * mc * sz;
    if (wide)
        fill_wide(ctx, &o.src);
    else
        fill_random(ctx, &o.src);
    report_mx(name, m, n, run_mx, &o, (size_t)src_bytes);
}

static void bench_mx(ptort_ctx *ctx, ptort_quant_type qt, ptort_scale_alg alg, ptort_dtype sdt,
                     int64_t m, int64_t n, const char *name)
{
    bench_mx_in(ctx, qt, alg, sdt, m, n, name, 0);
}

/* bench_mx with column groups (grpAxis axis0): exp, max and scaling are [M/32, N]. */
static void bench_mx_axis0(ptort_ctx *ctx, ptort_quant_type qt, ptort_scale_alg alg, ptort_dtype sdt,
                           int64_t m, int64_t n, const char *name)
{
    Op o;
    memset(&o, 0, sizeof o);
    o.ctx = ctx;
    o.qt = qt;
    o.alg = alg;
    int sz = ptort_dtype_size(sdt), fp4 = qt == PTORT_MXFP4_E2M1;
    int64_t src_bytes = m * n * sz, dst_cols = fp4 ? n / 2 : n;
    o.src = ptort_tile_make(PTORT_VEC, sdt, m, n, 0);
    o.dst = ptort_tile_make(PTORT_VEC, fp4 ? PTORT_F4E2M1X2 : PTORT_F8E4M3FN, m, dst_cols, src_bytes);
    int64_t a = src_bytes + m * dst_cols;
    o.exp = ptort_tile_make(PTORT_VEC, PTORT_U8, m / 32, (n + 31) / 32 * 32, a);
    o.exp.valid_cols = n;
    a += m / 32 * o.exp.cols;
    o.max = ptort_tile_make(PTORT_VEC, sdt, m / 32, n, a);
    o.sc = o.max;
    o.sc.addr = a + m / 32 * n * sz;
    fill_random(ctx, &o.src);
    report_mx(name, m, n, run_mx_axis0, &o, (size_t)src_bytes);
}

static void bench_int8(ptort_ctx *ctx, ptort_quant_type qt, const char *name)
{
    Op o;
    memset(&o, 0, sizeof o);
    o.ctx = ctx;
    o.qt = qt;
    o.src = ptort_tile_make(PTORT_VEC, PTORT_F32, 128, 128, 0);
    o.dst = ptort_tile_make(PTORT_VEC, qt == PTORT_INT8_SYM ? PTORT_I8 : PTORT_U8, 128, 128, 65536);
    o.exp = ptort_tile_make(PTORT_VEC, PTORT_F32, 128, 1, 81920);
    o.exp.blayout = PTORT_BL_COL_MAJOR;
    o.max = o.exp;
    o.max.addr = 81920 + 512;
    fill_random(ctx, &o.src);
    float p[128];
    for (int i = 0; i < 128; i++)
        p[i] = 3.0f + (float)i / 64.0f;
    ptort_tile_fill(ctx, &o.exp, p, 128, 1);
    ptort_tile_fill(ctx, &o.max, p, 128, 1);
    if (run_int8(&o)) {
        printf("runtime %s: %s\n", name, ptort_error(ctx));
        return;
    }
    report(name, "128x128", run_int8, &o, 128 * 128 * 4);
}

static void bench_dequant(ptort_ctx *ctx)
{
    Op o;
    memset(&o, 0, sizeof o);
    o.ctx = ctx;
    o.src = ptort_tile_make(PTORT_VEC, PTORT_I8, 128, 128, 0);
    o.dst = ptort_tile_make(PTORT_VEC, PTORT_F32, 128, 128, 16384);
    o.exp = ptort_tile_make(PTORT_VEC, PTORT_F32, 128, 8, 81920);
    o.exp.valid_cols = 1;
    o.max = o.exp;
    o.max.addr = 81920 + 4096;
    fill_random(ctx, &o.src);
    if (run_dequant(&o)) {
        printf("runtime tdequant: %s\n", ptort_error(ctx));
        return;
    }
    report("tdequant.i8", "128x128", run_dequant, &o, 128 * 128);
}

/* a3 form (row-major rhs) and a5 form (rhs row_major/col_major boxes). */
static void bench_gemv(ptort_ctx *ctx, int a5_layout, const char *name)
{
    enum { K = 512, N = 128 };
    Op o;
    memset(&o, 0, sizeof o);
    o.ctx = ctx;
    o.src = ptort_tile_make(PTORT_LEFT, PTORT_F16, 1, K, 0);
    o.extra = ptort_tile_make(PTORT_RIGHT, PTORT_F16, K, N, 0);
    o.sc = ptort_tile_make(PTORT_BIAS, PTORT_F32, 1, N, 0);
    o.dst = ptort_tile_make(PTORT_ACC, PTORT_F32, 1, N, 0);
    if (a5_layout) {
        o.src.blayout = PTORT_BL_COL_MAJOR;
        o.src.slayout = PTORT_SL_ROW_MAJOR;
        o.extra.slayout = PTORT_SL_COL_MAJOR;
        o.dst.blayout = PTORT_BL_COL_MAJOR;
        o.dst.slayout = PTORT_SL_ROW_MAJOR;
    }
    fill_random(ctx, &o.src);
    fill_random(ctx, &o.extra);
    if (run_gemv(&o)) {
        printf("runtime %s: %s\n", name, ptort_error(ctx));
        return;
    }
    report(name, "K=512 N=128", run_gemv, &o, (size_t)K * N * 2);
}

/* ---- vector ops: one line per op class, 128 x 128 tiles (64 KiB of f32 source) ---------- */

typedef struct {
    ptort_ctx *ctx;
    int kind;                /* 0 binary, 1 unary, 2 scalar, 3 row reduce, 4 col reduce,
                              * 5 row expand, 6 col expand, 7 tcvt, 8 texpands */
    ptort_vop op;
    ptort_rmode rm;
    uint32_t scalar; /* 1.5 in the element type */
    ptort_tile a, b, d;
} VecBench;

static int run_vec(void *arg)
{
    VecBench *v = arg;
    switch (v->kind) {
    case 0: return ptort_vbinary(v->ctx, v->op, &v->a, &v->b, &v->d);
    case 1: return ptort_vunary(v->ctx, v->op, &v->a, &v->d);
    case 2: return ptort_vscalar(v->ctx, v->op, &v->a, v->scalar, &v->d);
    case 3: return ptort_vrowreduce(v->ctx, v->op, &v->a, NULL, &v->d);
    case 4: return ptort_vcolreduce(v->ctx, v->op, &v->a, NULL, &v->d);
    case 5: return ptort_vrowexpand(v->ctx, v->op, &v->a, &v->b, &v->d);
    case 6: return ptort_vcolexpand(v->ctx, v->op, &v->a, &v->b, &v->d);
    case 7: return ptort_tcvt(v->ctx, &v->a, &v->d, v->rm, 0, NULL);
    default: return ptort_texpands(v->ctx, 0x3FC00000u, &v->d);
    }
}

/* NAME on a 128 x 128 source of SDT (dst DDT); BYTES counted = the source tile. */
static void bench_vec(ptort_ctx *ctx, const char *name, int kind, ptort_vop op, ptort_dtype sdt,
                      ptort_dtype ddt)
{
    VecBench v;
    memset(&v, 0, sizeof v);
    v.ctx = ctx;
    v.kind = kind;
    v.op = op;
    v.rm = PTORT_RM_RINT;
    v.scalar = sdt == PTORT_F16 ? 0x3E00u : sdt == PTORT_BF16 ? 0x3FC0u : 0x3FC00000u;
    int64_t n = 128, ssz = ptort_dtype_size(sdt);
    v.a = ptort_tile_make(PTORT_VEC, sdt, n, n, 0);
    v.b = ptort_tile_make(PTORT_VEC, sdt, n, n, 65536);
    v.d = ptort_tile_make(PTORT_VEC, ddt, n, n, 131072);
    if (kind == 3) {
        v.d = ptort_tile_make(PTORT_VEC, ddt, n, 1, 131072);
        v.d.blayout = PTORT_BL_COL_MAJOR;
    } else if (kind == 4) {
        v.d = ptort_tile_make(PTORT_VEC, ddt, 1, n, 131072);
    } else if (kind == 5) {
        v.b = ptort_tile_make(PTORT_VEC, sdt, n, 1, 65536);
        v.b.blayout = PTORT_BL_COL_MAJOR;
    } else if (kind == 6) {
        v.b = ptort_tile_make(PTORT_VEC, sdt, 1, n, 65536);
    }
    fill_random(ctx, &v.a);
    if (kind == 0)
        fill_random(ctx, &v.b);
    if (run_vec(&v)) {
        printf("runtime %s: %s\n", name, ptort_error(ctx));
        return;
    }
    report(name, "128x128", run_vec, &v, (size_t)(n * n * ssz));
}

/* Every elementwise op of ptort_vops.def (tile-tile, tile-scalar, unary) that a5 runs in f32,
 * f16 or bf16, one line per (op, dtype): vec.OP.DTYPE. */
static const struct {
    int kind; /* as VecBench.kind */
    ptort_vop op;
    const char *name;
    unsigned dtypes; /* every arch | a5 only */
} vops[] = {
#define PTORT_VK(entry, id, name, dt, a5) {VK_KIND_##entry, PTORT_VOP_##id, name, (dt) | (a5)},
#define VK_KIND_vbinary 0
#define VK_KIND_vunary 1
#define VK_KIND_vscalar 2
#define VK_KIND_vrowreduce 3
#define VK_KIND_vcolreduce 4
#define VK_KIND_vrowexpand 5
#define VK_KIND_vcolexpand 6
#define VK_KIND_vrowarg 9
#define VK_KIND_vcolarg 9
#include "ptort_vops.def"
};

static void bench_elementwise(ptort_ctx *a5)
{
    static const ptort_dtype fdt[] = {PTORT_F32, PTORT_F16, PTORT_BF16};
    for (size_t i = 0; i < sizeof vops / sizeof vops[0]; i++) {
        if (vops[i].kind > 2)
            continue;
        for (int d = 0; d < 3; d++) {
            if (!(vops[i].dtypes & (1u << fdt[d])))
                continue;
            char name[64];
            snprintf(name, sizeof name, "vec.%s.%s", vops[i].name, ptort_dtype_name(fdt[d]));
            bench_vec(a5, name, vops[i].kind, vops[i].op, fdt[d], fdt[d]);
        }
    }
}

/* The row and column reductions, source and destination of one float type. */
static void bench_reductions(ptort_ctx *a5)
{
    static const ptort_dtype fdt[] = {PTORT_F32, PTORT_F16, PTORT_BF16};
    static const ptort_vop ops[] = {PTORT_VOP_SUM, PTORT_VOP_MAX, PTORT_VOP_MIN};
    static const char *const names[] = {"sum", "max", "min"};
    for (int kind = 3; kind <= 4; kind++)
        for (int o = 0; o < 3; o++)
            for (int d = 0; d < 3; d++) {
                char name[64];
                snprintf(name, sizeof name, "vec.t%s%s.%s", kind == 3 ? "row" : "col", names[o],
                         ptort_dtype_name(fdt[d]));
                bench_vec(a5, name, kind, ops[o], fdt[d], fdt[d]);
            }
}

static void bench_vector_ops(ptort_ctx *a5)
{
    bench_elementwise(a5);
    bench_reductions(a5);
    bench_vec(a5, "vec.trowsum.f16.f32", 3, PTORT_VOP_SUM, PTORT_F16, PTORT_F32);
    bench_vec(a5, "vec.texpands.f32", 8, PTORT_VOP_ADD, PTORT_F32, PTORT_F32);
    bench_vec(a5, "vec.trowexpandmul.f32", 5, PTORT_VOP_MUL, PTORT_F32, PTORT_F32);
    bench_vec(a5, "vec.tcolexpandmul.f32", 6, PTORT_VOP_MUL, PTORT_F32, PTORT_F32);
    bench_vec(a5, "vec.tcvt.f32.f16", 7, PTORT_VOP_ADD, PTORT_F32, PTORT_F16);
    bench_vec(a5, "vec.tcvt.f32.bf16", 7, PTORT_VOP_ADD, PTORT_F32, PTORT_BF16);
    bench_vec(a5, "vec.tcvt.f32.i32.rint", 7, PTORT_VOP_ADD, PTORT_F32, PTORT_I32);
    bench_vec(a5, "vec.tcvt.f16.i8.rint", 7, PTORT_VOP_ADD, PTORT_F16, PTORT_I8);
    bench_vec(a5, "vec.tcvt.f16.f32", 7, PTORT_VOP_ADD, PTORT_F16, PTORT_F32);
}

int main(int argc, char **argv)
{
    filter = argc > 1 ? argv[1] : NULL;
    ptort_ctx *a5 = ptort_ctx_new(PTORT_A5, NULL);
    /* The K=512 x N=128 f16 rhs is 128 KiB: give L0B room for it (--mem-size right=...). */
    int64_t sizes[PTORT_NUM_LOCS] = {0, 0, 0, 262144, 0, 0, 0};
    ptort_ctx *a3big = ptort_ctx_new(PTORT_A3, sizes);
    ptort_ctx *a5big = ptort_ctx_new(PTORT_A5, sizes);
    if (!a5 || !a3big || !a5big)
        return 1;
    bench_mx(a5, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, 64, 128, "tquant.mxfp8.ocp.f32");
    bench_mx(a5, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, 128, 256, "tquant.mxfp8.ocp.f32");
    bench_mx_in(a5, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, 64, 128, "tquant.mxfp8.ocp.f32.wide", 1);
    bench_mx(a5, PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, 64, 128, "tquant.mxfp8.nv.f32");
    bench_mx(a5, PTORT_MXFP8, PTORT_SCALE_NV, PTORT_F32, 128, 256, "tquant.mxfp8.nv.f32");
    bench_mx(a5, PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_F16, 64, 128, "tquant.mxfp4.ocp.f16");
    bench_mx(a5, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_BF16, 64, 128, "tquant.mxfp8.ocp.bf16");
    bench_mx(a5, PTORT_MXFP4_E2M1, PTORT_SCALE_NV, PTORT_BF16, 64, 128, "tquant.mxfp4.nv.bf16");
    bench_mx_axis0(a5, PTORT_MXFP8, PTORT_SCALE_OCP, PTORT_F32, 64, 128, "tquant.mxfp8.ocp.f32.axis0");
    bench_mx_axis0(a5, PTORT_MXFP4_E2M1, PTORT_SCALE_OCP, PTORT_F16, 64, 128, "tquant.mxfp4.ocp.f16.axis0");
    bench_int8(a5, PTORT_INT8_SYM, "tquant.int8_sym.f32");
    bench_int8(a5, PTORT_INT8_ASYM, "tquant.int8_asym.f32");
    bench_dequant(a5);
    bench_gemv(a3big, 0, "tgemv.bias.f16");
    bench_gemv(a5big, 1, "tgemv.bias.f16.a5");
    bench_vector_ops(a5);
    ptort_ctx_free(a5);
    ptort_ctx_free(a3big);
    ptort_ctx_free(a5big);
    return 0;
}
