/* test_matmul.c - ptort_tmatmul / ptort_tgemv (docs/cube.md): the worked values of cube.md
 * 3.4, the default NaN, the three fp32 kernel sets against fmaf chains computed here over
 * shapes that hit every block and tail, and the runtime's errors. */
#include <math.h>
#include <stdlib.h>
#include "ptort.h"
#include "unit.h"

extern int ptort_cpu_cap;

typedef struct {
    ptort_tile a, b, c, x;
} T;

/* Row-major none_box tiles: lhs M x K, rhs K x N, dst / acc_in M x N (i32 when DT is i8). */
static T tiles(ptort_dtype dt, int64_t m, int64_t k, int64_t n)
{
    ptort_dtype acc = dt == PTORT_I8 ? PTORT_I32 : PTORT_F32;
    T t = {ptort_tile_make(PTORT_LEFT, dt, m, k, 0), ptort_tile_make(PTORT_RIGHT, dt, k, n, 0),
           ptort_tile_make(PTORT_ACC, acc, m, n, 0), ptort_tile_make(PTORT_ACC, acc, m, n, 65536)};
    return t;
}

static void worked_values(ptort_ctx *c)
{
    /* f32: one rounding per step gives 2^-24; + acc_in 1 is a tie, to the even 1 */
    float a[3] = {-1.0f, 1.0f + 0x1p-12f, 1.0f}, b[3] = {1.0f + 0x1p-11f, 1.0f + 0x1p-12f, 0.0f}, one = 1.0f, out;
    T t = tiles(PTORT_F32, 1, 3, 1);
    t.a.cols = t.b.cols = t.c.cols = t.x.cols = 8;    /* 32-byte rows */
    t.a.valid_cols = 3;
    t.b.valid_cols = t.c.valid_cols = t.x.valid_cols = 1;
    CHECK(ptort_tile_fill(c, &t.a, a, 1, 3) == PTORT_OK);
    CHECK(ptort_tile_fill(c, &t.b, b, 3, 1) == PTORT_OK);
    CHECK(ptort_tile_fill(c, &t.x, &one, 1, 1) == PTORT_OK);
    CHECK(ptort_tmatmul(c, NULL, &t.a, NULL, &t.b, NULL, NULL, &t.c, PTORT_ACC_UNSPECIFIED) == PTORT_OK);
    ptort_tile_read(c, &t.c, &out, 1, 1);
    CHECK_EQ(unit_f2u(out), unit_f2u(0x1p-24f));
    CHECK(ptort_tmatmul(c, &t.x, &t.a, NULL, &t.b, NULL, NULL, &t.c, PTORT_ACC_FINAL) == PTORT_OK);
    ptort_tile_read(c, &t.c, &out, 1, 1);
    CHECK_EQ(unit_f2u(out), unit_f2u(1.0f));
    /* a signalling NaN with a payload comes out as the default NaN */
    uint32_t snan = 0xFF811111u;
    CHECK(ptort_tile_fill(c, &t.a, &snan, 1, 1) == PTORT_OK);
    CHECK(ptort_tgemv(c, NULL, &t.a, NULL, &t.b, NULL, NULL, &t.c, PTORT_ACC_UNSPECIFIED) == PTORT_OK);
    ptort_tile_read(c, &t.c, &out, 1, 1);
    CHECK_EQ(unit_f2u(out), 0x7FC00000u);
    /* i8: 127 * -128 + -128 * -128 = 128, + 2147483647 wraps */
    int8_t ia[32] = {127, -128}, ib[2] = {-128, -128};
    int32_t ix = 2147483647, io;
    T u = tiles(PTORT_I8, 1, 32, 1);
    u.a.valid_cols = u.b.valid_rows = 2;
    u.b.cols = 32, u.b.valid_cols = 1;
    u.c.cols = u.x.cols = 8, u.c.valid_cols = u.x.valid_cols = 1;
    CHECK(ptort_tile_fill(c, &u.a, ia, 1, 2) == PTORT_OK);
    CHECK(ptort_tile_fill(c, &u.b, ib, 2, 1) == PTORT_OK);
    CHECK(ptort_tile_fill(c, &u.x, &ix, 1, 1) == PTORT_OK);
    CHECK(ptort_tmatmul(c, &u.x, &u.a, NULL, &u.b, NULL, NULL, &u.c, PTORT_ACC_PARTIAL) == PTORT_OK);
    ptort_tile_read(c, &u.c, &io, 1, 1);
    CHECK_EQ((uint32_t)io, (uint32_t)-2147483521);
}

