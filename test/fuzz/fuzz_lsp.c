/* fuzz_lsp.c - libFuzzer target for the language server's message handling:
 * no input may crash it, hang it or make it use unbounded memory.
 *
 * Two forms of input:
 *   - starting with "Content-Length" (any case): the bytes are the server's
 *     standard input as they are, framing included, run through lsp_main
 *     from a pipe;
 *   - anything else: one message body per line, after a fixed initialize
 *     and initialized, each followed by the debounced analyses (so that hover,
 *     completion and the rest run on the documents the messages built).
 * Output goes to /dev/null; the fuzzer's sanitizers are the oracle. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "lsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run_framed(const uint8_t *data, size_t size, FILE *out)
{
    int fds[2];
    if (size > 60000 || pipe(fds) != 0)
        return; /* a pipe holds 64 KiB without a reader */
    size_t off = 0;
    while (off < size) {
        ssize_t n = write(fds[1], data + off, size - off);
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    close(fds[1]);
    lsp_main(fds[0], out);
    close(fds[0]);
}

static void run_lines(const uint8_t *data, size_t size, FILE *out)
{
    static const char init[] =
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}";
    static const char inited[] = "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}";
    LspServer *s = lsp_new(out);
    lsp_handle(s, init, sizeof init - 1);
    lsp_handle(s, inited, sizeof inited - 1);
    const char *p = (const char *)data, *end = p + size;
    int status;
    while (p < end && !lsp_exited(s, &status)) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        lsp_handle(s, p, (size_t)(le - p));
        lsp_flush(s);
        p = nl ? nl + 1 : end;
    }
    lsp_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    FILE *out = fopen("/dev/null", "w");
    if (!out)
        return 0;
    if (size >= 14 && strncasecmp((const char *)data, "content-length", 14) == 0)
        run_framed(data, size, out);
    else
        run_lines(data, size, out);
    fclose(out);
    return 0;
}
