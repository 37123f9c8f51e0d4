/* parse.h - the parser's state and the builders its grammar actions call.
 *
 * The grammar (parser.y) only recognizes structure; everything it recognizes
 * is pushed on small per-op stacks (operand uses, types, attributes, keyword
 * operands, type parameters) that are reset at the start of every op, and the
 * builders in build.c turn one op's stacks into IR, resolving names and
 * checking that uses agree with definitions. */
#ifndef PTOAS_PARSE_H
#define PTOAS_PARSE_H
#include "ir.h"
#include "lexer.h"

/* Keyword operand: `addr = %a` or `shape = [%m, %n]`. */
typedef struct KwOperand {
    Span key;
    uint32_t first, n;   /* range in the uses stack */
    bool bracket;
} KwOperand;

/* A clause after outs (ir.h TailClause): `word = %v : T` (CL_OPERAND: its use and
 * type are pushed on the stacks), `word = value` (CL_ATTR, val; NULL if reported) or
 * `word = <x>` (CL_STRIPPED: value is the '<', inner the x). */
enum { CL_OPERAND, CL_ATTR, CL_STRIPPED, CL_WORD /* a bare word naming no type */ };
typedef struct ClauseItem {
    Span word, value, inner;
    AttrValue *val;
    int kind;
} ClauseItem;

/* One parameter of a `!dialect.type<...>` body. */
typedef struct TypeItem {
    Span key;            /* len 0: positional */
    Span val;
    int tok;             /* token kind of the value */
} TypeItem;

typedef struct NameSlot {
    Str name;
    ValueId id;
    const void *scope;   /* function symbols: the module (NULL: the top level) */
} NameSlot;

/* A `!name<...>` type that parsed cleanly, by its exact text (see yylex in
 * parser.y: the same text again is read as one token). */
typedef struct TypeMemo {
    const unsigned char *text; /* in the lexer's buffer */
    uint32_t len, hash;
    const Type *type;
} TypeMemo;

/* A region being parsed: the enclosing block and recovery state, the names
 * to take out of scope at its end, and the enclosing op's per-op stacks,
 * saved so that the region's ops start from empty ones. */
typedef struct Frame {
    Block *blk;
    Op *op;                    /* the custom region op (scf.for, scf.if); NULL in a generic region */
    int depth, body_depth;     /* depth inside its '{'; the enclosing body's */
    bool in_body;
    uint32_t values_begin;     /* the values defined from here on are the region's */
    bool multi_result;
    size_t nuses, ntys, nattrs, navals, nints, nresults, nkws, nbargs;
    Span *uses, *ty_spans, *results, *bargs;
    const Type **tys;
    Attr *attrs;
    AttrValue **avals;
    int64_t *ints;
    Str *rnames;
    KwOperand *kws;
} Frame;

typedef struct Parser {
    Lexer lx;
    DiagEngine *diag;
    SourceFile *src;
    Module *m;
    ModuleOp *mod;             /* explicit module being parsed, or NULL */
    ModuleOp *implicit;        /* current group of bare top-level funcs */
    Func *fn;                  /* function being parsed */
    Block *blk;                /* the block its ops go to */

    NameSlot *names;           /* SSA names of fn: open addressing */
    size_t names_cap, names_used;
    uint32_t *names_touched;   /* slots to clear at the next function */
    size_t touched_cap;

    NameSlot *syms;            /* function symbols of the chunk, by module (MLIR's symbol tables) */
    size_t syms_cap, syms_used;

    TypeMemo *memo;            /* open addressing */
    size_t memo_cap, memo_used;
    int prev_tok, prev_tok2;   /* the last two tokens yylex returned */

    /* per-op stacks */
    Span *uses; size_t nuses, uses_cap;
    const Type **tys; Span *ty_spans; size_t ntys, tys_cap;
    Attr *attrs; size_t nattrs, attrs_cap;
    AttrValue **avals; size_t navals, avals_cap;
    int64_t *ints; size_t nints, ints_cap;
    Span *results; size_t nresults, results_cap;
    Str *rnames; size_t rnames_cap; /* per result: the name of a %r:N member ("r#1"), len 0 = the span's */
    KwOperand *kws; size_t nkws, kws_cap;
    ClauseItem *clauses; size_t nclauses, clauses_cap;
    TypeItem *titems; size_t ntitems, titems_cap;
    Span *bargs; size_t nbargs, bargs_cap; /* scf.for's iter_args names */

    /* regions (docs/architecture.md): the open ones, innermost last, and the
     * generic regions parsed and waiting for their op */
    Frame *frames; size_t nframes, frames_cap;
    Region **pend; size_t npend, pend_cap;
    uint32_t gen_nregions;     /* regions the generic op being built takes from pend */
    uint32_t gen_nprops;       /* of its attributes, the first ones were <{properties}> */
    bool allow_unregistered;   /* --allow-unregistered-dialect (frontend_parse_opts) */
    int lbrace_depth;          /* depth inside the last '{' lexed */
    Span *words; size_t nwords, words_cap; /* flag words: overflow<...>, #arith.fastmath<...> */
    Span arith_pred;           /* arith.cmpi's predicate word, len 0 if none */
    Span arith_op;             /* the name of the arith op being read */

    /* module / function header state */
    Attr *hdr_attrs; uint32_t hdr_nattrs;

    /* error recovery (see yylex in parser.y) */
    bool recovering, last_sync, in_body;
    unsigned errors_at_op;     /* error count when the last op was built: later errors broke the body's end */
    int depth, body_depth, top_depth;
    Span open_type;            /* the `!pto.tile_buf` whose '<' is open, len 0 if none */
    const Type *nested;        /* the type pb_nested_type built last (NULL: it failed) */
    bool aborted;
    const AttrValue *gfunc_type; /* function_type of the generic func.func being read */
    bool gfunc_label;            /* its region's block has a label (^bb0...) */
    int anon_args;               /* custom func.func signature: -1 none yet, 0 named, 1 types only */
    bool multi_result;         /* the op's results used %r:N (reported) */

    /* location aliases: `#name = loc(...)` definitions and `loc(#name)` uses,
     * which may come before the definition (checked at the end of the chunk) */
    Span *loc_defs; size_t nloc_defs, loc_defs_cap;
    Span *loc_uses; size_t nloc_uses, loc_uses_cap;
} Parser;

