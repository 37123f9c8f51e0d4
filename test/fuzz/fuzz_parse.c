/* fuzz_parse.c - libFuzzer target for the whole assembler: any input must go
 * through parse, verify, bufferize, tassign and C emission without a crash, a
 * hang or unbounded memory. Two properties are checked on the way:
 *   - printing is idempotent: print -> parse -> print gives the same bytes;
 *   - the pipeline's output re-assembles to itself: when all passes succeed,
 *     running them again on the printed IR prints the same bytes;
 *   - the IR after bufferize and tassign passes the verifier again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "emit_c.h"
#include "frontend.h"
#include "pass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef enum { STAGE_PARSE, STAGE_ALL } Stage;

/* Assembles text up to stage; returns the canonical print (malloc'ed), or
 * NULL when anything reported an error. */
static char *assemble(const char *text, size_t len, size_t *out_len, Stage stage, int generic)
{
    PassConfig cfg = pass_config_default();
    SourceFile src;
    source_init(&src, "fuzz.pto", text, len);
    FILE *sink = fopen("/dev/null", "w");
    DiagEngine *d = diag_new(&src, DIAG_TEXT, sink);
    Module *m = frontend_parse(&src, 0, (uint32_t)len, d);
    for (unsigned i = 0; stage == STAGE_ALL && i < pass_pipeline_len && !diag_error_count(d); i++)
        pass_pipeline[i].run(m, &src, d, &cfg);
    if (stage == STAGE_ALL && !diag_error_count(d)) {
        if (!verify_module(m, &src, d, &cfg)) {
            fprintf(stderr, "the IR after bufferize and tassign fails verification\n");
            abort();
        }
        emit_c(sink, m, &src, d, &cfg, false);
    }
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

/* Aborts unless assembling a's text again gives a back. */
static void check_fixpoint(const char *what, const char *a, size_t na, Stage stage)
{
    size_t nb = 0;
    char *b = assemble(a, na, &nb, stage, 0);
    if (!b || na != nb || memcmp(a, b, na) != 0) {
        fprintf(stderr, "%s:\n--- first\n%.*s--- second\n%.*s", what, (int)na, a, b ? (int)nb : 0, b ? b : "");
        abort();
    }
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20))
        return 0;
    char *buf = malloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = 0;
    size_t n = 0;
    char *parsed = assemble(buf, size, &n, STAGE_PARSE, 0);
    if (parsed) {
        check_fixpoint("printing is not idempotent", parsed, n, STAGE_PARSE);
        free(assemble(buf, size, &n, STAGE_PARSE, 1)); /* the generic printer must not crash either */
        char *done = assemble(buf, size, &n, STAGE_ALL, 0);
        if (done)
            check_fixpoint("the pipeline's output does not re-assemble to itself", done, n, STAGE_ALL);
        free(done);
    }
    free(parsed);
    free(buf);
    return 0;
}
