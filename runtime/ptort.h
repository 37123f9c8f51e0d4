/* ptort.h - the public C API of the ptoas runtime (libptort.a).
 *
 * Generated kernels (ptoas --emit=c) and host programs call this library to execute PTO tile
 * ops on the CPU with the exact numerics of docs/numerics.md and the memory model of docs/memory.md:
 * a context owns one zeroed byte array per memory space, tiles are descriptors that point
 * into those arrays, and every op checks its descriptors and returns a status code instead
 * of aborting. There is no global state: each thread may run its own contexts.
 * docs/runtime.md has the full story and an example.
 */
#ifndef PTORT_H
#define PTORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status codes ------------------------------------------------------------------ */

typedef enum {
    PTORT_OK = 0,
    PTORT_E_ARG,     /* a NULL pointer or an enum value out of range */
    PTORT_E_DESC,    /* a tile descriptor breaks a tile-type rule (docs/verify.md section 1) */
    PTORT_E_ADDR,    /* an address is negative, misaligned or runs past its memory space */
    PTORT_E_DTYPE,   /* an operand has a dtype the op does not accept */
    PTORT_E_SHAPE,   /* shapes or valid shapes do not agree */
    PTORT_E_LAYOUT,  /* an operand has a layout or memory space the op does not accept */
    PTORT_E_ARCH,    /* the op or dtype is not available on the context's architecture */
    PTORT_E_VIEW,    /* a host view access falls outside the host buffer */
    PTORT_E_NOMEM,   /* out of host memory */
    PTORT_E_IO,      /* a file could not be opened, read or written */
    PTORT_E_FORMAT,  /* a malformed or unsupported .npy file */
    PTORT_E_UB,      /* a scalar op whose result MLIR leaves undefined (docs/scalars.md), an
                        integer vector division by zero (docs/vector-ops.md) */
    PTORT_E_TRAP,    /* pto.trap ran: the kernel stops there */
    PTORT_E_RACE,    /* the race checker found two unordered accesses (docs/launch.md 5) */
    PTORT_E_STOPPED  /* a launch stopped this core: another core failed or the launch deadlocked
                        (reported once, by the launch; docs/launch.md) */
} ptort_status;

/* ---- enumerations ------------------------------------------------------------------ */

typedef enum { PTORT_A2, PTORT_A3, PTORT_A5 } ptort_arch;

/* Memory spaces, in the order of docs/memory.md section 1. */
typedef enum {
    PTORT_VEC, PTORT_MAT, PTORT_LEFT, PTORT_RIGHT, PTORT_ACC, PTORT_BIAS, PTORT_SCALING,
    PTORT_NUM_LOCS
} ptort_loc;

/* Element types. si8/si16 are spelled PTORT_I8/PTORT_I16. PTORT_F4E2M1X2 is one byte
 * holding two e2m1 codes; tiles of it count cols in bytes. PTORT_I64 and PTORT_U64 are
 * for pointers and tensor views only (pto.load_scalar / pto.store_scalar): no tile op
 * computes them. */
typedef enum {
    PTORT_I8, PTORT_I16, PTORT_I32, PTORT_U8, PTORT_U16, PTORT_U32,
    PTORT_F16, PTORT_BF16, PTORT_F32,
    PTORT_F8E4M3FN, PTORT_F8E5M2, PTORT_F8E8M0FNU, PTORT_F4E2M1X2,
    PTORT_I64, PTORT_U64,
    PTORT_NUM_DTYPES
} ptort_dtype;
#define PTORT_NUM_TILE_DTYPES PTORT_I64 /* the tile element types come first */

typedef enum { PTORT_BL_ROW_MAJOR, PTORT_BL_COL_MAJOR } ptort_blayout;
typedef enum { PTORT_SL_NONE_BOX, PTORT_SL_ROW_MAJOR, PTORT_SL_COL_MAJOR } ptort_slayout;
typedef enum { PTORT_PAD_NULL = 0, PTORT_PAD_ZERO = 1, PTORT_PAD_MAX = 2, PTORT_PAD_MIN = 3 } ptort_pad;
typedef enum { PTORT_COMPACT_NULL = 0, PTORT_COMPACT_NORMAL = 1, PTORT_COMPACT_ROW_PLUS_ONE = 2 } ptort_compact;

typedef enum { PTORT_INT8_SYM, PTORT_INT8_ASYM, PTORT_MXFP8, PTORT_MXFP4_E2M1 } ptort_quant_type;
typedef enum { PTORT_SCALE_OCP, PTORT_SCALE_NV } ptort_scale_alg;
typedef enum { PTORT_AXIS1, PTORT_AXIS0 } ptort_group_axis;   /* axis1 = ND, axis0 = DN */
typedef enum { PTORT_ACC_UNSPECIFIED, PTORT_ACC_PARTIAL, PTORT_ACC_FINAL } ptort_acc_phase;

/* ---- the context ------------------------------------------------------------------- */

typedef struct ptort_ctx ptort_ctx;

/* Creates a context for ARCH with zeroed memory spaces of the capacities of docs/memory.md.
 * SIZES may be NULL, or point to PTORT_NUM_LOCS byte counts where a value > 0 overrides that
 * space's capacity (--mem-size). Returns NULL when ARCH is unknown or memory runs out. */
ptort_ctx *ptort_ctx_new(ptort_arch arch, const int64_t *sizes);

/* Frees the context and its memory spaces; NULL is accepted. */
void ptort_ctx_free(ptort_ctx *ctx);

/* Whose numerics the ops compute (docs/numerics.md 9): the hardware's, as pto-isa's A5 and
 * A2/A3 implementations and ISA pages specify them (the default), or the pto-isa CPU
 * simulator's bit for bit where the two differ (docs/departures.md 6-16). */
typedef enum { PTORT_NUMERICS_HW, PTORT_NUMERICS_SIM } ptort_numerics;
void ptort_ctx_set_numerics(ptort_ctx *ctx, ptort_numerics numerics);

/* The message of the last failed call on CTX ("" if none). Valid until the next call. */
const char *ptort_error(const ptort_ctx *ctx);

/* The short name of a status code, e.g. "PTORT_E_ADDR". */
const char *ptort_status_name(ptort_status st);

ptort_arch ptort_ctx_arch(const ptort_ctx *ctx);

/* The bytes of memory space LOC and, through SIZE if not NULL, its capacity; NULL when LOC is
 * out of range. Host code may read and write them directly. */
uint8_t *ptort_mem(ptort_ctx *ctx, ptort_loc loc, int64_t *size);

/* The default capacity and the alignment of LOC on ARCH (docs/memory.md); -1 when out of range. */
int64_t ptort_loc_capacity(ptort_arch arch, ptort_loc loc);
int64_t ptort_loc_alignment(ptort_loc loc);

/* Names as in the PTO text: "vec", "f32", "f8E4M3FN", ...; "?" when out of range. */
const char *ptort_loc_name(ptort_loc loc);
const char *ptort_dtype_name(ptort_dtype dt);

/* Bytes per element (1 for PTORT_F4E2M1X2, an element being a packed pair); 0 if unknown. */
int ptort_dtype_size(ptort_dtype dt);

/* ---- tile descriptors -------------------------------------------------------------- */

/* A tile: where its bytes are and how elements are laid out. rows/cols are the physical shape
 * (cols in bytes for PTORT_F4E2M1X2), valid_rows/valid_cols the region ops work on (dynamic
 * valid sizes are simply set at run time). addr is a byte offset inside memory space loc. */
typedef struct {
    ptort_loc loc;
    ptort_dtype dtype;
    int64_t rows, cols;
    int64_t valid_rows, valid_cols;
    ptort_blayout blayout;
    ptort_slayout slayout;
    int32_t fractal;      /* 32, 512 or 1024: selects the inner box of a boxed layout */
    int32_t pad;          /* ptort_pad: value of elements outside the valid region for tload */
    int32_t compact;      /* ptort_compact; only with slayout none_box */
    int64_t addr;
} ptort_tile;

/* Returns a row-major none_box descriptor with valid = physical shape, fractal 512, pad 0,
 * compact 0, at ADDR. Never fails; check the result with ptort_tile_check. */
ptort_tile ptort_tile_make(ptort_loc loc, ptort_dtype dtype, int64_t rows, int64_t cols,
                           int64_t addr);

/* Checks a descriptor against the tile-type rules (docs/verify.md section 1) and its address
 * against its space (docs/memory.md section 5). Errors: PTORT_E_ARG, PTORT_E_DESC, PTORT_E_ADDR. */
ptort_status ptort_tile_check(ptort_ctx *ctx, const ptort_tile *t);

