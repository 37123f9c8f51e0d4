/* emit_c.c - codegen: Level 2 IR in which every tile buffer has an address ->
 * C source calling the runtime (runtime/ptort.h), for --emit=c, --emit=exe
 * and `ptoas run`. docs/codegen.md shows the generated code.
 *
 * One pass over each function in op order (there is no control flow): tile
 * buffers (arguments, pto.alloc_tile results) are tracked with the address
 * they are bound to at that point (addr =, pto.tassign rebinding), and each
 * (buffer, address) binding that is used becomes one `static const ptort_tile`
 * constant. Index values are C expressions: literals for arith.constant,
 * parameters for scalar arguments. Each runtime call is followed by a status
 * check that reports the op's source location. Problems are reported at the
 * op and nothing is written. */
#include <inttypes.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <stdarg.h>
#include "arith.h"
#include "emit_c.h"
#include "pass.h"
#include "ptort.h"
#include "regions.h"

/* ---- identifiers ------------------------------------------------------------ */

/* A set of the C identifiers used at one scope; a new name gets a _2, _3, ...
 * suffix until it is unique. */
typedef StrSet CNames; /* its strings are malloc'ed and owned by it */

static bool cnames_has(const CNames *ns, const char *s) { return strset_has(ns, s, strlen(s)); }

/* Takes s (malloc'ed); a name already there is freed. */
static void cnames_add(CNames *ns, char *s)
{
    if (!strset_add(ns, s, strlen(s)))
        free(s);
}

static void cnames_free(CNames *ns)
{
    for (size_t i = 0; i < ns->cap; i++)
        free((char *)ns->slots[i].p);
    strset_free(ns);
}

/* prefix + name with every byte outside [A-Za-z0-9_] replaced by '_', made
 * unique in ns. The result is owned by ns. */
static const char *unique_name(CNames *ns, const char *prefix, const char *name, size_t len)
{
    StrBuf b = {0};
    sb_puts(&b, prefix);
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        sb_putc(&b, ok ? c : '_');
    }
    sb_putc(&b, '\0');
    size_t base = b.len - 1;
    for (unsigned k = 2; cnames_has(ns, b.p); k++) {
        b.len = base;
        sb_printf(&b, "_%u", k);
        sb_putc(&b, '\0');
    }
    cnames_add(ns, b.p);
    return b.p;
}

/* The tag that makes a function's C names: "_NAME" when NAME is a plain C
 * identifier body, else "x_" + NAME with '_' written "__" and every other
 * byte outside [A-Za-z0-9] as "_XX" (hex). Distinct names give distinct tags. */
static void func_tag(StrBuf *b, Str name)
{
    bool plain = true;
    for (uint32_t i = 0; i < name.len; i++) {
        char c = name.p[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            plain = false;
    }
    if (plain) {
        sb_putc(b, '_');
        sb_putn(b, name.p, name.len);
        return;
    }
    sb_puts(b, "x_");
    for (uint32_t i = 0; i < name.len; i++) {
        unsigned char c = (unsigned char)name.p[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
            sb_putc(b, (char)c);
        else if (c == '_')
            sb_puts(b, "__");
        else
            sb_printf(b, "_%02X", c);
    }
}

/* A C string literal of n bytes. In a comment (in_comment), '*' and '/' are
 * escaped too, so that no byte sequence of s can end the comment. */
static void put_c_string_in(StrBuf *b, const char *s, size_t n, bool in_comment)
{
    sb_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            sb_printf(b, "\\%c", c);
        else if (c < 0x20 || c >= 0x7F || c == '?' || (in_comment && (c == '*' || c == '/'))) /* '?': no trigraphs */
            sb_printf(b, "\\%03o", c);
        else
            sb_putc(b, (char)c);
    }
    sb_putc(b, '"');
}

static void put_c_string(StrBuf *b, const char *s, size_t n)
{
    put_c_string_in(b, s, n, false);
}

/* Text from the input inside a C comment: as written when it is printable ASCII without '*',
 * '/', '\\' and '?', else as an escaped string (a generic sym_name may hold any text, the end
 * of a comment included). */
static void put_comment_text(StrBuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7F || c == '*' || c == '/' || c == '\\' || c == '?') {
            put_c_string_in(b, s, n, true);
            return;
        }
    }
    sb_putn(b, s, n);
}

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
} Emit;

static const char *arena_str(Emit *e, const char *fmt, ...) DIAG_PRINTF(2, 3);
static const char *arena_str(Emit *e, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    DIAG_ASSERT(n >= 0);
    char *p = arena_alloc(&e->m->arena, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

static void where(Emit *e, StrBuf *b, Span s)
{
    uint32_t line, col;
    source_line_col(e->src, s.begin, &line, &col);
    char buf[64];
    snprintf(buf, sizeof buf, ":%u:%u", line + 1, col + 1);
    StrBuf t = {0};
    sb_puts(&t, e->src->name);
    sb_puts(&t, buf);
    put_c_string(b, t.p, t.len);
    sb_free(&t);
}

static bool fail(Emit *e, Span at, const char *fmt, ...) DIAG_PRINTF(3, 4);
static bool fail(Emit *e, Span at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(e->d, at, "%s", msg);
    e->errors = true;
    return false;
}

static const Value *val(Emit *e, ValueId v) { return &e->f->values[v]; }

/* ---- enum spellings ---------------------------------------------------------- */

static const char *rt_dtype(DType d) { return dtype_rt_name(d); }

/* What holds elements of a dtype: 64-bit integers are host data, read and written by
 * pto.load_scalar / pto.store_scalar through pointers and views, but no tile holds them. */
typedef enum { HOLD_TILE, HOLD_VIEW, HOLD_PTR } Holder;

/* False (reported at AT) when the runtime has no dtype for D in a holder of kind H: the
 * newer PTOAS element types (hif8, f8E4M3, f64, ...) parse and verify, but nothing can
 * compute them. */
static bool runtime_dtype(Emit *e, Span at, DType d, Holder h)
{
    static const char *const what[] = {"tiles of", "tensor views of", "pointers to"};
    if (rt_dtype(d) && !(h == HOLD_TILE && dtype_bits(d) == 64))
        return true;
    return fail(e, at, "%s %s cannot be executed: the runtime has no arithmetic for this dtype", what[h],
                dtype_name(d));
}

/* False (reported at AT) when a boxed tile argument outside vec does not hold whole inner
 * boxes: PTOAS checks boxes on alloc_tile only, so it verifies, but the runtime addresses
 * mat/left/right/acc/... tiles box by box (docs/verify.md 1). */
static bool runtime_boxes(Emit *e, Span at, const TileBody *t)
{
    if (t->slayout == SL_NONE_BOX || t->loc == LOC_VEC)
        return true;
    int64_t ir, ic;
    tile_inner_box(t, &ir, &ic);
    if ((t->rows % ir == 0 || t->rows == 1 || t->fractal == 32) && t->cols % ic == 0)
        return true;
    return fail(e, at, "a boxed %s tile of %lldx%lld cannot be executed: the runtime needs whole %lldx%lld boxes",
                enum_info[EK_LOC].names[t->loc], (long long)t->rows, (long long)t->cols, (long long)ir,
                (long long)ic);
}

static const char *const rt_loc[LOC_COUNT] = {
    "PTORT_VEC", "PTORT_MAT", "PTORT_LEFT", "PTORT_RIGHT", "PTORT_ACC", "PTORT_BIAS", "PTORT_SCALING",
};

/* ---- tiles -------------------------------------------------------------------- */

static int new_desc(Emit *e, Buf *b)
{
    const Value *v = val(e, b->val);
    xgrow32((void **)&e->descs, &e->descs_cap, e->ndescs + 1, sizeof *e->descs);
    Desc *d = &e->descs[e->ndescs];
    d->name = unique_name(&e->global, e->tag, v->name.p, v->name.len);
    d->local = NULL;
    d->in_frame = !(e->f_called && b->arg >= 0);
    const TileBody *t = b->tb;
    sb_printf(&e->decls,
              "static const ptort_tile %s = {.loc = %s, .dtype = %s, .rows = %lld, .cols = %lld, "
              ".valid_rows = %lld, .valid_cols = %lld, .blayout = %s, .slayout = %s, .fractal = %d, "
              ".pad = %d, .compact = %d, .addr = %lld};\n",
              d->name, rt_loc[t->loc], rt_dtype(t->dtype) ? rt_dtype(t->dtype) : "PTORT_NUM_DTYPES" /* reported */,
              (long long)t->rows, (long long)t->cols,
              (long long)(t->vrow == DIM_DYNAMIC ? -1 : t->vrow), (long long)(t->vcol == DIM_DYNAMIC ? -1 : t->vcol),
              t->blayout == BL_COL_MAJOR ? "PTORT_BL_COL_MAJOR" : "PTORT_BL_ROW_MAJOR",
              t->slayout == SL_ROW_MAJOR   ? "PTORT_SL_ROW_MAJOR"
              : t->slayout == SL_COL_MAJOR ? "PTORT_SL_COL_MAJOR"
                                           : "PTORT_SL_NONE_BOX",
              (int)t->fractal, (int)t->pad, (int)t->compact, (long long)b->addr);
    return (int)e->ndescs++;
}

/* The descriptor of buffer b's current binding, made when first needed; false
 * (reported at op) when it has no address. */
static bool cur_desc(Emit *e, int bi, const Op *op, int *out)
{
    Buf *b = &e->bufs[bi];
    if (!b->has_addr) {
        if (!b->reported) {
            const Value *v = val(e, b->val);
            fail(e, op->name_span, "codegen requires an address for '%%%.*s' (run with --pto-level=level2 or give addr)",
                 (int)v->name.len, v->name.p);
            diag_note(e->d, v->def, "'%%%.*s' defined here", (int)v->name.len, v->name.p);
            b->reported = true;
        }
        return false;
    }
    if (b->desc < 0)
        b->desc = new_desc(e, b);
    if (b->first_desc < 0)
        b->first_desc = b->desc;
    *out = b->desc;
    return true;
}

/* Buffer bi's mutable local descriptor, declared where the buffer is made (its binding
 * dominates every use, in loops and branches too) from its static descriptor. */
static void make_mutable(Emit *e, int bi)
{
    Buf *b = &e->bufs[bi];
    int di = b->desc >= 0 ? b->desc : (b->desc = new_desc(e, b));
    if (b->first_desc < 0)
        b->first_desc = di;
    const Value *x = val(e, b->val);
    b->mut = unique_name(&e->local, "m_", x->name.p, x->name.len);
    sb_printf(&e->body, "    ptort_tile %s = %s;\n", b->mut, e->descs[di].name);
}

/* The C expression of a pointer to tile value v's descriptor, for a call in
 * op; NULL (reported) when it has none. */
static const char *use_tile(Emit *e, ValueId v, const Op *op)
{
    int bi = e->buf_of[v];
    if (bi < 0) {
        const Value *x = val(e, v);
        fail(e, op->name_span, "codegen expects '%%%.*s' to be a tile buffer", (int)x->name.len, x->name.p);
        return NULL;
    }
    if (e->bufs[bi].view)
        return arena_str(e, "&%s", e->bufs[bi].view);
    if (e->bufs[bi].mut)
        return arena_str(e, "&%s", e->bufs[bi].mut);
    int di;
    if (!cur_desc(e, bi, op, &di))
        return NULL;
    Desc *d = &e->descs[di];
    Buf *b = &e->bufs[bi];
    if (!b->vr && !b->vc)
        return arena_str(e, "&%s", d->name);
    if (!d->local) {
        const Value *x = val(e, b->val);
        d->local = unique_name(&e->local, "t_", x->name.p, x->name.len);
        sb_printf(&e->body, "    ptort_tile %s = %s;\n", d->local, d->name);
        if (b->vr)
            sb_printf(&e->body, "    %s.valid_rows = %s;\n", d->local, b->vr);
        if (b->vc)
            sb_printf(&e->body, "    %s.valid_cols = %s;\n", d->local, b->vc);
    }
    return arena_str(e, "&%s", d->local);
}

/* ---- scalars ---------------------------------------------------------------------- */

/* The C expression of a scalar value: a literal for arith.constant, a parameter
 * for an argument, a local for a scalar op's result. */
static const char *scalar(Emit *e, ValueId v, const Op *op)
{
    if (e->cexpr[v] && val(e, v)->type && val(e, v)->type->kind == TY_SCALAR)
        return e->cexpr[v];
    const Value *x = val(e, v);
    fail(e, op->name_span, "codegen expects '%%%.*s' to be a scalar it computes (a constant, an argument or a scalar op's result)",
         (int)x->name.len, x->name.p);
    return NULL;
}

/* The constant integer value of v (addresses), false if it is not one. */
static bool const_int(Emit *e, ValueId v, int64_t *out)
{
    return ir_const_int(e->f, v, out);
}

/* ---- ops ----------------------------------------------------------------------- */

/* Operand of role r (NO_VALUE when absent); Level 2 form. */
static ValueId role_val(const Op *op, int r)
{
    uint32_t first;
    if (r < 0 || ir_role_operands(op, r, &first) == 0)
        return NO_VALUE;
    return op->opnds[first];
}

static ValueId role(const Op *op, RoleId r) { return role_val(op, op_role(op->kind, r)); }

static void begin_call(Emit *e, const Op *op)
{
    uint32_t line, col;
    source_line_col(e->src, op->name_span.begin, &line, &col);
    sb_printf(&e->body, "    /* %u:%u %s */\n", line + 1, col + 1, op_info(op->kind)->name);
    sb_puts(&e->body, "    st = ");
    e->calls = true;
}

static void end_call(Emit *e, const Op *op)
{
    sb_puts(&e->body, ";\n    if (st != PTORT_OK)\n        return ptoas_fail(ctx, st, ");
    where(e, &e->body, op->name_span);
    sb_puts(&e->body, ");\n");
}

/* Marks the outs buffers of a Level 2 op as written by it. */
static void mark_written(Emit *e, const Op *op)
{
    const OpInfo *in = op_info(op->kind);
    uint32_t at = 0;
    for (int r = 0; r < in->nroles; r++) {
        bool out = (in->flags[r] & ROLE_OUT) && !(in->flags[r] & ROLE_TEMP);
        for (uint32_t i = 0; i < op->seg[r]; i++, at++) {
            if (!out)
                continue;
            ValueId v = op->opnds[at];
            int bi = e->buf_of[v];
            for (int b = bi; b >= 0; b = e->bufs[b].parent) { /* a view writes its source's bytes */
                e->bufs[b].written = true;
                e->bufs[b].last_writer = op;
                e->bufs[b].origin = -1;
                e->bufs[b].approx = -1;
            }
            if (bi < 0 && e->ptr_arg[v] >= 0) {
                int pb = e->ptr_arg[v];
                e->entries[pb].flags |= PTORT_KARG_WRITTEN;
            }
        }
    }
}

/* Marks the tile arguments a Level 2 op reads (its ins) before anything wrote them: the
 * harness requires an --in for those (zeros would be an invented input). */
static void mark_read(Emit *e, const Op *op)
{
    const OpInfo *in = op_info(op->kind);
    uint32_t at = 0;
    for (int r = 0; r < in->nins; r++)
        for (uint32_t i = 0; i < op->seg[r]; i++, at++) {
            int bi = e->buf_of[op->opnds[at]];
            bool written = false;
            for (int b = bi; b >= 0; b = e->bufs[b].parent) {
                written |= e->bufs[b].written;
                if (e->bufs[b].parent < 0 && e->bufs[b].arg >= 0 && !written)
                    e->entries[e->bufs[b].arg].flags |= PTORT_KARG_READ;
            }
        }
}

static int enum_attr(const Op *op, const char *key, EnumKind k, int dflt)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    if (a && a->val->kind == AV_ENUM && a->val->u.e.kind == k)
        return a->val->u.e.value;
    return dflt;
}

/* A BoolAttr: true only when written `key = true`. */
static bool bool_attr(const Op *op, const char *key)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    return a && a->val->kind == AV_BOOL && a->val->u.b;
}

