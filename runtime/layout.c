/* layout.c - element moves that only depend on layouts: host fill/read, tmov, tload, tstore.
 *
 * All layouts are separable (offset = row part + column part, see internal.h), so each move
 * builds one column-offset table per tile and then walks rows; rows that are contiguous on
 * both sides become one memcpy.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

uint32_t dtype_max_bits(ptort_dtype dt)
{
    switch (dt) {
    case PTORT_I8: return 0x7F;
    case PTORT_I16: return 0x7FFF;
    case PTORT_I32: return 0x7FFFFFFF;
    case PTORT_U8: return 0xFF;
    case PTORT_U16: return 0xFFFF;
    case PTORT_U32: return 0xFFFFFFFF;
    case PTORT_F16: return 0x7BFF;
    case PTORT_BF16: return 0x7F7F;
    case PTORT_F32: return 0x7F7FFFFF;
    case PTORT_F8E4M3FN: return 0x7E;
    case PTORT_F8E5M2: return 0x7B;
    case PTORT_F8E8M0FNU: return 0xFE;
    case PTORT_F4E2M1X2: return 0x77;          /* both nibbles +6 */
    default: return 0;
    }
}

uint32_t dtype_lowest_bits(ptort_dtype dt)
{
    switch (dt) {
    case PTORT_I8: return 0x80;
    case PTORT_I16: return 0x8000;
    case PTORT_I32: return 0x80000000;
    case PTORT_F16: return 0xFBFF;
    case PTORT_BF16: return 0xFF7F;
    case PTORT_F32: return 0xFF7FFFFF;
    case PTORT_F8E4M3FN: return 0xFE;
    case PTORT_F8E5M2: return 0xFB;
    case PTORT_F4E2M1X2: return 0xFF;          /* both nibbles -6 */
    default: return 0;                          /* unsigned types, e8m0 (2^-127) */
    }
}

/* Copies an R x C rectangle of SZ-byte elements: element (r, c) from
 * s + (srow(r) + scol[c]) * sz to d + (drow(r) + dcol[c]) * sz. Row offsets come from the
 * two layouts (or a plain stride for host arrays: ls/ld NULL). */
typedef struct {
    uint8_t *p;
    const Layout *l;       /* NULL: host array with row stride `stride` */
    int64_t stride;
    const int64_t *col;    /* column table; NULL means identity */
} Side;

static int64_t side_row(const Side *s, int64_t r)
{
    return s->l ? layout_row_off(s->l, r) : r * s->stride;
}

static void copy_rect(const Side *d, const Side *s, int64_t rows, int64_t cols, int sz)
{
    for (int64_t r = 0; r < rows; r++) {
        uint8_t *dp = d->p + side_row(d, r) * sz;
        const uint8_t *sp = s->p + side_row(s, r) * sz;
        if (!d->col && !s->col) {
            memmove(dp, sp, (size_t)(cols * sz)); /* level3 tiles may alias (an in-place tmov) */
            continue;
        }
        switch (sz) {
        case 1:
            for (int64_t c = 0; c < cols; c++)
                dp[d->col ? d->col[c] : c] = sp[s->col ? s->col[c] : c];
            break;
        case 2:
            for (int64_t c = 0; c < cols; c++)
                memcpy(dp + 2 * (d->col ? d->col[c] : c), sp + 2 * (s->col ? s->col[c] : c), 2);
            break;
        default:
            for (int64_t c = 0; c < cols; c++)
                memcpy(dp + 4 * (d->col ? d->col[c] : c), sp + 4 * (s->col ? s->col[c] : c), 4);
            break;
        }
    }
}

/* Builds a Side for tile T over its first N columns; the table lives in TABLE (N entries)
 * unless the layout's columns are contiguous. */
static void tile_side(ptort_ctx *ctx, const ptort_tile *t, const Layout *l, int64_t n,
                      int64_t *table, Side *s)
{
    s->p = tile_base(ctx, t);
    s->l = l;
    s->stride = 0;
    if (l->kind == LAY_ROW || l->kind == LAY_FLAT) {
        s->col = NULL;
    } else {
        for (int64_t c = 0; c < n; c++)
            table[c] = layout_col_off(l, c);
        s->col = table;
    }
}