/* Bytes the tile occupies (docs/memory.md section 1, before rounding to the space's alignment);
 * -1 for a malformed descriptor. */
int64_t ptort_tile_bytes(const ptort_tile *t);

/* Element index (in elements from addr) of element (r, c) under the tile's layout
 * (docs/numerics.md section 5); -1 if (r, c) lies outside the physical (box-rounded) shape or
 * the descriptor is malformed. Use it for single elements; ops use faster paths. */
int64_t ptort_tile_offset(const ptort_tile *t, int64_t r, int64_t c);

/* Sets every byte the tile occupies to zero, as fresh memory: generated code
 * clears a result tile when it comes to life, so that positions the kernel never
 * writes read back as 0 even where the placement reuses bytes of a dead tile.
 * Errors: PTORT_E_ARG, PTORT_E_DESC, PTORT_E_ADDR. */
ptort_status ptort_tile_zero(ptort_ctx *ctx, const ptort_tile *t);

/* Copies a logical row-major ROWS x COLS host array of the tile's dtype (raw element bytes;
 * bf16 as uint16 bits, packed fp4 as bytes) into the top-left ROWS x COLS elements of the
 * tile, whatever its layout. ROWS, COLS must not exceed the physical shape.
 * Errors: PTORT_E_ARG, PTORT_E_DESC, PTORT_E_ADDR, PTORT_E_SHAPE. */
ptort_status ptort_tile_fill(ptort_ctx *ctx, const ptort_tile *t, const void *host,
                             int64_t rows, int64_t cols);

/* The reverse of ptort_tile_fill: copies the top-left ROWS x COLS elements of the tile into a
 * row-major host array. Same errors. */
ptort_status ptort_tile_read(ptort_ctx *ctx, const ptort_tile *t, void *host,
                             int64_t rows, int64_t cols);

/* ---- tile views (pto.treshape, pto.subview, pto.set_validshape) -------------------- */

/* A tile view is another descriptor over the bytes of a tile; nothing is copied, and writes
 * through one descriptor are seen through the others. */

/* treshape: OUT = AS (shape, valid shape, dtype, layout) at SRC's address. SRC and AS must
 * share the loc and the total byte size (rows * cols * element size), and be both boxed or
 * both none_box. Errors: descriptor errors, PTORT_E_LAYOUT, PTORT_E_SHAPE. */
ptort_status ptort_tile_reshape(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *as,
                                ptort_tile *out);

/* subview: the ROWS x COLS window of SRC at element (ROW, COL), valid VALID_ROWS x
 * VALID_COLS (<= the sizes). OUT starts at that element's address and keeps SRC's layout; its
 * physical shape is the window's when the window's own layout steps like SRC's (a row-major
 * window of full rows, a col-major one of full columns, any boxed one), else SRC's (so the
 * strides stay SRC's), as PTOAS lowers it. The window must lie inside SRC; boxed sources
 * need box-multiple offsets and sizes and full rows (row-major boxes) or full columns.
 * Errors: descriptor errors (OUT's address too), PTORT_E_SHAPE. */
ptort_status ptort_tile_subview(ptort_ctx *ctx, const ptort_tile *src, int64_t row, int64_t col,
                                int64_t rows, int64_t cols, int64_t valid_rows,
                                int64_t valid_cols, ptort_tile *out);

/* set_validshape: sets T's valid shape, 0 <= VALID <= the physical shape.
 * Errors: descriptor errors, PTORT_E_SHAPE (nothing changes then). */
ptort_status ptort_tile_set_valid(ptort_ctx *ctx, ptort_tile *t, int64_t valid_rows,
                                  int64_t valid_cols);

/* ---- host memory views (tload / tstore) -------------------------------------------- */

#define PTORT_VIEW_MAX_RANK 5

/* An N-D window on host memory (rank 2 to 5): element (i0, ..., i{rank-1}) is at
 * base + (offset + sum of i_k * stride[k]) * sizeof(dtype). size is the number of bytes
 * behind base; every access is checked against it. Tiles move through it as pto-isa's ND
 * transfer does: tile row r is view row r of the rows that all dimensions but the last
 * make, counted with the second-to-last fastest, and tile column c is the last index. */
typedef struct {
    void *base;
    size_t size;
    ptort_dtype dtype;
    int64_t offset;
    int rank;
    int64_t shape[PTORT_VIEW_MAX_RANK];
    int64_t stride[PTORT_VIEW_MAX_RANK];
} ptort_view;

/* Makes a 2-D view of a tensor (make_tensor_view): shape and strides in elements, offset 0. */
ptort_view ptort_view_make(void *base, size_t size, ptort_dtype dtype,
                           int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride);

/* The same for RANK (2 to 5) dimensions; a rank out of range gives a view of rank 0, which
 * every use rejects (PTORT_E_ARG). */
ptort_view ptort_view_make_nd(void *base, size_t size, ptort_dtype dtype, int rank,
                              const int64_t *shape, const int64_t *stride);

/* partition_view of a 2-D view: the SIZES window of TENSOR starting at OFFSETS. Fails with
 * PTORT_E_VIEW when the window leaves the tensor's shape, PTORT_E_ARG on negative numbers
 * or a tensor of another rank. */
ptort_status ptort_view_partition(ptort_ctx *ctx, const ptort_view *tensor,
                                  int64_t off0, int64_t off1, int64_t size0, int64_t size1,
                                  ptort_view *out);

/* The same with one offset and one size per dimension of TENSOR (RANK of each). */
ptort_status ptort_view_partition_nd(ptort_ctx *ctx, const ptort_view *tensor, int rank,
                                     const int64_t *offsets, const int64_t *sizes, ptort_view *out);

/* tload: view element (i, j) -> tile element (i, j) over the tile's valid region, then, if
 * pad != 0, fills the rest of the physical tile with 0 / the dtype's max / its lowest. An
 * empty valid region transfers nothing, whatever the view's shape.
 * Errors: descriptor errors, PTORT_E_DTYPE (dtypes differ), PTORT_E_SHAPE (view shape !=
 * valid shape), PTORT_E_VIEW (an access outside the host buffer; nothing is written then). */
ptort_status ptort_tload(ptort_ctx *ctx, const ptort_view *src, const ptort_tile *dst);

/* tstore: tile element (i, j) -> view element (i, j) over the valid region. Same errors. */
ptort_status ptort_tstore(ptort_ctx *ctx, const ptort_tile *src, const ptort_view *dst);

/* ---- ops --------------------------------------------------------------------------- */

/* tmov: copies the valid region element by element from src's layout to dst's (ND->NZ data,
 * ND->ZZ / DN->ZZ exponents, ...). TMP may be NULL and is never written.
 * Errors: descriptor errors, PTORT_E_DTYPE (dtypes differ), PTORT_E_SHAPE (valid shapes
 * differ). */
ptort_status ptort_tmov(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst,
                        const ptort_tile *tmp);

/* tmov with a tmp tile, the X-to-ZZ form (a5): MX exponents (ui8 or f8E8M0FNU) into the
 * cube's ZZ scale layout, 32-byte boxes of 16 pairs, written as consecutive bytes from DST's
 * address (DST's box type only names the form; its rows x cols bytes must hold them).
 * AXIS1 (ND): SRC holds an R x C exponent tile (R, C = DST's valid shape; SRC compact); the
 * byte at ((rb*(C/2) + j)*16 + q)*2 + d of DST is SRC element (16rb + q, 2j + d), rows past R
 * reading 0, and SRC's bytes from R*C up to align16(R)*C are zeroed in place as pto-isa does.
 * AXIS0 (DN): SRC is the [M/32, N] exponent tile of an axis0 tquant.mx; the byte at
 * (cb*(M/64) + p)*32 + 2q + d of DST is SRC element (2p + d, 16cb + q). TMP is checked
 * (at least 64 + ceil(R/16)*C bytes for ND) but never written. docs/numerics.md section 6.
 * Errors: PTORT_E_ARCH, PTORT_E_ARG, descriptor errors, PTORT_E_LAYOUT, PTORT_E_DTYPE,
 * PTORT_E_SHAPE. */
ptort_status ptort_tmov_zz(ptort_ctx *ctx, ptort_group_axis axis, const ptort_tile *src,
                           const ptort_tile *dst, const ptort_tile *tmp);

/* tquant INT8_SYM / INT8_ASYM (docs/numerics.md section 2): dst = clamp(rint(src * scale
 * [+ offset])) with scale/offset read at column 0 of each row, or from a [1, 1] tile for all
 * rows. OFFSET must be NULL for SYM and given for ASYM; TMP may be NULL and is never written.
 * Errors (docs/verify.md section 2): PTORT_E_ARG, descriptor errors, PTORT_E_DTYPE,
 * PTORT_E_LAYOUT, PTORT_E_SHAPE. */