/* A view value's local, or NULL (reported). */
static const char *use_view(Emit *e, ValueId v, const Op *op)
{
    const Value *x = val(e, v);
    if (e->cexpr[v] && x->type && (x->type->kind == TY_TENSOR_VIEW || x->type->kind == TY_PART_VIEW))
        return arena_str(e, "&%s", e->cexpr[v]);
    fail(e, op->name_span, "codegen expects '%%%.*s' to be a tensor view made in this function", (int)x->name.len,
         x->name.p);
    return NULL;
}

/* The per-dimension values (shape, strides, offsets or sizes) of a view op from the n
 * operands at opnds, or from the type's dims when none are given, into out; a 1-D view is
 * one row of a 2-D one, dflt0 its first value. Returns the runtime's rank (2 to 5), or 0
 * (reported). */
static int view_dims(Emit *e, const Op *op, const ValueId *opnds, uint32_t n, const Type *t, const char *what,
                     const char *dflt0, const char *out[PTORT_VIEW_MAX_RANK])
{
    uint32_t rank = t->rank;
    if (rank < 1 || rank > PTORT_VIEW_MAX_RANK)
        return fail(e, op->name_span, "codegen supports tensor views of rank 1 to %d, but got rank %u", PTORT_VIEW_MAX_RANK,
                    rank);
    const char **x = out + (rank == 1);
    if (n == rank) {
        for (uint32_t i = 0; i < rank; i++)
            if (!(x[i] = scalar(e, opnds[i], op)))
                return 0;
    } else if (n == 0 && dflt0) {
        for (uint32_t i = 0; i < rank; i++) {
            if (t->dims[i] == DIM_DYNAMIC)
                return fail(e, op->name_span, "codegen needs the %s of '%s' (the type has a dynamic dimension)", what,
                            op_info(op->kind)->name);
            x[i] = arena_str(e, "%lld", (long long)t->dims[i]);
        }
    } else {
        return fail(e, op->name_span, "codegen expects %u %s operands, but got %u", rank, what, n);
    }
    if (rank == 1)
        out[0] = dflt0;
    return rank == 1 ? 2 : (int)rank;
}

/* "(const int64_t[]){a, b, c}" */
static const char *c_array(Emit *e, const char *const *x, int n)
{
    StrBuf b = {0};
    sb_puts(&b, "(const int64_t[]){");
    for (int i = 0; i < n; i++)
        sb_printf(&b, "%s%s", i ? ", " : "", x[i]);
    sb_putc(&b, '}');
    const char *r = arena_str(e, "%.*s", (int)b.len, b.p);
    sb_free(&b);
    return r;
}

static void emit_make_view(Emit *e, const Op *op)
{
    ValueId r = op->res[0], p = op->opnds[0];
    const Type *t = val(e, r)->type;
    if (!e->csize[p]) {
        const Value *x = val(e, p);
        fail(e, op->name_span, "codegen expects '%%%.*s' to be a !pto.ptr argument", (int)x->name.len, x->name.p);
        return;
    }
    if (!runtime_dtype(e, op->name_span, t->dtype, HOLD_VIEW))
        return;
    const char *dt = rt_dtype(t->dtype);
    const char *shape[PTORT_VIEW_MAX_RANK], *strides[PTORT_VIEW_MAX_RANK];
    int rank = view_dims(e, op, op->opnds + 1, op->seg[1], t, "shape", "1", shape);
    if (!rank)
        return;
    if (op->seg[2]) {
        if (!view_dims(e, op, op->opnds + 1 + op->seg[1], op->seg[2], t, "strides", "0", strides))
            return;
    } else { /* row-major and dense */
        strides[rank - 1] = "1";
        for (int k = rank - 2; k >= 0; k--)
            strides[k] = k == rank - 2 ? shape[k + 1] : arena_str(e, "(%s) * (%s)", shape[k + 1], strides[k + 1]);
    }
    const Value *x = val(e, r);
    const char *name = unique_name(&e->local, "v_", x->name.p, x->name.len);
    e->cexpr[r] = name;
    e->ptr_arg[r] = e->ptr_arg[p];
    if (rank == 2)
        sb_printf(&e->body, "    ptort_view %s = ptort_view_make(%s, %s, %s, %s, %s, %s, %s);\n", name, e->cexpr[p],
                  e->csize[p], dt, shape[0], shape[1], strides[0], strides[1]);
    else
        sb_printf(&e->body, "    ptort_view %s = ptort_view_make_nd(%s, %s, %s, %d, %s, %s);\n", name, e->cexpr[p],
                  e->csize[p], dt, rank, c_array(e, shape, rank), c_array(e, strides, rank));
    if (e->uses[r] == 0)
        sb_printf(&e->body, "    (void)%s;\n", name);
}

static void emit_partition(Emit *e, const Op *op)
{
    ValueId r = op->res[0];
    const char *src = use_view(e, op->opnds[0], op);
    if (!src)
        return;
    const Type *t = val(e, r)->type;
    const char *off[PTORT_VIEW_MAX_RANK], *size[PTORT_VIEW_MAX_RANK];
    /* one size per dimension of the source: a partition with a lower-rank result type
     * (sizes [1, 4, 4] -> 4x4) windows the source's dimensions all the same */
    const Type *st = val(e, op->opnds[0])->type;
    int rank = view_dims(e, op, op->opnds + 1, op->seg[1], st, "offsets", NULL, off);
    int srank = rank ? view_dims(e, op, op->opnds + 1 + op->seg[1], op->seg[2], op->seg[2] == st->rank ? st : t,
                                 "sizes", "1", size)
                     : 0;
    if (!srank)
        return;
    if (srank != rank) {
        fail(e, op->name_span, "codegen expects 'pto.partition_view' to keep its view's rank %u, but got rank %u",
             st->rank, t->rank);
        return;
    }
    if (!off[0])
        off[0] = "0";
    const Value *x = val(e, r);
    const char *name = unique_name(&e->local, "v_", x->name.p, x->name.len);
    e->cexpr[r] = name;
    e->ptr_arg[r] = e->ptr_arg[op->opnds[0]];
    sb_printf(&e->body, "    ptort_view %s;\n", name);
    begin_call(e, op);
    if (rank == 2)
        sb_printf(&e->body, "ptort_view_partition(ctx, %s, %s, %s, %s, %s, &%s)", src, off[0], off[1], size[0],
                  size[1], name);
    else
        sb_printf(&e->body, "ptort_view_partition_nd(ctx, %s, %d, %s, %s, &%s)", src, rank, c_array(e, off, rank),
                  c_array(e, size, rank), name);
    end_call(e, op);
}

/* ---- compute ops: one emitter driven by ops.def ----------------------------------
 * A compute op is one call of its row's runtime entry point (rt) with the row's
 * arguments (args): operands by role, attributes through attr_args below, runtime enum
 * constants as spelt. A class may first reject a form the runtime lacks, or pick another entry
 * point (tmov's ZZ form), and keeps its own facts for the run report afterwards. */

/* Runtime enum spellings of an attribute (A_ATTR in ops.def), indexed by its value. */
typedef struct AttrArg {
    const char *key, *alias;   /* alias: another key PTOAS reads (NULL if none) */
    EnumKind kind;             /* EK_COUNT: a BoolAttr, names[0] false, names[1] true */
    int dflt;
    int count;
    const char *const *names;
} AttrArg;

/* The runtime has INT8 entry points for INT8 types and MX ones for MX types; the
 * verifier keeps the two apart, and an unlikely value maps to the op's default. */
static const char *const rt_qt_int8[] = {"PTORT_INT8_SYM", "PTORT_INT8_ASYM", "PTORT_INT8_SYM", "PTORT_INT8_SYM"};
static const char *const rt_qt_mx[] = {"PTORT_MXFP8", "PTORT_MXFP8", "PTORT_MXFP8", "PTORT_MXFP4_E2M1"};
static const char *const rt_alg[] = {"PTORT_SCALE_OCP", "PTORT_SCALE_NV"};
static const char *const rt_axis[] = {"PTORT_AXIS0", "PTORT_AXIS1"}; /* GroupAxis order */
static const char *const rt_phase[] = {"PTORT_ACC_UNSPECIFIED", "PTORT_ACC_PARTIAL", "PTORT_ACC_FINAL"};
static const char *const rt_interleave[] = {"0", "PTORT_MX_INTERLEAVE"};
/* tcvt: PTOAS's RoundMode order; CAST_RINT (the default) is RINT */
static const char *const rt_rmode[] = {"PTORT_RM_NONE", "PTORT_RM_RINT", "PTORT_RM_ROUND", "PTORT_RM_FLOOR",
                                       "PTORT_RM_CEIL", "PTORT_RM_TRUNC", "PTORT_RM_ODD", "PTORT_RM_RINT"};
static const char *const rt_sat[] = {"1", "0"}; /* ON, OFF: the saturate flag */
static const char *const rt_bool[] = {"0", "1"};

static const AttrArg attr_args[RA_COUNT] = {
    [RA_QUANT_TYPE] = {"quant_type", NULL, EK_QUANT_TYPE, QT_INT8_SYM, 4, rt_qt_int8},
    [RA_QUANT_TYPE_MX] = {"quant_type", NULL, EK_QUANT_TYPE, QT_MXFP8, 4, rt_qt_mx},
    [RA_QUANT_SCALE_ALG] = {"quantScaleAlg", NULL, EK_QUANT_SCALE_ALG, QSA_OCP, 2, rt_alg},
    [RA_GRP_AXIS] = {"grpAxis", NULL, EK_MX_GROUP_AXIS, GA_AXIS1, 2, rt_axis},
    [RA_ACC_PHASE] = {"accPhase", NULL, EK_ACC_PHASE, 0, 3, rt_phase},
    [RA_INTERLEAVE] = {"interleave", NULL, EK_COUNT, 0, 2, rt_interleave},
    [RA_RMODE] = {"rmode", NULL, EK_ROUND_MODE, RM_CAST_RINT, 8, rt_rmode},
    [RA_SAT_MODE] = {"sat_mode", "satmode", EK_SAT_MODE, SAT_OFF, 2, rt_sat},
    [RA_DESCENDING] = {"descending", NULL, EK_COUNT, 0, 2, rt_bool},
};

static const char *attr_arg(const Op *op, RtAttr ra)
{
    if ((unsigned)ra >= RA_COUNT || !attr_args[ra].key) {
        DIAG_INTERNAL("ops.def: no runtime spelling for an attribute of '%s'", op_info(op->kind)->name);
        return NULL;
    }
    const AttrArg *a = &attr_args[ra];
    const char *key = a->alias && !ir_attr_find(op->attrs, op->nattrs, a->key) ? a->alias : a->key;
    int v = a->kind == EK_COUNT ? bool_attr(op, key) : enum_attr(op, key, a->kind, a->dflt);
    return a->names[v >= 0 && v < a->count ? v : a->dflt];
}

/* The bits of x in a binary float format with p fraction bits and exponent range
 * [emin, emax], rounded to nearest even (x is exact as a double, so scaling by
 * powers of two and rint are exact). */
static uint32_t float_bits(double x, int p, int emin, int emax)
{
    int ebits = emax == 15 ? 5 : 8;
    uint32_t sign = signbit(x) ? 1u << (p + ebits) : 0;
    uint32_t inf = ((1u << ebits) - 1) << p;
    if (isnan(x))
        return sign | inf | (1u << (p - 1));
    double a = fabs(x);
    if (isinf(a))
        return sign | inf;
    if (a == 0)
        return sign;
    int e;
    double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    int E = e - 1;
    if (E < emin) /* subnormal: a multiple of 2^(emin - p); may round up to the smallest normal */
        return sign | (uint32_t)rint(ldexp(a, p - emin));
    double q = rint(ldexp(m, p + 1)); /* in [2^p, 2^(p+1)] */
    if (q == ldexp(1, p + 1)) {
        q /= 2;
        E++;
    }
    if (E > emax)
        return sign | inf;
    return sign | ((uint32_t)(E - emin + 1) << p) | ((uint32_t)q - (1u << p));
}

static const char *float_rt(const Type *t);

/* The value of the f16/bf16/f32 bit pattern B of type S. */
static double float_value(uint64_t b, DType s)
{
    if (s == DT_F32) {
        uint32_t r = (uint32_t)b;
        float g;
        memcpy(&g, &r, sizeof g);
        return g;
    }
    int p = s == DT_F16 ? 10 : 7, ebits = s == DT_F16 ? 5 : 8, emin = s == DT_F16 ? -14 : -126;
    bool neg = (b >> (p + ebits)) & 1;
    uint32_t field = (uint32_t)(b >> p) & ((1u << ebits) - 1), m = (uint32_t)b & ((1u << p) - 1);
    double v = field == (1u << ebits) - 1 ? (m ? NAN : INFINITY)
               : field ? ldexp(1.0 + ldexp(m, -p), (int)field + emin - 1)
                       : ldexp(m, emin - p);
    return neg ? -v : v;
}

/* X rounded to the float type S (nearest even; beyond the largest finite value: infinity). */
static double round_to(double x, DType s)
{
    if (s == DT_F32)
        return (float)x;
    return float_value(s == DT_F16 ? float_bits(x, 10, -14, 15) : float_bits(x, 7, -126, 127), s);
}

/* The vector ops' scalar (ptort.h): the raw bits of one element of type d holding v -- a
 * float constant's value converted to d at emit time, a float value (f16, bf16, f32) converted
 * at run time, both rounding once to nearest even, or an integer; NULL (reported) otherwise. */
static const char *scalar_bits(Emit *e, ValueId v, DType d, const Op *op)
{
    const Value *x = val(e, v);
    const AttrValue *c = x->def_op && x->def_op->kind == OP_CONSTANT ? x->def_op->constant : NULL;
    bool fdst = d == DT_F32 || d == DT_F16 || d == DT_BF16;
    /* a float scalar of f16, bf16 or f32 (held in a C float, docs/scalars.md 4) */
    bool fsrc = x->type && x->type->kind == TY_SCALAR && float_rt(x->type);
    if (c && c->kind == AV_FLOAT && fdst) {
        /* a constant: its value (the literal rounded to its type, or its bits) rounded to d */
        DType s = x->type ? x->type->dtype : DT_F64;
        if (c->u.f.bits && s == d && s != DT_F32)
            return arena_str(e, "0x%llxu", (unsigned long long)c->u.f.raw);
        double f = c->u.f.d;
        if (c->u.f.bits && fsrc) {
            f = float_value(c->u.f.raw, s);
        } else if (c->u.f.bits && s != DT_F64) {
            fail(e, op->name_span, "codegen supports a bit-pattern scalar of f16, bf16, f32 or f64 only");
            return NULL;
        } else if (fsrc) {
            f = round_to(f, s);
        }
        uint32_t bits;
        if (d == DT_F32) {
            float g = (float)f;
            memcpy(&bits, &g, sizeof bits);
        } else {
            bits = d == DT_F16 ? float_bits(f, 10, -14, 15) : float_bits(f, 7, -126, 127);
        }
        return arena_str(e, "0x%08xu", bits);
    }
    if (fdst && fsrc) {
        /* its value rounded once to the tile's type (exact when the types are the same) */
        const char *sx = scalar(e, v, op);
        if (!sx)
            return NULL;
        if (d == DT_F32) {
            e->any_fbits = true;
            return arena_str(e, "ptoas_f32_bits(%s)", sx);
        }
        return arena_str(e, "(uint32_t)ptort_f32_to_%s(%s)", d == DT_F16 ? "f16" : "bf16", sx);
    }
    if (fdst || (c && c->kind != AV_INT) || !x->type || x->type->kind != TY_SCALAR || dtype_is_float(x->type->dtype)) {
        fail(e, op->name_span, "codegen expects '%%%.*s' to be an f16, bf16 or f32 scalar for a tile of floats, or an "
             "integer for a tile of integers", (int)x->name.len, x->name.p);
        return NULL;
    }
    const char *s = scalar(e, v, op);
    return s ? arena_str(e, "(uint32_t)(%s)", s) : NULL;
}

