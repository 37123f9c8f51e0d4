/* quant.c - tquant INT8_SYM / INT8_ASYM and tdequant (docs/numerics.md sections 2 and 3).
 *
 * Operands are checked once per op (docs/verify.md sections 2 and 4); the per-row loops are then
 * straight-line fp32 code over contiguous rows, which GCC vectorizes.
 */
#include "internal.h"

/* The per-row parameter of row r: column 0 of row r, or the single value of a [1, 1] tile
 * (docs/numerics.md 2: one value for all rows). For the none_box layouts (and [1, 1] tiles) the
 * address is base + r * step; boxed layouts go through the layout functions. */
typedef struct {
    ptort_ctx *ctx;
    const ptort_tile *p;
    Layout l;
    const uint8_t *base;
    int64_t step;           /* bytes per row, or -1: use the layout */
} Param;

static void param_init(Param *pr, ptort_ctx *ctx, const ptort_tile *p)
{
    pr->ctx = ctx;
    pr->p = p;
    layout_of(p, &pr->l);
    pr->base = tile_base(ctx, p) + (layout_row_off(&pr->l, 0) + layout_col_off(&pr->l, 0)) * 4;
    if (p->valid_rows == 1)
        pr->step = 0;
    else if (pr->l.kind == LAY_ROW || pr->l.kind == LAY_COL)
        pr->step = (layout_row_off(&pr->l, 1) - layout_row_off(&pr->l, 0)) * 4;
    else
        pr->step = -1;
}

static inline float param_at(const Param *pr, int64_t r)
{
    uint32_t v;
    if (pr->step >= 0)
        memcpy(&v, pr->base + r * pr->step, 4);
    else
        memcpy(&v, tile_base(pr->ctx, pr->p) +
                       (layout_row_off(&pr->l, r) + layout_col_off(&pr->l, 0)) * 4, 4);
    return u2f(v);
}

/* clamp(rint(v), lo, hi) for lo, hi integers with |lo|, |hi| < 2^22: clamping first is the
 * same because rint is monotonic; adding 1.5 * 2^23 makes the FPU round to an integer with
 * ties to even, and the low bits of the sum are that integer. NaN gives 0. */
static inline int32_t round_clamp(float v, float lo, float hi)
{
    v = v == v ? v : 0.0f;
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    return (int32_t)(f2u(v + 12582912.0f) - 0x4B400000u);
}

/* The quant row kernels, one definition per kernel shape for both kinds (X-macro QUANT_KINDS:
 * name, the clamp range, the pack that saturates the low side, the element type written).
 * SYM: v = x * s; ASYM: v = x * s + z (QZ_*). The portable loop is clamp(rint(v)), NaN -> 0. */
#define QUANT_KINDS(X)                                      \
    X(sym, -128.0f, 127.0f, packs)                          \
    X(asym, 0.0f, 255.0f, packus)
#define QZ_sym(v, z) ((void)(z), (v))
#define QZ_asym(v, z) ((v) + (z))
#define QZP_sym(po, r) ((void)(po), 0.0f) /* the per-row offset (SYM has none) */
#define QZP_asym(po, r) param_at(po, r)