ptort_status ptort_tquant_int8(ptort_ctx *ctx, ptort_quant_type qt, const ptort_tile *src,
                               const ptort_tile *scale, const ptort_tile *offset,
                               const ptort_tile *dst, const ptort_tile *tmp);

/* tquant MXFP8 / MXFP4_E2M1 (docs/numerics.md section 1), a5 only: writes the data tile DST, the
 * E8M0 exponent tile EXP ([M, G] or flat [1, M*G] for axis1, [M/32, N] for axis0), the MAX
 * and SCALING tiles (each canonical or, on axis1, flat on its own), and, when EXP_ZZ is not
 * NULL (storeMode nz, axis1), the exponents again as bytes in ZZ order from EXP_ZZ's address
 * (an ND tile of one 8-bit element per group; M % 16 == 0, N % 64 == 0). Errors (docs/verify.md section 3): PTORT_E_ARCH, PTORT_E_ARG, descriptor
 * errors, PTORT_E_DTYPE, PTORT_E_LAYOUT, PTORT_E_SHAPE. */
ptort_status ptort_tquant_mx(ptort_ctx *ctx, ptort_quant_type qt, ptort_scale_alg alg,
                             ptort_group_axis axis, const ptort_tile *src,
                             const ptort_tile *dst, const ptort_tile *exp,
                             const ptort_tile *max, const ptort_tile *scaling,
                             const ptort_tile *exp_zz);

/* ptort_tquant_mx_ex flags */
#define PTORT_MX_INTERLEAVE 1u  /* axis0 only: interleaved exponents (see ptort_tquant_mx_ex) */

/* ptort_tquant_mx with FLAGS. PTORT_MX_INTERLEAVE (tquant.mx {interleave = true}, grpAxis
 * axis0, no EXP_ZZ) writes the exponents of row groups 2p and 2p+1 of column c to EXP[p][2c]
 * and EXP[p][2c+1]: EXP's valid shape is [M/64, 2N] and M a multiple of 64 (src rows too);
 * MAX and SCALING keep their [M/32, N] layout. docs/numerics.md has the worked vectors. */
ptort_status ptort_tquant_mx_ex(ptort_ctx *ctx, ptort_quant_type qt, ptort_scale_alg alg,
                                ptort_group_axis axis, unsigned flags, const ptort_tile *src,
                                const ptort_tile *dst, const ptort_tile *exp,
                                const ptort_tile *max, const ptort_tile *scaling,
                                const ptort_tile *exp_zz);

/* tdequant (docs/numerics.md section 3): dst = (float(src) - offset[r][0]) * scale[r][0].
 * Errors (docs/verify.md section 4): descriptor errors, PTORT_E_DTYPE, PTORT_E_LAYOUT,
 * PTORT_E_SHAPE. */
ptort_status ptort_tdequant(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *scale,
                            const ptort_tile *offset, const ptort_tile *dst);

/* tgemv.bias (docs/numerics.md section 4): dst[0][j] = fmaf-chain over k of lhs[0][k]*rhs[k][j],
 * then + bias[0][j]; i8 inputs accumulate in int32 with wrap-around. PHASE does not change
 * the result. Errors (docs/verify.md section 5): descriptor errors, PTORT_E_LAYOUT, PTORT_E_SHAPE,
 * PTORT_E_DTYPE (also for fp8 and the other low-precision inputs, on every architecture). */
ptort_status ptort_tgemv_bias(ptort_ctx *ctx, const ptort_tile *lhs, const ptort_tile *rhs,
                              const ptort_tile *bias, const ptort_tile *dst,
                              ptort_acc_phase phase);

/* ---- scalar conversions (the exact encoders the ops use) ---------------------------- */

float ptort_f16_to_f32(uint16_t h);
uint16_t ptort_f32_to_f16(float f);      /* RNE; overflow -> +-Inf; NaN stays NaN (quiet) */
float ptort_bf16_to_f32(uint16_t b);
uint16_t ptort_f32_to_bf16(float f);     /* RNE; NaN stays NaN (quiet) */
/* OCP E4M3FN, RNE, saturating to +-448, sign of zero kept, +-Inf -> +-448, NaN -> 0x7F. */
uint8_t ptort_f32_to_e4m3(float f);
float ptort_e4m3_to_f32(uint8_t code);
float ptort_e5m2_to_f32(uint8_t code);
/* OCP E2M1 (4-bit code in the low nibble), RNE, saturating to +-6, sign of zero kept,
 * +-Inf -> +-6, NaN -> 0x7. */
uint8_t ptort_f32_to_e2m1(float f);
float ptort_e2m1_to_f32(uint8_t code);
float ptort_e8m0_to_f32(uint8_t code);  /* 2^(e-127); 0xFF -> NaN */

/* ---- NumPy .npy files -------------------------------------------------------------- */

#define PTORT_NPY_MAX_DIMS 8

/* An array read from or written to a .npy file: C order, little-endian. descr is one of
 * "<f4" "<f2" "<i4" "<i2" "|i1" "|u1" "<u2". */
typedef struct {
    char descr[4];
    int ndim;
    int64_t shape[PTORT_NPY_MAX_DIMS];
    size_t itemsize;
    size_t nbytes;       /* itemsize * product(shape) */
    void *data;          /* malloc'ed by ptort_npy_read/parse; free with ptort_npy_free */
} ptort_npy;

/* Parses a .npy image of LEN bytes (v1.0 or 2.0) into OUT (data copied). Errors:
 * PTORT_E_FORMAT with a message (bad magic, version, header, Fortran order, big-endian or
 * unsupported descr, truncated data, trailing bytes), PTORT_E_NOMEM. CTX may be NULL (no
 * message is kept then). */
ptort_status ptort_npy_parse(ptort_ctx *ctx, const void *buf, size_t len, ptort_npy *out);

/* Reads the .npy file PATH; as ptort_npy_parse, plus PTORT_E_IO. */
ptort_status ptort_npy_read(ptort_ctx *ctx, const char *path, ptort_npy *out);

/* Writes ARR to PATH as a v1.0 file byte-identical to numpy.save's. Errors: PTORT_E_ARG
 * (unknown descr, bad shape, data size mismatch), PTORT_E_IO. */
ptort_status ptort_npy_write(ptort_ctx *ctx, const char *path, const ptort_npy *arr);

/* Formats the v1.0 header numpy.save writes for DESCR and SHAPE into BUF (no NUL). Returns
 * its length (a multiple of 64), or 0 if it does not fit in CAP or the arguments are bad. */
size_t ptort_npy_header(char *buf, size_t cap, const char *descr, int ndim,
                        const int64_t *shape);

/* Frees ARR's data and zeroes it. */
void ptort_npy_free(ptort_npy *arr);

/* The .npy descr of a tile dtype ("<f4", "<u2" for bf16 bits, "|u1" for fp8/fp4 bytes, ...);
 * NULL for dtypes without one (u32). */
const char *ptort_dtype_npy_descr(ptort_dtype dt);

/* ---- scalar ops (docs/scalars.md) ------------------------------------------------------ */

/* Generated code computes arith's scalar ops through these. An integer of width W (1 to 64
 * bits; index is 64) is held in an int64_t sign-extended from bit W-1 (i1 true is -1); a
 * float (f16, bf16, f32) in a float holding a value of its type exactly. Every case MLIR
 * leaves undefined fails with PTORT_E_UB and a message naming the op. */
typedef enum {
    PTORT_SOP_ADDI, PTORT_SOP_SUBI, PTORT_SOP_MULI, PTORT_SOP_DIVSI, PTORT_SOP_DIVUI,
    PTORT_SOP_REMSI, PTORT_SOP_REMUI, PTORT_SOP_CEILDIVSI, PTORT_SOP_FLOORDIVSI,
    PTORT_SOP_MAXSI, PTORT_SOP_MINSI, PTORT_SOP_MAXUI, PTORT_SOP_MINUI,
    PTORT_SOP_ANDI, PTORT_SOP_ORI, PTORT_SOP_XORI, PTORT_SOP_SHLI, PTORT_SOP_SHRSI, PTORT_SOP_SHRUI,
    PTORT_SOP_ADDF, PTORT_SOP_SUBF, PTORT_SOP_MULF, PTORT_SOP_DIVF, PTORT_SOP_MAXIMUMF,
    PTORT_SOP_MINIMUMF, PTORT_SOP_NEGF,
    PTORT_SOP_INDEX_CAST, PTORT_SOP_INDEX_CASTUI, PTORT_SOP_EXTSI, PTORT_SOP_EXTUI, PTORT_SOP_TRUNCI,
    PTORT_NUM_SOPS
} ptort_sop;

