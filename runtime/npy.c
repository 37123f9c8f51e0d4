/* npy.c - reading and writing NumPy .npy files (format versions 1.0 and 2.0).
 *
 * Only what `ptoas run` exchanges is accepted: C order, little-endian (or byte-sized) ints
 * and floats of the descrs below. Anything else is rejected with a message that says what
 * was found. Written files are byte-identical to numpy.save's: the header dict with sorted
 * keys, the spare spaces numpy leaves for growing the first axis, padding to 64 bytes, '\n'.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

static const struct {
    const char *descr;
    size_t size;
} known[] = {
    {"<f4", 4}, {"<f2", 2}, {"<i4", 4}, {"<i2", 2}, {"|i1", 1}, {"|u1", 1}, {"<u2", 2}, {"<u4", 4},
    {"<i8", 8}, {"<u8", 8},
};

static size_t descr_size(const char *d)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i].descr, d) == 0)
            return known[i].size;
    return 0;
}

const char *ptort_dtype_npy_descr(ptort_dtype dt)
{
    switch (dt) {
    case PTORT_F32: return "<f4";
    case PTORT_F16: return "<f2";
    case PTORT_BF16: return "<u2";
    case PTORT_U16: return "<u2";
    case PTORT_I64: return "<i8";
    case PTORT_U64: return "<u8";
    case PTORT_I32: return "<i4";
    case PTORT_U32: return "<u4";
    case PTORT_I16: return "<i2";
    case PTORT_I8: return "|i1";
    case PTORT_U8: case PTORT_F8E4M3FN: case PTORT_F8E5M2: case PTORT_F8E8M0FNU:
    case PTORT_F4E2M1X2: return "|u1";
    default: return NULL;
    }
}

/* ---- header parsing ---------------------------------------------------------------- */

typedef struct {
    const char *p, *end;
} Cursor;

static void skip_ws(Cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
}

static int eat(Cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* A Python string literal in ' or " quotes, without escapes; at most CAP-1 chars. */
static int parse_str(Cursor *c, char *out, size_t cap)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return 0;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        /* no escapes, and no control bytes: a NUL in '<f4<NUL>' must not cut it to '<f4' */
        if (*c->p == '\\' || (unsigned char)*c->p < 0x20 || n + 1 >= cap)
            return 0;
        out[n++] = *c->p++;
    }
    if (c->p >= c->end)
        return 0;
    c->p++;
    out[n] = 0;
    return 1;
}

static int parse_word(Cursor *c, const char *w)
{
    skip_ws(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return 1;
    }
    return 0;
}

static ptort_status bad(ptort_ctx *ctx, const char *what)
{
    return ptort_fail(ctx, PTORT_E_FORMAT, "npy: %s", what);
}

static ptort_status parse_shape(ptort_ctx *ctx, Cursor *c, ptort_npy *out)
{
    if (!eat(c, '('))
        return bad(ctx, "malformed header: 'shape' must be a tuple");
    out->ndim = 0;
    for (;;) {
        if (eat(c, ')'))
            return PTORT_OK;
        skip_ws(c);
        if (c->p >= c->end || *c->p < '0' || *c->p > '9')
            return bad(ctx, "malformed header: shape entries must be non-negative integers");
        int64_t v = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            if (v > (INT64_MAX - 9) / 10)
                return bad(ctx, "malformed header: shape entry too large");
            v = v * 10 + (*c->p++ - '0');
        }
        if (c->p < c->end && *c->p == 'L')  /* Python 2 long suffix, written by old numpy */
            c->p++;
        if (out->ndim == PTORT_NPY_MAX_DIMS)
            return bad(ctx, "unsupported shape: more than 8 dimensions");
        out->shape[out->ndim++] = v;
        if (!eat(c, ',')) {
            if (eat(c, ')'))
                return PTORT_OK;
            return bad(ctx, "malformed header: expected ',' or ')' in shape");
        }
    }
}

