/* parser.y - the PTO assembly grammar (docs/language.md sections 2-5), Bison 3.8,
 * pure, with byte-span locations and MLIR-style messages.
 *
 * The grammar recognizes structure only; actions push what they see on the
 * parser's per-op stacks and call the builders in build.c, which make IR.
 * Op names are classified by the op table (ops.def): yylex turns an
 * identifier that names an op into the token of its syntax class.
 *
 * Error recovery: after a syntax error, yylex skips to the next token that
 * starts a line and can start an operation (or closes the function), and the
 * `ops: ops error` rule resumes there, so every independent error in a file
 * is reported in one run. */

%require "3.8"
%define api.pure full
%define api.location.type {Span}
%define api.token.prefix {T_}
%define parse.error custom
%define parse.lac full
%locations
/* `return %x` and `scf.condition(%c) %x` vs the same followed by an op `%x = ...`:
 * operands win (shift). */
%expect 2
%param {Parser *p}

%code requires {
#include "parse.h"
}

%code provides {
int pto_parse(Parser *p);
}

%code {
#include <stdio.h>
#include <string.h>

#define YYLLOC_DEFAULT(Cur, Rhs, N)                         \
    do {                                                    \
        if (N) {                                            \
            (Cur).begin = YYRHSLOC(Rhs, 1).begin;           \
            (Cur).end = YYRHSLOC(Rhs, N).end;               \
        } else {                                            \
            (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end; \
        }                                                   \
    } while (0)

static int yylex(YYSTYPE *lval, Span *loc, Parser *p);
static void yyerror(const Span *loc, Parser *p, const char *msg);
static void memo_add(Parser *p, Span whole, const Type *t);
}

%union {
    uint32_t n;
    ModuleOp *mod;
    const Type *type;
    AttrValue *aval;
    SigInfo sig;
    TypedUses tu;
    struct { uint32_t nres, nattrs; } head;
}

%token END 0 "end of file"
%token ERROR "invalid token"
%token ARROW "'->'"
%token MODULE "'module'" FUNC "'func.func'" ATTRIBUTES "'attributes'" INS "'ins'" OUTS "'outs'"
%token PRIVATE "'private'" PUBLIC "'public'" TRUE "'true'" FALSE "'false'" ARRAY "'array'" LOC "'loc'"
%token IDENT "identifier" SSA "an SSA value" SYMBOL "a symbol" BANG "a type" HASH "an attribute"
%token HEX "a hex integer" DIMS "a shape" SHAPED "a shaped type" INT "an integer" FLOAT "a float"
%token STRING "a string"
%token CLAUSE "a clause keyword" CLAUSE_WORD "an identifier"
%token GFUNC "'\"func.func\"'" GMODULE "'\"builtin.module\"'" CARET "a block label"
%token OP_COMPUTE OP_ALLOC OP_TASSIGN OP_VIEW OP_TILEVIEW OP_CONSTANT OP_RETURN OP_FOR OP_IF
%token OP_ARITH OP_CALL OP_LOAD_SCALAR OP_STORE_SCALAR OP_WHILE OP_CONDITION OP_EXECUTE_REGION
%token OP_FIFO OP_SYNC OP_SECTION OP_MTGET OP_SYNCALL
%token OP_CAST OP_DEBUG OP_LOCAL OP_CMO OP_COMM
%token ELSE "'else'"
%token UNKNOWN_OP "an unknown op"
%token <type> TYPE_MEMO "a memoized type"

%type <n> opt_uses uses types opt_types result_types attr_values ints opt_subview_valid
%type <n> opt_gather_axis opt_func_results opt_visibility type_val for_iters iter_inits opt_region_results while_inits
%type <n> arith_flags flag_words
%type <n> sync_items sync_list fifo_tail fifo_kws
%type <tu> fifo_opnds
%type <n> opt_gregions gregions clauses
%type <n> opt_attributes opt_attr_dict attr_dict attr_entries opt_props
%type <head> func_head
%type <tu> typed_uses tu_items tu_item
%type <sig> compute_sig
%type <type> type opt_arrow_type opt_for_type opt_to_type cast_type
%type <aval> attr_value subview_sizes hash_attr

%%

file
    : %empty
    | file top
    ;

top
    : module
    | func
    | gmodule
    | gfunc
    | loc_alias
    | error
    ;

module
    : MODULE opt_modname opt_attributes '{' { pb_module_begin(p, @1, @2, $3); $<mod>$ = p->mod; } mod_items '}'
      { $<mod>5->end = @7.end; pb_module_end(p, $<mod>5); } opt_loc { pb_loc_at(p, @1, @9); }
    ;

opt_modname
    : %empty { @$.begin = @$.end; }
    | SYMBOL
    ;

mod_items
    : %empty
    | mod_items module
    | mod_items gmodule
    | mod_items func
    | mod_items gfunc
    | mod_items error
    ;


/* A function with a body, or a declaration (no body) */
func
    : func_head '{' { pb_func_body(p, $1.nres, $1.nattrs); } ops rbrace
      { pb_func_end(p, @5); } opt_loc { pb_loc_at(p, @1, @7); }
    | func_head
      { pb_func_decl(p, $1.nres, $1.nattrs); } opt_loc { pb_loc_at(p, @1, @3); }
    ;

func_head
    : FUNC opt_visibility SYMBOL '(' { pb_func_begin(p, @1, @3, (int)$2); } opt_args ')'
      opt_func_results opt_attributes
      { $$.nres = $8; $$.nattrs = $9; }
    ;

opt_visibility
    : %empty  { $$ = 0; }
    | PRIVATE { $$ = 1; }
    | PUBLIC  { $$ = 2; }
    ;

opt_args
    : %empty
    | args
    ;

args
    : arg
    | args ',' arg
    ;

arg
    : SSA ':' type opt_loc { pb_func_arg(p, @1, $3, @3); pb_loc_at(p, @1, @4); }
    | type         { pb_func_arg_anon(p, $1, @1); }
    ;

opt_func_results
    : %empty                    { $$ = 0; }
    | ARROW type                { pb_push_type(p, $2, @2); $$ = 1; }
    | ARROW '(' opt_types ')'   { $$ = $3; }
    ;

opt_attributes
    : %empty               { $$ = 0; }
    | ATTRIBUTES attr_dict { $$ = $2; }
    ;

ops
    : %empty
    | ops op_begin op
    | ops error
    ;

/* The '}' that closes a body or region: errors are reported again at once, so that an
 * error in its last op (the recovery stops at this '}') does not hide the errors of the
 * next ops after it, which Bison would drop silently for three more tokens. */
rbrace
    : '}' { yyerrok; }
    ;

/* A new op starts: errors are reported again at once, and its stacks are fresh. */
op_begin
    : %empty { yyerrok; pb_op_reset(p); }
    ;

op
    : results '=' op_body opt_loc { pb_loc_at(p, @3, @4); }
    | op_body opt_loc { pb_loc_at(p, @1, @2); }
    ;

results
    : result
    | results ',' result
    ;

/* `%r:N` is a group of N results, used as %r#0 ... %r#N-1 */
result
    : SSA             { pb_push_result(p, @1); }
    | SSA ':' INT     { pb_multi_result(p, @1, @3); }
    ;

op_body
    /* an op ptoas lacks, at the start of its line: reported, and the rest of its line
     * skipped as after an error, with no syntax error (whose recovery could reopen the
     * region a '}' just closed and then drop the next errors silently) */
    : UNKNOWN_OP
      { pb_unknown_op(p, @1, true); p->recovering = true; }
    | OP_COMPUTE opt_uses opt_attr_dict ':' compute_sig
      { pb_op_compute_l1(p, @1, $2, $3, $5); }
    | OP_COMPUTE INS '(' typed_uses ')' OUTS '(' typed_uses ')' opt_attr_dict clauses
      { pb_op_compute_l2(p, @1, $4, $8, $10, $11, @$); }
    | OP_ALLOC alloc_kws opt_attr_dict ':' type
      { pb_op_alloc(p, @1, $3, $5, @5); }
    | OP_TASSIGN use ',' use ':' type ARROW type
      { pb_op_tassign(p, @1, $6, $8, @8); }
    | OP_TASSIGN use ',' SYMBOL '(' INT ')'
      { pb_op_tassign_isa(p, @1, @4, @6, T_INT); }
    | OP_TASSIGN use ',' SYMBOL '(' HEX ')'
      { pb_op_tassign_isa(p, @1, @4, @6, T_HEX); }
    | OP_VIEW use ',' view_kws opt_attr_dict ':' type opt_arrow_type
      { pb_op_view(p, @1, $5, $7, @7, $8, @8); }
    | OP_TILEVIEW use opt_attr_dict ':' type ARROW type
      { pb_op_treshape(p, @1, $3, $5, @5, $7, @7); }
    | OP_TILEVIEW use '[' opt_uses ']' any_ident subview_sizes opt_subview_valid opt_attr_dict ':' type opt_arrow_type
      { pb_op_subview(p, @1, $4, @6, $7, $8, $9, $11, @11, $12, @12); }
    | OP_TILEVIEW use ',' use ',' use opt_attr_dict ':' type
      { pb_op_set_validshape(p, @1, $7, $9, @9); }
    | OP_CONSTANT attr_value
      { pb_op_constant(p, @1, $2); }
    | OP_ARITH { p->arith_op = @1; } arith_pred uses arith_flags opt_attr_dict ':' types opt_to_type
      { pb_op_arith(p, @1, $4, $5 + $6, $8, $9, @9); }
    | OP_CALL SYMBOL '(' opt_uses ')' opt_attr_dict ':' '(' opt_types ')' ARROW result_types
      { pb_op_call(p, @1, @2, $4, $6, $9, $12); }
    | OP_LOAD_SCALAR use '[' use ']' opt_attr_dict ':' type ARROW type
      { pb_op_load_scalar(p, @1, $6, $8, @8, $10, @10); }
    | OP_STORE_SCALAR use ',' use '[' use ']' opt_attr_dict ':' type ',' type
      { pb_op_store_scalar(p, @1, $8, $10, @10, $12, @12); }
    /* == CUBE == */


    /* == MOVES == */


    /* == PIPE == */
    /* pto.tpush_to_aiv(%t : T) {id = 0, split = 0}, pto.tpop_from_aic(%r, %c) {...} -> T,
     * pto.reserve_buffer {...} -> i32, pto.aic_initialize_pipe {...} (kw = %v : T, ...) */
    | OP_FIFO fifo_opnds attr_dict fifo_tail opt_attr_dict opt_arrow_type
      { pb_op_fifo(p, @1, $2, $3 + $5, $4, $6, @6); }
    /* pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>], pto.barrier <PIPE_ALL>,
     * pto.sync.set #pto.pipe<PIPE_M>, 0, %i = pto.get_block_idx */
    | OP_SYNC sync_items opt_attr_dict opt_arrow_type
      { pb_op_sync(p, @1, $2, $3, $4, @4); }
    /* pto.syncall(%ws, %n : T1, T2) mode = #pto.sync_all_mode<soft>, core_type = #... */
    | OP_SYNCALL '(' opt_uses ')' IDENT '=' attr_value ',' IDENT '=' attr_value opt_attr_dict
      { pb_op_syncall(p, @1, $3, 0, @5, $7, @9, $11, $12); }
    | OP_SYNCALL '(' uses ':' types ')' IDENT '=' attr_value ',' IDENT '=' attr_value opt_attr_dict
      { pb_op_syncall(p, @1, $3, $5, @7, $9, @11, $13, $14); }
    | OP_SECTION '{' { pb_section_body(p, @1); } ops rbrace opt_attr_dict
      { pb_region_op_end(p, @5, $6); }
    | OP_MTGET use '[' use ']' opt_attr_dict ':' type ARROW type
      { pb_op_multi_tile_get(p, @1, $6, $8, @8, $10, @10); }

    /* == ELEM == */


    /* == REARR == */
    /* pto.tgather's mask-pattern form: ins(%src, {maskPattern = P} : T, "row") */
    | OP_COMPUTE INS '(' tu_items ',' attr_dict ':' type { pb_push_type(p, $8, @8); } opt_gather_axis ')'
      OUTS '(' typed_uses ')' opt_attr_dict clauses
      { pb_op_tgather_mask(p, @1, $4, $6 + $10, $14, $16, $17, @$); }

    /* == SCALAR == */
    /* pto.tgetval: a scalar result after a bare `outs` */
    | OP_COMPUTE INS '(' typed_uses ')' OUTS ':' type opt_attr_dict
      { pb_op_tgetval(p, @1, $4, $9, $8, @8); }
    /* pto.declare_tile {attrs} -> T (alloc_kws: the same prefix as alloc_tile's) */
    | OP_ALLOC alloc_kws opt_attr_dict ARROW type
      { pb_op_declare_tile(p, @1, $3, $5, @5); }
    /* the debug ops: pto.trap, pto.tprint ins(%src[, %tmp] : T[, T2]), pto.print ins("fmt", %v : T) */
    | OP_DEBUG opt_attr_dict
      { pb_op_debug(p, @1, 0, (TypedUses){0}, @1, $2, NULL, @1); }
    | OP_DEBUG INS '(' typed_uses ')' opt_attr_dict
      { pb_op_debug(p, @1, 1, $4, @1, $6, NULL, @1); }
    | OP_DEBUG INS '(' STRING ',' use ':' type ')' opt_attr_dict
      { pb_op_debug(p, @1, 2, (TypedUses){0}, @4, $10, $8, @8); }
    /* pointers and queries: operands, then the first one's type -> the result's */
    | OP_CAST uses opt_attr_dict ':' cast_type ARROW cast_type opt_attr_dict
      { pb_op_cast(p, @1, $2, $3 + $8, $5, @5, $7, @7); }
    /* local arrays: %a = pto.declare_local_array -> T, %v = pto.local_array_get %a[%i, ...] : T -> R,
     * pto.local_array_set %a[%i, ...], %v : T, R */
    | OP_LOCAL opt_attr_dict ARROW type
      { pb_op_local(p, @1, 0, 0, $2, NULL, @1, $4, @4); }
    | OP_LOCAL use '[' opt_uses ']' opt_attr_dict ':' type ARROW type
      { pb_op_local(p, @1, 1, $4, $6, $8, @8, $10, @10); }
    | OP_LOCAL use '[' opt_uses ']' ',' use opt_attr_dict ':' type ',' type
      { pb_op_local(p, @1, 2, $4, $8, $10, @10, $12, @12); }
    /* cache maintenance: pto.cmo.cacheinvalid all SPACE {attrs}, ... %addr single_cache_line : T {attrs} */
    | OP_CMO any_ident attr_value opt_attr_dict
      { pb_op_cmo(p, @1, 0, @2, $3, $4, NULL, @1); }
    | OP_CMO use any_ident ':' type opt_attr_dict
      { pb_op_cmo(p, @1, 1, @3, NULL, $6, $5, @5); }
    /* comm signals: pto.comm.tnotify(%sig, %v : V, i32) {attrs}, %ok = pto.comm.ttest(...) {attrs} -> i1 */
    | OP_COMM '(' uses ':' types ')' opt_attr_dict opt_arrow_type
      { pb_op_comm(p, @1, $3, $5, $7, $8, @8); }
    /* event-id arrays: %e = pto.eventid_array_get %a[%i] : T, pto.eventid_array_set %a[%i], %e : T */
    | OP_LOCAL use '[' opt_uses ']' opt_attr_dict ':' type
      { pb_op_local(p, @1, 1, $4, $6, $8, @8, NULL, @8); }
    | OP_LOCAL use '[' opt_uses ']' ',' use opt_attr_dict ':' type
      { pb_op_local(p, @1, 2, $4, $8, $10, @10, NULL, @10); }

    | OP_RETURN
      { pb_op_return(p, @1, 0, 0); }
    | OP_RETURN uses ':' types
      { pb_op_return(p, @1, $2, $4); }
    /* scf.for %iv = %lb to %ub step %s (iter_args(%a = %init, ...))? (-> (T, ...))? (: T)? { ... } */
    | OP_FOR SSA '=' use IDENT use IDENT use for_iters opt_region_results opt_for_type
      '{' { pb_for_body(p, @1, @2, @5, @7, $9, $10, $11, @12); } ops rbrace opt_attr_dict
      { pb_region_op_end(p, @15, $16); }
    /* scf.if %c (-> (T, ...))? { ... } (else { ... })? */
    | OP_IF use opt_region_results
      '{' { pb_if_then(p, @1, $3); } ops rbrace opt_else opt_attr_dict
      { pb_region_op_end(p, @7, $9); }
    /* scf.while ((%a = %init, ...))? : (T, ...) -> R { ... scf.condition(%c) ... } do { ^bb0(...): ... }
     * (attributes {...})? */
    | OP_WHILE while_inits ':' '(' opt_types ')' ARROW result_types
      '{' { pb_while_before(p, @1, $2, $5, $8, @3); } ops rbrace IDENT
      '{' { pb_while_after(p, @13); } opt_gblock ops rbrace opt_attributes
      { pb_region_op_end(p, @18, $19); }
    /* scf.condition(%c) {attrs}? (%a, ... : T, ...)? */
    | OP_CONDITION '(' use ')' opt_attr_dict
      { pb_op_condition(p, @1, 0, 0, $5); }
    | OP_CONDITION '(' use ')' opt_attr_dict uses ':' types
      { pb_op_condition(p, @1, $6, $8, $5); }
    /* scf.execute_region (-> T | -> (T, ...))? { ... } {attrs}? */
    | OP_EXECUTE_REGION opt_region_results
      '{' { pb_execute_region_body(p, @1, $2); } opt_gblock ops rbrace opt_attr_dict
      { pb_region_op_end(p, @7, $8); }
    | STRING '(' opt_uses ')' opt_props opt_gregions opt_attr_dict ':' '(' opt_types ')' ARROW result_types
      { p->gen_nprops = $5; pb_op_generic(p, @1, $3, $10, $13, $5 + $7, $6); }
    ;

/* == PIPE == */
fifo_opnds
    : %empty             { $$ = (TypedUses){.state = 0}; }
    | '(' typed_uses ')' { $$ = $2; }
    ;

/* after a FIFO op's attributes: initialize_pipe's `(kw = %v : T, ...)`, or
 * `aiv_subblockid(%v)` (pushed as keyword operands; the count) */
fifo_tail
    : %empty                    { $$ = 0; }
    | '(' ')'                   { $$ = 0; }
    | '(' fifo_kws ')'          { $$ = $2; }
    | IDENT '(' SSA ')'         { pb_push_use(p, @3); pb_push_type(p, NULL, @3);
                                  pb_push_kw(p, @1, (uint32_t)p->nuses - 1, 1, false); $$ = 1; }
    ;

fifo_kws
    : fifo_kw                   { $$ = 1; }
    | fifo_kws ',' fifo_kw      { $$ = $1 + 1; }
    ;

fifo_kw
    : any_ident '=' SSA ':' type
      { pb_push_use(p, @3); pb_push_type(p, $5, @5); pb_push_kw(p, @1, (uint32_t)p->nuses - 1, 1, false); }
    ;

/* a sync op's items (pushed as clauses: CL_ATTR, CL_STRIPPED `<X>`, CL_OPERAND %v) */
sync_items
    : %empty                    { $$ = 0; }
    | '[' sync_list ']'         { $$ = $2; }
    | sync_head                 { $$ = 1; }
    | sync_head ',' sync_item   { $$ = 2; }
    ;

sync_list
    : sync_item                 { $$ = 1; }
    | sync_list ',' sync_item   { $$ = $1 + 1; }
    ;

sync_head
    : '<' any_ident '>'         { pb_push_clause(p, @2, CL_STRIPPED, NULL, @$, @2); }
    | hash_attr                 { pb_push_clause(p, @1, CL_ATTR, $1, @1, @1); }
    ;

sync_item
    : '<' any_ident '>'         { pb_push_clause(p, @2, CL_STRIPPED, NULL, @$, @2); }
    | SSA                       { pb_push_use(p, @1); pb_push_clause(p, @1, CL_OPERAND, NULL, @1, @1); }
    | attr_value                { pb_push_clause(p, @1, CL_ATTR, $1, @1, @1); }
    ;

for_iters
    : %empty { $$ = 0; }
    | IDENT '(' iter_inits ')' { pb_keyword(p, @1, "iter_args"); $$ = $3; }
    ;

iter_inits
    : iter_init                { $$ = 1; }
    | iter_inits ',' iter_init { $$ = $1 + 1; }
    ;

iter_init
    : SSA '=' SSA { pb_push_barg(p, @1); pb_push_use(p, @3); }
    ;

opt_gather_axis
    : %empty     { $$ = 0; }
    | ',' STRING { pb_push_gather_axis(p, @2); $$ = 1; }
    ;

opt_region_results
    : %empty             { $$ = 0; }
    | ARROW result_types { $$ = $2; }
    ;

while_inits
    : %empty                 { $$ = 0; }
    | '(' ')'                { $$ = 0; }
    | '(' iter_inits ')'     { $$ = $2; }
    ;

opt_for_type
    : %empty   { $$ = NULL; }
    | ':' type { $$ = $2; }
    ;

opt_else
    : %empty
    | ELSE '{' { pb_if_else(p, @1); } ops rbrace
    ;

/* MLIR's generic regions: ({ ^bb0(%a: T, ...): ops }, { ... }) */
opt_gregions
    : %empty           { $$ = 0; }
    | '(' gregions ')' { $$ = $2; }
    ;

gregions
    : gregion              { $$ = 1; }
    | gregions ',' gregion { $$ = $1 + 1; }
    ;

gregion
    : '{' { pb_gregion_begin(p); } opt_gblock ops rbrace { pb_region_end(p); }
    ;

opt_gblock
    : %empty
    | CARET ':'                   { pb_block_label(p, @1); }
    | CARET '(' gblock_args ')' ':' { pb_block_label(p, @1); }
    ;

gblock_args
    : gblock_arg
    | gblock_args ',' gblock_arg
    ;

gblock_arg
    : SSA ':' type opt_loc { pb_block_arg(p, @1, $3, @3); pb_loc_at(p, @1, @4); }
    ;

use
    : SSA { pb_push_use(p, @1); }
    ;

/* arith.cmpi's predicate before its operands: `slt, %a, %b` (or "slt") */
arith_pred
    : %empty           { p->arith_pred = (Span){0, 0}; }
    | any_ident ','    { p->arith_pred = @1; }
    | STRING ','       { p->arith_pred = @1; }
    ;

/* `overflow<nsw, nuw>` or `fastmath<nnan,ninf>`: pushed as one attribute (1), or 0 */
arith_flags
    : %empty                              { $$ = 0; }
    | IDENT '<' { p->nwords = 0; } flag_words '>' { $$ = pb_arith_flags(p, @1, $4, @$); }
    ;

flag_words
    : %empty                    { $$ = 0; }
    | any_ident                 { pb_push_word(p, @1); $$ = 1; }
    | flag_words ',' any_ident  { pb_push_word(p, @3); $$ = $1 + 1; }
    ;

/* a cast's `to T` */
opt_to_type
    : %empty     { $$ = NULL; @$.begin = @$.end; }
    | IDENT type { pb_to_keyword(p, @1); $$ = $2; @$ = @2; }
    ;

opt_uses
    : %empty { $$ = 0; }
    | uses
    ;

uses
    : SSA          { pb_push_use(p, @1); $$ = 1; }
    | uses ',' SSA { pb_push_use(p, @3); $$ = $1 + 1; }
    ;

/* `%a, %b : T1, T2` or `%a : T1, %b {attrs} : T2` (PTOAS's per-operand form);
 * pb_tu_item checks that the items make one of the two forms. */
typed_uses
    : %empty   { $$ = (TypedUses){.state = 0}; }
    | tu_items
    ;

tu_items
    : tu_item              { $$ = (TypedUses){.state = 0}; pb_tu_item(p, &$$, &$1, @1); }
    | tu_items ',' tu_item { $$ = $1; pb_tu_item(p, &$$, &$3, @3); }
    /* pto.tstore's `ins(%src : T fp %fp : Tf)` (PTOAS); pb_tu_fp checks the word */
    | tu_items IDENT tu_item { $$ = $1; pb_tu_fp(p, &$$, @2); pb_tu_item(p, &$$, &$3, @3); }
    ;

tu_item
    : SSA                    { pb_push_use(p, @1); $$ = (TypedUses){.state = TU_BARE}; }
    | SSA ':' type           { pb_push_use(p, @1); pb_push_type(p, $3, @3); $$ = (TypedUses){.state = TU_TYPED}; }
    | SSA attr_dict ':' type { pb_push_use(p, @1); pb_push_type(p, $4, @4); $$ = (TypedUses){.attrs = $2, .state = TU_TYPED}; }
    | type                   { pb_push_type(p, $1, @1); $$ = (TypedUses){.state = TU_TYPE}; }
    ;

compute_sig
    : '(' opt_types ')' ARROW result_types
      { $$.nparams = $2; $$.nresults = $5; $$.arrow = true; $$.parens = true; }
    | types
      { $$.nparams = $1; $$.nresults = 0; $$.arrow = false; $$.parens = false; }
    ;

result_types
    : type                { pb_push_type(p, $1, @1); $$ = 1; }
    | '(' opt_types ')'   { $$ = $2; }
    ;

opt_types
    : %empty { $$ = 0; }
    | types
    ;

types
    : type           { pb_push_type(p, $1, @1); $$ = 1; }
    | types ',' type { pb_push_type(p, $3, @3); $$ = $1 + 1; }
    ;

alloc_kws
    : %empty
    | alloc_kws any_ident '=' SSA
      { pb_push_use(p, @4); pb_push_kw(p, @2, (uint32_t)p->nuses - 1, 1, false); }
    ;

view_kws
    : view_kw
    | view_kws ',' view_kw
    ;

view_kw
    : any_ident '=' '[' opt_uses ']'
      { pb_push_kw(p, @1, (uint32_t)p->nuses - $4, $4, true); }
    ;

/* pto.subview's `sizes [R, C]` (bracketed: a bare attr_value would take the ':') */
subview_sizes
    : '[' attr_values ']' { $$ = pb_attr_array(p, $2, @$); }
    ;

/* pto.subview's `valid [%vr, %vc]`: 0 if absent, else 2 (the uses pushed) */
opt_subview_valid
    : %empty { $$ = 0; }
    | any_ident '[' use ',' use ']' { pb_subview_valid_kw(p, @1); $$ = 2; }
    ;

opt_arrow_type
    : %empty     { $$ = NULL; }
    | ARROW type { $$ = $2; }
    ;

/* pto.tload's `pad_value = %v : T`, `pad_mode = <PadValue>`, `init_out_buffer = true`
 * after outs (ir.c's tload_tail); pb_op_compute_l2 checks words, order and values */
clauses
    : %empty          { $$ = 0; }
    | clauses clause  { $$ = $1 + 1; }
    ;

clause
    : CLAUSE '=' SSA ':' type
      { pb_push_use(p, @3); pb_push_type(p, $5, @5); pb_push_clause(p, @1, CL_OPERAND, NULL, @3, @3); }
    | CLAUSE '=' '<' any_ident '>' { pb_push_clause(p, @1, CL_STRIPPED, NULL, @3, @4); }
    | CLAUSE '=' CLAUSE_WORD       { pb_push_clause(p, @1, CL_WORD, NULL, @3, @3); }
    | CLAUSE '=' attr_value        { pb_push_clause(p, @1, CL_ATTR, $3, @3, @3); }
    ;

opt_props
    : %empty            { $$ = 0; }
    | '<' attr_dict '>' { $$ = $2; }
    ;

/* ---- types ---------------------------------------------------------------- */

type
    : IDENT { $$ = pb_scalar_type(p, @1); }
    | BANG  { $$ = pb_scalar_type(p, @1); }
    | BANG '<' { p->open_type = @1; p->ntitems = 0; } type_items '>'
      {
          p->open_type.end = p->open_type.begin;
          unsigned errors = diag_error_count(p->diag);
          $$ = pb_param_type(p, @1, @$);
          if ($$ && diag_error_count(p->diag) == errors)
              memo_add(p, @$, $$);
      }
    /* == SCALAR == one integer parameter: !pto.eventid_array<4> */
    | BANG '<' INT '>'
      {
          p->ntitems = 0;
          pb_push_titem(p, (Span){0, 0}, @3, T_INT);
          unsigned errors = diag_error_count(p->diag);
          $$ = pb_param_type(p, @1, @$);
          if ($$ && diag_error_count(p->diag) == errors)
              memo_add(p, @$, $$);
      }
    | TYPE_MEMO { $$ = $1; }
    ;

/* a pointer op's type; `<f32>` is MLIR's !pto.ptr<f32> with the dialect prefix elided
 * (pb_op_cast checks that the op's format allows it there) */
cast_type
    : type { $$ = $1; }
    | '<' { p->open_type = @1; p->ntitems = 0; } type_items '>'
      {
          p->open_type.end = p->open_type.begin;
          $$ = pb_param_type_as(p, (Str){"!pto.ptr", 8}, @1, @$);
      }
    ;

type_items
    : type_item
    | type_items ',' type_item
    ;

type_item
    : any_ident               { pb_push_titem(p, (Span){0, 0}, @1, T_IDENT); }
    | SHAPED                  { pb_push_titem(p, (Span){0, 0}, @1, T_SHAPED); }
    | BANG                    { pb_push_titem(p, (Span){0, 0}, @1, T_BANG); }
    | STRING                  { pb_push_titem(p, (Span){0, 0}, @1, T_STRING); }
    | any_ident '=' type_val  { pb_push_titem(p, @1, @3, (int)$3); }
    /* == PIPE == a type inside a type: !pto.multi_tile_buf<!pto.tile_buf<...>, count=N> */
    | BANG '<' { $<n>$ = (uint32_t)p->ntitems; } type_items '>' { pb_nested_type(p, @1, @$, $<n>3); }
    ;

type_val
    : any_ident { $$ = T_IDENT; }
    | INT       { $$ = T_INT; }
    | HEX       { $$ = T_HEX; }
    | DIMS      { $$ = T_DIMS; }
    | '?'       { $$ = '?'; }
    | BANG      { $$ = T_BANG; }
    | STRING    { $$ = T_STRING; }
    ;

/* ---- attributes ----------------------------------------------------------- */

opt_attr_dict
    : %empty { $$ = 0; }
    | attr_dict
    ;

attr_dict
    : '{' '}'              { $$ = 0; }
    | '{' attr_entries '}' { $$ = $2; }
    ;

attr_entries
    : attr_entry                  { $$ = 1; }
    | attr_entries ',' attr_entry { $$ = $1 + 1; }
    ;

attr_entry
    : attr_key                { pb_push_attr(p, @1, NULL, @1); }
    | attr_key '=' attr_value { pb_push_attr(p, @1, $3, @$); }
    /* pto.reserve_buffer's `location = <vec>`: the attribute's dialect prefix elided */
    | attr_key '=' '<' any_ident '>' { pb_push_attr(p, @1, pb_attr_elided(p, @1, @3, @4, @$), @$); }
    ;

attr_key
    : any_ident
    | STRING
    | GFUNC
    | GMODULE
    ;

any_ident
    : IDENT | INS | OUTS | MODULE | FUNC | ATTRIBUTES | PRIVATE | PUBLIC | ARRAY
    | OP_COMPUTE | OP_ALLOC | OP_TASSIGN | OP_VIEW | OP_TILEVIEW | OP_CONSTANT | OP_RETURN | OP_FOR | OP_IF | ELSE
    | OP_ARITH | OP_CALL | OP_LOAD_SCALAR | OP_STORE_SCALAR | CLAUSE | OP_WHILE | OP_CONDITION | OP_EXECUTE_REGION
    | OP_FIFO | OP_SYNC | OP_SECTION | OP_MTGET | OP_SYNCALL
    | OP_CAST | OP_DEBUG | OP_LOCAL | OP_CMO | OP_COMM
    ;

attr_value
    : INT                     { $$ = pb_attr_number(p, T_INT, @1, NULL, @1); }
    /* a type that failed is reported already: nothing more about its number */
    | INT ':' type            { $$ = $3 ? pb_attr_number(p, T_INT, @1, $3, @3) : NULL; }
    | HEX                     { $$ = pb_attr_number(p, T_HEX, @1, NULL, @1); }
    | HEX ':' type            { $$ = $3 ? pb_attr_number(p, T_HEX, @1, $3, @3) : NULL; }
    | FLOAT                   { $$ = pb_attr_number(p, T_FLOAT, @1, NULL, @1); }
    | FLOAT ':' type          { $$ = $3 ? pb_attr_number(p, T_FLOAT, @1, $3, @3) : NULL; }
    | STRING                  { $$ = pb_attr_simple(p, AV_STRING, @1); }
    | GFUNC                   { $$ = pb_attr_simple(p, AV_STRING, @1); }
    | GMODULE                 { $$ = pb_attr_simple(p, AV_STRING, @1); }
    | '(' opt_types ')' ARROW result_types { $$ = pb_attr_functype(p, $2, $5, @$); }
    | TRUE                    { $$ = pb_attr_simple(p, AV_BOOL, @1); }
    | FALSE                   { $$ = pb_attr_simple(p, AV_BOOL, @1); }
    | '[' ']'                 { $$ = pb_attr_array(p, 0, @$); }
    | '[' attr_values ']'     { $$ = pb_attr_array(p, $2, @$); }
    | ARRAY '<' IDENT '>'     { $$ = pb_attr_dense(p, @3, 0, @$); }
    | ARRAY '<' IDENT ':' ints '>' { $$ = pb_attr_dense(p, @3, $5, @$); }
    | hash_attr
    | SYMBOL                  { $$ = pb_attr_simple(p, AV_SYMBOL, @1); }
    | type                    { $$ = pb_attr_type(p, $1, @1); }
    ;

/* a dialect attribute: #pto.KIND<V>, #pto<KIND V>, #arith.overflow<...> */
hash_attr
    : HASH '<' any_ident enum_word '>' { $$ = pb_attr_enum(p, @1, @3, @4, @$); }
    | HASH '<' enum_word '>'  { $$ = pb_attr_enum(p, @1, (Span){0, 0}, @3, @$); }
    /* an enum value that is no keyword, or none: MLIR's errors, then on after the '>' */
    | HASH '<' any_ident enum_literal '>' { $$ = pb_attr_enum_nokeyword(p, @1, @3, @4); }
    | HASH '<' enum_literal '>' { $$ = pb_attr_enum_nokeyword(p, @1, (Span){0, 0}, @3); }
    | HASH '<' '>'            { $$ = pb_attr_enum_nokeyword(p, @1, (Span){0, 0}, @3); }
    /* #arith.overflow<nsw, nuw>, #arith.fastmath<nnan,ninf> */
    | HASH '<' any_ident ',' { p->nwords = 0; pb_push_word(p, @3); } flag_words '>'
      { $$ = pb_attr_flags(p, @1, $6 + 1, @$); }
    /* == PIPE == #pto.acc_push_epilogue<layout = nz2nd, quant = ..., relu = ...> */
    | HASH '<' hash_kvs '>'   { $$ = pb_attr_keyed(p, @1, @$); }
    ;

hash_kvs
    : any_ident '=' enum_word
    | hash_kvs ',' any_ident '=' enum_word
    ;

/* an MLIR keyword (a bare identifier, `true` and `false` too) as an enum value */
enum_word
    : any_ident | TRUE | FALSE
    ;

enum_literal
    : INT | HEX | FLOAT | STRING
    ;

attr_values
    : attr_value                 { pb_push_aval(p, $1); $$ = 1; }
    | attr_values ',' attr_value { pb_push_aval(p, $3); $$ = $1 + 1; }
    ;

ints
    : INT          { pb_push_int(p, @1); $$ = 1; }
    | HEX          { pb_push_int(p, @1); $$ = 1; }
    | ints ',' INT { pb_push_int(p, @3); $$ = $1 + 1; }
    | ints ',' HEX { pb_push_int(p, @3); $$ = $1 + 1; }
    ;

/* MLIR's generic spelling of the region ops, as --emit=generic prints them:
 * "builtin.module"() <{sym_name = ...}> ({ ... }) {attrs} : () -> ()
 * "func.func"() <{function_type = ..., sym_name = ...}> ({ ^bb0(%a: T): ... }) {attrs} : () -> () */
gmodule
    : GMODULE '(' ')' opt_props '(' '{' { pb_gmodule_begin(p, @1, $4); $<mod>$ = p->mod; } mod_items '}' ')'
      opt_attr_dict ':' '(' ')' ARROW '(' ')'
      { pb_gmodule_end(p, $<mod>7, $11); } opt_loc { pb_loc_at(p, @1, @19); }
    ;

gfunc
    : GFUNC '(' ')' opt_props '(' '{' { pb_gfunc_begin(p, @1, $4); } opt_block_args { pb_gfunc_body(p); } ops rbrace
      ')' opt_attr_dict ':' '(' ')' ARROW '(' ')'
      { pb_gfunc_end(p, @11, $13); } opt_loc { pb_loc_at(p, @1, @21); }
    ;

/* ---- locations --------------------------------------------------------------
 * MLIR's trailing locations, after an op or a block argument, and the location
 * aliases `#name = loc(...)` at the top level. They are checked and kept by
 * the offset of what they follow (pb_loc_at: the op name, the argument), for
 * --mlir-print-debuginfo; diagnostics point at the source itself. opt_loc's
 * location is the text inside loc(...), empty when there is none. */

opt_loc
    : %empty
    | LOC '(' location ')' { @$ = @3; }
    ;

loc_alias
    : HASH '=' LOC '(' location ')' { pb_loc_alias_def(p, @1, @5); }
    ;

location
    : loc_name                            /* a name */
    | loc_name '(' location ')'           /* a name with a child location */
    | loc_name ':' INT ':' INT            /* "file":line:column */
    | HASH                                { pb_loc_alias_use(p, @1); }
    | IDENT                               { pb_loc_word(p, @1, "unknown"); }
    | IDENT '(' location IDENT location ')'
      { pb_loc_word(p, @1, "callsite"); pb_loc_word(p, @4, "at"); }
    | IDENT '[' locations ']'             { pb_loc_word(p, @1, "fused"); }
    | IDENT '<' attr_value '>' '[' locations ']' { pb_loc_word(p, @1, "fused"); }
    ;

loc_name
    : STRING | GFUNC | GMODULE
    ;

locations
    : location
    | locations ',' location
    ;

opt_block_args
    : %empty                          { p->gfunc_label = false; }
    | CARET ':'                       { p->gfunc_label = true; }
    | CARET '(' opt_args ')' ':'      { p->gfunc_label = true; }
    ;

%%

/* ---- the lexer interface and error recovery -------------------------------- */

/* Maps an identifier that names an op (ops.def) to its syntax-class token. */
static int classify_ident(Parser *p, Span s)
{
    const char *t = p->src->text + s.begin;
    uint32_t n = s.end - s.begin;
    /* Every op name is dotted or "return": skip the table for the rest. */
    if (n == 4 && memcmp(t, "else", 4) == 0)
        return T_ELSE;
    if (!memchr(t, '.', n) && !(n == 6 && memcmp(t, "return", 6) == 0) && !(n == 4 && memcmp(t, "call", 4) == 0))
        return tail_clause_word(t, n) ? T_CLAUSE : T_IDENT;
    OpKind k = op_lookup(t, n);
    if (k == OP_COUNT)
        return T_IDENT;
    static const int syn_tok[] = {
        [SYN_COMPUTE] = T_OP_COMPUTE, [SYN_ALLOC] = T_OP_ALLOC, [SYN_TASSIGN] = T_OP_TASSIGN,
        [SYN_VIEW] = T_OP_VIEW, [SYN_TILEVIEW] = T_OP_TILEVIEW, [SYN_CONSTANT] = T_OP_CONSTANT, [SYN_RETURN] = T_OP_RETURN,
        [SYN_FOR] = T_OP_FOR, [SYN_IF] = T_OP_IF, [SYN_WHILE] = T_OP_WHILE, [SYN_CONDITION] = T_OP_CONDITION,
        [SYN_EXECUTE_REGION] = T_OP_EXECUTE_REGION,
        [SYN_ARITH] = T_OP_ARITH, [SYN_CALL] = T_OP_CALL, [SYN_LOAD_SCALAR] = T_OP_LOAD_SCALAR,
        [SYN_STORE_SCALAR] = T_OP_STORE_SCALAR,
        [SYN_FIFO] = T_OP_FIFO, [SYN_SYNC] = T_OP_SYNC, [SYN_SECTION] = T_OP_SECTION, [SYN_MTGET] = T_OP_MTGET,
        [SYN_SYNCALL] = T_OP_SYNCALL,
        [SYN_CAST] = T_OP_CAST, [SYN_DEBUG] = T_OP_DEBUG, [SYN_LOCAL] = T_OP_LOCAL, [SYN_CMO] = T_OP_CMO, [SYN_COMM] = T_OP_COMM,
    };
    return syn_tok[op_info(k)->syntax];
}

/* "func.func" and "builtin.module" start the generic spelling of those ops. */
static int classify_string(const Parser *p, Span s)
{
    const char *t = p->src->text + s.begin;
    uint32_t n = s.end - s.begin;
    if (n == 11 && memcmp(t, "\"func.func\"", 11) == 0)
        return T_GFUNC;
    if (n == 16 && memcmp(t, "\"builtin.module\"", 16) == 0)
        return T_GMODULE;
    return T_STRING;
}

/* A token where parsing can resume after an error: the first token of a line
 * that starts an op inside the current body, a '}' that closes the body or
 * module, a line-initial func.func/module outside bodies, or end of file. */
static bool is_sync(const Parser *p, int t, Span loc, bool bol)
{
    if (t == T_END)
        return true;
    /* the body a token is in: a region whose '}' came is left although its builder
     * action (region_pop) waits for the token after it */
    int body_depth = p->body_depth;
    bool in_body = p->in_body;
    for (size_t k = p->nframes; k > 0 && in_body && p->depth < body_depth - (t == '}'); k--) {
        body_depth = p->frames[k - 1].body_depth;
        in_body = p->frames[k - 1].in_body;
    }
    if (in_body) {
        if (t == '}')
            return p->depth == body_depth - 1;
        if (!bol || p->depth != body_depth)
            return false;
        /* a dotted identifier there is an unknown op (yylex reports it) */
        if (t == T_IDENT)
            return memchr(p->src->text + loc.begin, '.', loc.end - loc.begin) != NULL;
        return t == T_SSA || t == T_STRING || t == T_OP_COMPUTE || t == T_OP_ALLOC || t == T_OP_TASSIGN ||
               t == T_OP_VIEW || t == T_OP_TILEVIEW || t == T_OP_CONSTANT || t == T_OP_RETURN || t == T_OP_FOR ||
               t == T_OP_IF || t == T_OP_ARITH || t == T_OP_CALL || t == T_OP_LOAD_SCALAR ||
               t == T_OP_STORE_SCALAR || t == T_OP_WHILE || t == T_OP_CONDITION || t == T_OP_EXECUTE_REGION ||
               t == T_OP_FIFO || t == T_OP_SYNC || t == T_OP_SECTION || t == T_OP_MTGET || t == T_OP_SYNCALL ||
               t == T_OP_CAST || t == T_OP_DEBUG || t == T_OP_LOCAL || t == T_OP_CMO || t == T_OP_COMM;
    }
    if (t == '}')
        return p->depth < p->top_depth;
    return bol && (t == T_FUNC || t == T_MODULE || t == T_GFUNC || t == T_GMODULE || (t == T_HASH && p->depth == 0));
}

/* ---- the type memo ------------------------------------------------------------
 * Real input writes the same long tile types over and over (PTOAS spells every
 * use in the keyword form): a `!name<...>` whose text parsed cleanly once is,
 * when the same bytes come again, read as one TYPE_MEMO token carrying the
 * type, skipping ~40 tokens and the type builder. Only single-line texts of
 * plain items qualify (no comments, strings, nested '<'), so the bytes lex the
 * same anywhere and a hit is exactly what parsing them would give. */

#define MEMO_MAX_LEN 1024 /* longer texts are not memoized (bounds the search for '>') */

static uint32_t memo_hash(const unsigned char *text, size_t len)
{
    /* eight bytes at a time */
    size_t i = 0;
    uint64_t h = len * 0x9e3779b97f4a7c15u, w;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, text + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    w = 0;
    memcpy(&w, text + i, len - i);
    h = (h ^ w) * 0xff51afd7ed558ccdu;
    return (uint32_t)(h ^ h >> 29);
}

static TypeMemo *memo_slot(const Parser *p, const unsigned char *text, uint32_t len, uint32_t hash)
{
    size_t mask = p->memo_cap - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        TypeMemo *m = &p->memo[i];
        if (!m->text || (m->hash == hash && m->len == len && memcmp(m->text, text, len) == 0))
            return m;
    }
}

