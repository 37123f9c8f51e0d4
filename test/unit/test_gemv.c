/* test_gemv.c - tgemv.bias (docs/numerics.md section 4): the in-order fmaf chain, the separate
 * bias add, int32 wrap-around, the a5 layouts, and the operand checks (fp8 inputs among them).
 */
#include <math.h>
#include <stdlib.h>

#include "ptort.h"
#include "unit.h"

typedef struct {
    ptort_tile lhs, rhs, bias, dst;
} G;

/* Row-major none_box tiles (the a2/a3 form): lhs 1 x K, rhs K x N, bias/dst 1 x N. */
static G plain(ptort_dtype in, ptort_dtype out, int64_t k, int64_t n)
{
    G g;
    g.lhs = ptort_tile_make(PTORT_LEFT, in, 1, k, 0);
    g.rhs = ptort_tile_make(PTORT_RIGHT, in, k, n, 0);
    g.bias = ptort_tile_make(PTORT_BIAS, out, 1, n, 0);
    g.dst = ptort_tile_make(PTORT_ACC, out, 1, n, 0);
    return g;
}

static void put(ptort_ctx *c, const ptort_tile *t, const void *host)
{
    CHECK(ptort_tile_fill(c, t, host, t->rows, t->cols) == PTORT_OK);
}

static void f32_chain(ptort_ctx *c)
{
    G g = plain(PTORT_F32, PTORT_F32, 8, 8);
    float a[8] = {-1, 1 + 0x1p-12f, 1};
    float b[64] = {0};
    /* column 0: acc = -(1+2^-11), then fma((1+2^-12)^2 = 1 + 2^-11 + 2^-24, acc) = 2^-24
     * exactly; a separate multiply would round the product to 1 + 2^-11 (a tie, to even)
     * and give 0. */
    b[0 * 8 + 0] = 1 + 0x1p-11f;
    b[1 * 8 + 0] = 1 + 0x1p-12f;
    /* column 1: products -2^26, 1.000244, +2^26: in order, -2^26 + 1.000244 lies in the
     * binade [2^25, 2^26) (ulp 4) and rounds back to -2^26, then + 2^26 = 0; any other
     * association keeps the 1.000244. */
    b[0 * 8 + 1] = 0x1p26f;
    b[1 * 8 + 1] = 1;
    b[2 * 8 + 1] = 0x1p26f;
    /* column 2: acc = 1 + 2^-23, bias 2^-24: the exact sum 1 + 1.5 * 2^-23 is a tie between
     * 1 + 2^-23 and 1 + 2^-22 -> the even 1 + 2^-22. */
    b[2 * 8 + 2] = 1 + 0x1p-23f;
    float bias[8] = {0, 0.5f, 0x1p-24f, 0, 0, 0, 0, 0};
    put(c, &g.lhs, a);
    put(c, &g.rhs, b);
    put(c, &g.bias, bias);
    CHECK(ptort_tgemv_bias(c, &g.lhs, &g.rhs, &g.bias, &g.dst, PTORT_ACC_FINAL) == PTORT_OK);
    float out[8];
    ptort_tile_read(c, &g.dst, out, 1, 8);
    CHECK_EQ(unit_f2u(out[0]), unit_f2u(0x1p-24f));
    CHECK_EQ(unit_f2u(out[1]), unit_f2u(0.5f));
    CHECK_EQ(unit_f2u(out[2]), unit_f2u(1 + 0x1p-22f));
    CHECK_EQ(unit_f2u(out[3]), 0);
    /* accPhase does not change the result */
    CHECK(ptort_tgemv_bias(c, &g.lhs, &g.rhs, &g.bias, &g.dst, PTORT_ACC_PARTIAL) == PTORT_OK);
    float out2[8];
    ptort_tile_read(c, &g.dst, out2, 1, 8);
    CHECK_BYTES(out, out2, sizeof out);
}

/* NaN payloads through the bias add: the result is what `acc + bias` gives on x86 SSE (the
 * first operand's NaN when both are NaN, a signaling NaN quieted), docs/numerics.md section 4. */
