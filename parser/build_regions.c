/* build_regions.c - the parser's region stack (scf.for/if/while/execute_region bodies and
 * generic regions: names scoped to the region, the enclosing op's stacks saved while it is
 * open) and the location tail (loc(...) and #loc aliases, read and dropped). Split from
 * build.c, whose helpers it calls through build.h. */
#include <stdlib.h>
#include <string.h>
#include "parse.h"
#include "parser.h"
#include "build.h"

/* ---- regions ---------------------------------------------------------------------------------
 * A region opens at its '{': the enclosing op's stacks are saved in a Frame and the region's
 * ops start from empty ones; its block becomes the one ops go to; recovery resumes at its
 * depth. At its '}' the names defined inside go out of scope (MLIR: a value defined in a
 * region is not visible outside it) and everything is restored. */

#define SAVE(fr, arr, n)                                                           \
    do {                                                                           \
        (fr)->n = p->n;                                                            \
        (fr)->arr = p->n ? xmalloc(p->n * sizeof *p->arr) : NULL;                  \
        if (p->n)                                                                  \
            memcpy((fr)->arr, p->arr, p->n * sizeof *p->arr);                      \
    } while (0)
#define RESTORE(fr, arr, n)                                                        \
    do {                                                                           \
        if ((fr)->n)                                                               \
            memcpy(p->arr, (fr)->arr, (fr)->n * sizeof *p->arr);                   \
        p->n = (fr)->n;                                                            \
        free((fr)->arr);                                                           \
    } while (0)

static void region_push(Parser *p, Op *op, Region *r)
{
    xgrow((void **)&p->frames, &p->frames_cap, p->nframes + 1, sizeof *p->frames);
    Frame *fr = &p->frames[p->nframes++];
    memset(fr, 0, sizeof *fr);
    fr->blk = p->blk;
    fr->op = op;
    fr->depth = p->lbrace_depth;
    fr->body_depth = p->body_depth;
    fr->in_body = p->in_body;
    fr->values_begin = p->fn->nvalues;
    fr->multi_result = p->multi_result;
    SAVE(fr, uses, nuses);
    SAVE(fr, tys, ntys);
    fr->ty_spans = p->ntys ? arena_dup(&p->m->arena, p->ty_spans, p->ntys * sizeof *p->ty_spans) : NULL;
    SAVE(fr, attrs, nattrs);
    SAVE(fr, avals, navals);
    SAVE(fr, ints, nints);
    SAVE(fr, results, nresults);
    fr->rnames = p->nresults ? arena_dup(&p->m->arena, p->rnames, p->nresults * sizeof *p->rnames) : NULL;
    SAVE(fr, kws, nkws);
    SAVE(fr, bargs, nbargs);
    p->blk = ir_block_add(p->m, r);
    p->in_body = true;
    p->body_depth = p->lbrace_depth;
    p->nuses = p->ntys = p->nattrs = p->navals = p->nints = p->nresults = p->nkws = p->nbargs = 0;
    p->multi_result = false;
}

void pb_region_pop(Parser *p)
{
    Frame *fr = &p->frames[--p->nframes];
    Func *f = p->fn;
    for (uint32_t v = fr->values_begin; v < f->nvalues; v++) {
        NameSlot *slot = pb_name_slot(p, f->values[v].name);
        if (slot->name.p && slot->id == v)
            slot->id = NO_VALUE; /* out of scope: a tombstone keeps the probe chains */
    }
    p->blk = fr->blk;
    p->in_body = fr->in_body;
    p->body_depth = fr->body_depth;
    p->multi_result = fr->multi_result;
    RESTORE(fr, uses, nuses);
    if (fr->ntys)
        memcpy(p->ty_spans, fr->ty_spans, fr->ntys * sizeof *p->ty_spans);
    RESTORE(fr, tys, ntys);
    RESTORE(fr, attrs, nattrs);
    RESTORE(fr, avals, navals);
    RESTORE(fr, ints, nints);
    if (fr->nresults)
        memcpy(p->rnames, fr->rnames, fr->nresults * sizeof *p->rnames);
    RESTORE(fr, results, nresults);
    RESTORE(fr, kws, nkws);
    RESTORE(fr, bargs, nbargs);
}

