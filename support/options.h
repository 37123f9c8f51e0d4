/* options.h - the command-line options of `ptoas` (docs/cli.md), parsed and
 * validated by the driver (driver/ptoas.c) into one Options value that the
 * passes and codegen read. Nothing here prints or exits. */
#ifndef PTOAS_OPTIONS_H
#define PTOAS_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>
#include "diag.h"

/* The release, printed by --version and stamped into generated C. */
#define PTOAS_VERSION "0.1.0"

/* --emit: what the driver writes to stdout or -o. */
typedef enum {
    OPT_EMIT_IR,      /* canonical PTO text (docs/language.md section 6), the default */
    OPT_EMIT_GENERIC, /* MLIR generic form */
    OPT_EMIT_C,       /* C source calling the runtime */
    OPT_EMIT_EXE      /* an executable; needs -o */
} OptEmit;

/* --pto-arch: the target when the module has no pto.target_arch attribute. */
typedef enum { OPT_ARCH_A2, OPT_ARCH_A3, OPT_ARCH_A5 } OptArch;

/* --pto-level (docs/memory.md section 2): level1 and level2 = automatic addresses,
 * level3 = manual addresses (the tassign pass only checks). */
typedef enum { OPT_LEVEL1 = 1, OPT_LEVEL2 = 2, OPT_LEVEL3 = 3 } OptLevel;

/* The pipeline's passes in order, as --stop-after and --print-ir-after name them. */
typedef enum {
    OPT_PASS_PARSE,
    OPT_PASS_VERIFY,
    OPT_PASS_BUFFERIZE,
    OPT_PASS_TASSIGN,
    OPT_PASS_COUNT
} OptPass;

/* Memory spaces in docs/memory.md's table order: the index of Options.mem_size. */
typedef enum {
    OPT_LOC_VEC,
    OPT_LOC_MAT,
    OPT_LOC_LEFT,
    OPT_LOC_RIGHT,
    OPT_LOC_ACC,
    OPT_LOC_BIAS,
    OPT_LOC_SCALING,
    OPT_LOC_COUNT
} OptLoc;

typedef struct Options {
    const char *input;        /* FILE.pto; "-" = standard input (the default) */
    const char *output;       /* -o FILE, written atomically; NULL = stdout */
    OptEmit emit;             /* --emit=ir|generic|c|exe (default ir) */
    OptArch arch;             /* --pto-arch=a2|a3|a5 (default a3); a module attribute wins */
    bool arch_given;          /* --pto-arch appeared on the command line */
    OptLevel level;           /* --pto-level=level1|level2|level3 or 1|2|3 (default level2) */
    OptPass stop_after;       /* --stop-after=PASS: last pass run (default tassign) */
    bool verify_only;         /* --verify-only: run verify, bufferize, tassign; print nothing */
    bool verify_diagnostics;  /* --verify-diagnostics: match expected-* comments; IR of passing chunks */
    bool werror;              /* --Werror: warnings are errors */
    bool split_input_file;    /* --split-input-file: `// -----` separates independent inputs */
    DiagFormat diag_format;   /* --diagnostics-format=text|json (default text) */
    unsigned error_limit;     /* --error-limit=N: errors shown (default 100; 0 = no limit) */
    PosEncoding pos_encoding; /* --diagnostics-position-encoding=utf-16|utf-8 (JSON columns) */
    const char *stdin_name;   /* --stdin-file-name=PATH: how standard input is named */
    bool print_ir_after[OPT_PASS_COUNT]; /* --print-ir-after=PASS, --print-ir-after-all */
    bool memory_report;       /* --memory-report: docs/memory.md section 6, on stdout after the IR */
    bool memory_map;          /* --memory-map: the same as a picture */
    bool no_reuse;            /* --no-reuse: every tile at its own bytes (docs/memory.md 4) */
    uint64_t mem_size[OPT_LOC_COUNT]; /* --mem-size LOC=BYTES (1..4294967295); 0 = default */
    const char *func;         /* --func NAME: the function main() runs (--emit=c|exe, run) */
    bool run;                 /* `ptoas run`: build the executable in a temporary directory and run it */
    const char **run_args;    /* `ptoas run`: --in/--out/--arg options for the executable (malloc'ed) */
    int nrun_args;
    unsigned run_timeout;     /* `ptoas run --timeout=SECONDS`: the kernel's time limit (0 = none) */
} Options;

/* Names as written on the command line ("tassign", "scaling"). */
static inline const char *opt_pass_name(OptPass p)
{
    static const char *const names[OPT_PASS_COUNT] = {"parse", "verify", "bufferize", "tassign"};
    return (unsigned)p < OPT_PASS_COUNT ? names[p] : "?";
}

static inline const char *opt_loc_name(OptLoc l)
{
    static const char *const names[OPT_LOC_COUNT] = {"vec",  "mat",  "left",   "right",
                                                     "acc",  "bias", "scaling"};
    return (unsigned)l < OPT_LOC_COUNT ? names[l] : "?";
}

#endif
