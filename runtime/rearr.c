/* rearr.c - the rearrangement ops (docs/vector-ops.md, "Rearrangement"): tgather (index
 * and mask-pattern forms), tgatherb, tfillpad, and the arg reductions (trowargmax ...
 * tcolargmin). They move element bits or compare them and compute nothing, so one portable
 * loop over raw 1-, 2- and 4-byte elements serves every element type; the numerics are
 * where an element comes from, what fills the places no source element reaches, and which
 * index a comparison picks. */
#include "internal.h"

/* ---- tgather (index form) -------------------------------------------------------------
 * dst[i][j] = the element of src at flat element index indices[i][j], the index read as an
 * unsigned 16- or 32-bit number (the NPU scales it to a byte offset from src's first
 * element: vgather on A2/A3, vgather2 on A5, both with unsigned index vectors). An index at
 * or past src's rows * cols gives 0 (pto-isa's CPU simulator; on the NPU it reads whatever
 * lies there). */
static int gather_elem_ok(ptort_ctx *ctx, ptort_dtype dt)
{
    switch (dt) {
    case PTORT_I16: case PTORT_U16: case PTORT_I32: case PTORT_U32: case PTORT_F16: case PTORT_F32:
        return 1;
    case PTORT_I8: case PTORT_U8: case PTORT_F8E4M3FN: case PTORT_F8E5M2:
        return ctx->arch == PTORT_A5 ? 1 : -1;
    default:
        return 0;
    }
}

ptort_status ptort_tgather(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *indices,
                           const ptort_tile *tmp, const ptort_tile *dst)
{
    static const char op[] = "tgather";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = ptort_check_operand(ctx, op, "indices", indices)) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)) || (tmp && (st = ptort_check_operand(ctx, op, "tmp", tmp))))
        return st;
    if (src->loc != PTORT_VEC || indices->loc != PTORT_VEC || dst->loc != PTORT_VEC ||
        !tile_is_row_major(src) || !tile_is_row_major(indices) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects row-major none_box vec tiles", op);
    if (src->dtype != dst->dtype)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src and dst of one element type, but got %s and %s", op,
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    int ok = gather_elem_ok(ctx, src->dtype);
    if (ok <= 0)
        return ptort_fail(ctx, ok < 0 ? PTORT_E_ARCH : PTORT_E_DTYPE, "%s: element type %s is not supported%s", op,
                          ptort_dtype_name(src->dtype), ok < 0 ? " before a5" : "");
    int isz = ptort_dtype_size(indices->dtype);
    int int_idx = indices->dtype == PTORT_I32 || indices->dtype == PTORT_U32 || indices->dtype == PTORT_I16 ||
                  indices->dtype == PTORT_U16;
    if (!int_idx || (isz == 2 && ctx->arch != PTORT_A5))
        return ptort_fail(ctx, int_idx ? PTORT_E_ARCH : PTORT_E_DTYPE, "%s: index element type %s is not supported%s",
                          op, ptort_dtype_name(indices->dtype), int_idx ? " before a5" : "");
    int64_t rows = dst->valid_rows, cols = dst->valid_cols;
    if (indices->valid_rows < rows || indices->valid_cols < cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects indices valid_shape to cover dst's [%lld, %lld], but got "
                          "[%lld, %lld]", op, (long long)rows, (long long)cols, (long long)indices->valid_rows,
                          (long long)indices->valid_cols);
    int esz = ptort_dtype_size(src->dtype);
    uint64_t limit = (uint64_t)src->rows * (uint64_t)src->cols;
    const uint8_t *sb = tile_base(ctx, src), *ib = tile_base(ctx, indices);
    /* gather into scratch first: dst may share bytes with src or indices */
    uint8_t *out = ptort_scratch(ctx, (size_t)(rows * cols * esz) + 1);
    if (!out)
        return PTORT_E_NOMEM;
    for (int64_t r = 0; r < rows; r++) {
        const uint8_t *irow = ib + r * tile_row_stride(indices) * isz;
        for (int64_t c = 0; c < cols; c++) {
            uint64_t k = load_elem(irow, isz, c);
            /* flat index k is (k / cols, k % cols) of src; with a row-plus-one stride the
             * flat position and the element differ, so go through (row, col) */
            uint32_t v = 0;
            if (k < limit)
                v = load_elem(sb + (int64_t)(k / (uint64_t)src->cols) * tile_row_stride(src) * esz, esz,
                              (int64_t)(k % (uint64_t)src->cols));
            store_elem(out, esz, r * cols + c, v);
        }
    }
    uint8_t *db = tile_base(ctx, dst);
    for (int64_t r = 0; r < rows; r++)
        memcpy(db + r * tile_row_stride(dst) * esz, out + r * cols * esz, (size_t)(cols * esz));
    return PTORT_OK;
}

/* ---- tgather (mask-pattern form) -------------------------------------------------------
 * The pattern selects positions k of a row (axis row: columns) or of the rows (axis col):
 * P1111 all, P0101 the even k, P1010 the odd k, P0001 / P0010 / P0100 / P1000 those with
 * k % 4 = 0 / 1 / 2 / 3 (pto-isa's MaskSelect). Row axis: the selected elements of src's
 * valid rows, in row order, fill dst's storage from its first element on (a dense run: the
 * verifier asks for dst's valid cols = its cols); col axis: the selected rows of src's
 * valid region become dst's rows 0, 1, ... */
static int mask_select(ptort_mask_pattern pat, int64_t k)
{
    switch (pat) {
    case PTORT_MASK_P0101: return k % 2 == 0;
    case PTORT_MASK_P1010: return k % 2 == 1;
    case PTORT_MASK_P0001: return k % 4 == 0;
    case PTORT_MASK_P0010: return k % 4 == 1;
    case PTORT_MASK_P0100: return k % 4 == 2;
    case PTORT_MASK_P1000: return k % 4 == 3;
    default: return 1;
    }
}

static int64_t mask_count(ptort_mask_pattern pat, int64_t n)
{
    int64_t c = 0;
    for (int64_t k = 0; k < n; k++)
        c += mask_select(pat, k);
    return c;
}