#define PTORT_SOP_NSW 1u   /* integer flags: overflow<nsw> */
#define PTORT_SOP_NUW 2u   /* overflow<nuw> */
#define PTORT_SOP_NNAN 2u  /* float flags (MLIR's fastmath bits): nnan */
#define PTORT_SOP_NINF 4u  /* ninf */

/* X's low W bits, sign-extended / zero-extended. */
int64_t ptort_sext(uint64_t x, unsigned w);
uint64_t ptort_zext(int64_t x, unsigned w);

/* ADDI .. SHRUI on W-bit integers: wraps; FLAGS (NSW, NUW) make overflow an error, as do
 * division by zero, the minimum value divided by -1 (divsi, ceildivsi, floordivsi) and a shift
 * amount of W or more. Errors: PTORT_E_UB, PTORT_E_ARG. */
ptort_status ptort_scalar_int(ptort_ctx *ctx, ptort_sop op, int64_t a, int64_t b, unsigned w,
                              unsigned flags, int64_t *r);

/* arith.cmpi with MLIR's predicate numbers (0 eq, 1 ne, 2 slt, ... 9 uge): -1 or 0. */
int64_t ptort_scalar_cmpi(int pred, int64_t a, int64_t b, unsigned w);

/* INDEX_CAST .. TRUNCI from FROM to TO bits. A narrowing index_cast (index_castui) of a value
 * that does not fit as a signed (unsigned) TO-bit integer fails with PTORT_E_UB. */
ptort_status ptort_scalar_cast(ptort_ctx *ctx, ptort_sop op, int64_t a, unsigned from, unsigned to,
                               int64_t *r);

/* ADDF .. NEGF in type T (F16, BF16, F32): the exact result rounded once to T; NaN results are
 * the quiet NaN 0x7FC00000 (negf flips the sign bit only). FASTMATH NNAN (NINF) makes a NaN
 * (infinite) operand or result an error. Errors: PTORT_E_UB, PTORT_E_ARG. */
ptort_status ptort_scalar_float(ptort_ctx *ctx, ptort_sop op, float a, float b, ptort_dtype t,
                                unsigned fastmath, float *r);

/* X rounded to T (nearest even; beyond the largest finite value: infinity). */
float ptort_scalar_round(double x, ptort_dtype t);
/* The T value with the given bit pattern. */
float ptort_scalar_from_bits(uint64_t bits, ptort_dtype t);

/* pto.load_scalar / pto.store_scalar: element INDEX of the SIZE bytes at P, integers of BYTES
 * bytes (little endian, sign-extended when loaded) or floats of type T. Errors: PTORT_E_VIEW
 * when the element is outside the buffer. */
ptort_status ptort_load_scalar_int(ptort_ctx *ctx, const void *p, size_t size, int64_t index,
                                   unsigned bytes, int64_t *r);
ptort_status ptort_store_scalar_int(ptort_ctx *ctx, void *p, size_t size, int64_t index,
                                    unsigned bytes, int64_t v);
ptort_status ptort_load_scalar_float(ptort_ctx *ctx, const void *p, size_t size, int64_t index,
                                     ptort_dtype t, float *r);
ptort_status ptort_store_scalar_float(ptort_ctx *ctx, void *p, size_t size, int64_t index,
                                      ptort_dtype t, float v);

/* ---- the run harness (ptoas run, ptoas --emit=exe) --------------------------------- */

/* Code generated by ptoas --emit=c describes its kernel with these tables; its main() is
 * `return ptort_run_main(argc, argv, &kernel);`, which does everything `ptoas run` promises
 * (docs/cli.md): --in/--out/--arg, shape and dtype checks, filling and reading tiles in
 * logical order, the result table. docs/codegen.md describes it. */

typedef enum { PTORT_KARG_TILE, PTORT_KARG_PTR, PTORT_KARG_SCALAR } ptort_karg_kind;

/* ptort_kernel_arg.flags */
#define PTORT_KARG_WRITTEN 1u   /* the kernel writes it (an outs operand, a tstore target) */
#define PTORT_KARG_RESULT 2u    /* printed (or written by --out) after the run */
#define PTORT_KARG_DYNAMIC 4u   /* a tile with a dynamic valid shape: the --in array's shape */
#define PTORT_KARG_READ 8u      /* a tile argument the kernel reads before writing it: needs --in */

/* One entry: a function argument (arg >= 0) or a value the function returns or computes
 * (arg = -1). */
typedef struct {
    const char *name;        /* "x" for %x */
    ptort_karg_kind kind;
    int arg;                 /* index in ptort_kernel_value[], -1 if not an argument */
    ptort_dtype dtype;       /* tile or pointer element type */
    const ptort_tile *in;    /* tile: where an --in array goes (its first binding); NULL if unused */
    const ptort_tile *out;   /* tile: where it is read after the run; NULL if not readable */
    unsigned flags;          /* PTORT_KARG_* */
    int approximates;        /* a dequantized result: index of the input entry it approximates, else -1 */
    const char *where;       /* "FILE:L:C" of its definition, for messages */
    int valid_rows_arg;      /* a result whose valid rows are set at run time by a scalar argument
                                (alloc_tile valid_row = %n): 1 + its index in values[]; 0 = none */
    int valid_cols_arg;      /* the same for the valid cols */
    const char *scalar_type; /* scalar: "index", "i1" ... "i64", "f16", "bf16", "f32" (NULL: index) */
} ptort_kernel_arg;

/* The run-time value of one argument, passed to the kernel. */
typedef struct {
    void *ptr;               /* ptr: the array's bytes */
    size_t size;             /* ptr: their count */
    int64_t scalar;          /* integer scalar: the --arg value, sign-extended from its width */
    double fscalar;          /* float scalar: the --arg value, rounded to its type */
    int64_t valid_rows, valid_cols; /* dynamic tile: the --in array's shape */
} ptort_kernel_value;

typedef struct {
    const char *func;        /* the function's name, without '@' */
    const char *source;      /* the .pto file */
    ptort_arch arch;
    int64_t mem_size[PTORT_NUM_LOCS]; /* capacity overrides (--mem-size), 0 = default */
    ptort_numerics numerics; /* --numerics: the context's numerics (0 = PTORT_NUMERICS_HW) */
    int nargs;               /* function arguments: values[0, nargs) */
    int nentries;
    const ptort_kernel_arg *entries;
    /* Runs the kernel; on failure it has printed "FILE:L:C: runtime error: MSG" and returns
     * the status. */
    int (*run)(ptort_ctx *ctx, const ptort_kernel_value *values);
    int launch;              /* run is a launch (docs/launch.md): --blocks, --block, --threads */
} ptort_kernel;

/* The main() of a generated executable. Options: --in NAME=FILE (.npy, or raw .bin of the
 * full physical shape), --out NAME=FILE (.npy v1.0), --out-float NAME=FILE (the same decoded
 * to float32), --arg NAME=INT, --help; for a launch --blocks N, --block B, --threads T. Returns the
 * exit status: 0 success, 1 an input or run-time error, 2 bad usage. Prints to stdout and
 * stderr; never exits itself. */
int ptort_run_main(int argc, char **argv, const ptort_kernel *k);

/* ---- vector ops (docs/vector-ops.md) ----------------------------------------------- */

/* The vector ops come in classes, one entry point per class and a ptort_vop per op, so that
 * a table (op -> class, op code) drives code generation. All operands are vec tiles; full
 * tiles are row-major none_box; ops read only the sources' valid regions and write only
 * dst's valid region. Scalars are passed as the raw bits of one dst element (f32 bits,
 * f16/bf16 bits in the low 16 bits, integers in two's complement). Errors: PTORT_E_ARG (bad
 * op or missing operand), descriptor errors, PTORT_E_LAYOUT, PTORT_E_DTYPE, PTORT_E_SHAPE,
 * PTORT_E_ARCH (a dtype or conversion only a5 has), PTORT_E_NOMEM. The op codes, and which
 * dtypes each entry point takes per arch, are listed in ptort_vops.def (installed with this
 * header). */
typedef enum {
#define PTORT_VOP(id, name) PTORT_VOP_##id,
#include "ptort_vops.def"
    PTORT_NUM_VOPS
} ptort_vop;

/* tcvt rounding modes (CAST_*); NONE truncates like TRUNC for float -> int. */
typedef enum {
    PTORT_RM_NONE, PTORT_RM_RINT, PTORT_RM_ROUND, PTORT_RM_FLOOR, PTORT_RM_CEIL,
    PTORT_RM_TRUNC, PTORT_RM_ODD
} ptort_rmode;

