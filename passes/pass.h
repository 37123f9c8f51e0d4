/* pass.h - the passes of the pipeline (ARCHITECTURE.md): each is callable
 * alone, transforms or checks a Module in place, reports through the
 * diagnostics engine and returns false when it reported an error. */
#ifndef PTOAS_PASS_H
#define PTOAS_PASS_H
#include <stdarg.h>
#include "ir.h"
#include "options.h"
#include "target.h"

/* docs/verify.md: every rule, for both levels, per architecture. */
bool verify_module(Module *m, SourceFile *src, DiagEngine *d, const Options *opt);

/* PTOAS's rules for pto.backend and for assembling the child modules of a
 * backend-partitioned file (verify_backend.c, docs/language.md 2.1); false when it
 * reported an error. */
bool verify_backends(const Module *m, DiagEngine *d);

/* docs/memory.md section 2: Level 1 to Level 2, scratch tiles created. */
bool bufferize_module(Module *m, SourceFile *src, DiagEngine *d, const Options *opt);

/* docs/memory.md: liveness, placement, address checks, materialized addresses,
 * --memory-report / --memory-map text in m->report. */
bool tassign_module(Module *m, SourceFile *src, DiagEngine *d, const Options *opt);

/* The rules of pto.treshape, pto.subview and pto.set_validshape (verify_views.c);
 * false when it reported an error. */
bool verify_tile_view(DiagEngine *d, Func *f, const Op *op);

/* The rules of scf.for, scf.if, scf.yield and where func.return may stand
 * (verify_scf.c); false when it reported an error. */
bool verify_scf(DiagEngine *d, const Func *f, const Op *op);

/* Reports "'NAME' op MSG" at op's name (every verifier's form; NAME is the op's
 * spelling as written when it differs from the table's). Returns false. */
bool verify_report(DiagEngine *d, const Op *op, const char *name, const char *fmt, va_list ap);
/* The rules of the scalar ops (verify_arith.c); callee: the function a func.call names
 * in its module (NULL when none). False when it reported an error. */
bool verify_scalar_op(DiagEngine *d, const Func *callee, const Func *f, const Op *op);

#endif