ptort_status ptort_tgather_mask(ptort_ctx *ctx, ptort_mask_pattern pat, int col_axis, const ptort_tile *src,
                                const ptort_tile *dst)
{
    static const char op[] = "tgather";
    if (!ctx)
        return PTORT_E_ARG;
    if (pat < PTORT_MASK_P0101 || pat > PTORT_MASK_P1111)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: mask pattern %d is out of range", op, (int)pat);
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if (src->loc != PTORT_VEC || dst->loc != PTORT_VEC || !tile_is_row_major(src) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects row-major none_box vec tiles", op);
    int esz = ptort_dtype_size(src->dtype);
    if (esz != ptort_dtype_size(dst->dtype))
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src and dst elements of one size, but got %s and %s", op,
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    if (src->dtype == PTORT_F4E2M1X2 || src->dtype == PTORT_F8E8M0FNU || dst->dtype == PTORT_F4E2M1X2 ||
        dst->dtype == PTORT_F8E8M0FNU)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: element type %s is not supported", op,
                          ptort_dtype_name(src->dtype));
    if (esz == 1 && ctx->arch != PTORT_A5)
        return ptort_fail(ctx, PTORT_E_ARCH, "%s: 1-byte elements (%s) need arch a5", op, ptort_dtype_name(src->dtype));
    int64_t vr = src->valid_rows, vc = src->valid_cols;
    const uint8_t *sb = tile_base(ctx, src);
    int64_t sstride = tile_row_stride(src), dstride = tile_row_stride(dst);
    if (!col_axis) {
        int64_t n = vr * mask_count(pat, vc);
        if (n > dst->rows * dstride)
            return ptort_fail(ctx, PTORT_E_SHAPE, "%s: %lld selected elements do not fit dst's %lld", op,
                              (long long)n, (long long)(dst->rows * dstride));
        uint8_t *out = ptort_scratch(ctx, (size_t)(n * esz) + 1);
        if (!out)
            return PTORT_E_NOMEM;
        int64_t k = 0;
        for (int64_t r = 0; r < vr; r++)
            for (int64_t c = 0; c < vc; c++)
                if (mask_select(pat, c))
                    store_elem(out, esz, k++, load_elem(sb + r * sstride * esz, esz, c));
        memcpy(tile_base(ctx, dst), out, (size_t)(n * esz));
        return PTORT_OK;
    }
    int64_t n = mask_count(pat, vr);
    if (n > dst->rows || vc > dst->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: %lld selected rows of %lld columns do not fit dst [%lld, %lld]",
                          op, (long long)n, (long long)vc, (long long)dst->rows, (long long)dst->cols);
    uint8_t *out = ptort_scratch(ctx, (size_t)(n * vc * esz) + 1);
    if (!out)
        return PTORT_E_NOMEM;
    int64_t k = 0;
    for (int64_t r = 0; r < vr; r++)
        if (mask_select(pat, r))
            memcpy(out + (k++) * vc * esz, sb + r * sstride * esz, (size_t)(vc * esz));
    uint8_t *db = tile_base(ctx, dst);
    for (int64_t r = 0; r < n; r++)
        memcpy(db + r * dstride * esz, out + r * vc * esz, (size_t)(vc * esz));
    return PTORT_OK;
}

/* ---- tgatherb ------------------------------------------------------------------------------
 * The NPU's block gather (vgatherb): block b (32 bytes) of dst row i is the 32 bytes of src
 * at byte offset offsets[i][b] from src's first byte; a block reaching past src's bytes
 * leaves dst's block as it was (pto-isa's CPU simulator). dst's valid cols times the element
 * size is a multiple of 32 bytes. */
ptort_status ptort_tgatherb(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *offsets,
                            const ptort_tile *dst)
{
    static const char op[] = "tgatherb";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = ptort_check_operand(ctx, op, "offsets", offsets)) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if (src->loc != PTORT_VEC || offsets->loc != PTORT_VEC || dst->loc != PTORT_VEC || !tile_is_row_major(dst) ||
        !tile_is_row_major(offsets))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects vec tiles, offsets and dst row-major none_box", op);
    if (offsets->dtype != PTORT_I32 && offsets->dtype != PTORT_U32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects 32-bit integer offsets, but got %s", op,
                          ptort_dtype_name(offsets->dtype));
    int esz = ptort_dtype_size(dst->dtype);
    if (esz != 1 && esz != 2 && esz != 4)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: element type %s is not supported", op, ptort_dtype_name(dst->dtype));
    int64_t vr = dst->valid_rows, bytes = dst->valid_cols * esz, nb = bytes / 32;
    if (bytes % 32)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects dst's valid row to be whole 32-byte blocks, but it has %lld "
                          "bytes", op, (long long)bytes);
    if (offsets->rows < vr || offsets->cols < nb)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects offsets [%lld, %lld] to have a block offset for each of "
                          "dst's [%lld, %lld] blocks", op, (long long)offsets->rows, (long long)offsets->cols,
                          (long long)vr, (long long)nb);
    uint64_t limit = (uint64_t)ptort_tile_bytes(src);
    const uint8_t *sb = tile_base(ctx, src), *ob = tile_base(ctx, offsets);
    uint8_t *db = tile_base(ctx, dst);
    int64_t drow = tile_row_stride(dst) * esz, orow = tile_row_stride(offsets) * 4;
    uint8_t *out = ptort_scratch(ctx, (size_t)(vr * bytes) + 1);
    if (!out)
        return PTORT_E_NOMEM;
    for (int64_t r = 0; r < vr; r++)
        for (int64_t b = 0; b < nb; b++) {
            uint64_t off = load_elem(ob + r * orow, 4, b);
            memcpy(out + r * bytes + b * 32, off + 32 <= limit ? sb + off : db + r * drow + b * 32, 32);
        }
    for (int64_t r = 0; r < vr; r++)
        memcpy(db + r * drow, out + r * bytes, (size_t)bytes);
    return PTORT_OK;
}

/* ---- tfillpad ------------------------------------------------------------------------------
 * Every element (i, j) of dst's physical shape becomes src[i][j] when i < src's valid rows
 * and j < src's valid cols, else the pad value of dst's pad (pto-isa's PadValueMap: zero;
 * max: +inf for the floats, the largest integer; min: -inf, the lowest integer, 0 for the
 * unsigned; 0 for every 8-bit float whatever the pad). dst with an empty valid region is
 * left alone. Any layout: element offsets through the separable layout tables. */
static uint32_t fill_value(const ptort_tile *dst)
{
    int mx = dst->pad == PTORT_PAD_MAX;
    if (dst->pad == PTORT_PAD_ZERO)
        return 0;
    switch (dst->dtype) {
    case PTORT_F32: return mx ? 0x7F800000u : 0xFF800000u;
    case PTORT_F16: return mx ? 0x7C00u : 0xFC00u;
    case PTORT_BF16: return mx ? 0x7F80u : 0xFF80u;
    case PTORT_I32: return mx ? 0x7FFFFFFFu : 0x80000000u;
    case PTORT_I16: return mx ? 0x7FFFu : 0x8000u;
    case PTORT_I8: return mx ? 0x7Fu : 0x80u;
    case PTORT_U32: return mx ? 0xFFFFFFFFu : 0;
    case PTORT_U16: return mx ? 0xFFFFu : 0;
    case PTORT_U8: return mx ? 0xFFu : 0;
    default: return 0;
    }
}