/* Memoizes a type whose text is `!name<plain body>` with no byte between the
 * name and '<': bodies of [A-Za-z0-9_ ,=?!.$-] only, so the text's one '>' is
 * its last byte and a lookup can stop at the first '>'. */
static void memo_add(Parser *p, Span whole, const Type *t)
{
    static const uint64_t plain[4] = {0xa3ff701300000000u, 0x07fffffe87fffffeu, 0, 0}; /* bit set */
    const unsigned char *bang = p->lx.start + (whole.begin - p->lx.base);
    const unsigned char *q = bang + 1;
    while (((*q | 0x20) >= 'a' && (*q | 0x20) <= 'z') || (*q >= '0' && *q <= '9') || *q == '_' || *q == '$' ||
           *q == '.')
        q++;
    if (*q++ != '<')
        return;
    while (plain[*q >> 6] >> (*q & 63) & 1)
        q++;
    uint32_t len = (uint32_t)(q + 1 - bang);
    if (*q != '>' || len != whole.end - whole.begin || len > MEMO_MAX_LEN)
        return;
    uint32_t hash = memo_hash(bang, len);
    if ((p->memo_used + 1) * 2 > p->memo_cap) {
        size_t cap = p->memo_cap ? p->memo_cap * 2 : 256;
        TypeMemo *old = p->memo;
        size_t oldcap = p->memo_cap;
        p->memo = xcalloc(cap, sizeof *p->memo);
        p->memo_cap = cap;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].text)
                *memo_slot(p, old[i].text, old[i].len, old[i].hash) = old[i];
        free(old);
    }
    TypeMemo *m = memo_slot(p, bang, len, hash);
    if (!m->text) {
        *m = (TypeMemo){bang, len, hash, t};
        p->memo_used++;
    }
}

