/* verify_scf.c - the rules of the region ops scf.for, scf.if, scf.while and
 * scf.execute_region and their terminators scf.yield and scf.condition
 * (docs/verify.md, "Control flow"), in mlir-opt-19's
 * order and words: what MLIR's verifier rejects, ptoas rejects with the
 * same text at the same op. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "verify_int.h"
#include "regions.h"

static const Type *vty(const V *s, ValueId v) { return s->f->values[v].type; }

static const char *tstr(const Type *t, char *buf, size_t n) { return t ? type_str(t, buf, n) : "<<NULL TYPE>>"; }

/* MLIR's AnySignlessIntegerOrIndex: i1 ... i64 or index (si/ui are signed/unsigned, not signless). */
static bool signless_int_or_index(const Type *t)
{
    if (!t || t->kind != TY_SCALAR)
        return false;
    switch (t->dtype) {
    case DT_I1: case DT_I8: case DT_I16: case DT_I32: case DT_I64: case DT_INDEX: return true;
    default: return false;
    }
}

/* The scf.yield that ends region r's block, or NULL (reported) when the region
 * has no block or its block ends otherwise. */
static const Op *terminator(V *s, const Region *r)
{
    const Block *b = r->first;
    if (!b->first) {
        verify_error(s, "expects a non-empty block");
        return NULL;
    }
    if (b->last->kind != OP_SCF_YIELD) {
        verify_error(s, "expects regions to end with 'scf.yield', found '%s'", op_info(b->last->kind)->name);
        return NULL;
    }
    return b->last;
}

static bool verify_for(V *s)
{
    const Op *op = s->op;
    char a[256], b[256];
    if (op->nregions != 1)
        return verify_error(s, "requires one region");
    for (uint32_t i = 0; i < 3; i++)
        if (!signless_int_or_index(vty(s, op->opnds[i])))
            return verify_error(s, "operand #%u must be signless integer or index, but got '%s'", i,
                        tstr(vty(s, op->opnds[i]), a, sizeof a));
    if (vty(s, op->opnds[0]) != vty(s, op->opnds[1]) || vty(s, op->opnds[0]) != vty(s, op->opnds[2]))
        return verify_error(s, "failed to verify that all of {lowerBound, upperBound, step} have same type");
    /* PTOAS's MLIR (newer than mlir-opt-19, which runs such a loop as undefined
     * behaviour) rejects a step that is a constant and not positive; a computed
     * step is checked at run time (docs/codegen.md) */
    int64_t sval;
    if (ir_const_int(s->f, op->opnds[2], &sval)) {
        /* the constant as a signed value of the step's width (`255 : i8` is -1) */
        unsigned bits = dtype_int_width(vty(s, op->opnds[2])->dtype);
        uint64_t u = (uint64_t)sval;
        int64_t step = bits >= 64 ? (int64_t)u
                     : (int64_t)((u & ((UINT64_C(1) << bits) - 1)) ^ (UINT64_C(1) << (bits - 1))) -
                           (int64_t)(UINT64_C(1) << (bits - 1));
        if (step <= 0)
            return verify_error(s, "constant step operand must be positive");
    }
    const Region *r = &op->regions[0];
    if (!r->first || r->first != r->last)
        return verify_error(s, "region #0 ('region') failed to verify constraint: region with 1 blocks");
    const Block *body = r->first;
    const Op *y = terminator(s, r);
    if (!y)
        return false;
    RegionEdge in, back;
    if (!region_edge(op, REGION_PARENT, 0, &in) || !region_edge(op, 0, 0, &back))
        return true; /* not reached: the region has its block and its scf.yield */
    uint32_t ninits = in.nsrc;
    if (ninits != op->nres)
        return verify_error(s, "mismatch in number of loop-carried values and defined values");
    /* MLIR counts the iter_args as the block's arguments after the first */
    uint64_t niter = (uint64_t)body->nargs - 1;
    if (body->nargs == 0 || ninits != niter)
        return verify_error(s, "different number of inits and region iter_args: %u != %llu", ninits,
                    (unsigned long long)niter);
    if (y->nopnds && y->nopnds != niter)
        return verify_error(s, "different number of region iter_args and yielded values: %llu != %u",
                    (unsigned long long)niter, y->nopnds);
    for (uint32_t i = 0; i < ninits; i++) {
        const Type *init = vty(s, in.src[i]), *arg = vty(s, in.dst[i]);
        if (init != arg)
            return verify_error(s, "%u-th init and %u-th region iter_arg have different type: '%s' != '%s'", i, i,
                        tstr(init, a, sizeof a), tstr(arg, b, sizeof b));
        if (back.nsrc && arg != vty(s, back.src[i]))
            return verify_error(s, "%u-th region iter_arg and %u-th yielded value have different type: '%s' != '%s'", i, i,
                        tstr(arg, a, sizeof a), tstr(vty(s, back.src[i]), b, sizeof b));
    }
    for (uint32_t i = 0; i < ninits; i++) {
        const Type *arg = vty(s, in.dst[i]), *res = vty(s, op->res[i]);
        if (arg != res)
            return verify_error(s, "%u-th region iter_arg and %u-th loop result have different type: '%s' != '%s'", i, i,
                        tstr(arg, a, sizeof a), tstr(res, b, sizeof b));
    }
    if (vty(s, body->args[0]) != vty(s, op->opnds[0]))
        return verify_error(s, "expected induction variable to be same type as bounds and step");
    /* the yield back to the loop's start carries the iter_args (MLIR's region branch check) */
    if (y->nopnds != niter)
        return verify_error(s, " region control flow edge from Region #0 to Region #0: source has %u operands, but target "
                       "successor needs %llu", y->nopnds, (unsigned long long)niter);
    return true;
}