/* Regions still open at the end of the input (already reported): their saved
 * stacks are freed, not restored (the parser's own stacks are gone by now). */
void pb_frames_free(Parser *p)
{
    for (size_t i = 0; i < p->nframes; i++) {
        Frame *fr = &p->frames[i];
        free(fr->uses);
        free(fr->tys);
        free(fr->attrs);
        free(fr->avals);
        free(fr->ints);
        free(fr->results);
        free(fr->kws);
        free(fr->bargs);
    }
    p->nframes = 0;
    free(p->frames);
}

void pb_keyword(Parser *p, Span s, const char *word)
{
    Str t = pb_text(p, s);
    if (!str_eq(t, word, strlen(word)))
        ERR(s, "expected '%s', but got '%.*s'", word, (int)t.len, t.p);
}

void pb_push_barg(Parser *p, Span s) { PUSH(p->bargs, p->nbargs, p->bargs_cap, s); }

/* A block argument of the region just opened: its name must not be visible
 * already (MLIR: "region entry argument ... is already in use"). */
static ValueId block_arg(Parser *p, Span s, const Type *t, Span tspan)
{
    Str name = pb_ssa_name(p, s);
    NameSlot *slot = pb_name_slot(p, name);
    if (slot->name.p && slot->id != NO_VALUE && !p->fn->values[slot->id].undefined) {
        ERR(s, "region entry argument '%%%.*s' is already in use", (int)name.len, name.p);
        diag_note(p->diag, p->fn->values[slot->id].def, "previously referenced here");
        ValueId id = ir_block_arg_add(p->m, p->fn, p->blk, name, t, s);
        p->fn->values[id].poisoned = true;
        p->fn->values[id].type_span = tspan;
        slot->id = id; /* uses in the region refer to it: nothing more is reported */
        return id;
    }
    ValueId id = pb_define_value(p, s, (Str){NULL, 0}, t, NULL, p->blk);
    p->fn->values[id].type_span = tspan;
    return id;
}

void pb_block_arg(Parser *p, Span name, const Type *t, Span tspan) { block_arg(p, name, t, tspan); }

/* A custom region op whose operands are the top n uses, typed tys[i] (NULL:
 * untyped), appended to the current block with nregions empty regions. */
static Op *region_op(Parser *p, Span name, OpKind kind, uint32_t n, const Type *const *tys, uint32_t nregions)
{
    Op *op = ir_op_new(p->m);
    op->kind = kind;
    op->form = FORM_L2;
    op->name_span = name;
    op->nopnds = n;
    op->opnds = arena_alloc(&p->m->arena, (n ? n : 1) * sizeof *op->opnds);
    op->opnd_spans = arena_dup(&p->m->arena, p->uses + p->nuses - n, n * sizeof *op->opnd_spans);
    bool bad = false;
    for (uint32_t i = 0; i < n; i++)
        op->opnds[i] = pb_resolve_use(p, op->opnd_spans[i], tys[i], &bad);
    op->bad = bad;
    ir_regions_new(p->m, op, nregions);
    ir_block_append(p->blk, op);
    return op;
}

void pb_for_body(Parser *p, Span name, Span iv, Span to_kw, Span step_kw, uint32_t ninits, uint32_t nres,
                 const Type *ivty, Span lbrace)
{
    pb_keyword(p, to_kw, "to");
    pb_keyword(p, step_kw, "step");
    bool bad = false;
    if (ninits && !nres) {
        ERR(lbrace, "expected '->'");
        bad = true;
    } else if (ninits != nres) {
        ERR(name, "custom op 'scf.for' mismatch in number of loop-carried values and defined values");
        bad = true;
    }
    if (!ivty)
        ivty = type_scalar(&p->m->types, DT_INDEX);
    uint32_t n = 3 + ninits;
    const Type **tys = arena_alloc(&p->m->arena, n * sizeof *tys);
    tys[0] = tys[1] = tys[2] = ivty;
    for (uint32_t i = 0; i < ninits; i++) /* an init has its result's type */
        tys[3 + i] = bad ? NULL : p->tys[p->ntys - nres + i];
    Op *op = region_op(p, name, OP_SCF_FOR, n, tys, 1);
    op->bad |= bad;
    op->nres = nres;
    op->seg[0] = op->seg[1] = op->seg[2] = 1;
    op->seg[3] = ninits;
    Span *names = arena_dup(&p->m->arena, p->bargs + p->nbargs - ninits, ninits * sizeof *names);
    region_push(p, op, &op->regions[0]);
    block_arg(p, iv, ivty, iv);
    for (uint32_t i = 0; i < ninits; i++)
        block_arg(p, names[i], tys[3 + i], names[i]);
}