/* MX on A5: 1.5 (e4m3 0x3C) * 2 (e5m2 0x40) * 2^-1 * 2^3 = 12; a scale of 0xFF is NaN */
static void mx_value(ptort_ctx *c)
{
    uint8_t a[64] = {0x3C}, b[64] = {0x40}, sa[2] = {126, 127}, sb[2] = {130, 127};
    ptort_tile ta = ptort_tile_make(PTORT_LEFT, PTORT_F8E4M3FN, 1, 64, 0);
    ptort_tile tb = ptort_tile_make(PTORT_RIGHT, PTORT_F8E5M2, 64, 32, 0);
    ptort_tile tsa = ptort_tile_make(PTORT_SCALING, PTORT_U8, 1, 32, 0);
    ptort_tile tsb = ptort_tile_make(PTORT_SCALING, PTORT_U8, 2, 32, 64);
    ptort_tile tc = ptort_tile_make(PTORT_ACC, PTORT_F32, 1, 8, 0);
    ta.valid_cols = 1, tb.valid_rows = 1, tb.valid_cols = 1, tc.valid_cols = 1;
    tsa.valid_cols = 1, tsb.valid_rows = 1, tsb.valid_cols = 1;
    float out;
    CHECK(ptort_tile_fill(c, &ta, a, 1, 1) == PTORT_OK);
    CHECK(ptort_tile_fill(c, &tb, b, 1, 1) == PTORT_OK);
    CHECK(ptort_tile_fill(c, &tsa, sa, 1, 1) == PTORT_OK);
    CHECK(ptort_tile_fill(c, &tsb, sb, 1, 1) == PTORT_OK);
    CHECK(ptort_tmatmul(c, NULL, &ta, &tsa, &tb, &tsb, NULL, &tc, PTORT_ACC_UNSPECIFIED) == PTORT_OK);
    ptort_tile_read(c, &tc, &out, 1, 1);
    CHECK_EQ(unit_f2u(out), unit_f2u(12.0f));
    tsb.dtype = PTORT_I8;                             /* the byte 130 (0x82) of an i8 tile is 130 */
    CHECK(ptort_tmatmul(c, NULL, &ta, &tsa, &tb, &tsb, NULL, &tc, PTORT_ACC_UNSPECIFIED) == PTORT_OK);
    ptort_tile_read(c, &tc, &out, 1, 1);
    CHECK_EQ(unit_f2u(out), unit_f2u(12.0f));
    sa[0] = 0xFF;
    CHECK(ptort_tile_fill(c, &tsa, sa, 1, 1) == PTORT_OK);
    CHECK(ptort_tgemv(c, NULL, &ta, &tsa, &tb, &tsb, NULL, &tc, PTORT_ACC_UNSPECIFIED) == PTORT_OK);
    ptort_tile_read(c, &tc, &out, 1, 1);
    CHECK_EQ(unit_f2u(out), 0x7FC00000u);
}

/* Every kernel set (AVX-512, AVX2, portable) gives the fmaf chains' bits, over shapes with
 * whole 4 x 64 blocks, column tails of 1 .. 15 and row tails. */
static void kernel_sets(ptort_ctx *c)
{
    static const int64_t shapes[][3] = {{1, 1, 1}, {4, 7, 64}, {5, 64, 65}, {21, 33, 72}, {8, 16, 130}, {3, 5, 15}};
    enum { MAXE = 64 * 136 };
    static float a[MAXE], b[MAXE], out[MAXE];
    unsigned seed = 99;
    for (int i = 0; i < MAXE; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t e = 127 - 20 + (seed >> 16) % 41;
        a[i] = unit_u2f((seed >> 31) << 31 | e << 23 | ((seed >> 5) & 0x7FFFFF));
        seed = seed * 1103515245u + 12345u;
        b[i] = unit_u2f((seed >> 31) << 31 | (e ^ 3) << 23 | ((seed >> 7) & 0x7FFFFF));
    }
    int bad = 0;
    for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int cap = 0; cap < 3; cap++) {
            ptort_cpu_cap = cap;
            int64_t m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
            T t = tiles(PTORT_F32, 32, 64, 136);
            t.a.valid_rows = t.c.valid_rows = m;
            t.a.valid_cols = t.b.valid_rows = k;
            t.b.valid_cols = t.c.valid_cols = n;
            t.c.addr = 32768;
            CHECK(ptort_tile_fill(c, &t.a, a, m, k) == PTORT_OK);
            CHECK(ptort_tile_fill(c, &t.b, b, k, n) == PTORT_OK);
            CHECK(ptort_tmatmul(c, NULL, &t.a, NULL, &t.b, NULL, NULL, &t.c, PTORT_ACC_UNSPECIFIED) == PTORT_OK);
            ptort_tile_read(c, &t.c, out, m, n);
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    float acc = 0.0f;
                    for (int64_t kk = 0; kk < k; kk++)
                        acc = fmaf(a[i * k + kk], b[kk * n + j], acc);
                    bad += unit_f2u(out[i * n + j]) != unit_f2u(acc);
                }
        }
    ptort_cpu_cap = 0;
    CHECK_EQ(bad, 0);
}

