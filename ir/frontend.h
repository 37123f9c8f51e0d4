/* frontend.h - the entry points the driver uses: parse a byte range of a
 * source file into a Module, print it, free it. (The IR itself is in ir.h.) */
#ifndef PTOAS_FRONTEND_H
#define PTOAS_FRONTEND_H
#include <stdio.h>
#include "diag.h"

typedef struct Module Module;

/* Parses src->text[begin, end) (one chunk of --split-input-file, or the whole
 * file) and reports every syntax and name-resolution error through d. Always
 * returns a module (possibly partial when errors were reported); spans stay
 * absolute offsets into src. */
Module *frontend_parse(SourceFile *src, uint32_t begin, uint32_t end, DiagEngine *d);
/* The same with flags: FRONTEND_ALLOW_UNREGISTERED keeps a generic op of a dialect
 * ptoas does not implement as an unregistered op (--allow-unregistered-dialect). */
enum { FRONTEND_ALLOW_UNREGISTERED = 1 };
Module *frontend_parse_opts(SourceFile *src, uint32_t begin, uint32_t end, DiagEngine *d, unsigned flags);

/* Prints the module in canonical PTO form (docs/language.md section 6), or in MLIR
 * generic form when generic is non-zero. */
void frontend_print(FILE *out, const Module *m, int generic);
/* The same with debuginfo non-zero: --mlir-print-debuginfo, each op's location
 * as loc(#locN) and the #loc aliases, as mlir-opt prints them. */
void frontend_print_opts(FILE *out, const Module *m, int generic, int debuginfo);

void frontend_free(Module *m);

#endif