/* One argument of a runtime call; NULL (reported) on error. */
static const char *call_arg(Emit *e, const Op *op, const OpArg *a)
{
    const OpInfo *in = op_info(op->kind);
    if (a->kind == ARG_LIT)
        return a->text;
    if (a->kind == ARG_ATTR)
        return attr_arg(op, a->attr);
    int r = a->role;
    if (r < 0 || r >= in->nroles || r >= MAX_ROLES) {
        DIAG_INTERNAL("ops.def: a runtime argument of '%s' names no role", in->name);
        return NULL;
    }
    ValueId v = role_val(op, r);
    uint8_t fl = in->flags[r];
    if (v == NO_VALUE) {
        if (fl & ROLE_OPT)
            return "NULL";
        fail(e, op->name_span, "codegen requires the '%s' operand of '%s'", in->role[r], in->name);
        return NULL;
    }
    if (fl & ROLE_GM)
        return use_view(e, v, op);
    if (fl & ROLE_NUM)
        return in->rid[r] == ROLE_SCALAR ? scalar_bits(e, v, val(e, role(op, ROLE_DST))->type->tile.dtype, op)
                                         : scalar(e, v, op);
    return use_tile(e, v, op);
}

/* An attribute kept as written (AV_OPAQUE) that is present and names none of the word
 * (its default): reluPreMode, atomicType, which the runtime does not compute. */
static bool opaque_set(const Op *op, const char *key, const char *dflt)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    if (!a || !a->val || a->val->kind != AV_OPAQUE)
        return false;
    Str t = a->val->u.s;
    size_t n = strlen(dflt);
    for (uint32_t i = 0; i + n <= t.len; i++)
        if (memcmp(t.p + i, dflt, n) == 0)
            return false;
    return true;
}

/* The forms a class's runtime lacks (reported), and the entry point a form takes:
 * *rt and args[0, *nargs) start as the row's. */
static bool compute_form(Emit *e, const Op *op, const char **rt, OpArg *args, int *nargs)
{
    const OpInfo *in = op_info(op->kind);
    switch (in->cls) {
    case OC_STORE:
        if (role(op, ROLE_FP) != NO_VALUE || role(op, ROLE_PRE_QUANT_SCALAR) != NO_VALUE)
            return fail(e, op->name_span, "codegen does not support 'pto.tstore' with an fp tile or a preQuantScalar "
                                          "(the quantizing store forms)");
        if (opaque_set(op, "reluPreMode", "no_relu") || opaque_set(op, "atomicType", "atomic_none"))
            return fail(e, op->name_span, "codegen does not support 'pto.tstore' with a reluPreMode or an atomicType");
        if (val(e, role(op, ROLE_SRC))->type->tile.loc == LOC_ACC &&
            val(e, role(op, ROLE_SRC))->type->tile.dtype != val(e, role(op, ROLE_DST))->type->dtype)
            return fail(e, op->name_span, "codegen does not support 'pto.tstore' to a view of another element type "
                                          "(an acc tile's converting store)");
        return true;
    case OC_MOVE: {
        if (role(op, ROLE_PRE_QUANT_SCALAR) != NO_VALUE)
            return fail(e, op->name_span,
                        "codegen does not support 'pto.tmov' with a preQuantScalar (the quantizing form)");
        if (opaque_set(op, "reluPreMode", "no_relu"))
            return fail(e, op->name_span, "codegen does not support 'pto.tmov' with a reluPreMode");
        ValueId tmp = role(op, ROLE_TMP);
        if (tmp == NO_VALUE && val(e, role(op, ROLE_SRC))->type->tile.dtype != val(e, role(op, ROLE_DST))->type->tile.dtype)
            return fail(e, op->name_span, "codegen does not support 'pto.tmov' between tiles of different element types "
                                          "(a converting move)");
        if (tmp == NO_VALUE)
            return true;
        if (type_is_tile(val(e, tmp)->type) && val(e, tmp)->type->tile.loc == LOC_SCALING)
            return fail(e, op->name_span,
                        "codegen does not support 'pto.tmov' with a scaling tile (the fp quantization form)");
        /* with a tmp: the X-to-ZZ exponent move */
        *rt = "ptort_tmov_zz";
        args[0] = (OpArg){ARG_ATTR, -1, RA_GRP_AXIS, NULL, 0};
        args[1] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_SRC), RA_COUNT, NULL, 0};
        args[2] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_DST), RA_COUNT, NULL, 0};
        args[3] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_TMP), RA_COUNT, NULL, 0};
        *nargs = 4;
        return true;
    }
    case OC_LOAD: {
        /* PTOAS's padding clauses (its EmitC lowering drops them too); the runtime does not
         * pad, so none but init_out_buffer = false may be there */
        int n;
        const TailClause *c = op_tail_clauses(op->kind, &n);
        for (int k = 0; k < n; k++) {
            const Attr *a = c[k].role == ROLE_COUNT ? ir_attr_find(op->attrs, op->nattrs, c[k].word) : NULL;
            bool set = c[k].role != ROLE_COUNT ? role(op, c[k].role) != NO_VALUE
                       : a && !(a->val->kind == AV_BOOL && !a->val->u.b);
            if (set)
                return fail(e, op->name_span, "codegen does not support 'pto.tload' with '%s' (the runtime does not pad)",
                            c[k].word);
        }
        return true;
    }
    case OC_QUANT: {
        /* The verifier takes either signedness for dst, as PTOAS does; the
         * runtime (like pto-isa's simulator) computes INT8_SYM into a signed
         * and INT8_ASYM into an unsigned byte only. */
        int qt = enum_attr(op, "quant_type", EK_QUANT_TYPE, QT_INT8_SYM);
        DType dd = val(e, role(op, ROLE_DST))->type->tile.dtype;
        bool want_signed = qt != QT_INT8_ASYM;
        if ((dd == DT_UI8) == want_signed)
            return fail(e, op->name_span, "codegen supports %s quantization into a%s dst only, but got %s",
                        want_signed ? "INT8_SYM" : "INT8_ASYM", want_signed ? " signed (i8)" : "n unsigned (ui8)",
                        dtype_name(dd));
        return true;
    }
    default:
        return true;
    }
}

static void emit_compute(Emit *e, const Op *op)
{
    const OpInfo *in = op_info(op->kind);
    const char *rt = in->rt;
    OpArg args[MAX_ARGS];
    int nargs = in->nargs;
    memcpy(args, in->args, sizeof args);
    if (!compute_form(e, op, &rt, args, &nargs))
        return;
    if (!rt)
        DIAG_INTERNAL("ops.def: '%s' has no runtime entry point", in->name);
    const char *a[MAX_ARGS];
    bool ok = true;
    for (int i = 0; i < nargs; i++)
        ok &= (a[i] = call_arg(e, op, &args[i])) != NULL; /* each failure reported */
    if (!ok)
        return;
    begin_call(e, op);
    sb_printf(&e->body, "%s(ctx", rt);
    for (int i = 0; i < nargs; i++)
        sb_printf(&e->body, ", %s", a[i]);
    sb_putc(&e->body, ')');
    end_call(e, op);

    /* what the run report needs: a tdequant of data that a tquant made from an
     * argument is a round trip, reported with its error against that argument; a
     * tmov passes its source's origin on */
    int src_buf = in->cls == OC_MOVE ? e->buf_of[role(op, ROLE_SRC)] : -1;
    if (in->cls == OC_QUANT)
        e->quant_origin[op->index] = e->bufs[e->buf_of[role(op, ROLE_SRC)]].origin;
    const Op *w = NULL;
    if (in->cls == OC_DEQUANT)
        w = e->bufs[e->buf_of[role(op, ROLE_SRC)]].last_writer;
    mark_written(e, op);
    if (w && op_info(w->kind)->cls == OC_QUANT && e->quant_origin[w->index] >= 0) {
        Buf *d = &e->bufs[e->buf_of[role(op, ROLE_DST)]];
        d->approx = e->quant_origin[w->index];
        d->approx_val = role(op, ROLE_DST);
    }
    if (src_buf >= 0)
        e->bufs[e->buf_of[role(op, ROLE_DST)]].origin = e->bufs[src_buf].origin;
}

/* pto.alloc_tile: a new buffer, with its address and dynamic valid sizes. */
static void emit_alloc(Emit *e, const Op *op)
{
    ValueId r = op->res[0];
    const Type *t = val(e, r)->type;
    if (!type_is_tile(t))
        return;
    runtime_dtype(e, op->name_span, t->tile.dtype, HOLD_TILE); /* reported; uses go on */
    Buf *b = &e->bufs[e->nbufs];
    memset(b, 0, sizeof *b);
    b->val = r;
    b->arg = -1;
    b->tb = &t->tile;
    b->desc = b->first_desc = -1;
    b->last_writer = NULL;
    b->origin = b->approx = -1;
    b->parent = -1;
    ValueId a = role(op, ROLE_ADDR), vr = role(op, ROLE_VALID_ROW), vc = role(op, ROLE_VALID_COL);
    b->vr_val = vr;
    b->vc_val = vc;
    if (a != NO_VALUE) {
        if (!const_int(e, a, &b->addr)) { /* reported; the tile goes on at 0, so its uses say nothing more */
            fail(e, op->name_span, "codegen expects addr to be a constant");
            b->addr = 0;
        }
        b->has_addr = true;
    }
    if (vr != NO_VALUE && !(b->vr = scalar(e, vr, op)))
        return;
    if (vc != NO_VALUE && !(b->vc = scalar(e, vc, op)))
        return;
    e->buf_of[r] = (int)e->nbufs++;
    if (e->f_called && b->has_addr) {
        /* in a called function every tile lives in its frame, above its callers' tiles: the
         * placed address plus the frame's base, in a local descriptor */
        make_mutable(e, e->buf_of[r]);
        sb_printf(&e->body, "    %s.addr += %s[%s];\n", b->mut, e->base, rt_loc[t->tile.loc]);
        if (b->vr)
            sb_printf(&e->body, "    %s.valid_rows = %s;\n", b->mut, b->vr);
        if (b->vc)
            sb_printf(&e->body, "    %s.valid_cols = %s;\n", b->mut, b->vc);
    } else if (e->rebound[r]) {
        make_mutable(e, e->buf_of[r]);
    }
    /* a dynamic valid shape's local descriptor is made here, where the tile is bound: this
     * op comes before every use, in the scope of all of them (uses may be in loops and
     * branches, docs/codegen.md) */
    if ((b->vr || b->vc) && b->has_addr && !use_tile(e, r, op))
        return;
    /* A returned tile starts as fresh memory (docs/cli.md: never-written positions
     * read 0), even where tassign reuses bytes of a tile that died before. */
    if (e->returned[r]) {
        const char *t = use_tile(e, r, op);
        if (!t)
            return;
        begin_call(e, op);
        sb_printf(&e->body, "ptort_tile_zero(ctx, %s)", t);
        end_call(e, op);
    }
}

/* ---- tile views ------------------------------------------------------------------
 * pto.treshape, pto.subview and pto.set_validshape make no copy: a view is a local
 * ptort_tile over the bytes of the tile it views, made at its op by the runtime (which
 * checks it), and a buffer of its own whose writes count as writes of that tile (ops.def's
 * SYN_TILEVIEW class). */

/* A new buffer for view value R of type T over buffer PARENT, whose descriptor is the local
 * LOCAL (declared by the caller). */
static void add_view_buf(Emit *e, ValueId r, const Type *t, int parent, const char *local)
{
    Buf *b = &e->bufs[e->nbufs];
    memset(b, 0, sizeof *b);
    b->val = r;
    b->arg = -1;
    b->tb = &t->tile;
    b->has_addr = true;
    b->desc = b->first_desc = -1;
    b->last_writer = NULL;
    b->origin = b->approx = -1;
    b->parent = parent;
    b->view = local;
    b->written = e->bufs[parent].written;
    e->buf_of[r] = (int)e->nbufs++;
}

/* A static descriptor of tile type T at address 0 (the shape a view takes). */
static const char *type_desc(Emit *e, const TileBody *t, const Value *v)
{
    const char *name = unique_name(&e->global, e->tag, v->name.p, v->name.len);
    sb_printf(&e->decls,
              "static const ptort_tile %s = {.loc = %s, .dtype = %s, .rows = %lld, .cols = %lld, "
              ".valid_rows = %lld, .valid_cols = %lld, .blayout = %s, .slayout = %s, .fractal = %d, "
              ".pad = %d, .compact = %d, .addr = 0};\n",
              name, rt_loc[t->loc], rt_dtype(t->dtype) ? rt_dtype(t->dtype) : "PTORT_NUM_DTYPES",
              (long long)t->rows, (long long)t->cols, (long long)(t->vrow == DIM_DYNAMIC ? t->rows : t->vrow),
              (long long)(t->vcol == DIM_DYNAMIC ? t->cols : t->vcol),
              t->blayout == BL_COL_MAJOR ? "PTORT_BL_COL_MAJOR" : "PTORT_BL_ROW_MAJOR",
              t->slayout == SL_ROW_MAJOR   ? "PTORT_SL_ROW_MAJOR"
              : t->slayout == SL_COL_MAJOR ? "PTORT_SL_COL_MAJOR"
                                           : "PTORT_SL_NONE_BOX",
              (int)t->fractal, (int)t->pad, (int)t->compact);
    return name;
}

/* The source buffer of a view op and its descriptor expression; -1 (reported) if none. */
static int view_source(Emit *e, const Op *op, ValueId src, const char **expr)
{
    if (src == NO_VALUE || e->buf_of[src] < 0) {
        fail(e, op->name_span, "codegen expects the source of '%s' to be a tile buffer", op_info(op->kind)->name);
        return -1;
    }
    *expr = use_tile(e, src, op);
    return *expr ? e->buf_of[src] : -1;
}

/* A subview inside an scf.for whose source descriptor and offsets are the same at every
 * execution of it in one call: a static descriptor (not a view, not rebound, no dynamic valid
 * shape) and offsets defined in the function's entry block. */
static bool subview_invariant(Emit *e, const Op *op, int src_buf, uint32_t first_offset)
{
    const Buf *b = &e->bufs[src_buf];
    if (b->view || b->mut || b->vr || b->vc)
        return false;
    const Block *entry = ir_entry(e->f);
    for (uint32_t i = 0; i < 2; i++)
        if (val(e, op->opnds[first_offset + i])->block != entry)
            return false;
    for (const Block *in = op->parent; in != entry; in = ir_block_owner(in)->parent)
        if (ir_block_owner(in)->kind == OP_SCF_FOR)
            return true;
    return false;
}

/* %r = pto.treshape %src : T1 -> T2 and %r = pto.subview %src[%i, %j] sizes [R, C]
 * (valid [%vr, %vc])? : T1 -> T2. */