static ptort_status host_copy(ptort_ctx *ctx, const char *op, const ptort_tile *t,
                              void *host, int64_t rows, int64_t cols, int to_tile)
{
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st = ptort_check_operand(ctx, op, "", t);
    if (st)
        return st;
    if (!host && rows > 0 && cols > 0)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: missing host array", op);
    if (rows < 0 || cols < 0 || rows > t->rows || cols > t->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: host array of %lldx%lld elements does not fit the %lldx%lld tile",
                          op, (long long)rows, (long long)cols, (long long)t->rows,
                          (long long)t->cols);
    Layout l;
    layout_of(t, &l);
    int64_t *table = ptort_scratch(ctx, (size_t)(cols + 1) * sizeof(int64_t));
    if (!table)
        return PTORT_E_NOMEM;
    Side ts, hs = {host, NULL, cols, NULL};
    tile_side(ctx, t, &l, cols, table, &ts);
    int sz = ptort_dtype_size(t->dtype);
    /* a compact boxed tile has no elements past its box-rounded valid rows (NZ) or cols
     * (ZZ, ZN) (docs/memory.md 1): those host elements are left alone */
    int64_t cr = rows < l.pr ? rows : l.pr, cc = cols < l.pc ? cols : l.pc;
    if (to_tile)
        copy_rect(&ts, &hs, cr, cc, sz);
    else
        copy_rect(&hs, &ts, cr, cc, sz);
    return PTORT_OK;
}

ptort_status ptort_tile_fill(ptort_ctx *ctx, const ptort_tile *t, const void *host,
                             int64_t rows, int64_t cols)
{
    /* The host array is only read when filling; host_copy is shared with the read side. */
    return host_copy(ctx, "tile_fill", t, (void *)(uintptr_t)host, rows, cols, 1);
}

ptort_status ptort_tile_read(ptort_ctx *ctx, const ptort_tile *t, void *host,
                             int64_t rows, int64_t cols)
{
    return host_copy(ctx, "tile_read", t, host, rows, cols, 0);
}

ptort_status ptort_tmov(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst,
                        const ptort_tile *tmp)
{
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, "tmov", "src", src)) ||
        (st = ptort_check_operand(ctx, "tmov", "dst", dst)))
        return st;
    if (tmp && (st = ptort_check_operand(ctx, "tmov", "tmp", tmp)))
        return st;
    /* element types differ only for the casts the hardware makes (docs/numerics.md 8.4) */
    if (src->dtype != dst->dtype && !moves_converts(src, dst))
        return ptort_fail(ctx, PTORT_E_DTYPE,
                          "tmov: expects src and dst to have the same element type, but got %s and %s",
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    if (src->valid_rows != dst->valid_rows || src->valid_cols != dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "tmov: expects src and dst to have the same valid_shape, but got [%lld, %lld] vs [%lld, %lld]",
                          (long long)src->valid_rows, (long long)src->valid_cols,
                          (long long)dst->valid_rows, (long long)dst->valid_cols);
    if (src->dtype != dst->dtype)
        return moves_convert(ctx, "tmov", src, dst);
    int64_t n = src->valid_cols;
    int64_t *tables = ptort_scratch(ctx, (size_t)(2 * n + 2) * sizeof(int64_t));
    if (!tables)
        return PTORT_E_NOMEM;
    Layout ls, ld;
    layout_of(src, &ls);
    layout_of(dst, &ld);
    Side s, d;
    tile_side(ctx, src, &ls, n, tables, &s);
    tile_side(ctx, dst, &ld, n, tables + n + 1, &d);
    /* Placed tiles never share bytes; hand-placed level3 tiles may (docs/memory.md 5): the
     * contiguous rows then move with memmove, an in-place tmov is a no-op. */
    copy_rect(&d, &s, src->valid_rows, n, ptort_dtype_size(src->dtype));
    return PTORT_OK;
}