/* After a '!name' token: the memoized type its text spells, if any (the
 * lexer then moves past it and *loc covers it). Never inside a type body
 * (open there, or right after its '<'), where '!x<' is a syntax error to
 * report at the '<'. */
static const Type *memo_find(Parser *p, Span *loc)
{
    if (!p->memo_used || p->open_type.end > p->open_type.begin || p->prev_tok == '<')
        return NULL;
    const unsigned char *name_end = p->lx.cur;
    const unsigned char *bang = name_end - (loc->end - loc->begin);
    size_t room = (size_t)(p->lx.lim - bang);
    const unsigned char *gt = *name_end == '<' ? memchr(bang, '>', room < MEMO_MAX_LEN ? room : MEMO_MAX_LEN) : NULL;
    if (!gt)
        return NULL;
    uint32_t len = (uint32_t)(gt + 1 - bang);
    TypeMemo *m = memo_slot(p, bang, len, memo_hash(bang, len));
    if (!m->text)
        return NULL;
    p->lx.cur = gt + 1;
    loc->end = loc->begin + m->len;
    return m->type;
}

static int yylex(YYSTYPE *lval, Span *loc, Parser *p)
{
    for (;;) {
        int t = lex_next(&p->lx, loc);
        if (t == T_IDENT)
            t = classify_ident(p, *loc);
        else if (t == T_STRING)
            t = classify_string(p, *loc);
        else if (t == T_BANG && (lval->type = memo_find(p, loc)) != NULL)
            t = T_TYPE_MEMO;
        else if (t == '{')
            p->lbrace_depth = ++p->depth;
        else if (t == '}')
            p->depth--;
        bool sync = is_sync(p, t, *loc, p->lx.bol);
        p->last_sync = sync;
        /* a dotted word that starts an op's line names an op ptoas lacks: its own
         * token, so that no rule takes it for a keyword of the line before
         * (`to` after arith's types) */
        if (sync && t == T_IDENT)
            t = T_UNKNOWN_OP;
        if (p->recovering) {
            if (!sync)
                continue;
            if (t == T_UNKNOWN_OP) { /* an unknown op after an error: report it, skip its line */
                pb_unknown_op(p, *loc, false);
                continue;
            }
            p->recovering = false;
        }
        /* `pad_mode = PadValue`: a bare word that names no type (yylex's caller reports it
         * by the clause's word, as MLIR's attribute and operand parsers do) */
        if (t == T_IDENT && p->prev_tok == '=' && p->prev_tok2 == T_CLAUSE && p->in_body &&
            p->depth == p->body_depth && p->open_type.end == p->open_type.begin &&
            dtype_lookup(p->src->text + loc->begin, loc->end - loc->begin) == DT_NONE)
            t = T_CLAUSE_WORD;
        p->prev_tok2 = p->prev_tok;
        p->prev_tok = t;
        return t;
    }
}

