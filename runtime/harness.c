/* harness.c - ptort_run_main: the main() of executables made by ptoas (--emit=exe, ptoas run).
 *
 * The generated code describes its kernel in a ptort_kernel table (arguments, results, tile
 * descriptors); this file does the rest of docs/cli.md's `ptoas run`: parses --in/--out/--arg,
 * reads .npy or raw .bin inputs, checks every shape and dtype before anything runs, fills the
 * tiles in logical (row, col) order, runs the kernel, and writes results as .npy or prints a
 * table (with the error of a quantize->dequantize round trip against its input).
 * Like the rest of the runtime it never exits: it returns the exit status.
 */
#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "ptort.h"

/* Room for a .npy header in the size cap of an input (see load_input). */
#define NPY_HEADER_ROOM ((size_t)1 << 20)
/* A pointer argument has no declared shape: its input is capped at 2 GiB (PTOAS's largest
 * sample kernel, Qwen3-14B's lm_head, reads 1.5 GB of weights). */
#define PTORT_RUN_MAX_PTR_INPUT ((size_t)1 << 31)

typedef struct {
    const char *file;      /* --in FILE */
    const char *arg;       /* --arg VALUE (a scalar's entry) */
    ptort_npy arr;         /* the loaded array (data owned) */
    int64_t rows, cols;    /* its 2-D shape */
    int loaded;
} Input;

typedef struct {
    const ptort_kernel *k;
    ptort_ctx *ctx;
    Input *in;             /* per entry */
    const char **out;      /* per entry: --out FILE or NULL */
    char *out_float;       /* per entry: it was --out-float (decode to float32) */
    int any_out;
    ptort_kernel_value *values;
} Run;

static void usage(FILE *f, const ptort_kernel *k)
{
    fprintf(f,
            "usage: %s [--in NAME=FILE]... [--out NAME=FILE]... [--arg NAME=VALUE]...\n"
            "Runs @%s of %s on the CPU with the ptoas runtime.\n"
            "  --in NAME=FILE   fill argument %%NAME from a .npy file (or a raw .bin of the full physical shape)\n"
            "  --out NAME=FILE  write result %%NAME as .npy after the run\n"
            "  --out-float NAME=FILE  the same, decoded to float32 (<f4): bf16, fp8, e8m0, packed fp4 (two per byte)\n"
            "  --arg NAME=VALUE set the scalar argument %%NAME (an integer, or a float for f16/bf16/f32)\n"
            "Without --out, every result is printed.\n%s",
            "kernel", k->func, k->source,
            k->launch ? "  --blocks N       run a launch of N blocks (default 1)\n"
                        "  --block B        run only block B of them\n"
                        "  --threads T      run T blocks at a time (default: the machine's cores)\n" : "");
    fprintf(f, "arguments:");
    int n = 0;
    for (int i = 0; i < k->nentries; i++)
        if (k->entries[i].arg >= 0)
            fprintf(f, "%s %%%s", n++ ? "," : "", k->entries[i].name);
    fprintf(f, "%s\n", n ? "" : " none");
}

static int find_entry(const ptort_kernel *k, const char *name, size_t n)
{
    if (n && name[0] == '%')
        name++, n--;
    for (int i = 0; i < k->nentries; i++)
        if (strlen(k->entries[i].name) == n && memcmp(k->entries[i].name, name, n) == 0)
            return i;
    return -1;
}

/* "%a, %b" of the entries that pass the filter: 0 arguments, 1 readable results. */
static void list_names(const ptort_kernel *k, int what, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < k->nentries; i++) {
        const ptort_kernel_arg *e = &k->entries[i];
        int ok = what == 0 ? e->arg >= 0
                           : (e->kind == PTORT_KARG_TILE && (e->out || e->in)) ||
                                 (e->kind == PTORT_KARG_PTR && e->arg >= 0);
        if (!ok || at + strlen(e->name) + 4 >= size)
            continue;
        at += (size_t)snprintf(buf + at, size - at, "%s%%%s", at ? ", " : "", e->name);
    }
    if (!at)
        snprintf(buf, size, "none");
}

static int is_dynamic(const ptort_tile *t) { return t->valid_rows < 0 || t->valid_cols < 0; }

