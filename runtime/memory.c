/* memory.c - contexts, memory spaces, error messages and tile descriptor checks.
 *
 * A context owns one zeroed byte array per memory space (docs/memory.md section 1). Every op
 * checks each operand here before touching memory, so that a bad descriptor or address
 * becomes a status code with a message, never an access outside a space.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

static const int64_t cap_a3[PTORT_NUM_LOCS] = {196608, 524288, 65536, 65536, 131072, 65536, 196608};
static const int64_t cap_a5[PTORT_NUM_LOCS] = {253952, 524288, 65536, 65536, 262144, 65536, 253952};
static const int64_t align_of[PTORT_NUM_LOCS] = {32, 32, 512, 512, 512, 32, 32};
static const char *const loc_names[PTORT_NUM_LOCS] = {
    "vec", "mat", "left", "right", "acc", "bias", "scaling"};
static const char *const dtype_names[PTORT_NUM_DTYPES] = {
    "i8", "i16", "i32", "ui8", "ui16", "ui32", "f16", "bf16", "f32",
    "f8E4M3FN", "f8E5M2", "f8E8M0FNU", "!pto.f4E2M1x2", "i64", "ui64"};
static const int dtype_sizes[PTORT_NUM_DTYPES] = {1, 2, 4, 1, 2, 4, 2, 2, 4, 1, 1, 1, 1, 8, 8};

int64_t ptort_loc_capacity(ptort_arch arch, ptort_loc loc)
{
    if ((unsigned)loc >= PTORT_NUM_LOCS || (unsigned)arch > PTORT_A5)
        return -1;
    return arch == PTORT_A5 ? cap_a5[loc] : cap_a3[loc];
}

int64_t ptort_loc_alignment(ptort_loc loc)
{
    return (unsigned)loc < PTORT_NUM_LOCS ? align_of[loc] : -1;
}

const char *ptort_loc_name(ptort_loc loc)
{
    return (unsigned)loc < PTORT_NUM_LOCS ? loc_names[loc] : "?";
}

const char *ptort_dtype_name(ptort_dtype dt)
{
    return (unsigned)dt < PTORT_NUM_DTYPES ? dtype_names[dt] : "?";
}

int ptort_dtype_size(ptort_dtype dt)
{
    return (unsigned)dt < PTORT_NUM_DTYPES ? dtype_sizes[dt] : 0;
}

const char *ptort_status_name(ptort_status st)
{
    static const char *const names[] = {
        "PTORT_OK", "PTORT_E_ARG", "PTORT_E_DESC", "PTORT_E_ADDR", "PTORT_E_DTYPE",
        "PTORT_E_SHAPE", "PTORT_E_LAYOUT", "PTORT_E_ARCH", "PTORT_E_VIEW", "PTORT_E_NOMEM",
        "PTORT_E_IO", "PTORT_E_FORMAT", "PTORT_E_UB", "PTORT_E_TRAP", "PTORT_E_RACE", "PTORT_E_STOPPED"};
    return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "PTORT_E_?";
}

ptort_ctx *ptort_ctx_new(ptort_arch arch, const int64_t *sizes)
{
    if ((unsigned)arch > PTORT_A5)
        return NULL;
    ptort_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->arch = arch;
    ctx->launch[PTORT_BLOCK_NUM] = ctx->launch[PTORT_SUBBLOCK_NUM] = 1; /* block 0 of 1 */
    for (int l = 0; l < PTORT_NUM_LOCS; l++) {
        int64_t n = sizes && sizes[l] > 0 ? sizes[l] : ptort_loc_capacity(arch, (ptort_loc)l);
        if ((uint64_t)n > SIZE_MAX / 2) {
            ptort_ctx_free(ctx);
            return NULL;
        }
        /* Cache-line aligned, so that the kernels' 64-byte vectors at 64-byte tile addresses
         * do not straddle lines (calloc's 16-byte alignment halves their throughput); zeroed:
         * unwritten positions read back 0 (docs/cli.md). */
        size_t cap = ((size_t)n + 63) & ~(size_t)63;
        ctx->mem[l] = aligned_alloc(64, cap ? cap : 64);
        if (!ctx->mem[l]) {
            ptort_ctx_free(ctx);
            return NULL;
        }
        memset(ctx->mem[l], 0, cap);
        ctx->size[l] = n;
    }
    return ctx;
}