void pb_if_then(Parser *p, Span name, uint32_t nres)
{
    const Type *i1 = type_scalar(&p->m->types, DT_I1);
    Op *op = region_op(p, name, OP_SCF_IF, 1, &i1, 2);
    op->nres = nres;
    op->seg[0] = 1;
    region_push(p, op, &op->regions[0]);
}

void pb_if_else(Parser *p, Span kw)
{
    (void)kw;
    /* after error recovery the then-region may be closed already (reported) */
    if (!p->nframes || !p->frames[p->nframes - 1].op || p->frames[p->nframes - 1].op->kind != OP_SCF_IF)
        return;
    Op *op = p->frames[p->nframes - 1].op;
    pb_region_pop(p);
    region_push(p, op, &op->regions[1]);
}

/* scf.while's head: the op and its 'before' region, whose block arguments are the
 * names of the initialization list typed by the function type's inputs. The types
 * after the arrow are moved to the bottom of the type stack, where
 * pb_region_op_end reads the results of a region op. */
void pb_while_before(Parser *p, Span name, uint32_t ninits, uint32_t ntypes, uint32_t nres, Span colon)
{
    bool bad = false;
    if (ntypes != ninits) {
        ERR(colon, "custom op 'scf.while' expected as many input types as operands (expected %u got %u)", ninits,
            ntypes);
        bad = true;
    }
    if (ntypes + nres > p->ntys) { /* lost to error recovery (reported) */
        ntypes = nres = 0;
        bad = true;
    }
    const Type **tys = arena_alloc(&p->m->arena, (ninits ? ninits : 1) * sizeof *tys);
    for (uint32_t i = 0; i < ninits; i++)
        tys[i] = !bad ? p->tys[p->ntys - nres - ntypes + i] : NULL;
    Op *op = region_op(p, name, OP_SCF_WHILE, ninits, tys, 2);
    op->bad |= bad;
    op->nres = nres;
    op->seg[0] = ninits;
    Span *names = arena_dup(&p->m->arena, p->bargs + p->nbargs - ninits, ninits * sizeof *names);
    Span *tspans = arena_dup(&p->m->arena, p->ty_spans + p->ntys - nres - ntypes, (ntypes ? ntypes : 1) * sizeof *tspans);
    /* keep only the results on the type stack */
    memmove(p->tys, p->tys + p->ntys - nres, nres * sizeof *p->tys);
    memmove(p->ty_spans, p->ty_spans + p->ntys - nres, nres * sizeof *p->ty_spans);
    p->ntys = nres;
    region_push(p, op, &op->regions[0]);
    for (uint32_t i = 0; i < ninits; i++)
        block_arg(p, names[i], tys[i], bad ? names[i] : tspans[i]);
}

/* `do`: the 'before' region is closed, the 'after' one opens (its arguments, if
 * any, come with an explicit `^bb0(...)` label). */
void pb_while_after(Parser *p, Span do_kw)
{
    pb_keyword(p, do_kw, "do");
    if (!p->nframes || !p->frames[p->nframes - 1].op || p->frames[p->nframes - 1].op->kind != OP_SCF_WHILE)
        return; /* the region was closed by error recovery (reported) */
    Op *op = p->frames[p->nframes - 1].op;
    pb_region_pop(p);
    region_push(p, op, &op->regions[1]);
}