static void nan_order(ptort_ctx *c)
{
    G g = plain(PTORT_F32, PTORT_F32, 8, 8);
    float a[8] = {1};
    /* acc[j] = fma(1, b[0][j], 0), then fma(0, 0, acc) keeps it: b's NaN (quieted) */
    uint32_t b[64] = {0x7fa11111u, 0x7fc22222u, 0x3f800000u, 0xffc33333u, 0x7fc77777u, 0, 0, 0};
    uint32_t bias[8] = {0x7fc44444u, 0x7f855555u, 0x7fc66666u, 0x40400000u, 0xff888888u, 0x7f811111u, 0, 0};
    put(c, &g.lhs, a);
    put(c, &g.rhs, b);
    put(c, &g.bias, bias);
    CHECK(ptort_tgemv_bias(c, &g.lhs, &g.rhs, &g.bias, &g.dst, PTORT_ACC_FINAL) == PTORT_OK);
    uint32_t out[8];
    ptort_tile_read(c, &g.dst, out, 1, 8);
    CHECK_EQ(out[0], 0x7fe11111u); /* sNaN acc (quieted) + qNaN bias: acc's */
    CHECK_EQ(out[1], 0x7fc22222u); /* qNaN acc + sNaN bias: acc's */
    CHECK_EQ(out[2], 0x7fc66666u); /* 1 + qNaN bias: the bias's */
    CHECK_EQ(out[3], 0xffc33333u); /* negative qNaN acc + 3: acc's, sign kept */
    CHECK_EQ(out[4], 0x7fc77777u); /* qNaN acc + negative qNaN bias: acc's */
    CHECK_EQ(out[5], 0x7fc11111u); /* 0 + sNaN bias: the bias's, quieted */
    CHECK_EQ(out[6], 0u);
}

/* f16 and bf16: products are exact in fp32, so the chain order is what matters:
 * a = {-2048, 1, 2048}, b = {32768, 1.5, 32768}: -2^26 + 1.5 -> -2^26 (ulp 4 below 2^26),
 * + 2^26 -> 0. */
static void half_chain(ptort_ctx *c, ptort_dtype dt)
{
    G g = plain(dt, PTORT_F32, 16, 16);
    float af[16] = {-2048, 1, 2048}, bf[16 * 16] = {0};
    bf[0] = 32768;
    bf[16] = 1.5f;
    bf[32] = 32768;
    bf[1] = 3;                /* column 1: -6144 */
    bf[16 + 1] = 0.5f;        /* + 0.5 -> -6143.5, + bias 1 -> -6142.5 */
    uint16_t a[16], b[256];
    for (int i = 0; i < 16; i++)
        a[i] = dt == PTORT_F16 ? ptort_f32_to_f16(af[i]) : ptort_f32_to_bf16(af[i]);
    for (int i = 0; i < 256; i++)
        b[i] = dt == PTORT_F16 ? ptort_f32_to_f16(bf[i]) : ptort_f32_to_bf16(bf[i]);
    float bias[16] = {0.25f, 1};
    put(c, &g.lhs, a);
    put(c, &g.rhs, b);
    put(c, &g.bias, bias);
    CHECK(ptort_tgemv_bias(c, &g.lhs, &g.rhs, &g.bias, &g.dst, PTORT_ACC_UNSPECIFIED) == PTORT_OK);
    float out[16];
    ptort_tile_read(c, &g.dst, out, 1, 16);
    CHECK(out[0] == 0.25f);
    CHECK(out[1] == -6142.5f);
}

static void int8(ptort_ctx *c)
{
    G g = plain(PTORT_I8, PTORT_I32, 32, 32);
    int8_t a[32] = {127, -128, 100}, b[32 * 32] = {0};
    b[0] = 127;
    b[32] = -128;
    b[64] = 1;
    b[1] = -128;                 /* column 1: 127 * -128 = -16256 */
    int32_t bias[32] = {INT32_MAX, 5};
    put(c, &g.lhs, a);
    put(c, &g.rhs, b);
    put(c, &g.bias, bias);
    CHECK(ptort_tgemv_bias(c, &g.lhs, &g.rhs, &g.bias, &g.dst, PTORT_ACC_FINAL) == PTORT_OK);
    int32_t out[32];
    ptort_tile_read(c, &g.dst, out, 1, 32);
    /* 16129 + 16384 + 100 = 32613; INT32_MAX + 32613 wraps to -2147451036 */
    CHECK_EQ((uint32_t)out[0], (uint32_t)-2147451036);
    CHECK_EQ(out[1], -16251);
}

/* a5 layouts: lhs NZ (1 row: offset c), rhs ZN boxes 16x16 for f16, dst NZ, bias row_major.
 * The result is compared with a plain in-order fmaf chain computed here. */