/* tadd tsub tmul ... (ptort_vops.def's vbinary rows): dst = op(src0, src1) elementwise. Integer
 * division (here and in every op form below) fails with PTORT_E_UB on a zero divisor, before
 * anything is written. */
ptort_status ptort_vbinary(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0,
                           const ptort_tile *src1, const ptort_tile *dst);

/* tabs tneg trelu ... (ptort_vops.def's vunary rows): dst = op(src); trsqrt per arch:
 * docs/numerics.md 8.2. */
ptort_status ptort_vunary(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src,
                          const ptort_tile *dst);

/* A unary op with its optional tmp (NULL: ptort_vunary); only trsqrt reads it: on a2/a3 with a
 * tmp, vsqrt then vdiv, and tmp's first 32 bytes become T(1.0), as pto-isa's TRSQRT(dst, src,
 * tmp) does (docs/numerics.md 8.2). */
ptort_status ptort_vunary_tmp(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src,
                              const ptort_tile *tmp, const ptort_tile *dst);

/* tadds tsubs tmuls ... (ptort_vops.def's vscalar rows): dst = op(src, scalar). */
ptort_status ptort_vscalar(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src, uint32_t scalar,
                           const ptort_tile *dst);

/* tdivs with the scalar first: dst = scalar / src elementwise (f32, f16, bf16, i32, i16; i8
 * and u8 on a5; the scalar's bits as for ptort_vscalar). */
ptort_status ptort_vrdivs(ptort_ctx *ctx, uint32_t scalar, const ptort_tile *src,
                          const ptort_tile *dst);

/* texpands: every element of dst's valid region = scalar. */
ptort_status ptort_texpands(ptort_ctx *ctx, uint32_t scalar, const ptort_tile *dst);

/* trowsum trowmax trowmin (SUM, MAX, MIN): dst[r][0] = reduction of src row r over its valid
 * columns; dst is [R, 1] in any none_box layout. TMP may be NULL and is never written. The
 * order of the sums per arch: docs/numerics.md 8.3. */
ptort_status ptort_vrowreduce(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src,
                              const ptort_tile *tmp, const ptort_tile *dst);

/* tcolsum tcolmax tcolmin: dst[0][j] = reduction of src column j over its valid rows. */
ptort_status ptort_vcolreduce(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src,
                              const ptort_tile *tmp, const ptort_tile *dst);

/* trowexpand (COPY, src1 NULL): dst[r][c] = src0[r][0]. trowexpand{add,sub,mul,div,max,min}:
 * dst[r][c] = op(src0[r][c % vc0], src1[r][c % vc1]) where one source has dst's valid shape
 * and the other is [R, 1] (any none_box layout) or row-major [R, 32 / element size]. */
ptort_status ptort_vrowexpand(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0,
                              const ptort_tile *src1, const ptort_tile *dst);

/* tcolexpand (COPY, src1 NULL): dst[i][j] = src0[0][j]. tcolexpand{add,...}:
 * dst[i][j] = op(src0[i][j], src1[0][j]). */
ptort_status ptort_vcolexpand(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0,
                              const ptort_tile *src1, const ptort_tile *dst);

/* tcvt: dst = convert(src) with RMODE and, if SATURATE, saturation (sat_mode ON). TMP may be
 * NULL and is never written. Which mode each pair honours: docs/numerics.md 8.1. */
ptort_status ptort_tcvt(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst,
                        ptort_rmode rmode, int saturate, const ptort_tile *tmp);

/* tci: dst[0][j] = start + j (or start - j when DESCENDING), wrapping in dst's type. */
ptort_status ptort_tci(ptort_ctx *ctx, const ptort_tile *dst, int32_t start, int descending);

/* == CUBE: the cube: tmatmul*, tgemv* (issue 22) == */
/* tmatmul, tmatmul.acc, .bias, .mx, .mx.acc, .mx.bias (docs/cube.md): dst[i][j] for i < M, j < N
 * (M, K = lhs valid rows and cols, N = rhs valid cols) is the product chain over k of
 * lhs[i][k] * rhs[k][j] in the accumulator's type, then + acc_in[i][j] or + bias[0][j] when
 * given. ACC_IN, A_SCALE, B_SCALE and BIAS may be NULL: which are given names the op
 * (A_SCALE and B_SCALE together: the MX forms, A5 only). PHASE does not change the result.
 * Errors (docs/cube.md): descriptor errors, PTORT_E_LAYOUT (an operand in the wrong
 * memory), PTORT_E_SHAPE, PTORT_E_DTYPE, PTORT_E_ARCH. */
ptort_status ptort_tmatmul(ptort_ctx *ctx, const ptort_tile *acc_in, const ptort_tile *lhs,
                           const ptort_tile *a_scale, const ptort_tile *rhs,
                           const ptort_tile *b_scale, const ptort_tile *bias,
                           const ptort_tile *dst, ptort_acc_phase phase);

/* tgemv, tgemv.acc, .mx, .mx.acc, .mx.bias: ptort_tmatmul with M = 1 (lhs and dst valid rows
 * must be 1). */
ptort_status ptort_tgemv(ptort_ctx *ctx, const ptort_tile *acc_in, const ptort_tile *lhs,
                         const ptort_tile *a_scale, const ptort_tile *rhs,
                         const ptort_tile *b_scale, const ptort_tile *bias,
                         const ptort_tile *dst, ptort_acc_phase phase);


/* == MOVES: on-chip moves: textract, tinsert, ttrans, tmov domains (issue 22) == */
/* textract: dst element (i, j) = src element (index_row + i, index_col + j) over dst's valid
 * region, each read and written through its tile's layout (docs/numerics.md 8.4). An
 * acc f32 src may fill an f16/bf16 dst (round to nearest even); otherwise the element types
 * are equal. Errors: descriptor errors, PTORT_E_DTYPE, PTORT_E_SHAPE (the window leaves src). */
ptort_status ptort_textract(ptort_ctx *ctx, const ptort_tile *src, int64_t index_row, int64_t index_col,
                            const ptort_tile *dst);

/* tinsert: dst element (index_row + i, index_col + j) = src element (i, j) over src's valid
 * region; the rest of dst is unchanged. Conversions and errors as textract's. */
ptort_status ptort_tinsert(ptort_ctx *ctx, const ptort_tile *src, int64_t index_row, int64_t index_col,
                           const ptort_tile *dst);

/* The acc-source moves with the fixpipe's optional stages (docs/numerics.md 8.6): KIND's
 * window (tmov: the whole valid region, textract/tinsert: as ptort_textract/ptort_tinsert)
 * with RELU != 0 (negatives, -0 and NaN become +0) and, when QUANT != 0, the scalar
 * pre-quantization by the 64-bit word PRE_QUANT (f32 scale in bits 0..31, offset in
 * 37..45, signed range in bit 46): f32 -> i8/ui8/f16/bf16, i32 -> i8/ui8/f16; without QUANT
 * relu on f32 -> f32/f16/bf16 and i32 -> i32. Errors: descriptor errors, PTORT_E_LAYOUT (src
 * not acc), PTORT_E_DTYPE (another pair), PTORT_E_SHAPE (the window leaves its tile, tmov's
 * valid shapes differ). */
typedef enum { PTORT_MOVE_TMOV, PTORT_MOVE_TEXTRACT, PTORT_MOVE_TINSERT } ptort_move_kind;
ptort_status ptort_tmove_fix(ptort_ctx *ctx, ptort_move_kind kind, const ptort_tile *src, int64_t index_row,
                             int64_t index_col, const ptort_tile *dst, int relu, int quant, int64_t pre_quant);

/* tstore of an acc tile with the fixpipe's relu (RELU != 0) and / or scalar
 * pre-quantization (QUANT != 0, the word PRE_QUANT), the pairs and steps of ptort_tmove_fix,
 * into a view of the destination element type; no atomic add. Errors: as ptort_tstore_ex's;
 * PTORT_E_LAYOUT (src not acc), PTORT_E_DTYPE (a pair without numerics). */
ptort_status ptort_tstore_fix(ptort_ctx *ctx, const ptort_tile *src, const ptort_view *dst, int relu, int quant,
                              int64_t pre_quant);

/* ttrans: dst element (j, i) = src element (i, j) over src's valid region (the rest of dst is
 * unchanged); src and dst may be the same tile. Errors: descriptor errors, PTORT_E_DTYPE,
 * PTORT_E_SHAPE (the transposed region does not fit dst). */
ptort_status ptort_ttrans(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst);