static void emit_view(Emit *e, const Op *op, bool subview)
{
    if (!op->nres || !type_is_tile(val(e, op->res[0])->type)) {
        fail(e, op->name_span, "codegen expects '%s' to have a tile result", op_info(op->kind)->name);
        return;
    }
    ValueId r = op->res[0];
    const Value *rv = val(e, r);
    const TileBody *t = &rv->type->tile;
    /* a treshape may name a new element type (i8 bytes as i1 or i64): reported here, as an
     * alloc_tile's; a subview keeps its source's, reported where that is declared */
    if (!subview)
        runtime_dtype(e, op->name_span, t->dtype, HOLD_TILE); /* reported; uses go on */
    const char *sx;
    int pb = view_source(e, op, op->opnds[0], &sx);
    if (pb < 0)
        return;
    const char *local = unique_name(&e->local, "v_", rv->name.p, rv->name.len);
    sb_printf(&e->body, "    ptort_tile %s;\n", local);
    if (!subview) {
        if (t->vrow == DIM_DYNAMIC || t->vcol == DIM_DYNAMIC) {
            fail(e, op->name_span, "codegen expects a static valid shape for the result of 'pto.treshape'");
            return;
        }
        const char *as = type_desc(e, t, rv);
        begin_call(e, op);
        sb_printf(&e->body, "ptort_tile_reshape(ctx, %s, &%s, &%s)", sx, as, local);
        end_call(e, op);
        add_view_buf(e, r, rv->type, pb, local);
        return;
    }
    int oi = op_role(op->kind, ROLE_OFFSETS);
    uint32_t first = 0;
    if (oi < 0 || ir_role_operands(op, oi, &first) != 2) {
        fail(e, op->name_span, "codegen expects two offsets for 'pto.subview'");
        return;
    }
    const char *off[2], *valid[2];
    for (int i = 0; i < 2; i++)
        if (!(off[i] = scalar(e, op->opnds[first + i], op)))
            return;
    ValueId vr = role(op, ROLE_VALID_ROW), vc = role(op, ROLE_VALID_COL);
    int64_t tv[2] = {t->vrow, t->vcol};
    ValueId vv[2] = {vr, vc};
    for (int i = 0; i < 2; i++) {
        if (vv[i] != NO_VALUE) {
            if (!(valid[i] = scalar(e, vv[i], op)))
                return;
        } else if (tv[i] == DIM_DYNAMIC) {
            fail(e, op->name_span, "codegen expects 'pto.subview' with a dynamic valid shape to give valid_row and valid_col");
            return;
        } else {
            valid[i] = arena_str(e, "%lld", (long long)tv[i]);
        }
    }
    const char *h = NULL, *k = NULL;
    if (subview_invariant(e, op, pb, first)) {
        /* Everything but the valid shape is the same at every execution in the loop: the first
         * one calls the runtime (which checks it all) and keeps the descriptor in h_; later ones
         * copy it and set the valid shape, and call the runtime again only when that is outside
         * the sizes, so that it reports the error at this op as before. */
        h = unique_name(&e->local, "h_", rv->name.p, rv->name.len);
        k = unique_name(&e->local, "k_", rv->name.p, rv->name.len);
        sb_printf(&e->hoist, "    ptort_tile %s = %s;\n    int %s = 0;\n", h, sx + 1, k); /* sx: "&NAME" */
        uint32_t line, col;
        source_line_col(e->src, op->name_span.begin, &line, &col);
        sb_printf(&e->body, "    /* %u:%u pto.subview */\n", line + 1, col + 1);
        /* the range test of each valid size that is not a constant (verified in range) */
        sb_printf(&e->body, "    if (!%s", k);
        int64_t size[2] = {t->rows, t->cols}, cv;
        for (int i = 0; i < 2; i++)
            if (vv[i] != NO_VALUE && !const_int(e, vv[i], &cv))
                sb_printf(&e->body, " || %s < 0 || %s > %lld", valid[i], valid[i], (long long)size[i]);
        sb_puts(&e->body, ") {\n    st = ");
        e->calls = true;
    } else {
        begin_call(e, op);
    }
    sb_printf(&e->body, "ptort_tile_subview(ctx, %s, %s, %s, %lld, %lld, %s, %s, &%s)", sx, off[0], off[1],
              (long long)t->rows, (long long)t->cols, valid[0], valid[1], local);
    end_call(e, op);
    if (h)
        sb_printf(&e->body,
                  "    %s = %s;\n    %s = 1;\n    } else {\n    %s = %s;\n    %s.valid_rows = %s;\n"
                  "    %s.valid_cols = %s;\n    }\n",
                  h, local, k, local, h, local, valid[0], local, valid[1]);
    add_view_buf(e, r, rv->type, pb, local);
}

/* pto.set_validshape %src, %vr, %vc: the tile's valid shape from here on. */
static void emit_set_validshape(Emit *e, const Op *op)
{
    ValueId src = op->nopnds ? op->opnds[0] : NO_VALUE;
    const char *sx;
    int bi = view_source(e, op, src, &sx);
    if (bi < 0)
        return;
    Buf *b = &e->bufs[bi];
    if (!b->view && !b->vr && !b->vc) {
        fail(e, op->name_span, "codegen expects the source of 'pto.set_validshape' to have a dynamic valid shape");
        return;
    }
    const char *vr = scalar(e, role(op, ROLE_VALID_ROW), op), *vc = vr ? scalar(e, role(op, ROLE_VALID_COL), op) : NULL;
    if (!vr || !vc)
        return;
    begin_call(e, op);
    sb_printf(&e->body, "ptort_tile_set_valid(ctx, %s, %s, %s)", sx, vr, vc);
    end_call(e, op);
    if (!b->view) { /* later bindings (tassign) start from the new sizes too */
        b->vr = vr;
        b->vc = vc;
    }
}

/* pto.tassign: rebinds a buffer from here on (both names, in the result form). */
/* Whether tassign op binds its argument in the function's body before any other op uses it. */
static bool placement_first(Emit *e, const Op *op)
{
    if (ir_block_owner(op->parent))
        return false;
    ValueId v = op->opnds[0];
    for (const Op *o = ir_first_op(e->f); o && o != op; o = ir_next_op(o))
        for (uint32_t i = 0; i < o->nopnds; i++)
            if (o->opnds[i] == v)
                return false;
    return true;
}

static void emit_tassign(Emit *e, const Op *op)
{
    int bi = e->buf_of[op->opnds[0]];
    if (bi < 0) {
        fail(e, op->name_span, "codegen expects the operand of 'pto.tassign' to be a tile buffer");
        return;
    }
    Buf *b = &e->bufs[bi];
    int64_t addr = op->tile_addr;
    if (e->f_called && b->arg >= 0 && b->parent < 0) {
        /* a called function works on the caller's tile where it is; the argument's placement
         * (tassign's, or the same written in the input: in the body, at a constant address,
         * before any use) only makes the descriptor the harness fills when it runs the function */
        if (!op->has_tile_addr || b->first_desc >= 0 || (!op->synthetic && !placement_first(e, op))) {
            fail(e, op->name_span, "codegen does not support 'pto.tassign' of an argument of a called function "
                 "(the caller's tile is used where it is)");
            return;
        }
        if (b->first_desc < 0) {
            b->has_addr = true;
            b->addr = addr;
            b->desc = new_desc(e, b);
            b->first_desc = b->desc;
        }
        return;
    }
    if (b->mut) { /* a new address in the local: the runtime checks it at each use */
        const char *x = op->has_tile_addr ? arena_str(e, "%lld", (long long)addr) : scalar(e, role(op, ROLE_ADDR), op);
        if (!x)
            return;
        if (e->f_called) /* in its frame */
            sb_printf(&e->body, "    %s.addr = %s + %s[%s];\n", b->mut, x, e->base, rt_loc[b->tb->loc]);
        else
            sb_printf(&e->body, "    %s.addr = %s;\n", b->mut, x);
        int64_t c = 0;
        if (op->has_tile_addr || const_int(e, role(op, ROLE_ADDR), &c)) { /* the frame covers it */
            e->rebind_desc = xrealloc(e->rebind_desc, (e->nrebind + 1) * sizeof *e->rebind_desc);
            e->rebind_addr = xrealloc(e->rebind_addr, (e->nrebind + 1) * sizeof *e->rebind_addr);
            e->rebind_desc[e->nrebind] = b->desc >= 0 ? b->desc : (b->desc = new_desc(e, b));
            e->rebind_addr[e->nrebind++] = op->has_tile_addr ? addr : c;
        } else if (!e->computed_at) {
            e->computed_at = op;
        }
        b->has_addr = true;
        if (op->nres)
            e->buf_of[op->res[0]] = bi;
        return;
    }
    if (!op->has_tile_addr) {
        ValueId a = role(op, ROLE_ADDR);
        if (a == NO_VALUE || !const_int(e, a, &addr)) {
            fail(e, op->name_span, "codegen expects addr to be a constant");
            return;
        }
    }
    b->has_addr = true;
    b->addr = addr;
    b->desc = -1;
    if (op->nres)
        e->buf_of[op->res[0]] = bi;
    if ((b->vr || b->vc) && !b->view) /* the local of a dynamic valid shape, made at the binding */
        use_tile(e, op->opnds[0], op);
}

/* ---- the scalar ops (docs/scalars.md) ----------------------------------------------------
 * An integer of width W is a C int64_t sign-extended from bit W-1 (i1 true is -1), a float
 * (f16, bf16, f32) a C float holding a value of its type; each op is one checked runtime
 * call (ptort_scalar_*) into a local, whose status check reports the op's location. */

/* The integer width of a scalar type codegen computes with (0 if none). */
static unsigned int_bits(const Type *t)
{
    if (!t || t->kind != TY_SCALAR)
        return 0;
    switch (t->dtype) {
    case DT_I1: return 1;
    case DT_I8: case DT_SI8: case DT_UI8: return 8;
    case DT_I16: case DT_SI16: case DT_UI16: return 16;
    case DT_I32: case DT_SI32: case DT_UI32: return 32;
    case DT_I64: case DT_SI64: case DT_UI64: case DT_INDEX: return 64;
    default: return 0;
    }
}

/* The runtime dtype of a float scalar type codegen computes with (NULL if none). */
static const char *float_rt(const Type *t)
{
    if (!t || t->kind != TY_SCALAR)
        return NULL;
    return t->dtype == DT_F16 ? "PTORT_F16" : t->dtype == DT_BF16 ? "PTORT_BF16" : t->dtype == DT_F32 ? "PTORT_F32" : NULL;
}

/* False (reported at op) when codegen has no C representation for t. */
static bool scalar_type_ok(Emit *e, const Type *t, const Op *op)
{
    if (int_bits(t) || float_rt(t))
        return true;
    char b[128];
    return fail(e, op->name_span, "codegen does not support '%s' on scalars of type '%s'", op_info(op->kind)->name,
                type_str(t, b, sizeof b));
}

static const char *int_literal(Emit *e, int64_t x)
{
    return x == INT64_MIN ? "(-INT64_MAX - 1)" : arena_str(e, "%lld", (long long)x);
}

static void emit_constant(Emit *e, const Op *op)
{
    if (!op->nres || !op->constant)
        return;
    const AttrValue *c = op->constant;
    ValueId r = op->res[0];
    const Type *t = val(e, r)->type;
    unsigned w = int_bits(t);
    if (c->kind == AV_INT && w) {
        /* the numbers the parser read, in the held form (255 : i8 is -1) */
        uint64_t u = (uint64_t)c->u.i;
        int64_t x = w >= 64 ? (int64_t)u : (int64_t)((u & ((((uint64_t)1) << w) - 1)) ^ ((uint64_t)1 << (w - 1))) -
                                               (int64_t)((uint64_t)1 << (w - 1));
        e->cexpr[r] = int_literal(e, x);
    } else if (c->kind == AV_BOOL) {
        e->cexpr[r] = c->u.b ? "-1" : "0";
    } else if (c->kind == AV_FLOAT && float_rt(t)) {
        if (c->u.f.bits)
            e->cexpr[r] = arena_str(e, "ptort_scalar_from_bits(0x%llxu, %s)", (unsigned long long)c->u.f.raw, float_rt(t));
        else if (c->u.f.d - c->u.f.d == 0) /* finite */
            e->cexpr[r] = arena_str(e, "ptort_scalar_round(%a, %s)", c->u.f.d, float_rt(t));
    }
    /* other constants (f64, 8-bit floats) have no C form: a use of one is reported */
}

/* A new local for result r of C type ctype ("int64_t", "float"). */
static const char *scalar_local(Emit *e, ValueId r, const char *ctype)
{
    const Value *x = val(e, r);
    const char *n = unique_name(&e->local, "s_", x->name.p, x->name.len);
    sb_printf(&e->body, "    %s %s;\n", ctype, n);
    e->cexpr[r] = n;
    return n;
}

/* The ptort_sop of a scalar op: the first literal of its row's args (ops.def). */
static const char *sop_name(OpKind k)
{
    const OpInfo *in = op_info(k);
    return in->nargs && in->args[0].kind == ARG_LIT ? in->args[0].text : "PTORT_NUM_SOPS";
}

static unsigned flags_attr(const Op *op, const char *key)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    return a && a->val->kind == AV_FLAGS ? (unsigned)a->val->u.e.value : 0;
}

/* A 64-bit (index, i64) integer op that cannot fail as a C expression of its operands A and B,
 * or NULL: the ops without overflow flags that wrap or cannot overflow, and the divisions,
 * remainders and shifts whose right operand is a constant that makes them defined (a divisor
 * other than 0 and -1, a shift amount below 64). The others call ptort_scalar_int, whose
 * status check reports them at the op. */
static const char *int_inline(Emit *e, const Op *op, const char *a, const char *b, unsigned w)
{
    if (w != 64 || flags_attr(op, ARITH_OVERFLOW_KEY) || op->nopnds != 2)
        return NULL;
    switch (op->kind) {
    case OP_ADDI: return arena_str(e, "(int64_t)((uint64_t)%s + (uint64_t)%s)", a, b);
    case OP_SUBI: return arena_str(e, "(int64_t)((uint64_t)%s - (uint64_t)%s)", a, b);
    case OP_MULI: return arena_str(e, "(int64_t)((uint64_t)%s * (uint64_t)%s)", a, b);
    case OP_ANDI: return arena_str(e, "(%s & %s)", a, b);
    case OP_ORI: return arena_str(e, "(%s | %s)", a, b);
    case OP_XORI: return arena_str(e, "(%s ^ %s)", a, b);
    case OP_MAXSI: return arena_str(e, "(%s > %s ? %s : %s)", a, b, a, b);
    case OP_MINSI: return arena_str(e, "(%s < %s ? %s : %s)", a, b, a, b);
    case OP_MAXUI: return arena_str(e, "((uint64_t)%s > (uint64_t)%s ? %s : %s)", a, b, a, b);
    case OP_MINUI: return arena_str(e, "((uint64_t)%s < (uint64_t)%s ? %s : %s)", a, b, a, b);
    default: break;
    }
    int64_t c;
    if (!const_int(e, op->opnds[1], &c))
        return NULL;
    bool div_ok = c != 0 && c != -1;
    switch (op->kind) {
    case OP_DIVSI: return div_ok ? arena_str(e, "(%s / %s)", a, b) : NULL;
    case OP_REMSI: return div_ok ? arena_str(e, "(%s %% %s)", a, b) : NULL;
    case OP_CEILDIVSI: /* C's quotient (toward zero) plus one when inexact with a positive exact
                        * quotient: the remainder (of A's sign) nonzero with B's sign */
        return div_ok ? arena_str(e, "(%s / %s + (%s %% %s %s 0))", a, b, a, b, c > 0 ? ">" : "<") : NULL;
    case OP_FLOORDIVSI: /* minus one when inexact with a negative exact quotient */
        return div_ok ? arena_str(e, "(%s / %s - (%s %% %s %s 0))", a, b, a, b, c > 0 ? "<" : ">") : NULL;
    case OP_DIVUI: return c ? arena_str(e, "(int64_t)((uint64_t)%s / (uint64_t)%s)", a, b) : NULL;
    case OP_REMUI: return c ? arena_str(e, "(int64_t)((uint64_t)%s %% (uint64_t)%s)", a, b) : NULL;
    case OP_SHLI: return c >= 0 && c < 64 ? arena_str(e, "(int64_t)((uint64_t)%s << %s)", a, b) : NULL;
    case OP_SHRUI: return c >= 0 && c < 64 ? arena_str(e, "(int64_t)((uint64_t)%s >> %s)", a, b) : NULL;
    case OP_SHRSI: /* the sign bit shifted in, without C's implementation-defined >> of negatives */
        return c >= 0 && c < 64 ? arena_str(e, "(%s < 0 ? ~(~%s >> %s) : %s >> %s)", a, a, b, a, b) : NULL;
    default: return NULL;
    }
}

