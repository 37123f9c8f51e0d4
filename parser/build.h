/* build.h - helpers shared by the builders (build.c, build_types.c); not for
 * the grammar. Both define ERR and PUSH for a Parser *p in scope. */
#ifndef PTOAS_BUILD_H
#define PTOAS_BUILD_H
#include "parse.h"

#define ERR(sp, ...) diag_error(p->diag, (sp), __VA_ARGS__)
#define PUSH(arr, n, cap, v)                                           \
    do {                                                               \
        if ((n) == (cap))                                              \
            xgrow((void **)&(arr), &(cap), (n) + 1, sizeof *(arr));    \
        (arr)[(n)++] = (v);                                            \
    } while (0)

/* One op being built: operand uses (with the types written at them, or
 * NULL), role segments, result names and types, attributes. */
typedef struct Draft {
    OpKind kind;
    uint8_t form;
    Span name;
    uint32_t n;
    const Span *uses;
    const Type *const *utys;   /* NULL: no types written */
    uint32_t seg[MAX_ROLES];
    uint32_t nres;
    const Span *res;
    const Type *const *rtys;   /* NULL: results untyped (error) */
    const Span *rspans;        /* where each result type is written (NULL: at the name) */
    Attr *attrs;
    uint32_t nattrs;
    bool bad;
} Draft;

/* Makes the op of a draft: resolves its uses, defines its results. */
Op *pb_emit(Parser *p, Draft *d);
/* Results of an op that could not be built: defined, poisoned. */
void pb_emit_broken(Parser *p, Draft *d);
/* The op's result names match its ntypes result types (else reported). */
bool pb_bind_results(Parser *p, Draft *d, uint32_t ntypes);
void pb_draft_init(Parser *p, Draft *d, Span name, uint8_t form, uint32_t nuses, uint32_t nattrs);

/* The generic form of a scalar op (build_arith.c): counts and properties. */
bool pb_scalar_generic(Parser *p, Draft *d, uint32_t nresults);

/* A decimal or 0x integer with optional '-'; false when out of int64 range
 * (hex may use all 64 bits). */
bool pb_parse_int(Str s, int64_t *out);
AttrValue *pb_new_aval(Parser *p, AttrValueKind k, Span s);
/* An unknown #pto.padmode value (MLIR's enum parser's text). */
void pb_pad_mode_error(Parser *p, Span value);
/* The first token at or after byte at (where MLIR's parser reports past an op's last token). */
Span pb_next_token(const Parser *p, uint32_t at);
/* The part [off, off + len) of span s. */
Span pb_sub_span(Span s, uint32_t off, uint32_t len);

/* SSA names (build.c), for the region stack (build_regions.c): the slot of a name, the
 * name at a span without '%', a value's definition and a use's resolution. */
NameSlot *pb_name_slot(Parser *p, Str name);
Str pb_ssa_name(Parser *p, Span s);
ValueId pb_define_value(Parser *p, Span s, Str named, const Type *t, Op *def_op, Block *blk);
ValueId pb_resolve_use(Parser *p, Span s, const Type *ty, bool *bad);
/* The last n attributes of the attribute stack, popped. */
Attr *pb_take_attrs(Parser *p, uint32_t n);
/* Closes the innermost open region (build_regions.c), restoring its op's stacks. */
void pb_region_pop(Parser *p);

#endif