/* scf.condition(%c) %a, ... : T, ...: the condition is i1, the rest as typed. */
void pb_op_condition(Parser *p, Span name, uint32_t nargs, uint32_t ntypes, uint32_t nattrs)
{
    Draft d;
    pb_draft_init(p, &d, name, FORM_L2, 1 + nargs, nattrs);
    if (nargs != ntypes) {
        ERR(name, "custom op 'scf.condition' %u operands present, but expected %u", nargs, ntypes);
        pb_emit_broken(p, &d);
        return;
    }
    const Type **tys = arena_alloc(&p->m->arena, (1 + nargs) * sizeof *tys);
    tys[0] = type_scalar(&p->m->types, DT_I1);
    for (uint32_t i = 0; i < nargs; i++)
        tys[1 + i] = p->tys[p->ntys - ntypes + i];
    d.utys = tys;
    d.seg[0] = 1;
    d.seg[1] = nargs;
    if (!pb_bind_results(p, &d, 0)) {
        pb_emit_broken(p, &d);
        return;
    }
    pb_emit(p, &d);
}

void pb_execute_region_body(Parser *p, Span name, uint32_t nres)
{
    Op *op = region_op(p, name, OP_SCF_EXECUTE_REGION, 0, NULL, 1);
    op->nres = nres;
    region_push(p, op, &op->regions[0]);
}

/* == PIPE == pto.section.cube / pto.section.vector: one region, no terminator, no results */
void pb_section_body(Parser *p, Span name)
{
    Str t = pb_text(p, name);
    Op *op = region_op(p, name, op_lookup(t.p, t.len), 0, NULL, 1);
    region_push(p, op, &op->regions[0]);
}

void pb_gregion_begin(Parser *p)
{
    Region *r = arena_zalloc(&p->m->arena, sizeof *r);
    xgrow((void **)&p->pend, &p->pend_cap, p->npend + 1, sizeof *p->pend);
    p->pend[p->npend++] = r;
    region_push(p, NULL, r);
}

void pb_block_label(Parser *p, Span label) { p->blk->label = label; }

/* The end of a generic region: `{ }` with neither label nor ops has no block. */
void pb_region_end(Parser *p)
{
    if (!p->nframes)
        return;
    Block *b = p->blk;
    pb_region_pop(p);
    if (!b->first && !b->nargs && b->label.end == b->label.begin)
        b->parent->first = b->parent->last = NULL;
}

/* MLIR's custom scf parsers end a block that lacks one with an empty scf.yield. */
static void ensure_yield(Parser *p, Op *op, Region *r)
{
    Block *b = r->first;
    if (!b || (b->last && b->last->kind == OP_SCF_YIELD))
        return;
    Op *y = ir_op_new(p->m);
    y->kind = OP_SCF_YIELD;
    y->form = FORM_L2;
    y->synthetic = true;
    y->name_span = op->name_span;
    ir_block_append(b, y);
}

void pb_region_op_end(Parser *p, Span close, uint32_t nattrs)
{
    (void)close;
    if (!p->nframes || !p->frames[p->nframes - 1].op)
        return; /* lost to error recovery */
    Op *op = p->frames[p->nframes - 1].op;
    /* the attributes after the last '}' are on the region's stack, which the pop drops */
    if (nattrs > p->nattrs)
        nattrs = (uint32_t)p->nattrs;
    op->nattrs = nattrs;
    op->attrs = pb_take_attrs(p, nattrs);
    pb_region_pop(p);
    for (uint32_t i = 0; i < op->nregions && (op->kind == OP_SCF_FOR || op->kind == OP_SCF_IF); i++)
        ensure_yield(p, op, &op->regions[i]);
    /* results: the types after '->', the first on the op's type stack (op->nres
     * holds their count until here) */
    uint32_t nres = op->nres;
    const Type *const *rtys = p->ntys >= nres ? p->tys : NULL;
    const Span *rspans = p->ty_spans;
    if (p->multi_result) {
        nres = 0; /* reported */
    } else if (p->nresults && !nres) {
        ERR(p->results[0], "cannot name an operation with no results");
    } else if (p->nresults != nres && rtys && !op->bad) {
        ERR(op->name_span, "operation defines %u result%s but was provided %zu to bind", nres, nres == 1 ? "" : "s",
            p->nresults);
    }
    bool ok = !p->multi_result && p->nresults == nres && rtys;
    op->nres = ok ? nres : 0;
    op->res = arena_alloc(&p->m->arena, (p->nresults ? p->nresults : 1) * sizeof *op->res);
    for (uint32_t i = 0; i < p->nresults; i++) {
        ValueId v = pb_define_value(p, p->results[i], p->rnames[i], ok ? rtys[i] : NULL, op, p->blk);
        p->fn->values[v].type_span = ok ? rspans[i] : p->results[i];
        p->fn->values[v].poisoned |= !ok || op->bad;
        if (ok)
            op->res[i] = v;
    }
    p->errors_at_op = diag_error_count(p->diag);
}