static void yyerror(const Span *loc, Parser *p, const char *msg)
{
    /* Only reached for Bison's own failures: stack exhaustion on deep nesting. */
    if (strcmp(msg, "memory exhausted") == 0)
        diag_error(p->diag, *loc, "input is nested too deeply");
    else
        diag_error(p->diag, *loc, "%s", msg);
    p->aborted = true;
}

/* What a group of expected tokens is called in "expected X, but got 'Y'". */
static const char *describe(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_YYEOF: return "end of file";
    case YYSYMBOL_ARROW: return "'->'";
    case YYSYMBOL_IDENT: return "an identifier";
    case YYSYMBOL_SSA: return "an SSA value";
    case YYSYMBOL_SYMBOL: return "a symbol name";
    case YYSYMBOL_BANG: case YYSYMBOL_TYPE_MEMO: return "a type";
    case YYSYMBOL_HASH: return "an attribute";
    case YYSYMBOL_HEX: case YYSYMBOL_INT: return "an integer";
    case YYSYMBOL_DIMS: return "a shape";
    case YYSYMBOL_SHAPED: return "a shape";
    case YYSYMBOL_FLOAT: return "a float";
    case YYSYMBOL_STRING: return "a string";
    case YYSYMBOL_OP_COMPUTE: case YYSYMBOL_OP_ALLOC: case YYSYMBOL_OP_TASSIGN:
    case YYSYMBOL_OP_VIEW: case YYSYMBOL_OP_TILEVIEW: case YYSYMBOL_OP_CONSTANT: case YYSYMBOL_OP_RETURN:
    case YYSYMBOL_OP_FOR: case YYSYMBOL_OP_IF:
    case YYSYMBOL_OP_ARITH: case YYSYMBOL_OP_CALL: case YYSYMBOL_OP_LOAD_SCALAR: case YYSYMBOL_OP_STORE_SCALAR:
    case YYSYMBOL_OP_WHILE: case YYSYMBOL_OP_CONDITION: case YYSYMBOL_OP_EXECUTE_REGION:
    case YYSYMBOL_OP_FIFO: case YYSYMBOL_OP_SYNC: case YYSYMBOL_OP_SECTION: case YYSYMBOL_OP_MTGET:
    case YYSYMBOL_OP_SYNCALL:
    case YYSYMBOL_OP_CAST: case YYSYMBOL_OP_DEBUG: case YYSYMBOL_OP_LOCAL: case YYSYMBOL_OP_CMO: case YYSYMBOL_OP_COMM:
        return "an operation";
    default: return yysymbol_name(k);
    }
}