static void shape_str(char *buf, size_t size, const ptort_npy *a)
{
    size_t at = (size_t)snprintf(buf, size, "(");
    for (int i = 0; i < a->ndim && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s%" PRId64, i ? ", " : "", a->shape[i]);
    if (at < size)
        snprintf(buf + at, size - at, a->ndim == 1 ? ",)" : ")");
}

static void dim_str(char *buf, size_t size, int64_t valid, int64_t phys)
{
    if (valid < 0)
        snprintf(buf, size, "<=%" PRId64, phys);
    else
        snprintf(buf, size, "%" PRId64, valid);
}

/* Reads FILE for entry e: .npy (by magic or name), else raw bytes of the full physical shape. */
static int load_input(Run *r, int ei)
{
    const ptort_kernel_arg *e = &r->k->entries[ei];
    Input *in = &r->in[ei];
    const char *descr = ptort_dtype_npy_descr(e->dtype);
    if (!descr) {
        fprintf(stderr, "error: argument '%%%s': %s has no .npy dtype\n", e->name, ptort_dtype_name(e->dtype));
        return 1;
    }
    /* The most a valid input can hold: a .npy header (v1.0 headers are below
     * 64 KiB, numpy's v2.0 ones too in practice) and the physical shape's bytes.
     * A regular file is checked before it is read; a FIFO or device is read up
     * to the cap, so `--in x=/dev/zero` fails fast instead of exhausting memory. */
    size_t cap_len = PTORT_RUN_MAX_PTR_INPUT;
    if (e->kind == PTORT_KARG_TILE && e->in)
        cap_len = NPY_HEADER_ROOM + (size_t)e->in->rows * (size_t)e->in->cols * (size_t)ptort_dtype_size(e->dtype);
    FILE *f = fopen(in->file, "rb");
    if (!f) {
        fprintf(stderr, "error: argument '%%%s': cannot open '%s': %s\n", e->name, in->file, strerror(errno));
        return 2;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > cap_len) {
        fclose(f);
        fprintf(stderr, "error: argument '%%%s': '%s' holds %" PRIu64 " bytes, more than any array for it (at most %zu)\n",
                e->name, in->file, (uint64_t)st.st_size, cap_len);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
        cap = (size_t)st.st_size + 1;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            fprintf(stderr, "error: argument '%%%s': out of memory reading '%s'\n", e->name, in->file);
            return 2;
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len > cap_len) {
            free(buf);
            fclose(f);
            fprintf(stderr, "error: argument '%%%s': '%s' holds more than %zu bytes, more than any array for it\n",
                    e->name, in->file, cap_len);
            return 1;
        }
        if (len < cap)
            break;
        size_t ncap = cap * 2 > cap_len + 1 ? cap_len + 1 : cap * 2;
        unsigned char *nb = realloc(buf, ncap);
        if (!nb)
            free(buf);
        buf = nb;
        cap = ncap;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "error: argument '%%%s': cannot read '%s'\n", e->name, in->file);
        return 2;
    }
    size_t n = strlen(in->file);
    int npy = (len >= 6 && memcmp(buf, "\x93NUMPY", 6) == 0) || (n >= 4 && strcmp(in->file + n - 4, ".npy") == 0);
    ptort_npy *a = &in->arr;
    if (npy) {
        ptort_status st = ptort_npy_parse(r->ctx, buf, len, a);
        free(buf);
        if (st) {
            fprintf(stderr, "error: argument '%%%s': %s: %s\n", e->name, in->file, ptort_error(r->ctx));
            return 1;
        }
    } else {
        /* raw: the full physical shape of a tile; any whole number of elements for a ptr */
        size_t item = (size_t)ptort_dtype_size(e->dtype);
        memset(a, 0, sizeof *a);
        memcpy(a->descr, descr, 4);
        a->itemsize = item;
        if (e->kind == PTORT_KARG_TILE && e->in) {
            size_t want = (size_t)e->in->rows * (size_t)e->in->cols * item;
            if (len != want) {
                free(buf);
                fprintf(stderr,
                        "error: argument '%%%s': expected %zu bytes (shape (%" PRId64 ", %" PRId64
                        ") dtype %s) in raw file '%s', got %zu\n",
                        e->name, want, e->in->rows, e->in->cols, descr, in->file, len);
                return 1;
            }
            a->ndim = 2;
            a->shape[0] = e->in->rows;
            a->shape[1] = e->in->cols;
        } else {
            if (len % item) {
                free(buf);
                fprintf(stderr, "error: argument '%%%s': raw file '%s' holds %zu bytes, not a whole number of %s elements\n",
                        e->name, in->file, len, descr);
                return 1;
            }
            a->ndim = 1;
            a->shape[0] = (int64_t)(len / item);
        }
        a->nbytes = len;
        a->data = buf;
    }
    in->loaded = 1;
    /* rows: every axis but the last (a pointer's array may have any number) */
    in->rows = 1;
    for (int d = 0; d + 1 < a->ndim; d++)
        in->rows *= a->shape[d];
    in->cols = a->ndim >= 1 ? a->shape[a->ndim - 1] : 1;

    /* dtype and shape against the declared type */
    char got[160];
    shape_str(got, sizeof got, a);
    if (e->kind == PTORT_KARG_PTR) {
        if (strcmp(a->descr, descr) != 0) {
            fprintf(stderr, "error: argument '%%%s': expected dtype %s, got %s %s\n", e->name, descr, got, a->descr);
            return 1;
        }
        return 0;
    }
    const ptort_tile *t = e->in;
    if (!t) /* the kernel never uses it: nothing to check against */
        return 0;
    int ok = strcmp(a->descr, descr) == 0 && (a->ndim == 2 || (a->ndim == 1 && t->rows == 1));
    if (ok) {
        if (is_dynamic(t))
            ok = in->rows <= t->rows && in->cols <= t->cols && (t->valid_rows < 0 || in->rows == t->valid_rows) &&
                 (t->valid_cols < 0 || in->cols == t->valid_cols);
        else
            ok = (in->rows == t->valid_rows && in->cols == t->valid_cols) || (in->rows == t->rows && in->cols == t->cols);
    }
    if (!ok) {
        char vr[32], vc[32];
        dim_str(vr, sizeof vr, t->valid_rows, t->rows);
        dim_str(vc, sizeof vc, t->valid_cols, t->cols);
        if (is_dynamic(t) || (t->valid_rows == t->rows && t->valid_cols == t->cols))
            fprintf(stderr, "error: argument '%%%s': expected shape (%s, %s) dtype %s, got %s %s\n", e->name, vr, vc,
                    descr, got, a->descr);
        else
            fprintf(stderr,
                    "error: argument '%%%s': expected shape (%s, %s) or (%" PRId64 ", %" PRId64 ") dtype %s, got %s %s\n",
                    e->name, vr, vc, t->rows, t->cols, descr, got, a->descr);
        return 1;
    }
    return 0;
}