static void emit_scalar_op(Emit *e, const Op *op)
{
    ArithClass c = arith_class(op->kind);
    const char *a[3] = {NULL, NULL, NULL};
    bool access = op->kind == OP_LOAD_SCALAR || op->kind == OP_STORE_SCALAR;
    for (uint32_t i = access ? 1 : 0; i < op->nopnds && i < 3; i++) /* a pointer is no scalar */
        if (!(a[i] = scalar(e, op->opnds[i], op)))
            return;
    const Type *t = op->nopnds ? val(e, op->opnds[c == AC_SELECT ? 1 : 0])->type : NULL;
    const Type *rt = op->nres ? val(e, op->res[0])->type : NULL;
    if (access) {
        ValueId p = op->opnds[0];
        const Type *vt = op->kind == OP_LOAD_SCALAR ? rt : val(e, op->opnds[2])->type;
        if (!e->csize[p]) {
            fail(e, op->name_span, "codegen expects the pointer of '%s' to be a function argument",
                 op_info(op->kind)->name);
            return;
        }
        if (!scalar_type_ok(e, vt, op))
            return;
        bool fl = float_rt(vt) != NULL;
        const char *r = op->kind == OP_LOAD_SCALAR ? scalar_local(e, op->res[0], fl ? "float" : "int64_t") : NULL;
        /* floats by runtime dtype, integers by byte count (i1 takes a byte) */
        const char *kind = fl ? float_rt(vt) : arena_str(e, "%u", int_bits(vt) > 8 ? int_bits(vt) / 8 : 1);
        begin_call(e, op);
        if (op->kind == OP_LOAD_SCALAR)
            sb_printf(&e->body, "ptort_load_scalar_%s(ctx, %s, %s, %s, %s, &%s)", fl ? "float" : "int", e->cexpr[p],
                      e->csize[p], a[1], kind, r);
        else {
            sb_printf(&e->body, "ptort_store_scalar_%s(ctx, %s, %s, %s, %s, %s)", fl ? "float" : "int", e->cexpr[p],
                      e->csize[p], a[1], kind, a[2]);
            if (e->ptr_arg[p] >= 0)
                e->entries[e->ptr_arg[p]].flags |= PTORT_KARG_WRITTEN;
        }
        end_call(e, op);
        return;
    }
    if (!scalar_type_ok(e, t, op) || !scalar_type_ok(e, rt, op))
        return;
    switch (c) {
    case AC_CMPI: {
        const Attr *pa = ir_attr_find(op->attrs, op->nattrs, ARITH_PREDICATE_KEY);
        const char *r = scalar_local(e, op->res[0], "int64_t");
        sb_printf(&e->body, "    %s = ptort_scalar_cmpi(%d, %s, %s, %u);\n", r, (int)pa->val->u.i, a[0], a[1], int_bits(t));
        return;
    }
    case AC_SELECT: {
        const char *r = scalar_local(e, op->res[0], float_rt(rt) ? "float" : "int64_t");
        sb_printf(&e->body, "    %s = %s ? %s : %s;\n", r, a[0], a[1], a[2]);
        return;
    }
    case AC_INT_BIN: {
        const char *r = scalar_local(e, op->res[0], "int64_t");
        const char *x = int_inline(e, op, a[0], a[1], int_bits(t));
        if (x) { /* it cannot fail: no call, no check */
            uint32_t line, col;
            source_line_col(e->src, op->name_span.begin, &line, &col);
            sb_printf(&e->body, "    /* %u:%u %s */\n    %s = %s;\n", line + 1, col + 1, op_info(op->kind)->name, r, x);
            return;
        }
        begin_call(e, op);
        sb_printf(&e->body, "ptort_scalar_int(ctx, %s, %s, %s, %u, %u, &%s)", sop_name(op->kind), a[0], a[1],
                  int_bits(t), flags_attr(op, ARITH_OVERFLOW_KEY), r);
        end_call(e, op);
        return;
    }
    case AC_FLOAT_BIN:
    case AC_FLOAT_UN: {
        const char *r = scalar_local(e, op->res[0], "float");
        begin_call(e, op);
        sb_printf(&e->body, "ptort_scalar_float(ctx, %s, %s, %s, %s, %u, &%s)", sop_name(op->kind), a[0],
                  c == AC_FLOAT_UN ? "0.0f" : a[1], float_rt(t), flags_attr(op, ARITH_FASTMATH_KEY), r);
        end_call(e, op);
        return;
    }
    case AC_CAST: {
        const char *r = scalar_local(e, op->res[0], "int64_t");
        begin_call(e, op);
        sb_printf(&e->body, "ptort_scalar_cast(ctx, %s, %s, %u, %u, &%s)", sop_name(op->kind), a[0], int_bits(t),
                  int_bits(rt), r);
        end_call(e, op);
        return;
    }
    case AC_NONE:
        break;
    }
    fail(e, op->name_span, "codegen does not support '%s'", op_info(op->kind)->name);
}

/* The C type that holds a scalar of type t (docs/scalars.md 4). */
static const char *c_scalar_type(const Type *t) { return float_rt(t) ? "float" : "int64_t"; }

/* Whether generated C holds scalars of type t (integers, index, f16, bf16, f32). */
static bool c_scalar_ok(const Type *t) { return int_bits(t) || float_rt(t); }

/* ---- calls --------------------------------------------------------------------------
 * func.call is a C call of the callee's kernel function (docs/codegen.md, "Calls"). A called
 * function takes the base of its frame (its own tiles go there, above its
 * callers'), its tile arguments as descriptors (the caller's tiles, used in place) and an
 * out-parameter per scalar result. */

static Str callee_name(const Op *op)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, "callee");
    return a && a->val->kind == AV_SYMBOL ? a->val->u.s : (Str){"", 0};
}

/* Whether a declaration and a definition take and return the same types. */
static bool same_signature(const Func *a, const Func *b)
{
    const Block *x = ir_entry(a), *y = ir_entry(b);
    if (x->nargs != y->nargs || a->nresults != b->nresults)
        return false;
    for (uint32_t i = 0; i < x->nargs; i++)
        if (a->values[x->args[i]].type != b->values[y->args[i]].type)
            return false;
    for (uint32_t i = 0; i < a->nresults; i++)
        if (a->results[i] != b->results[i])
            return false;
    return true;
}

/* The function a call of NAME in mod runs: mod's function of that name, or, when that is
 * a declaration, the definition another module of the file gives it (ir_func_definition)
 * if the two have the same signature (emit_func reports them otherwise). Its slot in
 * e->funcs; f NULL when there is none. */
static const FuncSlot *callee_slot(const Emit *e, const ModuleOp *mod, Str name)
{
    const FuncSlot *s = ir_func_index_find(&e->funcs, mod, name);
    if (s->f && s->f->decl) {
        const FuncSlot *def = ir_func_index_definition(&e->funcs, s->f);
        if (def->f && same_signature(s->f, def->f))
            return def;
    }
    return s;
}

/* The index in e->called of the function of slot s, or -1. */
static int called_at(const Emit *e, const FuncSlot *s)
{
    return s->f && e->called_at ? e->called_at[s->all] : -1;
}

/* The same for f, a function of mod. */
static int called_index(const Emit *e, const ModuleOp *mod, const Func *f)
{
    const FuncSlot *s = ir_func_index_find(&e->funcs, mod, f->name);
    return s->f == f ? called_at(e, s) : -1;
}

/* What a called function does to a tile or pointer argument: reads it before writing it,
 * writes it (its bytes, or the memory behind the pointer). */
enum { EFF_READ = 1, EFF_WRITE = 2 };

/* The argument of f whose bytes value v names (the argument, a view or tassign of it, a
 * loop's iter_arg or result holding it), or -1. */
static int arg_root(const Func *f, ValueId v)
{
    const Block *entry = ir_entry(f);
    for (uint32_t guard = 0; v != NO_VALUE && guard <= f->nvalues; guard++) {
        const Value *x = &f->values[v];
        const Op *d = x->def_op;
        if (!d) { /* a block argument */
            if (x->block == entry) {
                uint32_t k = region_arg_index(f, v);
                return k < entry->nargs ? (int)k : -1;
            }
            const Op *o = ir_block_owner(x->block);
            if (!o || o->kind != OP_SCF_FOR)
                return -1;
            v = region_arg_init(f, v); /* an iter_arg: its init's (NO_VALUE: the induction variable) */
            continue;
        }
        OpClass c = op_info(d->kind)->cls;
        if ((c == OC_TILE_VIEW || c == OC_VIEW || d->kind == OP_TASSIGN) && d->nopnds) {
            v = d->opnds[0];
        } else if (d->kind == OP_SCF_FOR) {
            uint32_t k = 0;
            while (k < d->nres && d->res[k] != v)
                k++;
            int arg = region_result_tied_arg(d, k);
            if (arg < 0)
                return -1;
            v = region_entry_operand(d, 0, (uint32_t)arg); /* the result of an iter_arg: its init's */
        } else {
            return -1;
        }
    }
    return -1;
}

/* Adds BITS to argument a's effects; W: the arguments written so far in this pass (a read
 * after a write is not a read of the caller's data). True if eff[a] grew. */
static bool eff_add(uint8_t *eff, uint8_t *w, int a, int bits)
{
    uint8_t old = eff[a];
    if ((bits & EFF_READ) && !w[a])
        eff[a] |= EFF_READ;
    if (bits & EFF_WRITE) {
        eff[a] |= EFF_WRITE;
        w[a] = 1;
    }
    return eff[a] != old;
}

/* One pass over f (a called function, index fi) adding to e->eff[fi]; true if it grew. A
 * read counts when no op before it in text order wrote the argument (as the kernel table's
 * PTORT_KARG_READ). */
static bool func_effects(Emit *e, const ModuleOp *mod, const Func *f, int fi)
{
    uint32_t n = ir_entry(f)->nargs;
    uint8_t *eff = e->eff[fi], *w = xcalloc(n ? n : 1, 1);
    bool grew = false;
    for (const Op *op = ir_first_op(f); op; op = ir_next_op(op)) {
        const OpInfo *in = op_info(op->kind);
        if (op->kind == OP_CALL) {
            int gi = called_at(e, callee_slot(e, mod, callee_name(op)));
            for (uint32_t k = 0; k < op->nopnds && gi >= 0; k++) {
                int a = arg_root(f, op->opnds[k]);
                if (a >= 0 && k < ir_entry(e->called[gi])->nargs)
                    grew |= eff_add(eff, w, a, e->eff[gi][k]);
            }
        } else if (op->kind == OP_LOAD_SCALAR || op->kind == OP_STORE_SCALAR) {
            int a = op->nopnds ? arg_root(f, op->opnds[0]) : -1;
            if (a >= 0)
                grew |= eff_add(eff, w, a, op->kind == OP_LOAD_SCALAR ? EFF_READ : EFF_WRITE);
        } else if (in->syntax == SYN_COMPUTE) {
            uint32_t at = 0;
            for (int r = 0; r < in->nroles; r++)
                for (uint32_t i = 0; i < op->seg[r] && at < op->nopnds; i++, at++) {
                    int a = arg_root(f, op->opnds[at]);
                    if (a < 0)
                        continue;
                    if (r < in->nins)
                        grew |= eff_add(eff, w, a, EFF_READ);
                    else if ((in->flags[r] & ROLE_OUT) && !(in->flags[r] & ROLE_TEMP))
                        grew |= eff_add(eff, w, a, EFF_WRITE);
                }
        }
    }
    free(w);
    return grew;
}

/* The prototype of called function g, in e->protos. */
static void put_proto(Emit *e, const Func *g)
{
    StrBuf tag = {0};
    func_tag(&tag, g->name);
    sb_putc(&tag, '\0');
    sb_printf(&e->protos, "int ptoas_k%s(ptort_ctx *ctx, const int64_t *base", tag.p);
    const Block *en = ir_entry(g);
    for (uint32_t i = 0; i < en->nargs; i++) {
        const Type *t = g->values[en->args[i]].type;
        sb_puts(&e->protos, type_is_tile(t)            ? ", const ptort_tile *"
                            : t && t->kind == TY_PTR ? ", void *, size_t"
                                                     : float_rt(t) ? ", float" : ", int64_t");
    }
    for (uint32_t i = 0; i < g->nresults; i++)
        if (!type_is_tile(g->results[i]))
            sb_printf(&e->protos, ", %s *", c_scalar_type(g->results[i]));
    sb_puts(&e->protos, ");\n");
    sb_free(&tag);
}

/* return: each scalar result into its out-parameter (tiles are read by the harness). */
static void emit_return(Emit *e, const Op *op)
{
    for (uint32_t i = 0; i < op->nopnds && i < e->f->nresults; i++) {
        if (!e->ret_out[i])
            continue;
        const char *x = scalar(e, op->opnds[i], op);
        if (!x)
            return;
        sb_printf(&e->body, "    *%s = %s;\n", e->ret_out[i], x);
    }
}

/* %r = func.call @g(%a, ...): scalars by value, pointers as base and size, tiles as the
 * caller's current descriptor; a tile or pointer passed is read and written as g does it. */
static void emit_call(Emit *e, const Op *op)
{
    Str name = callee_name(op);
    const FuncSlot *gs = callee_slot(e, e->mod, name);
    const Func *g = gs->f;
    if (!g) {
        fail(e, op->name_span, "codegen expects '@%.*s' to be a function of this module", (int)name.len, name.p);
        return;
    }
    for (uint32_t i = 0; i < g->nresults; i++)
        if (type_is_tile(g->results[i]) || !c_scalar_ok(g->results[i])) {
            char tb[256];
            fail(e, op->name_span,
                 "codegen supports calls whose results are integer, index, f16, bf16 or f32 scalars only, but "
                 "'@%.*s' returns '%s'",
                 (int)name.len, name.p, type_str(g->results[i], tb, sizeof tb));
            return;
        }
    StrBuf args = {0};
    int gi = called_at(e, gs);
    for (uint32_t i = 0; i < op->nopnds && !e->errors; i++) {
        ValueId v = op->opnds[i];
        const Type *t = val(e, v)->type;
        uint8_t eff = gi >= 0 && i < ir_entry(g)->nargs ? e->eff[gi][i] : EFF_READ | EFF_WRITE;
        if (type_is_tile(t)) {
            const char *x = use_tile(e, v, op);
            if (!x)
                break;
            sb_printf(&args, ", %s", x);
            int bi = e->buf_of[v];
            bool written = false;
            for (int b = bi; b >= 0 && (eff & EFF_READ); b = e->bufs[b].parent) {
                written |= e->bufs[b].written;
                if (e->bufs[b].parent < 0 && e->bufs[b].arg >= 0 && !written)
                    e->entries[e->bufs[b].arg].flags |= PTORT_KARG_READ;
            }
            for (int b = bi; b >= 0 && (eff & EFF_WRITE); b = e->bufs[b].parent) {
                e->bufs[b].written = true;
                e->bufs[b].last_writer = op;
                e->bufs[b].origin = -1;
                e->bufs[b].approx = -1;
            }
        } else if (t && t->kind == TY_PTR) {
            if (!e->csize[v]) {
                fail(e, op->name_span, "codegen expects a pointer passed to 'func.call' to be a function argument");
                break;
            }
            sb_printf(&args, ", %s, %s", e->cexpr[v], e->csize[v]);
            if (e->ptr_arg[v] >= 0 && (eff & EFF_WRITE))
                e->entries[e->ptr_arg[v]].flags |= PTORT_KARG_WRITTEN;
        } else {
            const char *x = scalar(e, v, op);
            if (!x)
                break;
            sb_printf(&args, ", %s", x);
        }
    }
    for (uint32_t i = 0; i < op->nres && !e->errors; i++)
        sb_printf(&args, ", &%s", scalar_local(e, op->res[i], c_scalar_type(val(e, op->res[i])->type)));
    if (!e->errors) {
        uint32_t line, col;
        source_line_col(e->src, op->name_span.begin, &line, &col);
        sb_printf(&e->body, "    /* %u:%u func.call */\n", line + 1, col + 1);
        if (!e->frame) { /* the callee's tiles go above this function's (docs/codegen.md, "Calls") */
            e->frame_fn = unique_name(&e->global, e->tag, "frame", 5);
            e->frame = unique_name(&e->local, "", "frame", 5);
            e->first_call = op;
            sb_printf(&e->hoist, "    int64_t %s[PTORT_NUM_LOCS];\n", e->frame);
            sb_printf(&e->decls, "static void %s(const int64_t *base, int64_t *fr);\n", e->frame_fn);
        }
        sb_printf(&e->body, "    %s(%s, %s);\n", e->frame_fn, e->f_called ? e->base : "ptoas_base0", e->frame);
        StrBuf tag = {0};
        func_tag(&tag, g->name);
        sb_putc(&tag, '\0');
        sb_printf(&e->body, "    st = (ptort_status)ptoas_k%s(ctx, %s%s);\n", tag.p, e->frame,
                  args.p ? args.p : "");
        sb_puts(&e->body, "    if (st != PTORT_OK)\n        return (int)st; /* the callee reported it at its op */\n");
        e->calls = true;
        sb_free(&tag);
    }
    sb_free(&args);
}

