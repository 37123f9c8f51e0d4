/* vec_kern.h - the row loops of the vector ops (docs/vector-ops.md), written once and
 * expanded per (op, dtype) by X-macros. vec.c includes this file once per instruction set
 * with KSUF (name suffix) and KATTR (function attributes) defined, so that the same loops
 * are compiled for the portable baseline, AVX2 and AVX-512 and picked at run time. Every
 * loop is straight-line integer code plus separately rounded fp32/fp64 operations, so all
 * copies give the same bits (-ffp-contract=off; no fast-math).
 *
 * Element model per dtype (VEC_DTYPE_* in vec.c): a storage type TY, a compute type, LD
 * (storage -> compute, exact) and ST (compute -> storage, RNE for f16/bf16, wrap-around for
 * integers), the kind F (float) or I (integer) and the sign bit SB.
 */

#define KN_(a, b) a##b
#define KN2(a, b) KN_(a, b)
#define KN(n) KN2(n, KSUF)

/* ---- elementwise binary, tile-tile (b advances) and tile-scalar (b[0] for all) ----------
 * In the x86 sets (VK_F16C_SET) the f16 arithmetic ops (VK_ARITH_*) run F16C loops instead
 * (vk_f16c_bin_* / vk_f16c_un in vec.c): the same values, as widening is exact, the f32
 * operation is the same and vcvtps2ph rounds to nearest even like ST_F16. */

#define DEF_BIN(op, dt, TY, CT, K, LD, ST, SB)                                                \
    KATTR static void KN(bin_##op##_##dt)(const void *pa, const void *pb, void *pd, int64_t n, \
                                          int scalar)                                         \
    {                                                                                         \
        if (VK_F16C_SET && VK_IS_F16_##dt && VK_ARITH_##op) {                                 \
            vk_f16c_bin_##op(pa, pb, pd, n, scalar);                                          \
            return;                                                                           \
        }                                                                                     \
        const TY *a = (const TY *)pa, *b = (const TY *)pb;                                    \
        TY *d = (TY *)pd;                                                                     \
        if (scalar) {                                                                         \
            const TY y = b[0];                                                                \
            for (int64_t i = 0; i < n; i++) {                                                 \
                TY x = a[i];                                                                  \
                d[i] = BINEL_##op(K, CT, LD, ST, x, y);                                       \
            }                                                                                 \
        } else {                                                                              \
            for (int64_t i = 0; i < n; i++) {                                                 \
                TY x = a[i], y = b[i];                                                        \
                d[i] = BINEL_##op(K, CT, LD, ST, x, y);                                       \
            }                                                                                 \
        }                                                                                     \
    }