/* Element i of a host array of DT as a double (packed fp4: the byte). */
static double elem(ptort_dtype dt, const void *p, size_t i)
{
    const unsigned char *b = p;
    switch (dt) {
    case PTORT_F32: { float f; memcpy(&f, b + 4 * i, 4); return f; }
    case PTORT_F16: { uint16_t h; memcpy(&h, b + 2 * i, 2); return ptort_f16_to_f32(h); }
    case PTORT_BF16: { uint16_t h; memcpy(&h, b + 2 * i, 2); return ptort_bf16_to_f32(h); }
    case PTORT_I32: { int32_t v; memcpy(&v, b + 4 * i, 4); return v; }
    case PTORT_U32: { uint32_t v; memcpy(&v, b + 4 * i, 4); return v; }
    case PTORT_I64: { int64_t v; memcpy(&v, b + 8 * i, 8); return (double)v; }
    case PTORT_U64: { uint64_t v; memcpy(&v, b + 8 * i, 8); return (double)v; }
    case PTORT_I16: { int16_t v; memcpy(&v, b + 2 * i, 2); return v; }
    case PTORT_U16: { uint16_t v; memcpy(&v, b + 2 * i, 2); return v; }
    case PTORT_I8: return (int8_t)b[i];
    case PTORT_F8E4M3FN: return ptort_e4m3_to_f32(b[i]);
    case PTORT_F8E5M2: return ptort_e5m2_to_f32(b[i]);
    case PTORT_F8E8M0FNU: return ptort_e8m0_to_f32(b[i]);
    default: return b[i];
    }
}

/* Prints one result: the header line with statistics over its valid region, the first 8x8
 * values, and for a round trip the error against the input it approximates. */
