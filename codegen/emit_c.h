/* emit_c.h - codegen (ARCHITECTURE.md step 4): Level 2 IR with addresses -> C
 * source that calls the runtime (runtime/ptort.h). docs/codegen.md describes
 * the generated code. */
#ifndef PTOAS_EMIT_C_H
#define PTOAS_EMIT_C_H
#include <stdbool.h>
#include <stdio.h>
#include "ir.h"
#include "config.h"

/* Picks the function `ptoas run` and --emit=exe execute: --func NAME, else the
 * only function, else the one with the pto.entry attribute. Returns NULL and
 * writes the reason to why (a sentence without "error:") when there is none. */
const Func *emit_pick_func(const Module *m, const char *name, char *why, size_t size);

/* Writes the C translation of every function of M to OUT: one C function per
 * func.func, the tables ptort_run_main reads, and a main() for the function
 * emit_pick_func(m, cfg->func) picks (when need_main, its absence is an error;
 * otherwise no main is written). Problems (a tile without an address, a
 * Level 1 op, an unsupported type) are reported through D at the op; nothing
 * is written then and the result is false. */
bool emit_c(FILE *out, Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg, bool need_main);

#endif
