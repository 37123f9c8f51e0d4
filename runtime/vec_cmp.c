/* vec_cmp.c - compare and select (docs/vector-ops.md, "Compare and select"): tcmp and tcmps
 * write a packed bit mask, tsel and tsels read one. The mask layout is the NPU's (pto-isa's
 * A2/A3 and A5 TCmp / TSel): row r of the mask starts at the mask tile's row r, and column c
 * of the data is bit c % 8 (least significant first) of byte c / 8 of that row, whatever the
 * mask tile's element type. The comparisons decode every element into a double, which holds
 * each value of the element types exactly, so one loop serves all of them. */
#include "internal.h"

/* The value of raw element bits X of type DT (f16 / bf16 / f32 exactly; integers by their
 * signedness). */
static double elem_value(ptort_dtype dt, uint32_t x)
{
    switch (dt) {
    case PTORT_F32: {
        float f;
        memcpy(&f, &x, sizeof f);
        return f;
    }
    case PTORT_F16: return ptort_f16_to_f32((uint16_t)x);
    case PTORT_BF16: return ptort_bf16_to_f32((uint16_t)x);
    case PTORT_I32: return (int32_t)x;
    case PTORT_I16: return (int16_t)x;
    case PTORT_I8: return (int8_t)x;
    default: return x; /* U32, U16, U8 */
    }
}

static int cmp_values(ptort_cmp_mode mode, double a, double b)
{
    switch (mode) {
    case PTORT_CMP_NE: return a != b;
    case PTORT_CMP_LT: return a < b;
    case PTORT_CMP_LE: return a <= b;
    case PTORT_CMP_GT: return a > b;
    case PTORT_CMP_GE: return a >= b;
    default: return a == b;
    }
}

/* The element types of each op, per arch: 1 everywhere, -1 on a5 only, 0 never (PTOAS's
 * verifiers test integers by width, so both signednesses). */
static int cmp_dtype_ok(const ptort_ctx *ctx, ptort_dtype dt, int scalar)
{
    switch (dt) {
    case PTORT_I32: case PTORT_U32: case PTORT_F16: case PTORT_F32: return 1;
    case PTORT_I16: case PTORT_U16: return scalar ? 1 : ctx->arch == PTORT_A5 ? 1 : -1;
    case PTORT_BF16: return scalar ? 0 : ctx->arch == PTORT_A5 ? 1 : -1;
    case PTORT_I8: case PTORT_U8: return ctx->arch == PTORT_A5 ? 1 : -1;
    default: return 0;
    }
}

static int sel_dtype_ok(const ptort_ctx *ctx, ptort_dtype dt, int scalar)
{
    switch (dt) {
    case PTORT_I32: case PTORT_U32: case PTORT_F16: case PTORT_F32: case PTORT_I16: case PTORT_U16: return 1;
    case PTORT_BF16: return scalar ? 0 : 1;
    case PTORT_I8: case PTORT_U8: return ctx->arch == PTORT_A5 ? 1 : -1;
    default: return 0;
    }
}

static ptort_status dtype_fail(ptort_ctx *ctx, const char *op, ptort_dtype dt, int ok)
{
    return ptort_fail(ctx, ok < 0 ? PTORT_E_ARCH : PTORT_E_DTYPE, "%s: element type %s is not supported%s", op,
                      ptort_dtype_name(dt), ok < 0 ? " before a5" : "");
}

/* The byte at ROW's byte J of a row-major tile (its row stride in bytes). */
static uint8_t *row_bytes(ptort_ctx *ctx, const ptort_tile *t, int64_t row)
{
    return tile_base(ctx, t) + row * tile_row_stride(t) * ptort_dtype_size(t->dtype);
}

/* ---- tcmp, tcmps ----------------------------------------------------------------------
 * The hardware's comparisons (docs/numerics.md 11): IEEE for floats (a NaN compares unequal
 * to everything: ne true, the others false; -0 equals +0), signed or unsigned integers by the
 * type. A2/A3 compare 32-bit integers for equality whatever the mode (ne: the inverse of
 * equality), as pto-isa's A2/A3 TCMP and TCMPS do (vcmpv_eq), and tcmps compares 16-bit
 * integers as the f16 values of their bits (TCMPS's vcmpvs on half). */