static void print_result(Run *r, int ei, const void *data, int64_t rows, int64_t cols, int64_t vr, int64_t vc,
                         const char *shape)
{
    const ptort_kernel_arg *e = &r->k->entries[ei];
    double mn = INFINITY, mx = -INFINITY, sum = 0;
    int64_t n = 0;
    for (int64_t i = 0; i < vr; i++)
        for (int64_t j = 0; j < vc; j++) {
            double x = elem(e->dtype, data, (size_t)(i * cols + j));
            sum += x;
            n++;
            if (x < mn)
                mn = x;
            if (x > mx)
                mx = x;
        }
    (void)rows;
    if (shape)
        printf("%%%s %s %s", e->name, shape, ptort_dtype_name(e->dtype));
    else
        printf("%%%s %" PRId64 "x%" PRId64 " %s", e->name, vr, vc, ptort_dtype_name(e->dtype));
    if (n)
        printf(" min=%g max=%g mean=%g\n", mn, mx, sum / (double)n);
    else
        printf(" (empty)\n");
    for (int64_t i = 0; i < vr && i < 8; i++) {
        printf(" ");
        for (int64_t j = 0; j < vc && j < 8; j++)
            printf(" %g", elem(e->dtype, data, (size_t)(i * cols + j)));
        printf("%s\n", vc > 8 ? " ..." : "");
    }
    if (vr > 8)
        printf("  ...\n");
    int ai = e->approximates;
    if (ai >= 0 && ai < r->k->nentries) {
        const ptort_kernel_arg *src = &r->k->entries[ai];
        const Input *in = &r->in[ai];
        double emax = 0, esum = 0;
        int64_t m = 0;
        for (int64_t i = 0; i < vr; i++)
            for (int64_t j = 0; j < vc; j++) {
                double x = 0;
                if (in->loaded && i < in->rows && j < in->cols)
                    x = elem(src->dtype, in->arr.data, (size_t)(i * in->cols + j));
                double d = fabs(elem(e->dtype, data, (size_t)(i * cols + j)) - x);
                if (d > emax || d != d)
                    emax = d;
                esum += d;
                m++;
            }
        printf("  abs error vs %%%s: max=%g mean=%g\n", src->name, emax, m ? esum / (double)m : 0.0);
    }
}

/* A tile descriptor with the valid shape set to the physical one: fill/read move whole arrays. */
static ptort_tile whole(const ptort_tile *t)
{
    ptort_tile c = *t;
    /* a compact boxed tile's element positions follow its valid shape (docs/memory.md 1) */
    if (t->compact != PTORT_COMPACT_NULL && t->slayout != PTORT_SL_NONE_BOX &&
        t->valid_rows >= 0 && t->valid_cols >= 0)
        return c;
    c.valid_rows = c.rows;
    c.valid_cols = c.cols;
    return c;
}

/* Writes A, the raw array of entry E, to PATH as .npy; with AS_FLOAT decoded to float32
 * first (--out-float): bf16, f16, fp8, e8m0 and integers by value, and a packed fp4 array of
 * (R, C) bytes as (R, 2C) values, the low nibble (the even element) first. */
static int write_result(Run *r, const ptort_kernel_arg *e, const char *path, const ptort_npy *a, int as_float)
{
    ptort_npy f = *a;
    float *vals = NULL;
    if (as_float) {
        size_t n = a->itemsize ? a->nbytes / a->itemsize : 0;
        int packed = e->dtype == PTORT_F4E2M1X2;
        size_t m = packed ? 2 * n : n;
        vals = malloc(m ? m * 4 : 1);
        if (!vals) {
            fprintf(stderr, "error: result '%%%s': out of memory\n", e->name);
            return 2;
        }
        const unsigned char *b = a->data;
        for (size_t i = 0; i < n; i++) {
            if (packed) {
                vals[2 * i] = ptort_e2m1_to_f32(b[i] & 15);
                vals[2 * i + 1] = ptort_e2m1_to_f32(b[i] >> 4);
            } else if (e->dtype == PTORT_BF16) { /* bf16 is the top half of an f32: exact, NaNs too */
                uint16_t h;
                memcpy(&h, b + 2 * i, 2);
                uint32_t w = (uint32_t)h << 16;
                memcpy(&vals[i], &w, 4);
            } else if (e->dtype == PTORT_F32) {
                memcpy(&vals[i], b + 4 * i, 4);
            } else {
                vals[i] = (float)elem(e->dtype, a->data, i);
            }
        }
        memcpy(f.descr, "<f4", 4);
        f.itemsize = 4;
        f.nbytes = m * 4;
        f.data = vals;
        if (packed && f.ndim > 0)
            f.shape[f.ndim - 1] *= 2;
    }
    ptort_status st = ptort_npy_write(r->ctx, path, &f);
    free(vals);
    if (st) {
        fprintf(stderr, "error: result '%%%s': %s\n", e->name, ptort_error(r->ctx));
        return st == PTORT_E_IO || st == PTORT_E_NOMEM ? 2 : 1;
    }
    return 0;
}