static void a5_layouts(ptort_ctx *c)
{
    enum { K = 32, N = 32 };
    G g;
    g.lhs = ptort_tile_make(PTORT_LEFT, PTORT_F16, 1, K, 0);
    g.lhs.blayout = PTORT_BL_COL_MAJOR;
    g.lhs.slayout = PTORT_SL_ROW_MAJOR;
    g.rhs = ptort_tile_make(PTORT_RIGHT, PTORT_F16, K, N, 0);
    g.rhs.slayout = PTORT_SL_COL_MAJOR;
    g.dst = ptort_tile_make(PTORT_ACC, PTORT_F32, 1, N, 0);
    g.dst.blayout = PTORT_BL_COL_MAJOR;
    g.dst.slayout = PTORT_SL_ROW_MAJOR;
    g.bias = ptort_tile_make(PTORT_BIAS, PTORT_F32, 1, N, 0);
    uint16_t a[K], b[K * N];
    float af[K], bf[K * N], bias[N];
    unsigned seed = 12345;
    for (int i = 0; i < K; i++) {
        seed = seed * 1103515245u + 12345u;
        af[i] = (float)((int)(seed >> 16) % 2001 - 1000) / 64.0f;
        a[i] = ptort_f32_to_f16(af[i]);
        af[i] = ptort_f16_to_f32(a[i]);
    }
    for (int i = 0; i < K * N; i++) {
        seed = seed * 1103515245u + 12345u;
        bf[i] = (float)((int)(seed >> 16) % 2001 - 1000) / 256.0f;
        b[i] = ptort_f32_to_f16(bf[i]);
        bf[i] = ptort_f16_to_f32(b[i]);
    }
    for (int j = 0; j < N; j++)
        bias[j] = (float)j / 3.0f;
    put(c, &g.lhs, a);
    put(c, &g.rhs, b);
    put(c, &g.bias, bias);
    CHECK(ptort_tgemv_bias(c, &g.lhs, &g.rhs, &g.bias, &g.dst, PTORT_ACC_FINAL) == PTORT_OK);
    float out[N];
    ptort_tile_read(c, &g.dst, out, 1, N);
    int bad = 0;
    for (int j = 0; j < N; j++) {
        float acc = 0;
        for (int k = 0; k < K; k++)
            acc = fmaf(af[k], bf[k * N + j], acc);
        float want = acc + bias[j];
        bad += unit_f2u(out[j]) != unit_f2u(want);
    }
    CHECK(bad == 0);

    /* fp8 inputs are rejected on a5 too (PTOAS's verifier admits no low-precision operand),
     * with the dtype status and the pairs the op computes, the bad triple last */
    G e = g;
    e.lhs.dtype = e.rhs.dtype = PTORT_F8E4M3FN;
    CHECK_STATUS(c, ptort_tgemv_bias(c, &e.lhs, &e.rhs, &e.bias, &e.dst, PTORT_ACC_FINAL), PTORT_E_DTYPE,
                 "tgemv.bias: expects (dst, lhs, rhs) element types to match one of (i32, i8, i8), "
                 "(f32, f16, f16), (f32, bf16, bf16), (f32, f32, f32), but got (f32, f8E4M3FN, f8E4M3FN)");
    e.lhs.dtype = e.rhs.dtype = PTORT_F8E5M2;
    CHECK_STATUS(c, ptort_tgemv_bias(c, &e.lhs, &e.rhs, &e.bias, &e.dst, PTORT_ACC_FINAL), PTORT_E_DTYPE,
                 "(f32, f32, f32), but got (f32, f8E5M2, f8E5M2)");

    G bad_l = g;
    bad_l.rhs.slayout = PTORT_SL_ROW_MAJOR;
    CHECK_STATUS(c, ptort_tgemv_bias(c, &bad_l.lhs, &bad_l.rhs, &bad_l.bias, &bad_l.dst, PTORT_ACC_FINAL),
                 PTORT_E_LAYOUT, "expects rhs to use the col_major slayout on A5");
}