ptort_status ptort_tfillpad(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst)
{
    static const char op[] = "tfillpad";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    int esz = ptort_dtype_size(src->dtype);
    if (esz != ptort_dtype_size(dst->dtype))
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src and dst elements of one size, but got %s and %s", op,
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    if (dst->pad == PTORT_PAD_NULL)
        return ptort_fail(ctx, PTORT_E_DESC, "%s: expects dst pad to be zero, max or min, not null", op);
    if (dst->rows < src->rows || dst->cols < src->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects dst [%lld, %lld] to be at least src's [%lld, %lld]", op,
                          (long long)dst->rows, (long long)dst->cols, (long long)src->rows, (long long)src->cols);
    if (dst->valid_rows == 0 || dst->valid_cols == 0)
        return PTORT_OK;
    int64_t vr = src->valid_rows, vc = src->valid_cols;
    Layout sl, dl;
    layout_of(src, &sl);
    layout_of(dst, &dl);
    /* src's valid elements first, in scratch: src and dst may share bytes (the in-place form) */
    uint8_t *keep = ptort_scratch(ctx, (size_t)(vr * vc * esz) + (size_t)(dst->cols + vc) * sizeof(int64_t) + 8);
    if (!keep)
        return PTORT_E_NOMEM;
    int64_t *dcol = (int64_t *)(keep + ((size_t)(vr * vc * esz) + 7) / 8 * 8);
    const uint8_t *sb = tile_base(ctx, src);
    for (int64_t c = 0; c < vc; c++)
        dcol[c] = layout_col_off(&sl, c);
    for (int64_t r = 0; r < vr; r++) {
        int64_t ro = layout_row_off(&sl, r);
        for (int64_t c = 0; c < vc; c++)
            store_elem(keep, esz, r * vc + c, load_elem(sb, esz, ro + dcol[c]));
    }
    uint32_t pv = fill_value(dst);
    uint8_t *db = tile_base(ctx, dst);
    for (int64_t c = 0; c < dst->cols; c++)
        dcol[c] = layout_col_off(&dl, c);
    for (int64_t r = 0; r < dst->rows; r++) {
        int64_t ro = layout_row_off(&dl, r);
        for (int64_t c = 0; c < dst->cols; c++)
            store_elem(db, esz, ro + dcol[c], r < vr && c < vc ? load_elem(keep, esz, r * vc + c) : pv);
    }
    return PTORT_OK;
}

/* ---- trowargmax trowargmin tcolargmax tcolargmin ----------------------------------------
 * The index of the largest (smallest) element of each row (column) of src's valid region,
 * as a 32-bit integer: the first one found scanning from index 0, replaced only by an element
 * strictly greater (less) -- pto-isa's CPU simulator; the ISA pages leave ties and NaN open.
 * So ties keep the lowest index, -0 and +0 tie, and a NaN is never chosen unless it stands
 * at index 0, where nothing compares greater (less) than it. Integers compare by their
 * signedness. */
static double arg_key(ptort_dtype dt, uint32_t b)
{
    switch (dt) {
    case PTORT_F32: return u2f(b);
    case PTORT_F16: return u2f(f16_bits_to_f32_bits((uint16_t)b));
    case PTORT_BF16: return u2f(b << 16);
    case PTORT_I8: return (int8_t)b;
    case PTORT_I16: return (int16_t)b;
    case PTORT_I32: return (int32_t)b;
    default: return b; /* the unsigned types */
    }
}

static ptort_status arg_checks(ptort_ctx *ctx, const char *op, int col, const ptort_tile *src,
                               const ptort_tile *tmp, const ptort_tile *dst)
{
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = ptort_check_operand(ctx, op, "dst", dst)) ||
        (tmp && (st = ptort_check_operand(ctx, op, "tmp", tmp))))
        return st;
    if (src->loc != PTORT_VEC || dst->loc != PTORT_VEC || !tile_is_row_major(src) || dst->slayout != PTORT_SL_NONE_BOX ||
        (col && dst->blayout != PTORT_BL_ROW_MAJOR))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects a row-major none_box vec src and a none_box vec dst%s", op,
                          col ? " (row-major)" : "");
    int ok;
    switch (src->dtype) {
    case PTORT_I16: case PTORT_U16: case PTORT_I32: case PTORT_U32: case PTORT_F16: case PTORT_F32: ok = 1; break;
    case PTORT_I8: case PTORT_U8: case PTORT_BF16: ok = col; break;
    default: ok = 0;
    }
    if (!ok)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: element type %s is not supported", op, ptort_dtype_name(src->dtype));
    if (dst->dtype != PTORT_I32 && dst->dtype != PTORT_U32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects an i32 or ui32 dst, but got %s", op,
                          ptort_dtype_name(dst->dtype));
    if (src->valid_rows == 0 || src->valid_cols == 0)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects a non-empty src valid_shape", op);
    int64_t want_r = col ? 1 : src->valid_rows, want_c = col ? src->valid_cols : 1;
    if (dst->valid_rows != want_r || dst->valid_cols != want_c)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects dst valid_shape [%lld, %lld], but got [%lld, %lld]", op,
                          (long long)want_r, (long long)want_c, (long long)dst->valid_rows,
                          (long long)dst->valid_cols);
    return PTORT_OK;
}

/* One line of N elements STEP elements apart from P: its arg max (min). */
static uint32_t arg_line(const uint8_t *p, int esz, int64_t step, int64_t n, ptort_dtype dt, int is_min)
{
    double best = arg_key(dt, load_elem(p, esz, 0));
    uint32_t at = 0;
    for (int64_t k = 1; k < n; k++) {
        double x = arg_key(dt, load_elem(p, esz, k * step));
        if (is_min ? x < best : x > best) {
            best = x;
            at = (uint32_t)k;
        }
    }
    return at;
}

static ptort_status arg_reduce(ptort_ctx *ctx, ptort_vop op, int col, const ptort_tile *src,
                               const ptort_tile *tmp, const ptort_tile *dst)
{
    static const char *const names[2][2] = {{"trowargmax", "trowargmin"}, {"tcolargmax", "tcolargmin"}};
    if (!ctx)
        return PTORT_E_ARG;
    if (op != PTORT_VOP_MAX && op != PTORT_VOP_MIN)
        return ptort_fail(ctx, PTORT_E_ARG, "arg reduction op %d is not max or min", (int)op);
    int is_min = op == PTORT_VOP_MIN;
    const char *name = names[col][is_min];
    ptort_status st = arg_checks(ctx, name, col, src, tmp, dst);
    if (st)
        return st;
    int esz = ptort_dtype_size(src->dtype);
    const uint8_t *sb = tile_base(ctx, src);
    uint8_t *db = tile_base(ctx, dst);
    int64_t sstride = tile_row_stride(src);
    if (col) {
        for (int64_t c = 0; c < src->valid_cols; c++)
            store_elem(db, 4, c, arg_line(sb + c * esz, esz, sstride, src->valid_rows, src->dtype, is_min));
        return PTORT_OK;
    }
    /* dst is [R, 1] in either none_box layout: row r at r * (row-major ? row stride : 1) */
    int64_t step = dst->blayout == PTORT_BL_ROW_MAJOR ? tile_row_stride(dst) : 1;
    for (int64_t r = 0; r < src->valid_rows; r++)
        store_elem(db, 4, r * step, arg_line(sb + r * sstride * esz, esz, 1, src->valid_cols, src->dtype, is_min));
    return PTORT_OK;
}

