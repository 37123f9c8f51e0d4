/* moves.c - the on-chip moves between the cube's and the vector's spaces: textract,
 * tinsert, ttrans (docs/numerics.md 8.4).
 *
 * Every tile keeps its elements where the hardware does (layout_of: ND, DN, NZ, ZN, ZZ,
 * NN boxes), so a move reads and writes element (r, c) through both tiles' layouts and a
 * kernel that reinterprets the bytes afterwards sees the hardware's arrangement. An acc
 * source is converted on the way out as the fixpipe does (f32 -> f16/bf16 round to nearest
 * even, f32 -> f32 and i32 -> i32 unchanged). The fixpipe's optional stages, a scalar
 * pre-quantization (preQuantScalar) and relu, are ptort_tmove_fix's (docs/numerics.md 8.6);
 * the vector quantization (an fp scaling tile) is not computed: codegen rejects it.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "internal.h"

/* How one element goes from the source's bytes to the destination's. */
typedef enum { CV_COPY, CV_F32_F16, CV_F32_BF16, CV_F16_F32, CV_BF16_F32 } Conv;

int moves_converts(const ptort_tile *src, const ptort_tile *dst)
{
    if (src->loc == PTORT_ACC && src->dtype == PTORT_F32)
        return dst->dtype == PTORT_F16 || dst->dtype == PTORT_BF16;
    return src->loc == PTORT_MAT && dst->loc == PTORT_BIAS && dst->dtype == PTORT_F32 &&
           (src->dtype == PTORT_F16 || src->dtype == PTORT_BF16);
}