/* "2x4x16": the shape of an array. */
static void shape_x(char *buf, size_t size, const ptort_npy *a)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < a->ndim && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s%" PRId64, i ? "x" : "", a->shape[i]);
    if (a->ndim == 0)
        snprintf(buf, size, "1");
}

/* Reads result entry ei after the run: writes --out or prints it. */
static int emit_result(Run *r, int ei, const char *path)
{
    const ptort_kernel_arg *e = &r->k->entries[ei];
    ptort_npy a;
    memset(&a, 0, sizeof a);
    int64_t vr, vc;
    const char *descr = ptort_dtype_npy_descr(e->dtype);
    if (e->kind == PTORT_KARG_PTR) {
        const Input *in = &r->in[ei];
        a = in->arr;   /* the same bytes, which the kernel wrote through */
        vr = in->rows;
        vc = in->cols;
        if (path)
            return write_result(r, e, path, &a, r->out_float[ei]);
        char shape[160];
        shape_x(shape, sizeof shape, &a);
        print_result(r, ei, a.data, vr, vc, vr, vc, shape);
        return 0;
    }
    const ptort_tile *t = e->out ? e->out : e->in;
    if (!descr) {
        fprintf(stderr, "error: result '%%%s': %s has no .npy dtype\n", e->name, ptort_dtype_name(e->dtype));
        return 1;
    }
    ptort_tile c = whole(t);
    size_t item = (size_t)ptort_dtype_size(e->dtype);
    memcpy(a.descr, descr, 4);
    a.ndim = 2;
    a.shape[0] = t->rows;
    a.shape[1] = t->cols;
    a.itemsize = item;
    a.nbytes = (size_t)t->rows * (size_t)t->cols * item;
    a.data = calloc(a.nbytes ? a.nbytes : 1, 1);
    if (!a.data) {
        fprintf(stderr, "error: result '%%%s': out of memory\n", e->name);
        return 1;
    }
    int rc = 0;
    if (ptort_tile_read(r->ctx, &c, a.data, t->rows, t->cols)) {
        fprintf(stderr, "%s: runtime error: %s\n", e->where, ptort_error(r->ctx));
        rc = 1;
    } else if (path) {
        rc = write_result(r, e, path, &a, r->out_float[ei]);
    } else {
        vr = t->valid_rows;
        vc = t->valid_cols;
        if (is_dynamic(t)) {
            /* the valid shape the kernel ran with: from a scalar argument (alloc_tile
             * valid_row = %n), else the --in array's, else the physical one */
            const Input *in = &r->in[ei];
            int dyn_in = e->arg >= 0 && in->loaded;
            vr = t->valid_rows >= 0 ? t->valid_rows : dyn_in ? in->rows : t->rows;
            vc = t->valid_cols >= 0 ? t->valid_cols : dyn_in ? in->cols : t->cols;
            if (t->valid_rows < 0 && e->valid_rows_arg > 0 && e->valid_rows_arg <= r->k->nargs)
                vr = r->values[e->valid_rows_arg - 1].scalar;
            if (t->valid_cols < 0 && e->valid_cols_arg > 0 && e->valid_cols_arg <= r->k->nargs)
                vc = r->values[e->valid_cols_arg - 1].scalar;
            vr = vr < 0 ? 0 : vr > t->rows ? t->rows : vr;
            vc = vc < 0 ? 0 : vc > t->cols ? t->cols : vc;
        }
        print_result(r, ei, a.data, t->rows, t->cols, vr, vc, NULL);
    }
    free(a.data);
    return rc;
}

/* Splits "--opt NAME=VALUE" or "--opt=NAME=VALUE"; returns the option's index in opts or -1. */
static int option(int argc, char **argv, int *i, const char **name, size_t *nlen, const char **value, int *err)
{
    static const char *const opts[] = {"--in", "--out", "--arg", "--out-float"};
    const char *a = argv[*i];
    for (int k = 0; k < 4; k++) {
        size_t n = strlen(opts[k]);
        const char *v = NULL;
        if (strcmp(a, opts[k]) == 0) {
            if (*i + 1 >= argc) {
                fprintf(stderr, "error: option '%s' needs a value NAME=%s\n", opts[k], k == 2 ? "VALUE" : "FILE");
                *err = 1;
                return -1;
            }
            v = argv[++*i];
        } else if (strncmp(a, opts[k], n) == 0 && a[n] == '=') {
            v = a + n + 1;
        } else {
            continue;
        }
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || !eq[1]) {
            fprintf(stderr, "error: invalid value '%s' for %s, expected NAME=%s\n", v, opts[k], k == 2 ? "VALUE" : "FILE");
            *err = 1;
            return -1;
        }
        *name = v;
        *nlen = (size_t)(eq - v);
        *value = eq + 1;
        return k;
    }
    return -1;
}