ptort_status ptort_vrowarg(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src, const ptort_tile *tmp,
                           const ptort_tile *dst)
{
    return arg_reduce(ctx, op, 0, src, tmp, dst);
}

ptort_status ptort_vcolarg(ptort_ctx *ctx, ptort_vop op, const ptort_tile *src, const ptort_tile *tmp,
                           const ptort_tile *dst)
{
    return arg_reduce(ctx, op, 1, src, tmp, dst);
}

/* ---- tsort32 ----------------------------------------------------------------------------------
 * Each row of src's valid region in blocks of 32 columns (the last may be shorter): each block's
 * (value, idx) pairs sorted by value descending, equal values by idx ascending (pto-isa's CPU
 * simulator; the ISA page: "ties broken by smaller index first"), -0 equal to +0, a NaN above
 * every number (neither source says; ptoas's choice). Pair k of a row goes to bytes
 * [8k, 8k + 8) of dst's row: the value (an f16 followed by two zero bytes) and the u32 index
 * (the NPU's layout; pto-isa's simulator places f16 blocks after the first at another offset).
 * A short last block writes its n pairs only (the simulator; the NPU pads it with -inf
 * through tmp and writes 32). idx has src's valid shape, or one row used for every row. */
typedef struct {
    double key;
    int nan;
    uint32_t bits, idx;
} SortPair;

static int sort_before(const SortPair *a, const SortPair *b)
{
    if (a->nan != b->nan)
        return a->nan;
    if (!a->nan && a->key != b->key)
        return a->key > b->key;
    return a->idx < b->idx;
}

ptort_status ptort_tsort32(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *idx, const ptort_tile *tmp,
                           const ptort_tile *dst)
{
    static const char op[] = "tsort32";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = ptort_check_operand(ctx, op, "idx", idx)) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)) || (tmp && (st = ptort_check_operand(ctx, op, "tmp", tmp))))
        return st;
    if (src->loc != PTORT_VEC || idx->loc != PTORT_VEC || dst->loc != PTORT_VEC || !tile_is_row_major(src) ||
        !tile_is_row_major(idx) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects row-major none_box vec tiles", op);
    if ((src->dtype != PTORT_F32 && src->dtype != PTORT_F16) || dst->dtype != src->dtype)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects f16 or f32 src and dst of one type, but got %s and %s", op,
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    if (idx->dtype != PTORT_U32 && idx->dtype != PTORT_I32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects 32-bit integer indices, but got %s", op,
                          ptort_dtype_name(idx->dtype));
    int64_t vr = src->valid_rows, vc = src->valid_cols;
    int bcast = idx->valid_rows == 1 && vr > 1;
    if ((!bcast && idx->valid_rows != vr) || idx->valid_cols != vc)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects idx valid_shape [%lld, %lld] (or one row), but got "
                          "[%lld, %lld]", op, (long long)vr, (long long)vc, (long long)idx->valid_rows,
                          (long long)idx->valid_cols);
    int esz = ptort_dtype_size(src->dtype);
    if (dst->rows < vr || dst->cols * esz < 8 * vc)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects dst to hold %lld rows of %lld bytes, but it is [%lld, %lld]",
                          op, (long long)vr, (long long)(8 * vc), (long long)dst->rows, (long long)dst->cols);
    const uint8_t *sb = tile_base(ctx, src), *ib = tile_base(ctx, idx);
    uint8_t *db = tile_base(ctx, dst);
    /* sorted rows in scratch first: dst may share bytes with src or idx */
    uint8_t *out = ptort_scratch(ctx, (size_t)(vr * vc * 8) + 1);
    if (!out)
        return PTORT_E_NOMEM;
    for (int64_t r = 0; r < vr; r++) {
        const uint8_t *srow = sb + r * tile_row_stride(src) * esz;
        const uint8_t *irow = ib + (bcast ? 0 : r) * tile_row_stride(idx) * 4;
        for (int64_t j = 0; j < vc; j += 32) {
            SortPair blk[32];
            int n = (int)(vc - j < 32 ? vc - j : 32);
            for (int k = 0; k < n; k++) {
                uint32_t b = load_elem(srow, esz, j + k);
                float f = esz == 4 ? u2f(b) : u2f(f16_bits_to_f32_bits((uint16_t)b));
                SortPair p = {f, f != f, b, load_elem(irow, 4, j + k)};
                int at = k; /* insertion: stable for equal keys and indices */
                while (at > 0 && sort_before(&p, &blk[at - 1])) {
                    blk[at] = blk[at - 1];
                    at--;
                }
                blk[at] = p;
            }
            uint8_t *o = out + (r * vc + j) * 8;
            for (int k = 0; k < n; k++) {
                uint32_t v = blk[k].bits; /* an f16 value in the low half, zeros above it */
                memcpy(o + 8 * k, &v, 4);
                memcpy(o + 8 * k + 4, &blk[k].idx, 4);
            }
        }
    }
    for (int64_t r = 0; r < vr; r++)
        memcpy(db + r * tile_row_stride(dst) * esz, out + r * vc * 8, (size_t)(vc * 8));
    return PTORT_OK;
}

/* ---- thistogram (A5) ---------------------------------------------------------------------------
 * Row r of src's valid region counts the elements whose byte BYTE has each of the 256 values,
 * over those that pass the filter, and writes the running sum: dst bin b = how many passed
 * with byte BYTE <= b (pto-isa's CPU simulator; A5's chistv2 is a cumulative histogram). u16
 * src: BYTE 1 counts the high byte of every element; BYTE 0 the low byte of those whose high
 * byte is idx[r] (a DN [R, 1] u8 tile). u32 src: BYTE 3 counts byte 3 of every element; BYTE
 * 2, 1, 0 count that byte of the elements whose bytes 3, 2, 1 (as far as above BYTE) are
 * idx[0][0], idx[1][0], idx[2][0]. Row r's bins are dst elements [256 r, 256 r + 256) from its
 * first (the A5 kernel stores them so whatever dst's width); the idx rows are the tile's rows. */
