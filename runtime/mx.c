/* mx.c - tquant MXFP8 / MXFP4_E2M1 (docs/numerics.md section 1).
 *
 * Each group of 32 elements (along a row for axis1, down a column for axis0) gets its
 * largest magnitude, an E8M0 exponent, a power-of-two reciprocal scale, and then every
 * element is scaled and encoded. Sources are first widened to fp32 bit patterns; the max is
 * an integer max over the patterns with the sign cleared (which orders magnitudes and puts
 * any NaN above +Inf, so poisoning needs no extra pass). The per-element loops are
 * branch-free; the per-group work (exponent, scale, the exp/max/scaling writes) is scalar.
 */
#include <math.h>

#include "internal.h"

#define GROUP 32

typedef struct {
    int fp4;                 /* MXFP4_E2M1 rather than MXFP8 */
    int nv;                  /* NV scale algorithm rather than OCP */
    int bf16_src;
    ptort_dtype sdt;         /* src dtype (also that of max and scaling) */
    uint32_t emax;           /* 8 for e4m3, 2 for e2m1 */
    float k;                 /* NV: the fp32 nearest 1/448 or 1/6 */
    uint8_t nan_code;        /* code of a poisoned group's elements */
} MxCfg;

/* One auxiliary output (exp, max, scaling, exp_zz): element (r, c) is at
 * base + (layout_row_off(r) + col[c]) * size. */
typedef struct {
    uint8_t *base;
    int size;
    Layout l;
    int64_t *col;
} Aux;

typedef struct {
    uint32_t e;              /* E8M0 byte */
    float s;                 /* reciprocal scale 2^(127 - e) */
    uint32_t nan;            /* all ones for a poisoned group */
    uint32_t maxv, scalev;   /* max and scale in the src dtype */
} Group;

/* A value of the src dtype from fp32 bits; exact for the values stored here except the f16
 * scale, which docs/numerics.md rounds with RNE (overflow to +Inf, tiny to +0). */
static uint32_t to_src_dtype(ptort_dtype dt, uint32_t bits)
{
    if (dt == PTORT_F16)
        return f32_to_f16_bits(u2f(bits));
    if (dt == PTORT_BF16)
        return bits >> 16;
    return bits;
}

static uint32_t quiet_nan(ptort_dtype dt)
{
    return dt == PTORT_F16 ? 0x7E00u : dt == PTORT_BF16 ? 0x7FC0u : 0x7FC00000u;
}

/* Exponent and scale of a group whose largest |x| has fp32 pattern MB (sign cleared). */
static void group_params(const MxCfg *cfg, uint32_t mb, Group *g)
{
    if (mb > 0x7F800000u) {
        g->e = 0xFF;
        g->s = 0.0f;
        g->nan = ~0u;
        g->maxv = g->scalev = quiet_nan(cfg->sdt);
        return;
    }
    uint32_t e;
    if (!cfg->nv) {
        if (cfg->fp4)
            mb &= 0xFFFF0000u;                /* OCP MXFP4: max over bf16-truncated values */
        uint32_t big = mb >> 23;
        e = big > cfg->emax ? big - cfg->emax : 0;
    } else if (mb == 0) {
        e = 0;
    } else {
        /* ceil(log2(m / max_normal)) on the bits of d = m * K. */
        uint32_t d = f2u(u2f(mb) * cfg->k);
        uint32_t de = d >> 23, dm = d & 0x7FFFFFu;
        if (d == 0x7F800000u)
            e = 0xFE;
        else if (de == 0xFE)
            e = 0xFE;
        else if (de == 0 && dm <= 0x400000u)
            e = 0;
        else
            e = de + (dm != 0);
    }
    uint32_t sb = e < 254 ? (254 - e) << 23 : 0x00400000u;
    g->e = e;
    g->s = u2f(sb);
    g->nan = 0;
    g->maxv = to_src_dtype(cfg->sdt, mb);
    g->scalev = to_src_dtype(cfg->sdt, sb);
}

/* ---- per-element loops (vectorized) ------------------------------------------------ */

PTORT_HOT
static uint32_t max_abs32(const uint32_t *x)
{
    int32_t m = 0;
    for (int i = 0; i < GROUP; i++) {
        int32_t a = (int32_t)(x[i] & 0x7FFFFFFFu);
        m = a > m ? a : m;
    }
    return (uint32_t)m;
}

PTORT_HOT
static void enc_fp8(const uint32_t *x, uint8_t *out, int64_t n, float s)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = e4m3_encode(u2f(x[i]) * s);
}

PTORT_HOT
static void enc_fp4(const uint32_t *x, uint8_t *out, int64_t n, float s)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = e2m1_encode(u2f(x[i]) * s);
}

/* bf16 sources: the scaled value is rounded to bf16 before the e2m1 cast (docs/numerics.md 1.4). */
PTORT_HOT
static void enc_fp4_bf16(const uint32_t *x, uint8_t *out, int64_t n, float s)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = e2m1_encode(u2f(round_bits_to_bf16(f2u(u2f(x[i]) * s))));
}

static void encode(const MxCfg *cfg, const uint32_t *x, uint8_t *out, int64_t n, float s)
{
    if (!cfg->fp4)
        enc_fp8(x, out, n, s);
    else if (cfg->bf16_src)
        enc_fp4_bf16(x, out, n, s);
    else
        enc_fp4(x, out, n, s);
}

/* Widens N elements of a row to fp32 patterns in OUT, zero-filling up to NPAD. */
PTORT_HOT
static void widen_row(ptort_dtype dt, const uint8_t *p, uint32_t *out, int64_t n, int64_t npad)
{
    if (dt == PTORT_F32) {
        memcpy(out, p, (size_t)n * 4);
    } else if (dt == PTORT_F16) {
        const uint16_t *h = (const uint16_t *)(const void *)p;
        for (int64_t i = 0; i < n; i++)
            out[i] = f16_bits_to_f32_bits(h[i]);
    } else {
        const uint16_t *h = (const uint16_t *)(const void *)p;
        for (int64_t i = 0; i < n; i++)
            out[i] = (uint32_t)h[i] << 16;
    }
    for (int64_t i = n; i < npad; i++)
        out[i] = 0;
}

/* Packs e2m1 codes into bytes: element 2i in the low nibble of byte i; with an odd count
 * the last high nibble is 0. */
PTORT_VECTORIZE
static void pack_fp4(const uint8_t *codes, uint8_t *out, int64_t n)
{
    int64_t full = n / 2;
    for (int64_t i = 0; i < full; i++)
        out[i] = (uint8_t)((codes[2 * i] & 0xFu) | (codes[2 * i + 1] << 4));
    if (n & 1)
        out[full] = codes[n - 1] & 0xFu;
}

static void aux_init(ptort_ctx *ctx, Aux *a, const ptort_tile *t, int64_t ncols, int64_t *table)
{
    a->base = tile_base(ctx, t);
    a->size = ptort_dtype_size(t->dtype);
    layout_of(t, &a->l);
    a->col = table;
    if (a->l.kind == LAY_ROW || a->l.kind == LAY_FLAT)
        for (int64_t c = 0; c < ncols; c++)       /* without layout_col_off's divisions */
            table[c] = c;
    else
        for (int64_t c = 0; c < ncols; c++)
            table[c] = layout_col_off(&a->l, c);
}

static void put_group(Aux *ex, Aux *mx, Aux *sc, int64_t ro_e, int64_t ro_m, int64_t ro_s,
                      int64_t c, const Group *g)
{
    ex->base[ro_e + ex->col[c]] = (uint8_t)g->e;
    store_elem(mx->base, mx->size, ro_m + mx->col[c], g->maxv);
    store_elem(sc->base, sc->size, ro_s + sc->col[c], g->scalev);
}

/* Row offset of row R of an aux tile; row-major none_box without the layout's division. */
static inline int64_t aux_row_off(const Aux *a, int64_t r)
{
    return a->l.kind == LAY_ROW ? r * a->l.stride : layout_row_off(&a->l, r);
}

/* Writes N per-group values V (element bits) to columns [c0, c0 + n) of row offset RO of A;
 * contiguous columns (row-major none_box, flat) without the column table. */
static inline void put_row(Aux *a, int64_t ro, int64_t c0, const uint32_t *v, int64_t n)
{
    uint8_t *p = a->base;
    if (a->l.kind == LAY_ROW || a->l.kind == LAY_FLAT) {
        p += (ro + c0) * a->size;
        switch (a->size) {
        case 1: for (int64_t i = 0; i < n; i++) p[i] = (uint8_t)v[i]; break;
        case 2: for (int64_t i = 0; i < n; i++) { uint16_t h = (uint16_t)v[i]; memcpy(p + 2 * i, &h, 2); } break;
        default: for (int64_t i = 0; i < n; i++) memcpy(p + 4 * i, &v[i], 4); break;
        }
        return;
    }
    for (int64_t i = 0; i < n; i++)
        store_elem(p, a->size, ro + a->col[c0 + i], v[i]);
}

/* ---- checks ------------------------------------------------------------------------ */

/* An axis1 aux tile in the legacy flat form [1, M*G] read as the [M, G] row-major tile it
 * stores (group (r, g) at element r*G + g); any other tile as it is. */
static ptort_tile as_grid(const ptort_tile *t, int64_t m, int64_t g)
{
    ptort_tile v = *t;
    if (m > 1 && t->valid_rows == 1 && t->valid_cols == m * g) {
        v.rows = v.valid_rows = m;
        v.cols = v.valid_cols = g;
        v.compact = PTORT_COMPACT_NULL;
    }
    return v;
}

static ptort_status check_mx(ptort_ctx *ctx, const MxCfg *cfg, ptort_group_axis axis,
                             int il, const ptort_tile *src, const ptort_tile *dst,
                             const ptort_tile *exp, const ptort_tile *max,
                             const ptort_tile *scaling, const ptort_tile *zz)
{
    static const char op[] = "tquant.mx";
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)) ||
        (st = ptort_check_operand(ctx, op, "exp", exp)) ||
        (st = ptort_check_operand(ctx, op, "max", max)) ||
        (st = ptort_check_operand(ctx, op, "scaling", scaling)) ||
        (zz && (st = ptort_check_operand(ctx, op, "exp_zz", zz))))
        return st;
    ptort_dtype sdt = src->dtype;
    if (!cfg->fp4 && sdt != PTORT_F32 && sdt != PTORT_F16 && sdt != PTORT_BF16)
        return ptort_fail(ctx, PTORT_E_DTYPE,
                          "%s: expects src element type f32, f16 or bf16 for MXFP8 quantization, but got %s",
                          op, ptort_dtype_name(sdt));
    if (cfg->fp4 && sdt != PTORT_F16 && sdt != PTORT_BF16)
        return ptort_fail(ctx, PTORT_E_DTYPE,
                          "%s: expects src element type f16 or bf16 for MXFP4_E2M1 quantization, but got %s",
                          op, ptort_dtype_name(sdt));
    if (!cfg->fp4 && dst->dtype != PTORT_F8E4M3FN && dst->dtype != PTORT_I8 && dst->dtype != PTORT_U8)
        return ptort_fail(ctx, PTORT_E_DTYPE,
                          "%s: expects dst element type f8E4M3FN, i8 or ui8 for MXFP8 quantization, but got %s",
                          op, ptort_dtype_name(dst->dtype));
    if (cfg->fp4 && dst->dtype != PTORT_F4E2M1X2)
        return ptort_fail(ctx, PTORT_E_DTYPE,
                          "%s: expects dst element type !pto.f4E2M1x2 for MXFP4_E2M1 quantization, but got %s",
                          op, ptort_dtype_name(dst->dtype));
    int64_t m = src->valid_rows, n = src->valid_cols;
    int64_t want_vc = cfg->fp4 ? (n + 1) / 2 : n;
    int64_t want_c = cfg->fp4 ? src->cols / 2 : src->cols;
    if (dst->rows != src->rows || dst->cols < want_c || dst->valid_rows != m ||
        dst->valid_cols != want_vc)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects dst shape to match src shape", op);
    if (exp->dtype != PTORT_U8 && exp->dtype != PTORT_I8 && exp->dtype != PTORT_F8E8M0FNU)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects exp element type ui8, i8 or f8E8M0FNU, but got %s",
                          op, ptort_dtype_name(exp->dtype));
    if (max->dtype != sdt)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects max to have the src element type", op);
    if (scaling->dtype != sdt)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects scaling to have the src element type", op);
    if (axis == PTORT_AXIS1) {
        if (src->cols % GROUP != 0)
            return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src cols to be a multiple of 32 when grpAxis is axis1", op);
        if (sdt == PTORT_F32 && n % GROUP != 0)
            return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src valid_shape[1] to be a multiple of 32 when grpAxis is axis1", op);
        int64_t g = (n + GROUP - 1) / GROUP;
        int canon = exp->valid_rows == m && exp->valid_cols == g;
        int flat = exp->valid_rows == 1 && exp->valid_cols == m * g;
        if (!canon && !flat)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects exp valid_shape to match canonical [M, N/32] or legacy flat [1, M*N/32] for grpAxis=axis1, but got [%lld, %lld]",
                              op, (long long)exp->valid_rows, (long long)exp->valid_cols);
    } else {
        if (src->rows % GROUP != 0)
            return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src rows to be a multiple of 32 when grpAxis is axis0", op);
        if (m % GROUP != 0)
            return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src valid_shape[0] to be a multiple of 32 when grpAxis is axis0", op);
        if (il) {
            /* a pair of row groups shares one exponent row, so pairs must be whole */
            if (m % (2 * GROUP) != 0)
                return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src valid rows to be a multiple of 64 when interleave is true", op);
            if (src->rows % (2 * GROUP) != 0)
                return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src physical rows to be a multiple of 64 when interleave is true", op);
            if (exp->valid_rows != m / (2 * GROUP) || exp->valid_cols != 2 * n)
                return ptort_fail(ctx, PTORT_E_SHAPE,
                                  "%s: expects exp valid_shape to match [M/64, 2N] for grpAxis=axis0 with interleave=true, but got [%lld, %lld]",
                                  op, (long long)exp->valid_rows, (long long)exp->valid_cols);
        } else if (exp->valid_rows != m / GROUP || exp->valid_cols != n) {
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects exp valid_shape to match canonical [M/32, N] for grpAxis=axis0, but got [%lld, %lld]",
                              op, (long long)exp->valid_rows, (long long)exp->valid_cols);
        }
    }
    /* max and scaling have the exponents' grouping; interleaving changes only exp; on axis1
     * each of exp, max and scaling is canonical [M, G] or flat [1, M*G] on its own */
    int64_t gr = axis == PTORT_AXIS1 ? m : m / GROUP, gc = axis == PTORT_AXIS1 ? (n + GROUP - 1) / GROUP : n;
    int any_flat = axis == PTORT_AXIS1;
    if ((max->valid_rows != gr || max->valid_cols != gc) &&
        !(any_flat && max->valid_rows == 1 && max->valid_cols == gr * gc))
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects max valid_shape to match the exp grouping", op);
    if ((scaling->valid_rows != gr || scaling->valid_cols != gc) &&
        !(any_flat && scaling->valid_rows == 1 && scaling->valid_cols == gr * gc))
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects scaling valid_shape to match the exp grouping", op);
    if (zz) {
        /* PTOAS: an ND vec tile of 8-bit elements holding one exponent per group */
        if (ptort_dtype_size(zz->dtype) != 1 || zz->loc != PTORT_VEC || zz->blayout != PTORT_BL_ROW_MAJOR ||
            zz->slayout != PTORT_SL_NONE_BOX)
            return ptort_fail(ctx, PTORT_E_LAYOUT,
                              "%s: expects exp_zz to be a row_major none_box vec tile of 8-bit elements", op);
        if (axis != PTORT_AXIS1)
            return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects the deprecated exp_zz form to use grpAxis=axis1", op);
        int64_t groups = m * ((n + GROUP - 1) / GROUP);
        if (zz->valid_rows * zz->valid_cols != groups || ptort_tile_bytes(zz) < groups)
            return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects exp_zz valid element count to equal MX group count", op);
        /* docs/numerics.md 1.1: the ZZ order is made of 16-row, 2-group blocks */
        if (m % 16 != 0)
            return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src valid rows to be a multiple of 16 for the ZZ exponent layout", op);
        if (n % 64 != 0)
            return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src valid cols to be a multiple of 64 for the ZZ exponent layout", op);
    }
    if (src->rows * src->cols > 59461)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src rows * cols <= 59461 for MX quantization, but got %lld",
                          op, (long long)(src->rows * src->cols));
    const ptort_tile *all[5] = {src, dst, exp, max, scaling};
    static const char *const names[5] = {"src", "dst", "exp", "max", "scaling"};
    for (int i = 0; i < 5; i++)
        if (all[i]->loc != PTORT_VEC)
            return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects %s to be in the vec address space, but got %s",
                              op, names[i], ptort_loc_name(all[i]->loc));
    if (!tile_is_row_major(src) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects src and dst to use row-major layout", op);
    return PTORT_OK;
}

