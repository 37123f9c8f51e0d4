/* frontend.c - frontend_parse: one chunk of source text to a Module. */
#include <stdlib.h>
#include <string.h>
#include "frontend.h"
#include "parse.h"
#include "parser.h"

Module *frontend_parse(SourceFile *src, uint32_t begin, uint32_t end, DiagEngine *d)
{
    return frontend_parse_opts(src, begin, end, d, 0);
}

Module *frontend_parse_opts(SourceFile *src, uint32_t begin, uint32_t end, DiagEngine *d, unsigned flags)
{
    Module *m = xcalloc(1, sizeof *m);
    arena_init(&m->arena);
    types_init(&m->types, &m->arena);
    m->src = src;

    /* The lexer needs a NUL sentinel right after its text: a chunk that ends
     * before the end of the file gets its own copy (spans stay absolute). */
    const char *text = src->text + begin;
    size_t len = end - begin;
    char *copy = NULL;
    if (end < src->len) {
        copy = xmalloc(len + 1);
        memcpy(copy, text, len);
        copy[len] = 0;
        text = copy;
    }

    Parser p;
    memset(&p, 0, sizeof p);
    p.diag = d;
    p.src = src;
    p.m = m;
    p.allow_unregistered = (flags & FRONTEND_ALLOW_UNREGISTERED) != 0;
    /* The per-op stacks start allocated: taking the top k of an empty one
     * (stack + n - k) must not offset a null pointer. */
    xgrow((void **)&p.uses, &p.uses_cap, 16, sizeof *p.uses);
    xgrow((void **)&p.tys, &p.tys_cap, 16, sizeof *p.tys);
    p.ty_spans = xmalloc(p.tys_cap * sizeof *p.ty_spans);
    xgrow((void **)&p.attrs, &p.attrs_cap, 16, sizeof *p.attrs);
    xgrow((void **)&p.avals, &p.avals_cap, 16, sizeof *p.avals);
    xgrow((void **)&p.ints, &p.ints_cap, 16, sizeof *p.ints);
    xgrow((void **)&p.results, &p.results_cap, 16, sizeof *p.results);
    xgrow((void **)&p.rnames, &p.rnames_cap, 16, sizeof *p.rnames);
    xgrow((void **)&p.kws, &p.kws_cap, 16, sizeof *p.kws);
    xgrow((void **)&p.clauses, &p.clauses_cap, 16, sizeof *p.clauses);
    xgrow((void **)&p.titems, &p.titems_cap, 16, sizeof *p.titems);
    xgrow((void **)&p.bargs, &p.bargs_cap, 16, sizeof *p.bargs);
    lex_init(&p.lx, text, len, begin, d);
    pto_parse(&p);
    pb_loc_aliases_end(&p);

    free(copy);
    free(p.names);
    free(p.names_touched);
    free(p.syms);
    free(p.memo);
    free(p.uses);
    free(p.tys);
    free(p.ty_spans);
    free(p.attrs);
    free(p.avals);
    free(p.ints);
    free(p.results);
    free(p.rnames);
    free(p.kws);
    free(p.clauses);
    free(p.titems);
    free(p.bargs);
    pb_frames_free(&p);
    free(p.pend);
    free(p.words);
    return m;
}
