/* internal.h - what the runtime's source files share and the public header does not show:
 * the context layout, error reporting, operand checks, the separable layout tables, and the
 * bit-exact scalar encoders as inline functions so that the op loops can vectorize them.
 */
#ifndef PTORT_INTERNAL_H
#define PTORT_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "ptort.h"

#define PTORT_ERR_MAX 1024

struct ptort_ctx {
    ptort_arch arch;
    ptort_numerics numerics; /* PTORT_NUMERICS_SIM: the CPU simulator's choices */
    uint8_t *mem[PTORT_NUM_LOCS];
    int64_t size[PTORT_NUM_LOCS];
    void *scratch;          /* per-op working memory, grown on demand */
    size_t scratch_size;
    char err[PTORT_ERR_MAX];
    int64_t launch[4];      /* ptort_block_query: block idx, block num, subblock idx, subblock num */
    ptort_race *race;       /* the race checker it reports to (race.c), NULL: none */
    int race_core;          /* its core in race */
    struct ptort_core *core; /* the launch core it runs (launch.c), NULL outside a launch */
    int64_t launch_opt[3];  /* ptort_set_launch_options: blocks, block, threads */
};

#if defined(__GNUC__)
#define PTORT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PTORT_PRINTF(a, b)
#endif

/* GCC 12 at -O2 vectorizes only with its "very cheap" cost model, which refuses loops of
 * unknown trip count; the hot per-row loops ask for the normal cost model instead. This
 * changes no result: the loops are integer code and separately rounded fp32 operations
 * (-ffp-contract=off still holds). */
#if defined(__GNUC__) && !defined(__clang__)
#define PTORT_VECTORIZE __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define PTORT_VECTORIZE
#endif

/* The per-row kernels also get an AVX2 copy chosen at load time (GNU ifunc) on x86-64, so a
 * default (SSE2) build still runs 8 lanes wide on machines that have them. Integer and
 * separately rounded fp32 operations give the same bits in either copy. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define PTORT_HOT PTORT_VECTORIZE __attribute__((target_clones("avx2", "default")))
#else
#define PTORT_HOT PTORT_VECTORIZE
#endif

/* CPU features (cpu.c, the only file that probes them). The tests' switch: 0 = the widest
 * kernels the CPU has, 1 = AVX2 at most, 2 = portable (unit tests compare the kernel sets
 * in one run). */
extern int ptort_cpu_cap;

/* Non-zero when the hand-written AVX2 kernels may run (x86-64 only): the CPU has AVX2, FMA
 * and F16C, the environment variable PTORT_NO_AVX2 is unset (tests set it to run the SSE2
 * kernels) and ptort_cpu_cap < 2. */
int ptort_use_avx2(void);

/* Non-zero when the AVX-512 copies of the vector-op loops may run: ptort_use_avx2(), the CPU
 * has avx512f/bw/vl/dq, PTORT_NO_AVX512 is unset and ptort_cpu_cap < 1. */
int ptort_use_avx512(void);

/* ptort_use_avx512() and the CPU has avx512vbmi. */
int ptort_use_avx512vbmi(void);

/* The CPU has FMA and AVX2 (gemv's fused row kernel; not subject to ptort_cpu_cap: the
 * fused result is the same bits either way). */
int ptort_cpu_fma(void);

/* The hand-written AVX-512 kernels of the vector ops (vec_avx512.c): the kernel for (OP, DT)
 * when ptort_use_avx512() holds and there is one, else NULL (vec.c then runs its compiled
 * loops). They give the portable loops' bytes. */
typedef void (*ptort_vbin_fn)(const void *a, const void *b, void *d, int64_t n, int scalar);
typedef void (*ptort_vun_fn)(const void *a, void *d, int64_t n);
ptort_vbin_fn ptort_vecz_bin(ptort_vop op, ptort_dtype dt);
/* Float reductions (f32 accumulators): column (init, acc[n]) and row (init, out[rows]) */
typedef void (*ptort_vcred_fn)(const uint8_t *src, int64_t sstride, int64_t rows, int64_t n,
                               int first, float init, float *acc);
typedef void (*ptort_vrred_fn)(const uint8_t *src, int64_t sstride, int64_t rows, int64_t n,
                               int first, float init, float *out, float *buf);