/* tstore out of the accumulator's epilogue: as ptort_tstore, but an acc f32 SRC may go to an
 * f16/bf16 view (round to nearest even), and ATOMIC_ADD != 0 adds each element to the view's
 * (f32: one addition rounded to nearest even; i32/u32: wrapping), pto-isa's AtomicAdd store.
 * Errors: as ptort_tstore's; PTORT_E_DTYPE for another pair, or atomic add of another type or
 * with the cast. */
ptort_status ptort_tstore_ex(ptort_ctx *ctx, const ptort_tile *src, const ptort_view *dst, int atomic_add);


/* == PIPE: pipes, FIFOs, flags, sync, sections, blocks (issue 23) == */
/* The launch coordinates of the core a context runs (docs/launch.md): its block's index and
 * the block count, its vector subblock's index and the subblocks per block. A new context is
 * block 0 of 1, subblock 0 of 1 (a sequential run of one core). */
typedef enum { PTORT_BLOCK_IDX, PTORT_BLOCK_NUM, PTORT_SUBBLOCK_IDX, PTORT_SUBBLOCK_NUM } ptort_block_query;
int64_t ptort_block_id(const ptort_ctx *ctx, ptort_block_query q);
/* Sets them; PTORT_E_ARG unless 0 <= block_idx < block_num and 0 <= sub_idx < sub_num. */
ptort_status ptort_set_launch(ptort_ctx *ctx, int64_t block_idx, int64_t block_num, int64_t sub_idx, int64_t sub_num);

/* A launch (docs/launch.md): every block's cube core and vector cores (subblocks) run as
 * threads, each with a context of its own (its own on-chip memories), all sharing the
 * pointer arguments' host arrays (global memory). A module with a cube and a vector function
 * compiles to a ptort_launch_desc; its ptort_kernel's run calls ptort_launch_run. */
typedef enum { PTORT_CORE_CUBE, PTORT_CORE_VECTOR } ptort_core_kind;
/* ptort_launch_func.map entries that are not an index into the launch's values: the SPMD
 * arguments the launch fills in (%__pypto_spmd_block_idx, _block_num, _subblock_idx). */
#define PTORT_SPMD_BLOCK_IDX (-1)
#define PTORT_SPMD_BLOCK_NUM (-2)
#define PTORT_SPMD_SUBBLOCK_IDX (-3)
#define PTORT_SPMD_SUBBLOCK_NUM (-4)
typedef struct {
    ptort_core_kind kind;
    const char *name;        /* the function, for messages */
    int (*run)(ptort_ctx *ctx, const ptort_kernel_value *values);
    int nargs;
    const int *map;          /* per argument of the function: its launch value, or PTORT_SPMD_* */
} ptort_launch_func;
typedef struct {
    int nfuncs;              /* one cube function and one vector function */
    const ptort_launch_func *funcs;
    int syncall;             /* some core runs pto.syncall: every block runs at once */
} ptort_launch_desc;
/* The launch options of a harness run: BLOCKS blocks (>= 1), only block BLOCK (-1: all),
 * THREADS blocks at a time (0: the machine's core count). */
void ptort_set_launch_options(ptort_ctx *ctx, int64_t blocks, int64_t block, int64_t threads);
/* Runs the launch D on the arguments VALUES (the harness's context CTX gives the arch,
 * capacities, numerics and options). Each core's failure is reported by its kernel; a
 * deadlock is reported here, one line per waiting core. PTORT_OK when every core finished. */
ptort_status ptort_launch_run(ptort_ctx *ctx, const ptort_launch_desc *d, const ptort_kernel_value *values);

/* FIFO pipes between a block's cube and its vector cores. DIR 0 is C2V (cube -> vector),
 * 1 V2C. SPLIT is the op's split (0 none, 1 up/down, 2 left/right, 3 and 4 their odd forms).
 * WHERE is the op's "FILE:L:C" and OP its name: a blocked core names them in a deadlock. */
ptort_status ptort_pipe_init(ptort_ctx *ctx, int64_t id, int64_t dir_mask, int64_t slot_size, int64_t slot_num,
                             int64_t c2v_buf, int64_t v2c_buf, const char *op);
/* Pushes SRC's valid region into the next slot of pipe ID (waits while it is full). */
ptort_status ptort_tpush(ptort_ctx *ctx, int64_t id, int dir, int split, int pipe, const ptort_tile *src,
                         const char *op, const char *where);
/* Pops the oldest entry (waits while there is none): *OUT becomes TYPE at the slot's address
 * in the consumer's reserved buffer, holding this core's part of the entry; VALID_ROWS and
 * VALID_COLS (-1: the part's) set its valid shape. */
ptort_status ptort_tpop(ptort_ctx *ctx, int64_t id, int dir, int split, int pipe, const ptort_tile *type,
                        int64_t valid_rows, int64_t valid_cols, ptort_tile *out, const char *op, const char *where);
/* Releases the entry this core popped last, so that the producer may reuse its slot. */
ptort_status ptort_tfree(ptort_ctx *ctx, int64_t id, int dir, int split, const char *op, const char *where);
/* Cross-core signals of a block: sync.set EVENT, sync.wait EVENT (waits until the other core
 * kind set it, consuming one set), and syncall (waits until every participating core of the
 * launch arrives; CORE_TYPE 0 vector only, 1 cube only, 2 both). */
ptort_status ptort_sync_set(ptort_ctx *ctx, int64_t event, int pipe, const char *op, const char *where);
ptort_status ptort_sync_wait(ptort_ctx *ctx, int64_t event, int pipe, const char *op, const char *where);
ptort_status ptort_syncall(ptort_ctx *ctx, int core_type, const char *op, const char *where);


/* == RACE: the race checker (issue 23) == */
/* The race checker's state for one launch (docs/launch.md). Every context of a launch's cores
 * is attached to one ptort_race; a context without one checks nothing. Pipes are numbered as
 * PTOAS's PIPE enum (PIPE_S 0, PIPE_V 1, PIPE_M 2, PIPE_MTE1 3, PIPE_MTE2 4, PIPE_MTE3 5,
 * PIPE_ALL 6, PIPE_MTE4 7, PIPE_MTE5 8, PIPE_V2 9, PIPE_FIX 10). */
typedef struct ptort_race ptort_race;
/* A checker for a launch of NCORES cores (core ids 0 .. ncores-1); NULL on no memory. */
ptort_race *ptort_race_new(int ncores);
void ptort_race_free(ptort_race *race);
/* Binds ctx to core CORE of RACE (the launch calls this once per core before it runs). */
void ptort_race_attach(ptort_ctx *ctx, ptort_race *race, int core);
/* Cross-core order (FIFO push -> pop, sync.set -> sync.wait, syncall): what pipe PIPE of
 * ctx's core did before ptort_race_release(TOKEN) happens before what that pipe of the
 * acquiring core does after the ptort_race_acquire(TOKEN) that observes it. TOKEN is an
 * address that stays valid for the launch (a FIFO slot, a flag). PIPE_ALL releases or
 * acquires for every pipe of the core (syncall); an acquire of a token never released orders
 * nothing. Thread-safe; the launch calls release before it publishes the data and acquire
 * after it has observed it. */
void ptort_race_release(ptort_ctx *ctx, int pipe, const void *token);
void ptort_race_acquire(ptort_ctx *ctx, int pipe, const void *token);

/* One operand of an op as the checker sees it: the bytes of a tile in its memory space, the
 * global-memory bytes a host view covers (its strides followed), or GM_BYTES raw bytes of
 * global memory at GM + GM_OFF (pto.load_scalar / store_scalar). Exactly one of TILE, VIEW,
 * GM is set. NAME is the operand as the source names it ("%t"), for the report. */
typedef struct {
    const ptort_tile *tile;
    const ptort_view *view;
    const void *gm;
    int64_t gm_off, gm_bytes;
    const char *name;
    int write;
} ptort_race_ref;

/* An op named OP at WHERE ("FILE:L:C") on pipe PIPE of ctx's core accesses REFS[0, N): each
 * access is checked against the earlier accesses of overlapping bytes that another pipe or
 * core made; two of them, one a write, that nothing orders (program order within a pipe,
 * flags, barriers, buffer tokens, release/acquire) are a data race: PTORT_E_RACE with the
 * report in ptort_error. PTORT_OK, checking nothing, when no checker is attached. */
ptort_status ptort_race_op(ptort_ctx *ctx, int pipe, const char *where, const char *op, int n,
                           const ptort_race_ref *refs);