/* ---- the two groupings ------------------------------------------------------------- */

typedef struct {
    const MxCfg *cfg;
    const ptort_tile *src, *dst;
    Aux ex, mx, sc;
    int il;                  /* axis0 interleaved: exp[b/2][2c + b%2] for group row b */
} MxOp;

/* Writes one row's or one block's codes to the data tile: N codes -> N bytes (fp8) or
 * ceil(N/2) packed bytes (fp4). */
static void put_codes(const MxCfg *cfg, const uint8_t *codes, uint8_t *out, int64_t n)
{
    if (cfg->fp4)
        pack_fp4(codes, out, n);
    else
        memcpy(out, codes, (size_t)n);
}

/* ---- AVX2 row kernels (axis1) --------------------------------------------------------
 * Pass 1 takes the largest |x| pattern of every group of the (zero-padded) row; the group
 * parameters are then scalar (one per 32 elements); pass 2 encodes the whole row with one
 * branch-free loop, each group's scale broadcast to its 4 vectors. Elements of a NaN group
 * get arbitrary codes there and are overwritten afterwards (per-group fixup), so the vector
 * encoder has no NaN case: a non-NaN group only holds finite values and +-Inf. */
#if defined(__GNUC__) && defined(__x86_64__)
#define PTORT_MX_AVX2 1
#include <immintrin.h>

/* Lane-wise max of |x| patterns over the 4 vectors of one group. */
__attribute__((target("avx2"), always_inline))
static inline __m256i lane_max_avx2(const uint32_t *x)
{
    const __m256i abs = _mm256_set1_epi32(0x7FFFFFFF);
    const __m256i *p = (const __m256i *)(const void *)x;
    return _mm256_max_epi32(_mm256_max_epi32(_mm256_and_si256(_mm256_loadu_si256(p), abs),
                                             _mm256_and_si256(_mm256_loadu_si256(p + 1), abs)),
                            _mm256_max_epi32(_mm256_and_si256(_mm256_loadu_si256(p + 2), abs),
                                             _mm256_and_si256(_mm256_loadu_si256(p + 3), abs)));
}

__attribute__((target("avx2")))
static void group_max_avx2(const uint32_t *x, int64_t ng, uint32_t *out)
{
    const __m256i abs = _mm256_set1_epi32(0x7FFFFFFF);
    int64_t g = 0;
    /* 8 groups at a time: 8 vectors of lane maxima, reduced together by a transpose */
    for (; g + 8 <= ng; g += 8) {
        const uint32_t *xg = x + g * GROUP;
        __m256i m0 = lane_max_avx2(xg), m1 = lane_max_avx2(xg + 32), m2 = lane_max_avx2(xg + 64),
                m3 = lane_max_avx2(xg + 96), m4 = lane_max_avx2(xg + 128),
                m5 = lane_max_avx2(xg + 160), m6 = lane_max_avx2(xg + 192),
                m7 = lane_max_avx2(xg + 224);
        __m256i a01 = _mm256_max_epi32(_mm256_unpacklo_epi32(m0, m1), _mm256_unpackhi_epi32(m0, m1));
        __m256i a23 = _mm256_max_epi32(_mm256_unpacklo_epi32(m2, m3), _mm256_unpackhi_epi32(m2, m3));
        __m256i a45 = _mm256_max_epi32(_mm256_unpacklo_epi32(m4, m5), _mm256_unpackhi_epi32(m4, m5));
        __m256i a67 = _mm256_max_epi32(_mm256_unpacklo_epi32(m6, m7), _mm256_unpackhi_epi32(m6, m7));
        __m256i b03 = _mm256_max_epi32(_mm256_unpacklo_epi64(a01, a23), _mm256_unpackhi_epi64(a01, a23));
        __m256i b47 = _mm256_max_epi32(_mm256_unpacklo_epi64(a45, a67), _mm256_unpackhi_epi64(a45, a67));
        __m256i r = _mm256_max_epi32(_mm256_permute2x128_si256(b03, b47, 0x20),
                                     _mm256_permute2x128_si256(b03, b47, 0x31));
        _mm256_storeu_si256((__m256i *)(void *)(out + g), r);
    }
    for (; g < ng; g++) {
        const __m256i *p = (const __m256i *)(const void *)(x + g * GROUP);
        __m256i m0 = _mm256_max_epi32(_mm256_and_si256(_mm256_loadu_si256(p), abs),
                                      _mm256_and_si256(_mm256_loadu_si256(p + 1), abs));
        __m256i m1 = _mm256_max_epi32(_mm256_and_si256(_mm256_loadu_si256(p + 2), abs),
                                      _mm256_and_si256(_mm256_loadu_si256(p + 3), abs));
        __m256i m = _mm256_max_epi32(m0, m1);
        __m128i h = _mm_max_epi32(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
        h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0x4E));
        h = _mm_max_epi32(h, _mm_shuffle_epi32(h, 0xB1));
        out[g] = (uint32_t)_mm_cvtsi128_si32(h);
    }
}

/* e4m3_encode's magnitude (internal.h) on 8 lanes, without the NaN case: normals round the
 * pattern to 3 mantissa bits with the rebias folded into the added constant and saturate
 * with an unsigned min (the rounded value is monotonic in |y|); subnormals add 2^14. */
__attribute__((target("avx2")))
static inline __m256i e4m3_mag_avx2(__m256 y)
{
    __m256i a = _mm256_and_si256(_mm256_castps_si256(y), _mm256_set1_epi32(0x7FFFFFFF));
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(a, 20), _mm256_set1_epi32(1));
    __m256i norm = _mm256_add_epi32(a, _mm256_set1_epi32(0x7FFFF - (960 << 20)));
    norm = _mm256_srli_epi32(_mm256_add_epi32(norm, lsb), 20);
    norm = _mm256_min_epu32(norm, _mm256_set1_epi32(0x7E));
    __m256i sub = _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a), _mm256_set1_ps(16384.0f)));
    sub = _mm256_sub_epi32(sub, _mm256_set1_epi32(0x46800000));
    /* a - 2^-6's pattern is negative exactly for the subnormal results (a >= 0) */
    __m256i small = _mm256_sub_epi32(a, _mm256_set1_epi32(0x3C800000));
    return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(norm), _mm256_castsi256_ps(sub),
                                                _mm256_castsi256_ps(small)));
}

/* Codes of NG groups of 32 scaled by SV[g] into OUT (32 * NG bytes). The sign byte comes
 * from saturating packs of y itself (negative patterns, -0 included, stay negative). */
__attribute__((target("avx2")))
static void enc_fp8_row_avx2(const uint32_t *x, uint8_t *out, int64_t ng, const float *sv)
{
    const __m256i perm = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i sbit = _mm256_set1_epi8((char)0x80);
    for (int64_t g = 0; g < ng; g++) {
        const float *p = (const float *)(const void *)(x + g * GROUP);
        __m256 s = _mm256_set1_ps(sv[g]);
        __m256 y0 = _mm256_mul_ps(_mm256_loadu_ps(p), s);
        __m256 y1 = _mm256_mul_ps(_mm256_loadu_ps(p + 8), s);
        __m256 y2 = _mm256_mul_ps(_mm256_loadu_ps(p + 16), s);
        __m256 y3 = _mm256_mul_ps(_mm256_loadu_ps(p + 24), s);
        __m256i m = _mm256_packus_epi16(_mm256_packus_epi32(e4m3_mag_avx2(y0), e4m3_mag_avx2(y1)),
                                        _mm256_packus_epi32(e4m3_mag_avx2(y2), e4m3_mag_avx2(y3)));
        __m256i sg = _mm256_packs_epi16(
            _mm256_packs_epi32(_mm256_castps_si256(y0), _mm256_castps_si256(y1)),
            _mm256_packs_epi32(_mm256_castps_si256(y2), _mm256_castps_si256(y3)));
        __m256i c = _mm256_or_si256(m, _mm256_and_si256(sg, sbit));
        _mm256_storeu_si256((__m256i *)(void *)(out + g * GROUP), _mm256_permutevar8x32_epi32(c, perm));
    }
}

/* The AVX-512 form of enc_fp8_row_avx2 (same steps on 16 lanes; masks instead of blends;
 * the sign from the pattern's top bit), two groups per step: the four vectors' codes are
 * packed to bytes with unsigned saturation (codes are <= 0xFF) and put back in order. */
#define MX_Z __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2")))
MX_Z static inline __m512i e4m3_code_avx512(__m512 y)
{
    __m512i yi = _mm512_castps_si512(y);
    __m512i a = _mm512_and_si512(yi, _mm512_set1_epi32(0x7FFFFFFF));
    __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(a, 20), _mm512_set1_epi32(1));
    __m512i norm = _mm512_add_epi32(a, _mm512_set1_epi32(0x7FFFF - (960 << 20)));
    norm = _mm512_srli_epi32(_mm512_add_epi32(norm, lsb), 20);
    norm = _mm512_min_epu32(norm, _mm512_set1_epi32(0x7E));
    __m512i sub = _mm512_castps_si512(_mm512_add_ps(_mm512_castsi512_ps(a), _mm512_set1_ps(16384.0f)));
    sub = _mm512_sub_epi32(sub, _mm512_set1_epi32(0x46800000));
    __m512i mag = _mm512_mask_mov_epi32(norm, _mm512_cmplt_epu32_mask(a, _mm512_set1_epi32(0x3C800000)), sub);
    return _mm512_mask_or_epi32(mag, _mm512_movepi32_mask(yi), mag, _mm512_set1_epi32(0x80));
}

/* group_max_avx2 on 16 groups at a time: 16 vectors of lane maxima reduced by a transpose
 * tree whose last step leaves the groups in order (lane 4k + j: group 4k + j). */
MX_Z static inline __m512i lane_max_avx512(const uint32_t *x)
{
    const __m512i abs = _mm512_set1_epi32(0x7FFFFFFF);
    return _mm512_max_epi32(_mm512_and_si512(_mm512_loadu_si512((const void *)x), abs),
                            _mm512_and_si512(_mm512_loadu_si512((const void *)(x + 16)), abs));
}

MX_Z static void group_max_avx512(const uint32_t *x, int64_t ng, uint32_t *out)
{
    int64_t g = 0;
    for (; g + 16 <= ng; g += 16) {
        const uint32_t *xg = x + g * GROUP;
        /* written out: GCC -O2 keeps arrays of vectors in memory */
#define MX_P(k) _mm512_max_epi32(_mm512_unpacklo_epi32(lane_max_avx512(xg + 64 * (k)), lane_max_avx512(xg + 64 * (k) + 32)), \
                                 _mm512_unpackhi_epi32(lane_max_avx512(xg + 64 * (k)), lane_max_avx512(xg + 64 * (k) + 32)))
#define MX_Q(a, b) _mm512_max_epi32(_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b))
        __m512i p0 = MX_P(0), p1 = MX_P(1), p2 = MX_P(2), p3 = MX_P(3);
        __m512i p4 = MX_P(4), p5 = MX_P(5), p6 = MX_P(6), p7 = MX_P(7);
        __m512i q[4] = {MX_Q(p0, p1), MX_Q(p2, p3), MX_Q(p4, p5), MX_Q(p6, p7)};
#undef MX_P
#undef MX_Q
        __m512i r01 = _mm512_max_epi32(_mm512_shuffle_i32x4(q[0], q[1], 0x44), _mm512_shuffle_i32x4(q[0], q[1], 0xEE));
        __m512i r23 = _mm512_max_epi32(_mm512_shuffle_i32x4(q[2], q[3], 0x44), _mm512_shuffle_i32x4(q[2], q[3], 0xEE));
        _mm512_storeu_si512((void *)(out + g), _mm512_max_epi32(_mm512_shuffle_i32x4(r01, r23, 0x88),
                                                                 _mm512_shuffle_i32x4(r01, r23, 0xDD)));
    }
    if (g < ng)
        group_max_avx2(x + g * GROUP, ng - g, out + g);
}

