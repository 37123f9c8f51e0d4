/* debugprint.c - the debug ops as the NPU's cce::printf shows them (pto-isa's npu TPrint):
 * pto.tprint (a header, every physical element, '|' after the last valid column and a
 * dashed line after the last valid row), pto.print (one scalar through a format string
 * that is checked here, never passed to printf as written), pto.trap. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "printfmt.h"

int ptort_print_format(const char *fmt, size_t n)
{
    size_t s, e, la, ln;
    return fmt ? ptort_parse_format(fmt, n, &s, &e, &la, &ln) : 0;
}

/* Writes FMT's literal text [from, to) to OUT, %% as %. */
static void put_text(FILE *out, const char *fmt, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        fputc(fmt[i], out);
        if (fmt[i] == '%')
            i++;
    }
}

/* The conversion [s, e) of FMT without its length modifier [la, la + ln), with LM instead. */
static void conv_spec(char *buf, const char *fmt, size_t s, size_t e, size_t la, size_t ln, const char *lm)
{
    size_t k = 0;
    for (size_t i = s; i < e; i++) {
        if (i == la) {
            for (const char *q = lm; *q; q++)
                buf[k++] = *q;
            i += ln;
        }
        buf[k++] = fmt[i];
    }
    buf[k] = 0;
}

static ptort_status print_one(ptort_ctx *ctx, FILE *out, const char *fmt, int want, int64_t iv, double fv,
                              unsigned bits)
{
    size_t n = fmt ? strlen(fmt) : 0, s, e, la, ln;
    int kind = fmt ? ptort_parse_format(fmt, n, &s, &e, &la, &ln) : 0;
    if (out && kind == 'n') {
        put_text(out, fmt, 0, n);
        return PTORT_OK;
    }
    if (!out || kind != want)
        return ptort_fail(ctx, PTORT_E_ARG, "'pto.print': the format string is not literal text with one %s conversion",
                          want == 'i' ? "integer" : "floating-point");
    char spec[32];
    /* the value as the NPU's printf gets it: an int up to 32 bits (h and hh kept), a long long
     * above; a double for a float */
    bool wide = bits > 32;
    bool keep = !wide && ln && fmt[la] == 'h';
    conv_spec(spec, fmt, s, e, la, keep ? 0 : ln, want == 'f' ? "" : wide ? "ll" : "");
    put_text(out, fmt, 0, s);
    if (want == 'f')
        fprintf(out, spec, fv);
    else if (wide)
        fprintf(out, spec, (long long)iv);
    else
        fprintf(out, spec, (int)(int32_t)(uint32_t)(uint64_t)iv);
    put_text(out, fmt, e, n);
    return PTORT_OK;
}

ptort_status ptort_print_int(ptort_ctx *ctx, FILE *out, const char *fmt, int64_t v, unsigned bits)
{
    return print_one(ctx, out, fmt, 'i', v, 0, bits);
}

ptort_status ptort_print_float(ptort_ctx *ctx, FILE *out, const char *fmt, float v)
{
    return print_one(ctx, out, fmt, 'f', 0, (double)v, 32);
}

/* ---- pto.tprint ------------------------------------------------------------------------- */

static const char *dtype_word(ptort_dtype d)
{
    switch (d) {
    case PTORT_U32: return "uint32";
    case PTORT_I32: return "int32";
    case PTORT_U16: return "uint16";
    case PTORT_I16: return "int16";
    case PTORT_U8: return "uint8";
    case PTORT_I8: return "int8";
    case PTORT_F32: return "float32";
    case PTORT_F16: return "float16";
    default: return NULL;
    }
}

static const char *layout_word(const ptort_tile *t)
{
    bool rm = t->blayout == PTORT_BL_ROW_MAJOR;
    return t->slayout == PTORT_SL_NONE_BOX ? (rm ? "ND" : "DN") : t->slayout == PTORT_SL_ROW_MAJOR ? (rm ? "Zz" : "Nz")
                                                                                                   : (rm ? "Zn" : "Nn");
}

static void put_value(FILE *out, const ptort_tile *t, const uint8_t *p, int format)
{
    int w = format == 2 ? 10 : 8;
    switch (t->dtype) {
    case PTORT_F32: case PTORT_F16: {
        uint64_t bits = 0;
        memcpy(&bits, p, t->dtype == PTORT_F32 ? 4 : 2);
        fprintf(out, "%*.*f", w, format == 1 ? 2 : format == 2 ? 6 : 4, (double)ptort_scalar_from_bits(bits, t->dtype));
        break;
    }
    case PTORT_I8: fprintf(out, "%*d", w, (int)*(const int8_t *)p); break;
    case PTORT_U8: fprintf(out, "%*u", w, (unsigned)*p); break;
    case PTORT_I16: { int16_t x; memcpy(&x, p, 2); fprintf(out, "%*d", w, (int)x); break; }
    case PTORT_U16: { uint16_t x; memcpy(&x, p, 2); fprintf(out, "%*u", w, (unsigned)x); break; }
    case PTORT_I32: { int32_t x; memcpy(&x, p, 4); fprintf(out, "%*d", w, (int)x); break; }
    default: { uint32_t x; memcpy(&x, p, 4); fprintf(out, "%*u", w, (unsigned)x); break; }
    }
}

ptort_status ptort_tprint(ptort_ctx *ctx, FILE *out, const ptort_tile *src, int format)
{
    ptort_status st = ptort_check_operand(ctx, "pto.tprint", "src", src);
    if (st != PTORT_OK)
        return st;
    if (!out || format < 0 || format > 2)
        return ptort_fail(ctx, PTORT_E_ARG, "'pto.tprint': format %d is not 0, 1 or 2", format);
    if (src->loc != PTORT_VEC)
        return ptort_fail(ctx, PTORT_E_LAYOUT, "'pto.tprint': src must be a vec tile, but is in %s",
                          ptort_loc_name(src->loc));
    const char *dw = dtype_word(src->dtype);
    if (!dw)
        return ptort_fail(ctx, PTORT_E_DTYPE, "'pto.tprint': element type %s is not printable",
                          ptort_dtype_name(src->dtype));
    int64_t rows = src->rows, cols = src->cols, vr = src->valid_rows, vc = src->valid_cols;
    fprintf(out, "=== [TPRINT Tile] Data Type: %s, Layout: %s, TileType: Vec ===\n", dw, layout_word(src));
    fprintf(out, "  Shape: [%lld, %lld], Valid Shape: [%lld, %lld]\n", (long long)rows, (long long)cols, (long long)vr,
            (long long)vc);
    const uint8_t *base = tile_base(ctx, src);
    int size = ptort_dtype_size(src->dtype);
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t c = 0; c < cols; c++) {
            if (c)
                fputc(' ', out);
            put_value(out, src, base + ptort_tile_offset(src, r, c) * size, format);
            if (c == vc - 1 && vc > 0 && vc < cols)
                fputc('|', out);
        }
        fputc('\n', out);
        if (r == vr - 1 && vr > 0 && vr < rows) {
            for (int64_t c = 0; c < cols; c++) {
                fputs(c ? (format == 2 ? " ----------" : " --------") : (format == 2 ? "----------" : "--------"), out);
                if (c == vc - 1 && vc > 0 && vc < cols)
                    fputc('|', out);
            }
            fputc('\n', out);
        }
    }
    return PTORT_OK;
}

ptort_status ptort_trap(ptort_ctx *ctx)
{
    return ptort_fail(ctx, PTORT_E_TRAP, "'pto.trap': the kernel trapped");
}