/* The orders one core's pipes make among themselves (docs/launch.md 5):
 * SET_FLAG (PIPE src, DST dst, ID event): what src did before happens before what dst does
 *   after the WAIT_FLAG of the same (src, dst, event) that consumes it (set and wait pair up
 *   first in, first out; a wait with no set orders nothing);
 * BARRIER: PIPE_ALL orders every pipe's earlier work before every pipe's later work; another
 *   pipe orders nothing new (a pipe already runs in program order);
 * RLS_BUF / GET_BUF (PIPE, ID buffer id): what PIPE did before the release happens before
 *   what the acquiring pipe does after get_buf of the same id. */
typedef enum {
    PTORT_RACE_SET_FLAG, PTORT_RACE_WAIT_FLAG, PTORT_RACE_BARRIER, PTORT_RACE_GET_BUF, PTORT_RACE_RLS_BUF
} ptort_race_sync_kind;
void ptort_race_sync(ptort_ctx *ctx, ptort_race_sync_kind kind, int pipe, int dst, int64_t id);


/* == ELEM: elementwise arithmetic, bitwise, compare/select (issue 24) == */
/* tcmp / tcmps compare modes (PTOAS's CmpMode, in its order). */
typedef enum { PTORT_CMP_EQ, PTORT_CMP_NE, PTORT_CMP_LT, PTORT_CMP_LE, PTORT_CMP_GT, PTORT_CMP_GE } ptort_cmp_mode;

/* tcmp: dst's row r gets the bits of src0 (r, c) MODE src1 (r, c) for the columns c of src0's
 * valid region, packed 8 per byte (column c: bit c % 8 of byte c / 8, least significant bit
 * first), the bytes of dst's valid region past them 0, for the rows both src0's and dst's
 * valid regions have. Element types: i32, u32, f16, f32; i16, u16, i8, u8, bf16 on a5. The
 * comparisons per arch: docs/numerics.md 11. */
ptort_status ptort_vcmp(ptort_ctx *ctx, ptort_cmp_mode mode, const ptort_tile *src0, const ptort_tile *src1,
                        const ptort_tile *dst);
/* tcmps: as ptort_vcmp against SCALAR (the bits of one src element, as ptort_vscalar's).
 * Element types: i32, u32, i16, u16, f16, f32; i8, u8 on a5. */
ptort_status ptort_vcmps(ptort_ctx *ctx, ptort_cmp_mode mode, const ptort_tile *src, uint32_t scalar,
                         const ptort_tile *dst);
/* tsel: dst (r, c) = bit c of MASK's row r (as ptort_vcmp packs it, in the mask tile's storage:
 * at least ceil(valid cols / 8) bytes per row) ? src0 (r, c) : src1 (r, c), over dst's valid
 * region. Element types: 16- and 32-bit; i8, u8 on a5. */
ptort_status ptort_vsel(ptort_ctx *ctx, const ptort_tile *mask, const ptort_tile *src0, const ptort_tile *src1,
                        const ptort_tile *dst);
/* tsels: as ptort_vsel with SCALAR (the bits of one dst element) for src1. No bf16. */
ptort_status ptort_vsels(ptort_ctx *ctx, const ptort_tile *mask, const ptort_tile *src, uint32_t scalar,
                         const ptort_tile *dst);
/* taddc (ADD), tsubc (SUB): dst = (src0 OP src1) + src2 over dst's valid region, each step
 * rounded in the element type (docs/numerics.md 12); every operand of dst's element type and
 * valid shape, dst may be any source. Element types: all integers (wrapping) and floats. */
ptort_status ptort_vternary(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0, const ptort_tile *src1,
                            const ptort_tile *src2, const ptort_tile *dst);
/* taddsc (ADD), tsubsc (SUB): dst = (src0 OP scalar) + src1, the scalar the bits of one dst
 * element (as ptort_vscalar's). */
ptort_status ptort_vternarys(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src0, uint32_t scalar,
                             const ptort_tile *src1, const ptort_tile *dst);
/* taxpy (OP: PTORT_VOP_MUL): dst = scalar * src + dst over dst's valid region, rounded once
 * (the NPU's fused vaxpy; --numerics=sim: the simulator's two roundings), SCALAR the bits of
 * one dst element. f16, f32, bf16 on a5; an f16 src with an f32 dst widens it exactly. */
ptort_status ptort_vaxpy(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src, uint32_t scalar,
                         const ptort_tile *dst);


/* == REARR: reductions, gather/scatter, concat, fillpad, sort (issue 24) == */
/* PTORT_VOP_PROD on ptort_vrowreduce / ptort_vcolreduce: trowprod / tcolprod, source and dst
 * of one type (f32 f16 i32 i16 u32 u16; bf16 columns on a5), the multiplications in the arch's
 * order (docs/numerics.md 8.8); an empty tcolprod src leaves dst as it was. PTORT_VOP_EXPDIF
 * on ptort_vrowexpand / ptort_vcolexpand: trowexpandexpdif / tcolexpandexpdif, f32 / f16,
 * exp(src0 - src1) as the SUB broadcast then texp in place. */

/* tgather, index form: dst[i][j] = src's element at flat index indices[i][j] (row-major:
 * row k / cols, column k % cols), the index read unsigned; an index at or past src's
 * rows * cols gives 0. indices is i32/u32 (i16/u16 on a5 too) and covers dst's valid
 * shape; TMP may be NULL and is never written. Element types: 16- and 32-bit, and 8-bit
 * integers and fp8 on a5 (docs/vector-ops.md). */
ptort_status ptort_tgather(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *indices,
                           const ptort_tile *tmp, const ptort_tile *dst);

/* tgather, mask-pattern form (docs/vector-ops.md): keeps the columns (COL_AXIS 0) or rows
 * (COL_AXIS 1) of src's valid region that PAT selects; rows: packed into dst's storage from
 * its first element, columns: dst's rows 0, 1, ... Element sizes equal (1 byte on a5 only). */
typedef enum {
    PTORT_MASK_P0101 = 1, PTORT_MASK_P1010, PTORT_MASK_P0001, PTORT_MASK_P0010, PTORT_MASK_P0100,
    PTORT_MASK_P1000, PTORT_MASK_P1111
} ptort_mask_pattern;
ptort_status ptort_tgather_mask(ptort_ctx *ctx, ptort_mask_pattern pat, int col_axis, const ptort_tile *src,
                                const ptort_tile *dst);

/* tgatherb: 32-byte block b of dst row i = the 32 bytes of src at byte offset offsets[i][b]
 * (i32/u32); a block past src's bytes leaves dst's block alone. */
ptort_status ptort_tgatherb(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *offsets,
                            const ptort_tile *dst);

/* trowargmax trowargmin (MAX, MIN): dst[r][0] = the column index of the largest (smallest)
 * element of src row r's valid region; tcolargmax tcolargmin: dst[0][c] = the row index in
 * column c. Ties keep the lowest index, a NaN is chosen only at index 0 (docs/vector-ops.md).
 * src: i16 i32 u16 u32 f16 f32 (and i8 u8 bf16 for the column ops), row-major none_box; dst
 * i32 or u32, [R, 1] in either none_box layout (row ops) or row-major [1, C]. TMP may be NULL
 * and is never written. */
ptort_status ptort_vrowarg(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src, const ptort_tile *tmp,
                           const ptort_tile *dst);
ptort_status ptort_vcolarg(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src, const ptort_tile *tmp,
                           const ptort_tile *dst);

/* tsort32: each row of src's valid region in blocks of 32 (the last may be shorter), each
 * block's (value, idx) pairs sorted by value descending, equal values by idx ascending, NaN
 * first; pair k of a row at bytes [8k, 8k + 8) of dst's row: the value (f16: then two zero
 * bytes) and the u32 index. idx (i32/u32) has src's valid shape or one row for all; TMP may
 * be NULL and is never written (docs/vector-ops.md). */
ptort_status ptort_tsort32(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *idx, const ptort_tile *tmp,
                           const ptort_tile *dst);

/* thistogram (a5): dst bins [256 r, 256 r + 256) = the cumulative 256-bin histogram of byte
 * BYTE of src row r's valid elements that pass the filter (u16 src: BYTE 1, or BYTE 0 of those
 * whose high byte is idx[r][0]; u32 src: BYTE 3, or BYTE 2 / 1 / 0 of those whose higher bytes
 * are idx's rows 0, 1, 2 at column 0). src u16/u32, idx u8, dst u32 (docs/vector-ops.md). */
ptort_status ptort_thistogram(ptort_ctx *ctx, int byte, const ptort_tile *src, const ptort_tile *idx,
                              const ptort_tile *dst);

/* tconcat: row i of dst = src0's valid columns of row i, then src1's; one element type, equal
 * valid rows, dst's valid cols the sum; row-major none_box vec tiles. */