/* e4m3 codes of NG groups of x scaled by sv, in pairs of groups; with PROBE (a constant at
 * each call, so the test folds away) it also returns a bit per group of the pairs whose codes
 * hold an e4m3 subnormal (1 to 7 without the sign; the last odd group is not counted). */
MX_Z static inline __attribute__((always_inline)) unsigned enc_fp8_pairs_avx512(const uint32_t *x, uint8_t *out,
                                                                                int64_t ng, const float *sv,
                                                                                int probe)
{
    const __m512i perm = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    unsigned subs = 0;
    int64_t g = 0;
    for (; g + 2 <= ng; g += 2) {
        const float *p = (const float *)(const void *)(x + g * GROUP);
        __m512 s0 = _mm512_set1_ps(sv[g]), s1 = _mm512_set1_ps(sv[g + 1]);
        __m512i c0 = e4m3_code_avx512(_mm512_mul_ps(_mm512_loadu_ps(p), s0));
        __m512i c1 = e4m3_code_avx512(_mm512_mul_ps(_mm512_loadu_ps(p + 16), s0));
        __m512i c2 = e4m3_code_avx512(_mm512_mul_ps(_mm512_loadu_ps(p + 32), s1));
        __m512i c3 = e4m3_code_avx512(_mm512_mul_ps(_mm512_loadu_ps(p + 48), s1));
        /* per 128-bit lane k: bytes c0[4k..4k+3] c1[..] c2[..] c3[..]; after the permutation
         * bytes 0-31 are group g's, 32-63 group g + 1's */
        __m512i b = _mm512_packus_epi16(_mm512_packus_epi32(c0, c1), _mm512_packus_epi32(c2, c3));
        b = _mm512_permutexvar_epi32(perm, b);
        _mm512_storeu_si512((void *)(out + g * GROUP), b);
        if (probe) {
            __m512i m = _mm512_sub_epi8(_mm512_and_si512(b, _mm512_set1_epi8(0x7F)), _mm512_set1_epi8(1));
            uint64_t sub = _mm512_cmplt_epu8_mask(m, _mm512_set1_epi8(7));
            subs |= ((uint32_t)sub ? 1u : 0u) << g | (sub >> 32 ? 2u : 0u) << g;
        }
    }
    if (g < ng) {
        const float *p = (const float *)(const void *)(x + g * GROUP);
        __m512 s0 = _mm512_set1_ps(sv[g]);
        __m512i c0 = e4m3_code_avx512(_mm512_mul_ps(_mm512_loadu_ps(p), s0));
        __m512i c1 = e4m3_code_avx512(_mm512_mul_ps(_mm512_loadu_ps(p + 16), s0));
        _mm_storeu_si128((__m128i *)(void *)(out + g * GROUP), _mm512_cvtepi32_epi8(c0));
        _mm_storeu_si128((__m128i *)(void *)(out + g * GROUP + 16), _mm512_cvtepi32_epi8(c1));
    }
    return subs;
}

MX_Z static void enc_fp8_row_avx512(const uint32_t *x, uint8_t *out, int64_t ng, const float *sv)
{
    (void)enc_fp8_pairs_avx512(x, out, ng, sv, 0);
}

/* enc_fp8_row_avx512 on a chunk of NG <= 16 groups that also counts the groups the 16-bit-lane
 * encoder would hand back to it: those in REDO (bit per group) and those with an e4m3
 * subnormal code (that encoder's test differs at 2^-10 and 2^-6, but the count only picks the
 * kernel of the next chunk and both give the same codes). */
MX_Z static int enc_fp8_probe_avx512(const uint32_t *x, uint8_t *out, int64_t ng, const float *sv,
                                     unsigned redo)
{
    return __builtin_popcount(redo | enc_fp8_pairs_avx512(x, out, ng, sv, 1));
}

/* ---- MXFP8 on 16-bit lanes -----------------------------------------------------------
 * e4m3 keeps 3 of fp32's 23 mantissa bits, so x's pattern can first be cut to its upper 16
 * bits (sign, exponent, 7 mantissa bits) rounding to odd (bit 16 ORed with "any lower bit
 * set"): a later round-to-nearest-even to 3 bits (7 >= 3 + 2) then equals the direct one.
 * A group's two vectors of x become one vector of 32 such patterns w. For a group of scale
 * 2^E, |y|'s pattern is |w| + (E << 7) when x is normal (exact scaling), so with |w| first
 * clamped to 448's pattern scaled by 2^-E (y >= 448 saturates to 0x7E; 448 < y < 480 rounds
 * to 448 anyway), the code is (|w| + K + lsb) >> 4 (arithmetic) with K = 7 - (120 << 7) +
 * (E << 7), and the unsigned-saturating pack to bytes turns results below 2^-6 into 0,
 * right for y <= 2^-10. Groups with some 2^-10 < |y| < 2^-6 (e4m3 subnormals) go back to
 * the fp32 kernel, as do groups with e outside [11, 240]: inside, the constants fit 16 bits
 * and a subnormal x scales to y below 2^-10 or into the checked range; NaN and +-Inf groups
 * have e >= 247. */
MX_Z static inline __m512i fp8_w2_avx512(__m512i x0, __m512i x1)
{
    const __m512i hi = _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33,
                                        31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    /* bit 16 of x + 0xFFFF is bit 16 of x XOR (low half non-zero), so ORing that bit in
     * (and keeping the bits above from x) gives the sticky OR; shifts and compares are
     * scarcer than adds and logic on the targets of interest */
    const __m512i ones = _mm512_set1_epi32(0xFFFF), keep = _mm512_set1_epi32((int)0xFFFEFFFFu);
    x0 = _mm512_ternarylogic_epi32(x0, _mm512_add_epi32(x0, ones), keep, 0xF4);
    x1 = _mm512_ternarylogic_epi32(x1, _mm512_add_epi32(x1, ones), keep, 0xF4);
    return _mm512_permutex2var_epi16(x0, hi, x1);
}

MX_Z static inline __m512i fp8_w_avx512(const uint32_t *x)
{
    return fp8_w2_avx512(_mm512_loadu_si512((const void *)x), _mm512_loadu_si512((const void *)(x + 16)));
}

/* The 32 patterns w of a group of 16-bit elements: bf16 ones are already x's upper half
 * (nothing to round); f16 ones are widened exactly (vcvtph2ps) and cut as above. */
MX_Z static inline __m512i fp8_w16_avx512(const uint16_t *x, int bf16)
{
    if (bf16)
        return _mm512_loadu_si512((const void *)x);
    return fp8_w2_avx512(_mm512_castps_si512(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)x))),
                         _mm512_castps_si512(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(x + 16)))));
}

/* Codes (before the pack) of one group's 32 patterns W; *SUB gets the lanes whose |y| may
 * be an e4m3 subnormal above 2^-10: t = |y|'s pattern + 7 + lsb - (120 << 7) lies in
 * [-0x178, 0x87] for |y|'s pattern in [0x3A81, 0x3C7F] (plus 2^-6 itself at most, which
 * only sends its group to the fp32 kernel for nothing). K and the clamp AMAX broadcast. */
MX_Z static inline __m512i fp8_h_avx512(__m512i w, __m512i k, __m512i amax, __mmask32 *sub)
{
    __m512i a = _mm512_and_si512(w, _mm512_set1_epi16(0x7FFF));
    __m512i lsb = _mm512_and_si512(_mm512_srli_epi16(a, 4), _mm512_set1_epi16(1));
    __m512i t = _mm512_add_epi16(_mm512_add_epi16(_mm512_min_epu16(a, amax), k), lsb);
    *sub = _mm512_cmplt_epu16_mask(_mm512_add_epi16(t, _mm512_set1_epi16(0x178)), _mm512_set1_epi16(0x200));
    return _mm512_srai_epi16(t, 4);
}

__attribute__((target("avx2,f16c")))
static void widen_row_avx2(ptort_dtype dt, const uint8_t *p, uint32_t *out, int64_t n, int64_t npad);

/* Group G by the multiplying kernel (16-bit sources widened first). */
MX_Z static void enc_fp8_group32(const uint32_t *x, const uint16_t *x16, int bf16, int64_t g,
                                 uint8_t *out, const float *sv)
{
    if (!x16) {
        enc_fp8_row_avx512(x + g * GROUP, out + g * GROUP, 1, sv + g);
        return;
    }
    uint32_t w[GROUP] __attribute__((aligned(64)));
    widen_row_avx2(bf16 ? PTORT_BF16 : PTORT_F16, (const uint8_t *)(x16 + g * GROUP), w, GROUP, GROUP);
    enc_fp8_row_avx512(w, out + g * GROUP, 1, sv + g);
}

/* More groups of a 16-group chunk than this going back to the fp32 kernel cost more than
 * the fp32 kernel on the whole chunk (data with a wide exponent spread inside its groups).
 * After such a chunk, MX_SLOW_RUN - 1 chunks go to the fp32 kernel unchecked, then one that
 * counts again whether the 16-bit-lane encoder would pay. */
#define MX_REDO_MAX 3
#define MX_SLOW_RUN 4

/* X: fp32 patterns, or X16 (non-NULL): f16 (BF16 = 0) or bf16 ones. Inlined into
 * enc_fp8_h_avx512 once per source kind, so that the loop has no test of it. For fp32,
 * *SLOW (0 at the start of a call) is non-zero after a chunk with more than MX_REDO_MAX
 * groups for the fp32 kernel: the next chunks then go to that kernel whole (see
 * MX_SLOW_RUN), and so does a chunk whose exponents alone already send that many back.
 * Both kernels give the same codes, so this only changes the time. */
MX_Z __attribute__((always_inline)) static inline void
enc_fp8_h_body(const uint32_t *x, const uint16_t *x16, int bf16, uint8_t *out, int64_t ng,
               const uint32_t *ge, const float *sv, int *slow)
{
    const __m512i qperm = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    uint32_t kk[16] __attribute__((aligned(64))), am[16] __attribute__((aligned(64)));
    for (int64_t g0 = 0; g0 < ng; g0 += 16) {
        int cnt = ng - g0 < 16 ? (int)(ng - g0) : 16;
        __mmask16 live = (__mmask16)((1u << cnt) - 1);
        /* per group, as 16-bit values in both halves: K = 7 - (120 << 7) + ((127 - e) << 7)
         * = 0x387 - e * 128, and 448's pattern 0x43E0 - ((127 - e) << 7) = 0x460 + e * 128 */
        __m512i e = _mm512_maskz_loadu_epi32(live, ge + g0);
        __m512i e7 = _mm512_mullo_epi32(_mm512_slli_epi32(e, 7), _mm512_set1_epi32(0x10001));
        _mm512_store_si512((void *)kk, _mm512_sub_epi16(_mm512_set1_epi16(0x387), e7));
        _mm512_store_si512((void *)am, _mm512_add_epi16(e7, _mm512_set1_epi16(0x460)));
        unsigned ok = _mm512_mask_cmple_epu32_mask(live, _mm512_sub_epi32(e, _mm512_set1_epi32(11)),
                                                   _mm512_set1_epi32(240 - 11));
        /* the groups the fp32 kernel redoes; no call in this loop, so that the constants
         * stay in registers. An odd last group is paired with zeros and half stored. */
        unsigned redo = ~ok & live;
        if (!x16 && *slow > 1) {
            enc_fp8_row_avx512(x + g0 * GROUP, out + g0 * GROUP, cnt, sv + g0);
            --*slow;
            continue;
        }
        if (!x16 && (*slow || __builtin_popcount(redo) > MX_REDO_MAX)) {
            *slow = enc_fp8_probe_avx512(x + g0 * GROUP, out + g0 * GROUP, cnt, sv + g0, redo) > MX_REDO_MAX
                    ? MX_SLOW_RUN : 0;
            continue;
        }
        for (int j = 0; j < cnt; j += 2) {
            int two = j + 1 < cnt;
            __m512i w0, w1 = _mm512_setzero_si512();
            if (x16) {
                w0 = fp8_w16_avx512(x16 + (g0 + j) * GROUP, bf16);
                if (two)
                    w1 = fp8_w16_avx512(x16 + (g0 + j + 1) * GROUP, bf16);
            } else {
                w0 = fp8_w_avx512(x + (g0 + j) * GROUP);
                if (two)
                    w1 = fp8_w_avx512(x + (g0 + j + 1) * GROUP);
            }
            __mmask32 s0, s1;
            __m512i n0 = fp8_h_avx512(w0, _mm512_set1_epi32((int)kk[j]), _mm512_set1_epi32((int)am[j]), &s0);
            __m512i n1 = fp8_h_avx512(w1, _mm512_set1_epi32((int)kk[j + 1]), _mm512_set1_epi32((int)am[j + 1]), &s1);
            redo |= (s0 ? 1u : 0u) << j | (s1 && two ? 2u : 0u) << j;
            __m512i b = _mm512_ternarylogic_epi32(_mm512_packus_epi16(n0, n1), _mm512_packs_epi16(w0, w1),
                                                  _mm512_set1_epi8((char)0x80), 0xF8);
            b = _mm512_permutexvar_epi64(qperm, b);
            if (two)
                _mm512_storeu_si512((void *)(out + (g0 + j) * GROUP), b);
            else
                _mm256_storeu_si256((__m256i *)(void *)(out + (g0 + j) * GROUP), _mm512_castsi512_si256(b));
        }
        if (!x16 && __builtin_popcount(redo) > MX_REDO_MAX) {
            enc_fp8_row_avx512(x + g0 * GROUP, out + g0 * GROUP, cnt, sv + g0);
            *slow = MX_SLOW_RUN;
            continue;
        }
        for (; redo; redo &= redo - 1) {
            int64_t g = g0 + __builtin_ctz(redo);
            enc_fp8_group32(x, x16, bf16, g, out, sv);
        }
    }
}

