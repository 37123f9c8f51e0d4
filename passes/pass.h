/* pass.h - the passes of the pipeline (ARCHITECTURE.md): each is callable
 * alone, transforms or checks a Module in place, reports through the
 * diagnostics engine and returns false when it reported an error. */
#ifndef PTOAS_PASS_H
#define PTOAS_PASS_H
#include <stdarg.h>
#include "ir.h"
#include "config.h"
#include "target.h"

/* The pipeline's passes in order, as --stop-after and --print-ir-after name them. */
typedef enum { PASS_PARSE, PASS_VERIFY, PASS_BUFFERIZE, PASS_TASSIGN, PASS_INSERT_SYNC, PASS_COUNT } PassId;

/* A pass transforms or checks the module in place, reporting through d; it returns
 * false when it failed (it has then reported at least one error). */
typedef bool (*PassFn)(Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg);

/* One row of the pipeline: the passes after parsing, in order (pass.c). The CLI, the
 * language server and the fuzz target all run this one list. */
typedef struct PassDef {
    PassId id;
    PassFn run;
} PassDef;
extern const PassDef pass_pipeline[];
extern const unsigned pass_pipeline_len;

/* Names as written on the command line ("tassign"); "?" for none. */
const char *pass_name(PassId p);
/* The pass named s; PASS_COUNT if none. */
PassId pass_lookup(const char *s);

/* --allow-unregistered-dialect: reports each unregistered op (tiles_only: each one that
 * reads, writes or defines a tile, itself or in its regions) as one pass cannot handle;
 * false when it reported one. */
bool pass_reject_unregistered(const Module *m, DiagEngine *d, const char *pass, bool tiles_only);

/* docs/verify.md: every rule, for both levels, per architecture. */
bool verify_module(Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg);

/* PTOAS's rules for pto.backend and for assembling the child modules of a
 * backend-partitioned file (verify_backend.c, docs/language.md 2.1); false when it
 * reported an error. */
bool verify_backends(const Module *m, DiagEngine *d);

/* docs/memory.md section 2: Level 1 to Level 2, scratch tiles created. */
bool bufferize_module(Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg);

/* docs/memory.md: liveness, placement, address checks, materialized addresses,
 * --memory-report / --memory-map text in m->report. */
bool tassign_module(Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg);

/* docs/launch.md "Automatic synchronization": set_flag / wait_flag pairs and barriers
 * between the pipes of each function insert_sync_wanted picks (nothing when cfg->sync is
 * SYNC_OFF). */
bool insert_sync_module(Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg);
/* The one decision whether f gets automatic synchronization: always with a mode's flag,
 * never without one, and in `ptoas run`'s default (SYNC_AUTO) when f has no flag,
 * barrier, event or buffer-id op of its own (a hand-synchronized kernel runs as written). */
bool insert_sync_wanted(const Func *f, const PassConfig *cfg);
/* The command-line flag of a mode ("--enable-insert-sync"); NULL for off and auto. */
const char *insert_sync_flag(SyncMode mode);

/* pto.tprint's printFormat as ptort_tprint's format (0 when absent), -1 for an unknown word
 * (verify_scal.c; codegen reads it too). */
int tprint_format(const Op *op);

#endif