/* Bytes a tile's physical shape covers as a plain array (PTOAS's static byte size). */
static int64_t plain_bytes(const ptort_tile *t)
{
    return t->rows * t->cols * ptort_dtype_size(t->dtype);
}

/* ND -> ZZ: one 32-byte box per (row block rb, column pair j); box byte 2q + d is
 * S[16rb + q][2j + d] of the compact R x C source S (zero-padded to 16-row blocks). */
PTORT_VECTORIZE
static void nd_to_zz(const uint8_t *s, uint8_t *d, int64_t rb_count, int64_t c)
{
    int64_t p = c / 2;
    for (int64_t rb = 0; rb < rb_count; rb++)
        for (int64_t j = 0; j < p; j++) {
            const uint8_t *in = s + rb * 16 * c + 2 * j;
            uint8_t *out = d + (rb * p + j) * 32;
            for (int q = 0; q < 16; q++) {
                out[2 * q] = in[q * c];
                out[2 * q + 1] = in[q * c + 1];
            }
        }
}

/* DN -> ZZ: box (cb, p) at (cb*np + p)*32 zips 16 bytes of rows 2p and 2p+1. */
PTORT_VECTORIZE
static void dn_to_zz(const uint8_t *s, uint8_t *d, int64_t np, int64_t n)
{
    for (int64_t p = 0; p < np; p++)
        for (int64_t cb = 0; cb < n / 16; cb++) {
            const uint8_t *r0 = s + 2 * p * n + 16 * cb, *r1 = r0 + n;
            uint8_t *out = d + (cb * np + p) * 32;
            for (int q = 0; q < 16; q++) {
                out[2 * q] = r0[q];
                out[2 * q + 1] = r1[q];
            }
        }
}

ptort_status ptort_tmov_zz(ptort_ctx *ctx, ptort_group_axis axis, const ptort_tile *src,
                           const ptort_tile *dst, const ptort_tile *tmp)
{
    static const char op[] = "tmov";
    if (!ctx)
        return PTORT_E_ARG;
    if ((unsigned)axis > PTORT_AXIS0)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: unknown grpAxis %d", op, (int)axis);
    if (ctx->arch != PTORT_A5)
        return ptort_fail(ctx, PTORT_E_ARCH, "%s: X-to-ZZ tmov is only supported on A5", op);
    if (!dst)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: dst: missing tile descriptor", op);
    /* dst's ZZ box type only names the form: it is filled as plain bytes from its address */
    ptort_tile flat = *dst;
    flat.slayout = PTORT_SL_NONE_BOX;
    flat.blayout = PTORT_BL_ROW_MAJOR;
    flat.compact = PTORT_COMPACT_NULL;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) ||
        (st = ptort_check_operand(ctx, op, "dst", &flat)) ||
        (st = ptort_check_operand(ctx, op, "tmp", tmp)))
        return st;
    if (src->loc != PTORT_VEC || dst->loc != PTORT_VEC || tmp->loc != PTORT_VEC)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects X-to-ZZ src/dst/tmp to be vec tiles", op);
    if (src->dtype != dst->dtype || src->dtype != tmp->dtype)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src, dst, and tmp to share one element type", op);
    if (src->dtype != PTORT_U8 && src->dtype != PTORT_F8E8M0FNU)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects element type ui8 or f8E8M0FNU for X-to-ZZ, but got %s",
                          op, ptort_dtype_name(src->dtype));
    if (src->blayout != PTORT_BL_ROW_MAJOR || src->slayout != PTORT_SL_NONE_BOX)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects src to use blayout=row_major, slayout=none_box", op);
    if (dst->blayout != PTORT_BL_ROW_MAJOR || dst->slayout != PTORT_SL_ROW_MAJOR)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects dst to use blayout=row_major, slayout=row_major (ZZ box)", op);
    if (src->valid_rows * src->valid_cols != dst->valid_rows * dst->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src and dst to hold the same exponent count", op);
    uint8_t *s = tile_base(ctx, src), *d = tile_base(ctx, dst);
    if (axis == PTORT_AXIS1) {
        int64_t r = dst->valid_rows, c = dst->valid_cols, rb = (r + 15) / 16, need = rb * 16 * c;
        if (c % 2 != 0)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects ND-to-ZZ dst valid_shape[1] (the grouped exponent column count) to be even", op);
        if (src->valid_rows != 1 && src->cols != src->valid_cols)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects ND-to-ZZ src valid elements to form a compact prefix (single-row legacy flat or physical row stride equal to valid cols)", op);
        if (plain_bytes(src) < need)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects ND-to-ZZ src physical capacity to cover align16(dst rows) * dst cols because source padding is zeroed in place", op);
        if (plain_bytes(dst) < need)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects ND-to-ZZ dst physical capacity to cover align16(dst rows) * dst cols", op);
        if (plain_bytes(tmp) < 64 + rb * c)
            return ptort_fail(ctx, PTORT_E_SHAPE,
                              "%s: expects tmp to provide at least %lld bytes for ND-to-ZZ (64 + ceil(dst rows / 16) * dst cols)",
                              op, (long long)(64 + rb * c));
        memset(s + r * c, 0, (size_t)(need - r * c));
        nd_to_zz(s, d, rb, c);
        return PTORT_OK;
    }
    int64_t m = src->valid_rows, n = src->valid_cols;
    if (m < 2 || m % 2 != 0)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects DN-to-ZZ src valid_shape[0] to be an even count >= 2; a single row-group produces no output in PTO-ISA", op);
    if (n % 16 != 0)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects DN-to-ZZ src valid_shape[1] to be a multiple of 16", op);
    if (src->cols != n)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects DN-to-ZZ src physical row stride to equal src valid_shape[1]", op);
    if (plain_bytes(src) < m * n || plain_bytes(dst) < m * n)
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects DN-to-ZZ src/dst physical capacity to cover src valid rows * src valid cols", op);
    dn_to_zz(s, d, m / 2, n);
    return PTORT_OK;
}