MX_Z static void enc_fp8_h_avx512(const uint32_t *x, const uint16_t *x16, int bf16, uint8_t *out,
                                  int64_t ng, const uint32_t *ge, const float *sv, int *slow)
{
    if (!x16)
        enc_fp8_h_body(x, NULL, 0, out, ng, ge, sv, slow);
    else if (bf16)
        enc_fp8_h_body(NULL, x16, 1, out, ng, ge, sv, slow);
    else
        enc_fp8_h_body(NULL, x16, 0, out, ng, ge, sv, slow);
}

/* Widens a f16 / bf16 row to fp32 patterns (vcvtph2ps is exact; it quiets a signalling NaN,
 * which only matters for a NaN group, whose outputs do not depend on the payload). */
__attribute__((target("avx2,f16c")))
static void widen_row_avx2(ptort_dtype dt, const uint8_t *p, uint32_t *out, int64_t n, int64_t npad)
{
    const uint16_t *h = (const uint16_t *)(const void *)p;
    int64_t i = 0;
    if (dt == PTORT_F16) {
        for (; i + 8 <= n; i += 8)
            _mm256_storeu_ps((float *)(void *)(out + i),
                             _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(h + i))));
        for (; i < n; i++)
            out[i] = f16_bits_to_f32_bits(h[i]);
    } else {
        for (; i + 8 <= n; i += 8)
            _mm256_storeu_si256((__m256i *)(void *)(out + i),
                                _mm256_slli_epi32(_mm256_cvtepu16_epi32(
                                    _mm_loadu_si128((const __m128i *)(const void *)(h + i))), 16));
        for (; i < n; i++)
            out[i] = (uint32_t)h[i] << 16;
    }
    for (; i < npad; i++)
        out[i] = 0;
}

/* ---- MXFP4 straight from the 16-bit source (f16 / bf16, AVX2) -----------------------
 * The e2m1 code of y = x * 2^(127 - e) only depends on where |x| lies among the 7 rounding
 * midpoints 0.25 0.75 1.25 1.75 2.5 3.5 5 scaled by 2^(e - 127) (ties to the even code: >
 * for the odd-indexed codes' lower midpoints 0.25 1.25 2.5 5, >= for 0.75 1.75 3.5). As
 * sign-cleared 16-bit patterns order magnitudes, code = sign * 8 + the number of thresholds
 * P_i below |x|'s pattern, P_i the largest finite pattern whose value is <= (>: <) the
 * scaled midpoint. That equals the fp32 path bit for bit: x * s is exact except where it
 * underflows (far below 0.25) or overflows (code 7 both ways), and for bf16 the rounding of
 * the exact product to bf16 changes nothing; +-Inf lies above every P_i (saturates to 7).
 * NaN groups are overwritten afterwards as in the fp32 path. 16 lanes per vector and no
 * widening pass; the group maxima are 16-bit integer maxima too. */
typedef struct {
    uint16_t t[7][16];                     /* threshold i, broadcast to a vector's 16 lanes */
    uint16_t c[32];                        /* t0 .. t6 in lanes 0 .. 6 (AVX-512 lookups) */
} Fp4Thr;

static Fp4Thr fp4_thr[2][256] __attribute__((aligned(32)));    /* [bf16][e] */
static volatile int fp4_thr_ready[2];

static double half_value(int bf16, uint32_t p)
{
    return bf16 ? (double)u2f(p << 16) : (double)u2f(f16_bits_to_f32_bits((uint16_t)p));
}

/* Filled on first use; concurrent first uses store the same values. */
static const Fp4Thr *fp4_thresholds(int bf16)
{
    if (!__atomic_load_n(&fp4_thr_ready[bf16], __ATOMIC_ACQUIRE)) {
        static const double mid[7] = {0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0};
        uint32_t maxf = bf16 ? 0x7F7Fu : 0x7BFFu;
        for (int e = 0; e < 256; e++)
            for (int i = 0; i < 7; i++) {
                double t = ldexp(mid[i], e - 127);
                uint32_t lo = 0, hi = maxf;          /* value(0) = 0 < t */
                while (lo < hi) {
                    uint32_t md = (lo + hi + 1) / 2;
                    double v = half_value(bf16, md);
                    if ((i & 1) ? v < t : v <= t)
                        lo = md;
                    else
                        hi = md - 1;
                }
                for (int l = 0; l < 16; l++)
                    __atomic_store_n(&fp4_thr[bf16][e].t[i][l], (uint16_t)lo, __ATOMIC_RELAXED);
                __atomic_store_n(&fp4_thr[bf16][e].c[i], (uint16_t)lo, __ATOMIC_RELAXED);
            }
        __atomic_store_n(&fp4_thr_ready[bf16], 1, __ATOMIC_RELEASE);
    }
    return fp4_thr[bf16];
}

/* Largest |x| pattern of each of NG groups of 32 16-bit elements, widened to fp32 bits
 * (vcvtph2ps is exact and keeps a NaN a NaN; bf16 is a shift). */
__attribute__((target("avx2,f16c")))
static void group_max16_avx2(const uint16_t *x, int64_t ng, int bf16, uint32_t *out)
{
    const __m256i abs = _mm256_set1_epi16(0x7FFF);
    int64_t g = 0;
    for (; g + 8 <= ng; g += 8) {
        __m256i m[8];
        for (int j = 0; j < 8; j++) {
            const __m256i *p = (const __m256i *)(const void *)(x + (g + j) * GROUP);
            m[j] = _mm256_max_epi16(_mm256_and_si256(_mm256_loadu_si256(p), abs),
                                    _mm256_and_si256(_mm256_loadu_si256(p + 1), abs));
        }
        __m256i a01 = _mm256_max_epi16(_mm256_unpacklo_epi16(m[0], m[1]), _mm256_unpackhi_epi16(m[0], m[1]));
        __m256i a23 = _mm256_max_epi16(_mm256_unpacklo_epi16(m[2], m[3]), _mm256_unpackhi_epi16(m[2], m[3]));
        __m256i a45 = _mm256_max_epi16(_mm256_unpacklo_epi16(m[4], m[5]), _mm256_unpackhi_epi16(m[4], m[5]));
        __m256i a67 = _mm256_max_epi16(_mm256_unpacklo_epi16(m[6], m[7]), _mm256_unpackhi_epi16(m[6], m[7]));
        __m256i b03 = _mm256_max_epi16(_mm256_unpacklo_epi32(a01, a23), _mm256_unpackhi_epi32(a01, a23));
        __m256i b47 = _mm256_max_epi16(_mm256_unpacklo_epi32(a45, a67), _mm256_unpackhi_epi32(a45, a67));
        __m256i c = _mm256_max_epi16(_mm256_unpacklo_epi64(b03, b47), _mm256_unpackhi_epi64(b03, b47));
        __m128i h = _mm_max_epi16(_mm256_castsi256_si128(c), _mm256_extracti128_si256(c, 1));
        __m256i w = bf16 ? _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16)
                         : _mm256_castps_si256(_mm256_cvtph_ps(h));
        _mm256_storeu_si256((__m256i *)(void *)(out + g), w);
    }
    for (; g < ng; g++) {
        uint32_t mx = 0;
        for (int i = 0; i < GROUP; i++) {
            uint32_t a = x[g * GROUP + i] & 0x7FFFu;
            mx = a > mx ? a : mx;
        }
        out[g] = bf16 ? mx << 16 : f16_bits_to_f32_bits((uint16_t)mx);
    }
    _mm256_zeroupper();
}

/* Packed e2m1 bytes (16 per group) of NG groups of 16-bit elements, group g with the
 * thresholds of its exponent GE[g]. */
__attribute__((target("avx2")))
static void enc_fp4_h_avx2(const uint16_t *x, uint8_t *out, int64_t ng, const uint32_t *ge,
                           const Fp4Thr *thr)
{
    const __m256i abs = _mm256_set1_epi16(0x7FFF), eight = _mm256_set1_epi16(8);
    const __m256i pair = _mm256_set1_epi32(0x00100001);      /* lo + 16 * hi */
    const __m256i perm = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (int64_t g = 0; g < ng; g++) {
        const __m256i *t = (const __m256i *)(const void *)thr[ge[g] & 0xFFu].t;
        const __m256i *p = (const __m256i *)(const void *)(x + g * GROUP);
        __m256i h0 = _mm256_loadu_si256(p), h1 = _mm256_loadu_si256(p + 1);
        __m256i a0 = _mm256_and_si256(h0, abs), a1 = _mm256_and_si256(h1, abs);
        __m256i c0 = _mm256_and_si256(_mm256_srai_epi16(h0, 15), eight);
        __m256i c1 = _mm256_and_si256(_mm256_srai_epi16(h1, 15), eight);
#define FP4_STEP(i)                                                   \
        do {                                                          \
            __m256i ti = _mm256_load_si256(t + (i));                  \
            c0 = _mm256_sub_epi16(c0, _mm256_cmpgt_epi16(a0, ti));    \
            c1 = _mm256_sub_epi16(c1, _mm256_cmpgt_epi16(a1, ti));    \
        } while (0)
        FP4_STEP(0); FP4_STEP(1); FP4_STEP(2); FP4_STEP(3); FP4_STEP(4); FP4_STEP(5); FP4_STEP(6);
#undef FP4_STEP
        __m256i w = _mm256_packus_epi32(_mm256_madd_epi16(c0, pair), _mm256_madd_epi16(c1, pair));
        w = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(w, w), perm);
        _mm_storeu_si128((__m128i *)(void *)(out + g * 16), _mm256_castsi256_si128(w));
    }
    _mm256_zeroupper();
}

/* enc_fp4_h_avx2 with one 32-lane vector per group and a binary search instead of 7
 * compares: the code's magnitude is the number of thresholds below |x|'s pattern, i.e.
 * 4 [|x| > t3] + 2 [|x| > t(that + 1)] + [|x| > t(that)], the thresholds looked up per lane
 * (vpermw) from the compact copy. madd pairs the codes (lo + 16 * hi, one per 32-bit lane);
 * four groups' pairs are packed to 64 bytes and put back in order. */
MX_Z static inline __m512i fp4_pairs_avx512(const uint16_t *x, const Fp4Thr *t)
{
    const __m512i abs = _mm512_set1_epi16(0x7FFF), one = _mm512_set1_epi16(1);
    __m512i tv = _mm512_loadu_si512((const void *)t->c);
    __m512i t3 = _mm512_broadcast_i64x4(_mm256_load_si256((const __m256i *)(const void *)t->t[3]));
    __m512i h = _mm512_loadu_si512((const void *)x);
    __m512i a = _mm512_and_si512(h, abs);
    __m512i c = _mm512_maskz_mov_epi16(_mm512_cmpgt_epi16_mask(a, t3), _mm512_set1_epi16(4));
    __m512i th = _mm512_permutexvar_epi16(_mm512_add_epi16(c, one), tv);
    c = _mm512_mask_add_epi16(c, _mm512_cmpgt_epi16_mask(a, th), c, _mm512_set1_epi16(2));
    th = _mm512_permutexvar_epi16(c, tv);
    c = _mm512_mask_add_epi16(c, _mm512_cmpgt_epi16_mask(a, th), c, one);
    c = _mm512_mask_add_epi16(c, _mm512_movepi16_mask(h), c, _mm512_set1_epi16(8));   /* c < 8 */
    return _mm512_madd_epi16(c, _mm512_set1_epi32(0x00100001));
}

MX_Z static void enc_fp4_h_avx512(const uint16_t *x, uint8_t *out, int64_t ng, const uint32_t *ge,
                                  const Fp4Thr *thr)
{
    const __m512i perm = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    int64_t g = 0;
    for (; g + 4 <= ng; g += 4) {
        __m512i m0 = fp4_pairs_avx512(x + g * GROUP, &thr[ge[g] & 0xFFu]);
        __m512i m1 = fp4_pairs_avx512(x + (g + 1) * GROUP, &thr[ge[g + 1] & 0xFFu]);
        __m512i m2 = fp4_pairs_avx512(x + (g + 2) * GROUP, &thr[ge[g + 2] & 0xFFu]);
        __m512i m3 = fp4_pairs_avx512(x + (g + 3) * GROUP, &thr[ge[g + 3] & 0xFFu]);
        /* per 128-bit lane k: bytes m0[4k..4k+3] m1[..] m2[..] m3[..] */
        __m512i b = _mm512_packus_epi16(_mm512_packus_epi32(m0, m1), _mm512_packus_epi32(m2, m3));
        _mm512_storeu_si512((void *)(out + g * 16), _mm512_permutexvar_epi32(perm, b));
    }
    for (; g < ng; g++)
        _mm_storeu_si128((__m128i *)(void *)(out + g * 16),
                         _mm512_cvtepi32_epi8(fp4_pairs_avx512(x + g * GROUP, &thr[ge[g] & 0xFFu])));
}