static ptort_status conv_of(ptort_ctx *ctx, const char *op, const ptort_tile *src, const ptort_tile *dst,
                            Conv *cv)
{
    *cv = CV_COPY;
    if (src->dtype == dst->dtype)
        return PTORT_OK;
    if (src->loc == PTORT_ACC && src->dtype == PTORT_F32 && dst->dtype == PTORT_F16)
        *cv = CV_F32_F16;
    else if (src->loc == PTORT_ACC && src->dtype == PTORT_F32 && dst->dtype == PTORT_BF16)
        *cv = CV_F32_BF16;
    else if (src->loc == PTORT_MAT && dst->loc == PTORT_BIAS && src->dtype == PTORT_F16 && dst->dtype == PTORT_F32)
        *cv = CV_F16_F32;
    else if (src->loc == PTORT_MAT && dst->loc == PTORT_BIAS && src->dtype == PTORT_BF16 && dst->dtype == PTORT_F32)
        *cv = CV_BF16_F32;
    else
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: expects src and dst to have the same element type (or an acc f32 src "
                          "and an f16/bf16 dst, or a mat f16/bf16 src and an f32 bias dst), but got %s and %s", op,
                          ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    return PTORT_OK;
}

/* Moves a ROWS x COLS window: src element (sr + i, sc + j) to dst element (dr + i, dc + j). */
typedef struct Window {
    int64_t sr, sc, dr, dc, rows, cols;
} Window;

/* The fixpipe's optional stages for an acc source: relu, and a scalar pre-quantization
 * whose 64-bit word holds the f32 scale (bits 0..31), an offset (bits 37..45) and the
 * signed-range bit (46), as pto-isa's SET_QUANT_SCALAR builds it. */
typedef struct Fix {
    int relu, quant;
    float scale, offset;
    int sign;
} Fix;

static float relu_f(float f) { return f > 0.0f ? f : 0.0f; } /* NaN and -0 become +0 */

/* One element through the fixpipe (docs/numerics.md 8.6: pto-isa's quantize_element). */
static void fix_element(const uint8_t *x, uint8_t *y, ptort_dtype sd, ptort_dtype dd, const Fix *fx)
{
    float f;
    int32_t iv;
    if (sd == PTORT_I32 && !fx->quant) { /* i32 -> i32 with relu */
        memcpy(&iv, x, 4);
        iv = fx->relu && iv < 0 ? 0 : iv;
        memcpy(y, &iv, 4);
        return;
    }
    if (sd == PTORT_I32) {
        memcpy(&iv, x, 4);
        f = (float)iv;
    } else {
        memcpy(&f, x, 4);
    }
    if (fx->quant)
        f *= fx->scale;
    if (fx->quant && (dd == PTORT_I8 || dd == PTORT_U8)) {
        float t = nearbyintf(f + fx->offset), lo = fx->sign ? -128.0f : 0.0f, hi = fx->sign ? 127.0f : 255.0f;
        t = t < lo ? lo : t > hi ? hi : t;
        if (fx->relu)
            t = relu_f(t);
        y[0] = isnan(t) ? 0 : (uint8_t)(int32_t)t; /* the low byte of the integer, NaN 0 */
        return;
    }
    if (fx->quant && dd == PTORT_F16 && (sd == PTORT_I32 || isfinite(f))) /* DEQF16 clamps always */
        f = f < -65504.0f ? -65504.0f : f > 65504.0f ? 65504.0f : f;
    if (fx->relu)
        f = relu_f(f);
    if (dd == PTORT_F32) {
        memcpy(y, &f, 4);
        return;
    }
    uint16_t h = dd == PTORT_F16 ? f32_to_f16_bits(f) : f32_to_bf16_bits(f);
    memcpy(y, &h, 2);
}

static Fix fix_of(int relu, int quant, uint64_t word)
{
    uint32_t sb = (uint32_t)word;
    Fix fx = {relu != 0, quant != 0, 0.0f, (float)((word >> 37) & 0x1FF), (int)((word >> 46) & 1)};
    memcpy(&fx.scale, &sb, 4);
    return fx;
}

static ptort_status move_window(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst, const Window *w, Conv cv,
                                const Fix *fx)
{
    if (w->rows <= 0 || w->cols <= 0)
        return PTORT_OK;
    int64_t *scol = ptort_scratch(ctx, (size_t)(2 * w->cols) * sizeof(int64_t));
    if (!scol)
        return PTORT_E_NOMEM;
    int64_t *dcol = scol + w->cols;
    Layout ls, ld;
    layout_of(src, &ls);
    layout_of(dst, &ld);
    for (int64_t j = 0; j < w->cols; j++) {
        scol[j] = layout_col_off(&ls, w->sc + j);
        dcol[j] = layout_col_off(&ld, w->dc + j);
    }
    const uint8_t *s = tile_base(ctx, src);
    uint8_t *d = tile_base(ctx, dst);
    int ssz = ptort_dtype_size(src->dtype), dsz = ptort_dtype_size(dst->dtype);
    for (int64_t i = 0; i < w->rows; i++) {
        const uint8_t *sp = s + layout_row_off(&ls, w->sr + i) * ssz;
        uint8_t *dp = d + layout_row_off(&ld, w->dr + i) * dsz;
        for (int64_t j = 0; j < w->cols; j++) {
            const uint8_t *x = sp + scol[j] * ssz;
            uint8_t *y = dp + dcol[j] * dsz;
            if (fx) {
                fix_element(x, y, src->dtype, dst->dtype, fx);
                continue;
            }
            if (cv == CV_COPY) {
                memmove(y, x, (size_t)ssz); /* hand-placed level3 tiles may overlap */
                continue;
            }
            if (cv == CV_F16_F32 || cv == CV_BF16_F32) { /* exact widening */
                uint16_t h;
                memcpy(&h, x, 2);
                uint32_t u = cv == CV_F16_F32 ? f16_bits_to_f32_bits(h) : (uint32_t)h << 16;
                memcpy(y, &u, 4);
                continue;
            }
            float f;
            memcpy(&f, x, 4);
            uint16_t h = cv == CV_F32_F16 ? f32_to_f16_bits(f) : f32_to_bf16_bits(f);
            memcpy(y, &h, 2);
        }
    }
    return PTORT_OK;
}

ptort_status moves_convert(ptort_ctx *ctx, const char *op, const ptort_tile *src, const ptort_tile *dst)
{
    Conv cv;
    ptort_status st = conv_of(ctx, op, src, dst, &cv);
    if (st)
        return st;
    Window w = {0, 0, 0, 0, src->valid_rows, src->valid_cols};
    return move_window(ctx, src, dst, &w, cv, NULL);
}

static ptort_status check_pair(ptort_ctx *ctx, const char *op, const ptort_tile *src, const ptort_tile *dst)
{
    if (!ctx)
        return PTORT_E_ARG;
    ptort_status st;
    if ((st = ptort_check_operand(ctx, op, "src", src)) || (st = ptort_check_operand(ctx, op, "dst", dst)))
        return st;
    return PTORT_OK;
}

/* textract (INSERT false: dst's valid region from src at (index_row, index_col)) and tinsert
 * (INSERT true: src's valid region into dst there), with their checks. */
static ptort_status move_at(ptort_ctx *ctx, bool insert, const ptort_tile *src, int64_t index_row, int64_t index_col,
                            const ptort_tile *dst)
{
    const char *op = insert ? "tinsert" : "textract";
    const ptort_tile *part = insert ? src : dst, *whole = insert ? dst : src;
    ptort_status st = check_pair(ctx, op, src, dst);
    Conv cv;
    if (st || (st = conv_of(ctx, op, src, dst, &cv)))
        return st;
    if (index_row < 0 || index_col < 0 || index_row + part->valid_rows > whole->rows ||
        index_col + part->valid_cols > whole->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: the %lldx%lld %s at (%lld, %lld) leaves the %lldx%lld %s", op,
                          (long long)part->valid_rows, (long long)part->valid_cols, insert ? "src" : "window",
                          (long long)index_row, (long long)index_col, (long long)whole->rows, (long long)whole->cols,
                          insert ? "dst" : "src");
    Window w = insert ? (Window){0, 0, index_row, index_col, src->valid_rows, src->valid_cols}
                      : (Window){index_row, index_col, 0, 0, dst->valid_rows, dst->valid_cols};
    return move_window(ctx, src, dst, &w, cv, NULL);
}

ptort_status ptort_textract(ptort_ctx *ctx, const ptort_tile *src, int64_t index_row, int64_t index_col,
                            const ptort_tile *dst)
{
    return move_at(ctx, false, src, index_row, index_col, dst);
}

ptort_status ptort_tinsert(ptort_ctx *ctx, const ptort_tile *src, int64_t index_row, int64_t index_col,
                           const ptort_tile *dst)
{
    return move_at(ctx, true, src, index_row, index_col, dst);
}

ptort_status ptort_ttrans(ptort_ctx *ctx, const ptort_tile *src, const ptort_tile *dst)
{
    ptort_status st = check_pair(ctx, "ttrans", src, dst);
    if (st)
        return st;
    if (src->dtype != dst->dtype)
        return ptort_fail(ctx, PTORT_E_DTYPE, "ttrans: expects src and dst to have the same element type, but got %s "
                          "and %s", ptort_dtype_name(src->dtype), ptort_dtype_name(dst->dtype));
    int64_t rows = src->valid_rows, cols = src->valid_cols;
    if (cols > dst->rows || rows > dst->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "ttrans: the transpose of the %lldx%lld src valid region does not fit "
                          "the %lldx%lld dst", (long long)rows, (long long)cols, (long long)dst->rows,
                          (long long)dst->cols);
    if (rows <= 0 || cols <= 0)
        return PTORT_OK;
    /* through scratch: src and dst may be the same bytes (a square in-place transpose) */
    int sz = ptort_dtype_size(src->dtype);
    uint8_t *buf = ptort_scratch(ctx, (size_t)(rows * cols * sz) + (size_t)(rows + cols) * sizeof(int64_t));
    if (!buf)
        return PTORT_E_NOMEM;
    int64_t *tab = (int64_t *)(void *)buf;
    uint8_t *tmp = buf + (size_t)(rows + cols) * sizeof(int64_t);
    Layout ls, ld;
    layout_of(src, &ls);
    layout_of(dst, &ld);
    const uint8_t *s = tile_base(ctx, src);
    uint8_t *d = tile_base(ctx, dst);
    for (int64_t j = 0; j < cols; j++)
        tab[j] = layout_col_off(&ls, j);
    for (int64_t i = 0; i < rows; i++) {
        const uint8_t *sp = s + layout_row_off(&ls, i) * sz;
        for (int64_t j = 0; j < cols; j++)
            memcpy(tmp + (j * rows + i) * sz, sp + tab[j] * sz, (size_t)sz);
    }
    for (int64_t i = 0; i < rows; i++)
        tab[i] = layout_col_off(&ld, i);
    for (int64_t j = 0; j < cols; j++) {
        uint8_t *dp = d + layout_row_off(&ld, j) * sz;
        for (int64_t i = 0; i < rows; i++)
            memcpy(dp + tab[i] * sz, tmp + (j * rows + i) * sz, (size_t)sz);
    }
    return PTORT_OK;
}

/* The pairs the fixpipe's stages compute: relu keeps the plain move's pairs (f32 -> f32/f16/
 * bf16, i32 -> i32); the scalar quantization has pto-isa's simulator's modes QF322B8,
 * QF322F16, QF322BF16 (f32 -> i8/ui8/f16/bf16), REQ8 and DEQF16 (i32 -> i8/ui8/f16). */
int moves_fix_pair(ptort_dtype s, ptort_dtype d, int quant)
{
    if (!quant)
        return (s == PTORT_F32 && (d == PTORT_F32 || d == PTORT_F16 || d == PTORT_BF16)) ||
               (s == PTORT_I32 && d == PTORT_I32);
    if (s == PTORT_F32)
        return d == PTORT_I8 || d == PTORT_U8 || d == PTORT_F16 || d == PTORT_BF16;
    return s == PTORT_I32 && (d == PTORT_I8 || d == PTORT_U8 || d == PTORT_F16);
}

ptort_status ptort_tmove_fix(ptort_ctx *ctx, ptort_move_kind kind, const ptort_tile *src, int64_t index_row,
                             int64_t index_col, const ptort_tile *dst, int relu, int quant, int64_t pre_quant)
{
    static const char *const names[] = {"tmov", "textract", "tinsert"};
    if ((unsigned)kind > PTORT_MOVE_TINSERT)
        return ctx ? ptort_fail(ctx, PTORT_E_ARG, "tmove_fix: unknown move kind %d", (int)kind) : PTORT_E_ARG;
    const char *op = names[kind];
    ptort_status st = check_pair(ctx, op, src, dst);
    if (st)
        return st;
    if (src->loc != PTORT_ACC)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "%s: relu and preQuantScalar need an acc src, but got %s", op,
                          ptort_loc_name(src->loc));
    if (!moves_fix_pair(src->dtype, dst->dtype, quant))
        return ptort_fail(ctx, PTORT_E_DTYPE, "%s: the fixpipe's %s of %s into %s is not computed", op,
                          quant ? "scalar quantization" : "relu", ptort_dtype_name(src->dtype),
                          ptort_dtype_name(dst->dtype));
    Window w = {index_row, index_col, 0, 0, dst->valid_rows, dst->valid_cols};
    if (kind == PTORT_MOVE_TMOV && (src->valid_rows != dst->valid_rows || src->valid_cols != dst->valid_cols))
        return ptort_fail(ctx, PTORT_E_SHAPE, "tmov: expects src and dst to have the same valid_shape, but got [%lld, "
                          "%lld] vs [%lld, %lld]", (long long)src->valid_rows, (long long)src->valid_cols,
                          (long long)dst->valid_rows, (long long)dst->valid_cols);
    if (kind == PTORT_MOVE_TINSERT)
        w = (Window){0, 0, index_row, index_col, src->valid_rows, src->valid_cols};
    const ptort_tile *big = kind == PTORT_MOVE_TINSERT ? dst : src;
    int64_t wr = kind == PTORT_MOVE_TINSERT ? w.dr : w.sr, wc = kind == PTORT_MOVE_TINSERT ? w.dc : w.sc;
    if (wr < 0 || wc < 0 || wr + w.rows > big->rows || wc + w.cols > big->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "%s: the %lldx%lld window at (%lld, %lld) leaves the %lldx%lld %s", op,
                          (long long)w.rows, (long long)w.cols, (long long)wr, (long long)wc, (long long)big->rows,
                          (long long)big->cols, kind == PTORT_MOVE_TINSERT ? "dst" : "src");
    Fix fx = fix_of(relu, quant, (uint64_t)pre_quant);
    return move_window(ctx, src, dst, &w, CV_COPY, &fx);
}

void moves_fix_one(const uint8_t *x, uint8_t *y, ptort_dtype sd, ptort_dtype dd, int relu, int quant, uint64_t word)
{
    Fix fx = fix_of(relu, quant, word);
    fix_element(x, y, sd, dd, &fx);
}