/* Fills N elements of SIZE bytes at P with the element E; 0 when there is no such kernel. */
int ptort_vecz_fill(uint8_t *p, int size, int64_t n, const uint8_t *e);
typedef void (*ptort_vcvt_fn)(const void *s, void *d, int64_t n, int sat, ptort_rmode rm);
ptort_vcvt_fn ptort_vecz_cvt(ptort_dtype sdt, ptort_dtype ddt, ptort_rmode rm);
ptort_vcred_fn ptort_vecz_cred(ptort_vop op, ptort_dtype sdt, ptort_dtype ddt);
ptort_vrred_fn ptort_vecz_rred(ptort_vop op, ptort_dtype sdt);
ptort_vun_fn ptort_vecz_un(ptort_vop op, ptort_dtype dt);
/* tgemv.bias products OUT[j] (the fmaf chains over k) for an f16 rhs in ZN 16 x 16 boxes at B,
 * BOXROW bytes per row of boxes, K and N multiples of 16; 0 when there is no such kernel. */
int ptort_vecz_gemv_zn16(const uint8_t *b, int64_t boxrow, const float *a, int64_t k, int64_t n,
                         float *out);

/* Records a message in CTX (if not NULL) and returns ST. */
ptort_status ptort_fail(ptort_ctx *ctx, ptort_status st, const char *fmt, ...) PTORT_PRINTF(3, 4);

/* Checks one operand of OP named ROLE (descriptor rules, address); the message names both. */
ptort_status ptort_check_operand(ptort_ctx *ctx, const char *op, const char *role,
                                 const ptort_tile *t);

/* Scratch memory of at least N bytes, 64-byte aligned; NULL (with PTORT_E_NOMEM recorded)
 * when out of memory. Invalidated by the next call. */
void *ptort_scratch(ptort_ctx *ctx, size_t n);

/* Element pointer of a tile's first byte (descriptor already checked). */
static inline uint8_t *tile_base(ptort_ctx *ctx, const ptort_tile *t)
{
    return ctx->mem[t->loc] + t->addr;
}

/* "row-major" in docs/verify.md's sense: blayout row_major, slayout none_box. */
static inline int tile_is_row_major(const ptort_tile *t)
{
    return t->blayout == PTORT_BL_ROW_MAJOR && t->slayout == PTORT_SL_NONE_BOX;
}

/* Distance in elements between consecutive rows of a row-major none_box tile. */
static inline int64_t tile_row_stride(const ptort_tile *t)
{
    return t->cols + (t->compact == PTORT_COMPACT_ROW_PLUS_ONE ? 1 : 0);
}

/* Every layout of docs/numerics.md section 5 is separable: offset(r, c) = row_off(r) + col_off(c).
 * A Layout caches what both halves need so that ops can build per-row/per-column tables. */
typedef struct {
    int kind;               /* LAY_* below */
    int64_t ir, ic;         /* inner box */
    int64_t pr, pc;         /* physical rows/cols, rounded to whole boxes */
    int64_t stride;         /* none_box: distance between rows (row-major) or cols;
                             * NZ: 1 for compact row_plus_one (a box row more per box column) */
} Layout;

enum { LAY_ROW, LAY_COL, LAY_FLAT, LAY_NZ, LAY_ZZ, LAY_ZN, LAY_NN };

void layout_of(const ptort_tile *t, Layout *l);
int64_t layout_row_off(const Layout *l, int64_t r);
int64_t layout_col_off(const Layout *l, int64_t c);

/* Column offset table for columns [0, n) of T in scratch-like memory OUT. */
void layout_col_table(const ptort_tile *t, int64_t n, int64_t *out);

const char *ptort_layout_name(const ptort_tile *t);

/* tmov between element types (moves.c): an acc f32 SRC's valid region into an f16/bf16 DST
 * through both layouts, rounded to nearest even; PTORT_E_DTYPE for any other pair. The
 * descriptors and the valid shapes are the caller's to check. */
ptort_status moves_convert(ptort_ctx *ctx, const char *op, const ptort_tile *src, const ptort_tile *dst);
/* Whether moves_convert converts SRC into DST (an acc f32 tile into f16/bf16, a mat f16/bf16
 * tile into an f32 bias tile). */
int moves_converts(const ptort_tile *src, const ptort_tile *dst);
/* The fixpipe's relu / scalar pre-quantization of one acc element (docs/numerics.md 8.6): the
 * SD bits at X into the DD element at Y; QUANT says whether WORD applies. moves_fix_pair says
 * whether the pair is computed. */
int moves_fix_pair(ptort_dtype sd, ptort_dtype dd, int quant);
void moves_fix_one(const uint8_t *x, uint8_t *y, ptort_dtype sd, ptort_dtype dd, int relu, int quant, uint64_t word);

/* ---- bit casts and conversions ----------------------------------------------------- */

static inline uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* f16 -> f32 exactly: place exponent and mantissa in an fp32 and rescale by 2^112, which
 * also normalizes f16 subnormals; Inf/NaN get the all-ones exponent back afterwards. */