static void emit_op(Emit *e, const Op *op)
{
    const OpInfo *in = op_info(op->kind);
    if (in->syntax == SYN_COMPUTE && op->form == FORM_L1) {
        fail(e, op->name_span,
             "codegen requires the Level 2 (ins/outs) form of '%s'; Level 1 ops need the bufferize pass", in->name);
        return;
    }
    if (in->syntax == SYN_COMPUTE)
        mark_read(e, op);
    switch (in->cls) {
    case OC_CONSTANT: emit_constant(e, op); break;
    case OC_ALLOC: emit_alloc(e, op); break;
    case OC_TASSIGN: emit_tassign(e, op); break;
    case OC_VIEW: /* a tensor view from a pointer, or a part of one */
        if (op_role(op->kind, ROLE_PTR) >= 0)
            emit_make_view(e, op);
        else
            emit_partition(e, op);
        break;
    case OC_RETURN: emit_return(e, op); break;
    case OC_FOR:
    case OC_IF:
    case OC_YIELD:
    case OC_WHILE:
    case OC_CONDITION:
    case OC_EXECUTE_REGION: break; /* emit_block's */
    case OC_CALL: emit_call(e, op); break;
    case OC_TILE_VIEW: /* a new descriptor (treshape, subview) or a new valid shape */
        if (op->kind == OP_SET_VALIDSHAPE)
            emit_set_validshape(e, op);
        else
            emit_view(e, op, op->kind == OP_SUBVIEW);
        break;
    case OC_INT_BIN:
    case OC_FLOAT_BIN:
    case OC_FLOAT_UN:
    case OC_CMPI:
    case OC_SELECT:
    case OC_CAST:
    case OC_LOAD_SCALAR:
    case OC_STORE_SCALAR: emit_scalar_op(e, op); break;
    default: emit_compute(e, op); break; /* the rest: a call of the row's rt */
    }
}

/* ---- control flow ---------------------------------------------------------------------
 * scf.for is a C for over int64 with its bounds and step read once, a step that is not
 * positive a located runtime error (docs/codegen.md); scf.if is a C if, scf.while a C
 * `for (;;)` that breaks when its condition fails, scf.execute_region a C block. Scalar iteration
 * arguments and results are int64 locals declared before the op: the loop's carried values
 * are assigned all at once from its scf.yield (through temporaries), and the results are
 * those locals after it; an scf.if's results are assigned in each branch. */

/* Loop-carried and scf results: integers and index (codegen's int64 locals). */

static const Op *emit_block(Emit *e, const Block *b);

/* Whether scalar value v can go through op's iter_args or results (reported if not). */
static bool carry_ok(Emit *e, ValueId v, const Op *op)
{
    const Value *x = val(e, v);
    if (c_scalar_ok(x->type))
        return true;
    char tb[256];
    return fail(e, op->name_span,
                "codegen supports integer, index, f16, bf16 and f32 values through '%s' only, but '%%%.*s' is '%s'",
                op_info(op->kind)->name, (int)x->name.len, x->name.p, type_str(x->type, tb, sizeof tb));
}


/* A new local for scalar value v (int64_t, or float for f16/bf16/f32), declared (= 0, or =
 * init) in the body. */
static const char *carried_local(Emit *e, ValueId v, const Op *op, const char *init)
{
    const Value *x = val(e, v);
    if (!carry_ok(e, v, op))
        return NULL;
    const char *n = unique_name(&e->local, "s_", x->name.p, x->name.len);
    sb_printf(&e->body, "    %s %s = %s;\n", c_scalar_type(x->type), n, init ? init : "0");
    e->cexpr[v] = n;
    return n;
}

/* dst[i] = src[i], all read before any is written. */
static void assign_values(Emit *e, const ValueId *src, const char *const *dst, uint32_t n, const Op *at)
{
    const char **tmp = xmalloc((n ? n : 1) * sizeof *tmp);
    for (uint32_t i = 0; i < n && !e->errors; i++) {
        if (!dst[i])
            continue; /* a tile: the yield passes the result's own buffer */
        const char *v = scalar(e, src[i], at);
        if (!v)
            break;
        tmp[i] = unique_name(&e->local, "y_", dst[i], strlen(dst[i]));
        sb_printf(&e->body, "    %s %s = %s;\n", c_scalar_type(val(e, src[i])->type), tmp[i], v);
    }
    for (uint32_t i = 0; i < n && !e->errors; i++)
        if (dst[i])
            sb_printf(&e->body, "    %s = %s;\n", dst[i], tmp[i]);
    free(tmp);
}

/* dst[i] = the yield's operands. */
static void assign_yield(Emit *e, const Op *y, const char *const *dst, uint32_t n, const Op *at)
{
    assign_values(e, y->opnds, dst, n, at);
}

static void emit_for(Emit *e, const Op *op)
{
    const Block *body = op->regions[0].first;
    const char *lb = scalar(e, op->opnds[0], op), *ub = lb ? scalar(e, op->opnds[1], op) : NULL;
    const char *st = ub ? scalar(e, op->opnds[2], op) : NULL;
    if (!st)
        return;
    RegionEdge in; /* the inits into the iter_args */
    if (!region_edge(op, REGION_PARENT, 0, &in))
        return;
    uint32_t n = in.nsrc;
    const char **carried = arena_alloc(&e->m->arena, (n ? n : 1) * sizeof *carried);
    for (uint32_t i = 0; i < n; i++) {
        if (type_is_tile(val(e, in.src[i])->type)) {
            /* one buffer (bufferize): the iter_arg and the result name the init's */
            carried[i] = NULL;
            e->buf_of[in.dst[i]] = e->buf_of[in.src[i]];
            e->buf_of[op->res[i]] = e->buf_of[in.src[i]];
            continue;
        }
        if (!carry_ok(e, in.dst[i], op))
            return;
        const char *init = scalar(e, in.src[i], op);
        if (!init || !(carried[i] = carried_local(e, in.dst[i], op, init)))
            return;
        e->cexpr[op->res[i]] = carried[i];
    }
    const Value *iv = val(e, body->args[0]);
    const char *i = unique_name(&e->local, "i_", iv->name.p, iv->name.len);
    const char *hi = unique_name(&e->local, i, "_ub", 3), *step = unique_name(&e->local, i, "_step", 5);
    e->cexpr[body->args[0]] = i;
    uint32_t line, col;
    source_line_col(e->src, op->name_span.begin, &line, &col);
    sb_printf(&e->body, "    /* %u:%u scf.for */\n    {\n    int64_t %s = %s, %s = %s, %s = %s;\n", line + 1, col + 1,
              i, lb, hi, ub, step, st);
    sb_printf(&e->body, "    if (%s <= 0)\n        return ptoas_bad_step(", step);
    where(e, &e->body, op->name_span);
    sb_printf(&e->body, ", %s);\n    while (%s < %s) {\n", step, i, hi);
    e->any_step = true;
    const Op *y = emit_block(e, body);
    if (y && n)
        assign_yield(e, y, carried, n, y);
    /* the next value only when it is below the bound: no overflow past INT64_MAX */
    sb_printf(&e->body, "    if ((uint64_t)%s - (uint64_t)%s <= (uint64_t)%s)\n        break;\n    %s += %s;\n    }\n    }\n",
              hi, i, step, i, step);
}

/* The C locals of the scalar results of an op whose region yields them (scf.if,
 * scf.execute_region), NULL for a tile result, which names the buffer region 0's
 * scf.yield passes (bufferize gave every yield of it that buffer); NULL when reported. */
static const char **yielded_results(Emit *e, const Op *op)
{
    const char **res = arena_alloc(&e->m->arena, (op->nres ? op->nres : 1) * sizeof *res);
    RegionEdge out;
    bool yields = region_edge(op, 0, REGION_PARENT, &out);
    for (uint32_t i = 0; i < op->nres; i++) {
        if (type_is_tile(val(e, op->res[i])->type)) {
            res[i] = NULL;
            if (yields && i < out.nsrc)
                e->buf_of[op->res[i]] = e->buf_of[out.src[i]];
            continue;
        }
        if (!(res[i] = carried_local(e, op->res[i], op, NULL)))
            return NULL;
    }
    return res;
}

static void emit_if(Emit *e, const Op *op)
{
    const char *c = scalar(e, op->opnds[0], op);
    if (!c)
        return;
    const char **res = yielded_results(e, op);
    if (!res)
        return;
    uint32_t line, col;
    source_line_col(e->src, op->name_span.begin, &line, &col);
    sb_printf(&e->body, "    /* %u:%u scf.if */\n    if (%s) {\n", line + 1, col + 1, c);
    const Op *y = emit_block(e, op->regions[0].first);
    if (y && op->nres)
        assign_yield(e, y, res, op->nres, y);
    sb_puts(&e->body, "    }");
    if (op->regions[1].first) {
        sb_puts(&e->body, " else {\n");
        y = emit_block(e, op->regions[1].first);
        if (y && op->nres)
            assign_yield(e, y, res, op->nres, y);
        sb_puts(&e->body, "    }");
    }
    sb_putc(&e->body, '\n');
}

/* scf.while: `for (;;) { before; if (!cond) { results = cond's values; break; } after =
 * cond's values; after; before = the yield's }`, the carried scalars mutable locals
 * declared before it; a carried tile is one buffer at every position (bufferize). */
static void emit_while(Emit *e, const Op *op)
{
    const Block *before = op->regions[0].first, *after = op->regions[1].first;
    const Op *c = before->last;
    uint32_t nb = before->nargs, na = after->nargs, nr = op->nres;
    const char **bl = arena_alloc(&e->m->arena, (nb + na + nr + 1) * sizeof *bl);
    const char **al = bl + nb, **rl = al + na;
    for (uint32_t i = 0; i < nb; i++) {
        if (type_is_tile(val(e, op->opnds[i])->type)) {
            /* one buffer (bufferize): every name of position i is the init's */
            bl[i] = al[i] = rl[i] = NULL;
            e->buf_of[before->args[i]] = e->buf_of[after->args[i]] = e->buf_of[op->res[i]] =
                e->buf_of[op->opnds[i]];
            continue;
        }
        const char *init = scalar(e, op->opnds[i], op);
        if (!init || !(bl[i] = carried_local(e, before->args[i], op, init)))
            return;
    }
    for (uint32_t i = 0; i < na; i++)
        if (!(i < nb && type_is_tile(val(e, op->opnds[i])->type)) && !(al[i] = carried_local(e, after->args[i], op, NULL)))
            return;
    for (uint32_t i = 0; i < nr; i++)
        if (!(i < nb && type_is_tile(val(e, op->opnds[i])->type)) && !(rl[i] = carried_local(e, op->res[i], op, NULL)))
            return;
    uint32_t line, col;
    source_line_col(e->src, op->name_span.begin, &line, &col);
    sb_printf(&e->body, "    /* %u:%u scf.while */\n    for (;;) {\n", line + 1, col + 1);
    emit_block(e, before);
    const char *cond = e->errors ? NULL : scalar(e, c->opnds[0], c);
    if (!cond)
        return;
    sb_printf(&e->body, "    if (!(%s)) {\n", cond);
    assign_values(e, c->opnds + 1, rl, nr, c);
    sb_puts(&e->body, "    break;\n    }\n");
    assign_values(e, c->opnds + 1, al, na, c);
    const Op *y = emit_block(e, after);
    if (y && nb)
        assign_yield(e, y, bl, nb, y);
    sb_puts(&e->body, "    }\n");
}

/* scf.execute_region: a C block, its results locals declared before it. */
static void emit_execute_region(Emit *e, const Op *op)
{
    const Block *body = op->regions[0].first;
    const char **res = yielded_results(e, op);
    if (!res)
        return;
    uint32_t line, col;
    source_line_col(e->src, op->name_span.begin, &line, &col);
    sb_printf(&e->body, "    /* %u:%u scf.execute_region */\n    {\n", line + 1, col + 1);
    const Op *y = emit_block(e, body);
    if (y && op->nres)
        assign_yield(e, y, res, op->nres, y);
    sb_puts(&e->body, "    }\n");
}

/* Emits block b's ops; returns its scf.yield (NULL if it has none). */
static const Op *emit_block(Emit *e, const Block *b)
{
    for (const Op *op = b->first; op; op = op->next) {
        switch (op_info(op->kind)->cls) {
        case OC_FOR: emit_for(e, op); break;
        case OC_IF: emit_if(e, op); break;
        case OC_WHILE: emit_while(e, op); break;
        case OC_EXECUTE_REGION: emit_execute_region(e, op); break;
        case OC_YIELD: return op;
        case OC_CONDITION: return NULL; /* emit_while's */
        default: emit_op(e, op); break;
        }
    }
    return NULL;
}

/* The op emitters write every line at one level (4 spaces); control flow nests them. This
 * copies the body re-indented by 4 spaces per open brace of emit_for / emit_if (a line
 * ending in '{' opens, one starting with '}' closes). */
static void put_indented(StrBuf *c, const char *p, size_t n)
{
    int depth = 0;
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(p + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (p + at)) : n - at;
        const char *l = p + at;
        size_t k = 0;
        while (k < len && k < 4 && l[k] == ' ')
            k++;
        if (len > k && l[k] == '}')
            depth--;
        for (int d = 0; d < depth && len > k; d++)
            sb_puts(c, "    ");
        sb_putn(c, l, len);
        sb_putc(c, '\n');
        if (len && l[len - 1] == '{')
            depth++;
        at += len + 1;
    }
}

/* ---- functions ---------------------------------------------------------------------- */

/* The index of the function argument v is, or -1 (also for NO_VALUE). */
static int scalar_arg_index(const Emit *e, ValueId v)
{
    if (v == NO_VALUE)
        return -1;
    const Block *entry = ir_entry(e->f);
    for (uint32_t i = 0; i < entry->nargs; i++)
        if (entry->args[i] == v)
            return (int)i;
    return -1;
}

static Entry *add_entry(Emit *e, ValueId v, int kind, int arg)
{
    Entry *en = &e->entries[e->nentries++];
    memset(en, 0, sizeof *en);
    en->val = v;
    en->kind = kind;
    en->arg = arg;
    en->dtype = val(e, v)->type->kind == TY_SCALAR ? DT_NONE : val(e, v)->type->dtype;
    if (type_is_tile(val(e, v)->type))
        en->dtype = val(e, v)->type->tile.dtype;
    en->in = en->out = -1;
    en->approximates = -1;
    en->where = val(e, v)->def;
    return en;
}

/* The entry of buffer bi (an argument, or a value added as a result). */
static Entry *buffer_entry(Emit *e, int bi, ValueId name)
{
    Buf *b = &e->bufs[bi];
    if (b->arg >= 0)
        return &e->entries[b->arg];
    for (uint32_t i = ir_entry(e->f)->nargs; i < e->nentries; i++)
        if (e->buf_of[e->entries[i].val] == bi)
            return &e->entries[i];
    Entry *en = add_entry(e, name, 0, -1);
    en->flags |= PTORT_KARG_WRITTEN;
    return en;
}

static void put_desc_ref(Emit *e, StrBuf *b, int di)
{
    if (di < 0)
        sb_puts(b, "NULL");
    else
        sb_printf(b, "&%s", e->descs[di].name);
}

