/* fuzz_parse.c - libFuzzer target for the frontend: any input must parse
 * without a crash, a hang or unbounded memory, and when it parses cleanly,
 * printing must be idempotent (print -> parse -> print gives the same bytes,
 * with no diagnostics on the way). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parses text; returns the canonical print (malloc'ed) or NULL on errors. */
static char *parse_print(const char *text, size_t len, size_t *out_len, int generic)
{
    SourceFile src;
    source_init(&src, "fuzz.pto", text, len);
    FILE *sink = fopen("/dev/null", "w");
    DiagEngine *d = diag_new(&src, DIAG_TEXT, sink);
    Module *m = frontend_parse(&src, 0, (uint32_t)len, d);
    diag_flush(d);
    char *out = NULL;
    if (diag_error_count(d) == 0) {
        FILE *mem = open_memstream(&out, out_len);
        frontend_print(mem, m, generic);
        fclose(mem);
    }
    frontend_free(m);
    diag_free(d);
    fclose(sink);
    source_free(&src);
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    char *buf = malloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = 0;
    size_t n1 = 0, n2 = 0;
    char *p1 = parse_print(buf, size, &n1, 0);
    if (p1) {
        char *p2 = parse_print(p1, n1, &n2, 0);
        if (!p2 || n1 != n2 || memcmp(p1, p2, n1) != 0) {
            fprintf(stderr, "printing is not idempotent:\n--- first\n%.*s--- second\n%.*s", (int)n1, p1,
                    p2 ? (int)n2 : 0, p2 ? p2 : "");
            abort();
        }
        free(p2);
        size_t ng = 0;
        free(parse_print(buf, size, &ng, 1)); /* the generic printer must not crash either */
    }
    free(p1);
    free(buf);
    return 0;
}
