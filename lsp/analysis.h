/* analysis.h - one run of the pipeline (parse, verify, bufferize, tassign) on
 * a document held by the language server, with everything the requests need:
 * the diagnostics (caught by a sink, not printed), and an index of the source
 * as written (values with their definitions and uses, op names, functions,
 * modules) taken before the passes rewrite the IR. The module stays alive for
 * the types and tassign's placements. */
#ifndef PTOAS_LSP_ANALYSIS_H
#define PTOAS_LSP_ANALYSIS_H
#include "ir.h"
#include "config.h"

typedef struct ANote {
    Span span;
    char *msg;
} ANote;

typedef struct ADiag {
    DiagSeverity sev;
    Span span;
    char *code, *msg;
    uint32_t first_note, nnotes; /* into Analysis.notes */
} ADiag;

typedef struct AValue {
    const Func *f;
    ValueId id;
    Str name;          /* without '%' */
    Span def;
    const Type *type;  /* as written (before bufferize) */
    bool undefined;    /* a use of a name never defined */
} AValue;

typedef struct AUse {
    uint32_t value;    /* index into Analysis.vals */
    Span span;
} AUse;

typedef struct AOp {
    OpKind kind;
    Span name;
} AOp;

typedef struct AFunc {
    const Func *f;
    Str name;
    Span name_span, range;  /* range: 'func.func' to the closing brace */
    uint32_t mod;           /* index into Analysis.mods */
    uint32_t first_value, nvalues;
} AFunc;

typedef struct AMod {
    Str name;               /* len 0 when unnamed */
    Span kw, range;         /* range: the whole module, nested ones included */
    bool implicit;          /* top-level functions without a module */
    int32_t parent;         /* the index of the module it is nested in, -1 at the top */
} AMod;

typedef struct Analysis {
    char *text;             /* the document as analyzed (owned, NUL-terminated) */
    size_t len;
    SourceFile src;
    Module *m;
    bool assembled;         /* every pass succeeded: placements are known */
    ADiag *diags;
    uint32_t ndiags, diags_cap;
    ANote *notes;
    uint32_t nnotes, notes_cap;
    AValue *vals;
    uint32_t nvals, vals_cap;
    AUse *uses;
    uint32_t nuses, uses_cap;
    AOp *ops;
    uint32_t nops, ops_cap;
    AFunc *funcs;
    uint32_t nfuncs, funcs_cap;
    AMod *mods;
    uint32_t nmods, mods_cap;
} Analysis;

/* Runs the pipeline on a copy of text[0, len). */
Analysis *analysis_run(const char *text, size_t len, const PassConfig *cfg);
void analysis_free(Analysis *a);

/* The value whose definition or use covers offset (end inclusive, so that a
 * cursor just after a name finds it); NULL if none. */
const AValue *analysis_value_at(const Analysis *a, uint32_t offset);
/* The function offset is in: the last one that starts before it (NULL if none). */
const AFunc *analysis_func_at(const Analysis *a, uint32_t offset);

#endif