static void emit_func(Emit *e, const Func *f, Arch arch)
{
    if (f->decl) {
        /* a declaration another module defines is that function (find_callee); others have
         * nothing to run */
        const Func *def = ir_func_index_definition(&e->funcs, f)->f;
        if (def && !same_signature(f, def))
            fail(e, f->name_span, "codegen expects the declaration of '@%.*s' to have the signature of its definition",
                 (int)f->name.len, f->name.p);
        else if (!def)
            fail(e, f->name_span, "codegen does not support function declarations ('@%.*s' has no body)",
                 (int)f->name.len, f->name.p);
        return;
    }
    e->f = f;
    memset(&e->local, 0, sizeof e->local);
    e->body.len = 0;
    e->hoist.len = 0;
    e->calls = false;
    e->nbufs = 0;
    e->ndescs = 0;
    e->nentries = 0;
    size_t nv = f->nvalues ? f->nvalues : 1;
    e->buf_of = xmalloc(nv * sizeof *e->buf_of);
    e->bufs = xmalloc(nv * sizeof *e->bufs);
    e->cexpr = xcalloc(nv, sizeof *e->cexpr);
    e->csize = xcalloc(nv, sizeof *e->csize);
    e->ptr_arg = xmalloc(nv * sizeof *e->ptr_arg);
    e->uses = xcalloc(nv, sizeof *e->uses);
    e->returned = xcalloc(nv, sizeof *e->returned);
    e->rebound = xcalloc(nv, sizeof *e->rebound);
    const Block *entry = ir_entry(f);
    uint32_t nops = ir_number_ops(f);
    e->quant_origin = xmalloc((nops ? nops : 1) * sizeof *e->quant_origin);
    e->entries = xmalloc((entry->nargs + nops + 1) * sizeof *e->entries);
    for (uint32_t i = 0; i < nv; i++)
        e->buf_of[i] = e->ptr_arg[i] = -1;
    for (const Op *op = ir_first_op(f); op; op = ir_next_op(op)) {
        /* a binding that differs by iteration, branch or run: the buffer's descriptor is a local */
        if (op->kind == OP_TASSIGN && op->nopnds &&
            (ir_block_owner(op->parent) || (!op->has_tile_addr && !const_int(e, role(op, ROLE_ADDR), &(int64_t){0}))))
            e->rebound[op->opnds[0]] = true;
        e->quant_origin[op->index] = -1;
        for (uint32_t j = 0; j < op->nopnds; j++) {
            e->uses[op->opnds[j]]++;
            if (op->kind == OP_RETURN)
                e->returned[op->opnds[j]] = true;
        }
    }
    StrBuf tagb = {0};
    func_tag(&tagb, f->name);
    sb_putc(&tagb, '\0');
    /* descriptor names: ptoas_<func>_<value> */
    e->tag = arena_str(e, "ptoas%s%s_", tagb.p[0] == '_' ? "" : "_", tagb.p);

    /* parameters; piece[]: the wrapper's argument for each (NULL: none) */
    StrBuf params = {0}, call = {0};
    sb_puts(&params, "ptort_ctx *ctx");
    e->f_called = called_index(e, e->mod, f) >= 0;
    e->frame_fn = e->frame = NULL;
    e->first_call = e->computed_at = NULL;
    e->nrebind = 0;
    const char **piece = arena_alloc(&e->m->arena, (entry->nargs + f->nresults + 1) * sizeof *piece);
    uint32_t npieces = 0;
    if (e->f_called) { /* its frame's base: zero from the harness */
        e->base = unique_name(&e->local, "", "base", 4);
        sb_printf(&params, ", const int64_t *%s", e->base);
        sb_printf(&e->body, "    (void)%s;\n", e->base);
        piece[npieces++] = "ptoas_base0";
    }
    uint32_t first_arg_piece = npieces;
    for (uint32_t i = 0; i < entry->nargs; i++) {
        ValueId v = entry->args[i];
        const Value *x = val(e, v);
        const Type *t = x->type;
        piece[first_arg_piece + i] = NULL;
        npieces++;
        if (type_is_tile(t)) {
            Buf *b = &e->bufs[e->nbufs];
            memset(b, 0, sizeof *b);
            b->val = v;
            b->arg = (int)i;
            b->tb = &t->tile;
            b->desc = b->first_desc = -1;
            b->last_writer = NULL;
            b->origin = (int)i;
            b->parent = -1;
            b->approx = -1;
            add_entry(e, v, 0, (int)i);
            runtime_dtype(e, x->type_span, t->tile.dtype, HOLD_TILE); /* reported; uses go on */
            runtime_boxes(e, x->type_span, &t->tile);
            e->buf_of[v] = (int)e->nbufs++;
            if (e->f_called) {
                /* the caller's tile, in place: its descriptor is a parameter (the wrapper passes
                 * the one the harness fills, made at the argument's first binding below) */
                if (t->tile.vrow == DIM_DYNAMIC || t->tile.vcol == DIM_DYNAMIC)
                    fail(e, x->type_span, "codegen does not support tile arguments with a dynamic valid shape in a "
                         "called function");
                const char *pn = unique_name(&e->local, "p_", x->name.p, x->name.len);
                b->mut = unique_name(&e->local, "m_", x->name.p, x->name.len);
                sb_printf(&params, ", const ptort_tile *%s", pn);
                sb_printf(&e->body, "    ptort_tile %s = *%s;\n", b->mut, pn);
                continue;
            }
            if (e->rebound[v])
                make_mutable(e, e->buf_of[v]);
            if (t->tile.vrow == DIM_DYNAMIC || t->tile.vcol == DIM_DYNAMIC) {
                const char *n = unique_name(&e->local, "a_", x->name.p, x->name.len);
                const char *vr = unique_name(&e->local, n, "_valid_rows", 11);
                const char *vc = unique_name(&e->local, n, "_valid_cols", 11);
                sb_printf(&params, ", int64_t %s, int64_t %s", vr, vc);
                piece[first_arg_piece + i] = arena_str(e, "a[%u].valid_rows, a[%u].valid_cols", i, i);
                b->vr = t->tile.vrow == DIM_DYNAMIC ? vr : NULL;
                b->vc = t->tile.vcol == DIM_DYNAMIC ? vc : NULL;
                e->entries[i].flags |= PTORT_KARG_DYNAMIC;
                sb_printf(&e->body, "    (void)%s;\n    (void)%s;\n", vr, vc);
            }
        } else if (t && t->kind == TY_PTR) {
            if (t->ptr_space > PS_GM) {
                char tb[256];
                fail(e, x->type_span, "codegen supports pointers to global memory only, but got '%s'",
                     type_str(t, tb, sizeof tb));
            }
            const char *n = unique_name(&e->local, "a_", x->name.p, x->name.len);
            const char *sz = unique_name(&e->local, n, "_size", 5);
            sb_printf(&params, ", void *%s, size_t %s", n, sz);
            piece[first_arg_piece + i] = arena_str(e, "a[%u].ptr, a[%u].size", i, i);
            sb_printf(&e->body, "    (void)%s;\n    (void)%s;\n", n, sz);
            e->cexpr[v] = n;
            e->csize[v] = sz;
            e->ptr_arg[v] = (int)i;
            add_entry(e, v, 1, (int)i);
            runtime_dtype(e, x->type_span, t->dtype, HOLD_PTR);
        } else if (int_bits(t) || float_rt(t)) {
            const char *n = unique_name(&e->local, "a_", x->name.p, x->name.len);
            bool fl = float_rt(t) != NULL;
            sb_printf(&params, fl ? ", float %s" : ", int64_t %s", n);
            piece[first_arg_piece + i] = arena_str(e, fl ? "(float)a[%u].fscalar" : "a[%u].scalar", i);
            sb_printf(&e->body, "    (void)%s;\n", n);
            e->cexpr[v] = n;
            add_entry(e, v, 2, (int)i)->stype = dtype_name(t->dtype);
        } else {
            char tb[256];
            fail(e, x->type_span, "codegen does not support arguments of type '%s'", type_str(t, tb, sizeof tb));
            add_entry(e, v, 2, (int)i);
        }
    }
    /* scalar results: an out-parameter each (the wrapper passes locals it does not read) */
    StrBuf wrap = {0};
    e->ret_out = arena_alloc(&e->m->arena, (f->nresults ? f->nresults : 1) * sizeof *e->ret_out);
    for (uint32_t i = 0; i < f->nresults; i++) {
        const Type *t = f->results[i];
        e->ret_out[i] = NULL;
        if (type_is_tile(t))
            continue;
        if (!int_bits(t) && !float_rt(t)) {
            char tb[256];
            fail(e, f->name_span, "codegen does not support results of type '%s'", type_str(t, tb, sizeof tb));
            continue;
        }
        if (f == e->main_f && e->need_main)
            fail(e, f->name_span, "codegen cannot return scalars from the function ptoas run runs ('@%.*s'); "
                 "call it from another function", (int)f->name.len, f->name.p);
        char num[16];
        int nl = snprintf(num, sizeof num, "%u", i);
        e->ret_out[i] = unique_name(&e->local, "r_", num, (size_t)nl);
        sb_printf(&params, ", %s *%s", c_scalar_type(t), e->ret_out[i]);
        sb_printf(&wrap, "    %s r%u;\n", c_scalar_type(t), i);
        piece[npieces++] = arena_str(e, "&r%u", i);
    }
    emit_block(e, entry);
    if (e->first_call && e->computed_at)
        fail(e, e->first_call->name_span, "codegen does not support 'func.call' in a function that places a tile at "
             "a computed address (the callee's tiles go above the caller's, whose end must be known)");
    const Op *ret = entry->last && entry->last->kind == OP_RETURN ? entry->last : NULL;
    /* where results are read when there is no return: after the last op */
    const Op *end = ret ? ret : entry->last;

    /* results: written arguments, returned values, round trips */
    for (uint32_t i = 0; i < entry->nargs && !e->errors; i++) {
        Entry *en = &e->entries[i];
        int bi = e->buf_of[en->val];
        if (en->kind == 0 && bi >= 0) {
            /* an argument no op uses still has a declared shape to check --in against */
            if (e->bufs[bi].first_desc < 0 && e->bufs[bi].has_addr)
                cur_desc(e, bi, end, &e->bufs[bi].first_desc);
            en->in = e->bufs[bi].first_desc;
            if (e->bufs[bi].written) {
                en->flags |= PTORT_KARG_WRITTEN | PTORT_KARG_RESULT;
                cur_desc(e, bi, end, &en->out);
            }
        } else if (en->kind == 1 && (en->flags & PTORT_KARG_WRITTEN)) {
            en->flags |= PTORT_KARG_RESULT;
        }
        if (en->kind == 0 && e->f_called) /* the descriptor the harness fills */
            piece[first_arg_piece + i] =
                en->in >= 0 ? arena_str(e, "&%s", e->descs[en->in].name)
                            : arena_str(e, "&%s", type_desc(e, e->bufs[bi].tb, val(e, en->val)));
    }
    for (uint32_t i = 0; i < npieces; i++)
        if (piece[i])
            sb_printf(&call, "%s%s", call.len ? ", " : "", piece[i]);
    sb_putc(&call, '\0');
    if (ret && !e->errors) {
        for (uint32_t i = 0; i < ret->nopnds; i++) {
            int bi = e->buf_of[ret->opnds[i]];
            if (i < f->nresults && e->ret_out[i])
                continue; /* a scalar: its out-parameter */
            if (bi < 0) {
                fail(e, ret->name_span, "codegen can only return tile buffers");
                break;
            }
            Entry *en = buffer_entry(e, bi, ret->opnds[i]);
            en->flags |= PTORT_KARG_RESULT;
            if (!cur_desc(e, bi, ret, &en->out))
                break;
        }
    }
    for (uint32_t bi = 0; bi < e->nbufs && !e->errors; bi++) {
        Buf *b = &e->bufs[bi];
        if (b->approx < 0)
            continue;
        Entry *en = buffer_entry(e, (int)bi, b->approx_val);
        en->flags |= PTORT_KARG_RESULT;
        en->approximates = b->approx;
        if (en->out < 0 && end)
            cur_desc(e, (int)bi, end, &en->out);
    }

    /* Local buffers the kernel wrote can be read with --out (their bytes after
     * the run); when nothing else is a result, the last op's outputs are. */
    bool any_result = false;
    for (uint32_t i = 0; i < e->nentries; i++)
        any_result |= (e->entries[i].flags & PTORT_KARG_RESULT) != 0;
    const Op *last = NULL;
    for (const Op *op = ir_first_op(f); op; op = ir_next_op(op))
        if (op_info(op->kind)->opflags & OF_WRITES)
            last = op;
    for (uint32_t bi = 0; bi < e->nbufs && !e->errors; bi++) {
        Buf *b = &e->bufs[bi];
        if (b->arg >= 0 || !b->written)
            continue;
        Entry *en = buffer_entry(e, (int)bi, b->val);
        if (en->out < 0)
            cur_desc(e, (int)bi, end, &en->out);
        if (!any_result && last && b->last_writer == last) {
            const OpInfo *in = op_info(last->kind);
            ValueId vals[MAX_ROLES];
            ir_op_roles(last, vals);
            for (int r = in->nins; r < in->nroles; r++)
                if (vals[r] != NO_VALUE && e->buf_of[vals[r]] == (int)bi &&
                    !(in->flags[r] & (ROLE_SCRATCH | ROLE_TEMP)))
                    en->flags |= PTORT_KARG_RESULT;
        }
    }

    if (!e->errors) {
        StrBuf *c = &e->code;
        const char *kname = arena_str(e, "ptoas_k%s", tagb.p);
        sb_puts(c, "\n/* @");
        put_comment_text(c, f->name.p, f->name.len);
        sb_puts(c, " */\n");
        sb_putn(c, e->decls.p, e->decls.len);
        sb_printf(c, "\nint %s(%s)\n{\n", kname, params.p);
        if (e->calls)
            sb_puts(c, "    ptort_status st;\n");
        else
            sb_puts(c, "    (void)ctx;\n");
        sb_putn(c, e->hoist.p, e->hoist.len);
        put_indented(c, e->body.p, e->body.len);
        sb_puts(c, "    return PTORT_OK;\n}\n");
        if (e->frame_fn) {
            /* the end of its frame per loc: every placement of its own tiles, from BASE */
            sb_printf(c, "\nstatic void %s(const int64_t *base, int64_t *fr)\n{\n"
                         "    for (int l = 0; l < PTORT_NUM_LOCS; l++)\n        fr[l] = ptoas_frame_align(base[l]);\n",
                      e->frame_fn);
            for (uint32_t i = 0; i < e->ndescs; i++)
                if (e->descs[i].in_frame)
                    sb_printf(c, "    ptoas_frame_grow(fr, base, &%s, %s.addr);\n", e->descs[i].name, e->descs[i].name);
            for (uint32_t i = 0; i < e->nrebind; i++)
                sb_printf(c, "    ptoas_frame_grow(fr, base, &%s, %lld);\n", e->descs[e->rebind_desc[i]].name,
                          (long long)e->rebind_addr[i]);
            sb_puts(c, "}\n");
        }

        /* the harness's view of it */
        sb_printf(c, "\nint ptoas_run%s(ptort_ctx *ctx, const ptort_kernel_value *a)\n{\n", tagb.p);
        if (wrap.len)
            sb_putn(c, wrap.p, wrap.len);
        if (!strstr(call.p, "a["))
            sb_puts(c, "    (void)a;\n");
        sb_printf(c, "    return %s(ctx%s%s);\n}\n", kname, call.p[0] ? ", " : "", call.p);
        if (e->nentries) {
            sb_printf(c, "\nstatic const ptort_kernel_arg ptoas_kargs%s[] = {\n", tagb.p);
            static const char *const kinds[] = {"PTORT_KARG_TILE", "PTORT_KARG_PTR", "PTORT_KARG_SCALAR"};
            for (uint32_t i = 0; i < e->nentries; i++) {
                const Entry *en = &e->entries[i];
                const Value *x = val(e, en->val);
                sb_puts(c, "    {.name = ");
                put_c_string(c, x->name.p, x->name.len);
                sb_printf(c, ", .kind = %s, .arg = %d", kinds[en->kind], en->arg);
                if (en->kind != 2)
                    sb_printf(c, ", .dtype = %s", rt_dtype(en->dtype) ? rt_dtype(en->dtype) : "PTORT_NUM_DTYPES");
                else if (en->stype) /* a name from the dtype table */
                    sb_printf(c, ", .scalar_type = \"%s\"", en->stype);
                if (en->kind == 0) {
                    sb_puts(c, ", .in = ");
                    put_desc_ref(e, c, en->in);
                    sb_puts(c, ", .out = ");
                    put_desc_ref(e, c, en->out);
                }
                sb_puts(c, ", .flags = ");
                if (!en->flags)
                    sb_puts(c, "0");
                static const char *const fl[] = {"PTORT_KARG_WRITTEN", "PTORT_KARG_RESULT", "PTORT_KARG_DYNAMIC",
                                                 "PTORT_KARG_READ"};
                for (int j = 0, n = 0; j < 4; j++)
                    if (en->flags & (1u << j))
                        sb_printf(c, "%s%s", n++ ? " | " : "", fl[j]);
                sb_printf(c, ", .approximates = %d, .where = ", en->approximates);
                where(e, c, en->where);
                /* a result whose valid shape a scalar argument sets: the harness's
                 * statistics cover that region */
                int bi = en->kind == 0 ? e->buf_of[en->val] : -1;
                if (bi >= 0 && e->bufs[bi].arg < 0) {
                    int ra = scalar_arg_index(e, e->bufs[bi].vr_val), ca = scalar_arg_index(e, e->bufs[bi].vc_val);
                    if (ra >= 0)
                        sb_printf(c, ", .valid_rows_arg = %d", ra + 1);
                    if (ca >= 0)
                        sb_printf(c, ", .valid_cols_arg = %d", ca + 1);
                }
                sb_puts(c, "},\n");
            }
            sb_puts(c, "};\n");
        }
        static const char *const archs[] = {"PTORT_A2", "PTORT_A3", "PTORT_A5"};
        sb_printf(c, "\nconst ptort_kernel ptoas_kernel%s = {\n    .func = ", tagb.p);
        put_c_string(c, f->name.p, f->name.len);
        sb_puts(c, ",\n    .source = ");
        put_c_string(c, e->src->name, strlen(e->src->name));
        sb_printf(c, ",\n    .arch = %s,\n", archs[arch]);
        bool sizes = false;
        for (int i = 0; i < LOC_COUNT; i++)
            sizes |= e->cfg->mem_size[i] != 0;
        if (sizes) {
            sb_puts(c, "    .mem_size = {");
            for (int i = 0; i < LOC_COUNT; i++)
                sb_printf(c, "%s%llu", i ? ", " : "", (unsigned long long)e->cfg->mem_size[i]);
            sb_puts(c, "},\n");
        }
        sb_printf(c, "    .nargs = %u,\n    .nentries = %u,\n", entry->nargs, e->nentries);
        if (e->nentries)
            sb_printf(c, "    .entries = ptoas_kargs%s,\n", tagb.p);
        sb_printf(c, "    .run = ptoas_run%s,\n};\n", tagb.p);
        e->any_calls |= e->calls;
    }

    e->decls.len = 0;
    sb_free(&tagb);
    sb_free(&params);
    sb_free(&call);
    sb_free(&wrap);
    cnames_free(&e->local);
    free(e->buf_of);
    free(e->bufs);
    free(e->cexpr);
    free(e->csize);
    free(e->ptr_arg);
    free(e->uses);
    free(e->returned);
    free(e->rebound);
    free(e->quant_origin);
    free(e->entries);
    free(e->descs);
    e->descs = NULL;
    e->descs_cap = 0;
}

