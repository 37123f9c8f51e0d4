/* emit_int.h - codegen's private interface: the state emit_c.c, emit_ops.c and emit_flow.c
 * share (the Emit struct with its buffers, descriptors and harness entries) and the helpers
 * one of them defines for the others. Only codegen/ includes it; the public interface is
 * emit_c.h.
 *
 * emit_c.c     the driver and the harness metadata: C identifiers and string literals,
 *              emit_c, emit_pick_func, one C function per func.func (parameters, results,
 *              the ptort_kernel tables, main()), the called functions' prototypes
 * emit_ops.c   one op at a time: tiles and descriptors, views, alloc_tile, tassign, the
 *              compute ops, scalar ops and constants (emit_op)
 * emit_flow.c  control flow: scf.for/if/while/execute_region, blocks (emit_block), func.call
 *              and what a called function does to its arguments, func.return */
#ifndef PTOAS_EMIT_INT_H
#define PTOAS_EMIT_INT_H
#include <stdbool.h>
#include <stdint.h>
#include "config.h"
#include "emit_c.h"
#include "ir.h"
#include "pipe.h"


/* A set of the C identifiers used at one scope; a new name gets a _2, _3, ...
 * suffix until it is unique. */
typedef StrSet CNames; /* its strings are malloc'ed and owned by it */

/* ---- per-function state ---------------------------------------------------- */

/* A tile buffer: a tile argument or a pto.alloc_tile result. */
typedef struct Buf {
    ValueId val;           /* the defining value */
    int arg;               /* argument index, -1 for alloc_tile */
    const TileBody *tb;
    bool has_addr;
    int64_t addr;
    int desc;              /* descriptor of the current binding, -1 until made */
    int first_desc;        /* descriptor at the first use (where an --in array goes) */
    const char *vr, *vc;   /* C expressions of dynamic valid sizes, NULL when static */
    ValueId vr_val, vc_val; /* the values behind vr and vc (NO_VALUE when static) */
    bool written, reported;
    const Op *last_writer; /* NULL if none */
    int origin;            /* argument whose data it holds (itself, or copied by tmov), -1 */
    int approx;            /* argument whose tquant -> tdequant round trip it holds, -1 */
    ValueId approx_val;    /* the name the tdequant wrote it under */
    const char *view;      /* a tile view: the local descriptor made at its op, else NULL */
    const char *mut;       /* rebound inside a region or at a computed address: the local
                              descriptor every use reads and every tassign rewrites, else NULL */
    int parent;            /* a tile view: the buffer whose bytes it shares, else -1 */
} Buf;

/* A tile descriptor constant: one binding of one buffer. */
typedef struct Desc {
    const char *name;      /* static const ptort_tile */
    const char *local;     /* dynamic valid shape: the local copy, else NULL */
    bool in_frame;         /* its bytes are in the function's frame (not a called function's
                              argument, which is the caller's) */
} Desc;

typedef struct Entry {
    ValueId val;
    int kind;              /* 0 tile, 1 ptr, 2 scalar */
    int arg;
    DType dtype;
    const char *stype;     /* scalar: its type's name ("i32", "index", "f16", ...) */
    int in, out;           /* descriptor indices, -1 */
    unsigned flags;
    int approximates;
    Span where;
} Entry;

typedef struct Emit {
    Module *m;
    SourceFile *src;
    DiagEngine *d;
    const PassConfig *cfg;
    CNames global;
    StrBuf decls, code;    /* the whole file: descriptor constants; functions */
    bool any_calls;        /* ptoas_fail is needed */
    bool any_step;         /* ptoas_bad_step is needed */
    bool any_fbits;        /* ptoas_f32_bits is needed */
    bool errors;

    /* the function being emitted */
    const Func *f;
    StrBuf body;
    StrBuf hoist;          /* declarations at the top of the function (loop-invariant caches) */
    CNames local;
    int *buf_of;           /* value -> buffer, -1 */
    Buf *bufs;
    uint32_t nbufs;
    Desc *descs;
    uint32_t ndescs, descs_cap;
    const char **cexpr;    /* value -> C expression (scalars, views, pointer base) */
    const char **csize;    /* ptr value -> C expression of its byte size */
    int *ptr_arg;          /* view value -> the ptr argument it reads, -1 */
    uint32_t *uses;        /* value -> number of uses */
    bool *returned;        /* value -> an operand of the function's return */
    bool *rebound;         /* value -> a tassign inside a region, or at a computed address, binds it */
    int *quant_origin;     /* op (by Op.index) -> argument the tquant quantized, -1 */
    bool calls;
    bool f_called;         /* some func.call of the module calls it: descriptor parameters */
    const char *base;      /* f_called: the parameter holding its frame's base address per loc */
    const char *frame_fn;  /* it calls: the function computing its frame's end (declared) */
    const char *frame;     /* it calls: the local array its callees' base goes into */
    const Op *first_call;  /* its first func.call, NULL if none */
    const Op *computed_at; /* a pto.tassign at a computed address, NULL if none */
    int *rebind_desc;      /* constant rebindings of mutable descriptors: a descriptor of the */
    int64_t *rebind_addr;  /* buffer and the address (the frame covers them) */
    uint32_t nrebind;
    const char **ret_out;  /* its scalar results: the out-parameter of each (NULL for a tile) */
    Entry *entries;
    uint32_t nentries;
    const char *tag;
    bool race;             /* its ops report to the race checker (docs/launch.md 5) */
    const Op *race_op;     /* the op whose accesses were reported last */

    /* the module */
    const ModuleOp *mod;   /* the module op of the function being emitted */
    const Func *main_f;    /* the function main() runs (NULL if none) */
    bool need_main;
    const Func **called;   /* every function some func.call names */
    uint32_t ncalled;
    FuncIndex funcs;       /* the file's functions by name */
    int32_t *called_at;    /* by FuncSlot.all: the index in called, or -1 */
    StrBuf protos;         /* their prototypes (a call may come before the definition) */
    uint8_t **eff;         /* per called function, per argument: EFF_READ, EFF_WRITE */

    /* == PIPE == a launch (docs/launch.md): the cube function [0] and the vector function [1],
     * the launch's arguments (theirs by name, less the SPMD ones) and each function's map */
    const Func *launch_f[2];
    struct LaunchArg *largs;
    uint32_t nlargs;
    int *lmap[2];
    bool launch_syncall;
} Emit;