/* ---- MXFP4 with AVX-512 VBMI: the code from a table ----------------------------------
 * For a group whose scale 2^E (E = 127 - e) keeps every element's scaled pattern exact, the
 * threshold comparisons of enc_fp4_h_avx2 become comparisons of b = max(|x|'s pattern -
 * D, 0) with fixed values, D = P - (E << m) (m mantissa bits, P the pattern of 0.21875,
 * 0x3300 in f16 and 0x3E60 in bf16, whose distance below 0.25 is 0x100 in f16 units (bf16:
 * 0x20, shifted left by 3 to the same scale)): the midpoints 0.25 0.75 1.25 1.75 2.5 3.5 5 lie
 * at b = 0x100 0x700 0xA00 0xC00 0xE00 0x1000 0x1200, all multiples of 0x100, the
 * "above" ones (0.25 1.25 2.5 5) reached when b's high byte is larger or equal with a
 * non-zero low byte, the "at least" ones (0.75 1.75 3.5) when the high byte is at least
 * theirs. So s = 2 * (b >> 8) + (low byte != 0) (a byte min and vpmaddubsw) decides the
 * code, and s | sign << 6 indexes a 128-entry byte table (vpermi2b). Exact when the scaled
 * values are: for f16, E <= 12 (a subnormal x, < 2^-14, then scales below 0.25; b is 0 or
 * below 0x100) and D fits (E >= -19); for bf16 (fp32's exponent range) E in [-125, 124].
 * All the groups' |y| are below 8 (OCP) or about 6 (NV), so s < 64. Other groups (all-zero
 * or tiny groups, NaN, +-Inf, the ends of bf16's range) take enc_fp4_h_avx512. */
#define MX_VB __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vbmi,avx2")))

static int mx_vbmi(void) { return ptort_use_avx512vbmi(); }

/* Table index s | sign << 6 of the 32 elements at X (16-bit patterns); D in both halves
 * of DD. */
MX_VB static inline __m512i fp4_index_vbmi(const uint16_t *x, uint32_t dd, int bf16)
{
    __m512i h = _mm512_loadu_si512((const void *)x);
    __m512i a = _mm512_and_si512(h, _mm512_set1_epi16(0x7FFF));
    __m512i b = _mm512_subs_epu16(a, _mm512_set1_epi32((int)dd));
    if (bf16)
        b = _mm512_slli_epi16(b, 3);
    b = _mm512_min_epu8(b, _mm512_set1_epi16((short)0xFF01));
    __m512i s = _mm512_maddubs_epi16(b, _mm512_set1_epi16(0x0201));
    return _mm512_ternarylogic_epi32(s, _mm512_srli_epi16(h, 9), _mm512_set1_epi16(0x40), 0xF8);
}

MX_VB static void enc_fp4_h_vbmi(const uint16_t *x, uint8_t *out, int64_t ng, const uint32_t *ge,
                                 const Fp4Thr *thr, int bf16)
{
    /* code magnitudes: one step past s = 3 14 21 24 29 32 37; the upper half adds the sign */
    static const uint8_t tab[128] __attribute__((aligned(64))) = {
        0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5,
        6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 12, 13, 13, 13,
        14, 14, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15};
    const __m512i tlo = _mm512_load_si512((const void *)tab), thi = _mm512_load_si512((const void *)(tab + 64));
    /* even bytes of two vectors; low bytes of 16-bit lanes */
    const __m512i even = _mm512_set_epi8(126, 124, 122, 120, 118, 116, 114, 112, 110, 108, 106, 104, 102, 100, 98, 96,
                                         94, 92, 90, 88, 86, 84, 82, 80, 78, 76, 74, 72, 70, 68, 66, 64,
                                         62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34, 32,
                                         30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i pairw = _mm512_set1_epi16(0x1001);      /* lo + 16 * hi */
    int64_t g0 = 0;
    for (; g0 < ng; g0 += 16) {
        int cnt = ng - g0 < 16 ? (int)(ng - g0) : 16;
        __mmask16 live = (__mmask16)((1u << cnt) - 1);
        /* D of 16 groups in both 16-bit halves, 0x3E60 - (127 - e) * 128 (bf16) or 0x3300 -
         * (127 - e) * 1024 (f16), and which groups are exact: 127 - e in [-125, 124] or
         * [-19, 12] */
        uint32_t dd[16] __attribute__((aligned(64)));
        __m512i e = _mm512_maskz_loadu_epi32(live, ge + g0), d;
        unsigned ok;
        if (bf16) {
            d = _mm512_sub_epi32(_mm512_slli_epi32(e, 7), _mm512_set1_epi32(0x120));
            ok = _mm512_cmple_epu32_mask(_mm512_sub_epi32(e, _mm512_set1_epi32(3)), _mm512_set1_epi32(252 - 3));
        } else {
            d = _mm512_sub_epi32(_mm512_slli_epi32(e, 10), _mm512_set1_epi32(0x1C900));
            ok = _mm512_cmple_epu32_mask(_mm512_sub_epi32(e, _mm512_set1_epi32(115)), _mm512_set1_epi32(146 - 115));
        }
        _mm512_store_si512((void *)dd, _mm512_or_si512(_mm512_slli_epi32(d, 16),
                                                       _mm512_and_si512(d, _mm512_set1_epi32(0xFFFF))));
        for (int j = 0; j < cnt; j += 4) {
            /* a last block of 1 to 3 groups reads only those and stores their bytes */
            int rem = cnt - j;
            const uint16_t *xg = x + (g0 + j) * GROUP;
            __m512i z = _mm512_setzero_si512();
            __m512i h0 = fp4_index_vbmi(xg, dd[j], bf16);
            __m512i h1 = rem > 1 ? fp4_index_vbmi(xg + 32, dd[j + 1], bf16) : z;
            __m512i h2 = rem > 2 ? fp4_index_vbmi(xg + 64, dd[j + 2], bf16) : z;
            __m512i h3 = rem > 3 ? fp4_index_vbmi(xg + 96, dd[j + 3], bf16) : z;
            __m512i i01 = _mm512_permutex2var_epi8(h0, even, h1), i23 = _mm512_permutex2var_epi8(h2, even, h3);
            __m512i p01 = _mm512_maddubs_epi16(_mm512_permutex2var_epi8(tlo, i01, thi), pairw);
            __m512i p23 = _mm512_maddubs_epi16(_mm512_permutex2var_epi8(tlo, i23, thi), pairw);
            __m512i o4 = _mm512_permutex2var_epi8(p01, even, p23);
            if (rem >= 4)
                _mm512_storeu_si512((void *)(out + (g0 + j) * 16), o4);
            else
                _mm512_mask_storeu_epi8(out + (g0 + j) * 16, ((__mmask64)1 << (16 * rem)) - 1, o4);
        }
        /* the others again with thresholds (no call in the loop above, so that its
         * constants stay in registers) */
        for (unsigned redo = ~ok & live; redo; redo &= redo - 1) {
            int64_t g = g0 + __builtin_ctz(redo);
            enc_fp4_h_avx512(x + g * GROUP, out + g * 16, 1, ge + g, thr);
        }
    }
}

/* group_max16_avx2 on 16 groups at a time: a transpose tree over 16-bit lanes leaves the
 * maxima of groups 0-7 in the first 128-bit lane and of groups 8-15 in the third. */
MX_Z static void group_max16_avx512(const uint16_t *x, int64_t ng, int bf16, uint32_t *out)
{
    const __m512i abs = _mm512_set1_epi16(0x7FFF);
    int64_t g = 0;
    for (; g + 16 <= ng; g += 16) {
        const uint16_t *xg = x + g * GROUP;
#define MX_A(k) _mm512_and_si512(_mm512_loadu_si512((const void *)(xg + 32 * (k))), abs)
#define MX_P(k) _mm512_max_epu16(_mm512_unpacklo_epi16(MX_A(2 * (k)), MX_A(2 * (k) + 1)), \
                                 _mm512_unpackhi_epi16(MX_A(2 * (k)), MX_A(2 * (k) + 1)))
#define MX_Q(a, b) _mm512_max_epu16(_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b))
#define MX_R(a, b) _mm512_max_epu16(_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b))
        __m512i p0 = MX_P(0), p1 = MX_P(1), p2 = MX_P(2), p3 = MX_P(3);
        __m512i p4 = MX_P(4), p5 = MX_P(5), p6 = MX_P(6), p7 = MX_P(7);
        __m512i r0 = MX_R(MX_Q(p0, p1), MX_Q(p2, p3)), r1 = MX_R(MX_Q(p4, p5), MX_Q(p6, p7));
#undef MX_A
#undef MX_P
#undef MX_Q
#undef MX_R
        __m512i s = _mm512_max_epu16(_mm512_shuffle_i32x4(r0, r1, 0x44), _mm512_shuffle_i32x4(r0, r1, 0xEE));
        s = _mm512_max_epu16(s, _mm512_shuffle_i32x4(s, s, 0xB1));
        __m256i w = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_castsi512_si128(s)),
                                            _mm512_extracti32x4_epi32(s, 2), 1);
        __m512i f = bf16 ? _mm512_slli_epi32(_mm512_cvtepu16_epi32(w), 16)
                         : _mm512_castps_si512(_mm512_cvtph_ps(w));
        _mm512_storeu_si512((void *)(out + g), f);
    }
    if (g < ng)
        group_max16_avx2(x + g * GROUP, ng - g, bf16, out + g);
}
#endif

#ifdef PTORT_MX_AVX2
/* Group parameters of fp32 sources for many groups at once (group_params without branches,
 * so that the loop vectorizes); NaN groups get e = 0xFF, s = 0 and quiet NaNs. */
PTORT_HOT
static uint32_t params_f32(const MxCfg *cfg, const uint32_t *gmax, int64_t n, uint32_t *ge,
                           float *gs, uint32_t *gm, uint32_t *gsv)
{
    uint32_t anynan = 0;
    uint32_t emax = cfg->emax, trunc = cfg->fp4 ? 0xFFFF0000u : 0xFFFFFFFFu;
    float k = cfg->k;
    if (cfg->nv) {
        for (int64_t i = 0; i < n; i++) {
            uint32_t mb = gmax[i];
            uint32_t d = f2u(u2f(mb) * k);
            uint32_t de = d >> 23, dm = d & 0x7FFFFFu;
            uint32_t e = de + (dm != 0);
            e = (de | (dm > 0x400000u)) == 0 ? 0 : e;   /* subnormal d, m <= 0x400000 */
            e = de >= 0xFE ? 0xFE : e;                    /* de 0xFE, or d = +Inf */
            e = mb == 0 ? 0 : e;
            ge[i] = e;
            gm[i] = mb;
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            uint32_t mo = gmax[i] & trunc;
            uint32_t big = mo >> 23;
            ge[i] = big > emax ? big - emax : 0;
            gm[i] = mo;
        }
    }
    for (int64_t i = 0; i < n; i++) {
        uint32_t nanm = gmax[i] > 0x7F800000u ? ~0u : 0u, e = ge[i];
        uint32_t sb = e < 254 ? (254 - e) << 23 : 0x00400000u;
        ge[i] = (e & ~nanm) | (0xFFu & nanm);
        gsv[i] = (sb & ~nanm) | (0x7FC00000u & nanm);
        gs[i] = u2f(sb & ~nanm);
        gm[i] = (gm[i] & ~nanm) | (0x7FC00000u & nanm);
        anynan |= nanm;
    }
    return anynan;                              /* non-zero: some group is poisoned */
}

/* In place: fp32 patterns -> f16 patterns with vcvtps2ph (round to nearest even), the same
 * result as f32_to_f16_bits. */
__attribute__((target("avx2,f16c")))
static void f32_bits_to_f16_avx2(uint32_t *v, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps((const float *)(const void *)(v + i)),
                                    _MM_FROUND_TO_NEAREST_INT);
        _mm256_storeu_si256((__m256i *)(void *)(v + i), _mm256_cvtepu16_epi32(h));
    }
    for (; i < n; i++)
        v[i] = f32_to_f16_bits(u2f(v[i]));
}

/* Narrows N values to the element size SIZE (1, 2 or 4 bytes) in OUT (vectorized). */
PTORT_HOT
static void narrow(const uint32_t *v, int size, void *out, int64_t n)
{
    if (size == 1) {
        uint8_t *o = out;
        for (int64_t i = 0; i < n; i++)
            o[i] = (uint8_t)v[i];
    } else if (size == 2) {
        uint16_t *o = out;
        for (int64_t i = 0; i < n; i++)
            o[i] = (uint16_t)v[i];
    } else {
        memcpy(out, v, (size_t)n * 4);
    }
}

/* Writes the per-group values V (M rows of NG, element bits) to aux tile A (a grid: flat
 * tiles were made [M, G] by as_grid); NV holds them already narrowed to A's element size.
 * Row-major tiles get whole-row copies (rows are short: 4 groups for 128 columns), the size
 * class chosen once, and one copy in all when the rows are back to back. */
static void put_aux(Aux *a, const uint32_t *v, const uint8_t *nv, int64_t m, int64_t ng)
{
    int64_t len = ng * a->size;
    if (a->l.kind == LAY_ROW && a->l.stride == ng) {
        memcpy(a->base, nv, (size_t)(m * len));
        return;
    }
    if (a->l.kind != LAY_ROW) {
        for (int64_t r = 0; r < m; r++)
            put_row(a, aux_row_off(a, r), 0, v + r * ng, ng);
        return;
    }
    uint8_t *d = a->base;
    int64_t dstep = a->l.stride * a->size;
    /* the common row lengths (4 groups of u8, f16, f32) as one copy per row */
    if (len == 4) {
        for (int64_t r = 0; r < m; r++, d += dstep, nv += 4)
            memcpy(d, nv, 4);
        return;
    }
    if (len == 8) {
        for (int64_t r = 0; r < m; r++, d += dstep, nv += 8)
            memcpy(d, nv, 8);
        return;
    }
    if (len == 16) {
        for (int64_t r = 0; r < m; r++, d += dstep, nv += 16)
            memcpy(d, nv, 16);
        return;
    }
    if (len >= 16) {
        for (int64_t r = 0; r < m; r++, d += dstep, nv += len) {
            int64_t i = 0;
            for (; i + 16 <= len; i += 16)
                memcpy(d + i, nv + i, 16);
            if (i < len)
                memcpy(d + len - 16, nv + len - 16, 16);
        }
    } else if (len >= 8) {
        for (int64_t r = 0; r < m; r++, d += dstep, nv += len) {
            uint64_t x, y;
            memcpy(&x, nv, 8);
            memcpy(&y, nv + len - 8, 8);
            memcpy(d, &x, 8);
            memcpy(d + len - 8, &y, 8);
        }
    } else if (len >= 4) {
        for (int64_t r = 0; r < m; r++, d += dstep, nv += len) {
            uint32_t x, y;
            memcpy(&x, nv, 4);
            memcpy(&y, nv + len - 4, 4);
            memcpy(d, &x, 4);
            memcpy(d + len - 4, &y, 4);
        }
    } else {
        for (int64_t r = 0; r < m; r++, d += dstep, nv += len)
            for (int64_t i = 0; i < len; i++)
                d[i] = nv[i];
    }
}