static void rejects(ptort_ctx *c)
{
    G g = plain(PTORT_F32, PTORT_F32, 8, 8);
    G b = g;
    b.dst.loc = PTORT_VEC;
    CHECK_STATUS(c, ptort_tgemv_bias(c, &b.lhs, &b.rhs, &b.bias, &b.dst, PTORT_ACC_FINAL),
                 PTORT_E_LAYOUT, "expects dst to be in the acc address space");
    b = g;
    b.lhs.valid_cols = 4;
    CHECK_STATUS(c, ptort_tgemv_bias(c, &b.lhs, &b.rhs, &b.bias, &b.dst, PTORT_ACC_FINAL),
                 PTORT_E_SHAPE, "expects lhs valid_shape[1] to equal rhs valid_shape[0], but got 4 vs 8");
    b = g;
    b.bias.dtype = PTORT_I32;
    CHECK_STATUS(c, ptort_tgemv_bias(c, &b.lhs, &b.rhs, &b.bias, &b.dst, PTORT_ACC_FINAL),
                 PTORT_E_DTYPE, "expects bias and dst to have the same element type");
    b = plain(PTORT_F8E4M3FN, PTORT_F32, 32, 32);
    CHECK_STATUS(c, ptort_tgemv_bias(c, &b.lhs, &b.rhs, &b.bias, &b.dst, PTORT_ACC_FINAL),
                 PTORT_E_DTYPE, "(f32, f32, f32), but got (f32, f8E4M3FN, f8E4M3FN)");
    b = g;
    b.lhs.valid_rows = 0;
    CHECK_STATUS(c, ptort_tgemv_bias(c, &b.lhs, &b.rhs, &b.bias, &b.dst, PTORT_ACC_FINAL),
                 PTORT_E_SHAPE, "expects lhs valid_shape[0] to be 1 for tgemv");
    b = g;
    b.rhs.addr = 256;
    CHECK_STATUS(c, ptort_tgemv_bias(c, &b.lhs, &b.rhs, &b.bias, &b.dst, PTORT_ACC_FINAL),
                 PTORT_E_ADDR, "addr must be aligned to 512 bytes");
}

/* Random chains over every dtype of the float path and widths that cover 64-column blocks,
 * 8-column blocks and single columns, against fmaf chains computed here. Values span a wide
 * exponent range (f16 subnormals included) so that rounding in each step matters. */
static uint32_t widen_ref(ptort_dtype dt, const uint8_t *p, int64_t i)
{
    if (dt == PTORT_F32) {
        uint32_t u;
        memcpy(&u, p + 4 * i, 4);
        return u;
    }
    uint16_t h;
    memcpy(&h, p + 2 * i, 2);
    if (dt == PTORT_BF16)
        return (uint32_t)h << 16;
    float f = ptort_f16_to_f32(h);
    return unit_f2u(f);
}

static void random_chains(ptort_ctx *c)
{
    enum { K = 37, KP = 48, NC = 160 };
    static const ptort_dtype dts[3] = {PTORT_F16, PTORT_BF16, PTORT_F32};
    static const int64_t widths[] = {160, 137, 64, 71, 9, 8, 5, 1};
    static uint8_t a[KP * 4], b[KP * NC * 4];
    static float bias[NC], out[NC];
    unsigned seed = 4242;
    int bad = 0;
    for (int d = 0; d < 3; d++) {
        ptort_dtype dt = dts[d];
        int sz = dt == PTORT_F32 ? 4 : 2;
        for (unsigned wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
            int64_t n = widths[wi];
            for (int i = 0; i < KP * NC + KP; i++) {
                seed = seed * 1103515245u + 12345u;
                uint32_t r = seed ^ (seed >> 11);
                uint8_t *dstp = i < KP ? a + i * sz : b + (i - KP) * sz;
                if (dt == PTORT_F16) {
                    uint16_t h = (uint16_t)(r & 0xFFFF);
                    if (((h >> 10) & 31) == 31)
                        h ^= 0x4000;                     /* no Inf/NaN */
                    memcpy(dstp, &h, 2);
                } else if (dt == PTORT_BF16) {
                    uint16_t h = (uint16_t)(((r & 0x807F) | ((112 + (r >> 20) % 32) << 7)));
                    memcpy(dstp, &h, 2);
                } else {
                    uint32_t u = (r & 0x807FFFFFu) | ((uint32_t)(100 + (r >> 8) % 56) << 23);
                    memcpy(dstp, &u, 4);
                }
            }
            for (int j = 0; j < NC; j++)
                bias[j] = (float)(j % 9) - 4.25f;
            G g = plain(dt, PTORT_F32, KP, NC);
            g.lhs.valid_cols = g.rhs.valid_rows = K;
            g.rhs.valid_cols = g.bias.valid_cols = g.dst.valid_cols = n;
            put(c, &g.lhs, a);
            put(c, &g.rhs, b);
            put(c, &g.bias, bias);
            CHECK(ptort_tgemv_bias(c, &g.lhs, &g.rhs, &g.bias, &g.dst, PTORT_ACC_FINAL) == PTORT_OK);
            ptort_tile_read(c, &g.dst, out, 1, n);
            for (int64_t j = 0; j < n; j++) {
                float acc = 0.0f;
                for (int kk = 0; kk < K; kk++)
                    acc = fmaf(unit_u2f(widen_ref(dt, a, kk)), unit_u2f(widen_ref(dt, b, (int64_t)kk * NC + j)), acc);
                float want = acc + bias[j];
                bad += unit_f2u(out[j]) != unit_f2u(want);
            }
        }
    }
    CHECK_EQ(bad, 0);
}

