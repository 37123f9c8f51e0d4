/* uses.h - where each value of a function is used: an index built in one walk and kept
 * valid by the pass that rewrites the IR, which sets operands, adds ops and takes ops
 * out through it. A query reads one value's list instead of rescanning the function. */
#ifndef PTOAS_USES_H
#define PTOAS_USES_H
#include "ir.h"

/* Operand k of op is a use. */
typedef struct UseSite {
    Op *op;
    uint32_t k;
} UseSite;

typedef struct UseList {
    UseSite *at;
    uint32_t n, cap;
} UseList;

/* Start with UseIndex u = {0}; built is false until uses_build. */
typedef struct UseIndex {
    Func *f;
    UseList *of;       /* per value, grown as the function gains values */
    uint32_t nof;
    bool built;
} UseIndex;

/* Every use of every value of f (a pre-order walk). */
void uses_build(UseIndex *u, Func *f);
void uses_free(UseIndex *u);
/* The uses of v (*n of them), in no particular order. */
const UseSite *uses_of(const UseIndex *u, ValueId v, uint32_t *n);
/* A new op (in a block now) and its operands. */
void uses_add_op(UseIndex *u, Op *op);
/* Op's operands stop being uses (it is being taken out of its block). */
void uses_remove_op(UseIndex *u, Op *op);
/* op->opnds[k] = v, in the index too. */
void uses_set(UseIndex *u, Op *op, uint32_t k, ValueId v);
/* Every use of `from` becomes a use of `to`. */
void uses_replace_all(UseIndex *u, ValueId from, ValueId to);

#endif