ptort_view ptort_view_make(void *base, size_t size, ptort_dtype dtype,
                           int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride)
{
    const int64_t shape[2] = {rows, cols}, stride[2] = {row_stride, col_stride};
    return ptort_view_make_nd(base, size, dtype, 2, shape, stride);
}

ptort_view ptort_view_make_nd(void *base, size_t size, ptort_dtype dtype, int rank,
                              const int64_t *shape, const int64_t *stride)
{
    ptort_view v;
    memset(&v, 0, sizeof v);
    v.base = base;
    v.size = size;
    v.dtype = dtype;
    if (rank < 2 || rank > PTORT_VIEW_MAX_RANK || !shape || !stride)
        return v; /* rank 0: rejected where it is used */
    v.rank = rank;
    memcpy(v.shape, shape, (size_t)rank * sizeof *shape);
    memcpy(v.stride, stride, (size_t)rank * sizeof *stride);
    return v;
}

/* "[a, b, c]" of the first N numbers of X, into BUF. */
static const char *dims_str(char *buf, size_t cap, const int64_t *x, int n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int k = 0; k < n && used < cap; k++)
        used += (size_t)snprintf(buf + used, cap - used, "%s%lld", k ? ", " : "[", (long long)x[k]);
    if (used < cap)
        snprintf(buf + used, cap - used, "]");
    return buf;
}

ptort_status ptort_view_partition(ptort_ctx *ctx, const ptort_view *tensor,
                                  int64_t off0, int64_t off1, int64_t size0, int64_t size1,
                                  ptort_view *out)
{
    const int64_t off[2] = {off0, off1}, size[2] = {size0, size1};
    return ptort_view_partition_nd(ctx, tensor, 2, off, size, out);
}