void ptort_ctx_set_numerics(ptort_ctx *ctx, ptort_numerics numerics)
{
    if (ctx)
        ctx->numerics = numerics == PTORT_NUMERICS_SIM ? PTORT_NUMERICS_SIM : PTORT_NUMERICS_HW;
}

void ptort_ctx_free(ptort_ctx *ctx)
{
    if (!ctx)
        return;
    for (int l = 0; l < PTORT_NUM_LOCS; l++)
        free(ctx->mem[l]);
    free(ctx->scratch);
    free(ctx);
}

const char *ptort_error(const ptort_ctx *ctx)
{
    return ctx ? ctx->err : "";
}

ptort_arch ptort_ctx_arch(const ptort_ctx *ctx)
{
    return ctx->arch;
}

uint8_t *ptort_mem(ptort_ctx *ctx, ptort_loc loc, int64_t *size)
{
    if (!ctx || (unsigned)loc >= PTORT_NUM_LOCS)
        return NULL;
    if (size)
        *size = ctx->size[loc];
    return ctx->mem[loc];
}

ptort_status ptort_fail(ptort_ctx *ctx, ptort_status st, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
        va_end(ap);
    }
    return st;
}

void *ptort_scratch(ptort_ctx *ctx, size_t n)
{
    if (n <= ctx->scratch_size)
        return ctx->scratch;
    size_t want = n < 65536 ? 65536 : n;
    want = (want + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, want);
    if (!p) {
        ptort_fail(ctx, PTORT_E_NOMEM, "out of memory (%zu bytes of scratch)", n);
        return NULL;
    }
    free(ctx->scratch);
    ctx->scratch = p;
    ctx->scratch_size = want;
    return p;
}

ptort_tile ptort_tile_make(ptort_loc loc, ptort_dtype dtype, int64_t rows, int64_t cols,
                           int64_t addr)
{
    ptort_tile t;
    memset(&t, 0, sizeof t);
    t.loc = loc;
    t.dtype = dtype;
    t.rows = rows;
    t.cols = cols;
    t.valid_rows = rows;
    t.valid_cols = cols;
    t.blayout = PTORT_BL_ROW_MAJOR;
    t.slayout = PTORT_SL_NONE_BOX;
    t.fractal = 512;
    t.addr = addr;
    return t;
}

/* Inner box of a boxed layout (docs/verify.md section 1); 1x1 for none_box. Every element
 * size is a power of two, so 32 / size is a shift (this runs for every operand of every
 * op; so are the box sides, which round_up and check_tile use as masks). */
static void box_of(const ptort_tile *t, int64_t *ir, int64_t *ic)
{
    int sh = __builtin_ctz((unsigned)ptort_dtype_size(t->dtype) | 32u);
    *ir = *ic = 1;
    if (t->slayout == PTORT_SL_NONE_BOX)
        return;
    int row = t->slayout == PTORT_SL_ROW_MAJOR;
    if (t->fractal == 1024) {
        *ir = 16;
        *ic = 16;
    } else if (t->fractal == 32) {
        *ir = row ? 16 : 2;
        *ic = row ? 2 : 16;
    } else {
        *ir = row ? 16 : 32 >> sh;
        *ic = row ? 32 >> sh : 16;
    }
}

/* V >= 0 rounded up to a multiple of M, a power of two (a box side). */
static int64_t round_up(int64_t v, int64_t m)
{
    return (v + m - 1) & -m;
}

void layout_of(const ptort_tile *t, Layout *l)
{
    box_of(t, &l->ir, &l->ic);
    int plus = t->compact == PTORT_COMPACT_ROW_PLUS_ONE;
    l->pr = round_up(t->rows, l->ir);
    l->pc = round_up(t->cols, l->ic);
    l->stride = 0;
    if (t->slayout == PTORT_SL_NONE_BOX) {
        int rowm = t->blayout == PTORT_BL_ROW_MAJOR;
        l->kind = rowm ? LAY_ROW : LAY_COL;
        l->stride = (rowm ? t->cols : t->rows) + plus;
    } else if (t->rows == 1) {
        /* docs/numerics.md 5: a boxed tile with one row simply uses offset c. */
        l->kind = LAY_FLAT;
        l->pr = 1;
    } else if (t->slayout == PTORT_SL_ROW_MAJOR) {
        l->kind = t->blayout == PTORT_BL_COL_MAJOR ? LAY_NZ : LAY_ZZ;
    } else {
        l->kind = t->blayout == PTORT_BL_ROW_MAJOR ? LAY_ZN : LAY_NN;
    }
    /* docs/memory.md 1: a compact boxed tile stacks its boxes over the valid rows (NZ) or
     * valid cols (ZZ, ZN) rounded up to a whole box, as pto-isa's compact TEXTRACT/TMOV/TSTORE
     * address it; row_plus_one (NZ only, check_tile) adds one row per column of boxes. */
    if (t->compact != PTORT_COMPACT_NULL && l->kind != LAY_FLAT && t->slayout != PTORT_SL_NONE_BOX) {
        if (l->kind == LAY_NZ)
            l->pr = round_up(t->valid_rows, l->ir);
        else if (l->kind == LAY_ZZ || l->kind == LAY_ZN)
            l->pc = round_up(t->valid_cols, l->ic);
        l->stride = plus;
    }
}

