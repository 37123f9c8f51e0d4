/* bench_matmul.c - the cube's products against the machine's BLAS (`make bench`).
 *
 * For tmatmul with f16, bf16, f32 and i8 inputs at M x N x K = 16x16x16, 64x64x64 and
 * 128x256x64 it prints one line
 *   runtime tmatmul.f16 M=128 N=256 K=64: X.XX GFLOP/s, Y.YY x BLAS (Z.ZZ GFLOP/s)
 * where a FLOP is one multiply or one add (2 M N K per op) and the BLAS figure is OpenBLAS's
 * cblas_sgemm on binary32 copies of the same matrices, single-threaded as the runtime is,
 * timed in the same run. The runtime's tiles use the A2/A3 cube layouts of PTOAS's sample
 * kernels (lhs ZZ, rhs ZN, acc NZ), so the figure includes widening the operands out of their
 * fractals and writing dst back into its own. Each figure is the best of several timed rounds
 * of about 2 ms. An argument limits the run to the lines whose name contains it.
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptort.h"

void openblas_set_num_threads(int num_threads);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    ptort_ctx *ctx;
    ptort_tile a, b, c;
    float *fa, *fb, *fc;
    int m, n, k;
} Mm;

static int run_pto(Mm *o)
{
    return ptort_tmatmul(o->ctx, NULL, &o->a, NULL, &o->b, NULL, NULL, &o->c, PTORT_ACC_UNSPECIFIED) != PTORT_OK;
}

static int run_blas(Mm *o)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, o->m, o->n, o->k, 1.0f, o->fa, o->k, o->fb, o->n, 0.0f,
                o->fc, o->n);
    __asm__ volatile("" : : "r"(o->fc) : "memory");
    return 0;
}

/* Best seconds per call of FN over rounds of about 2 ms each. */
static double best(int (*fn)(Mm *), Mm *o)
{
    int iters = 1;
    for (;;) {
        double t0 = now();
        for (int i = 0; i < iters; i++)
            if (fn(o))
                return -1;
        if (now() - t0 > 0.002 || iters > (1 << 24))
            break;
        iters *= 2;
    }
    double t = 1e30;
    for (int round = 0; round < 10; round++) {
        double t0 = now();
        for (int i = 0; i < iters; i++)
            fn(o);
        double d = (now() - t0) / iters;
        t = d < t ? d : t;
    }
    return t;
}

/* Random values of DT in [-4, 4) (i8: any) into the valid region of tile T and their binary32
 * values into F (row-major). */
static void fill(ptort_ctx *ctx, const ptort_tile *t, float *f, unsigned seed)
{
    int64_t n = t->valid_rows * t->valid_cols;
    int sz = ptort_dtype_size(t->dtype);
    uint8_t *h = malloc((size_t)(n * sz));
    for (int64_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        float v = ((float)((seed >> 8) & 0xFFFF) - 32768.0f) / 8192.0f;
        if (t->dtype == PTORT_I8) {
            int8_t q = (int8_t)(seed >> 16);
            h[i] = (uint8_t)q;
            v = q;
        } else if (t->dtype == PTORT_F32) {
            memcpy(h + 4 * i, &v, 4);
        } else {
            uint16_t b = t->dtype == PTORT_F16 ? ptort_f32_to_f16(v) : ptort_f32_to_bf16(v);
            memcpy(h + 2 * i, &b, 2);
            v = t->dtype == PTORT_F16 ? ptort_f16_to_f32(b) : ptort_bf16_to_f32(b);
        }
        f[i] = v;
    }
    ptort_tile_fill(ctx, t, h, t->valid_rows, t->valid_cols);
    free(h);
}

static void bench(ptort_ctx *ctx, const char *filter, ptort_dtype dt, const char *name, int m, int n, int k)
{
    char line[96];
    snprintf(line, sizeof line, "tmatmul.%s M=%d N=%d K=%d", name, m, n, k);
    if (filter && !strstr(line, filter))
        return;
    int kp = dt == PTORT_I8 ? (k + 31) / 32 * 32 : k;       /* i8 boxes are 32 wide along k */
    Mm o = {ctx, ptort_tile_make(PTORT_LEFT, dt, m, kp, 0), ptort_tile_make(PTORT_RIGHT, dt, kp, n, 0),
            ptort_tile_make(PTORT_ACC, dt == PTORT_I8 ? PTORT_I32 : PTORT_F32, m, n, 0),
            malloc(sizeof(float) * (size_t)(m * k)), malloc(sizeof(float) * (size_t)(k * n)),
            malloc(sizeof(float) * (size_t)(m * n)), m, n, k};
    o.a.valid_cols = o.b.valid_rows = k;
    o.a.slayout = PTORT_SL_ROW_MAJOR;                       /* ZZ */
    o.b.slayout = PTORT_SL_COL_MAJOR;                       /* ZN */
    o.c.blayout = PTORT_BL_COL_MAJOR;                       /* NZ, 16 x 16 boxes */
    o.c.slayout = PTORT_SL_ROW_MAJOR;
    o.c.fractal = 1024;
    fill(ctx, &o.a, o.fa, 1);
    fill(ctx, &o.b, o.fb, 2);
    double tp = run_pto(&o) ? -1 : best(run_pto, &o), tb = best(run_blas, &o);
    double flop = 2.0 * m * n * k;
    if (tp < 0)
        printf("runtime %s: failed: %s\n", line, ptort_error(ctx));
    else
        printf("runtime %s: %.2f GFLOP/s, %.2f x BLAS (%.2f GFLOP/s)\n", line, flop / tp * 1e-9, tb / tp,
               flop / tb * 1e-9);
    fflush(stdout);
    free(o.fa);
    free(o.fb);
    free(o.fc);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    openblas_set_num_threads(1);
    ptort_ctx *ctx = ptort_ctx_new(PTORT_A3, NULL);
    if (!ctx)
        return 1;
    static const struct {
        ptort_dtype dt;
        const char *name;
    } types[] = {{PTORT_F16, "f16"}, {PTORT_BF16, "bf16"}, {PTORT_F32, "f32"}, {PTORT_I8, "i8"}};
    static const int shapes[][3] = {{16, 16, 16}, {64, 64, 64}, {128, 256, 64}};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            bench(ctx, filter, types[t].dt, types[t].name, shapes[s][0], shapes[s][1], shapes[s][2]);
    ptort_ctx_free(ctx);
    return 0;
}