/* What each called function does to its arguments, through its own calls too: a fixed
 * point over the call graph. The verifier rejected cycles, so taking the functions callees
 * first (Kahn's algorithm over the calls) reaches it in one pass; the loop only confirms it. */
static void call_effects(Emit *e)
{
    const Module *m = e->m;
    uint32_t n = e->ncalled;
    e->eff = xcalloc(n ? n : 1, sizeof *e->eff);
    for (uint32_t i = 0; i < n; i++)
        e->eff[i] = xcalloc(ir_entry(e->called[i])->nargs + 1, 1);
    /* mods[i]: each called function's module; edges caller -> called callee */
    const ModuleOp **mods = xcalloc(n ? n : 1, sizeof *mods);
    uint32_t *pending = xcalloc(n ? n : 1, sizeof *pending), *order = xmalloc((n ? n : 1) * sizeof *order);
    uint32_t *from = NULL, *to = NULL, len = 0, cap = 0, norder = 0;
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++) {
            int fi = called_index(e, m->mods[i], m->mods[i]->funcs[j]);
            if (fi < 0)
                continue;
            mods[fi] = m->mods[i];
            for (const Op *op = ir_first_op(m->mods[i]->funcs[j]); op; op = ir_next_op(op)) {
                int gi = op->kind == OP_CALL ? called_at(e, callee_slot(e, m->mods[i], callee_name(op))) : -1;
                if (gi < 0)
                    continue;
                if (len == cap) {
                    cap = cap ? 2 * cap : 64;
                    from = xrealloc(from, cap * sizeof *from);
                    to = xrealloc(to, cap * sizeof *to);
                }
                from[len] = (uint32_t)fi, to[len++] = (uint32_t)gi;
                pending[fi]++;
            }
        }
    /* callers of each function: by[off[g] .. off[g+1]) */
    uint32_t *off = xcalloc(n + 1, sizeof *off), *by = xmalloc((len ? len : 1) * sizeof *by);
    for (uint32_t k = 0; k < len; k++)
        off[to[k] + 1]++;
    for (uint32_t g = 0; g < n; g++)
        off[g + 1] += off[g];
    uint32_t *fill = xmalloc((n ? n : 1) * sizeof *fill);
    memcpy(fill, off, n * sizeof *fill);
    for (uint32_t k = 0; k < len; k++)
        by[fill[to[k]]++] = from[k];
    for (uint32_t i = 0; i < n; i++)
        if (pending[i] == 0)
            order[norder++] = i;
    for (uint32_t h = 0; h < norder; h++)
        for (uint32_t k = off[order[h]]; k < off[order[h] + 1]; k++)
            if (--pending[by[k]] == 0)
                order[norder++] = by[k];
    for (uint32_t i = 0; i < n; i++) /* only on a cycle, which the verifier rejects */
        if (pending[i] != 0)
            order[norder++] = i;
    for (bool grew = true; grew;) {
        grew = false;
        for (uint32_t h = 0; h < norder; h++)
            if (mods[order[h]])
                grew |= func_effects(e, mods[order[h]], e->called[order[h]], (int)order[h]);
    }
    free(mods);
    free(pending);
    free(order);
    free(from);
    free(to);
    free(off);
    free(by);
    free(fill);
}

/* ---- modules ------------------------------------------------------------------------ */

static bool has_entry_attr(const Func *f) { return ir_attr_find(f->attrs, f->nattrs, "pto.entry") != NULL; }

const Func *emit_pick_func(const Module *m, const char *name, char *why, size_t size)
{
    const Func *only = NULL, *entry = NULL, *decl = NULL;
    unsigned count = 0, entries = 0;
    StrBuf names = {0};
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++) {
            const Func *f = m->mods[i]->funcs[j];
            if (name && str_eq(f->name, name, strlen(name)) && !f->decl) {
                sb_free(&names);
                return f;
            }
            if (name && str_eq(f->name, name, strlen(name)) && !decl)
                decl = f; /* a definition of the name wins, wherever it is */
            sb_printf(&names, "%s@%.*s", count ? ", " : "", (int)f->name.len, f->name.p);
            only = f;
            count++;
            if (has_entry_attr(f)) {
                entry = f;
                entries++;
            }
        }
    const Func *r = NULL;
    if (decl)
        r = decl;
    else if (name)
        snprintf(why, size, "no function '@%s' in the input (functions: %s)", name, count ? names.p : "none");
    else if (count == 0)
        snprintf(why, size, "the input has no function to run");
    else if (count == 1)
        r = only;
    else if (entries == 1)
        r = entry;
    else
        snprintf(why, size, "the input has several functions (%s) and %s; choose one with --func NAME", names.p,
                 entries ? "several are marked pto.entry" : "none is marked pto.entry");
    sb_free(&names);
    return r;
}

bool emit_c(FILE *out, Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg, bool need_main)
{
    Emit e;
    memset(&e, 0, sizeof e);
    e.m = m;
    e.src = src;
    e.d = d;
    e.cfg = cfg;
    char why[1024];
    const Func *main_f = emit_pick_func(m, cfg->func, why, sizeof why);
    if (!main_f && (need_main || cfg->func)) {
        diag_flush(d); /* the message goes after the diagnostics already reported */
        diag_tool_error("%s", why);
        return false;
    }
    /* the kernels' own names first, so that descriptor names avoid them; sibling modules
     * may define the same symbol (each module is its own symbol table), one C program not */
    CNames defined = {0};
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++) {
            const Func *f = m->mods[i]->funcs[j];
            if (!f->decl) {
                StrBuf b = {0};
                func_tag(&b, f->name);
                sb_putc(&b, '\0');
                if (cnames_has(&defined, b.p)) {
                    fail(&e, f->name_span, "codegen does not support two functions named '@%.*s' (in different modules)",
                         (int)f->name.len, f->name.p);
                    free(b.p);
                } else
                    cnames_add(&defined, b.p);
            }
            static const char *const kinds[] = {"ptoas_k", "ptoas_run", "ptoas_kargs", "ptoas_kernel"};
            for (int k = 0; k < 4; k++) {
                StrBuf b = {0};
                sb_puts(&b, kinds[k]);
                func_tag(&b, f->name);
                sb_putc(&b, '\0');
                if (cnames_has(&e.global, b.p))
                    free(b.p);
                else
                    cnames_add(&e.global, b.p);
            }
        }
    cnames_free(&defined);
    for (const char *const *n = (const char *const[]){"ptoas_fail", "ptoas_bad_step", "ptoas_f32_bits",
                                                       "ptoas_base0", "ptoas_frame_align",
                                                       "ptoas_frame_grow", "main", NULL};
         *n; n++)
        cnames_add(&e.global, strcpy(xmalloc(strlen(*n) + 1), *n));
    e.main_f = main_f;
    e.need_main = need_main;
    /* the functions some func.call names, and their prototypes */
    ir_func_index_init(&e.funcs, m);
    uint32_t nfuncs = 0;
    for (uint32_t i = 0; i < m->nmods; i++)
        nfuncs += m->mods[i]->nfuncs;
    e.called_at = xmalloc((nfuncs + 1) * sizeof *e.called_at);
    memset(e.called_at, 0xff, (nfuncs + 1) * sizeof *e.called_at);
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++)
            for (const Op *op = ir_first_op(m->mods[i]->funcs[j]); op; op = ir_next_op(op)) {
                const FuncSlot *g = op->kind == OP_CALL ? callee_slot(&e, m->mods[i], callee_name(op)) : NULL;
                if (!g || !g->f || called_at(&e, g) >= 0)
                    continue;
                e.called = xrealloc(e.called, (e.ncalled + 1) * sizeof *e.called);
                e.called_at[g->all] = (int32_t)e.ncalled;
                e.called[e.ncalled++] = g->f;
                put_proto(&e, g->f);
            }
    call_effects(&e);

    for (uint32_t i = 0; i < m->nmods; i++) {
        const ModuleOp *mod = m->mods[i];
        Arch arch = module_arch(mod->implicit ? NULL : mod, cfg);
        e.mod = mod;
        for (uint32_t j = 0; j < mod->nfuncs; j++)
            emit_func(&e, mod->funcs[j], arch);
    }

    bool ok = !e.errors;
    if (ok) {
        StrBuf h = {0};
        sb_printf(&h, "/* Generated by ptoas %s from ", PTOAS_VERSION);
        put_c_string_in(&h, src->name, strlen(src->name), true);
        sb_puts(&h, " (--emit=c); do not edit.\n"
                    " * Build: cc -std=c11 -O2 -I<prefix>/include FILE.c <prefix>/lib/libptort.a -lm\n"
                    " * Define PTOAS_NO_MAIN to link the kernels into another program. */\n"
                    "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include \"ptort.h\"\n");
        if (e.any_calls)
            sb_puts(&h, "\n/* Reports a failed runtime call at its op and passes the status on. */\n"
                        "static int ptoas_fail(ptort_ctx *ctx, ptort_status st, const char *where)\n{\n"
                        "    fprintf(stderr, \"%s: runtime error: %s\\n\", where, ptort_error(ctx));\n"
                        "    return (int)st;\n}\n");
        if (e.any_fbits)
            sb_puts(&h, "\n/* The bits of an f32 scalar, for a tile op's scalar operand. */\n"
                        "static uint32_t ptoas_f32_bits(float f)\n{\n"
                        "    union {\n        float f;\n        uint32_t u;\n    } x = {.f = f};\n"
                        "    return x.u;\n}\n");
        if (e.protos.len) {
            sb_printf(&h, "\n/* The called functions (a call may come before the definition). */\n%.*s",
                      (int)e.protos.len, e.protos.p);
            sb_puts(&h, "\n/* Frames: a called function's tiles lie above its caller's, from the base it is given\n"
                        " * per loc (zeros for the function ptoas run runs), in 512-byte steps (every loc's\n"
                        " * alignment). */\n"
                        "static const int64_t ptoas_base0[PTORT_NUM_LOCS];\n\n"
                        "static inline int64_t ptoas_frame_align(int64_t a)\n{\n    return (a + 511) / 512 * 512;\n}\n\n"
                        "/* Raises FR[T's loc] to the end of T's bytes placed at ADDR above BASE. */\n"
                        "static inline void ptoas_frame_grow(int64_t *fr, const int64_t *base, const ptort_tile *t, int64_t addr)\n{\n"
                        "    int64_t end = ptoas_frame_align(base[t->loc] + addr + ptort_tile_bytes(t));\n"
                        "    if (end > fr[t->loc])\n        fr[t->loc] = end;\n}\n");
        }
        if (e.any_step)
            sb_puts(&h, "\n/* An scf.for whose step is not positive: a runtime error at the op. */\n"
                        "static int ptoas_bad_step(const char *where, int64_t step)\n{\n"
                        "    fprintf(stderr, \"%s: runtime error: 'scf.for' step must be positive, but got %lld\\n\", where,\n"
                        "            (long long)step);\n"
                        "    return (int)PTORT_E_ARG;\n}\n");
        fwrite(h.p, 1, h.len, out);
        if (e.code.len)
            fwrite(e.code.p, 1, e.code.len, out);
        sb_free(&h);
        if (main_f) {
            StrBuf t = {0};
            func_tag(&t, main_f->name);
            fprintf(out,
                    "\n#ifndef PTOAS_NO_MAIN\nint main(int argc, char **argv)\n{\n"
                    "    return ptort_run_main(argc, argv, &ptoas_kernel%.*s);\n}\n#endif\n",
                    (int)t.len, t.p);
            sb_free(&t);
        } else {
            StrBuf w = {0}; /* the reason names functions */
            put_comment_text(&w, why, strlen(why));
            fprintf(out, "\n/* no main(): %.*s */\n", (int)w.len, w.p);
            sb_free(&w);
        }
    }
    sb_free(&e.decls);
    sb_free(&e.code);
    sb_free(&e.body);
    sb_free(&e.hoist);
    sb_free(&e.protos);
    for (uint32_t i = 0; i < e.ncalled; i++)
        free(e.eff[i]);
    free(e.eff);
    free(e.called);
    free(e.called_at);
    ir_func_index_free(&e.funcs);
    free(e.rebind_desc);
    free(e.rebind_addr);
    cnames_free(&e.global);
    return ok;
}