ptort_status ptort_thistogram(ptort_ctx *ctx, int byte, const ptort_tile *src, const ptort_tile *idx,
                              const ptort_tile *dst)
{
    static const char op[] = "thistogram";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = ptort_check_operand(ctx, op, "idx", idx)) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if (ctx->arch != PTORT_A5)
        return ptort_fail(ctx, PTORT_E_ARCH, "%s: needs arch a5", op);
    int u16 = src->dtype == PTORT_U16 || src->dtype == PTORT_I16;
    if ((!u16 && src->dtype != PTORT_U32 && src->dtype != PTORT_I32) || (idx->dtype != PTORT_U8 && idx->dtype != PTORT_I8) ||
        (dst->dtype != PTORT_U32 && dst->dtype != PTORT_I32))
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects a 16- or 32-bit src, an 8-bit idx and a 32-bit dst", op);
    if (byte < 0 || byte > (u16 ? 1 : 3))
        return ptort_fail(ctx, PTORT_E_ARG, "%s: byte %d is out of range", op, byte);
    if (!tile_is_row_major(src) || !tile_is_row_major(dst) || src->loc != PTORT_VEC || idx->loc != PTORT_VEC ||
        dst->loc != PTORT_VEC || idx->slayout != PTORT_SL_NONE_BOX)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects row-major none_box vec src and dst, a none_box vec idx", op);
    int64_t vr = src->valid_rows, vc = src->valid_cols;
    int depth = u16 ? (byte == 0) : 3 - byte;
    if ((u16 && depth && idx->rows < vr) || (!u16 && idx->rows < depth) || dst->rows * dst->cols < 256 * vr)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: idx or dst is too small for src's %lld rows", op, (long long)vr);
    Layout il;
    layout_of(idx, &il);
    const uint8_t *sb = tile_base(ctx, src), *ib = tile_base(ctx, idx);
    uint8_t *db = tile_base(ctx, dst);
    uint8_t filt[3] = {0, 0, 0}; /* u32: the wanted bytes 3, 2, 1 */
    for (int k = 0; !u16 && k < depth; k++)
        filt[k] = ib[layout_row_off(&il, k) + layout_col_off(&il, 0)];
    for (int64_t r = 0; r < vr; r++) {
        uint32_t counts[256] = {0};
        const uint8_t *row = sb + r * tile_row_stride(src) * (u16 ? 2 : 4);
        uint8_t want = u16 && depth ? ib[layout_row_off(&il, r) + layout_col_off(&il, 0)] : 0;
        for (int64_t c = 0; c < vc; c++) {
            uint32_t x = load_elem(row, u16 ? 2 : 4, c);
            int pass = 1;
            if (u16)
                pass = !depth || (x >> 8) == want;
            for (int k = 0; !u16 && k < depth; k++)
                pass &= ((x >> (8 * (3 - k))) & 0xFFu) == filt[k];
            if (pass)
                counts[(x >> (8 * byte)) & 0xFFu]++;
        }
        uint32_t run = 0;
        for (int b = 0; b < 256; b++) {
            run += counts[b];
            store_elem(db, 4, 256 * r + b, run);
        }
    }
    return PTORT_OK;
}

/* ---- tconcat ---------------------------------------------------------------------------------
 * Row i of dst's valid region: src0's valid columns of row i, then src1's. The three share an
 * element type and the valid rows, dst's valid columns are the sum (pto-isa's CPU simulator
 * asserts both); row-major none_box tiles. */
ptort_status ptort_tconcat(ptort_ctx *ctx, const ptort_tile *src0, const ptort_tile *src1, const ptort_tile *dst)
{
    static const char op[] = "tconcat";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src0", src0)) || (st = ptort_check_operand(ctx, op, "src1", src1)) ||
        (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if (src0->loc != PTORT_VEC || src1->loc != PTORT_VEC || dst->loc != PTORT_VEC || !tile_is_row_major(src0) ||
        !tile_is_row_major(src1) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects row-major none_box vec tiles", op);
    if (src0->dtype != dst->dtype || src1->dtype != dst->dtype || ptort_dtype_size(dst->dtype) > 4 ||
        dst->dtype == PTORT_F4E2M1X2)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src0, src1 and dst of one element type", op);
    int64_t vr = dst->valid_rows, c0 = src0->valid_cols, c1 = src1->valid_cols;
    if (src0->valid_rows != vr || src1->valid_rows != vr || dst->valid_cols != c0 + c1)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects dst valid_shape [%lld, %lld] (src0 and src1 of %lld rows), "
                          "but got [%lld, %lld]", op, (long long)src0->valid_rows, (long long)(c0 + c1),
                          (long long)src0->valid_rows, (long long)vr, (long long)dst->valid_cols);
    int esz = ptort_dtype_size(dst->dtype);
    uint8_t *out = ptort_scratch(ctx, (size_t)(vr * (c0 + c1) * esz) + 1);
    if (!out)
        return PTORT_E_NOMEM;
    const uint8_t *a = tile_base(ctx, src0), *b = tile_base(ctx, src1);
    for (int64_t r = 0; r < vr; r++) {
        memcpy(out + r * (c0 + c1) * esz, a + r * tile_row_stride(src0) * esz, (size_t)(c0 * esz));
        memcpy(out + (r * (c0 + c1) + c0) * esz, b + r * tile_row_stride(src1) * esz, (size_t)(c1 * esz));
    }
    uint8_t *d = tile_base(ctx, dst);
    for (int64_t r = 0; r < vr; r++)
        memcpy(d + r * tile_row_stride(dst) * esz, out + r * (c0 + c1) * esz, (size_t)((c0 + c1) * esz));
    return PTORT_OK;
}

/* ---- mgather / mscatter ------------------------------------------------------------------
 * The table is a partition view of global memory. Row mode addresses MEM's rows (its
 * second-to-last dimension, stride[rank-2]) and walks a row with stride[rank-1]; elem mode
 * counts MEM's elements flat from its first one, as pto-isa's kernels do (the table is
 * contiguous there). Indices are u32 (the NPU kernels' cast); docs/vector-ops.md. */

/* The capacity an index is checked against: MEM's rows (row mode) or all its elements. */
static int64_t m_capacity(const ptort_view *mem, int coalesce)
{
    if (coalesce == PTORT_COALESCE_ROW)
        return mem->shape[mem->rank - 2];
    int64_t n = 1;
    for (int k = 0; k < mem->rank; k++)
        n *= mem->shape[k];
    return n;
}

/* An index remapped by the OOB mode: *skip when it selects nothing (ZERO, SKIP); -1 when it
 * is out of the table under UNDEFINED. */
static int64_t m_remap(uint32_t raw, int64_t cap, int oob, int *skip)
{
    int64_t k = raw;
    *skip = 0;
    if (k < cap)
        return k;
    switch (oob) {
    case PTORT_OOB_CLAMP: return cap - 1;
    case PTORT_OOB_WRAP: return k % cap;
    case PTORT_OOB_ZERO:
    case PTORT_OOB_SKIP: *skip = 1; return 0;
    default: return -1;
    }
}

/* The element offset in MEM's buffer of table position K (elem) or of row K, column J (row);
 * -1 when it lies outside the host buffer. */
static int64_t m_offset(const ptort_view *mem, int coalesce, int64_t k, int64_t j)
{
    int64_t off = coalesce == PTORT_COALESCE_ROW
                      ? mem->offset + k * mem->stride[mem->rank - 2] + j * mem->stride[mem->rank - 1]
                      : mem->offset + k;
    int64_t n = (int64_t)(mem->size / (size_t)ptort_dtype_size(mem->dtype));
    return off >= 0 && off < n ? off : -1;
}

/* The checks mgather and mscatter share: MEM against the data tile T and the modes. */
static ptort_status m_check(ptort_ctx *ctx, const char *op, int coalesce, int oob, const ptort_view *mem,
                            const ptort_tile *t)
{
    if (!mem || !mem->base || mem->rank < 2 || mem->rank > PTORT_VIEW_MAX_RANK)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: expects a table view of rank 2 to 5", op);
    if (coalesce != PTORT_COALESCE_ROW && coalesce != PTORT_COALESCE_ELEM)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: unknown coalesce mode %d", op, coalesce);
    if (oob < PTORT_OOB_UNDEFINED || oob > PTORT_OOB_SKIP)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: unknown out-of-bounds mode %d", op, oob);
    if (mem->dtype != t->dtype || ptort_dtype_size(t->dtype) > 4 || t->dtype == PTORT_F4E2M1X2)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects the table to have the tile's element type (8, 16 or 32 "
                          "bits), but got %s and %s", op, ptort_dtype_name(mem->dtype), ptort_dtype_name(t->dtype));
    if (coalesce == PTORT_COALESCE_ROW && t->valid_cols > mem->shape[mem->rank - 1])
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects the table's rows to hold the tile's %lld valid columns, "
                          "but they have %lld", op, (long long)t->valid_cols, (long long)mem->shape[mem->rank - 1]);
    return PTORT_OK;
}