static ptort_status parse_header(ptort_ctx *ctx, const char *h, size_t len, ptort_npy *out)
{
    Cursor c = {h, h + len};
    int have_descr = 0, have_order = 0, have_shape = 0;
    if (!eat(&c, '{'))
        return bad(ctx, "malformed header: expected a '{' dictionary");
    for (;;) {
        if (eat(&c, '}'))
            break;
        char key[32];
        if (!parse_str(&c, key, sizeof key))
            return bad(ctx, "malformed header: expected a quoted key");
        if (!eat(&c, ':'))
            return bad(ctx, "malformed header: expected ':' after a key");
        if (strcmp(key, "descr") == 0) {
            char d[64];
            skip_ws(&c);
            if (c.p < c.end && (*c.p == '[' || *c.p == '('))
                return bad(ctx, "unsupported descr: structured dtypes are not supported");
            if (!parse_str(&c, d, sizeof d))
                return bad(ctx, "malformed header: 'descr' must be a string");
            if (strcmp(d, "|O") == 0 || strcmp(d, "O") == 0 || strcmp(d, "<O") == 0)
                return bad(ctx, "object arrays ('|O') are not supported");
            if (d[0] == '>')
                return ptort_fail(ctx, PTORT_E_FORMAT,
                                  "npy: big-endian data ('%s') is not supported; save it little-endian", d);
            if (!descr_size(d))
                return ptort_fail(ctx, PTORT_E_FORMAT,
                                  "npy: unsupported descr '%s' (expected one of <f4 <f2 <i4 <i2 |i1 |u1 <u2 <u4 <i8 <u8)", d);
            memcpy(out->descr, d, 4);
            out->itemsize = descr_size(d);
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (parse_word(&c, "True"))
                return bad(ctx, "Fortran-order arrays are not supported; save a C-order array");
            if (!parse_word(&c, "False"))
                return bad(ctx, "malformed header: 'fortran_order' must be True or False");
            have_order = 1;
        } else if (strcmp(key, "shape") == 0) {
            ptort_status st = parse_shape(ctx, &c, out);
            if (st)
                return st;
            have_shape = 1;
        } else {
            return ptort_fail(ctx, PTORT_E_FORMAT, "npy: malformed header: unexpected key '%s'", key);
        }
        if (!eat(&c, ',')) {
            if (eat(&c, '}'))
                break;
            return bad(ctx, "malformed header: expected ',' or '}'");
        }
    }
    if (!have_descr || !have_order || !have_shape)
        return bad(ctx, "malformed header: 'descr', 'fortran_order' and 'shape' are all required");
    while (c.p < c.end && (*c.p == ' ' || *c.p == '\t' || *c.p == '\n' || *c.p == '\r' || *c.p == 0))
        c.p++;
    if (c.p != c.end)
        return bad(ctx, "malformed header: text after the dictionary");
    return PTORT_OK;
}