/* The width of an integer scalar type, 0 for a float type (docs/scalars.md). */
static unsigned scalar_width(const char *t)
{
    static const struct { const char *name; unsigned w; } ints[] = {
        {"index", 64}, {"i1", 1}, {"i8", 8}, {"i16", 16}, {"i32", 32}, {"i64", 64},
        {"si8", 8}, {"si16", 16}, {"si32", 32}, {"si64", 64}, {"ui8", 8}, {"ui16", 16}, {"ui32", 32}, {"ui64", 64},
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (strcmp(t, ints[i].name) == 0)
            return ints[i].w;
    return 0;
}

/* --arg NAME=VALUE for a scalar argument of any type: an integer in its type's signed or
 * unsigned range (i1 also true/false), held sign-extended; a float (decimal, hex, inf, nan)
 * rounded to its type. False after printing why not. */
static int scalar_value(const ptort_kernel_arg *e, const char *value, ptort_kernel_value *v)
{
    const char *t = e->scalar_type ? e->scalar_type : "index";
    unsigned w = scalar_width(t);
    char *end;
    if (!w) {
        ptort_dtype d = strcmp(t, "f16") == 0 ? PTORT_F16 : strcmp(t, "bf16") == 0 ? PTORT_BF16 : PTORT_F32;
        errno = 0;
        double x = strtod(value, &end);
        if (*end || end == value || isspace((unsigned char)value[0])) {
            fprintf(stderr, "error: argument '%%%s': '%s' is not a number of type '%s'\n", e->name, value, t);
            return 0;
        }
        v->fscalar = ptort_scalar_round(x, d);
        return 1;
    }
    if (w == 1 && (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)) {
        v->scalar = value[0] == 't' ? -1 : 0;
        return 1;
    }
    errno = 0;
    int neg = value[0] == '-';
    long long sv = 0;
    unsigned long long uv = 0;
    /* decimal, or hex after 0x: a leading 0 is no octal prefix (010 is ten, as in
     * arith.constant); strtoll's base 16 takes the 0x itself */
    const char *digits = value + neg;
    int base = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10;
    if (neg)
        sv = strtoll(value, &end, base);
    else
        uv = strtoull(value, &end, base);
    int bad = errno || *end || end == value || isspace((unsigned char)value[0]) || (!neg && value[0] == '+');
    long long lo = w >= 64 ? INT64_MIN : -(1LL << (w - 1));
    unsigned long long hi = w >= 64 ? UINT64_MAX : (1ULL << w) - 1;
    if (bad || (neg && sv < lo) || (!neg && uv > hi)) {
        fprintf(stderr, "error: argument '%%%s': '%s' is not an integer of type '%s' (%lld to %llu)\n", e->name, value,
                t, lo, hi);
        return 0;
    }
    v->scalar = ptort_sext(neg ? (uint64_t)sv : (uint64_t)uv, w);
    return 1;
}

/* --blocks N, --block B, --threads T (also with '='): 1 and the value in LAUNCH[0..2] when
 * argv[*i] is one of them, 0 when not, -1 after an error. */
static int launch_option(int argc, char **argv, int *i, int64_t *launch)
{
    static const char *const opts[] = {"--blocks", "--block", "--threads"};
    const char *a = argv[*i];
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(opts[k]);
        const char *v;
        if (strcmp(a, opts[k]) == 0) {
            if (*i + 1 >= argc) {
                fprintf(stderr, "error: option '%s' needs a value\n", opts[k]);
                return -1;
            }
            v = argv[++*i];
        } else if (strncmp(a, opts[k], n) == 0 && a[n] == '=') {
            v = a + n + 1;
        } else {
            continue;
        }
        char *end;
        errno = 0;
        long long x = v[0] >= '0' && v[0] <= '9' ? strtoll(v, &end, 10) : -1;
        if (x < (k == 1 ? 0 : 1) || *end || errno || x > 1000000) {
            fprintf(stderr, "error: invalid value '%s' for %s, expected %s\n", v, opts[k],
                    k == 1 ? "a block index" : "a count from 1 to 1000000");
            return -1;
        }
        launch[k] = x;
        return 1;
    }
    return 0;
}