#define DEF_UN(op, dt, TY, CT, K, LD, ST, SB)                                                 \
    KATTR static void KN(un_##op##_##dt)(const void *pa, void *pd, int64_t n)                 \
    {                                                                                         \
        if (VK_F16C_SET && VK_IS_F16_##dt && VK_ARITH_##op) {                                 \
            vk_f16c_un(KN(un_##op##_f32), pa, pd, n);                                         \
            return;                                                                           \
        }                                                                                     \
        const TY *a = (const TY *)pa;                                                         \
        TY *d = (TY *)pd;                                                                     \
        for (int64_t i = 0; i < n; i++) {                                                     \
            TY x = a[i];                                                                      \
            d[i] = UNEL_##op(K, CT, LD, ST, SB, TY, x);                                       \
        }                                                                                     \
    }

/* the integer-only ops (VEC_IBIN_TABLE / VEC_IUN_TABLE): the loops above without the F16C
 * branch, which names float kernels these ops do not have */
#define DEF_IBIN(op, dt, TY, CT, K, LD, ST, SB)                                               \
    KATTR static void KN(bin_##op##_##dt)(const void *pa, const void *pb, void *pd, int64_t n, \
                                          int scalar)                                         \
    {                                                                                         \
        const TY *a = (const TY *)pa, *b = (const TY *)pb;                                    \
        TY *d = (TY *)pd;                                                                     \
        for (int64_t i = 0; i < n; i++) {                                                     \
            TY x = a[i], y = b[scalar ? 0 : i];                                               \
            d[i] = (TY)BINEL_##op(K, CT, LD, ST, x, y);                                       \
        }                                                                                     \
    }

#define DEF_IUN(op, dt, TY, CT, K, LD, ST, SB)                                                \
    KATTR static void KN(un_##op##_##dt)(const void *pa, void *pd, int64_t n)                 \
    {                                                                                         \
        const TY *a = (const TY *)pa;                                                         \
        TY *d = (TY *)pd;                                                                     \
        for (int64_t i = 0; i < n; i++)                                                       \
            d[i] = UNEL_##op(K, CT, LD, ST, SB, TY, a[i]);                                    \
    }

/* ---- reductions --------------------------------------------------------------------------
 * Row reductions run LANES rows at once: a chunk of each row is first copied transposed into
 * BUF (element j of row k at buf[j * LANES + k], converted to the accumulator type), then
 * the accumulators of the LANES rows advance one column at a time, in column order. Every
 * row therefore sees exactly the sequential order acc = op(acc, x[j]), j = 0, 1, ...;
 * only independent rows share a vector. AT is the accumulator type, ACC(acc, v) one step.
 * On x86 VK_RBLK first runs the whole 8-column blocks with an in-register transpose (vec.c)
 * and sets jv to the first column it left; elsewhere it does nothing. */
#define RED_LANES 8
#define RED_CHUNK 64

#define DEF_RRED(name, STY, AT, LDA, ACC)                                                     \
    KATTR static void KN(rred_##name)(const uint8_t *src, int64_t sstride, int64_t rows,      \
                                      int64_t n, int first, AT init, AT *out, AT *buf)        \
    {                                                                                         \
        int64_t r = 0;                                                                        \
        while (r + RED_LANES <= rows) {                                                       \
            /* up to RBLK_MAXG groups of RED_LANES rows at once */                            \
            int ng = (int)((rows - r) / RED_LANES);                                           \
            ng = ng < RBLK_MAXG ? ng : RBLK_MAXG;                                             \
            AT acc[RBLK_MAXG * RED_LANES];                                                    \
            const STY *row[RBLK_MAXG * RED_LANES];                                            \
            int nr = ng * RED_LANES;                                                          \
            for (int k = 0; k < nr; k++) {                                                    \
                row[k] = (const STY *)(const void *)(src + (r + k) * sstride);                \
                acc[k] = first ? LDA(row[k][0]) : init;                                       \
            }                                                                                 \
            int64_t jv = first;                                                               \
            VK_RBLK(name, src + r * sstride, sstride, first, n, ng, acc, jv);                 \
            for (int g = 0; g < ng; g++)                                                      \
                for (int64_t j0 = jv; j0 < n; j0 += RED_CHUNK) {                              \
                    int64_t m = n - j0 < RED_CHUNK ? n - j0 : RED_CHUNK;                      \
                    const STY *const *rg = row + g * RED_LANES;                               \
                    AT *ag = acc + g * RED_LANES;                                             \
                    for (int64_t j = 0; j < m; j++)                                           \
                        for (int k = 0; k < RED_LANES; k++)                                   \
                            buf[j * RED_LANES + k] = LDA(rg[k][j0 + j]);                      \
                    for (int64_t j = 0; j < m; j++)                                           \
                        for (int k = 0; k < RED_LANES; k++)                                   \
                            ag[k] = ACC(ag[k], buf[j * RED_LANES + k]);                       \
                }                                                                             \
            for (int k = 0; k < nr; k++)                                                      \
                out[r + k] = acc[k];                                                          \
            r += nr;                                                                          \
        }                                                                                     \
        for (; r < rows; r++) {                                                               \
            const STY *x = (const STY *)(const void *)(src + r * sstride);                    \
            AT acc = first ? LDA(x[0]) : init;                                                \
            for (int64_t j = first; j < n; j++)                                               \
                acc = ACC(acc, LDA(x[j]));                                                    \
            out[r] = acc;                                                                     \
        }                                                                                     \
    }

/* Column reductions: acc[j] = op(acc[j], x[i][j]) for i = 1 (or 0), 2, ... in row order;
 * the columns are independent, so the loop over j is the vector loop. */
#define DEF_CRED(name, STY, AT, LDA, ACC)                                                     \
    KATTR static void KN(cred_##name)(const uint8_t *src, int64_t sstride, int64_t rows,      \
                                      int64_t n, int first, AT init, AT *acc)                 \
    {                                                                                         \
        const STY *x0 = (const STY *)(const void *)src;                                       \
        for (int64_t j = 0; j < n; j++)                                                       \
            acc[j] = first ? LDA(x0[j]) : init;                                               \
        for (int64_t i = first; i < rows; i++) {                                              \
            const STY *x = (const STY *)(const void *)(src + i * sstride);                    \
            for (int64_t j = 0; j < n; j++)                                                   \
                acc[j] = ACC(acc[j], LDA(x[j]));                                              \
        }                                                                                     \
    }

/* ---- conversions (tcvt) -------------------------------------------------------------------
 * One function per (source, destination) pair; its body (VEC_CVT_TABLE) holds one loop per
 * rounding mode and saturation setting. */
#define DEF_CVT(sd, dd, body)                                                                 \
    KATTR static void KN(cvt_##sd##_##dd)(const void *ps, void *pd, int64_t n, int sat,       \
                                          ptort_rmode rm)                                     \
    {                                                                                         \
        body                                                                                  \
    }

VEC_BIN_TABLE(DEF_BIN)
VEC_UN_TABLE(DEF_UN)
VEC_IBIN_TABLE(DEF_IBIN)
VEC_IUN_TABLE(DEF_IUN)
VEC_RRED_TABLE(DEF_RRED)
VEC_CRED_TABLE(DEF_CRED)
VEC_CVT_INTERNAL(DEF_CVT)
VEC_CVT_TABLE(DEF_CVT)

/* The kernel table of this instruction set. */
static const VecKernels KN(kernels) = {
#define BIN_ENTRY(op, dt, ...) .bin[VOP_##op][VDT_##dt] = KN(bin_##op##_##dt),
    VEC_BIN_TABLE(BIN_ENTRY)
    VEC_IBIN_TABLE(BIN_ENTRY)
#define UN_ENTRY(op, dt, ...) .un[VOP_##op][VDT_##dt] = KN(un_##op##_##dt),
    VEC_UN_TABLE(UN_ENTRY)
    VEC_IUN_TABLE(UN_ENTRY)
#define RRED_ENTRY(name, ...) .rred_##name = KN(rred_##name),
    VEC_RRED_TABLE(RRED_ENTRY)
#define CRED_ENTRY(name, ...) .cred_##name = KN(cred_##name),
    VEC_CRED_TABLE(CRED_ENTRY)
#define CVT_ENTRY(sd, dd, body) .cvt_##sd##_##dd = KN(cvt_##sd##_##dd),
    VEC_CVT_INTERNAL(CVT_ENTRY)
    VEC_CVT_TABLE(CVT_ENTRY)
};
#undef BIN_ENTRY
#undef UN_ENTRY
#undef RRED_ENTRY
#undef CRED_ENTRY
#undef CVT_ENTRY
#undef DEF_BIN
#undef DEF_UN
#undef DEF_RRED
#undef DEF_CRED
#undef DEF_CVT
#undef KSUF
#undef KATTR