ptort_status ptort_view_partition_nd(ptort_ctx *ctx, const ptort_view *tensor, int rank,
                                     const int64_t *off, const int64_t *size, ptort_view *out)
{
    char a[128], b[128], c[128];
    if (!tensor || !out || !off || !size)
        return ptort_fail(ctx, PTORT_E_ARG, "partition_view: missing view");
    if (tensor->rank < 2 || rank != tensor->rank)
        return ptort_fail(ctx, PTORT_E_ARG, "partition_view: %d offsets for a view of rank %d", rank, tensor->rank);
    for (int k = 0; k < rank; k++)
        if (off[k] < 0 || size[k] < 0)
            return ptort_fail(ctx, PTORT_E_ARG,
                              "partition_view: offsets and sizes must be non-negative, got %s and %s",
                              dims_str(a, sizeof a, off, rank), dims_str(b, sizeof b, size, rank));
    for (int k = 0; k < rank; k++)
        if (tensor->shape[k] < 0) /* shape - size below must not overflow */
            return ptort_fail(ctx, PTORT_E_VIEW, "partition_view: the view shape %s is negative",
                              dims_str(a, sizeof a, tensor->shape, rank));
    for (int k = 0; k < rank; k++)
        if (off[k] > tensor->shape[k] - size[k])
            return ptort_fail(ctx, PTORT_E_VIEW, "partition_view: window at %s of size %s exceeds the view shape %s",
                              dims_str(a, sizeof a, off, rank), dims_str(b, sizeof b, size, rank),
                              dims_str(c, sizeof c, tensor->shape, rank));
    int64_t o = tensor->offset;
    for (int k = 0; k < rank; k++) {
        int64_t t;
        if (__builtin_mul_overflow(off[k], tensor->stride[k], &t) || __builtin_add_overflow(o, t, &o))
            return ptort_fail(ctx, PTORT_E_VIEW, "partition_view: offset overflows");
    }
    *out = *tensor;
    out->offset = o;
    memcpy(out->shape, size, (size_t)rank * sizeof *size);
    return PTORT_OK;
}

/* The rows a view presents to a tile: the product of all dimensions but the last (-1 when
 * it does not fit in int64). */
static int64_t view_rows(const ptort_view *v)
{
    int64_t n = 1;
    for (int k = 0; k + 1 < v->rank; k++)
        if (v->shape[k] < 0 || __builtin_mul_overflow(n, v->shape[k], &n))
            return -1;
    return n;
}

/* The offset of view row I (element (I, 0) of the rows view_rows counts) into *O; false
 * when it overflows. */
static bool view_row_offset(const ptort_view *v, int64_t i, int64_t *o)
{
    *o = v->offset;
    for (int k = v->rank - 2; k >= 0; k--) {
        int64_t n = v->shape[k], t;
        if (__builtin_mul_overflow(k ? i % n : i, v->stride[k], &t) || __builtin_add_overflow(*o, t, o))
            return false;
        i = k ? i / n : 0;
    }
    return true;
}

/* Checks that every element (i, j) of the rows x cols window of V lies inside the host
 * buffer. Each row's offset is linear in j, so its extremes are at its ends; for a 2-D view
 * the offset is linear in i too, and the extremes are at the corners. */
