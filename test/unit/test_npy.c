/* test_npy.c - .npy reading and writing: numpy.save's exact v1.0 header bytes (built here by
 * hand from the format description), a write/read round trip, v2.0 input, and one check per
 * malformed-file error.
 */
#include <stdlib.h>
#include <unistd.h>

#include "ptort.h"
#include "unit.h"

/* magic, version 1.0, header length, dict, spaces, '\n': numpy.save's layout. */
static size_t expected_header(char *out, const char *dict, size_t total)
{
    size_t dl = strlen(dict);
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (char)((total - 10) & 0xFF);
    out[9] = (char)((total - 10) >> 8);
    memcpy(out + 10, dict, dl);
    memset(out + 10 + dl, ' ', total - 11 - dl);
    out[total - 1] = '\n';
    return total;
}

static void headers(void)
{
    char got[256], want[256];
    int64_t s2[2] = {32, 64}, s1[1] = {5};
    /* 61-char dict + 19 growth spaces + '\n' + 10 = 91 -> padded to 128 */
    size_t n = ptort_npy_header(got, sizeof got, "<f4", 2, s2);
    expected_header(want, "{'descr': '<f4', 'fortran_order': False, 'shape': (32, 64), }", 128);
    CHECK_EQ(n, 128);
    CHECK_BYTES(got, want, 128);
    CHECK_EQ((uint8_t)got[8], 0x76);
    n = ptort_npy_header(got, sizeof got, "<u2", 1, s1);
    expected_header(want, "{'descr': '<u2', 'fortran_order': False, 'shape': (5,), }", 128);
    CHECK_EQ(n, 128);
    CHECK_BYTES(got, want, 128);
    n = ptort_npy_header(got, sizeof got, "|u1", 0, NULL);
    expected_header(want, "{'descr': '|u1', 'fortran_order': False, 'shape': (), }", 128);
    CHECK_EQ(n, 128);
    CHECK_BYTES(got, want, 128);
    /* A long shape crosses into a second block: 8 dims of 10 digits. */
    int64_t s8[8];
    for (int i = 0; i < 8; i++)
        s8[i] = 1000000000;
    n = ptort_npy_header(got, sizeof got, "|i1", 8, s8);
    CHECK(n % 64 == 0 && n > 128 && got[n - 1] == '\n');
    CHECK_EQ(ptort_npy_header(got, sizeof got, "<f8", 1, s1), 0);
}

static void round_trip(void)
{
    char path[] = "/tmp/ptort_npy_XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    close(fd);
    float data[6] = {1.5f, -2, 0, 3.25f, 1e-3f, -0.0f};
    ptort_npy a;
    memset(&a, 0, sizeof a);
    memcpy(a.descr, "<f4", 4);
    a.ndim = 2;
    a.shape[0] = 2;
    a.shape[1] = 3;
    a.itemsize = 4;
    a.nbytes = sizeof data;
    a.data = data;
    CHECK(ptort_npy_write(NULL, path, &a) == PTORT_OK);
    FILE *f = fopen(path, "rb");
    char buf[512];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    char want[128];
    expected_header(want, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 128);
    CHECK_EQ(len, 128 + sizeof data);
    CHECK_BYTES(buf, want, 128);
    CHECK_BYTES(buf + 128, data, sizeof data);
    ptort_npy b;
    CHECK(ptort_npy_read(NULL, path, &b) == PTORT_OK);
    CHECK(strcmp(b.descr, "<f4") == 0 && b.ndim == 2 && b.shape[0] == 2 && b.shape[1] == 3 &&
          b.itemsize == 4 && b.nbytes == sizeof data);
    CHECK_BYTES(b.data, data, sizeof data);
    ptort_npy_free(&b);
    unlink(path);

    ptort_ctx *ctx = ptort_ctx_new(PTORT_A3, NULL);
    CHECK_STATUS(ctx, ptort_npy_read(ctx, "/nonexistent/x.npy", &b), PTORT_E_IO, "cannot open");
    a.nbytes = 20;
    CHECK_STATUS(ctx, ptort_npy_write(ctx, path, &a), PTORT_E_ARG, "its shape needs 24");
    ptort_ctx_free(ctx);
}