static inline uint32_t f16_bits_to_f32_bits(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t em = (uint32_t)(h & 0x7FFFu) << 13;
    uint32_t r = f2u(u2f(em) * 0x1p112f);
    r |= em >= 0x0F800000u ? 0x7F800000u : 0;
    return r | sign;
}

/* f32 -> f16, round to nearest even; values too large become Inf; NaN stays a quiet NaN. */
static inline uint16_t f32_to_f16_bits(float f)
{
    uint32_t x = f2u(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t a = x & 0x7FFFFFFFu;
    if (a > 0x7F800000u)
        return (uint16_t)(sign | 0x7E00u | ((a >> 13) & 0x1FFu));
    if (a >= 0x38800000u) {                  /* normal f16 range (or overflow) */
        uint32_t h = a - (112u << 23);
        h = (h + 0xFFFu + ((h >> 13) & 1u)) >> 13;
        if (h > 0x7C00u)
            h = 0x7C00u;
        return (uint16_t)(sign | h);
    }
    /* Subnormal: adding 0.5 (ulp 2^-24) rounds |f| to a multiple of 2^-24 with RNE. */
    return (uint16_t)(sign | (f2u(u2f(a) + 0.5f) - 0x3F000000u));
}

static inline uint16_t f32_to_bf16_bits(float f)
{
    uint32_t x = f2u(f);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

/* RNE to bf16 precision, staying in fp32 (no NaN inputs on the paths that use it). */
static inline uint32_t round_bits_to_bf16(uint32_t x)
{
    return (x + 0x7FFFu + ((x >> 16) & 1u)) & 0xFFFF0000u;
}

/* fp32 -> e4m3 (OCP E4M3FN), RNE, saturating, sign of zero kept. Branch-free so that loops
 * over it vectorize. Normal results (|x| >= 2^-6): round the fp32 pattern to 3 mantissa
 * bits and rebias (carries into the exponent are right). Subnormal results: adding 2^14,
 * whose ulp is 2^-9, makes the FPU round |x| to a multiple of 2^-9 with RNE. */
static inline uint8_t e4m3_encode(float f)
{
    uint32_t x = f2u(f);
    uint32_t a = x & 0x7FFFFFFFu;
    uint32_t sign = (x >> 24) & 0x80u;
    uint32_t norm = ((a + 0x7FFFFu + ((a >> 20) & 1u)) >> 20) - (120u << 3);
    uint32_t sub = f2u(u2f(a) + 16384.0f) - 0x46800000u;
    uint32_t mag = a < 0x3C800000u ? sub : norm;
    mag = a >= 0x43E00000u ? 0x7Eu : mag;
    uint32_t code = sign | mag;
    code = a > 0x7F800000u ? 0x7Fu : code;
    return (uint8_t)code;
}

/* fp32 -> e2m1 code (low nibble), same scheme: normals (|x| >= 1) keep 1 mantissa bit,
 * subnormals are multiples of 0.5, found by adding 2^22 (ulp 0.5). */
static inline uint8_t e2m1_encode(float f)
{
    uint32_t x = f2u(f);
    uint32_t a = x & 0x7FFFFFFFu;
    uint32_t sign = (x >> 28) & 0x8u;
    uint32_t norm = ((a + 0x1FFFFFu + ((a >> 22) & 1u)) >> 22) - (126u << 1);
    uint32_t sub = f2u(u2f(a) + 4194304.0f) - 0x4A800000u;
    uint32_t mag = a < 0x3F800000u ? sub : norm;
    mag = a >= 0x40C00000u ? 0x7u : mag;
    uint32_t code = sign | mag;
    code = a > 0x7F800000u ? 0x7u : code;
    return (uint8_t)code;
}

float e4m3_decode(uint8_t c);
float e5m2_decode(uint8_t c);

/* Largest finite and lowest values of a dtype as raw element bits (for tload padding). */
uint32_t dtype_max_bits(ptort_dtype dt);
uint32_t dtype_lowest_bits(ptort_dtype dt);

/* Loads element I of a row of DT as raw bits (1, 2 or 4 bytes). */
static inline uint32_t load_elem(const uint8_t *p, int size, int64_t i)
{
    uint32_t v = 0;
    switch (size) {
    case 1: v = p[i]; break;
    case 2: { uint16_t h; memcpy(&h, p + 2 * i, 2); v = h; break; }
    default: memcpy(&v, p + 4 * i, 4); break;
    }
    return v;
}

static inline void store_elem(uint8_t *p, int size, int64_t i, uint32_t v)
{
    switch (size) {
    case 1: p[i] = (uint8_t)v; break;
    case 2: { uint16_t h = (uint16_t)v; memcpy(p + 2 * i, &h, 2); break; }
    default: memcpy(p + 4 * i, &v, 4); break;
    }
}

#endif