int64_t layout_row_off(const Layout *l, int64_t r)
{
    int64_t sr = r / l->ir, ir = r % l->ir;
    switch (l->kind) {
    case LAY_ROW: return r * l->stride;
    case LAY_COL: return r;
    case LAY_FLAT: return 0;
    case LAY_NZ: return sr * l->ir * l->ic + ir * l->ic;
    case LAY_ZZ: return sr * l->pc * l->ir + ir * l->ic;
    case LAY_ZN: return sr * l->pc * l->ir + ir;
    default: return sr * l->ir * l->ic + ir;                       /* NN */
    }
}

int64_t layout_col_off(const Layout *l, int64_t c)
{
    int64_t sc = c / l->ic, ic = c % l->ic;
    switch (l->kind) {
    case LAY_ROW: return c;
    case LAY_COL: return c * l->stride;
    case LAY_FLAT: return c;
    case LAY_NZ: return sc * (l->pr + l->stride) * l->ic + ic;
    case LAY_ZZ: return sc * l->ir * l->ic + ic;
    case LAY_ZN: return sc * l->ir * l->ic + ic * l->ir;
    default: return sc * l->pr * l->ic + ic * l->ir;               /* NN */
    }
}

void layout_col_table(const ptort_tile *t, int64_t n, int64_t *out)
{
    Layout l;
    layout_of(t, &l);
    for (int64_t c = 0; c < n; c++)
        out[c] = layout_col_off(&l, c);
}

const char *ptort_layout_name(const ptort_tile *t)
{
    static const char *const names[2][3] = {
        {"row_major/none_box", "row_major/row_major", "row_major/col_major"},
        {"col_major/none_box", "col_major/row_major", "col_major/col_major"}};
    if ((unsigned)t->blayout > 1 || (unsigned)t->slayout > 2)
        return "?";
    return names[t->blayout][t->slayout];
}

/* The bytes of a valid descriptor whose inner box is IR x IC (layout_of's pr * pc, or the
 * row_plus_one footprint); check_tile has the box already. */
static int64_t bytes_of(const ptort_tile *t, int64_t ir, int64_t ic)
{
    int64_t sz = dtype_sizes[t->dtype];
    if (t->slayout == PTORT_SL_NONE_BOX && t->compact == PTORT_COMPACT_ROW_PLUS_ONE) {
        int64_t major = t->blayout == PTORT_BL_ROW_MAJOR ? t->rows : t->cols;
        int64_t minor = t->blayout == PTORT_BL_ROW_MAJOR ? t->cols : t->rows;
        return ((major - 1) * (minor + 1) + minor) * sz;
    }
    /* a boxed tile with one row is flat (layout_of); none_box has a 1x1 box */
    int64_t pr = t->rows == 1 ? 1 : round_up(t->rows, ir), pc = round_up(t->cols, ic);
    int64_t bytes = pr * pc * sz;
    if (t->compact == PTORT_COMPACT_ROW_PLUS_ONE) {
        /* docs/memory.md 1: the larger of PTOAS's footprint and pto-isa's NZ+1 one */
        int64_t major = t->blayout == PTORT_BL_ROW_MAJOR ? t->rows : t->cols;
        int64_t minor = t->blayout == PTORT_BL_ROW_MAJOR ? t->cols : t->rows;
        int64_t ptoas = ((major - 1) * (minor + 1) + minor) * sz;
        int64_t nz = t->rows > 1 && t->blayout == PTORT_BL_COL_MAJOR && t->slayout == PTORT_SL_ROW_MAJOR
                     ? ((pc / ic - 1) * (pr + 1) + pr) * ic * sz : 0;
        bytes = bytes > nz ? bytes : nz;
        bytes = bytes > ptoas ? bytes : ptoas;
    }
    return bytes;
}