/* The u32 index of tile element (I, J) (elem) or of row I (row: element I of idx's storage). */
static uint32_t m_index(ptort_ctx *ctx, const ptort_tile *idx, const Layout *l, int coalesce, int64_t i, int64_t j)
{
    const uint8_t *b = tile_base(ctx, idx);
    return coalesce == PTORT_COALESCE_ROW ? load_elem(b, 4, i) : load_elem(b, 4, layout_row_off(l, i) + layout_col_off(l, j));
}

static ptort_status m_idx_check(ptort_ctx *ctx, const char *op, int coalesce, const ptort_tile *idx,
                                const ptort_tile *t)
{
    ptort_status st = ptort_check_operand(ctx, op, "idx", idx);
    if (st)
        return st;
    if (idx->dtype != PTORT_I32 && idx->dtype != PTORT_U32)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects idx of i32 or u32, but got %s", op, ptort_dtype_name(idx->dtype));
    if (idx->slayout != PTORT_SL_NONE_BOX)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects a none_box idx tile", op);
    if (coalesce == PTORT_COALESCE_ROW ? idx->rows * idx->cols < t->valid_rows
                                       : idx->valid_rows < t->valid_rows || idx->valid_cols < t->valid_cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: idx [%lld, %lld] does not cover the %s tile's valid shape [%lld, %lld]",
                          op, (long long)idx->valid_rows, (long long)idx->valid_cols,
                          coalesce == PTORT_COALESCE_ROW ? "rows of the" : "", (long long)t->valid_rows,
                          (long long)t->valid_cols);
    return PTORT_OK;
}

/* Where dst element (I, J) comes from: *from the table offset, -1 for a zero; an error under
 * UNDEFINED or outside the host buffer. */
static ptort_status m_source(ptort_ctx *ctx, const char *op, int coalesce, int oob, const ptort_view *mem,
                             uint32_t raw, int64_t j, int64_t *from)
{
    int skip;
    int64_t k = m_remap(raw, m_capacity(mem, coalesce), oob, &skip);
    if (skip) {
        *from = -1;
        return PTORT_OK;
    }
    *from = k < 0 ? -1 : m_offset(mem, coalesce, k, j);
    if (k < 0 || *from < 0)
        return ptort_fail(ctx, PTORT_E_VIEW, "%s: index %u is outside the table (%lld %s)", op, raw,
                          (long long)m_capacity(mem, coalesce), coalesce == PTORT_COALESCE_ROW ? "rows" : "elements");
    return PTORT_OK;
}

/* The gather of both forms: RAW(i, j) gives the index. Two passes, so that an error leaves
 * dst as it was. */
typedef uint32_t (*m_raw_fn)(ptort_ctx *ctx, const void *src, const Layout *l, int coalesce, int64_t i, int64_t j);

static ptort_status m_gather(ptort_ctx *ctx, const char *op, int coalesce, int oob, const ptort_view *mem,
                             const void *isrc, const Layout *il, m_raw_fn raw, const ptort_tile *dst)
{
    Layout l;
    layout_of(dst, &l);
    int sz = ptort_dtype_size(dst->dtype);
    uint8_t *d = tile_base(ctx, dst);
    const uint8_t *tb = mem->base;
    for (int pass = 0; pass < 2; pass++)
        for (int64_t i = 0; i < dst->valid_rows; i++)
            for (int64_t j = 0; j < dst->valid_cols; j++) {
                int64_t from;
                ptort_status st = m_source(ctx, op, coalesce, oob, mem, raw(ctx, isrc, il, coalesce, i, j), j, &from);
                if (st)
                    return st;
                if (pass)
                    store_elem(d, sz, layout_row_off(&l, i) + layout_col_off(&l, j),
                               from < 0 ? 0 : load_elem(tb, sz, from));
            }
    return PTORT_OK;
}

static uint32_t m_raw_tile(ptort_ctx *ctx, const void *src, const Layout *l, int coalesce, int64_t i, int64_t j)
{
    return m_index(ctx, src, l, coalesce, i, j);
}

/* a view of indices: row mode element i of its first row, elem mode element (i, j) */
static uint32_t m_raw_view(ptort_ctx *ctx, const void *src, const Layout *l, int coalesce, int64_t i, int64_t j)
{
    (void)ctx;
    (void)l;
    const ptort_view *v = src;
    int64_t r = coalesce == PTORT_COALESCE_ROW ? 0 : i, c = coalesce == PTORT_COALESCE_ROW ? i : j;
    return load_elem(v->base, 4, v->offset + r * v->stride[v->rank - 2] + c * v->stride[v->rank - 1]);
}