static ptort_cmp_mode hw_mode(const ptort_ctx *ctx, ptort_cmp_mode mode, ptort_dtype dt)
{
    if (ctx->arch != PTORT_A5 && (dt == PTORT_I32 || dt == PTORT_U32))
        return mode == PTORT_CMP_NE ? PTORT_CMP_NE : PTORT_CMP_EQ;
    return mode;
}

/* Row r's mask bytes: bit c for c < cols from cmp(a[c], b[c] or scalar), then zero bytes up
 * to NBYTES. */
static void pack_row(ptort_cmp_mode mode, ptort_dtype dt, int as_f16, const uint8_t *a, const uint8_t *b,
                     uint32_t scalar, int64_t cols, uint8_t *out, int64_t nbytes)
{
    int esz = ptort_dtype_size(dt);
    memset(out, 0, (size_t)nbytes);
    ptort_dtype vt = as_f16 ? PTORT_F16 : dt;
    double s = elem_value(vt, esz == 4 ? scalar : scalar & ((1u << (8 * esz)) - 1)); /* the element's bits */
    for (int64_t c = 0; c < cols && c / 8 < nbytes; c++) {
        double x = elem_value(vt, load_elem(a, esz, c));
        double y = b ? elem_value(vt, load_elem(b, esz, c)) : s;
        out[c / 8] |= (uint8_t)(cmp_values(mode, x, y) << (c % 8));
    }
}

static ptort_status cmp_common(ptort_ctx *ctx, const char *op, ptort_cmp_mode mode, const ptort_tile *src0,
                               const ptort_tile *src1, uint32_t scalar, const ptort_tile *dst)
{
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, src1 ? "src0" : "src", src0)) ||
        (src1 && (st = ptort_check_operand(ctx, op, "src1", src1))) || (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if ((unsigned)mode > PTORT_CMP_GE)
        return ptort_fail(ctx, PTORT_E_ARG, "%s: compare mode %d is out of range", op, (int)mode);
    if (src0->loc != PTORT_VEC || dst->loc != PTORT_VEC || !tile_is_row_major(src0) || !tile_is_row_major(dst) ||
        (src1 && (src1->loc != PTORT_VEC || !tile_is_row_major(src1))))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects row-major none_box vec tiles", op);
    if (src1 && src1->dtype != src0->dtype)
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src0 and src1 of one element type, but got %s and %s", op,
                          ptort_dtype_name(src0->dtype), ptort_dtype_name(src1->dtype));
    int ok = cmp_dtype_ok(ctx, src0->dtype, src1 == NULL);
    if (ok <= 0)
        return dtype_fail(ctx, op, src0->dtype, ok);
    int64_t rows = src0->valid_rows < dst->valid_rows ? src0->valid_rows : dst->valid_rows, cols = src0->valid_cols;
    if (src1 && (src1->valid_rows < rows || src1->valid_cols < cols))
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects src1 valid_shape to cover src0's [%lld, %lld], but got "
                          "[%lld, %lld]", op, (long long)rows, (long long)cols, (long long)src1->valid_rows,
                          (long long)src1->valid_cols);
    int64_t nbytes = dst->valid_cols * ptort_dtype_size(dst->dtype);
    int as_f16 = !src1 && ctx->arch != PTORT_A5 && (src0->dtype == PTORT_I16 || src0->dtype == PTORT_U16);
    ptort_cmp_mode m = hw_mode(ctx, mode, src0->dtype);
    /* into scratch first: dst may share bytes with a source */
    uint8_t *out = ptort_scratch(ctx, (size_t)(rows * nbytes) + 1);
    if (!out)
        return PTORT_E_NOMEM;
    for (int64_t r = 0; r < rows; r++)
        pack_row(m, src0->dtype, as_f16, row_bytes(ctx, src0, r), src1 ? row_bytes(ctx, src1, r) : NULL, scalar, cols,
                 out + r * nbytes, nbytes);
    for (int64_t r = 0; r < rows; r++)
        memcpy(row_bytes(ctx, dst, r), out + r * nbytes, (size_t)nbytes);
    return PTORT_OK;
}

ptort_status ptort_vcmp(ptort_ctx *ctx, ptort_cmp_mode mode, const ptort_tile *src0, const ptort_tile *src1,
                        const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    if (!src1)
        return ptort_fail(ctx, PTORT_E_ARG, "tcmp: src1 is missing");
    return cmp_common(ctx, "tcmp", mode, src0, src1, 0, dst);
}