int64_t ptort_tile_bytes(const ptort_tile *t)
{
    if (!t || (unsigned)t->dtype >= PTORT_NUM_DTYPES || t->rows <= 0 || t->cols <= 0 ||
        (unsigned)t->blayout > 1 || (unsigned)t->slayout > 2)
        return -1;
    /* Physical shapes are bounded by the check below, so these products cannot overflow. */
    if (t->rows > (INT64_C(1) << 28) || t->cols > (INT64_C(1) << 28))
        return -1;
    int64_t ir, ic;
    box_of(t, &ir, &ic);
    return bytes_of(t, ir, ic);
}

int64_t ptort_tile_offset(const ptort_tile *t, int64_t r, int64_t c)
{
    if (ptort_tile_bytes(t) < 0)
        return -1;
    Layout l;
    layout_of(t, &l);
    if (r < 0 || c < 0 || r >= l.pr || c >= l.pc)
        return -1;
    if (l.kind == LAY_ROW || l.kind == LAY_COL) {
        if (r >= t->rows || c >= t->cols)
            return -1;
    }
    return layout_row_off(&l, r) + layout_col_off(&l, c);
}

/* The descriptor rules of docs/verify.md section 1 that still matter at run time, then the
 * address rules of docs/memory.md section 5. */
static ptort_status check_tile(ptort_ctx *ctx, const char *op, const char *role,
                               const ptort_tile *t)
{
    const char *sep = *role ? ": " : "";
    if (!t)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: %s%smissing tile descriptor", op, role, sep);
    if ((unsigned)t->loc >= PTORT_NUM_LOCS)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%sunknown loc: %d", op, role, sep, (int)t->loc);
    if ((unsigned)t->dtype >= PTORT_NUM_DTYPES)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%sunknown dtype: %d", op, role, sep,
                          (int)t->dtype);
    if (t->dtype >= PTORT_NUM_TILE_DTYPES) /* host data only */
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: %s%sno tile op computes %s", op, role, sep,
                          ptort_dtype_name(t->dtype));
    if ((unsigned)t->blayout > 1)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%sunknown blayout: %d", op, role, sep,
                          (int)t->blayout);
    if ((unsigned)t->slayout > 2)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%sunknown slayout: %d", op, role, sep,
                          (int)t->slayout);
    if (t->pad < 0 || t->pad > 3)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%sunknown pad: %d", op, role, sep, t->pad);
    if (t->compact < 0 || t->compact > 2)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%sunknown compact: %d", op, role, sep,
                          t->compact);
    if (t->fractal != 32 && t->fractal != 512 && t->fractal != 1024)
        return ptort_fail(ctx, PTORT_E_DESC,
                          "%s: %s%sunsupported s_fractal_size: %d, must be one of {32, 512, 1024}",
                          op, role, sep, t->fractal);
    if (t->rows <= 0 || t->cols <= 0)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%stile_buf rows/cols must be positive",
                          op, role, sep);
    if (t->rows > ctx->size[t->loc] || t->cols > ctx->size[t->loc])
        return ptort_fail(ctx, PTORT_E_ADDR, "%s: %s%stile of %lldx%lld elements exceeds %s capacity %lld",
                          op, role, sep, (long long)t->rows, (long long)t->cols,
                          loc_names[t->loc], (long long)ctx->size[t->loc]);
    if (t->valid_rows < 0)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%stile_buf valid_row (%lld) is negative", op, role, sep,
                          (long long)t->valid_rows);
    if (t->valid_cols < 0)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%stile_buf valid_col (%lld) is negative", op, role, sep,
                          (long long)t->valid_cols);
    if (t->valid_rows > t->rows)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%stile_buf valid_row (%lld) exceeds row (%lld)",
                          op, role, sep, (long long)t->valid_rows, (long long)t->rows);
    if (t->valid_cols > t->cols)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: %s%stile_buf valid_col (%lld) exceeds col (%lld)",
                          op, role, sep, (long long)t->valid_cols, (long long)t->cols);
    /* none_box rows (columns) of any byte size are fine: pto-isa's 32-byte rule for them is a
     * verifier warning, since nothing here depends on it. */
    int64_t ir, ic;
    box_of(t, &ir, &ic);
    if (t->slayout != PTORT_SL_NONE_BOX) {
        /* pto-isa places compact boxes for NZ, ZZ and ZN only, row_plus_one for NZ only
         * (docs/memory.md 1); a one-row boxed tile is flat whatever its compact mode */
        int nz = t->blayout == PTORT_BL_COL_MAJOR && t->slayout == PTORT_SL_ROW_MAJOR;
        int nn = t->blayout == PTORT_BL_COL_MAJOR && t->slayout == PTORT_SL_COL_MAJOR;
        if (t->rows > 1 && ((t->compact == PTORT_COMPACT_NORMAL && nn) ||
                            (t->compact == PTORT_COMPACT_ROW_PLUS_ONE && !nz)))
            return ptort_fail(ctx, PTORT_E_DESC,
                              "%s: %s%scompact=%s has no pto-isa element layout for a %s tile",
                              op, role, sep, t->compact == PTORT_COMPACT_NORMAL ? "normal" : "row_plus_one",
                              ptort_layout_name(t));
        if ((t->rows & (ir - 1)) != 0 && !(t->rows == 1 || t->fractal == 32 || t->loc == PTORT_VEC))
            return ptort_fail(ctx, PTORT_E_DESC,
                              "%s: %s%sexpects boxed tile rows to be a multiple of innerRows (%lld), but got %lld",
                              op, role, sep, (long long)ir, (long long)t->rows);
        if ((t->cols & (ic - 1)) != 0 && t->loc != PTORT_VEC)
            return ptort_fail(ctx, PTORT_E_DESC,
                              "%s: %s%sexpects boxed tile cols to be a multiple of innerCols (%lld), but got %lld",
                              op, role, sep, (long long)ic, (long long)t->cols);
    }
    /* ptort_tile_bytes without its checks again (all done above but the size bound) */
    int64_t bytes = t->rows > (INT64_C(1) << 28) || t->cols > (INT64_C(1) << 28) ? -1 : bytes_of(t, ir, ic);
    int64_t al = align_of[t->loc], cap = ctx->size[t->loc];
    if (t->addr < 0)
        return ptort_fail(ctx, PTORT_E_ADDR, "%s: %s%saddr must be non-negative, got %lld",
                          op, role, sep, (long long)t->addr);
    if ((t->addr & (al - 1)) != 0)                 /* al is a power of two, addr >= 0 */
        return ptort_fail(ctx, PTORT_E_ADDR,
                          "%s: %s%saddr must be aligned to %lld bytes for local tile memory space, got %lld",
                          op, role, sep, (long long)al, (long long)t->addr);
    if (bytes < 0 || bytes > cap || t->addr > cap - bytes)
        return ptort_fail(ctx, PTORT_E_ADDR, "%s: %s%stile at address %lld with size %lld exceeds %s capacity %lld",
                          op, role, sep, (long long)t->addr, (long long)bytes,
                          loc_names[t->loc], (long long)cap);
    return PTORT_OK;
}