static int parse_args(Run *r, int argc, char **argv)
{
    const ptort_kernel *k = r->k;
    int64_t launch[3] = {0, -1, 0};
    int any_launch = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, k);
            return -1;
        }
        int lo = launch_option(argc, argv, &i, launch);
        if (lo < 0)
            return 2;
        if (lo > 0) {
            if (!k->launch) {
                fprintf(stderr, "error: option '%s' needs a launch: @%s is one function, not a module with a cube and a "
                        "vector function (docs/launch.md)\n", a, k->func);
                return 2;
            }
            any_launch = 1;
            continue;
        }
        const char *name, *value;
        size_t n;
        int err = 0;
        int opt = option(argc, argv, &i, &name, &n, &value, &err);
        if (err)
            return 2;
        if (opt < 0) {
            fprintf(stderr, "error: unknown option '%s' (see --help)\n", a);
            return 2;
        }
        int ei = find_entry(k, name, n);
        const ptort_kernel_arg *e = ei >= 0 ? &k->entries[ei] : NULL;
        char names[1024];
        const char *shown = n && name[0] == '%' ? name + 1 : name;
        int shown_len = (int)(n && name[0] == '%' ? n - 1 : n);
        if (opt == 0 || opt == 2) {
            if (!e || e->arg < 0) {
                list_names(k, 0, names, sizeof names);
                fprintf(stderr, "error: no argument '%%%.*s' in @%s (arguments: %s)\n", shown_len, shown, k->func, names);
                return 1;
            }
            if (opt == 0 && e->kind == PTORT_KARG_SCALAR) {
                fprintf(stderr, "error: argument '%%%s' is a scalar: set it with --arg %s=VALUE\n", e->name, e->name);
                return 1;
            }
            if (opt == 2 && e->kind != PTORT_KARG_SCALAR) {
                fprintf(stderr, "error: argument '%%%s' is not a scalar: fill it with --in %s=FILE\n", e->name, e->name);
                return 1;
            }
            /* an argument given twice is bad usage (status 2), as a result given twice
             * with --out: which one was meant is not for us to guess */
            const char **given = opt == 0 ? &r->in[ei].file : &r->in[ei].arg;
            if (*given) {
                fprintf(stderr, "error: argument '%%%s' given twice with %s ('%s' and '%s')\n", e->name,
                        opt == 0 ? "--in" : "--arg", *given, value);
                return 2;
            }
            *given = value;
            if (opt == 2) {
                if (!scalar_value(e, value, &r->values[e->arg]))
                    return 1;
                r->values[e->arg].valid_rows = 1; /* marks it as given */
            }
        } else {
            int ok = e && ((e->kind == PTORT_KARG_TILE && (e->out || e->in)) ||
                           (e->kind == PTORT_KARG_PTR && e->arg >= 0));
            if (!ok) {
                list_names(k, 1, names, sizeof names);
                fprintf(stderr, "error: no result '%%%.*s' in @%s (results and buffers: %s)\n", shown_len, shown,
                        k->func, names);
                return 1;
            }
            if (r->out[ei]) {
                fprintf(stderr, "error: result '%%%s' given twice with --out ('%s' and '%s')\n", e->name,
                        r->out[ei], value);
                return 2;
            }
            r->out[ei] = value;
            r->out_float[ei] = opt == 3;
            r->any_out = 1;
        }
    }
    if (any_launch && launch[1] >= (launch[0] ? launch[0] : 1)) {
        fprintf(stderr, "error: --block %lld is not a block of a launch of %lld\n", (long long)launch[1],
                (long long)(launch[0] ? launch[0] : 1));
        return 2;
    }
    ptort_set_launch_options(r->ctx, launch[0], launch[1], launch[2]);
    return 0;
}