/* MLIR's check of the values a region branch passes along one edge (RegionBranchOpInterface):
 * the count, then each type. */
static bool edge(V *s, const RegionEdge *e)
{
    char a[256], b[256], from[32], to[32];
    if (e->from == REGION_PARENT)
        snprintf(from, sizeof from, "parent operands");
    else
        snprintf(from, sizeof from, "Region #%d", e->from);
    if (e->to == REGION_PARENT)
        snprintf(to, sizeof to, "parent results");
    else
        snprintf(to, sizeof to, "Region #%d", e->to);
    const ValueId *src = e->src, *dst = e->dst;
    uint32_t nsrc = e->nsrc, ndst = e->ndst;
    if (nsrc != ndst)
        return verify_error(s, " region control flow edge from %s to %s: source has %u operands, but target successor needs %u",
                    from, to, nsrc, ndst);
    for (uint32_t k = 0; k < nsrc; k++)
        if (vty(s, src[k]) != vty(s, dst[k]))
            return verify_error(s, " along control flow edge from %s to %s: source type #%u '%s' should match input type #%u "
                           "'%s'", from, to, k, tstr(vty(s, src[k]), a, sizeof a), k, tstr(vty(s, dst[k]), b, sizeof b));
    return true;
}

/* Every edge of op's regions that starts at `from` (REGION_PARENT: all of them), in
 * MLIR's order. */
static bool edges(V *s, int from)
{
    RegionEdge e[REGION_MAX_EDGES];
    uint32_t n = region_edges(s->op, e);
    for (uint32_t i = 0; i < n; i++)
        if ((from == REGION_PARENT || e[i].from == from) && !edge(s, &e[i]))
            return false;
    return true;
}

static bool verify_if(V *s)
{
    const Op *op = s->op;
    char a[256];
    if (op->nregions != 2)
        return verify_error(s, "expected 2 regions");
    const Type *c = vty(s, op->opnds[0]);
    if (!c || c->kind != TY_SCALAR || c->dtype != DT_I1)
        return verify_error(s, "operand #0 must be 1-bit signless integer, but got '%s'", tstr(c, a, sizeof a));
    const Region *then = &op->regions[0], *els = &op->regions[1];
    if (!then->first || then->first != then->last)
        return verify_error(s, "region #0 ('thenRegion') failed to verify constraint: region with 1 blocks");
    if (els->first && els->first != els->last)
        return verify_error(s, "expects region #1 to have 0 or 1 blocks");
    for (uint32_t i = 0; i < 2; i++)
        if (op->regions[i].first && op->regions[i].first->nargs)
            return verify_error(s, "region #%u should have no arguments", i);
    if (op->nres && !els->first)
        return verify_error(s, "must have an else block if defining values");
    for (uint32_t i = 0; i < 2; i++) {
        if (!op->regions[i].first)
            continue;
        if (!terminator(s, &op->regions[i]) || !edges(s, (int)i))
            return false;
    }
    return true;
}

/* A region the text gave no block: `{ }` with neither label, arguments nor ops. */
static bool no_block(const Region *r)
{
    const Block *b = r->first;
    return !b || (!b->first && !b->nargs && b->label.end == b->label.begin);
}

/* MLIR's verifyAndGetTerminator: the region's last op is of kind k, else the message
 * and a note at the op that is there. */