ptort_status ptort_check_operand(ptort_ctx *ctx, const char *op, const char *role,
                                 const ptort_tile *t)
{
    return check_tile(ctx, op, role, t);
}

ptort_status ptort_tile_check(ptort_ctx *ctx, const ptort_tile *t)
{
    if (!ctx)
        return PTORT_E_ARG;
    return check_tile(ctx, "tile", "", t);
}

ptort_status ptort_tile_zero(ptort_ctx *ctx, const ptort_tile *t)
{
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st = check_tile(ctx, "tile", "", t);
    if (st != PTORT_OK)
        return st;
    memset(ptort_mem(ctx, t->loc, NULL) + t->addr, 0, (size_t)ptort_tile_bytes(t));
    return PTORT_OK;
}

/* ---- tile views (pto.treshape, pto.subview, pto.set_validshape) -------------------------
 * A view is another descriptor over the bytes of a tile: nothing is copied. */

ptort_status ptort_tile_reshape(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *as,
                                ptort_tile *out)
{
    static const char op[] = "treshape";
    if (!ctx)
        return PTORT_E_ARG;
    if (!out)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: missing result descriptor", op);
    ptort_status st;
    if ((st = check_tile(ctx, op, "src", src)))
        return st;
    ptort_tile t = as ? *as : *src;
    t.addr = src->addr;
    if ((st = check_tile(ctx, op, "dst", &t)))
        return st;
    if (t.loc != src->loc)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects src and dst to use the same loc", op);
    if (src->rows * src->cols * dtype_sizes[src->dtype] != t.rows * t.cols * dtype_sizes[t.dtype])
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects src and dst to have the same total byte size, but got %lld and %lld",
                          op, (long long)(src->rows * src->cols * dtype_sizes[src->dtype]),
                          (long long)(t.rows * t.cols * dtype_sizes[t.dtype]));
    if ((src->slayout == PTORT_SL_NONE_BOX) != (t.slayout == PTORT_SL_NONE_BOX))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: cannot reshape between boxed and non-boxed tile layouts", op);
    *out = t;
    return PTORT_OK;
}