ptort_status ptort_npy_parse(ptort_ctx *ctx, const void *buf, size_t len, ptort_npy *out)
{
    if (!buf || !out)
        return ptort_fail(ctx, PTORT_E_ARG, "npy: missing buffer");
    memset(out, 0, sizeof *out);
    const uint8_t *b = buf;
    if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0)
        return bad(ctx, "not a .npy file (bad magic)");
    size_t pre, hlen;
    if (b[6] == 1 && b[7] == 0) {
        pre = 10;
        hlen = (size_t)b[8] | (size_t)b[9] << 8;
    } else if (b[6] == 2 && b[7] == 0) {
        if (len < 12)
            return bad(ctx, "truncated header");
        pre = 12;
        hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
    } else {
        return ptort_fail(ctx, PTORT_E_FORMAT, "npy: unsupported format version %u.%u (expected 1.0 or 2.0)",
                          b[6], b[7]);
    }
    if (hlen > len - pre)
        return ptort_fail(ctx, PTORT_E_FORMAT,
                          "npy: truncated header: it claims %zu bytes but the file has %zu after the preamble",
                          hlen, len - pre);
    const char *h = (const char *)b + pre;
    if (hlen == 0 || h[hlen - 1] != '\n')
        return bad(ctx, "malformed header: it must end with a newline");
    ptort_status st = parse_header(ctx, h, hlen, out);
    if (st)
        return st;
    size_t count = 1;
    for (int i = 0; i < out->ndim; i++) {
        if (out->shape[i] != 0 && count > SIZE_MAX / 8 / (size_t)out->shape[i])
            return bad(ctx, "shape too large");
        count *= (size_t)out->shape[i];
    }
    out->nbytes = count * out->itemsize;
    size_t have = len - pre - hlen;
    if (have < out->nbytes)
        return ptort_fail(ctx, PTORT_E_FORMAT,
                          "npy: truncated data: the header describes %zu bytes but the file has %zu",
                          out->nbytes, have);
    if (have > out->nbytes)
        return ptort_fail(ctx, PTORT_E_FORMAT,
                          "npy: the file has %zu bytes of data but the header describes %zu",
                          have, out->nbytes);
    out->data = malloc(out->nbytes ? out->nbytes : 1);
    if (!out->data)
        return ptort_fail(ctx, PTORT_E_NOMEM, "npy: out of memory (%zu bytes)", out->nbytes);
    memcpy(out->data, b + pre + hlen, out->nbytes);
    return PTORT_OK;
}

ptort_status ptort_npy_read(ptort_ctx *ctx, const char *path, ptort_npy *out)
{
    if (!path || !out)
        return ptort_fail(ctx, PTORT_E_ARG, "npy: missing path");
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return ptort_fail(ctx, PTORT_E_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            return ptort_fail(ctx, PTORT_E_NOMEM, "%s: out of memory", path);
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        uint8_t *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
        if (!nb)
            free(buf);
        buf = nb;
        cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return ptort_fail(ctx, PTORT_E_IO, "%s: read error", path);
    }
    ptort_status st = ptort_npy_parse(ctx, buf, len, out);
    free(buf);
    if (st && ctx) {
        char msg[PTORT_ERR_MAX];
        snprintf(msg, sizeof msg, "%s", ctx->err);
        ptort_fail(ctx, st, "%s: %s", path, msg);
    }
    return st;
}

/* ---- writing ----------------------------------------------------------------------- */

size_t ptort_npy_header(char *buf, size_t cap, const char *descr, int ndim,
                        const int64_t *shape)
{
    if (!buf || !descr || !descr_size(descr) || ndim < 0 || ndim > PTORT_NPY_MAX_DIMS ||
        (ndim > 0 && !shape))
        return 0;
    char dict[512];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            return 0;
        n += snprintf(dict + n, sizeof dict - (size_t)n, i ? ", %lld" : "%lld", (long long)shape[i]);
    }
    n += snprintf(dict + n, sizeof dict - (size_t)n, ndim == 1 ? ",), }" : "), }");
    if (ndim > 0) {
        /* numpy leaves room to rewrite the first axis with up to 21 digits in place. */
        char first[32];
        int digits = snprintf(first, sizeof first, "%lld", (long long)shape[0]);
        for (int i = digits; i < 21; i++)
            dict[n++] = ' ';
    }
    size_t hlen = (size_t)n + 1;                      /* + the final '\n' */
    size_t pad = 64 - (10 + hlen) % 64;              /* numpy pads a whole 64 when aligned */
    size_t total = 10 + hlen + pad;
    if (total > cap || hlen + pad > 65535)
        return 0;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (char)((hlen + pad) & 0xFF);
    buf[9] = (char)((hlen + pad) >> 8);
    memcpy(buf + 10, dict, (size_t)n);
    memset(buf + 10 + n, ' ', pad);
    buf[total - 1] = '\n';
    return total;
}

