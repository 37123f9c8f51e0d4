/* regions.h - how values flow through the region ops (scf.for, scf.while, scf.if,
 * scf.execute_region), described once: which operands enter which block arguments,
 * and where each region's terminator (scf.yield, scf.condition) sends its values - to
 * block arguments of a region or to the op's results. MLIR's RegionBranchOpInterface
 * says the same with successor regions; the verifier, bufferize, tassign and codegen
 * read the positions here instead of working them out.
 *
 * The counts are the IR's as written (the verifier reports mismatches from them), so a
 * reader of unverified IR must take the smaller of nsrc and ndst. */
#ifndef PTOAS_REGIONS_H
#define PTOAS_REGIONS_H
#include "ir.h"

/* One edge along which an op passes values: src[k] becomes dst[k]. */
#define REGION_PARENT (-1) /* from: the op's operands; to: the op's results */
typedef struct RegionEdge {
    int from, to;           /* a region index, or REGION_PARENT */
    const Op *term;         /* from a region: its terminator (NULL from the parent) */
    const ValueId *src;     /* the values passed: operands of the op or of term */
    const ValueId *dst;     /* the values receiving: block arguments or the op's results */
    uint32_t src_first;     /* src's first index in its op's opnds */
    uint32_t dst_first;     /* dst's first index in the block's args or the op's res */
    uint32_t nsrc, ndst;
} RegionEdge;

#define REGION_MAX_EDGES 4

/* Is k an op whose regions pass values (the four scf region ops)? */
bool region_op(OpKind k);

/* The terminator kind that ends region r of an op of kind k (OP_COUNT if none). */
OpKind region_terminator_kind(OpKind k, uint32_t r);

/* Region r's terminator: the last op of its one block when it is of the kind the op
 * expects, else NULL. */
const Op *region_terminator(const Op *op, uint32_t r);

/* Every edge of op that carries values, in MLIR's order (parent operands into the
 * entry region first). An edge out of a region whose block does not end with its
 * terminator is left out. Returns the count (0 for an op without regions). */
uint32_t region_edges(const Op *op, RegionEdge out[REGION_MAX_EDGES]);

/* The edge of op from `from` to `to`; false when there is none. */
bool region_edge(const Op *op, int from, int to, RegionEdge *e);

/* The operand of op that block argument k of region r's block holds on entry
 * (scf.for's init for an iter_arg, scf.while's init for a 'before' argument);
 * NO_VALUE when none does (scf.for's induction variable, 'after' arguments). */
ValueId region_entry_operand(const Op *op, uint32_t r, uint32_t k);

/* For a block argument v of f: the op operand that it holds on entry, as above;
 * NO_VALUE for a function argument or an argument no operand enters. */
ValueId region_arg_init(const Func *f, ValueId v);

/* The position of block argument v in its block's arguments. */
uint32_t region_arg_index(const Func *f, ValueId v);

/* The iter_arg of a loop that result k of op continues (MLIR's tied loop result:
 * scf.for's result k is iter_arg k, region 0's argument 1 + k); -1 when none. */
int region_result_tied_arg(const Op *op, uint32_t k);

#endif