int ptort_run_main(int argc, char **argv, const ptort_kernel *k)
{
    if (!k)
        return 2;
    /* This is the program's main: a file size limit makes --out fail with EFBIG
     * (reported, the old file kept) rather than SIGXFSZ killing it silently. */
    signal(SIGXFSZ, SIG_IGN);
    Run r;
    memset(&r, 0, sizeof r);
    r.k = k;
    int n = k->nentries, rc = 1;
    r.in = calloc((size_t)n + 1, sizeof *r.in);
    r.out = calloc((size_t)n + 1, sizeof *r.out);
    r.out_float = calloc((size_t)n + 1, 1);
    r.values = calloc((size_t)k->nargs + 1, sizeof *r.values);
    r.ctx = ptort_ctx_new(k->arch, k->mem_size);
    /* the run is core 0 of a one-core launch: the race checker sees the checked functions'
     * ops (a kernel built with --no-race-check tells it nothing) */
    ptort_race *race = ptort_race_new(1);
    if (r.ctx)
        ptort_ctx_set_numerics(r.ctx, k->numerics);
    ptort_race_attach(r.ctx, race, 0);
    if (!r.in || !r.out || !r.out_float || !r.values || !r.ctx || !race) {
        fprintf(stderr, "error: cannot set up the kernel's memory (out of memory)\n");
        rc = 2;
        goto done;
    }
    rc = parse_args(&r, argc, argv);
    if (rc < 0) {
        rc = 0; /* --help */
        goto done;
    }
    if (rc)
        goto done;

    /* everything is checked before anything runs, and every problem is
     * reported (each missing argument, each input that cannot be read), so
     * that one more try is enough: status 2 if an input could not be read,
     * else 1 */
    rc = 0;
    for (int i = 0; i < n; i++) {
        const ptort_kernel_arg *e = &k->entries[i];
        if (e->arg < 0)
            continue;
        int lr = 0;
        if (e->kind == PTORT_KARG_SCALAR && !r.values[e->arg].valid_rows) {
            fprintf(stderr, "error: argument '%%%s': missing --arg %s=VALUE\n", e->name, e->name);
            lr = 1;
        } else if (e->kind == PTORT_KARG_TILE && (e->flags & PTORT_KARG_READ) && !r.in[i].file) {
            fprintf(stderr, "error: argument '%%%s': missing --in %s=FILE (the kernel reads it before writing it)\n",
                    e->name, e->name);
            lr = 1;
        } else if (e->kind == PTORT_KARG_PTR && !r.in[i].file) {
            fprintf(stderr, "error: argument '%%%s': missing --in %s=FILE (the memory behind the pointer)\n", e->name,
                    e->name);
            lr = 1;
        } else if (r.in[i].file) {
            lr = load_input(&r, i); /* 2 for I/O, 1 for a bad array */
        }
        if (lr > rc)
            rc = lr;
    }
    if (rc)
        goto done;
    rc = 1;
    for (int i = 0; i < n; i++) {
        const ptort_kernel_arg *e = &k->entries[i];
        if (e->arg < 0)
            continue;
        ptort_kernel_value *v = &r.values[e->arg];
        if (e->kind == PTORT_KARG_SCALAR) {
            v->valid_rows = 0;
            continue;
        }
        Input *in = &r.in[i];
        if (e->kind == PTORT_KARG_PTR) {
            v->ptr = in->arr.data;
            v->size = in->arr.nbytes;
            continue;
        }
        if (e->in && is_dynamic(e->in)) {
            /* the valid shape is the --in array's; without one, the physical shape */
            v->valid_rows = e->in->valid_rows >= 0 ? e->in->valid_rows : in->loaded ? in->rows : e->in->rows;
            v->valid_cols = e->in->valid_cols >= 0 ? e->in->valid_cols : in->loaded ? in->cols : e->in->cols;
        } else if (e->in) {
            v->valid_rows = e->in->valid_rows;
            v->valid_cols = e->in->valid_cols;
        }
        if (in->loaded && e->in) {
            ptort_tile c = whole(e->in);
            if (ptort_tile_fill(r.ctx, &c, in->arr.data, in->rows, in->cols)) {
                fprintf(stderr, "%s: runtime error: %s\n", e->where, ptort_error(r.ctx));
                goto done;
            }
        }
    }

    if (k->run(r.ctx, r.values) != PTORT_OK)
        goto done; /* the kernel reported where */
    fflush(stderr);

    rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        if (r.out[i])
            rc = emit_result(&r, i, r.out[i]);
        else if (!r.any_out && (k->entries[i].flags & PTORT_KARG_RESULT))
            rc = emit_result(&r, i, NULL);
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "error: cannot write to standard output\n");
        rc = 1;
    }

done:
    if (r.in)
        for (int i = 0; i < n; i++)
            ptort_npy_free(&r.in[i].arr);
    free(r.in);
    free(r.out);
    free(r.out_float);
    free(r.values);
    ptort_ctx_free(r.ctx);
    ptort_race_free(race);
    return rc;
}