static ptort_status check_view(ptort_ctx *ctx, const char *op, const ptort_view *v,
                               const ptort_tile *t)
{
    char a[128];
    if (!v)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: missing view", op);
    if (v->rank < 2 || v->rank > PTORT_VIEW_MAX_RANK)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: the view has rank %d, not 2 to %d", op, v->rank,
                          PTORT_VIEW_MAX_RANK);
    if ((unsigned)v->dtype >= PTORT_NUM_DTYPES)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: unknown view dtype %d", op, (int)v->dtype);
    /* PTOAS moves the bits of any two element types of one size (an f16 view into an i16
     * tile): the transfer copies bytes */
    if (ptort_dtype_size(v->dtype) != ptort_dtype_size(t->dtype))
        return ptort_fail(ctx, PTORT_E_DTYPE,
                          "%s: expects the view and the tile to have the same element size, but got %s and %s",
                          op, ptort_dtype_name(v->dtype), ptort_dtype_name(t->dtype));
    /* A view of another shape holding as many elements (PTOAS's reinterpretation, e.g. a
     * [1, 32] tile and a [16, 2] view) takes tile row r at view row r and runs on along the
     * row as pto-isa's ND transfer does: element (r, c) <-> row r's offset + c*stride.
     * That needs no more tile rows than view rows. */
    int64_t vr = t->valid_rows, vc = t->valid_cols;
    if (vr == 0 || vc == 0)
        return PTORT_OK; /* nothing moves, whatever the view's shape (PTOAS counts no elements) */
    int64_t rows = view_rows(v), cols = v->shape[v->rank - 1], n;
    if ((rows != vr || cols != vc) &&
        (rows < 0 || cols < 0 || vr > rows || __builtin_mul_overflow(rows, cols, &n) || vr * vc != n))
        return ptort_fail(ctx, PTORT_E_SHAPE,
                          "%s: expects the view shape to equal the tile valid_shape, but got %s vs [%lld, %lld]",
                          op, dims_str(a, sizeof a, v->shape, v->rank), (long long)t->valid_rows,
                          (long long)t->valid_cols);
    if (!v->base)
        return ptort_fail(ctx, PTORT_E_VIEW, "%s: the view has no host memory", op);
    int64_t lo = INT64_MAX, hi = INT64_MIN, span;
    if (__builtin_mul_overflow(vc - 1, v->stride[v->rank - 1], &span))
        return ptort_fail(ctx, PTORT_E_VIEW, "%s: view extent overflows", op);
    /* a 2-D view's row offset is linear in i: its first and last rows bound it */
    int64_t step = v->rank == 2 && vr > 1 ? vr - 1 : 1;
    for (int64_t i = 0; i < vr; i += step) {
        int64_t r0, r1;
        if (!view_row_offset(v, i, &r0) || __builtin_add_overflow(r0, span, &r1))
            return ptort_fail(ctx, PTORT_E_VIEW, "%s: view extent overflows", op);
        if ((r0 < r1 ? r0 : r1) < lo)
            lo = r0 < r1 ? r0 : r1;
        if ((r0 < r1 ? r1 : r0) > hi)
            hi = r0 < r1 ? r1 : r0;
    }
    int64_t sz = ptort_dtype_size(v->dtype);
    uint64_t end = (uint64_t)hi + 1;
    if (lo < 0 || hi < 0 || end > (uint64_t)v->size / (uint64_t)sz)
        return ptort_fail(ctx, PTORT_E_VIEW,
                          "%s: view accesses elements [%lld, %lld], outside the host buffer of %llu elements",
                          op, (long long)lo, (long long)hi,
                          (unsigned long long)((uint64_t)v->size / (uint64_t)sz));
    return PTORT_OK;
}

/* Moves the valid region between a tile and a view; TO_TILE selects the direction. */
static void view_copy(ptort_ctx *ctx, const ptort_view *v, const ptort_tile *t,
                      int64_t *table, int to_tile)
{
    Layout l;
    layout_of(t, &l);
    Side ts;
    tile_side(ctx, t, &l, t->valid_cols, table, &ts);
    int sz = ptort_dtype_size(t->dtype);
    uint8_t *vb = (uint8_t *)v->base;
    for (int64_t i = 0; i < t->valid_rows; i++) {
        uint8_t *tp = ts.p + layout_row_off(&l, i) * sz;
        int64_t row;
        view_row_offset(v, i, &row);   /* element (i, 0): inside the buffer, checked */
        int64_t cstride = v->stride[v->rank - 1];
        if (cstride == 1 && !ts.col) {
            uint8_t *vp = vb + row * sz;
            if (to_tile)
                memcpy(tp, vp, (size_t)(t->valid_cols * sz));
            else
                memcpy(vp, tp, (size_t)(t->valid_cols * sz));
            continue;
        }
        for (int64_t j = 0; j < t->valid_cols; j++) {
            uint8_t *te = tp + (ts.col ? ts.col[j] : j) * sz;
            uint8_t *ve = vb + (row + j * cstride) * sz;
            if (to_tile)
                memcpy(te, ve, (size_t)sz);
            else
                memcpy(ve, te, (size_t)sz);
        }
    }
}