/* The subset of a syntax class an op was written in (parser.y passes it). */
typedef struct SigInfo {
    uint32_t nparams;          /* types in '(' ')' or before '->' */
    uint32_t nresults;         /* types after '->' */
    bool arrow;                /* a '->' was present */
    bool parens;               /* params written in parentheses */
} SigInfo;

/* The operands of ins(...) or outs(...): counts, and which form the items
 * make so far (state: 0 none yet, TU_BARE uses before ':', TU_TYPE types
 * after it, TU_TYPED per-operand types, -1 reported). An item alone has
 * only state (its kind) and attrs. */
enum { TU_BARE = 1, TU_TYPED = 2, TU_TYPE = 3 };
typedef struct TypedUses {
    uint32_t uses, types, attrs;
    int state;
    uint32_t fp;  /* 1 + the index of the operand after an `fp` keyword (pto.tstore,
                     pto.textract, pto.tinsert), else 0 */
    Span fp_at;   /* where that keyword is */
    uint32_t pq;  /* the same for pto.tinsert's `pre_quant` keyword */
    Span pq_at;
} TypedUses;
void pb_tu_item(Parser *p, TypedUses *acc, const TypedUses *item, Span at);
void pb_tu_fp(Parser *p, TypedUses *acc, Span word);

/* Stack pushes. */
void pb_push_use(Parser *p, Span s);
void pb_push_type(Parser *p, const Type *t, Span s);
void pb_push_attr(Parser *p, Span key, AttrValue *v, Span span);
void pb_push_aval(Parser *p, AttrValue *v);
void pb_push_int(Parser *p, Span s);
void pb_push_result(Parser *p, Span s);
void pb_push_kw(Parser *p, Span key, uint32_t first, uint32_t n, bool bracket);
void pb_push_titem(Parser *p, Span key, Span val, int tok);
void pb_push_clause(Parser *p, Span word, int kind, AttrValue *v, Span value, Span inner);
void pb_op_reset(Parser *p);

/* Values of types and attributes. */
const Type *pb_scalar_type(Parser *p, Span s);
void pb_elem_type_error(Parser *p, Span s); /* an element type ptoas does not take, at s */
void pb_unknown_op(Parser *p, Span name, bool bind); /* "custom op 'X' is unknown"; its results defined, poisoned */
/* build_suggest.c: "; did you mean 'X'?" for what was typed (in b, returned; "" if none) */
const char *pb_suggest_op(Str typed, StrBuf *b);
const char *pb_suggest_value(const Parser *p, Str typed, StrBuf *b);
const char *pb_suggest_dtype(Str typed, StrBuf *b); /* the list of element types when none is close */
const Type *pb_param_type(Parser *p, Span name, Span whole); /* !x.y<items> from the titem stack */
/* `key = <word>` (at open, the '<'): #pto.address_space<word> for `location` (the
 * format of pto.reserve_buffer), else MLIR's error; NULL when reported. */