/* params_f32, the conversion of max and scaling to the src dtype and narrow() in one
 * AVX-512 pass: GE, GS and the src-dtype patterns GM, GSV as 32-bit values, and NE, NM, NS
 * narrowed to the aux tiles' element sizes (1, then ESZ). Returns non-zero when some group
 * is poisoned. */
MX_Z static uint32_t params_avx512(const MxCfg *cfg, const uint32_t *gmax, int64_t n, uint32_t *ge,
                                   float *gs, uint32_t *gm, uint32_t *gsv, uint8_t *ne, uint8_t *nm,
                                   uint8_t *ns)
{
    __mmask16 anynan = 0;
    const __m512i qnan = _mm512_set1_epi32(0x7FC00000);
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 k = n - i >= 16 ? 0xFFFF : (__mmask16)((1u << (n - i)) - 1);
        __m512i mb = _mm512_maskz_loadu_epi32(k, gmax + i), e, mo = mb;
        if (cfg->nv) {
            __m512i d = _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(mb), _mm512_set1_ps(cfg->k)));
            __m512i de = _mm512_srli_epi32(d, 23), dm = _mm512_and_si512(d, _mm512_set1_epi32(0x7FFFFF));
            e = _mm512_mask_add_epi32(de, _mm512_test_epi32_mask(dm, dm), de, _mm512_set1_epi32(1));
            /* subnormal d with a mantissa <= 0x400000 (m = 0 too): 0; de >= 0xFE (or d =
             * +Inf): 0xFE */
            __mmask16 z = _mm512_cmpeq_epi32_mask(de, _mm512_setzero_si512()) &
                          _mm512_cmple_epu32_mask(dm, _mm512_set1_epi32(0x400000));
            e = _mm512_maskz_mov_epi32((__mmask16)~z, _mm512_min_epu32(e, _mm512_set1_epi32(0xFE)));
        } else {
            if (cfg->fp4)
                mo = _mm512_and_si512(mb, _mm512_set1_epi32((int)0xFFFF0000u));
            e = _mm512_max_epi32(_mm512_sub_epi32(_mm512_srli_epi32(mo, 23), _mm512_set1_epi32((int)cfg->emax)),
                                 _mm512_setzero_si512());
        }
        __mmask16 nan = _mm512_cmpgt_epu32_mask(mb, _mm512_set1_epi32(0x7F800000));
        anynan |= nan;
        __m512i sb = _mm512_slli_epi32(_mm512_sub_epi32(_mm512_set1_epi32(254), e), 23);
        sb = _mm512_mask_mov_epi32(sb, _mm512_cmpge_epu32_mask(e, _mm512_set1_epi32(254)), _mm512_set1_epi32(0x00400000));
        e = _mm512_mask_mov_epi32(e, nan, _mm512_set1_epi32(0xFF));
        _mm512_mask_storeu_epi32(ge + i, k, e);
        _mm512_mask_storeu_ps(gs + i, k, _mm512_castsi512_ps(_mm512_maskz_mov_epi32((__mmask16)~nan, sb)));
        _mm512_mask_cvtepi32_storeu_epi8(ne + i, k, e);
        __m512i vm = _mm512_mask_mov_epi32(mo, nan, qnan), vs = _mm512_mask_mov_epi32(sb, nan, qnan);
        if (cfg->sdt == PTORT_F16) {
            /* vcvtps2ph: RNE, overflow to Inf, NaN 0x7FC00000 -> 0x7E00 (f32_to_f16_bits) */
            vm = _mm512_cvtepu16_epi32(_mm512_cvtps_ph(_mm512_castsi512_ps(vm), _MM_FROUND_TO_NEAREST_INT));
            vs = _mm512_cvtepu16_epi32(_mm512_cvtps_ph(_mm512_castsi512_ps(vs), _MM_FROUND_TO_NEAREST_INT));
        } else if (cfg->sdt == PTORT_BF16) {
            vm = _mm512_srli_epi32(vm, 16);
            vs = _mm512_srli_epi32(vs, 16);
        }
        _mm512_mask_storeu_epi32(gm + i, k, vm);
        _mm512_mask_storeu_epi32(gsv + i, k, vs);
        if (cfg->sdt == PTORT_F32) {
            _mm512_mask_storeu_epi32(nm + 4 * i, k, vm);
            _mm512_mask_storeu_epi32(ns + 4 * i, k, vs);
        } else {
            _mm512_mask_cvtepi32_storeu_epi16(nm + 2 * i, k, vm);
            _mm512_mask_cvtepi32_storeu_epi16(ns + 2 * i, k, vs);
        }
    }
    return anynan;
}

/* The widest MXFP4 row kernel the CPU has. */
static void enc_fp4_h(const uint16_t *x, uint8_t *out, int64_t ng, const uint32_t *ge,
                      const Fp4Thr *thr, int bf16)
{
    if (mx_vbmi())
        enc_fp4_h_vbmi(x, out, ng, ge, thr, bf16);
    else if (ptort_use_avx512())
        enc_fp4_h_avx512(x, out, ng, ge, thr);
    else
        enc_fp4_h_avx2(x, out, ng, ge, thr);
}

/* axis1 with the AVX2 kernels: maxima of every group of the tile, then all group parameters,
 * the exp/max/scaling rows, and the codes; rows that are contiguous on both sides (the
 * common full-row case) are encoded as one long row. MXFP4 reads its 16-bit source
 * directly (enc_fp4_h_avx2); MXFP8 widens f16 / bf16 to fp32 first. */
static void run_axis1_fast(ptort_ctx *ctx, MxOp *o, uint32_t *xbuf, uint8_t *codes,
                           uint8_t *gmem)
{
    const MxCfg *cfg = o->cfg;
    const ptort_tile *src = o->src, *dst = o->dst;
    int64_t m = src->valid_rows, n = src->valid_cols;
    int64_t ng = (n + GROUP - 1) / GROUP, npad = ng * GROUP, tg = m * ng;
    int esz = ptort_dtype_size(src->dtype);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int64_t sst = tile_row_stride(src) * esz, dst_st = tile_row_stride(dst);
    int64_t gbytes = cfg->fp4 ? GROUP / 2 : GROUP;
    int64_t tg8 = (tg + 15) & ~(int64_t)15;
    uint32_t *gmax = (uint32_t *)(void *)gmem, *ge = gmax + tg8, *gm = ge + tg8, *gsv = gm + tg8;
    float *gs = (float *)(void *)(gsv + tg8);
    uint8_t *ne = (uint8_t *)(gs + tg8), *nm = ne + tg8, *ns = nm + 4 * tg8;

    /* pass 1: widen (MXFP8 from f16/bf16, or partial groups) and take the group maxima */
    const uint32_t *x = NULL;
    const uint16_t *x16 = NULL;
    int64_t xst;                               /* elements between rows of x / x16 */
    /* 16-bit sources stay 16-bit: MXFP4 always, MXFP8 with the AVX-512 kernels */
    if (cfg->fp4 || (src->dtype != PTORT_F32 && ptort_use_avx512())) {
        if (n == npad) {
            x16 = (const uint16_t *)(const void *)sb;
            xst = sst / 2;
        } else {
            uint16_t *b = (uint16_t *)(void *)xbuf;
            for (int64_t r = 0; r < m; r++) {
                memcpy(b + r * npad, sb + r * sst, (size_t)n * 2);
                memset(b + r * npad + n, 0, (size_t)(npad - n) * 2);
            }
            x16 = b;
            xst = npad;
        }
        void (*gmx)(const uint16_t *, int64_t, int, uint32_t *) =
            ptort_use_avx512() ? group_max16_avx512 : group_max16_avx2;
        if (xst == npad)
            gmx(x16, tg, cfg->bf16_src, gmax);
        else
            for (int64_t r = 0; r < m; r++)
                gmx(x16 + r * xst, ng, cfg->bf16_src, gmax + r * ng);
    } else {
        if (src->dtype == PTORT_F32 && n == npad) {
            x = (const uint32_t *)(const void *)sb;
            xst = sst / 4;
        } else {
            for (int64_t r = 0; r < m; r++) {
                if (src->dtype == PTORT_F32) {
                    memcpy(xbuf + r * npad, sb + r * sst, (size_t)n * 4);
                    memset(xbuf + r * npad + n, 0, (size_t)(npad - n) * 4);
                } else {
                    widen_row_avx2(src->dtype, sb + r * sst, xbuf + r * npad, n, npad);
                }
            }
            x = xbuf;
            xst = npad;
        }
        void (*gmx)(const uint32_t *, int64_t, uint32_t *) =
            ptort_use_avx512() ? group_max_avx512 : group_max_avx2;
        if (xst == npad)
            gmx(x, tg, gmax);
        else
            for (int64_t r = 0; r < m; r++)
                gmx(x + r * xst, ng, gmax + r * ng);
    }

    /* pass 2: parameters (as fp32, then max and scaling in the src dtype: RNE, exact for
     * the maxima, Inf / subnormal / 0 for f16 scales, 0x7E00 / 0x7FC0 for NaN) */
    uint32_t anynan;
    if (ptort_use_avx512()) {
        anynan = params_avx512(cfg, gmax, tg, ge, gs, gm, gsv, ne, nm, ns);
    } else {
        anynan = params_f32(cfg, gmax, tg, ge, gs, gm, gsv);
        if (src->dtype == PTORT_F16) {
            f32_bits_to_f16_avx2(gm, tg);
            f32_bits_to_f16_avx2(gsv, tg);
        } else if (src->dtype == PTORT_BF16) {
            for (int64_t i = 0; i < tg; i++) {
                gm[i] >>= 16;
                gsv[i] >>= 16;
            }
        }
        narrow(ge, o->ex.size, ne, tg);
        narrow(gm, o->mx.size, nm, tg);
        narrow(gsv, o->sc.size, ns, tg);
    }

    /* pass 3: exp / max / scaling */
    put_aux(&o->ex, ge, ne, m, ng);
    put_aux(&o->mx, gm, nm, m, ng);
    put_aux(&o->sc, gsv, ns, m, ng);

    /* pass 4: codes, then the NaN groups */
    const Fp4Thr *thr = cfg->fp4 ? fp4_thresholds(cfg->bf16_src) : NULL;
    int slow = 0;
    if (n == npad && xst == npad && dst_st == ng * gbytes) {
        if (cfg->fp4)
            enc_fp4_h(x16, db, tg, ge, thr, cfg->bf16_src);
        else if (ptort_use_avx512())
            enc_fp8_h_avx512(x, x16, cfg->bf16_src, db, tg, ge, gs, &slow);
        else
            enc_fp8_row_avx2(x, db, tg, gs);
        for (int64_t i = 0; i < tg && anynan; i++)
            if (gmax[i] > 0x7F800000u)
                memset(db + i * gbytes, cfg->fp4 ? 0x77 : cfg->nan_code, (size_t)gbytes);
        return;
    }
    for (int64_t r = 0; r < m; r++) {
        uint8_t *out = n == npad ? db + r * dst_st : codes;
        if (cfg->fp4)
            enc_fp4_h(x16 + r * xst, out, ng, ge + r * ng, thr, cfg->bf16_src);
        else if (ptort_use_avx512())
            enc_fp8_h_avx512(x16 ? NULL : x + r * xst, x16 ? x16 + r * xst : NULL, cfg->bf16_src, out, ng,
                             ge + r * ng, gs + r * ng, &slow);
        else
            enc_fp8_row_avx2(x + r * xst, out, ng, gs + r * ng);
        for (int64_t gi = 0; gi < ng && anynan; gi++)
            if (gmax[r * ng + gi] > 0x7F800000u)
                memset(out + gi * gbytes, cfg->fp4 ? 0x77 : cfg->nan_code, (size_t)gbytes);
        if (out == codes) {
            int64_t nb = cfg->fp4 ? (n + 1) / 2 : n;
            memcpy(db + r * dst_st, codes, (size_t)nb);
            if (cfg->fp4 && (n & 1))              /* the last high nibble is 0 */
                db[r * dst_st + n / 2] &= 0x0F;
        }
    }
}

/* axis0 with AVX-512: a group is 32 rows of one column, so a vector holds 16 (fp32) or 32
 * (16-bit) groups side by side and every per-group value is a per-lane one. Per block of 32
 * rows: the column maxima (lane-wise, over the 32 rows), the parameters of all columns at
 * once (params_f32), the exp / max / scaling rows, then each row's codes with the columns'
 * scales: MXFP8 as enc_fp8_row_avx512 does (y = x * s, then e4m3_code_avx512), MXFP4 by
 * counting the column's thresholds (enc_fp4_h_avx2's rule) below |x|. NaN columns get their
 * code by a mask. Tails are masked loads and stores. */
MX_Z static inline __m512i ax0_load32(const uint8_t *row, ptort_dtype dt, int64_t c, __mmask16 k)
{
    if (dt == PTORT_F32)
        return _mm512_maskz_loadu_epi32(k, row + 4 * c);
    __m256i h = _mm256_maskz_loadu_epi16(k, row + 2 * c);
    if (dt == PTORT_F16)
        return _mm512_castps_si512(_mm512_cvtph_ps(h));
    return _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16);
}

/* Largest |x| pattern (fp32 bits) of each of the N columns of the 32 rows at ROWS: four
 * accumulators (the max chains are short), 16-bit sources on 32 lanes and widened once
 * (vcvtph2ps is exact and keeps NaN a NaN; bf16 is a shift); MAXB gets whole vectors. */