ptort_status ptort_tload(ptort_ctx *ctx, const ptort_view *src, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, "tload", "dst", dst)) ||
        (st = check_view(ctx, "tload", src, dst)))
        return st;
    Layout l;
    layout_of(dst, &l);
    int64_t *table = ptort_scratch(ctx, (size_t)(l.pc + 1) * sizeof(int64_t));
    if (!table)
        return PTORT_E_NOMEM;
    view_copy(ctx, src, dst, table, 1);
    if (dst->pad == PTORT_PAD_NULL)
        return PTORT_OK;
    /* docs/numerics.md 6: the rest of the physical tile (box-rounded) gets the pad value. */
    uint32_t pv = dst->pad == PTORT_PAD_ZERO ? 0
                : dst->pad == PTORT_PAD_MAX ? dtype_max_bits(dst->dtype)
                : dtype_lowest_bits(dst->dtype);
    int sz = ptort_dtype_size(dst->dtype);
    int64_t prow = l.kind == LAY_ROW || l.kind == LAY_COL ? dst->rows : l.pr;
    int64_t pcol = l.kind == LAY_ROW || l.kind == LAY_COL ? dst->cols : l.pc;
    uint8_t *base = tile_base(ctx, dst);
    for (int64_t c = 0; c < pcol; c++)
        table[c] = layout_col_off(&l, c);
    for (int64_t r = 0; r < prow; r++) {
        int64_t ro = layout_row_off(&l, r);
        for (int64_t c = r < dst->valid_rows ? dst->valid_cols : 0; c < pcol; c++)
            store_elem(base, sz, ro + table[c], pv);
    }
    return PTORT_OK;
}

ptort_status ptort_tstore(ptort_ctx *ctx, const ptort_tile *src, const ptort_view *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, "tstore", "src", src)) ||
        (st = check_view(ctx, "tstore", dst, src)))
        return st;
    int64_t *table = ptort_scratch(ctx, (size_t)(src->valid_cols + 1) * sizeof(int64_t));
    if (!table)
        return PTORT_E_NOMEM;
    view_copy(ctx, dst, src, table, 0);
    return PTORT_OK;
}

/* One element of a converting or accumulating store: the tile's bits X into the view's
 * element at V (docs/numerics.md 8.4). */
static void store_one(uint8_t *v, const uint8_t *x, ptort_dtype sd, ptort_dtype vd, int atomic_add)
{
    if (sd == PTORT_F32 && vd != PTORT_F32) { /* the acc cast: f32 -> f16 / bf16, RNE */
        float f;
        memcpy(&f, x, 4);
        uint16_t h = vd == PTORT_F16 ? f32_to_f16_bits(f) : f32_to_bf16_bits(f);
        memcpy(v, &h, 2);
        return;
    }
    if (!atomic_add) {
        memcpy(v, x, (size_t)ptort_dtype_size(sd));
        return;
    }
    if (sd == PTORT_F32) { /* one f32 addition, round to nearest even */
        float a, b;
        memcpy(&a, v, 4);
        memcpy(&b, x, 4);
        a = a + b;
        uint32_t bits = a != a ? 0x7FC00000u : f2u(a); /* one quiet NaN, whatever x86 makes of it */
        memcpy(v, &bits, 4);
        return;
    }
    uint32_t a, b; /* i32 / u32: wrapping */
    memcpy(&a, v, 4);
    memcpy(&b, x, 4);
    a += b;
    memcpy(v, &a, 4);
}

/* The fixpipe's optional stages of an acc-source store (docs/numerics.md 8.6). */
typedef struct {
    int relu, quant;
    uint64_t word;
} FixStages;

/* The rest of a tstore once its operand types are checked: the view's shape and bounds, then
 * each valid element of SRC to its place in the view, through the fixpipe's stages when FIX
 * is given (moves_fix_one), else converted or added by store_one. */