static const Op *ends_with(V *s, const Region *r, OpKind k, const char *msg)
{
    const Block *b = r->first;
    if (b && b->last && b->last->kind == k)
        return b->last;
    verify_error(s, "%s", msg);
    if (b && b->last)
        diag_note(s->d, b->last->name_span, "terminator here");
    return NULL;
}

static bool is_i1(const Type *t) { return t && t->kind == TY_SCALAR && t->dtype == DT_I1; }

/* scf.while: ODS's region counts, SingleBlock, WhileOp::verify's terminators, then the
 * four edges: the inits into 'before', the condition's values out as the results and
 * into 'after', and 'after''s yield back into 'before'. */
static bool verify_while(V *s)
{
    const Op *op = s->op;
    static const char *const rname[2] = {"before", "after"};
    if (op->nregions != 2)
        return verify_error(s, "expected 2 regions");
    for (uint32_t i = 0; i < 2; i++)
        if (no_block(&op->regions[i]) || op->regions[i].first != op->regions[i].last)
            return verify_error(s, "region #%u ('%s') failed to verify constraint: region with 1 blocks", i, rname[i]);
    for (uint32_t i = 0; i < 2; i++)
        if (!op->regions[i].first->first)
            return verify_error(s, "expects a non-empty block");
    const Op *c = ends_with(s, &op->regions[0], OP_SCF_CONDITION,
                            "expects the 'before' region to terminate with 'scf.condition'");
    if (!c)
        return false;
    const Op *y = ends_with(s, &op->regions[1], OP_SCF_YIELD, "expects the 'after' region to terminate with 'scf.yield'");
    if (!y)
        return false;
    /* MLIR verifies the nested ops before the edges: a condition that is not i1 is its own error */
    if (!c->nopnds || !is_i1(vty(s, c->opnds[0])))
        return true;
    return edges(s, REGION_PARENT);
}

static bool verify_condition(V *s)
{
    const Op *op = s->op;
    char a[256];
    const Op *owner = ir_block_owner(op->parent);
    if (!owner || owner->kind != OP_SCF_WHILE)
        return verify_error(s, "expects parent op 'scf.while'");
    if (op->next)
        return verify_error(s, "must be the last operation in the parent block");
    if (!is_i1(vty(s, op->opnds[0])))
        return verify_error(s, "operand #0 must be 1-bit signless integer, but got '%s'", tstr(vty(s, op->opnds[0]), a, sizeof a));
    return true;
}

/* scf.execute_region: one region of one block or more (ptoas: one), no arguments; a block
 * that ends without a terminator is MLIR's region verifier's error, at that op. */
static bool verify_execute_region(V *s)
{
    const Op *op = s->op;
    if (op->nregions != 1)
        return verify_error(s, "requires one region");
    const Region *r = &op->regions[0];
    if (no_block(r))
        return verify_error(s, "region needs to have at least one block");
    if (r->first->nargs)
        return verify_error(s, "region cannot have any arguments");
    if (r->first != r->last)
        return verify_error(s, "has more than one block, which ptoas does not support");
    const Op *last = r->first->last;
    if (!last)
        return verify_error(s, "expects a non-empty block");
    if (last->kind == OP_SCF_CONDITION || last->kind == OP_RETURN)
        return true; /* their own errors: they stand outside scf.while / func.func */
    if (last->kind != OP_SCF_YIELD) {
        diag_error(s->d, last->name_span, "block with no terminator, has '%s'", op_info(last->kind)->name);
        return false;
    }
    return edges(s, 0);
}

static bool verify_yield(V *s)
{
    const Op *op = s->op;
    const Op *owner = ir_block_owner(op->parent);
    if (!owner || (owner->kind != OP_SCF_FOR && owner->kind != OP_SCF_IF && owner->kind != OP_SCF_WHILE &&
                   owner->kind != OP_SCF_EXECUTE_REGION))
        return verify_error(s, "expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, "
                       "scf.while'");
    if (op->next)
        return verify_error(s, "must be the last operation in the parent block");
    return true;
}

bool verify_scf(V *s)
{
    const Op *op = s->op;
    switch (op->kind) {
    case OP_SCF_FOR: return verify_for(s);
    case OP_SCF_IF: return verify_if(s);
    case OP_SCF_YIELD: return verify_yield(s);
    case OP_SCF_WHILE: return verify_while(s);
    case OP_SCF_CONDITION: return verify_condition(s);
    case OP_SCF_EXECUTE_REGION: return verify_execute_region(s);
    case OP_RETURN: /* func.return ends a function's body, never a nested region */
        if (ir_block_owner(op->parent))
            return verify_error(s, "expects parent op 'func.func'");
        return true;
    default: return true;
    }
}