MX_Z static void ax0_colmax(const uint8_t *rows, int64_t sst, ptort_dtype dt, int64_t n, uint32_t *maxb)
{
    if (dt == PTORT_F32) {
        const __m512i abs = _mm512_set1_epi32(0x7FFFFFFF);
        for (int64_t c = 0; c < n; c += 16) {
            __mmask16 k = n - c >= 16 ? 0xFFFF : (__mmask16)((1u << (n - c)) - 1);
            __m512i m0 = _mm512_setzero_si512(), m1 = m0, m2 = m0, m3 = m0;
            for (int i = 0; i < GROUP; i += 4) {
                const uint8_t *r = rows + i * sst + 4 * c;
                m0 = _mm512_max_epi32(m0, _mm512_and_si512(_mm512_maskz_loadu_epi32(k, r), abs));
                m1 = _mm512_max_epi32(m1, _mm512_and_si512(_mm512_maskz_loadu_epi32(k, r + sst), abs));
                m2 = _mm512_max_epi32(m2, _mm512_and_si512(_mm512_maskz_loadu_epi32(k, r + 2 * sst), abs));
                m3 = _mm512_max_epi32(m3, _mm512_and_si512(_mm512_maskz_loadu_epi32(k, r + 3 * sst), abs));
            }
            _mm512_storeu_si512((void *)(maxb + c), _mm512_max_epi32(_mm512_max_epi32(m0, m1), _mm512_max_epi32(m2, m3)));
        }
        return;
    }
    const __m512i abs = _mm512_set1_epi16(0x7FFF);
    for (int64_t c = 0; c < n; c += 32) {
        __mmask32 k = n - c >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << (n - c)) - 1);
        __m512i m0 = _mm512_setzero_si512(), m1 = m0, m2 = m0, m3 = m0;
        for (int i = 0; i < GROUP; i += 4) {
            const uint8_t *r = rows + i * sst + 2 * c;
            m0 = _mm512_max_epu16(m0, _mm512_and_si512(_mm512_maskz_loadu_epi16(k, r), abs));
            m1 = _mm512_max_epu16(m1, _mm512_and_si512(_mm512_maskz_loadu_epi16(k, r + sst), abs));
            m2 = _mm512_max_epu16(m2, _mm512_and_si512(_mm512_maskz_loadu_epi16(k, r + 2 * sst), abs));
            m3 = _mm512_max_epu16(m3, _mm512_and_si512(_mm512_maskz_loadu_epi16(k, r + 3 * sst), abs));
        }
        __m512i mx = _mm512_max_epu16(_mm512_max_epu16(m0, m1), _mm512_max_epu16(m2, m3));
        __m256i lo = _mm512_castsi512_si256(mx), hi = _mm512_extracti64x4_epi64(mx, 1);
        if (dt == PTORT_F16) {
            _mm512_storeu_ps((float *)(void *)(maxb + c), _mm512_cvtph_ps(lo));
            _mm512_storeu_ps((float *)(void *)(maxb + c + 16), _mm512_cvtph_ps(hi));
        } else {
            _mm512_storeu_si512((void *)(maxb + c), _mm512_slli_epi32(_mm512_cvtepu16_epi32(lo), 16));
            _mm512_storeu_si512((void *)(maxb + c + 16), _mm512_slli_epi32(_mm512_cvtepu16_epi32(hi), 16));
        }
    }
}

/* put_row for axis0's exp / max / scaling rows: contiguous rows narrowed and stored 16
 * values at a time. */
MX_Z static void ax0_put(Aux *a, int64_t ro, const uint32_t *v, int64_t n)
{
    if (a->l.kind != LAY_ROW && a->l.kind != LAY_FLAT) {
        put_row(a, ro, 0, v, n);
        return;
    }
    uint8_t *p = a->base + ro * a->size;
    for (int64_t c = 0; c < n; c += 16) {
        __mmask16 k = n - c >= 16 ? 0xFFFF : (__mmask16)((1u << (n - c)) - 1);
        __m512i x = _mm512_loadu_si512((const void *)(v + c));
        if (a->size == 1)
            _mm512_mask_cvtepi32_storeu_epi8(p + c, k, x);
        else if (a->size == 2)
            _mm512_mask_cvtepi32_storeu_epi16(p + 2 * c, k, x);
        else
            _mm512_mask_storeu_epi32(p + 4 * c, k, x);
    }
}

/* MXFP8 axis0: columns [C, C + 32) of the 32 rows at ROWS (stride SST bytes) into the 32
 * output rows at OUT. Where every column's clamp A16 is set (e in [11, 240]) the rows go
 * through the 16-bit-lane encoder (enc_fp8_h_avx512) with K and the clamp per lane; a row
 * with an e4m3 subnormal, and every row of other chunks, takes the multiplying kernel with
 * the columns' scales (NaN columns get their code by a mask). */
MX_Z static void ax0_fp8_chunk(const MxCfg *cfg, const uint8_t *rows, int64_t sst, ptort_dtype dt,
                               uint8_t *out, int64_t dst_st, int64_t n, int64_t c, const uint32_t *ge,
                               const float *gs, const uint16_t *k16, const uint16_t *a16)
{
    int64_t w = n - c < 32 ? n - c : 32;
    __mmask32 k = w == 32 ? 0xFFFFFFFFu : (__mmask32)((1u << w) - 1);
    __mmask16 klo = (__mmask16)k, khi = (__mmask16)(k >> 16);
    __m512i kv = _mm512_maskz_loadu_epi16(k, k16 + c), av = _mm512_maskz_loadu_epi16(k, a16 + c);
    int fast = !_mm512_mask_cmpeq_epi16_mask(k, av, _mm512_setzero_si512());
    const __m512i qperm = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    for (int i = 0; i < GROUP; i++) {
        const uint8_t *row = rows + i * sst;
        uint8_t *o = out + i * dst_st + c;
        if (fast) {
            __m512i wv;
            if (dt == PTORT_BF16)
                wv = _mm512_maskz_loadu_epi16(k, row + 2 * c);
            else
                wv = fp8_w2_avx512(ax0_load32(row, dt, c, klo), ax0_load32(row, dt, c + 16, khi));
            __mmask32 sub;
            __m512i nv = fp8_h_avx512(wv, kv, av, &sub);
            if (!(sub & k)) {
                __m512i bt = _mm512_ternarylogic_epi32(_mm512_packus_epi16(nv, nv), _mm512_packs_epi16(wv, wv),
                                                       _mm512_set1_epi8((char)0x80), 0xF8);
                /* bytes 0-7 of each 128-bit lane hold the codes: gather the lanes' low qwords */
                _mm256_mask_storeu_epi8(o, k, _mm512_castsi512_si256(_mm512_permutexvar_epi64(qperm, bt)));
                continue;
            }
        }
        for (int64_t h = 0; h < w; h += 16) {
            __mmask16 kh = h ? khi : klo;
            __m512 y = _mm512_mul_ps(_mm512_castsi512_ps(ax0_load32(row, dt, c + h, kh)), _mm512_loadu_ps(gs + c + h));
            __m512i code = e4m3_code_avx512(y);
            code = _mm512_mask_mov_epi32(code, _mm512_cmpeq_epi32_mask(_mm512_loadu_si512((const void *)(ge + c + h)),
                                                                       _mm512_set1_epi32(0xFF)),
                                         _mm512_set1_epi32(cfg->nan_code));
            _mm512_mask_cvtepi32_storeu_epi8(o + h, kh, code);
        }
    }
}

/* MXFP4 axis0: columns [C, C + 32) of the 32 rows at ROWS (stride SST bytes) into the 32
 * output rows at OUT. With VBMI and every column's D non-zero (the table path is exact;
 * an exact D is never 0: it is at least 0x300, or 0x60 for bf16) the codes come from the
 * table as in enc_fp4_h_vbmi, with D per lane; otherwise from the columns' thresholds
 * (counted, enc_fp4_h_avx2's rule), and NaN columns get code 7. */
MX_VB static void ax0_fp4_chunk(const MxCfg *cfg, const uint8_t *rows, int64_t sst, uint8_t *out,
                                int64_t dst_st, int64_t n, int64_t c, const uint32_t *ge,
                                const uint16_t *d16, uint16_t *thr, const Fp4Thr *ft)
{
    int64_t w = n - c < 32 ? n - c : 32, nb = (w + 1) / 2;
    __mmask32 k = w == 32 ? 0xFFFFFFFFu : (__mmask32)((1u << w) - 1);
    __mmask16 kb = nb == 16 ? 0xFFFF : (__mmask16)((1u << nb) - 1);
    const __m512i pair = _mm512_set1_epi32(0x00100001);
    int bf16 = cfg->bf16_src;
    if (mx_vbmi()) {
        __m512i d = _mm512_maskz_loadu_epi16(k, d16 + c);
        if (!_mm512_mask_cmpeq_epi16_mask(k, d, _mm512_setzero_si512())) {
            static const uint8_t tab[128] __attribute__((aligned(64))) = {
                0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5,
                6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
                8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 12, 13, 13, 13,
                14, 14, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15};
            const __m512i tlo = _mm512_load_si512((const void *)tab), thi = _mm512_load_si512((const void *)(tab + 64));
            for (int i = 0; i < GROUP; i++) {
                __m512i h = _mm512_maskz_loadu_epi16(k, rows + i * sst + 2 * c);
                __m512i a = _mm512_and_si512(h, _mm512_set1_epi16(0x7FFF));
                __m512i b = _mm512_subs_epu16(a, d);
                if (bf16)
                    b = _mm512_slli_epi16(b, 3);
                b = _mm512_min_epu8(b, _mm512_set1_epi16((short)0xFF01));
                __m512i sx = _mm512_maddubs_epi16(b, _mm512_set1_epi16(0x0201));
                sx = _mm512_ternarylogic_epi32(sx, _mm512_srli_epi16(h, 9), _mm512_set1_epi16(0x40), 0xF8);
                /* index bytes are the words' low bytes; the high bytes (0) give code 0 */
                __m512i code = _mm512_permutex2var_epi8(tlo, sx, thi);
                code = _mm512_maskz_mov_epi16(k, code);
                _mm512_mask_cvtepi32_storeu_epi8(out + i * dst_st + c / 2, kb, _mm512_madd_epi16(code, pair));
            }
            return;
        }
    }
    for (int64_t j = 0; j < w; j++)
        for (int t = 0; t < 7; t++)
            thr[t * 32 + j] = ft[ge[c + j] & 0xFFu].c[t];
    __mmask32 nan = 0;
    for (int64_t j = 0; j < w; j++)
        nan |= (__mmask32)(ge[c + j] == 0xFF) << j;
    const __m512i one = _mm512_set1_epi16(1);
    __m512i t0 = _mm512_loadu_si512((const void *)thr), t1 = _mm512_loadu_si512((const void *)(thr + 32));
    __m512i t2 = _mm512_loadu_si512((const void *)(thr + 64)), t3 = _mm512_loadu_si512((const void *)(thr + 96));
    __m512i t4 = _mm512_loadu_si512((const void *)(thr + 128)), t5 = _mm512_loadu_si512((const void *)(thr + 160));
    __m512i t6 = _mm512_loadu_si512((const void *)(thr + 192));
    for (int i = 0; i < GROUP; i++) {
        __m512i h = _mm512_maskz_loadu_epi16(k, rows + i * sst + 2 * c);
        __m512i a = _mm512_and_si512(h, _mm512_set1_epi16(0x7FFF));
        __m512i code = _mm512_maskz_mov_epi16(_mm512_cmpgt_epu16_mask(a, t0), one);
        code = _mm512_mask_add_epi16(code, _mm512_cmpgt_epu16_mask(a, t1), code, one);
        code = _mm512_mask_add_epi16(code, _mm512_cmpgt_epu16_mask(a, t2), code, one);
        code = _mm512_mask_add_epi16(code, _mm512_cmpgt_epu16_mask(a, t3), code, one);
        code = _mm512_mask_add_epi16(code, _mm512_cmpgt_epu16_mask(a, t4), code, one);
        code = _mm512_mask_add_epi16(code, _mm512_cmpgt_epu16_mask(a, t5), code, one);
        code = _mm512_mask_add_epi16(code, _mm512_cmpgt_epu16_mask(a, t6), code, one);
        code = _mm512_mask_add_epi16(code, _mm512_movepi16_mask(h), code, _mm512_set1_epi16(8));
        code = _mm512_maskz_mov_epi16(k, _mm512_mask_mov_epi16(code, nan, _mm512_set1_epi16(7)));
        _mm512_mask_cvtepi32_storeu_epi8(out + i * dst_st + c / 2, kb, _mm512_madd_epi16(code, pair));
    }
}