ptort_status ptort_mgather(ptort_ctx *ctx, int coalesce, int oob, const ptort_view *mem, const ptort_tile *idx,
                           const ptort_tile *dst)
{
    static const char op[] = "mgather";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "dst", dst)) || (st = m_check(ctx, op, coalesce, oob, mem, dst)) ||
        (st = m_idx_check(ctx, op, coalesce, idx, dst)))
        return st;
    if (oob == PTORT_OOB_SKIP)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: skip is not a gather mode", op);
    Layout il;
    layout_of(idx, &il);
    return m_gather(ctx, op, coalesce, oob, mem, idx, &il, m_raw_tile, dst);
}

ptort_status ptort_mgather_gm(ptort_ctx *ctx, int coalesce, int oob, const ptort_view *mem, const ptort_view *idx,
                              const ptort_tile *dst)
{
    static const char op[] = "mgather";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "dst", dst)) || (st = m_check(ctx, op, coalesce, oob, mem, dst)))
        return st;
    if (oob == PTORT_OOB_SKIP)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: skip is not a gather mode", op);
    if (!idx || !idx->base || idx->rank < 2 || idx->rank > PTORT_VIEW_MAX_RANK ||
        (idx->dtype != PTORT_I32 && idx->dtype != PTORT_U32))
        return ptort_fail(ctx, PTORT_E_ARG, "%s: expects an index view of i32 or u32", op);
    /* every index the gather reads lies inside the index view's buffer */
    int64_t rows = coalesce == PTORT_COALESCE_ROW ? 1 : dst->valid_rows;
    int64_t cols = coalesce == PTORT_COALESCE_ROW ? dst->valid_rows : dst->valid_cols;
    int64_t n = (int64_t)(idx->size / 4);
    if (rows > idx->shape[idx->rank - 2] || cols > idx->shape[idx->rank - 1])
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: the index view does not cover the dst's valid shape", op);
    for (int64_t r = 0; r < rows && cols > 0; r++) {
        int64_t a = idx->offset + r * idx->stride[idx->rank - 2], b = a + (cols - 1) * idx->stride[idx->rank - 1];
        if (a < 0 || b < 0 || a >= n || b >= n)
            return ptort_fail(ctx, PTORT_E_VIEW, "%s: the index view reaches outside its buffer", op);
    }
    return m_gather(ctx, op, coalesce, oob, mem, idx, NULL, m_raw_view, dst);
}

/* One scattered element: X (the tile's bits) into the table element at P by the atomic op. */
static void m_combine(uint8_t *p, ptort_dtype dt, int atomic, uint32_t x)
{
    int sz = ptort_dtype_size(dt);
    uint32_t old = load_elem(p, sz, 0), out = x;
    if (atomic == PTORT_ATOMIC_ADD) {
        if (dt == PTORT_F32) {
            float s = u2f(old) + u2f(x);
            out = s != s ? 0x7FC00000u : f2u(s);
        } else if (dt == PTORT_F16) { /* exact in double, then one rounding to f16 (round to odd to f32 first) */
            double s = (double)u2f(f16_bits_to_f32_bits((uint16_t)old)) + (double)u2f(f16_bits_to_f32_bits((uint16_t)x));
            float f = (float)s;
            double as = s < 0 ? -s : s, af = f < 0 ? -(double)f : (double)f;
            if (af != as && !(f2u(f) & 1u)) /* the neighbour on s's side has the odd last bit */
                f = u2f(as > af ? f2u(f) + 1u : f2u(f) - 1u);
            out = s != s ? 0x7E00u : f32_to_f16_bits(f);
        } else {
            out = old + x;
        }
    } else if (atomic == PTORT_ATOMIC_MAX || atomic == PTORT_ATOMIC_MIN) {
        int gt = dt == PTORT_F32 ? u2f(x) > u2f(old) : dt == PTORT_I32 ? (int32_t)x > (int32_t)old : x > old;
        int lt = dt == PTORT_F32 ? u2f(x) < u2f(old) : dt == PTORT_I32 ? (int32_t)x < (int32_t)old : x < old;
        out = (atomic == PTORT_ATOMIC_MAX ? gt : lt) ? x : old;
    }
    store_elem(p, sz, 0, out);
}

ptort_status ptort_mscatter(ptort_ctx *ctx, int coalesce, int atomic, int oob, const ptort_tile *src,
                            const ptort_tile *idx, const ptort_view *mem)
{
    static const char op[] = "mscatter";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = m_check(ctx, op, coalesce, oob, mem, src)) ||
        (st = m_idx_check(ctx, op, coalesce, idx, src)))
        return st;
    if (oob == PTORT_OOB_ZERO)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: zero is not a scatter mode", op);
    int sz = ptort_dtype_size(src->dtype);
    int i32 = src->dtype == PTORT_I32 || src->dtype == PTORT_U32;
    if (atomic < PTORT_ATOMIC_NONE || atomic > PTORT_ATOMIC_MIN ||
        (atomic == PTORT_ATOMIC_ADD && !(i32 || src->dtype == PTORT_F32 || src->dtype == PTORT_F16)) ||
        (atomic > PTORT_ATOMIC_ADD && !(i32 || src->dtype == PTORT_F32)))
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: atomic op %d does not take %s elements", op, atomic,
                          ptort_dtype_name(src->dtype));
    Layout il, sl;
    layout_of(idx, &il);
    layout_of(src, &sl);
    const uint8_t *s = tile_base(ctx, src);
    uint8_t *tb = mem->base;
    for (int pass = 0; pass < 2; pass++)
        for (int64_t i = 0; i < src->valid_rows; i++)
            for (int64_t j = 0; j < src->valid_cols; j++) {
                int64_t to;
                if ((st = m_source(ctx, op, coalesce, oob, mem, m_index(ctx, idx, &il, coalesce, i, j), j, &to)))
                    return st;
                if (pass && to >= 0)
                    m_combine(tb + to * sz, src->dtype, atomic,
                              load_elem(s, sz, layout_row_off(&sl, i) + layout_col_off(&sl, j)));
            }
    return PTORT_OK;
}

/* ---- tscatter -------------------------------------------------------------------------------
 * pto-isa's NPU kernels (A2/A3 and A5): dst's whole storage is zeroed first (InitUBBuffer),
 * then the index form stores src[i][j] at flat element indexes[i][j] of dst, row-major and in
 * order, so that the last of equal indices wins; the mask form places src's columns or rows
 * at the pattern's positions. P1111 is a plain copy (TMOV) that zeroes nothing. */