ptort_status ptort_vcmps(ptort_ctx *ctx, ptort_cmp_mode mode, const ptort_tile *src, uint32_t scalar,
                         const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    return cmp_common(ctx, "tcmps", mode, src, NULL, scalar, dst);
}

/* ---- tsel, tsels ----------------------------------------------------------------------
 * dst (r, c) = bit c of the mask's row r ? src0 (r, c) : src1 (r, c) (or the scalar) over
 * dst's valid region; the mask's bytes are read from its storage (its valid shape counts
 * mask elements, not bits), which must hold ceil(valid cols / 8) bytes per row. */
static ptort_status sel_common(ptort_ctx *ctx, const char *op, const ptort_tile *mask, const ptort_tile *src0,
                               const ptort_tile *src1, uint32_t scalar, const ptort_tile *dst)
{
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "mask", mask)) ||
        (st = ptort_check_operand(ctx, op, src1 ? "src0" : "src", src0)) ||
        (src1 && (st = ptort_check_operand(ctx, op, "src1", src1))) || (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    if (mask->loc != PTORT_VEC || src0->loc != PTORT_VEC || dst->loc != PTORT_VEC || !tile_is_row_major(mask) ||
        !tile_is_row_major(src0) || !tile_is_row_major(dst) ||
        (src1 && (src1->loc != PTORT_VEC || !tile_is_row_major(src1))))
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: expects row-major none_box vec tiles", op);
    if (src0->dtype != dst->dtype || (src1 && src1->dtype != dst->dtype))
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects sources and dst of one element type", op);
    int ok = sel_dtype_ok(ctx, dst->dtype, src1 == NULL);
    if (ok <= 0)
        return dtype_fail(ctx, op, dst->dtype, ok);
    int64_t rows = dst->valid_rows, cols = dst->valid_cols;
    if (src0->valid_rows < rows || src0->valid_cols < cols || (src1 && (src1->valid_rows < rows || src1->valid_cols < cols)))
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects the sources' valid_shape to cover dst's [%lld, %lld]", op,
                          (long long)rows, (long long)cols);
    int64_t mbytes = mask->cols * ptort_dtype_size(mask->dtype);
    if (rows > 0 && cols > 0 && (mask->rows < rows || mbytes < (cols + 7) / 8))
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: expects a mask of at least %lld rows of %lld bytes, but got %lld rows "
                          "of %lld bytes", op, (long long)rows, (long long)((cols + 7) / 8), (long long)mask->rows,
                          (long long)mbytes);
    int esz = ptort_dtype_size(dst->dtype);
    uint8_t *out = ptort_scratch(ctx, (size_t)(rows * cols * esz) + 1);
    if (!out)
        return PTORT_E_NOMEM;
    for (int64_t r = 0; r < rows; r++) {
        const uint8_t *m = row_bytes(ctx, mask, r), *a = row_bytes(ctx, src0, r);
        const uint8_t *b = src1 ? row_bytes(ctx, src1, r) : NULL;
        uint8_t *o = out + r * cols * esz;
        for (int64_t c = 0; c < cols; c++) {
            int bit = (m[c / 8] >> (c % 8)) & 1;
            store_elem(o, esz, c, bit ? load_elem(a, esz, c) : b ? load_elem(b, esz, c) : scalar);
        }
    }
    for (int64_t r = 0; r < rows; r++)
        memcpy(row_bytes(ctx, dst, r), out + r * cols * esz, (size_t)(cols * esz));
    return PTORT_OK;
}

ptort_status ptort_vsel(ptort_ctx *ctx, const ptort_tile *mask, const ptort_tile *src0, const ptort_tile *src1,
                        const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    if (!src1)
        return ptort_fail(ctx, PTORT_E_ARG, "tsel: src1 is missing");
    return sel_common(ctx, "tsel", mask, src0, src1, 0, dst);
}

ptort_status ptort_vsels(ptort_ctx *ctx, const ptort_tile *mask, const ptort_tile *src, uint32_t scalar,
                         const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    return sel_common(ctx, "tsels", mask, src, NULL, scalar, dst);
}
