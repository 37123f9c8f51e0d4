/* uses.c - the use index (uses.h). */
#include <stdlib.h>
#include "uses.h"

static UseList *list(UseIndex *u, ValueId v)
{
    if (v >= u->nof) {
        uint32_t n = u->f->nvalues > v ? u->f->nvalues : v + 1;
        u->of = xrealloc(u->of, n * sizeof *u->of);
        memset(u->of + u->nof, 0, (n - u->nof) * sizeof *u->of);
        u->nof = n;
    }
    return &u->of[v];
}

static void add(UseIndex *u, Op *op, uint32_t k)
{
    if (op->opnds[k] == NO_VALUE)
        return;
    UseList *l = list(u, op->opnds[k]);
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4;
        l->at = xrealloc(l->at, l->cap * sizeof *l->at);
    }
    l->at[l->n++] = (UseSite){op, k};
}

static void drop(UseIndex *u, Op *op, uint32_t k)
{
    if (op->opnds[k] == NO_VALUE || op->opnds[k] >= u->nof)
        return;
    UseList *l = &u->of[op->opnds[k]];
    for (uint32_t i = 0; i < l->n; i++)
        if (l->at[i].op == op && l->at[i].k == k) {
            l->at[i] = l->at[--l->n];
            return;
        }
}

void uses_build(UseIndex *u, Func *f)
{
    uses_free(u);
    u->f = f;
    u->built = true;
    for (Op *op = ir_first_op(f); op; op = ir_next_op(op))
        uses_add_op(u, op);
}

void uses_free(UseIndex *u)
{
    for (uint32_t i = 0; i < u->nof; i++)
        free(u->of[i].at);
    free(u->of);
    *u = (UseIndex){0};
}

const UseSite *uses_of(const UseIndex *u, ValueId v, uint32_t *n)
{
    *n = v < u->nof ? u->of[v].n : 0;
    return *n ? u->of[v].at : NULL;
}

void uses_add_op(UseIndex *u, Op *op)
{
    for (uint32_t k = 0; k < op->nopnds; k++)
        add(u, op, k);
}

void uses_remove_op(UseIndex *u, Op *op)
{
    for (uint32_t k = 0; k < op->nopnds; k++)
        drop(u, op, k);
}

void uses_set(UseIndex *u, Op *op, uint32_t k, ValueId v)
{
    drop(u, op, k);
    op->opnds[k] = v;
    add(u, op, k);
}

void uses_replace_all(UseIndex *u, ValueId from, ValueId to)
{
    if (from == to || from >= u->nof)
        return;
    while (u->of[from].n) {
        UseSite s = u->of[from].at[u->of[from].n - 1];
        uses_set(u, s.op, s.k, to);
    }
}