/* A keyword or op name: a token that any_ident also accepts. */
static bool is_keyword(yysymbol_kind_t k)
{
    switch (k) {
    case YYSYMBOL_INS: case YYSYMBOL_OUTS: case YYSYMBOL_MODULE: case YYSYMBOL_FUNC:
    case YYSYMBOL_ATTRIBUTES: case YYSYMBOL_PRIVATE: case YYSYMBOL_PUBLIC: case YYSYMBOL_ARRAY:
    case YYSYMBOL_OP_COMPUTE: case YYSYMBOL_OP_ALLOC: case YYSYMBOL_OP_TASSIGN:
    case YYSYMBOL_OP_VIEW: case YYSYMBOL_OP_TILEVIEW: case YYSYMBOL_OP_CONSTANT: case YYSYMBOL_OP_RETURN:
    case YYSYMBOL_OP_FOR: case YYSYMBOL_OP_IF: case YYSYMBOL_ELSE:
    case YYSYMBOL_OP_ARITH: case YYSYMBOL_OP_CALL: case YYSYMBOL_OP_LOAD_SCALAR: case YYSYMBOL_OP_STORE_SCALAR:
    case YYSYMBOL_CLAUSE:
    case YYSYMBOL_OP_WHILE: case YYSYMBOL_OP_CONDITION: case YYSYMBOL_OP_EXECUTE_REGION:
    case YYSYMBOL_OP_FIFO: case YYSYMBOL_OP_SYNC: case YYSYMBOL_OP_SECTION: case YYSYMBOL_OP_MTGET:
    case YYSYMBOL_OP_SYNCALL:
    case YYSYMBOL_OP_CAST: case YYSYMBOL_OP_DEBUG: case YYSYMBOL_OP_LOCAL: case YYSYMBOL_OP_CMO: case YYSYMBOL_OP_COMM:
        return true;
    default:
        return false;
    }
}