AttrValue *pb_attr_elided(Parser *p, Span key, Span open, Span word, Span whole);
/* The same for the type named t (written at name, or elided there: `<items>`). */
const Type *pb_param_type_as(Parser *p, Str t, Span name, Span whole);
AttrValue *pb_attr_number(Parser *p, int tok, Span s, const Type *ty, Span tyspan);
AttrValue *pb_attr_simple(Parser *p, AttrValueKind k, Span s);
Str pb_symbol_name(const Parser *p, Span s);
AttrValue *pb_attr_array(Parser *p, uint32_t n, Span s);
AttrValue *pb_attr_dense(Parser *p, Span elt, uint32_t n, Span s);
AttrValue *pb_attr_enum(Parser *p, Span hash, Span kind, Span value, Span s);
/* #pto<KIND 3>, #pto.KIND<"x">, #pto.KIND<>: value is the literal, or the '>' */
AttrValue *pb_attr_enum_nokeyword(Parser *p, Span hash, Span kind, Span value);
AttrValue *pb_attr_type(Parser *p, const Type *t, Span s);

/* Structure. */
void pb_module_begin(Parser *p, Span kw, Span name, uint32_t nattrs);
void pb_module_end(Parser *p, ModuleOp *mod);
void pb_func_begin(Parser *p, Span kw, Span name, int visibility);
void pb_func_arg(Parser *p, Span name, const Type *t, Span tspan);
void pb_func_arg_anon(Parser *p, const Type *t, Span tspan); /* a declaration's `(index, i32)` */
void pb_func_body(Parser *p, uint32_t nresult_types, uint32_t nattrs);
void pb_func_end(Parser *p, Span close);
void pb_func_decl(Parser *p, uint32_t nresult_types, uint32_t nattrs);

/* Ops: name is the op-name token, the stacks hold the rest. */
void pb_op_compute_l1(Parser *p, Span name, uint32_t nopnds, uint32_t nattrs, SigInfo sig);
void pb_op_compute_l2(Parser *p, Span name, TypedUses ins, TypedUses outs, uint32_t nattrs, uint32_t nclauses,
                      Span whole);
/* pto.tgather's mask-pattern form (build.c): the axis string, then the op. */
void pb_push_gather_axis(Parser *p, Span s);
void pb_op_tgather_mask(Parser *p, Span name, TypedUses ins, uint32_t nattrs_in, TypedUses outs, uint32_t ntrailing,
                        uint32_t nclauses, Span whole);
void pb_op_alloc(Parser *p, Span name, uint32_t nattrs, const Type *t, Span tspan);
void pb_op_tassign(Parser *p, Span name, const Type *from, const Type *to, Span tspan);
void pb_op_tassign_isa(Parser *p, Span name, Span sym, Span addr, int addr_tok);
void pb_op_treshape(Parser *p, Span name, uint32_t nattrs, const Type *from, Span fs, const Type *to, Span ts);
void pb_subview_valid_kw(Parser *p, Span kw);
void pb_op_subview(Parser *p, Span name, uint32_t noffsets, Span sizes_kw, AttrValue *sizes, uint32_t nvalid,
                   uint32_t nattrs, const Type *from, Span fs, const Type *to, Span ts);
void pb_op_set_validshape(Parser *p, Span name, uint32_t nattrs, const Type *t, Span ts);
void pb_op_view(Parser *p, Span name, uint32_t nattrs, const Type *t1, Span s1, const Type *t2, Span s2);
void pb_op_constant(Parser *p, Span name, AttrValue *v);
/* func.return, scf.yield, pto.set_ffts: `name (uses : types)?` */
void pb_op_return(Parser *p, Span name, uint32_t nuses, uint32_t ntypes);
void pb_op_generic(Parser *p, Span name, uint32_t nuses, uint32_t nparams, uint32_t nresults,
                   uint32_t nattrs, uint32_t nregions);
void pb_multi_result(Parser *p, Span name, Span count);

/* Region ops. The custom forms build the op when its first region opens
 * (operands resolved, block arguments defined) and finish it at the end. */
void pb_keyword(Parser *p, Span s, const char *word);
void pb_push_barg(Parser *p, Span s);
void pb_for_body(Parser *p, Span name, Span iv, Span to_kw, Span step_kw, uint32_t ninits, uint32_t nres,
                 const Type *ivty, Span lbrace);
void pb_if_then(Parser *p, Span name, uint32_t nres);
void pb_if_else(Parser *p, Span kw);
void pb_while_before(Parser *p, Span name, uint32_t ninits, uint32_t ntypes, uint32_t nres, Span colon);
void pb_while_after(Parser *p, Span do_kw);
void pb_op_condition(Parser *p, Span name, uint32_t nargs, uint32_t ntypes, uint32_t nattrs);
void pb_execute_region_body(Parser *p, Span name, uint32_t nres);
/* == PIPE == (build_pipe.c; pb_section_body in build_regions.c) */
void pb_op_fifo(Parser *p, Span name, TypedUses opnds, uint32_t nattrs, uint32_t nkw, const Type *rty, Span rspan);
void pb_op_sync(Parser *p, Span name, uint32_t nitems, uint32_t nattrs, const Type *rty, Span rspan);
void pb_op_syncall(Parser *p, Span name, uint32_t nuses, uint32_t ntypes, Span kw1, AttrValue *mode, Span kw2,
                   AttrValue *core, uint32_t nattrs);