static void errors(ptort_ctx *a3, ptort_ctx *a5)
{
    T t = tiles(PTORT_F16, 16, 16, 16);
    ptort_tile vec = t.c;
    vec.loc = PTORT_VEC;
    CHECK_STATUS(a3, ptort_tmatmul(a3, NULL, &t.a, NULL, &t.b, NULL, NULL, &vec, 0), PTORT_E_LAYOUT,
                 "tmatmul: expects dst to be in the acc address space");
    CHECK_STATUS(a3, ptort_tmatmul(a3, &vec, &t.a, NULL, &t.b, NULL, NULL, &t.c, 0), PTORT_E_LAYOUT,
                 "tmatmul.acc: expects acc_in to be in the acc address space");
    CHECK_STATUS(a3, ptort_tgemv(a3, NULL, &t.a, NULL, &t.b, NULL, NULL, &t.c, 0), PTORT_E_SHAPE,
                 "tgemv: expects lhs valid_shape[0] to be 1 for tgemv");
    T z = t;
    z.a.valid_cols = 0;
    CHECK_STATUS(a3, ptort_tmatmul(a3, NULL, &z.a, NULL, &z.b, NULL, NULL, &z.c, 0), PTORT_E_SHAPE,
                 "expects m, k, and n valid sizes to be in [1, 4095], but got m=16, k=0, n=16");
    T w = t;
    w.b.valid_cols = 16, w.c.cols = 8, w.c.valid_cols = 8;
    CHECK_STATUS(a3, ptort_tmatmul(a3, NULL, &w.a, NULL, &w.b, NULL, NULL, &w.c, 0), PTORT_E_SHAPE,
                 "expects dst (16 x 8) to hold 16 x 16 elements");
    T d = tiles(PTORT_F16, 16, 16, 16);
    d.b.dtype = PTORT_BF16;
    CHECK_STATUS(a3, ptort_tmatmul(a3, NULL, &d.a, NULL, &d.b, NULL, NULL, &d.c, 0), PTORT_E_DTYPE,
                 "but got (f32, f16, bf16)");
    T f8 = tiles(PTORT_F8E4M3FN, 16, 32, 32);
    CHECK_STATUS(a3, ptort_tmatmul(a3, NULL, &f8.a, NULL, &f8.b, NULL, NULL, &f8.c, 0), PTORT_E_ARCH,
                 "fp8 operands are only supported on A5 targets");
    CHECK(ptort_tmatmul(a5, NULL, &f8.a, NULL, &f8.b, NULL, NULL, &f8.c, 0) == PTORT_OK);
    ptort_tile sa = ptort_tile_make(PTORT_SCALING, PTORT_U8, 16, 32, 0), sb = sa;
    CHECK_STATUS(a3, ptort_tmatmul(a3, NULL, &f8.a, &sa, &f8.b, &sb, NULL, &f8.c, 0), PTORT_E_ARCH,
                 "tmatmul.mx: is only supported on A5 targets");
    CHECK_STATUS(a5, ptort_tmatmul(a5, NULL, &f8.a, &sa, &f8.b, NULL, NULL, &f8.c, 0), PTORT_E_ARG,
                 "missing or conflicting operands");
    ptort_tile sf = sa;
    sf.dtype = PTORT_F16;
    CHECK_STATUS(a5, ptort_tgemv(a5, NULL, &f8.a, &sf, &f8.b, &sb, NULL, &f8.c, 0), PTORT_E_SHAPE,
                 "tgemv.mx: expects lhs valid_shape[0] to be 1 for tgemv");
    CHECK_STATUS(a5, ptort_tmatmul(a5, NULL, &f8.a, &sf, &f8.b, &sb, NULL, &f8.c, 0), PTORT_E_DTYPE,
                 "tmatmul.mx: expects a_scale to hold e8m0 exponents, but got f16");
    CHECK_STATUS(a5, ptort_tmatmul(a5, NULL, &f8.a, NULL, &f8.b, NULL, NULL, &f8.c, 3), PTORT_E_ARG, "unknown accPhase 3");
}

int main(void)
{
    ptort_ctx *a3 = ptort_ctx_new(PTORT_A3, NULL), *a5 = ptort_ctx_new(PTORT_A5, NULL);
    if (!a3 || !a5)
        return 1;
    worked_values(a3);
    mx_value(a5);
    kernel_sets(a3);
    errors(a3, a5);
    ptort_ctx_free(a3);
    ptort_ctx_free(a5);
    return unit_done();
}