MX_Z static void run_axis0_avx512(ptort_ctx *ctx, MxOp *o, uint32_t *mem)
{
    const MxCfg *cfg = o->cfg;
    const ptort_tile *src = o->src, *dst = o->dst;
    int64_t m = src->valid_rows, n = src->valid_cols, n16 = (n + 31) & ~(int64_t)31;
    ptort_dtype dt = src->dtype;
    int esz = ptort_dtype_size(dt);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int64_t sst = tile_row_stride(src) * esz, dst_st = tile_row_stride(dst);
    uint32_t *maxb = mem, *ge = maxb + n16, *gm = ge + n16, *gsv = gm + n16;
    float *gs = (float *)(gsv + n16);
    uint16_t *thr = (uint16_t *)(gs + n16);             /* MXFP4: 7 x 32 thresholds */
    uint16_t *d16 = thr + 7 * 32;                         /* MXFP4: D per column */
    uint16_t *k16 = d16 + n16, *a16 = k16 + n16;         /* MXFP8: K and clamp per column */
    const Fp4Thr *ft = cfg->fp4 ? fp4_thresholds(cfg->bf16_src) : NULL;
    for (int64_t b = 0; b < m / GROUP; b++) {
        const uint8_t *rows = sb + b * GROUP * sst;
        ax0_colmax(rows, sst, dt, n, maxb);
        params_f32(cfg, maxb, n, ge, gs, gm, gsv);
        if (dt == PTORT_F16) {
            f32_bits_to_f16_avx2(gm, n);
            f32_bits_to_f16_avx2(gsv, n);
        } else if (dt == PTORT_BF16) {
            for (int64_t c = 0; c < n; c++) {
                gm[c] >>= 16;
                gsv[c] >>= 16;
            }
        }
        int64_t re = layout_row_off(&o->ex.l, o->il ? b / 2 : b);
        if (o->il) {
            const int64_t *ecol = o->ex.col + b % 2;
            for (int64_t c = 0; c < n; c++)
                o->ex.base[re + ecol[2 * c]] = (uint8_t)ge[c];
        } else {
            ax0_put(&o->ex, re, ge, n);
        }
        ax0_put(&o->mx, layout_row_off(&o->mx.l, b), gm, n);
        ax0_put(&o->sc, layout_row_off(&o->sc.l, b), gsv, n);
        if (cfg->fp4 && mx_vbmi())
            for (int64_t c = 0; c < n; c += 16) {     /* enc_fp4_h_vbmi's D, or 0 if not exact */
                __m512i e = _mm512_loadu_si512((const void *)(ge + c)), d;
                __mmask16 ok;
                if (cfg->bf16_src) {
                    d = _mm512_sub_epi32(_mm512_slli_epi32(e, 7), _mm512_set1_epi32(0x120));
                    ok = _mm512_cmple_epu32_mask(_mm512_sub_epi32(e, _mm512_set1_epi32(3)), _mm512_set1_epi32(252 - 3));
                } else {
                    d = _mm512_sub_epi32(_mm512_slli_epi32(e, 10), _mm512_set1_epi32(0x1C900));
                    ok = _mm512_cmple_epu32_mask(_mm512_sub_epi32(e, _mm512_set1_epi32(115)), _mm512_set1_epi32(146 - 115));
                }
                _mm256_storeu_si256((__m256i *)(void *)(d16 + c), _mm512_maskz_cvtepi32_epi16(ok, d));
            }
        if (cfg->fp4) {
            for (int64_t c = 0; c < n; c += 32)
                ax0_fp4_chunk(cfg, rows, sst, db + b * GROUP * dst_st, dst_st, n, c, ge, d16, thr, ft);
        } else {
            /* enc_fp8_h_avx512's K and clamp per column (0 where e is outside [11, 240]) */
            for (int64_t c = 0; c < n; c += 16) {
                __m512i e = _mm512_loadu_si512((const void *)(ge + c)), e7 = _mm512_slli_epi32(e, 7);
                __mmask16 ok = _mm512_cmple_epu32_mask(_mm512_sub_epi32(e, _mm512_set1_epi32(11)),
                                                       _mm512_set1_epi32(240 - 11));
                _mm256_storeu_si256((__m256i *)(void *)(k16 + c),
                                    _mm512_maskz_cvtepi32_epi16(ok, _mm512_sub_epi32(_mm512_set1_epi32(0x387), e7)));
                _mm256_storeu_si256((__m256i *)(void *)(a16 + c),
                                    _mm512_maskz_cvtepi32_epi16(ok, _mm512_add_epi32(e7, _mm512_set1_epi32(0x460))));
            }
            for (int64_t c = 0; c < n; c += 32)
                ax0_fp8_chunk(cfg, rows, sst, dt, db + b * GROUP * dst_st, dst_st, n, c, ge, gs, k16, a16);
        }
    }
}
#endif

static void run_axis1(ptort_ctx *ctx, MxOp *o, uint32_t *xbuf, uint8_t *codes)
{
    const MxCfg *cfg = o->cfg;
    const ptort_tile *src = o->src, *dst = o->dst;
    int64_t m = src->valid_rows, n = src->valid_cols;
    int64_t ng = (n + GROUP - 1) / GROUP, npad = ng * GROUP;
    int esz = ptort_dtype_size(src->dtype);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int64_t sst = tile_row_stride(src) * esz, dst_st = tile_row_stride(dst);
    int64_t re = 0, rm = 0, rs = 0;
    for (int64_t r = 0; r < m; r++) {
        const uint8_t *row = sb + r * sst;
        const uint32_t *x;
        if (src->dtype == PTORT_F32 && n == npad) {
            x = (const uint32_t *)(const void *)row;
        } else {
            widen_row(src->dtype, row, xbuf, n, npad);
            x = xbuf;
        }
        re = layout_row_off(&o->ex.l, r);
        rm = layout_row_off(&o->mx.l, r);
        rs = layout_row_off(&o->sc.l, r);
        for (int64_t gi = 0; gi < ng; gi++) {
            const uint32_t *xg = x + gi * GROUP;
            Group g;
            group_params(cfg, max_abs32(xg), &g);
            put_group(&o->ex, &o->mx, &o->sc, re, rm, rs, gi, &g);
            if (g.nan)
                memset(codes + gi * GROUP, cfg->nan_code, GROUP);
            else
                encode(cfg, xg, codes + gi * GROUP, GROUP, g.s);
        }
        put_codes(cfg, codes, db + r * dst_st, n);
    }
}

/* axis0: a group is 32 rows of one column. Each block of 32 rows is widened once, the column
 * maxima are reduced row by row (contiguous, vectorized), then each row is encoded with its
 * columns' scales; poisoned columns are selected per element without branches. */
PTORT_HOT
static void run_axis0(ptort_ctx *ctx, MxOp *o, uint32_t *xbuf, uint32_t *maxb, float *sv,
                      uint32_t *nanm, uint8_t *codes)
{
    const MxCfg *cfg = o->cfg;
    const ptort_tile *src = o->src, *dst = o->dst;
    int64_t m = src->valid_rows, n = src->valid_cols;
    int esz = ptort_dtype_size(src->dtype);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int64_t sst = tile_row_stride(src) * esz, dst_st = tile_row_stride(dst);
    for (int64_t b = 0; b < m / GROUP; b++) {
        const uint32_t *rows[GROUP];
        for (int i = 0; i < GROUP; i++) {
            const uint8_t *row = sb + (b * GROUP + i) * sst;
            if (src->dtype == PTORT_F32) {
                rows[i] = (const uint32_t *)(const void *)row;
            } else {
                widen_row(src->dtype, row, xbuf + i * n, n, n);
                rows[i] = xbuf + i * n;
            }
        }
        for (int64_t c = 0; c < n; c++)
            maxb[c] = 0;
        for (int i = 0; i < GROUP; i++) {
            const uint32_t *x = rows[i];
            for (int64_t c = 0; c < n; c++) {
                int32_t a = (int32_t)(x[c] & 0x7FFFFFFFu), cur = (int32_t)maxb[c];
                maxb[c] = (uint32_t)(a > cur ? a : cur);
            }
        }
        int64_t re = layout_row_off(&o->ex.l, o->il ? b / 2 : b), rm = layout_row_off(&o->mx.l, b);
        int64_t rs = layout_row_off(&o->sc.l, b);
        const int64_t *ecol = o->ex.col + (o->il ? b % 2 : 0);
        int64_t estep = o->il ? 2 : 1;
        for (int64_t c = 0; c < n; c++) {
            Group g;
            group_params(cfg, maxb[c], &g);
            o->ex.base[re + ecol[c * estep]] = (uint8_t)g.e;
            store_elem(o->mx.base, o->mx.size, rm + o->mx.col[c], g.maxv);
            store_elem(o->sc.base, o->sc.size, rs + o->sc.col[c], g.scalev);
            sv[c] = g.s;
            nanm[c] = g.nan;
        }
        for (int i = 0; i < GROUP; i++) {
            const uint32_t *x = rows[i];
            if (!cfg->fp4) {
                uint8_t *out = db + (b * GROUP + i) * dst_st;
                uint8_t nc = cfg->nan_code;
                for (int64_t c = 0; c < n; c++) {
                    uint8_t code = e4m3_encode(u2f(x[c]) * sv[c]);
                    out[c] = nanm[c] ? nc : code;
                }
            } else {
                for (int64_t c = 0; c < n; c++) {
                    uint32_t y = f2u(u2f(x[c]) * sv[c]);
                    y = cfg->bf16_src ? round_bits_to_bf16(y) : y;
                    uint8_t code = e2m1_encode(u2f(y));
                    codes[c] = nanm[c] ? cfg->nan_code : code;
                }
                pack_fp4(codes, db + (b * GROUP + i) * dst_st, n);
            }
        }
    }
}

ptort_status ptort_tquant_mx(ptort_ctx *ctx, ptort_quant_type qt, ptort_scale_alg alg,
                             ptort_group_axis axis, const ptort_tile *src,
                             const ptort_tile *dst, const ptort_tile *exp,
                             const ptort_tile *max, const ptort_tile *scaling,
                             const ptort_tile *exp_zz)
{
    return ptort_tquant_mx_ex(ctx, qt, alg, axis, 0, src, dst, exp, max, scaling, exp_zz);
}

/* storeMode nz (docs/numerics.md 1.1): exponent (r, g) of the M x G grid also goes to byte
 * ((r/16 * G/2 + g/2) * 16 + r%16) * 2 + g%2 of EXP_ZZ's storage, as pto-isa's CPU model
 * writes it (element (0, k) of the tile); read back from exp (a grid, see as_grid). */
static void put_zz(ptort_ctx *ctx, const MxOp *o, int64_t m, int64_t ng, const ptort_tile *zz)
{
    uint8_t *zb = tile_base(ctx, zz);
    for (int64_t r = 0; r < m; r++)
        for (int64_t g = 0; g < ng; g++) {
            uint8_t e = o->ex.base[aux_row_off(&o->ex, r) + o->ex.col[g]];
            zb[((r / 16 * (ng / 2) + g / 2) * 16 + r % 16) * 2 + g % 2] = e;
        }
}

ptort_status ptort_tquant_mx_ex(ptort_ctx *ctx, ptort_quant_type qt, ptort_scale_alg alg,
                                ptort_group_axis axis, unsigned flags, const ptort_tile *src,
                                const ptort_tile *dst, const ptort_tile *exp,
                                const ptort_tile *max, const ptort_tile *scaling,
                                const ptort_tile *exp_zz)
{
    static const char op[] = "tquant.mx";
    if (!ctx)
        return PTORT_E_ARG;
    if (flags & ~PTORT_MX_INTERLEAVE)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: unknown flags %#x", op, flags);
    int il = (flags & PTORT_MX_INTERLEAVE) != 0;
    if (il && axis != PTORT_AXIS0)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: expects interleave to be used only with grpAxis=axis0", op);
    if (qt != PTORT_MXFP8 && qt != PTORT_MXFP4_E2M1)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: quant_type %d does not match the operands", op, (int)qt);
    if ((unsigned)alg > PTORT_SCALE_NV || (unsigned)axis > PTORT_AXIS0)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: unknown quantScaleAlg or grpAxis", op);
    if (ctx->arch != PTORT_A5)
        return ptort_fail(ctx, PTORT_E_ARCH, "%s: MX quantization is only supported on A5", op);
    MxCfg cfg;
    cfg.fp4 = qt == PTORT_MXFP4_E2M1;
    cfg.nv = alg == PTORT_SCALE_NV;
    cfg.emax = cfg.fp4 ? 2 : 8;
    cfg.k = u2f(cfg.fp4 ? 0x3E2AAAABu : 0x3B124925u);     /* nearest fp32 to 1/6, 1/448 */
    cfg.nan_code = cfg.fp4 ? 0x7 : 0x7F;
    ptort_status st = check_mx(ctx, &cfg, axis, il, src, dst, exp, max, scaling, exp_zz);
    if (st)
        return st;
    cfg.sdt = src->dtype;
    cfg.bf16_src = src->dtype == PTORT_BF16;

    int64_t m = src->valid_rows, n = src->valid_cols;
    int64_t ng = (n + GROUP - 1) / GROUP, npad = ng * GROUP;
    /* axis1 flat tiles are addressed as the [M, G] grids they store */
    ptort_tile eg = *exp, mg = *max, sg = *scaling;
    if (axis == PTORT_AXIS1) {
        eg = as_grid(exp, m, ng);
        mg = as_grid(max, m, ng);
        sg = as_grid(scaling, m, ng);
    }
    int64_t ecols = eg.valid_cols;
    /* Scratch: 4 column tables, then the widened block, column state and codes. */
    size_t tables = (size_t)(4 * (ecols + 1)) * sizeof(int64_t);
    int fast = 0;
#ifdef PTORT_MX_AVX2
    fast = axis == PTORT_AXIS1 && ptort_use_avx2();
#endif
    size_t xrows = axis == PTORT_AXIS1 ? (fast ? (size_t)m : 1) : GROUP;
    size_t need = tables + xrows * (size_t)(npad + 8) * 4 + 3 * (size_t)(n + 8) * 4 +
                  (size_t)(npad + 64) + (fast ? (size_t)(m * ng + 16) * 32 + 64 : 0);
    uint8_t *mem = ptort_scratch(ctx, need);
    if (!mem)
        return PTORT_E_NOMEM;
    int64_t *tab = (int64_t *)(void *)mem;
    uint32_t *xbuf = (uint32_t *)(void *)(mem + tables);
    uint32_t *maxb = xbuf + xrows * (size_t)(npad + 8);
    float *sv = (float *)(void *)(maxb + n + 8);
    uint32_t *nanm = (uint32_t *)(void *)(sv + n + 8);
    uint8_t *codes = (uint8_t *)(nanm + n + 8);

    MxOp o;
    o.cfg = &cfg;
    o.src = src;
    o.dst = dst;
    o.il = il;
    aux_init(ctx, &o.ex, &eg, ecols, tab);
    aux_init(ctx, &o.mx, &mg, mg.valid_cols, tab + (ecols + 1));
    aux_init(ctx, &o.sc, &sg, sg.valid_cols, tab + 2 * (ecols + 1));
#ifdef PTORT_MX_AVX2
    if (fast)
        run_axis1_fast(ctx, &o, xbuf, codes, codes + ((npad + 127) & ~(int64_t)63));
    else if (axis == PTORT_AXIS0 && ptort_use_avx512())
        run_axis0_avx512(ctx, &o, xbuf);        /* 32 * (npad + 8) words >= 17 * (n + 31) */
    else
#endif
    if (axis == PTORT_AXIS1)
        run_axis1(ctx, &o, xbuf, codes);
    else
        run_axis0(ctx, &o, xbuf, maxb, sv, nanm, codes);
    if (exp_zz)
        put_zz(ctx, &o, m, ng, exp_zz);
    return PTORT_OK;
}