ptort_status ptort_npy_write(ptort_ctx *ctx, const char *path, const ptort_npy *arr)
{
    if (!path || !arr)
        return ptort_fail(ctx, PTORT_E_ARG, "npy: missing path or array");
    char d[4];
    memcpy(d, arr->descr, 4);
    d[3] = 0;
    size_t isz = descr_size(d);
    if (!isz)
        return ptort_fail(ctx, PTORT_E_ARG, "npy: cannot write descr '%s'", d);
    if (arr->ndim < 0 || arr->ndim > PTORT_NPY_MAX_DIMS)
        return ptort_fail(ctx, PTORT_E_ARG, "npy: bad number of dimensions %d", arr->ndim);
    size_t count = 1;
    for (int i = 0; i < arr->ndim; i++) {
        if (arr->shape[i] < 0 || (arr->shape[i] && count > SIZE_MAX / 8 / (size_t)arr->shape[i]))
            return ptort_fail(ctx, PTORT_E_ARG, "npy: bad shape");
        count *= (size_t)arr->shape[i];
    }
    if (count * isz != arr->nbytes || (arr->nbytes && !arr->data))
        return ptort_fail(ctx, PTORT_E_ARG, "npy: the array holds %zu bytes but its shape needs %zu",
                          arr->nbytes, count * isz);
    char hdr[1024];
    size_t hl = ptort_npy_header(hdr, sizeof hdr, d, arr->ndim, arr->shape);
    if (!hl)
        return ptort_fail(ctx, PTORT_E_ARG, "npy: header does not fit");
    /* Atomic: a temporary file next to PATH, renamed over it once complete, so a
     * failed write (disk full, a file size limit) leaves the previous file, and
     * concurrent writers leave one whole result. A non-regular target
     * (/dev/stdout, a FIFO) is written in place. */
    struct stat st;
    char *tmp = NULL;
    FILE *f;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        f = fopen(path, "wb");
    } else {
        size_t n = strlen(path);
        const char *slash = strrchr(path, '/');
        size_t base = slash ? n - (size_t)(slash + 1 - path) : n;
        size_t keep = base + 11 > 255 ? n - (base - 244) : n; /* the name stays within NAME_MAX */
        tmp = malloc(keep + 12);
        if (!tmp)
            return ptort_fail(ctx, PTORT_E_NOMEM, "%s: out of memory", path);
        memcpy(tmp, path, keep);
        memcpy(tmp + keep, ".tmp.XXXXXX", 12);
        int fd = mkstemp(tmp);
        if (fd < 0) {
            int err = errno;
            free(tmp);
            return ptort_fail(ctx, PTORT_E_IO, "%s: cannot create: %s", path, strerror(err));
        }
        mode_t mask = umask(0);
        umask(mask);
        if (fchmod(fd, 0666 & ~mask) != 0) {
            /* not fatal: the file is only more private */
        }
        f = fdopen(fd, "wb");
        if (!f)
            close(fd);
    }
    if (!f) {
        int err = errno;
        if (tmp)
            unlink(tmp);
        free(tmp);
        return ptort_fail(ctx, PTORT_E_IO, "%s: cannot create: %s", path, strerror(err));
    }
    int ok = fwrite(hdr, 1, hl, f) == hl &&
             (arr->nbytes == 0 || fwrite(arr->data, 1, arr->nbytes, f) == arr->nbytes);
    ok = fflush(f) == 0 && ok;
    int err = errno;
    ok = fclose(f) == 0 && ok;
    if (ok && tmp && rename(tmp, path) != 0) {
        ok = 0;
        err = errno;
    }
    if (!ok) {
        if (tmp)
            unlink(tmp);
        free(tmp);
        return ptort_fail(ctx, PTORT_E_IO, "%s: write error: %s", path, strerror(err));
    }
    free(tmp);
    return PTORT_OK;
}

void ptort_npy_free(ptort_npy *arr)
{
    if (!arr)
        return;
    free(arr->data);
    memset(arr, 0, sizeof *arr);
}