void pb_op_multi_tile_get(Parser *p, Span name, uint32_t nattrs, const Type *from, Span fs, const Type *to, Span ts);
void pb_section_body(Parser *p, Span name);
/* a type written inside a type's parameters (the items from start on): built, and left
 * as one T_TYPE_MEMO item whose type is p->nested */
void pb_nested_type(Parser *p, Span name, Span whole, uint32_t start);
/* #pto.KIND<key = value, ...>: kept as written */
AttrValue *pb_attr_keyed(Parser *p, Span hash, Span whole);
void pb_region_op_end(Parser *p, Span close, uint32_t nattrs);
void pb_gregion_begin(Parser *p);
void pb_block_arg(Parser *p, Span name, const Type *t, Span tspan);
void pb_block_label(Parser *p, Span label);
void pb_region_end(Parser *p);
void pb_frames_free(Parser *p); /* closes every open region (end of input) */
/* The scalar ops (build_arith.c): arith's custom forms, func.call, pto.load_scalar and
 * pto.store_scalar. */
void pb_push_word(Parser *p, Span s);
uint32_t pb_arith_flags(Parser *p, Span kw, uint32_t nwords, Span whole); /* pushes an attribute: 1 */
AttrValue *pb_attr_flags(Parser *p, Span hash, uint32_t nwords, Span whole);
void pb_to_keyword(Parser *p, Span kw);
void pb_op_arith(Parser *p, Span name, uint32_t nuses, uint32_t nattrs, uint32_t ntypes, const Type *to, Span ts);
void pb_op_call(Parser *p, Span name, Span callee, uint32_t nuses, uint32_t nattrs, uint32_t nparams,
                uint32_t nresults);
void pb_op_load_scalar(Parser *p, Span name, uint32_t nattrs, const Type *pt, Span ps, const Type *rt, Span rs);
void pb_op_store_scalar(Parser *p, Span name, uint32_t nattrs, const Type *pt, Span ps, const Type *vt, Span vs);
/* Issue 24's scalar line of work (build_scalar.c). */
void pb_op_tgetval(Parser *p, Span name, TypedUses ins, uint32_t nattrs, const Type *rt, Span rs);
void pb_op_debug(Parser *p, Span name, int form, TypedUses ins, Span str, uint32_t nattrs, const Type *t, Span ts);
void pb_op_declare_tile(Parser *p, Span name, uint32_t nattrs, const Type *t, Span tspan);
void pb_op_cast(Parser *p, Span name, uint32_t nuses, uint32_t nattrs, const Type *from, Span fs, const Type *to,
                Span ts);
void pb_op_comm(Parser *p, Span name, uint32_t nuses, uint32_t ntypes, uint32_t nattrs, const Type *rt, Span rs);
void pb_op_cmo(Parser *p, Span name, int form, Span kw, AttrValue *space, uint32_t nattrs, const Type *t, Span ts);
void pb_op_local(Parser *p, Span name, int form, uint32_t nidx, uint32_t nattrs, const Type *t, Span ts,
                 const Type *r, Span rs);

/* Generic spellings of func.func and builtin.module (region ops). */
AttrValue *pb_attr_functype(Parser *p, uint32_t nparams, uint32_t nresults, Span s);
void pb_gfunc_begin(Parser *p, Span kw, uint32_t nprops);
void pb_gfunc_body(Parser *p);
void pb_gfunc_end(Parser *p, Span close, uint32_t nattrs);
void pb_gmodule_begin(Parser *p, Span kw, uint32_t nprops);
void pb_gmodule_end(Parser *p, ModuleOp *mod, uint32_t nattrs);

/* Locations (build.c): checked, then dropped. */
void pb_loc_word(Parser *p, Span s, const char *word); /* the identifier s must be word */
void pb_loc_alias_def(Parser *p, Span hash, Span loc);     /* #name = loc(LOC): kept in the module */
void pb_loc_at(Parser *p, Span key, Span loc);             /* loc (non-empty) written after what starts at key */
void pb_loc_alias_use(Parser *p, Span hash);
void pb_loc_aliases_end(Parser *p);                     /* every use defined; frees the lists */

/* Diagnostics helpers. */
Str pb_text(const Parser *p, Span s);

#endif
