/* regions.c - the value flow of the region ops (regions.h). */
#include "regions.h"

bool region_op(OpKind k)
{
    return k == OP_SCF_FOR || k == OP_SCF_WHILE || k == OP_SCF_IF || k == OP_SCF_EXECUTE_REGION;
}

OpKind region_terminator_kind(OpKind k, uint32_t r)
{
    if (!region_op(k))
        return OP_COUNT;
    return k == OP_SCF_WHILE && r == 0 ? OP_SCF_CONDITION : OP_SCF_YIELD;
}

const Op *region_terminator(const Op *op, uint32_t r)
{
    if (r >= op->nregions || !op->regions[r].first)
        return NULL;
    const Op *last = op->regions[r].first->last;
    return last && last->kind == region_terminator_kind(op->kind, r) ? last : NULL;
}

/* An edge from the op's operands [first, first + n) into region r's block arguments
 * from argument `arg` on. */
/* p + i, where an empty list (p NULL: no operands, no block arguments) stays NULL: C leaves
 * an offset from a null pointer undefined, even a zero one. */
static const ValueId *at(const ValueId *p, uint32_t i) { return p ? p + i : NULL; }

static uint32_t entry(const Op *op, uint32_t r, uint32_t first, uint32_t n, uint32_t arg, RegionEdge *e)
{
    const Block *b = r < op->nregions ? op->regions[r].first : NULL;
    if (!b || first > op->nopnds)
        return 0;
    *e = (RegionEdge){REGION_PARENT, (int)r, NULL, at(op->opnds, first), at(b->args, arg < b->nargs ? arg : b->nargs),
                      first, arg, n, arg < b->nargs ? b->nargs - arg : 0};
    return 1;
}

/* An edge from region `from`'s terminator operands [first, ...) to region `to`'s block
 * arguments from `arg` on, or (to REGION_PARENT) to the op's results. */
static uint32_t exit_edge(const Op *op, uint32_t from, uint32_t first, int to, uint32_t arg, RegionEdge *e)
{
    const Op *t = region_terminator(op, from);
    if (!t || first > t->nopnds)
        return 0;
    const ValueId *dst = op->res;
    uint32_t ndst = op->nres;
    if (to != REGION_PARENT) {
        const Block *b = op->regions[to].first;
        if (!b)
            return 0;
        dst = at(b->args, arg < b->nargs ? arg : b->nargs);
        ndst = arg < b->nargs ? b->nargs - arg : 0;
    }
    *e = (RegionEdge){(int)from, to, t, at(t->opnds, first), dst, first, to == REGION_PARENT ? 0 : arg,
                      t->nopnds - first, ndst};
    return 1;
}

uint32_t region_edges(const Op *op, RegionEdge out[REGION_MAX_EDGES])
{
    uint32_t n = 0;
    switch (op->kind) {
    case OP_SCF_FOR: /* lb, ub, step, inits...: the inits enter the iter_args (after the induction variable) */
        n += entry(op, 0, 3, op->seg[3], 1, &out[n]);
        n += exit_edge(op, 0, 0, 0, 1, &out[n]);
        n += exit_edge(op, 0, 0, REGION_PARENT, 0, &out[n]);
        break;
    case OP_SCF_WHILE: /* inits -> 'before'; condition(c, v...) -> results and 'after'; yield -> 'before' */
        n += entry(op, 0, 0, op->nopnds, 0, &out[n]);
        n += exit_edge(op, 0, 1, REGION_PARENT, 0, &out[n]);
        if (op->nregions > 1)
            n += exit_edge(op, 0, 1, 1, 0, &out[n]);
        if (op->nregions > 1)
            n += exit_edge(op, 1, 0, 0, 0, &out[n]);
        break;
    case OP_SCF_IF: /* each region's yield -> the results */
    case OP_SCF_EXECUTE_REGION:
        for (uint32_t r = 0; r < op->nregions && r < 2; r++)
            n += exit_edge(op, r, 0, REGION_PARENT, 0, &out[n]);
        break;
    default:
        break;
    }
    return n;
}

bool region_edge(const Op *op, int from, int to, RegionEdge *e)
{
    RegionEdge all[REGION_MAX_EDGES];
    uint32_t n = region_edges(op, all);
    for (uint32_t i = 0; i < n; i++)
        if (all[i].from == from && all[i].to == to) {
            *e = all[i];
            return true;
        }
    return false;
}

ValueId region_entry_operand(const Op *op, uint32_t r, uint32_t k)
{
    RegionEdge e;
    if (!region_edge(op, REGION_PARENT, (int)r, &e) || k < e.dst_first)
        return NO_VALUE;
    uint32_t i = k - e.dst_first;
    return i < e.nsrc && i < e.ndst ? e.src[i] : NO_VALUE;
}

uint32_t region_arg_index(const Func *f, ValueId v)
{
    const Block *b = f->values[v].block;
    uint32_t k = 0;
    while (k < b->nargs && b->args[k] != v)
        k++;
    return k;
}

ValueId region_arg_init(const Func *f, ValueId v)
{
    const Value *x = &f->values[v];
    if (x->def_op || !x->block)
        return NO_VALUE;
    const Op *o = ir_block_owner(x->block);
    if (!o)
        return NO_VALUE;
    uint32_t r = (uint32_t)(x->block->parent - o->regions);
    return region_entry_operand(o, r, region_arg_index(f, v));
}

int region_result_tied_arg(const Op *op, uint32_t k)
{
    return op->kind == OP_SCF_FOR && k < op->nres ? (int)(1 + k) : -1;
}