ptort_status ptort_tconcat(ptort_ctx *ctx, const ptort_tile *src0, const ptort_tile *src1, const ptort_tile *dst);

/* tfillpad: each element (i, j) of dst's physical shape = src[i][j] inside src's valid
 * region, else dst's pad value (zero, max, min: docs/vector-ops.md); any layouts, element
 * sizes equal, dst at least src's shape; src and dst may be the same tile. */
ptort_status ptort_tfillpad(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst);

/* tscatter, index form: dst (its whole storage) is zeroed, then in row-major order of src's
 * valid region `dst[k] = src[i][j]`, k = indexes[i][j] (read unsigned) a flat element index
 * into dst's row-major storage; of equal indices the last wins. indexes: 32-bit for 4-byte
 * elements, 16-bit for 2- and 1-byte ones. An index past dst's storage: PTORT_E_SHAPE before
 * anything is written. */
ptort_status ptort_tscatter(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *indexes, const ptort_tile *dst);
/* tscatter, mask-pattern form: the inverse of ptort_tgather_mask: src's valid columns (COL_AXIS
 * 0: dst[i][t * j + p] = src[i][j]) or rows (1: dst row t * i + p = src row i) go to the
 * positions PAT selects (t = 1, 2 or 4, p its offset); every other element of dst's storage
 * is 0, except under P1111, which copies src's valid region and leaves the rest. */
ptort_status ptort_tscatter_mask(ptort_ctx *ctx, ptort_mask_pattern pat, int col_axis, const ptort_tile *src,
                                 const ptort_tile *dst);

/* tprefetch: what pto-isa's CPU simulator does (the NPU's caching is implementation-defined):
 * dst[r][c] = the view's element at r * dst->cols + c from its first one, over dst's valid
 * region (the view is read as contiguous). dst: a row-major none_box tile of the view's element
 * size; every element read lies in the view's host buffer (else PTORT_E_VIEW, nothing
 * written). */
ptort_status ptort_tprefetch(ptort_ctx *ctx, const ptort_view *src, const ptort_tile *dst);

/* mgather / mscatter's modes (pto-isa's Coalesce, GatherOOB and ScatterOOB, ScatterAtomicOp) */
typedef enum { PTORT_COALESCE_ROW, PTORT_COALESCE_ELEM } ptort_coalesce;
typedef enum { PTORT_OOB_UNDEFINED, PTORT_OOB_CLAMP, PTORT_OOB_WRAP, PTORT_OOB_ZERO, PTORT_OOB_SKIP } ptort_oob;
typedef enum { PTORT_ATOMIC_NONE, PTORT_ATOMIC_ADD, PTORT_ATOMIC_MAX, PTORT_ATOMIC_MIN } ptort_scatter_atomic;

/* mgather (docs/vector-ops.md): COALESCE row: dst row r = the table row idx[r] of MEM (its
 * second-to-last dimension; idx[r] is element r of idx's storage), elem: dst[i][j] = the
 * element idx[i][j] of MEM counted flat from its first element. Indices are read as u32; OOB
 * (an index at or past the capacity: MEM's rows, or all its elements): UNDEFINED is an error
 * (PTORT_E_VIEW), CLAMP takes the last, WRAP the index modulo the capacity, ZERO gives 0.
 * DST is a vec tile (a mat one too: the GM -> L1 form), of MEM's element type; nothing is
 * written when an error is reported. */
ptort_status ptort_mgather(ptort_ctx *ctx, int coalesce, int oob, const ptort_view *mem, const ptort_tile *idx,
                           const ptort_tile *dst);
/* The GM -> L1 form: the indices in global memory (IDX, a row-major view of i32 / u32). */
ptort_status ptort_mgather_gm(ptort_ctx *ctx, int coalesce, int oob, const ptort_view *mem, const ptort_view *idx,
                              const ptort_tile *dst);

/* mscatter: the inverse of mgather's vec form, in row-major order of SRC's valid region, so
 * that of equal indices the last wins; ATOMIC add / max / min combine with the table's
 * element instead (docs/vector-ops.md); OOB SKIP drops the write (ZERO is not a scatter
 * mode). An index out of the table under UNDEFINED: PTORT_E_VIEW, before anything is written. */
ptort_status ptort_mscatter(ptort_ctx *ctx, int coalesce, int atomic, int oob, const ptort_tile *src,
                            const ptort_tile *idx, const ptort_view *mem);

/* == SCALAR: pointers, declarations, scalar access, debug, local arrays, structs, comm (issue 24) == */

/* pto.local_array_get / set (OP, for the message): the N indices IDX each inside their
 * dimension DIMS. Errors: PTORT_E_VIEW (an index outside its dimension). */
ptort_status ptort_local_index(ptort_ctx *ctx, const char *op, unsigned n, const int64_t *idx, const int64_t *dims);

/* pto.tgetval / pto.tsetval: element OFFSET of a vec tile's storage, counted in elements from
 * its first byte whatever its layout (pto-isa's GetValue / SetValue). Integers are read
 * sign-extended from their width (unsigned ones too: the bits a C int64_t holds) and written
 * as their low bits; f16, bf16 and f32 are read as floats and written rounded to nearest
 * even. Errors: descriptor errors, PTORT_E_LAYOUT (not a vec tile), PTORT_E_DTYPE (an
 * element type with no scalar form: the 8-bit floats, fp4, 64-bit integers), PTORT_E_VIEW
 * (OFFSET outside the tile's elements; nothing is written then). */
ptort_status ptort_tgetval_int(ptort_ctx *ctx, const ptort_tile *src, int64_t offset, int64_t *r);
ptort_status ptort_tgetval_float(ptort_ctx *ctx, const ptort_tile *src, int64_t offset, float *r);
ptort_status ptort_tsetval_int(ptort_ctx *ctx, const ptort_tile *dst, int64_t offset, int64_t v);
ptort_status ptort_tsetval_float(ptort_ctx *ctx, const ptort_tile *dst, int64_t offset, float v);

/* pto.addptr: *NBASE, *NSIZE = the part of the SIZE bytes at BASE that starts OFFSET elements
 * of ESIZE bytes in. Errors: PTORT_E_VIEW (OFFSET negative or past the buffer's end). */
ptort_status ptort_addptr(ptort_ctx *ctx, void *base, size_t size, int64_t offset, unsigned esize, void **nbase,
                          size_t *nsize);

/* pto.get_tensor_view_dim (STRIDE 0) / pto.get_tensor_view_stride (1): dimension K's size or
 * stride in elements. Errors: PTORT_E_ARG (K outside the view's rank). */
ptort_status ptort_view_query(ptort_ctx *ctx, const ptort_view *v, int64_t k, int stride, int64_t *r);

/* pto.tprint: SRC, a vec tile of i8/ui8/i16/ui16/i32/ui32/f16/f32, to OUT as pto-isa's NPU TPRINT
 * prints it: a header line with the element type, layout and tile type, one with the shape and
 * valid shape, then every physical element by row (FORMAT 0: %8.4f / %8d, 1: %8.2f / %8d, 2:
 * %10.6f / %10d), '|' after the last valid column and a dashed line after the last valid row.
 * Errors: descriptor errors, PTORT_E_LAYOUT (not vec), PTORT_E_DTYPE, PTORT_E_ARG. */
ptort_status ptort_tprint(ptort_ctx *ctx, FILE *out, const ptort_tile *src, int format);

/* pto.print's format string, N bytes: 'i' when it is printable ASCII text (newlines and tabs
 * too) with %% and exactly
 * one integer conversion `%[-+ #0]*W?(.P)?(hh|h|l|ll|j|z|t)?[diouxXc]`, 'f' with one float
 * conversion `%[-+ #0]*W?(.P)?[fFeEgGaA]` (W and P at most 3 digits), 'n' with none (the text
 * is printed, the value not), else 0. */
int ptort_print_format(const char *fmt, size_t n);

/* pto.print: FMT (NUL-terminated; checked as ptort_print_format does) with V, to OUT. An integer
 * of BITS <= 32 bits goes to printf as an int (its h / hh modifier kept, others dropped), a
 * wider one as a long long (the modifier becomes ll); a float as a double. Errors: PTORT_E_ARG
 * (a format of the other kind or none; nothing is printed). */
ptort_status ptort_print_int(ptort_ctx *ctx, FILE *out, const char *fmt, int64_t v, unsigned bits);
ptort_status ptort_print_float(ptort_ctx *ctx, FILE *out, const char *fmt, float v);

/* pto.trap: always PTORT_E_TRAP ("'pto.trap': the kernel trapped"). */
ptort_status ptort_trap(ptort_ctx *ctx);


#ifdef __cplusplus
}
#endif

#endif
