/* analysis.c - the pipeline run for the language server (analysis.h). */
#include "analysis.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "frontend.h"
#include "pass.h"

#define GROW(a, field, count, cap) \
    xgrow32((void **)&(a)->field, &(a)->cap, (size_t)(a)->count + 1, sizeof *(a)->field)

static char *dup_str(const char *s)
{
    size_t n = strlen(s);
    return memcpy(xmalloc(n + 1), s, n + 1);
}

/* The diagnostics handler: every error, warning and note, kept in order. */
static void collect(void *ctx, const DiagItem *head, const DiagItem *notes, size_t nnotes)
{
    Analysis *a = ctx;
    GROW(a, diags, ndiags, diags_cap);
    ADiag *d = &a->diags[a->ndiags++];
    d->sev = head->sev;
    d->span = head->span;
    d->code = dup_str(head->code);
    d->msg = dup_str(head->msg);
    d->first_note = a->nnotes;
    d->nnotes = (uint32_t)nnotes;
    for (size_t i = 0; i < nnotes; i++) {
        GROW(a, notes, nnotes, notes_cap);
        a->notes[a->nnotes++] = (ANote){notes[i].span, dup_str(notes[i].msg)};
    }
}

/* The end of a module: its closing brace when only blanks and comments
 * follow its last function (the IR keeps no span for it), else end. */
static uint32_t module_end(const Analysis *a, uint32_t end)
{
    const char *t = a->text;
    uint32_t p = end;
    while (p < a->len) {
        if (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r') {
            p++;
        } else if (t[p] == '/' && p + 1 < a->len && t[p + 1] == '/') {
            while (p < a->len && t[p] != '\n' && t[p] != '\r')
                p++;
        } else {
            break;
        }
    }
    return p < a->len && t[p] == '}' ? p + 1 : end;
}

/* The index of the source as written, before any pass rewrites it. */
static void build_index(Analysis *a)
{
    Module *m = a->m;
    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        GROW(a, mods, nmods, mods_cap);
        uint32_t mi = a->nmods++;
        AMod *am = &a->mods[mi];
        am->name = mod->name;
        am->kw = mod->span;
        am->range = mod->span;
        am->implicit = mod->implicit;
        am->parent = -1; /* modules come before the ones nested in them */
        for (uint32_t k = mi; mod->parent && k-- > 0;)
            if (m->mods[k] == mod->parent) {
                am->parent = (int32_t)k;
                break;
            }
        for (uint32_t j = 0; j < mod->nfuncs; j++) {
            const Func *f = mod->funcs[j];
            GROW(a, funcs, nfuncs, funcs_cap);
            AFunc *af = &a->funcs[a->nfuncs++];
            af->f = f;
            af->name = f->name;
            af->name_span = f->name_span;
            uint32_t end = f->end_span.end > f->span.begin ? f->end_span.end : f->name_span.end;
            af->range = (Span){f->span.begin, end};
            af->mod = mi;
            af->first_value = a->nvals;
            af->nvalues = f->nvalues;
            if (end > a->mods[mi].range.end)
                a->mods[mi].range.end = end;
            for (uint32_t v = 0; v < f->nvalues; v++) {
                const Value *val = &f->values[v];
                GROW(a, vals, nvals, vals_cap);
                a->vals[a->nvals++] = (AValue){f, v, val->name, val->def, val->type, val->undefined};
            }
            uint32_t base = af->first_value;
            for (const Op *op = ir_first_op(f); op; op = ir_next_op(op)) {
                GROW(a, ops, nops, ops_cap);
                a->ops[a->nops++] = (AOp){op->kind, op->name_span};
                for (uint32_t n = 0; n < op->nopnds; n++) {
                    if (op->opnds[n] >= f->nvalues)
                        continue;
                    GROW(a, uses, nuses, uses_cap);
                    a->uses[a->nuses++] = (AUse){base + op->opnds[n], op->opnd_spans[n]};
                }
            }
        }
    }
    /* inner modules first: a module ends at its '}' after its functions and the modules
     * nested in it */
    for (uint32_t mi = a->nmods; mi-- > 0;) {
        AMod *am = &a->mods[mi];
        if (am->implicit)
            continue;
        am->range.end = a->m->mods[mi]->end > am->range.end ? a->m->mods[mi]->end : module_end(a, am->range.end);
        if (am->parent >= 0 && am->range.end > a->mods[am->parent].range.end)
            a->mods[am->parent].range.end = am->range.end;
    }
}

Analysis *analysis_run(const char *text, size_t len, const PassConfig *cfg)
{
    Analysis *a = xcalloc(1, sizeof *a);
    if (len > UINT32_MAX - 1)
        len = UINT32_MAX - 1; /* spans are 32-bit */
    a->text = xmalloc(len + 1);
    memcpy(a->text, text, len);
    a->text[len] = '\0';
    a->len = len;
    source_init(&a->src, "document.pto", a->text, len);
    a->src.cr_lines = true; /* LSP 3.17: "\n", "\r\n" and "\r" end lines */
    DiagEngine *d = diag_new(&a->src, DIAG_JSON, stderr);
    diag_set_handler(d, collect, a);
    /* every error is collected; a limit that is never reached keeps notes short
     * (tassign's overflow note lists a few live tiles, not 20,000) */
    diag_set_error_limit(d, UINT_MAX);
    a->m = frontend_parse(&a->src, 0, (uint32_t)len, d);
    build_index(a);
    bool ok = diag_error_count(d) == 0;
    for (unsigned i = 0; ok && i < pass_pipeline_len; i++)
        ok = pass_pipeline[i].run(a->m, &a->src, d, cfg) && diag_error_count(d) == 0;
    a->assembled = ok;
    diag_free(d); /* flushes the last diagnostic into the sink */
    return a;
}

void analysis_free(Analysis *a)
{
    if (!a)
        return;
    for (uint32_t i = 0; i < a->ndiags; i++) {
        free(a->diags[i].code);
        free(a->diags[i].msg);
    }
    for (uint32_t i = 0; i < a->nnotes; i++)
        free(a->notes[i].msg);
    free(a->diags);
    free(a->notes);
    free(a->vals);
    free(a->uses);
    free(a->ops);
    free(a->funcs);
    free(a->mods);
    frontend_free(a->m);
    source_free(&a->src);
    free(a->text);
    free(a);
}

static bool covers(Span s, uint32_t off)
{
    return s.end > s.begin && s.begin <= off && off <= s.end;
}

const AValue *analysis_value_at(const Analysis *a, uint32_t offset)
{
    for (uint32_t i = 0; i < a->nvals; i++)
        if (!a->vals[i].undefined && covers(a->vals[i].def, offset))
            return &a->vals[i];
    for (uint32_t i = 0; i < a->nuses; i++)
        if (covers(a->uses[i].span, offset))
            return &a->vals[a->uses[i].value];
    return NULL;
}

const AFunc *analysis_func_at(const Analysis *a, uint32_t offset)
{
    /* the last function that starts before offset: while a function is being
     * typed its closing brace may be missing */
    const AFunc *best = NULL;
    for (uint32_t i = 0; i < a->nfuncs; i++)
        if (a->funcs[i].range.begin <= offset && (!best || a->funcs[i].range.begin >= best->range.begin))
            best = &a->funcs[i];
    return best;
}