/* One argument of a launch: the functions' arguments of this name. */
typedef struct LaunchArg {
    Str name;
    int kind;              /* Entry.kind: 1 ptr, 2 scalar */
    DType dtype;
    const char *stype;
    const Type *type;
    unsigned flags;
    Span where;
} LaunchArg;

static inline const Value *val(Emit *e, ValueId v) { return &e->f->values[v]; }

static inline const char *rt_dtype(DType d) { return dtype_rt_name(d); }

/* What holds elements of a dtype: 64-bit integers are host data, read and written by
 * pto.load_scalar / pto.store_scalar through pointers and views, but no tile holds them. */
typedef enum { HOLD_TILE, HOLD_VIEW, HOLD_PTR } Holder;

/* The constant integer value of v (addresses), false if it is not one. */
static inline bool const_int(Emit *e, ValueId v, int64_t *out)
{
    return ir_const_int(e->f, v, out);
}

/* Operand of role r (NO_VALUE when absent); Level 2 form. */
static inline ValueId role_val(const Op *op, int r)
{
    uint32_t first;
    if (r < 0 || ir_role_operands(op, r, &first) == 0)
        return NO_VALUE;
    return op->opnds[first];
}

static inline ValueId role(const Op *op, RoleId r) { return role_val(op, op_role(op->kind, r)); }


/* ---- emit_c.c ---------------------------------------------------------------------- */

const char *emit_unique_name(CNames *ns, const char *prefix, const char *name, size_t len);
void emit_func_tag(StrBuf *b, Str name);
/* A printf into the module's arena. */
const char *emit_arena_str(Emit *e, const char *fmt, ...) DIAG_PRINTF(2, 3);
/* The C string literal "FILE:LINE:COL" of s. */
void emit_where(Emit *e, StrBuf *b, Span s);
/* Reports an error at AT (nothing is written then); false. */
bool emit_fail(Emit *e, Span at, const char *fmt, ...) DIAG_PRINTF(3, 4);

/* ---- emit_ops.c -------------------------------------------------------------------- */

bool emit_runtime_dtype(Emit *e, Span at, DType d, Holder h);
bool emit_runtime_boxes(Emit *e, Span at, const TileBody *t);
bool emit_cur_desc(Emit *e, int bi, const Op *op, int *out);
void emit_make_mutable(Emit *e, int bi);
const char *emit_use_tile(Emit *e, ValueId v, const Op *op);
const char *emit_scalar(Emit *e, ValueId v, const Op *op);
const char *emit_type_desc(Emit *e, const TileBody *t, const Value *v);
unsigned emit_int_bits(const Type *t);
const char *emit_float_rt(const Type *t);
const char *emit_scalar_local(Emit *e, ValueId r, const char *ctype);
const char *emit_c_scalar_type(const Type *t);
bool emit_c_scalar_ok(const Type *t);
/* One op that is not control flow (emit_block's loop). */
void emit_op(Emit *e, const Op *op);
/* A runtime call's comment and `st = ` (begin), its status check (end); an op's outs
 * buffers as written (for the op files of the parallel lines of work). */
void emit_begin_call(Emit *e, const Op *op);
void emit_end_call(Emit *e, const Op *op);
void emit_mark_written(Emit *e, const Op *op);
/* A C string literal of the n bytes at s, every byte outside printable ASCII, '"', '\\' and
 * '?' escaped (emit_c.c): how text from the input reaches generated C. */
void emit_c_string(StrBuf *b, const char *s, size_t n);
/* Issue 24's scalar line of work (emit_scal.c): element access, pointers, queries. */
void emit_scalar_line(Emit *e, const Op *op);

/* ---- emit_flow.c ------------------------------------------------------------------- */

Str emit_callee_name(const Op *op);
const FuncSlot *emit_callee_slot(const Emit *e, const ModuleOp *mod, Str name);
int emit_called_at(const Emit *e, const FuncSlot *s);
int emit_called_index(const Emit *e, const ModuleOp *mod, const Func *f);
void emit_return(Emit *e, const Op *op);
void emit_call(Emit *e, const Op *op);
/* Emits block b's ops; returns its scf.yield (NULL if it has none). */
const Op *emit_block(Emit *e, const Block *b);
void emit_call_effects(Emit *e);

#endif