/* Builds a file image: v1 or v2 preamble, the header text padded to 64, then DATA. */
static size_t image(uint8_t *out, int version, const char *dict, const void *data, size_t dlen)
{
    size_t pre = version == 1 ? 10 : 12, dl = strlen(dict);
    size_t total = (pre + dl + 1 + 63) / 64 * 64;
    size_t hlen = total - pre;
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (uint8_t)version;
    out[7] = 0;
    out[8] = (uint8_t)(hlen & 0xFF);
    out[9] = (uint8_t)(hlen >> 8);
    if (version == 2)
        out[10] = out[11] = 0;
    memcpy(out + pre, dict, dl);
    memset(out + pre + dl, ' ', hlen - dl - 1);
    out[total - 1] = '\n';
    memcpy(out + total, data, dlen);
    return total + dlen;
}

static void malformed(void)
{
    ptort_ctx *ctx = ptort_ctx_new(PTORT_A3, NULL);
    uint8_t buf[512];
    int16_t d[4] = {1, -2, 3, -4};
    ptort_npy a;
    size_t n = image(buf, 2, "{'shape': (2, 2), 'fortran_order': False, 'descr': '<i2'}", d, 8);
    CHECK(ptort_npy_parse(ctx, buf, n, &a) == PTORT_OK);
    CHECK(a.ndim == 2 && a.shape[0] == 2 && strcmp(a.descr, "<i2") == 0);
    CHECK_BYTES(a.data, d, 8);
    ptort_npy_free(&a);
    n = image(buf, 1, "{\"descr\": \"|i1\", \"fortran_order\": False, \"shape\": (4,)}", d, 4);
    CHECK(ptort_npy_parse(ctx, buf, n, &a) == PTORT_OK);
    ptort_npy_free(&a);

    n = image(buf, 1, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 2), }", d, 8);
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "Fortran-order arrays are not supported");
    n = image(buf, 1, "{'descr': '>i2', 'fortran_order': False, 'shape': (2, 2), }", d, 8);
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "big-endian data ('>i2') is not supported");
    n = image(buf, 1, "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", d, 8);
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "object arrays");
    n = image(buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", d, 8);
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "unsupported descr '<f8'");
    n = image(buf, 1, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 2), }", d, 6);
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT,
                 "truncated data: the header describes 8 bytes but the file has 6");
    n = image(buf, 1, "{'descr': '<i2', 'fortran_order': False, 'shape': (1, 2), }", d, 8);
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT,
                 "the file has 8 bytes of data but the header describes 4");
    n = image(buf, 1, "{'descr': '<i2', 'shape': (2, 2), }", d, 8);
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "are all required");
    n = image(buf, 1, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, -2), }", d, 8);
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "non-negative integers");
    n = image(buf, 1, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 2), 'x': 1}", d, 8);
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "unexpected key 'x'");
    n = image(buf, 1, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 2), }", d, 8);
    buf[6] = 3;
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "unsupported format version 3.0");
    buf[6] = 1;
    buf[8] = 0xFF;                     /* a header length beyond the end of the file */
    buf[9] = 0x7F;
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "truncated header");
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, 7, &a), PTORT_E_FORMAT, "bad magic");
    buf[0] = 'X';
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "bad magic");
    n = image(buf, 1, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 2), }", d, 8);
    buf[127] = ' ';                    /* no final newline */
    CHECK_STATUS(ctx, ptort_npy_parse(ctx, buf, n, &a), PTORT_E_FORMAT, "must end with a newline");
    CHECK(a.data == NULL);
    ptort_ctx_free(ctx);
}

int main(void)
{
    headers();
    round_trip();
    malformed();
    return unit_done();
}
