/* options.h - the command-line options of `ptoas` (docs/cli.md), parsed and
 * validated by the driver (driver/ptoas.c) into one Options value. The passes and
 * codegen never see it: the driver hands them the PassConfig (ir/config.h) that
 * options_pass_config makes of it. Nothing here prints or exits. */
#ifndef PTOAS_OPTIONS_H
#define PTOAS_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>
#include "config.h"
#include "diag.h"
#include "pass.h"

/* --emit: what the driver writes to stdout or -o. */
typedef enum {
    OPT_EMIT_IR,      /* canonical PTO text (docs/language.md section 6), the default */
    OPT_EMIT_GENERIC, /* MLIR generic form */
    OPT_EMIT_C,       /* C source calling the runtime */
    OPT_EMIT_EXE      /* an executable; needs -o */
} OptEmit;

typedef struct Options {
    const char *input;        /* FILE.pto; "-" = standard input (the default) */
    const char *output;       /* -o FILE, written atomically; NULL = stdout */
    OptEmit emit;             /* --emit=ir|generic|c|exe (default ir) */
    Arch arch;                /* --pto-arch=a2|a3|a5 (default a3); a module attribute wins */
    bool arch_given;          /* --pto-arch appeared on the command line */
    Level level;              /* --pto-level=level1|level2|level3 or 1|2|3 (default level2) */
    PassId stop_after;        /* --stop-after=PASS: last pass run (default tassign) */
    bool verify_only;         /* --verify-only: run verify, bufferize, tassign; print nothing */
    bool verify_diagnostics;  /* --verify-diagnostics: match expected-* comments; IR of passing chunks */
    bool werror;              /* --Werror: warnings are errors */
    bool split_input_file;    /* --split-input-file: `// -----` separates independent inputs */
    DiagFormat diag_format;   /* --diagnostics-format=text|json (default text) */
    unsigned error_limit;     /* --error-limit=N: errors shown (default 100; 0 = no limit) */
    PosEncoding pos_encoding; /* --diagnostics-position-encoding=utf-16|utf-8 (JSON columns) */
    const char *stdin_name;   /* --stdin-file-name=PATH: how standard input is named */
    bool print_ir_after[PASS_COUNT]; /* --print-ir-after=PASS, --print-ir-after-all */
    bool memory_report;       /* --memory-report: docs/memory.md section 6, on stdout after the IR */
    bool memory_map;          /* --memory-map: the same as a picture */
    bool no_reuse;            /* --no-reuse: every tile at its own bytes (docs/memory.md 4) */
    uint64_t mem_size[LOC_COUNT]; /* --mem-size LOC=BYTES (1..4294967295); 0 = default */
    const char *func;         /* --func NAME: the function main() runs (--emit=c|exe, run) */
    bool run;                 /* `ptoas run`: build the executable in a temporary directory and run it */
    const char **run_args;    /* `ptoas run`: --in/--out/--arg options for the executable (malloc'ed) */
    int nrun_args;
    bool debuginfo;           /* --mlir-print-debuginfo: loc(...) on every op, #loc aliases at the end */
    bool allow_unregistered;  /* --allow-unregistered-dialect: unknown generic ops are kept */
    bool numerics_sim;        /* --numerics=sim (default hw): the CPU simulator's numerics */
    bool numerics_given;      /* --numerics appeared */
    bool no_race_check;       /* --no-race-check: run, --emit=c|exe without the race checker */
    bool no_cache;            /* --no-cache: `ptoas run`, --emit=exe compile without the kernel cache */
    unsigned run_timeout;     /* `ptoas run --timeout=SECONDS`: the kernel's time limit (0 = none) */
    SyncMode sync;            /* --enable-insert-sync and PTOAS's other modes (SYNC_OFF: none given) */
    unsigned sync_flags;      /* which of those flags appeared (bit per SyncMode): they exclude each other */
} Options;

/* What the passes and codegen are told: the fields of o they read. */
static inline PassConfig options_pass_config(const Options *o)
{
    PassConfig c = pass_config_default();
    c.arch = o->arch;
    c.arch_given = o->arch_given;
    c.level = o->level;
    for (int i = 0; i < LOC_COUNT; i++)
        c.mem_size[i] = o->mem_size[i];
    c.no_reuse = o->no_reuse;
    c.memory_report = o->memory_report;
    c.memory_map = o->memory_map;
    c.func = o->func;
    c.numerics_sim = o->numerics_sim;
    /* without a flag, `ptoas run` synchronizes what has no synchronization of its own */
    c.sync = o->sync != SYNC_OFF ? o->sync : o->run ? SYNC_AUTO : SYNC_OFF;
    c.no_race_check = o->no_race_check;
    return c;
}

#endif