/* Is k the single-character token c? */
static bool is_char(yysymbol_kind_t k, char c)
{
    const char *n = yysymbol_name(k);
    return n[0] == '\'' && n[1] == c && n[2] == '\'' && n[3] == 0;
}

static bool has_char(const yysymbol_kind_t *v, int n, char c)
{
    for (int i = 0; i < n; i++)
        if (is_char(v[i], c))
            return true;
    return false;
}

static bool has(const yysymbol_kind_t *v, int n, yysymbol_kind_t k)
{
    for (int i = 0; i < n; i++)
        if (v[i] == k)
            return true;
    return false;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, Parser *p)
{
    yysymbol_kind_t la = yypcontext_token(ctx);
    Span loc = *yypcontext_location(ctx);
    if (!p->last_sync || la == YYSYMBOL_IDENT || la == YYSYMBOL_CLAUSE || la == YYSYMBOL_UNKNOWN_OP) /* never resume at an identifier */
        p->recovering = true;
    if (la == YYSYMBOL_ERROR) /* the lexer has reported it */
        return 0;
    if (la == YYSYMBOL_TYPE_MEMO) /* as if not memoized: the error is at the '!name' */
        loc.end = loc.begin + (uint32_t)((const char *)memchr(p->src->text + loc.begin, '<', loc.end - loc.begin) -
                                         (p->src->text + loc.begin));

    const char *tok = p->src->text + loc.begin;
    int toklen = (int)(loc.end - loc.begin);
    yysymbol_kind_t exp[64];
    int n = yypcontext_expected_tokens(ctx, exp, 64);
    if (n < 0)
        n = 0;

    if ((la == YYSYMBOL_IDENT || la == YYSYMBOL_CLAUSE || la == YYSYMBOL_UNKNOWN_OP) && has(exp, n, YYSYMBOL_OP_COMPUTE)) {
        /* after `%r =` (the token before this one): the results are this op's */
        pb_unknown_op(p, loc, p->prev_tok2 == '=');
        return 0;
    }

    char want[256];
    size_t used = 0;
    want[0] = 0;
    if (p->open_type.end > p->open_type.begin && has_char(exp, n, '>')) {
        Span t = p->open_type;
        snprintf(want, sizeof want, "'>' to close '%.*s<'", (int)(t.end - t.begin), p->src->text + t.begin);
    } else {
        /* Name groups rather than token lists: "an operation", "a type", "an attribute value". */
        bool value = has(exp, n, YYSYMBOL_HASH) && has(exp, n, YYSYMBOL_INT);
        bool in_type = p->open_type.end > p->open_type.begin;
        bool type = has(exp, n, YYSYMBOL_BANG);
        /* Keywords and op names are identifiers too: where any identifier fits, say so once. */
        bool ident = has(exp, n, YYSYMBOL_IDENT);
        const char *names[64];
        int nn = 0;
        if (value)
            names[nn++] = "an attribute value";
        for (int i = 0; i < n; i++) {
            yysymbol_kind_t k = exp[i];
            if (value && !is_char(k, ']') && !is_char(k, ',') && !is_char(k, '}') && !is_char(k, ':'))
                continue;
            if (type && !in_type && k == YYSYMBOL_IDENT)
                continue;
            if (ident && is_keyword(k))
                continue;
            if (k == YYSYMBOL_GFUNC || k == YYSYMBOL_GMODULE)
                continue; /* the generic spellings go unmentioned, as in MLIR */
            if (k == YYSYMBOL_UNKNOWN_OP)
                continue; /* where an unknown op fits, "an operation" is said already */
            if (k == YYSYMBOL_CLAUSE)
                continue; /* tload's clauses: where they fit, so does the next op (MLIR names neither) */
            /* and so do trailing locations and, among top-level items, location aliases */
            if ((k == YYSYMBOL_LOC && n > 1) || (k == YYSYMBOL_HASH && has(exp, n, YYSYMBOL_FUNC)))
                continue;
            const char *d = describe(k);
            bool dup = false;
            for (int j = 0; j < nn; j++)
                dup |= strcmp(names[j], d) == 0;
            if (!dup)
                names[nn++] = d;
        }
        for (int i = 0; i < nn && used < sizeof want; i++)
            used += (size_t)snprintf(want + used, sizeof want - used, "%s%s",
                                     i == 0 ? "" : i == nn - 1 ? " or " : ", ", names[i]);
    }
    if (la == YYSYMBOL_YYEOF)
        diag_error(p->diag, loc, "unexpected end of file, expected %s", want);
    else if (toklen > 40)
        diag_error(p->diag, loc, "expected %s, but got '%.*s...'", want, 37, tok);
    else
        diag_error(p->diag, loc, "expected %s, but got '%.*s'", want, toklen, tok);
    return 0;
}

int pto_parse(Parser *p)
{
    return yyparse(p);
}