static ptort_status store_elements(ptort_ctx *ctx, const ptort_tile *src, const ptort_view *dst, int atomic_add,
                                   const FixStages *fix)
{
    ptort_status st;
    ptort_tile shape = *src; /* the view's element type, for the shape and bounds checks */
    shape.dtype = dst->dtype;
    if ((st = check_view(ctx, "tstore", dst, &shape)))
        return st;
    Layout l;
    layout_of(src, &l);
    int64_t *table = ptort_scratch(ctx, (size_t)(src->valid_cols + 1) * sizeof(int64_t));
    if (!table)
        return PTORT_E_NOMEM;
    for (int64_t j = 0; j < src->valid_cols; j++)
        table[j] = layout_col_off(&l, j);
    const uint8_t *base = tile_base(ctx, src);
    int ssz = ptort_dtype_size(src->dtype), vsz = ptort_dtype_size(dst->dtype);
    uint8_t *vb = (uint8_t *)dst->base;
    int64_t cstride = dst->stride[dst->rank - 1];
    for (int64_t i = 0; i < src->valid_rows; i++) {
        const uint8_t *tp = base + layout_row_off(&l, i) * ssz;
        int64_t row;
        view_row_offset(dst, i, &row); /* inside the buffer: checked */
        if (fix)
            for (int64_t j = 0; j < src->valid_cols; j++)
                moves_fix_one(tp + table[j] * ssz, vb + (row + j * cstride) * vsz, src->dtype, dst->dtype, fix->relu,
                              fix->quant, fix->word);
        else
            for (int64_t j = 0; j < src->valid_cols; j++)
                store_one(vb + (row + j * cstride) * vsz, tp + table[j] * ssz, src->dtype, dst->dtype, atomic_add);
    }
    return PTORT_OK;
}

ptort_status ptort_tstore_ex(ptort_ctx *ctx, const ptort_tile *src, const ptort_view *dst, int atomic_add)
{
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, "tstore", "src", src)))
        return st;
    if (!dst)
        return ptort_fail(ctx, PTORT_E_ARG, "tstore: missing view");
    bool cast = src->dtype != dst->dtype;
    if (cast && !(src->loc == PTORT_ACC && src->dtype == PTORT_F32 &&
                  (dst->dtype == PTORT_F16 || dst->dtype == PTORT_BF16) && !atomic_add))
        return ptort_fail(ctx, PTORT_E_DTYPE, "tstore: expects the view to have the tile's element type (or an f16/bf16 "
                          "view of an acc f32 tile, without atomic add), but got %s and %s",
                          ptort_dtype_name(dst->dtype), ptort_dtype_name(src->dtype));
    if (atomic_add && !cast && src->dtype != PTORT_F32 && src->dtype != PTORT_I32 && src->dtype != PTORT_U32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "tstore: atomic add takes f32, i32 or u32 elements, but got %s",
                          ptort_dtype_name(src->dtype));
    return store_elements(ctx, src, dst, atomic_add, NULL);
}

/* tstore of an acc tile through the fixpipe's relu / scalar pre-quantization (docs/numerics.md
 * 8.6): each valid element converted by moves_fix_one into the view's element type. */
ptort_status ptort_tstore_fix(ptort_ctx *ctx, const ptort_tile *src, const ptort_view *dst, int relu, int quant,
                              int64_t pre_quant)
{
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, "tstore", "src", src)))
        return st;
    if (!dst)
        return ptort_fail(ctx, PTORT_E_ARG, "tstore: missing view");
    if (src->loc != PTORT_ACC)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "tstore: relu and preQuantScalar need an acc src, but got %s",
                          ptort_loc_name(src->loc));
    if (!moves_fix_pair(src->dtype, dst->dtype, quant))
        return ptort_fail(ctx, PTORT_E_DTYPE, "tstore: the fixpipe's %s of %s into %s is not computed",
                          quant ? "scalar quantization" : "relu", ptort_dtype_name(src->dtype),
                          ptort_dtype_name(dst->dtype));
    FixStages fs = {relu, quant, (uint64_t)pre_quant};
    return store_elements(ctx, src, dst, 0, &fs);
}