/* ---- locations -------------------------------------------------------------- */

static bool span_is(const Parser *p, Span s, const char *word)
{
    size_t n = strlen(word);
    return s.end - s.begin == n && memcmp(p->src->text + s.begin, word, n) == 0;
}

static bool same_text(const Parser *p, Span a, Span b)
{
    return a.end - a.begin == b.end - b.begin && memcmp(p->src->text + a.begin, p->src->text + b.begin,
                                                        a.end - a.begin) == 0;
}

void pb_loc_word(Parser *p, Span s, const char *word)
{
    if (span_is(p, s, word))
        return;
    if (strcmp(word, "at") == 0)
        ERR(s, "expected 'at' in callsite location, but got '%.*s'", (int)(s.end - s.begin),
            p->src->text + s.begin);
    else
        ERR(s, "expected location instance ('unknown', 'callsite' or 'fused'), but got '%.*s'",
            (int)(s.end - s.begin), p->src->text + s.begin);
}

void pb_loc_alias_def(Parser *p, Span hash, Span loc)
{
    Module *m = p->m;
    xgrow32((void **)&m->loc_aliases, &m->loc_aliases_cap, (size_t)m->nloc_aliases + 1, sizeof *m->loc_aliases);
    m->loc_aliases[m->nloc_aliases++] = (LocRecord){hash.begin, hash, loc};
    for (size_t i = 0; i < p->nloc_defs; i++)
        if (same_text(p, p->loc_defs[i], hash)) {
            ERR(hash, "redefinition of attribute alias id '%.*s'", (int)(hash.end - hash.begin - 1),
                p->src->text + hash.begin + 1);
            diag_note(p->diag, p->loc_defs[i], "previously defined here");
            return;
        }
    PUSH(p->loc_defs, p->nloc_defs, p->loc_defs_cap, hash);
}

void pb_loc_alias_use(Parser *p, Span hash)
{
    PUSH(p->loc_uses, p->nloc_uses, p->loc_uses_cap, hash);
}

void pb_loc_at(Parser *p, Span key, Span loc)
{
    Module *m = p->m;
    if (loc.end <= loc.begin)
        return;
    xgrow32((void **)&m->locs, &m->locs_cap, (size_t)m->nlocs + 1, sizeof *m->locs);
    m->locs[m->nlocs++] = (LocRecord){key.begin, key, loc};
}

static int cmp_loc_record(const void *x, const void *y)
{
    const LocRecord *a = x, *b = y;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* Aliases are few (one per distinct location): a linear search is enough. */
void pb_loc_aliases_end(Parser *p)
{
    if (p->m->nlocs > 1) /* ir_written_loc searches them */
        qsort(p->m->locs, p->m->nlocs, sizeof *p->m->locs, cmp_loc_record);
    for (size_t i = 0; i < p->nloc_uses; i++) {
        bool found = false;
        for (size_t j = 0; j < p->nloc_defs && !found; j++)
            found = same_text(p, p->loc_defs[j], p->loc_uses[i]);
        if (!found)
            ERR(p->loc_uses[i], "location alias '%.*s' is never defined",
                (int)(p->loc_uses[i].end - p->loc_uses[i].begin), p->src->text + p->loc_uses[i].begin);
    }
    free(p->loc_defs);
    free(p->loc_uses);
}