ptort_status ptort_tile_subview(ptort_ctx *ctx, const ptort_tile *src, int64_t row, int64_t col,
                                int64_t rows, int64_t cols, int64_t valid_rows,
                                int64_t valid_cols, ptort_tile *out)
{
    static const char op[] = "subview";
    if (!ctx)
        return PTORT_E_ARG;
    if (!out)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: missing result descriptor", op);
    ptort_status st;
    if ((st = check_tile(ctx, op, "source", src)))
        return st;
    if (row < 0 || col < 0)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects non-negative offsets, but got [%lld, %lld]", op,
                          (long long)row, (long long)col);
    if (rows <= 0 || cols <= 0)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects positive sizes, but got [%lld, %lld]", op,
                          (long long)rows, (long long)cols);
    if (row > src->rows - rows || col > src->cols - cols)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: the window [%lld, %lld] + [%lld, %lld] leaves the source's %lldx%lld shape",
                          op, (long long)row, (long long)col, (long long)rows, (long long)cols,
                          (long long)src->rows, (long long)src->cols);
    if (valid_rows < 0 || valid_cols < 0 || valid_rows > rows || valid_cols > cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects the valid shape [%lld, %lld] within the sizes [%lld, %lld]",
                          op, (long long)valid_rows, (long long)valid_cols, (long long)rows, (long long)cols);
    int row_major = src->blayout == PTORT_BL_ROW_MAJOR;
    int same_stride;        /* the child's own layout steps like the source's */
    if (src->slayout != PTORT_SL_NONE_BOX) {
        int64_t ir, ic;
        box_of(src, &ir, &ic);
        if (row % ir || col % ic || rows % ir || cols % ic)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects offsets and sizes to be multiples of the inner box %lldx%lld", op,
                              (long long)ir, (long long)ic);
        if (row_major && (col != 0 || cols != src->cols))
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects a boxed row-major subview to keep all %lld source columns from column 0",
                              op, (long long)src->cols);
        if (!row_major && (row != 0 || rows != src->rows))
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects a boxed col-major subview to keep all %lld source rows from row 0",
                              op, (long long)src->rows);
        same_stride = 1;
    } else {
        same_stride = row_major ? cols == src->cols : rows == src->rows;
    }
    ptort_tile t = *src;
    t.addr = src->addr + ptort_tile_offset(src, row, col) * dtype_sizes[src->dtype];
    /* PTOAS keeps the source's physical shape (and so its strides) when the window's own
     * layout would step differently; the window is then the valid region at the offset. */
    if (same_stride) {
        t.rows = rows;
        t.cols = cols;
    }
    t.valid_rows = valid_rows;
    t.valid_cols = valid_cols;
    if ((st = check_tile(ctx, op, "result", &t)))
        return st;
    *out = t;
    return PTORT_OK;
}

ptort_status ptort_tile_set_valid(ptort_ctx *ctx, ptort_tile *t, int64_t valid_rows,
                                  int64_t valid_cols)
{
    static const char op[] = "set_validshape";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = check_tile(ctx, op, "source", t)))
        return st;
    if (valid_rows < 0)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects row operand to be non-negative, but got %lld", op,
                          (long long)valid_rows);
    if (valid_cols < 0)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects col operand to be non-negative, but got %lld", op,
                          (long long)valid_cols);
    if (valid_rows > t->rows)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects row operand <= shape dim (%lld), but got %lld", op,
                          (long long)t->rows, (long long)valid_rows);
    if (valid_cols > t->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects col operand <= shape dim (%lld), but got %lld", op,
                          (long long)t->cols, (long long)valid_cols);
    t->valid_rows = valid_rows;
    t->valid_cols = valid_cols;
    return PTORT_OK;
}