/* a5's rhs layout (f16, ZN 16 x 16 boxes) on random values over a wide exponent range: whole
 * blocks of 16 rows and columns (the AVX-512 box-transposing kernel: pairs of column blocks
 * and a single one) and the other shapes (the general loop), with and without AVX-512,
 * against fmaf chains computed here. */
extern int ptort_cpu_cap;

static void a5_random_chains(ptort_ctx *c)
{
    enum { KP = 48, NC = 64 };
    static const int64_t shapes[][2] = {{48, 64}, {48, 48}, {32, 16}, {37, 64}, {48, 40}};
    static uint16_t a[KP], b[KP * NC];
    static float bias[NC], out[NC];
    unsigned seed = 777;
    int bad = 0;
    for (int i = 0; i < KP + KP * NC; i++) {
        seed = seed * 1103515245u + 12345u;
        uint16_t h = (uint16_t)((seed ^ (seed >> 11)) & 0xFFFF);
        if (((h >> 10) & 31) == 31)
            h ^= 0x4000;                                 /* no Inf/NaN */
        if (i < KP)
            a[i] = h;
        else
            b[i - KP] = h;
    }
    for (int j = 0; j < NC; j++)
        bias[j] = (float)(j % 7) - 3.5f;
    for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int path = 0; path < 2; path++) {
            ptort_cpu_cap = path;
            int64_t k = shapes[s][0], n = shapes[s][1];
            G g;
            g.lhs = ptort_tile_make(PTORT_LEFT, PTORT_F16, 1, KP, 0);
            g.lhs.blayout = PTORT_BL_COL_MAJOR;
            g.lhs.slayout = PTORT_SL_ROW_MAJOR;
            g.rhs = ptort_tile_make(PTORT_RIGHT, PTORT_F16, KP, NC, 0);
            g.rhs.slayout = PTORT_SL_COL_MAJOR;
            g.dst = ptort_tile_make(PTORT_ACC, PTORT_F32, 1, NC, 0);
            g.dst.blayout = PTORT_BL_COL_MAJOR;
            g.dst.slayout = PTORT_SL_ROW_MAJOR;
            g.bias = ptort_tile_make(PTORT_BIAS, PTORT_F32, 1, NC, 0);
            put(c, &g.lhs, a);
            put(c, &g.rhs, b);
            put(c, &g.bias, bias);
            g.lhs.valid_cols = g.rhs.valid_rows = k;
            g.rhs.valid_cols = g.bias.valid_cols = g.dst.valid_cols = n;
            CHECK(ptort_tgemv_bias(c, &g.lhs, &g.rhs, &g.bias, &g.dst, PTORT_ACC_FINAL) == PTORT_OK);
            ptort_tile_read(c, &g.dst, out, 1, n);
            for (int64_t j = 0; j < n; j++) {
                float acc = 0.0f;
                for (int64_t kk = 0; kk < k; kk++)
                    acc = fmaf(ptort_f16_to_f32(a[kk]), ptort_f16_to_f32(b[kk * NC + j]), acc);
                bad += unit_f2u(out[j]) != unit_f2u(acc + bias[j]);
            }
        }
    ptort_cpu_cap = 0;
    CHECK_EQ(bad, 0);
}

int main(void)
{
    ptort_ctx *a3 = ptort_ctx_new(PTORT_A3, NULL), *a5 = ptort_ctx_new(PTORT_A5, NULL);
    if (!CHECK(a3 && a5))
        return unit_done();
    f32_chain(a3);
    nan_order(a3);
    half_chain(a3, PTORT_F16);
    half_chain(a3, PTORT_BF16);
    int8(a3);
    a5_layouts(a5);
    a5_random_chains(a5);
    rejects(a3);
    random_chains(a3);
    ptort_ctx_free(a3);
    ptort_ctx_free(a5);
    return unit_done();
}