#define DEF_QUANT_ROW_C(K, LO, HI, PK)                                                     \
    PTORT_VECTORIZE                                                                        \
    static void quant_##K##_row_c(const uint32_t *x, uint8_t *q, int64_t n, float s, float z) \
    {                                                                                      \
        for (int64_t c = 0; c < n; c++)                                                    \
            q[c] = (uint8_t)round_clamp(QZ_##K(u2f(x[c]) * s, z), LO, HI);                 \
    }
QUANT_KINDS(DEF_QUANT_ROW_C)

/* x86-64: the row kernels are written with SSE2 (baseline) and AVX2 intrinsics, chosen at
 * run time. Per element: v = x * s (then + z), for SYM NaN -> +0 (and with an ordered mask;
 * ASYM lets the NaN through to cvtps2dq, see there), v = min(v, hi), then cvtps2dq rounds to nearest even (the default MXCSR mode that the
 * scalar 1.5 * 2^23 trick also relies on) and the saturating packs clamp the low side:
 * anything below lo (down to cvtps2dq's 0x80000000 for huge negatives) saturates to lo.
 * This is clamp(rint(v)) exactly; the tail (< one vector) uses the scalar code. */
#if defined(__GNUC__) && defined(__x86_64__)
#define PTORT_X86_KERNELS 1
#include <immintrin.h>

/* One vector of v = x * s before the conversion, 4 and 8 lanes. ASYM: min(hi, v) keeps a NaN
 * (minps returns its second operand then); cvtps2dq turns NaN into 0x80000000, which the
 * unsigned pack saturates to 0. */
__attribute__((always_inline))
static inline __m128 qstep4_sym(__m128 v, __m128 vz, __m128 hi)
{
    (void)vz;
    v = _mm_and_ps(v, _mm_cmpord_ps(v, v));
    return _mm_min_ps(v, hi);
}

__attribute__((always_inline))
static inline __m128 qstep4_asym(__m128 v, __m128 vz, __m128 hi)
{
    return _mm_min_ps(hi, _mm_add_ps(v, vz));
}

__attribute__((target("avx2"), always_inline))
static inline __m256 qstep8_sym(__m256 v, __m256 vz, __m256 hi)
{
    (void)vz;
    v = _mm256_and_ps(v, _mm256_cmp_ps(v, v, _CMP_ORD_Q));
    return _mm256_min_ps(v, hi);
}

__attribute__((target("avx2"), always_inline))
static inline __m256 qstep8_asym(__m256 v, __m256 vz, __m256 hi)
{
    return _mm256_min_ps(hi, _mm256_add_ps(v, vz));
}

#define DEF_QUANT_ROW_SSE2(K, LO, HI, PK)                                                  \
    static void quant_##K##_row_sse2(const uint32_t *x, uint8_t *q, int64_t n, float s, float z) \
    {                                                                                      \
        const __m128 vs = _mm_set1_ps(s), vz = _mm_set1_ps(z), hi = _mm_set1_ps(HI);       \
        int64_t c = 0;                                                                     \
        for (; c + 16 <= n; c += 16) {                                                     \
            __m128i r[4];                                                                  \
            for (int j = 0; j < 4; j++) {                                                  \
                __m128 v = _mm_mul_ps(_mm_loadu_ps((const float *)(const void *)(x + c + 4 * j)), vs); \
                r[j] = _mm_cvtps_epi32(qstep4_##K(v, vz, hi));                             \
            }                                                                              \
            __m128i a = _mm_packs_epi32(r[0], r[1]), b = _mm_packs_epi32(r[2], r[3]);      \
            _mm_storeu_si128((__m128i *)(void *)(q + c), _mm_##PK##_epi16(a, b));          \
        }                                                                                  \
        quant_##K##_row_c(x + c, q + c, n - c, s, z);                                      \
    }
QUANT_KINDS(DEF_QUANT_ROW_SSE2)

/* In-lane packs give dword order 0 2 4 6 1 3 5 7 (in 4-byte groups); QPERM fixes it. GCC 12
 * leaves out vzeroupper before a tail call: an SSE tail after dirty AVX state would stall on
 * every row, hence the explicit one. */
#define QPERM _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)
#define DEF_QUANT_ROW_AVX2(K, LO, HI, PK)                                                  \
    __attribute__((target("avx2")))                                                        \
    static void quant_##K##_row_avx2(const uint32_t *x, uint8_t *q, int64_t n, float s, float z) \
    {                                                                                      \
        const __m256 vs = _mm256_set1_ps(s), vz = _mm256_set1_ps(z), hi = _mm256_set1_ps(HI); \
        const __m256i perm = QPERM;                                                        \
        int64_t c = 0;                                                                     \
        for (; c + 32 <= n; c += 32) {                                                     \
            __m256i r[4];                                                                  \
            for (int j = 0; j < 4; j++) {                                                  \
                __m256 v = _mm256_mul_ps(_mm256_loadu_ps((const float *)(const void *)(x + c + 8 * j)), vs); \
                r[j] = _mm256_cvtps_epi32(qstep8_##K(v, vz, hi));                          \
            }                                                                              \
            __m256i a = _mm256_packs_epi32(r[0], r[1]), b = _mm256_packs_epi32(r[2], r[3]); \
            __m256i p = _mm256_permutevar8x32_epi32(_mm256_##PK##_epi16(a, b), perm);      \
            _mm256_storeu_si256((__m256i *)(void *)(q + c), p);                            \
        }                                                                                  \
        _mm256_zeroupper();                                                                \
        if (c < n)                                                                         \
            quant_##K##_row_sse2(x + c, q + c, n - c, s, z);                               \
    }
QUANT_KINDS(DEF_QUANT_ROW_AVX2)

/* Whole-tile AVX2 loops for valid widths that are multiples of 32 (no tail): one call per op
 * instead of one per row; the per-row parameters are read inline (PO is NULL for SYM). The
 * four vectors are written out: GCC 12 keeps a loop over them (a third of the work). */
#define DEF_QUANT_ROWS_AVX2(K, LO, HI, PK)                                                 \
    __attribute__((target("avx2")))                                                        \
    static void quant_##K##_rows_avx2(const uint8_t *sb, int64_t sst, uint8_t *db, int64_t dstr, \
                                      int64_t rows, int64_t n, const Param *ps, const Param *po) \
    {                                                                                      \
        const __m256i perm = QPERM;                                                        \
        const __m256 hi = _mm256_set1_ps(HI);                                              \
        for (int64_t r = 0; r < rows; r++) {                                               \
            const float *x = (const float *)(const void *)(sb + r * sst);                  \
            uint8_t *q = db + r * dstr;                                                    \
            const __m256 vs = _mm256_set1_ps(param_at(ps, r));                             \
            const __m256 vz = _mm256_set1_ps(QZP_##K(po, r));                              \
            for (int64_t c = 0; c < n; c += 32) {                                          \
                __m256i v0 = _mm256_cvtps_epi32(qstep8_##K(_mm256_mul_ps(_mm256_loadu_ps(x + c), vs), vz, hi)); \
                __m256i v1 = _mm256_cvtps_epi32(qstep8_##K(_mm256_mul_ps(_mm256_loadu_ps(x + c + 8), vs), vz, hi)); \
                __m256i v2 = _mm256_cvtps_epi32(qstep8_##K(_mm256_mul_ps(_mm256_loadu_ps(x + c + 16), vs), vz, hi)); \
                __m256i v3 = _mm256_cvtps_epi32(qstep8_##K(_mm256_mul_ps(_mm256_loadu_ps(x + c + 24), vs), vz, hi)); \
                __m256i a = _mm256_packs_epi32(v0, v1), b = _mm256_packs_epi32(v2, v3);   \
                _mm256_storeu_si256((__m256i *)(void *)(q + c),                            \
                                    _mm256_permutevar8x32_epi32(_mm256_##PK##_epi16(a, b), perm)); \
            }                                                                              \
        }                                                                                  \
    }
QUANT_KINDS(DEF_QUANT_ROWS_AVX2)

static int have_avx2(void)
{
    return ptort_use_avx2();
}
#endif

static ptort_status check_vec(ptort_ctx *ctx, const char *op, const char *role,
                              const ptort_tile *t)
{
    if (t->loc != PTORT_VEC)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects %s to be in the vec address space, but got %s",
                          op, role, ptort_loc_name(t->loc));
    return PTORT_OK;
}

static ptort_status check_f32(ptort_ctx *ctx, const char *op, const char *role,
                              const ptort_tile *t)
{
    if (t->dtype != PTORT_F32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects %s to have element type f32, but got %s",
                          op, role, ptort_dtype_name(t->dtype));
    return PTORT_OK;
}

ptort_status ptort_tquant_int8(ptort_ctx *ctx, ptort_quant_type qt, const ptort_tile *src,
                               const ptort_tile *scale, const ptort_tile *offset,
                               const ptort_tile *dst, const ptort_tile *tmp)
{
    static const char op[] = "tquant";
    if (!ctx)
        return PTORT_E_ARG;
    if (qt == PTORT_INT8_SYM && offset)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: INT8_SYM quantization must not have an offset operand", op);
    if (qt == PTORT_INT8_ASYM && !offset)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: INT8_ASYM quantization requires an offset operand", op);
    if (qt != PTORT_INT8_SYM && qt != PTORT_INT8_ASYM)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: quant_type %d does not match the operands", op, (int)qt);
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) ||
        (st = ptort_check_operand(ctx, op, "scale", scale)) ||
        (offset && (st = ptort_check_operand(ctx, op, "offset", offset))) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)) ||
        (tmp && (st = ptort_check_operand(ctx, op, "tmp", tmp))))
        return st;
    if ((st = check_f32(ctx, op, "src", src)) || (st = check_f32(ctx, op, "scale", scale)) ||
        (offset && (st = check_f32(ctx, op, "offset", offset))) ||
        (tmp && (st = check_f32(ctx, op, "tmp", tmp))))
        return st;
    if (qt == PTORT_INT8_SYM && dst->dtype != PTORT_I8)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects dst element type i8 for INT8_SYM quantization, but got %s",
                          op, ptort_dtype_name(dst->dtype));
    if (qt == PTORT_INT8_ASYM && dst->dtype != PTORT_U8)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects dst element type ui8 for INT8_ASYM quantization, but got %s",
                          op, ptort_dtype_name(dst->dtype));
    if ((st = check_vec(ctx, op, "src", src)) || (st = check_vec(ctx, op, "scale", scale)) ||
        (offset && (st = check_vec(ctx, op, "offset", offset))) ||
        (st = check_vec(ctx, op, "dst", dst)) || (tmp && (st = check_vec(ctx, op, "tmp", tmp))))
        return st;
    if (!tile_is_row_major(src) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects src and dst to use row-major layout", op);
    if (tmp && !tile_is_row_major(tmp))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects tmp to use row-major layout", op);
    if (src->valid_rows != dst->valid_rows || src->valid_cols != dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects src and dst to have the same valid_shape, but got [%lld, %lld] vs [%lld, %lld]",
                          op, (long long)src->valid_rows, (long long)src->valid_cols,
                          (long long)dst->valid_rows, (long long)dst->valid_cols);
    const ptort_tile *params[2] = {scale, offset};
    static const char *const pnames[2] = {"scale", "offset"};
    for (int i = 0; i < 2; i++) {
        const ptort_tile *p = params[i];
        if (!p)
            continue;
        int ok = p->valid_cols == 1 && (p->valid_rows == dst->valid_rows || p->valid_rows == 1);
        if (!ok)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects %s valid_shape to be [R, 1] or [1, 1], but got [%lld, %lld]",
                              op, pnames[i], (long long)p->valid_rows, (long long)p->valid_cols);
        if (ctx->arch != PTORT_A5 && tile_is_row_major(p))
            return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects A2/A3 %s to use non-row-major layout",
                              op, pnames[i]);
    }
    if (tmp && ctx->arch != PTORT_A5 && (tmp->rows != src->rows || tmp->cols != src->cols))
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects A2/A3 tmp to have the same shape as src", op);

    Param ps, po;
    param_init(&ps, ctx, scale);
    if (offset)
        param_init(&po, ctx, offset);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int64_t sst = tile_row_stride(src) * 4, dstr = tile_row_stride(dst);
    int asym = qt == PTORT_INT8_ASYM;
#ifdef PTORT_X86_KERNELS
    if (dst->valid_cols % 32 == 0 && have_avx2()) {
        (asym ? quant_asym_rows_avx2 : quant_sym_rows_avx2)(sb, sst, db, dstr, dst->valid_rows, dst->valid_cols,
                                                            &ps, offset ? &po : NULL);
        return PTORT_OK;
    }
#endif
    /* kernels chosen once per op: AVX2, else SSE2, else portable C */
    void (*row)(const uint32_t *, uint8_t *, int64_t, float, float) = asym ? quant_asym_row_c : quant_sym_row_c;
#ifdef PTORT_X86_KERNELS
    if (have_avx2())
        row = asym ? quant_asym_row_avx2 : quant_sym_row_avx2;
    else
        row = asym ? quant_asym_row_sse2 : quant_sym_row_sse2;
#endif
    for (int64_t r = 0; r < dst->valid_rows; r++)
        row((const uint32_t *)(const void *)(sb + r * sst), db + r * dstr, dst->valid_cols, param_at(&ps, r),
            asym ? param_at(&po, r) : 0.0f);
    return PTORT_OK;
}

/* The dequant row kernels, one definition per kernel shape for both source types (X-macro
 * DEQUANT_DTYPES: name, element type, elements per 16-byte SSE2 load, the int32 vectors it
 * widens to, the AVX2 load of 8 elements and its widening). y = (float(q) - z) * s, where
 * int -> fp32 is exact (cvtdq2ps). */
#define DEQUANT_DTYPES(X)                                                                  \
    X(i8, int8_t, 16, 4, _mm_loadl_epi64, _mm256_cvtepi8_epi32)                            \
    X(i16, int16_t, 8, 2, _mm_loadu_si128, _mm256_cvtepi16_epi32)

#define DEF_DEQUANT_ROW_C(D, T, STEP, NW, LOAD8, CVT8)                                     \
    PTORT_VECTORIZE                                                                        \
    static void dequant_##D##_row_c(const T *q, uint32_t *y, int64_t n, float s, float z)  \
    {                                                                                      \
        for (int64_t c = 0; c < n; c++) {                                                  \
            float v = (float)q[c] - z;                                                     \
            y[c] = f2u(v * s);                                                             \
        }                                                                                  \
    }
DEQUANT_DTYPES(DEF_DEQUANT_ROW_C)

#ifdef PTORT_X86_KERNELS
/* SSE2 sign extension of one 16-byte load B to int32 vectors W[NW] (unpack with itself, then
 * an arithmetic shift). */
#define WIDEN_SSE2_i16(b, w)                                                               \
    do {                                                                                   \
        (w)[0] = _mm_srai_epi32(_mm_unpacklo_epi16(b, b), 16);                             \
        (w)[1] = _mm_srai_epi32(_mm_unpackhi_epi16(b, b), 16);                             \
    } while (0)
#define WIDEN_SSE2_i8(b, w)                                                                \
    do {                                                                                   \
        WIDEN_SSE2_i16(_mm_srai_epi16(_mm_unpacklo_epi8(b, b), 8), w);                     \
        WIDEN_SSE2_i16(_mm_srai_epi16(_mm_unpackhi_epi8(b, b), 8), (w) + 2);               \
    } while (0)

#define DEF_DEQUANT_ROW_SSE2(D, T, STEP, NW, LOAD8, CVT8)                                  \
    static void dequant_##D##_row_sse2(const T *q, uint32_t *y, int64_t n, float s, float z) \
    {                                                                                      \
        const __m128 vs = _mm_set1_ps(s), vz = _mm_set1_ps(z);                             \
        int64_t c = 0;                                                                     \
        for (; c + STEP <= n; c += STEP) {                                                 \
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(q + c)), w[NW];    \
            WIDEN_SSE2_##D(b, w);                                                          \
            for (int j = 0; j < NW; j++) {                                                 \
                __m128 v = _mm_sub_ps(_mm_cvtepi32_ps(w[j]), vz);                          \
                _mm_storeu_ps((float *)(void *)(y + c + 4 * j), _mm_mul_ps(v, vs));        \
            }                                                                              \
        }                                                                                  \
        dequant_##D##_row_c(q + c, y + c, n - c, s, z);                                    \
    }
DEQUANT_DTYPES(DEF_DEQUANT_ROW_SSE2)

/* (float(w) - z) * s for 8 lanes already widened to int32, stored at y. */
__attribute__((target("avx2"), always_inline))
static inline void dequant8_avx2(float *y, __m256i w, __m256 vs, __m256 vz)
{
    _mm256_storeu_ps(y, _mm256_mul_ps(_mm256_sub_ps(_mm256_cvtepi32_ps(w), vz), vs));
}

/* 8 elements at a time, NW per pass; the tail goes to the SSE2 kernel after an explicit
 * vzeroupper (GCC 12 leaves it out before a tail call: an SSE tail after dirty AVX state
 * would stall on every row). */
#define DEF_DEQUANT_ROW_AVX2(D, T, STEP, NW, LOAD8, CVT8)                                  \
    __attribute__((target("avx2")))                                                        \
    static void dequant_##D##_row_avx2(const T *q, uint32_t *y, int64_t n, float s, float z) \
    {                                                                                      \
        const __m256 vs = _mm256_set1_ps(s), vz = _mm256_set1_ps(z);                       \
        int64_t c = 0;                                                                     \
        for (; c + 8 * NW <= n; c += 8 * NW)                                               \
            for (int j = 0; j < NW; j++) {                                                 \
                __m128i b = LOAD8((const __m128i *)(const void *)(q + c + 8 * j));         \
                dequant8_avx2((float *)(void *)(y + c + 8 * j), CVT8(b), vs, vz);          \
            }                                                                              \
        _mm256_zeroupper();                                                                \
        if (c < n)                                                                         \
            dequant_##D##_row_sse2(q + c, y + c, n - c, s, z);                             \
    }
DEQUANT_DTYPES(DEF_DEQUANT_ROW_AVX2)

/* Whole-tile AVX2 loops for valid widths that are multiples of 32 (no tail), 32 elements per
 * pass written out 4 times: GCC 12 keeps a loop over k (a third of the work). */
#define DEF_DEQUANT_ROWS_AVX2(D, T, STEP, NW, LOAD8, CVT8)                                 \
    __attribute__((target("avx2")))                                                        \
    static void dequant_##D##_rows_avx2(const uint8_t *sb, int64_t sst, uint8_t *db, int64_t dst_st, \
                                        int64_t rows, int64_t n, const Param *ps, const Param *po) \
    {                                                                                      \
        for (int64_t r = 0; r < rows; r++) {                                               \
            const T *q = (const T *)(const void *)(sb + r * sst);                          \
            float *y = (float *)(void *)(db + r * dst_st);                                 \
            const __m256 vs = _mm256_set1_ps(param_at(ps, r)), vz = _mm256_set1_ps(param_at(po, r)); \
            for (int64_t c = 0; c < n; c += 32) {                                          \
                dequant8_avx2(y + c, CVT8(LOAD8((const __m128i *)(const void *)(q + c))), vs, vz); \
                dequant8_avx2(y + c + 8, CVT8(LOAD8((const __m128i *)(const void *)(q + c + 8))), vs, vz); \
                dequant8_avx2(y + c + 16, CVT8(LOAD8((const __m128i *)(const void *)(q + c + 16))), vs, vz); \
                dequant8_avx2(y + c + 24, CVT8(LOAD8((const __m128i *)(const void *)(q + c + 24))), vs, vz); \
            }                                                                              \
        }                                                                                  \
    }
DEQUANT_DTYPES(DEF_DEQUANT_ROWS_AVX2)
#endif

static int same_type(const ptort_tile *a, const ptort_tile *b)
{
    return a->loc == b->loc && a->dtype == b->dtype && a->rows == b->rows &&
           a->cols == b->cols && a->valid_rows == b->valid_rows &&
           a->valid_cols == b->valid_cols && a->blayout == b->blayout &&
           a->slayout == b->slayout && a->fractal == b->fractal && a->pad == b->pad &&
           a->compact == b->compact;
}

ptort_status ptort_tdequant(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *scale,
                            const ptort_tile *offset, const ptort_tile *dst)
{
    static const char op[] = "tdequant";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) ||
        (st = ptort_check_operand(ctx, op, "scale", scale)) ||
        (st = ptort_check_operand(ctx, op, "offset", offset)) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if (src->dtype != PTORT_I8 && src->dtype != PTORT_I16)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src element type i8 or i16, but got %s",
                          op, ptort_dtype_name(src->dtype));
    if (dst->dtype != PTORT_F32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects dst element type f32, but got %s",
                          op, ptort_dtype_name(dst->dtype));
    if (scale->dtype != PTORT_F32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects scale element type f32, but got %s",
                          op, ptort_dtype_name(scale->dtype));
    if (offset->dtype != PTORT_F32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects offset element type f32, but got %s",
                          op, ptort_dtype_name(offset->dtype));
    if (!same_type(scale, offset))
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects scale and offset to have the same type", op);
    if (src->valid_rows != dst->valid_rows || src->valid_cols != dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects src and dst to have the same valid_shape, but got [%lld, %lld] vs [%lld, %lld]",
                          op, (long long)src->valid_rows, (long long)src->valid_cols,
                          (long long)dst->valid_rows, (long long)dst->valid_cols);
    if (scale->valid_rows != dst->valid_rows || scale->valid_cols < 1)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects scale valid_shape[0] to equal dst valid_shape[0], but got %lld vs %lld",
                          op, (long long)scale->valid_rows, (long long)dst->valid_rows);
    if (!tile_is_row_major(src) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects src and dst to use row-major layout", op);
    if ((st = check_vec(ctx, op, "src", src)) || (st = check_vec(ctx, op, "scale", scale)) ||
        (st = check_vec(ctx, op, "offset", offset)) || (st = check_vec(ctx, op, "dst", dst)))
        return st;

    Param ps, po;
    param_init(&ps, ctx, scale);
    param_init(&po, ctx, offset);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int esz = ptort_dtype_size(src->dtype);
    int64_t sst = tile_row_stride(src) * esz, dst_st = tile_row_stride(dst) * 4;
    int i8 = esz == 1;
#ifdef PTORT_X86_KERNELS
    if (dst->valid_cols % 32 == 0 && have_avx2()) {
        (i8 ? dequant_i8_rows_avx2 : dequant_i16_rows_avx2)(sb, sst, db, dst_st, dst->valid_rows, dst->valid_cols,
                                                           &ps, &po);
        return PTORT_OK;
    }
#endif
    void (*i8_row)(const int8_t *, uint32_t *, int64_t, float, float) = dequant_i8_row_c;
    void (*i16_row)(const int16_t *, uint32_t *, int64_t, float, float) = dequant_i16_row_c;
#ifdef PTORT_X86_KERNELS
    if (have_avx2()) {
        i8_row = dequant_i8_row_avx2;
        i16_row = dequant_i16_row_avx2;
    } else {
        i8_row = dequant_i8_row_sse2;
        i16_row = dequant_i16_row_sse2;
    }
#endif
    for (int64_t r = 0; r < dst->valid_rows; r++) {
        /* The scale is read at column 0 of row r (docs/numerics.md 3), through its layout. */
        float s = param_at(&ps, r), z = param_at(&po, r);
        uint32_t *y = (uint32_t *)(void *)(db + r * dst_st);
        if (i8)
            i8_row((const int8_t *)(sb + r * sst), y, dst->valid_cols, s, z);
        else
            i16_row((const int16_t *)(const void *)(sb + r * sst), y, dst->valid_cols, s, z);
    }
    return PTORT_OK;
}