static ptort_status scatter_tiles(ptort_ctx *ctx, const char *op, const ptort_tile *src, const ptort_tile *dst)
{
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if (src->loc != PTORT_VEC || dst->loc != PTORT_VEC || !tile_is_row_major(src) || !tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects row-major none_box vec tiles", op);
    if (src->dtype != dst->dtype || ptort_dtype_size(src->dtype) > 4 || src->dtype == PTORT_F4E2M1X2)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src and dst of one element type of 1, 2 or 4 bytes, but got "
                          "%s and %s", op, ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    return PTORT_OK;
}

ptort_status ptort_tscatter(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *indexes, const ptort_tile *dst)
{
    static const char op[] = "tscatter";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = scatter_tiles(ctx, op, src, dst)) || (st = ptort_check_operand(ctx, op, "indexes", indexes)))
        return st;
    int esz = ptort_dtype_size(dst->dtype), isz = ptort_dtype_size(indexes->dtype);
    int want = esz == 1 ? 2 : esz;
    if (indexes->loc != PTORT_VEC || !tile_is_row_major(indexes))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects a row-major none_box vec indexes tile", op);
    if (isz != want || !(indexes->dtype == PTORT_I16 || indexes->dtype == PTORT_U16 || indexes->dtype == PTORT_I32 ||
                         indexes->dtype == PTORT_U32))
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects %d-bit indexes for %s elements, but got %s", op, 8 * want,
                          ptort_dtype_name(dst->dtype), ptort_dtype_name(indexes->dtype));
    int64_t vr = src->valid_rows, vc = src->valid_cols;
    if (indexes->valid_rows < vr || indexes->valid_cols < vc)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: indexes [%lld, %lld] do not cover src's valid shape [%lld, %lld]", op,
                          (long long)indexes->valid_rows, (long long)indexes->valid_cols, (long long)vr, (long long)vc);
    int64_t n = dst->rows * tile_row_stride(dst);
    const uint8_t *ib = tile_base(ctx, indexes), *sb = tile_base(ctx, src);
    int64_t is = tile_row_stride(indexes), ss = tile_row_stride(src);
    for (int64_t i = 0; i < vr; i++)
        for (int64_t j = 0; j < vc; j++) {
            uint32_t k = load_elem(ib + i * is * isz, isz, j);
            if ((int64_t)k >= n)
                return ptort_fail(ctx, PTORT_E_SHAPE, "%s: index %u at (%lld, %lld) is outside dst's %lld elements", op, k,
                                  (long long)i, (long long)j, (long long)n);
        }
    uint8_t *d = tile_base(ctx, dst);
    uint8_t *out = ptort_scratch(ctx, (size_t)(n * esz) + 1);
    if (!out)
        return PTORT_E_NOMEM;
    memset(out, 0, (size_t)(n * esz)); /* src may share bytes with dst: build the result apart */
    for (int64_t i = 0; i < vr; i++)
        for (int64_t j = 0; j < vc; j++)
            store_elem(out, esz, load_elem(ib + i * is * isz, isz, j), load_elem(sb + i * ss * esz, esz, j));
    memcpy(d, out, (size_t)(n * esz));
    return PTORT_OK;
}

/* The offset of the pattern's first selected position in a group of 1, 2 or 4. */
static int64_t mask_first(ptort_mask_pattern pat)
{
    int64_t k = 0;
    while (k < 4 && !mask_select(pat, k))
        k++;
    return k;
}

ptort_status ptort_tscatter_mask(ptort_ctx *ctx, ptort_mask_pattern pat, int col_axis, const ptort_tile *src,
                                 const ptort_tile *dst)
{
    static const char op[] = "tscatter";
    if (!ctx)
        return PTORT_E_ARG;
    if (pat < PTORT_MASK_P0101 || pat > PTORT_MASK_P1111)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: mask pattern %d is out of range", op, (int)pat);
    ptort_status st;
    if ((st = scatter_tiles(ctx, op, src, dst)))
        return st;
    int64_t t = pat == PTORT_MASK_P1111 ? 1 : pat <= PTORT_MASK_P1010 ? 2 : 4, p = mask_first(pat);
    int64_t vr = src->valid_rows, vc = src->valid_cols;
    int64_t dr = col_axis ? t * vr : vr, dc = col_axis ? vc : t * vc;
    if (dr > dst->rows || dc > dst->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: src's valid [%lld, %lld] scattered is [%lld, %lld], larger than dst "
                          "[%lld, %lld]", op, (long long)vr, (long long)vc, (long long)dr, (long long)dc,
                          (long long)dst->rows, (long long)dst->cols);
    int esz = ptort_dtype_size(dst->dtype);
    int64_t ds = tile_row_stride(dst), ss = tile_row_stride(src), n = dst->rows * ds;
    uint8_t *out = ptort_scratch(ctx, (size_t)(n * esz) + 1);
    if (!out)
        return PTORT_E_NOMEM;
    uint8_t *d = tile_base(ctx, dst);
    const uint8_t *sb = tile_base(ctx, src);
    if (t == 1)
        memcpy(out, d, (size_t)(n * esz)); /* P1111: a copy of the valid region only */
    else
        memset(out, 0, (size_t)(n * esz));
    for (int64_t i = 0; i < vr; i++)
        for (int64_t j = 0; j < vc; j++) {
            int64_t r = col_axis ? t * i + p : i, c = col_axis ? j : t * j + p;
            store_elem(out, esz, r * ds + c, load_elem(sb + i * ss * esz, esz, j));
        }
    memcpy(d, out, (size_t)(n * esz));
    return PTORT_OK;
}

/* ---- tprefetch ------------------------------------------------------------------------------ */
ptort_status ptort_tprefetch(ptort_ctx *ctx, const ptort_view *src, const ptort_tile *dst)
{
    static const char op[] = "tprefetch";
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st = ptort_check_operand(ctx, op, "dst", dst);
    if (st)
        return st;
    if (!src || !src->base)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: the view has no host memory", op);
    if (!tile_is_row_major(dst))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects a row-major none_box dst", op);
    int esz = ptort_dtype_size(dst->dtype);
    if (esz != ptort_dtype_size(src->dtype))
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects the view's element size, but got %s and %s", op,
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    int64_t vr = dst->valid_rows, vc = dst->valid_cols;
    if (vr == 0 || vc == 0)
        return PTORT_OK;
    int64_t last = src->offset + (vr - 1) * dst->cols + vc - 1, n = (int64_t)(src->size / (size_t)esz);
    if (src->offset < 0 || last >= n)
        return ptort_fail(ctx, PTORT_E_VIEW, "%s: reads elements [%lld, %lld], outside the host buffer of %lld elements",
                          op, (long long)src->offset, (long long)last, (long long)n);
    const uint8_t *sb = (const uint8_t *)src->base + src->offset * esz;
    uint8_t *d = tile_base(ctx, dst);
    int64_t ds = tile_row_stride(dst);
    for (int64_t r = 0; r < vr; r++)
        memcpy(d + r * ds * esz, sb + r * dst->cols * esz, (size_t)(vc * esz));
    return PTORT_OK;
}
