/* emit_ops.c - codegen of one op that is not control flow (emit_op): tile descriptors
 * and their bindings, tensor views and tile views, pto.alloc_tile, pto.tassign, the
 * compute ops (one runtime call each, driven by ops.def), the scalar ops and
 * arith.constant. Every line goes into the function body at one level; emit_flow.c
 * nests it (emit_int.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arith.h"
#include "emit_int.h"
#include "pipe.h"
#include "ptort.h"
#include "target.h"

/* ---- enum spellings ---------------------------------------------------------- */

/* False (reported at AT) when the runtime has no dtype for D in a holder of kind H: the
 * newer PTOAS element types (hif8, f8E4M3, f64, ...) parse and verify, but nothing can
 * compute them. */
bool emit_runtime_dtype(Emit *e, Span at, DType d, Holder h)
{
    static const char *const what[] = {"tiles of", "tensor views of", "pointers to"};
    if (rt_dtype(d) && !(h == HOLD_TILE && dtype_bits(d) == 64))
        return true;
    return emit_fail(e, at, "%s %s cannot be executed: the runtime has no arithmetic for this dtype", what[h],
                     dtype_name(d));
}

/* False (reported at AT) when a boxed tile argument outside vec does not hold whole inner
 * boxes: PTOAS checks boxes on alloc_tile only, so it verifies, but the runtime addresses
 * mat/left/right/acc/... tiles box by box (docs/verify.md 1). */
bool emit_runtime_boxes(Emit *e, Span at, const TileBody *t)
{
    if (t->slayout == SL_NONE_BOX || t->loc == LOC_VEC)
        return true;
    int64_t ir, ic;
    tile_inner_box(t, &ir, &ic);
    if ((t->rows % ir == 0 || t->rows == 1 || t->fractal == 32) && t->cols % ic == 0)
        return true;
    return emit_fail(e, at, "a boxed %s tile of %lldx%lld cannot be executed: the runtime needs whole %lldx%lld boxes",
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
    d->name = emit_unique_name(&e->global, e->tag, v->name.p, v->name.len);
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
bool emit_cur_desc(Emit *e, int bi, const Op *op, int *out)
{
    Buf *b = &e->bufs[bi];
    if (!b->has_addr) {
        if (!b->reported) {
            const Value *v = val(e, b->val);
            emit_fail(e, op->name_span, "codegen requires an address for '%%%.*s' (run with --pto-level=level2 or give addr)",
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
void emit_make_mutable(Emit *e, int bi)
{
    Buf *b = &e->bufs[bi];
    int di = b->desc >= 0 ? b->desc : (b->desc = new_desc(e, b));
    if (b->first_desc < 0)
        b->first_desc = di;
    const Value *x = val(e, b->val);
    b->mut = emit_unique_name(&e->local, "m_", x->name.p, x->name.len);
    sb_printf(&e->body, "    ptort_tile %s = %s;\n", b->mut, e->descs[di].name);
}

/* The C expression of a pointer to tile value v's descriptor, for a call in
 * op; NULL (reported) when it has none. */
const char *emit_use_tile(Emit *e, ValueId v, const Op *op)
{
    int bi = e->buf_of[v];
    if (bi < 0) {
        const Value *x = val(e, v);
        emit_fail(e, op->name_span, "codegen expects '%%%.*s' to be a tile buffer", (int)x->name.len, x->name.p);
        return NULL;
    }
    if (e->bufs[bi].view)
        return emit_arena_str(e, "&%s", e->bufs[bi].view);
    if (e->bufs[bi].mut)
        return emit_arena_str(e, "&%s", e->bufs[bi].mut);
    int di;
    if (!emit_cur_desc(e, bi, op, &di))
        return NULL;
    Desc *d = &e->descs[di];
    Buf *b = &e->bufs[bi];
    if (!b->vr && !b->vc)
        return emit_arena_str(e, "&%s", d->name);
    if (!d->local) {
        const Value *x = val(e, b->val);
        d->local = emit_unique_name(&e->local, "t_", x->name.p, x->name.len);
        sb_printf(&e->body, "    ptort_tile %s = %s;\n", d->local, d->name);
        if (b->vr)
            sb_printf(&e->body, "    %s.valid_rows = %s;\n", d->local, b->vr);
        if (b->vc)
            sb_printf(&e->body, "    %s.valid_cols = %s;\n", d->local, b->vc);
    }
    return emit_arena_str(e, "&%s", d->local);
}

/* ---- scalars ---------------------------------------------------------------------- */

/* The C expression of a scalar value: a literal for arith.constant, a parameter
 * for an argument, a local for a scalar op's result. */
const char *emit_scalar(Emit *e, ValueId v, const Op *op)
{
    if (e->cexpr[v] && val(e, v)->type && val(e, v)->type->kind == TY_SCALAR)
        return e->cexpr[v];
    const Value *x = val(e, v);
    emit_fail(e, op->name_span, "codegen expects '%%%.*s' to be a scalar it computes (a constant, an argument or a scalar op's result)",
              (int)x->name.len, x->name.p);
    return NULL;
}
/* ---- the race checker (docs/launch.md 5) ---------------------------------------------- */

/* `"%NAME"` of value v, escaped: the operand as the report names it. */
static void race_name(Emit *e, StrBuf *b, ValueId v)
{
    StrBuf n = {0};
    sb_putc(&n, '%');
    sb_putn(&n, val(e, v)->name.p, val(e, v)->name.len);
    emit_c_string(b, n.p, n.len);
    sb_free(&n);
}

/* The op's accesses, derived from its operand roles alone: every tile and view of an ins
 * role is read, of an outs role written (a tmp too: the hardware writes it). Only operands
 * that already have a descriptor, so that nothing is reported twice. */
static int race_role_refs(Emit *e, const Op *op, StrBuf *refs)
{
    const OpInfo *in = op_info(op->kind);
    int n = 0;
    uint32_t at = 0;
    for (int r = 0; r < in->nroles; r++)
        for (uint32_t i = 0; i < op->seg[r]; i++, at++) {
            ValueId v = op->opnds[at];
            if ((in->flags[r] & ROLE_NUM) || v == NO_VALUE)
                continue;
            const Type *t = val(e, v)->type;
            int bi = e->buf_of[v];
            const char *c = NULL, *field = "tile";
            if (type_is_tile(t) && bi >= 0 && (e->bufs[bi].view || e->bufs[bi].mut || e->bufs[bi].has_addr))
                c = emit_use_tile(e, v, op);
            else if (t && (t->kind == TY_TENSOR_VIEW || t->kind == TY_PART_VIEW) && e->cexpr[v]) {
                c = emit_arena_str(e, "&%s", e->cexpr[v]);
                field = "view";
            }
            if (!c)
                continue;
            sb_printf(refs, "%s{.%s = %s, .name = ", n ? ", " : "", field, c);
            race_name(e, refs, v);
            sb_puts(refs, (in->flags[r] & ROLE_OUT) ? ", .write = 1}" : "}");
            n++;
        }
    return n;
}

/* pto.load_scalar / store_scalar: the element's bytes behind the pointer (PTR, at element
 * INDEX of BYTES bytes). */
static int race_scalar_ref(Emit *e, const Op *op, StrBuf *refs, const char *ptr, const char *index, int bytes)
{
    sb_printf(refs, "{.gm = %s, .gm_off = (int64_t)(%s) * %d, .gm_bytes = %d, .name = ", ptr, index, bytes, bytes);
    race_name(e, refs, op->opnds[0]);
    sb_puts(refs, op->kind == OP_STORE_SCALAR ? ", .write = 1}" : "}");
    return 1;
}

/* Before op's runtime call: its pipe, accesses and location to the checker, whose report
 * stops the run at the op. N accesses are in REFS. */
static void race_call(Emit *e, const Op *op, Pipe p, const StrBuf *refs, int n)
{
    const char *name = op_info(op->kind)->name;
    sb_printf(&e->body, "    st = ptort_race_op(ctx, %d, ", (int)p);
    emit_where(e, &e->body, op->name_span);
    sb_puts(&e->body, ", ");
    emit_c_string(&e->body, name, strlen(name));
    sb_printf(&e->body, ", %d, (const ptort_race_ref[]){%.*s});\n", n, (int)refs->len, refs->p);
    sb_puts(&e->body, "    if (st != PTORT_OK)\n        return ptoas_fail(ctx, st, ");
    emit_where(e, &e->body, op->name_span);
    sb_puts(&e->body, ");\n");
    e->calls = true;
}

/* The checker's call for op, once, in a checked function (e->race); SCALAR_* for
 * load_scalar / store_scalar. */
static void race_hook(Emit *e, const Op *op, const char *scalar_ptr, const char *scalar_index, int scalar_bytes)
{
    if (!e->race || e->race_op == op)
        return;
    e->race_op = op;
    Pipe p = op_pipe(e->f, op);
    OpClass cls = op_info(op->kind)->cls;
    if (p == PIPE_NONE || p == PIPE_ALL || cls == OC_CALL || cls == OC_SYNC || cls == OC_RETURN)
        return;
    StrBuf refs = {0};
    int n = scalar_ptr ? race_scalar_ref(e, op, &refs, scalar_ptr, scalar_index, scalar_bytes)
                       : race_role_refs(e, op, &refs);
    if (n)
        race_call(e, op, p, &refs, n);
    sb_free(&refs);
}

/* A flag, barrier, event or buffer token: the order it makes, to the checker. The
 * cross-core ops (sync.set, sync.wait, syncall) are the launch's. */
static void emit_race_sync(Emit *e, const Op *op)
{
    static const char *const kinds[] = {"PTORT_RACE_SET_FLAG", "PTORT_RACE_WAIT_FLAG", "PTORT_RACE_BARRIER",
                                        "PTORT_RACE_GET_BUF", "PTORT_RACE_RLS_BUF"};
    SyncOrder o;
    if (!e->race || !sync_order(op, &o))
        return;
    const char *id = o.id_val != NO_VALUE ? emit_scalar(e, o.id_val, op) : emit_arena_str(e, "%lld", (long long)o.id);
    if (!id)
        return;
    uint32_t line, col;
    source_line_col(e->src, op->name_span.begin, &line, &col);
    sb_printf(&e->body, "    /* %u:%u %s */\n", line + 1, col + 1, op_info(op->kind)->name);
    sb_printf(&e->body, "    ptort_race_sync(ctx, %s, %d, %d, (int64_t)(%s));\n", kinds[o.kind], (int)o.pipe,
              o.dst == PIPE_NONE ? -1 : (int)o.dst, id);
}

/* ---- ops ----------------------------------------------------------------------- */

static void begin_call(Emit *e, const Op *op)
{
    uint32_t line, col;
    source_line_col(e->src, op->name_span.begin, &line, &col);
    sb_printf(&e->body, "    /* %u:%u %s */\n", line + 1, col + 1, op_info(op->kind)->name);
    race_hook(e, op, NULL, NULL, 0);
    sb_puts(&e->body, "    st = ");
    e->calls = true;
}

static void end_call(Emit *e, const Op *op)
{
    sb_puts(&e->body, ";\n    if (st != PTORT_OK)\n        return ptoas_fail(ctx, st, ");
    emit_where(e, &e->body, op->name_span);
    sb_puts(&e->body, ");\n");
}

/* For the op files of the parallel lines of work (emit_int.h). */
void emit_begin_call(Emit *e, const Op *op) { begin_call(e, op); }
void emit_end_call(Emit *e, const Op *op) { end_call(e, op); }
static void mark_written(Emit *e, const Op *op);
void emit_mark_written(Emit *e, const Op *op) { mark_written(e, op); }

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
    if (a && a->val->kind == AV_OPAQUE && enum_info[k].kept) {
        /* a kept kind (#pto<cmp lt>, #pto.cmp<lt>): the word before the closing '>' */
        Str t = a->val->u.s;
        size_t e = t.len && t.p[t.len - 1] == '>' ? t.len - 1 : t.len, b = e;
        while (b > 0 && t.p[b - 1] != ' ' && t.p[b - 1] != '<')
            b--;
        int v = enum_lookup(k, t.p + b, e - b);
        return v >= 0 ? v : dflt;
    }
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
        return emit_arena_str(e, "&%s", e->cexpr[v]);
    emit_fail(e, op->name_span, "codegen expects '%%%.*s' to be a tensor view made in this function", (int)x->name.len,
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
        return emit_fail(e, op->name_span, "codegen supports tensor views of rank 1 to %d, but got rank %u", PTORT_VIEW_MAX_RANK,
                         rank);
    const char **x = out + (rank == 1);
    if (n == rank) {
        for (uint32_t i = 0; i < rank; i++)
            if (!(x[i] = emit_scalar(e, opnds[i], op)))
                return 0;
    } else if (n == 0 && dflt0) {
        for (uint32_t i = 0; i < rank; i++) {
            if (t->dims[i] == DIM_DYNAMIC)
                return emit_fail(e, op->name_span, "codegen needs the %s of '%s' (the type has a dynamic dimension)", what,
                                 op_info(op->kind)->name);
            x[i] = emit_arena_str(e, "%lld", (long long)t->dims[i]);
        }
    } else {
        return emit_fail(e, op->name_span, "codegen expects %u %s operands, but got %u", rank, what, n);
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
    const char *r = emit_arena_str(e, "%.*s", (int)b.len, b.p);
    sb_free(&b);
    return r;
}

static void emit_make_view(Emit *e, const Op *op)
{
    ValueId r = op->res[0], p = op->opnds[0];
    const Type *t = val(e, r)->type;
    if (!e->csize[p]) {
        const Value *x = val(e, p);
        emit_fail(e, op->name_span, "codegen expects '%%%.*s' to be a !pto.ptr argument", (int)x->name.len, x->name.p);
        return;
    }
    if (!emit_runtime_dtype(e, op->name_span, t->dtype, HOLD_VIEW))
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
            strides[k] = k == rank - 2 ? shape[k + 1] : emit_arena_str(e, "(%s) * (%s)", shape[k + 1], strides[k + 1]);
    }
    const Value *x = val(e, r);
    const char *name = emit_unique_name(&e->local, "v_", x->name.p, x->name.len);
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
        emit_fail(e, op->name_span, "codegen expects 'pto.partition_view' to keep its view's rank %u, but got rank %u",
                  st->rank, t->rank);
        return;
    }
    if (!off[0])
        off[0] = "0";
    const Value *x = val(e, r);
    const char *name = emit_unique_name(&e->local, "v_", x->name.p, x->name.len);
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
static const char *const rt_cmp[] = {"PTORT_CMP_EQ", "PTORT_CMP_NE", "PTORT_CMP_LT",
                                     "PTORT_CMP_LE", "PTORT_CMP_GT", "PTORT_CMP_GE"};

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
    [RA_CMP_MODE] = {"cmpMode", NULL, EK_CMP_MODE, 0, 6, rt_cmp},
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
    bool fsrc = x->type && x->type->kind == TY_SCALAR && emit_float_rt(x->type);
    if (c && c->kind == AV_FLOAT && fdst) {
        /* a constant: its value (the literal rounded to its type, or its bits) rounded to d */
        DType s = x->type ? x->type->dtype : DT_F64;
        if (c->u.f.bits && s == d && s != DT_F32)
            return emit_arena_str(e, "0x%llxu", (unsigned long long)c->u.f.raw);
        double f = c->u.f.d;
        if (c->u.f.bits && fsrc) {
            f = float_value(c->u.f.raw, s);
        } else if (c->u.f.bits && s != DT_F64) {
            emit_fail(e, op->name_span, "codegen supports a bit-pattern scalar of f16, bf16, f32 or f64 only");
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
        return emit_arena_str(e, "0x%08xu", bits);
    }
    if (fdst && fsrc) {
        /* its value rounded once to the tile's type (exact when the types are the same) */
        const char *sx = emit_scalar(e, v, op);
        if (!sx)
            return NULL;
        if (d == DT_F32) {
            e->any_fbits = true;
            return emit_arena_str(e, "ptoas_f32_bits(%s)", sx);
        }
        return emit_arena_str(e, "(uint32_t)ptort_f32_to_%s(%s)", d == DT_F16 ? "f16" : "bf16", sx);
    }
    if (fdst || (c && c->kind != AV_INT) || !x->type || x->type->kind != TY_SCALAR || dtype_is_float(x->type->dtype)) {
        emit_fail(e, op->name_span, "codegen expects '%%%.*s' to be an f16, bf16 or f32 scalar for a tile of floats, or an "
             "integer for a tile of integers", (int)x->name.len, x->name.p);
        return NULL;
    }
    const char *s = emit_scalar(e, v, op);
    return s ? emit_arena_str(e, "(uint32_t)(%s)", s) : NULL;
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
        emit_fail(e, op->name_span, "codegen requires the '%s' operand of '%s'", in->role[r], in->name);
        return NULL;
    }
    if (fl & ROLE_GM)
        return use_view(e, v, op);
    if (fl & ROLE_NUM) {
        /* a tile-scalar op's scalar (tlrelu: its slope) as the bits of one dst element (tcmps:
         * of one src element, dst being the mask) */
        RoleId like = in->cls == OC_CMP ? ROLE_SRC : ROLE_DST;
        return in->rid[r] == ROLE_SCALAR || in->rid[r] == ROLE_SLOPE ? scalar_bits(e, v, val(e, role(op, like))->type->tile.dtype, op)
                                         : emit_scalar(e, v, op);
    }
    return emit_use_tile(e, v, op);
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

static bool int_w32(DType d) { return d == DT_I32 || d == DT_SI32 || d == DT_UI32; }

/* tgather's mask-pattern form: the pattern and the axis as the runtime's constants (the
 * row's first two arguments). */
static bool gather_mask_args(Emit *e, const Op *op, OpArg *args)
{
    static const char *const pats[] = {"P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111"};
    static const char *const lits[] = {"PTORT_MASK_P0101", "PTORT_MASK_P1010", "PTORT_MASK_P0001", "PTORT_MASK_P0010",
                                       "PTORT_MASK_P0100", "PTORT_MASK_P1000", "PTORT_MASK_P1111"};
    const Attr *m = ir_attr_find(op->attrs, op->nattrs, "maskPattern");
    const Attr *ax = ir_attr_find(op->attrs, op->nattrs, "axis");
    int k = -1;
    if (m && m->val && m->val->kind == AV_OPAQUE)
        for (int i = 0; i < 7; i++)
            if (m->val->u.s.len >= 6 && memcmp(m->val->u.s.p + m->val->u.s.len - 6, pats[i], 5) == 0)
                k = i;
    if (k < 0 || !ax || !ax->val || ax->val->kind != AV_STRING)
        return emit_fail(e, op->name_span, "codegen expects 'pto.tgather' to have a mask pattern and an axis");
    args[0] = (OpArg){ARG_LIT, -1, RA_COUNT, lits[k], k + 1};
    args[1] = (OpArg){ARG_LIT, -1, RA_COUNT, STR_EQ_LIT(ax->val->u.s, "col") ? "1" : "0", 0};
    return true;
}

/* The index of an enum attribute's value word (kept as written, `#pto<K word>`) in words,
 * or 0 (the default) when absent. */
static int opaque_index(const Op *op, const char *key, const char *const *words, int n)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    if (!a || !a->val || a->val->kind != AV_OPAQUE)
        return 0;
    Str t = a->val->u.s;
    for (int k = n - 1; k > 0; k--) {
        size_t w = strlen(words[k]);
        if (t.len >= w + 1 && memcmp(t.p + t.len - w - 1, words[k], w) == 0 && t.p[t.len - 1] == '>' &&
            (t.p[t.len - w - 2] == ' ' || t.p[t.len - w - 2] == '<'))
            return k;
    }
    return 0;
}

/* mgather / mscatter: the coalesce mode (omitted, mscatter's: row, pto-isa's NPU default), the
 * out-of-bounds mode and mscatter's atomic op as
 * the runtime's PTORT_COALESCE_*, PTORT_OOB_* and PTORT_ATOMIC_* (the row's leading NULLs) */
static bool mgather_args(Emit *e, const Op *op, OpArg *args)
{
    static const char *const coal[] = {"row", "elem"}, *const goob[] = {"undefined", "clamp", "wrap", "zero"},
                             *const soob[] = {"undefined", "skip", "clamp", "wrap"},
                             *const atom[] = {"none", "add", "max", "min"};
    static const char *const lcoal[] = {"PTORT_COALESCE_ROW", "PTORT_COALESCE_ELEM"},
                             *const loob[] = {"PTORT_OOB_UNDEFINED", "PTORT_OOB_CLAMP", "PTORT_OOB_WRAP",
                                              "PTORT_OOB_ZERO", "PTORT_OOB_SKIP"},
                             *const latom[] = {"PTORT_ATOMIC_NONE", "PTORT_ATOMIC_ADD", "PTORT_ATOMIC_MAX",
                                               "PTORT_ATOMIC_MIN"};
    (void)e;
    bool gather = op_info(op->kind)->cls == OC_MGATHER;
    int c = opaque_index(op, "coalesce", coal, 2);
    args[0] = (OpArg){ARG_LIT, -1, RA_COUNT, lcoal[c], c};
    if (gather) {
        int o = opaque_index(op, "gatherOob", goob, 4);
        args[1] = (OpArg){ARG_LIT, -1, RA_COUNT, loob[o], o};
        return true;
    }
    int a = opaque_index(op, "scatterAtomicOp", atom, 4), o = opaque_index(op, "scatterOob", soob, 4);
    static const int sk[] = {0, 4, 1, 2}; /* scatter_oob's order: undefined skip clamp wrap */
    args[1] = (OpArg){ARG_LIT, -1, RA_COUNT, latom[a], a};
    args[2] = (OpArg){ARG_LIT, -1, RA_COUNT, loob[sk[o]], sk[o]};
    return true;
}

/* An acc-source move with relu or a preQuantScalar: ptort_tmove_fix (docs/numerics.md 8.6),
 * whose runtime checks the element-type pair. False for the plain forms. */
static bool fix_form(Emit *e, const Op *op, ptort_move_kind kind, const char **rt, OpArg *args, int *nargs)
{
    static const char *const kinds[] = {"PTORT_MOVE_TMOV", "PTORT_MOVE_TEXTRACT", "PTORT_MOVE_TINSERT"};
    bool relu = opaque_set(op, "reluPreMode", "no_relu");
    bool quant = role(op, ROLE_PRE_QUANT_SCALAR) != NO_VALUE;
    (void)e;
    if (!relu && !quant)
        return false;
    *rt = "ptort_tmove_fix";
    args[0] = (OpArg){ARG_LIT, -1, RA_COUNT, kinds[kind], (int)kind};
    args[1] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_SRC), RA_COUNT, NULL, 0};
    args[2] = kind == PTORT_MOVE_TMOV ? (OpArg){ARG_LIT, -1, RA_COUNT, "0", 0}
                                      : (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_INDEX_ROW), RA_COUNT, NULL, 0};
    args[3] = kind == PTORT_MOVE_TMOV ? (OpArg){ARG_LIT, -1, RA_COUNT, "0", 0}
                                      : (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_INDEX_COL), RA_COUNT, NULL, 0};
    args[4] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_DST), RA_COUNT, NULL, 0};
    args[5] = (OpArg){ARG_LIT, -1, RA_COUNT, relu ? "1" : "0", relu};
    args[6] = (OpArg){ARG_LIT, -1, RA_COUNT, quant ? "1" : "0", quant};
    args[7] = quant ? (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_PRE_QUANT_SCALAR), RA_COUNT, NULL, 0}
                    : (OpArg){ARG_LIT, -1, RA_COUNT, "0", 0};
    *nargs = 8;
    return true;
}

/* The forms a class's runtime lacks (reported), and the entry point a form takes:
 * *rt and args[0, *nargs) start as the row's. */
static bool compute_form(Emit *e, const Op *op, const char **rt, OpArg *args, int *nargs)
{
    const OpInfo *in = op_info(op->kind);
    switch (in->cls) {
    case OC_STORE:
        if (role(op, ROLE_FP) != NO_VALUE)
            return emit_fail(e, op->name_span, "codegen does not support 'pto.tstore' with an fp tile (the vector "
                                               "quantization form)");
    {
        bool atomic = opaque_set(op, "atomicType", "atomic_none");
        bool relu = opaque_set(op, "reluPreMode", "no_relu"), quant = role(op, ROLE_PRE_QUANT_SCALAR) != NO_VALUE;
        if ((relu || quant) && atomic)
            return emit_fail(e, op->name_span, "codegen does not support 'pto.tstore' with atomic_add and a reluPreMode "
                                               "or a preQuantScalar");
        if (relu || quant) { /* the fixpipe's stages (docs/numerics.md 8.6); the runtime checks the pair */
            *rt = "ptort_tstore_fix";
            args[0] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_SRC), RA_COUNT, NULL, 0};
            args[1] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_DST), RA_COUNT, NULL, 0};
            args[2] = (OpArg){ARG_LIT, -1, RA_COUNT, relu ? "1" : "0", relu};
            args[3] = (OpArg){ARG_LIT, -1, RA_COUNT, quant ? "1" : "0", quant};
            args[4] = quant ? (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_PRE_QUANT_SCALAR), RA_COUNT, NULL, 0}
                            : (OpArg){ARG_LIT, -1, RA_COUNT, "0", 0};
            *nargs = 5;
            return true;
        }
        /* the acc epilogue's f32 -> f16/bf16 cast and the atomic add (docs/numerics.md 8.4) */
        const TileBody *s = &val(e, role(op, ROLE_SRC))->type->tile;
        DType vd = val(e, role(op, ROLE_DST))->type->dtype;
        bool cast = s->loc == LOC_ACC && s->dtype != vd;
        if (cast && !(s->dtype == DT_F32 && (vd == DT_F16 || vd == DT_BF16)))
            return emit_fail(e, op->name_span, "codegen does not support 'pto.tstore' to a view of another element type "
                                          "(an acc tile's converting store other than f32 -> f16/bf16)");
        if (atomic && (cast || !(s->dtype == DT_F32 || int_w32(s->dtype))))
            return emit_fail(e, op->name_span, "codegen does not support 'pto.tstore' with atomic_add of %s elements into a view of %s "
                                               "(the runtime adds f32 and i32 elements of the view's type)",
                             dtype_name(s->dtype), dtype_name(vd));
        if (!atomic && !cast)
            return true;
        *rt = "ptort_tstore_ex";
        args[0] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_SRC), RA_COUNT, NULL, 0};
        args[1] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_DST), RA_COUNT, NULL, 0};
        args[2] = (OpArg){ARG_LIT, -1, RA_COUNT, atomic ? "1" : "0", atomic};
        *nargs = 3;
        return true;
    }
    case OC_MOVE: {
        ValueId tmp = role(op, ROLE_TMP);
        if (opaque_set(op, "accToVecMode", "single_mode"))
            return emit_fail(e, op->name_span, "codegen does not support 'pto.tmov' with accToVecMode dual_mode");
        if (tmp != NO_VALUE && type_is_tile(val(e, tmp)->type) && val(e, tmp)->type->tile.loc == LOC_SCALING)
            return emit_fail(e, op->name_span,
                        "codegen does not support 'pto.tmov' with a scaling tile (the fp quantization form)");
        if (fix_form(e, op, PTORT_MOVE_TMOV, rt, args, nargs))
            return true;
        const TileBody *s = &val(e, role(op, ROLE_SRC))->type->tile, *d = &val(e, role(op, ROLE_DST))->type->tile;
        if (tmp == NO_VALUE && s->dtype != d->dtype && !target_move_converts(s, d)) /* docs/numerics.md 8.4 */
            return emit_fail(e, op->name_span, "codegen does not support 'pto.tmov' between tiles of different element types "
                                          "(a converting move other than an acc tile's f32 -> f16/bf16 or a mat "
                                          "f16/bf16 tile's into an f32 bias tile)");
        if (tmp == NO_VALUE)
            return true;
        /* with a tmp: the X-to-ZZ exponent move */
        *rt = "ptort_tmov_zz";
        args[0] = (OpArg){ARG_ATTR, -1, RA_GRP_AXIS, NULL, 0};
        args[1] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_SRC), RA_COUNT, NULL, 0};
        args[2] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_DST), RA_COUNT, NULL, 0};
        args[3] = (OpArg){ARG_ROLE, (int8_t)op_role(op->kind, ROLE_TMP), RA_COUNT, NULL, 0};
        *nargs = 4;
        return true;
    }
    case OC_EXTRACT:
    case OC_INSERT: {
        /* the runtime moves and converts as the fixpipe does without its quantization, relu
         * and dual-destination stages (docs/numerics.md 8.4) */
        if (role(op, ROLE_FP) != NO_VALUE)
            return emit_fail(e, op->name_span, "codegen does not support '%s' with an fp tile (the vector "
                                               "quantization form)", in->name);
        if (opaque_set(op, "accToVecMode", "single_mode"))
            return emit_fail(e, op->name_span, "codegen does not support '%s' with accToVecMode dual_mode", in->name);
        if (ir_attr_find(op->attrs, op->nattrs, "tinsertMode"))
            return emit_fail(e, op->name_span, "codegen does not support '%s' with a tinsertMode (the NZ split forms)",
                             in->name);
        if (fix_form(e, op, in->cls == OC_EXTRACT ? PTORT_MOVE_TEXTRACT : PTORT_MOVE_TINSERT, rt, args, nargs))
            return true;
        const TileBody *s = &val(e, role(op, ROLE_SRC))->type->tile, *d = &val(e, role(op, ROLE_DST))->type->tile;
        if (s->dtype != d->dtype && !target_move_converts(s, d))
            return emit_fail(e, op->name_span, "codegen does not support '%s' from %s to %s (only an acc f32 src "
                                               "converts, to f16 or bf16)", in->name, dtype_name(s->dtype),
                             dtype_name(d->dtype));
        return true;
    }
    case OC_SCALE_ADDR:
        return emit_fail(e, op->name_span, "codegen does not support 'pto.tget_scale_addr' (a scaling tile placed "
                                           "at a shifted address)");
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
                return emit_fail(e, op->name_span, "codegen does not support 'pto.tload' with '%s' (the runtime does not pad)",
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
            return emit_fail(e, op->name_span, "codegen supports %s quantization into a%s dst only, but got %s",
                             want_signed ? "INT8_SYM" : "INT8_ASYM", want_signed ? " signed (i8)" : "n unsigned (ui8)",
                             dtype_name(dd));
        return true;
    }
    case OC_GATHER_CMP:
        return emit_fail(e, op->name_span, "codegen does not support 'pto.tgather' in its compare form");
    case OC_MGATHER:
    case OC_MSCATTER:
        return mgather_args(e, op, args);
    case OC_SCATTER:
        return op->kind == OP_TSCATTER_MASK ? gather_mask_args(e, op, args) : true;
    case OC_GATHER_MASK:
        return gather_mask_args(e, op, args);
    case OC_HISTOGRAM: { /* the byte (the verifier checked it: 0 .. 3, isMSB folded in) */
        static const char *const bytes[] = {"0", "1", "2", "3"};
        const Attr *b = ir_attr_find(op->attrs, op->nattrs, "byte");
        const Attr *m = ir_attr_find(op->attrs, op->nattrs, "isMSB");
        int64_t k = b && b->val->kind == AV_INT ? b->val->u.i : 1;
        if (m && m->val->kind == AV_BOOL)
            k = m->val->u.b;
        args[0] = (OpArg){ARG_LIT, -1, RA_COUNT, bytes[k & 3], 0};
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
    emit_runtime_dtype(e, op->name_span, t->tile.dtype, HOLD_TILE); /* reported; uses go on */
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
            emit_fail(e, op->name_span, "codegen expects addr to be a constant");
            b->addr = 0;
        }
        b->has_addr = true;
    }
    if (vr != NO_VALUE && !(b->vr = emit_scalar(e, vr, op)))
        return;
    if (vc != NO_VALUE && !(b->vc = emit_scalar(e, vc, op)))
        return;
    e->buf_of[r] = (int)e->nbufs++;
    if (e->f_called && b->has_addr) {
        /* in a called function every tile lives in its frame, above its callers' tiles: the
         * placed address plus the frame's base, in a local descriptor */
        emit_make_mutable(e, e->buf_of[r]);
        sb_printf(&e->body, "    %s.addr += %s[%s];\n", b->mut, e->base, rt_loc[t->tile.loc]);
        if (b->vr)
            sb_printf(&e->body, "    %s.valid_rows = %s;\n", b->mut, b->vr);
        if (b->vc)
            sb_printf(&e->body, "    %s.valid_cols = %s;\n", b->mut, b->vc);
    } else if (e->rebound[r]) {
        emit_make_mutable(e, e->buf_of[r]);
    }
    /* a dynamic valid shape's local descriptor is made here, where the tile is bound: this
     * op comes before every use, in the scope of all of them (uses may be in loops and
     * branches, docs/codegen.md) */
    if ((b->vr || b->vc) && b->has_addr && !emit_use_tile(e, r, op))
        return;
    /* A returned tile starts as fresh memory (docs/cli.md: never-written positions
     * read 0), even where tassign reuses bytes of a tile that died before. */
    if (e->returned[r]) {
        const char *t = emit_use_tile(e, r, op);
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
const char *emit_type_desc(Emit *e, const TileBody *t, const Value *v)
{
    const char *name = emit_unique_name(&e->global, e->tag, v->name.p, v->name.len);
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
        emit_fail(e, op->name_span, "codegen expects the source of '%s' to be a tile buffer", op_info(op->kind)->name);
        return -1;
    }
    *expr = emit_use_tile(e, src, op);
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
        emit_fail(e, op->name_span, "codegen expects '%s' to have a tile result", op_info(op->kind)->name);
        return;
    }
    ValueId r = op->res[0];
    const Value *rv = val(e, r);
    const TileBody *t = &rv->type->tile;
    /* a treshape may name a new element type (i8 bytes as i1 or i64): reported here, as an
     * alloc_tile's; a subview keeps its source's, reported where that is declared */
    if (!subview)
        emit_runtime_dtype(e, op->name_span, t->dtype, HOLD_TILE); /* reported; uses go on */
    const char *sx;
    int pb = view_source(e, op, op->opnds[0], &sx);
    if (pb < 0)
        return;
    const char *local = emit_unique_name(&e->local, "v_", rv->name.p, rv->name.len);
    sb_printf(&e->body, "    ptort_tile %s;\n", local);
    if (!subview) {
        if (t->vrow == DIM_DYNAMIC || t->vcol == DIM_DYNAMIC) {
            emit_fail(e, op->name_span, "codegen expects a static valid shape for the result of 'pto.treshape'");
            return;
        }
        const char *as = emit_type_desc(e, t, rv);
        begin_call(e, op);
        sb_printf(&e->body, "ptort_tile_reshape(ctx, %s, &%s, &%s)", sx, as, local);
        end_call(e, op);
        add_view_buf(e, r, rv->type, pb, local);
        return;
    }
    int oi = op_role(op->kind, ROLE_OFFSETS);
    uint32_t first = 0;
    if (oi < 0 || ir_role_operands(op, oi, &first) != 2) {
        emit_fail(e, op->name_span, "codegen expects two offsets for 'pto.subview'");
        return;
    }
    const char *off[2], *valid[2];
    for (int i = 0; i < 2; i++)
        if (!(off[i] = emit_scalar(e, op->opnds[first + i], op)))
            return;
    ValueId vr = role(op, ROLE_VALID_ROW), vc = role(op, ROLE_VALID_COL);
    int64_t tv[2] = {t->vrow, t->vcol};
    ValueId vv[2] = {vr, vc};
    for (int i = 0; i < 2; i++) {
        if (vv[i] != NO_VALUE) {
            if (!(valid[i] = emit_scalar(e, vv[i], op)))
                return;
        } else if (tv[i] == DIM_DYNAMIC) {
            emit_fail(e, op->name_span, "codegen expects 'pto.subview' with a dynamic valid shape to give valid_row and valid_col");
            return;
        } else {
            valid[i] = emit_arena_str(e, "%lld", (long long)tv[i]);
        }
    }
    const char *h = NULL, *k = NULL;
    if (subview_invariant(e, op, pb, first)) {
        /* Everything but the valid shape is the same at every execution in the loop: the first
         * one calls the runtime (which checks it all) and keeps the descriptor in h_; later ones
         * copy it and set the valid shape, and call the runtime again only when that is outside
         * the sizes, so that it reports the error at this op as before. */
        h = emit_unique_name(&e->local, "h_", rv->name.p, rv->name.len);
        k = emit_unique_name(&e->local, "k_", rv->name.p, rv->name.len);
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
        emit_fail(e, op->name_span, "codegen expects the source of 'pto.set_validshape' to have a dynamic valid shape");
        return;
    }
    const char *vr = emit_scalar(e, role(op, ROLE_VALID_ROW), op), *vc = vr ? emit_scalar(e, role(op, ROLE_VALID_COL), op) : NULL;
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
        emit_fail(e, op->name_span, "codegen expects the operand of 'pto.tassign' to be a tile buffer");
        return;
    }
    Buf *b = &e->bufs[bi];
    int64_t addr = op->tile_addr;
    if (e->f_called && b->arg >= 0 && b->parent < 0) {
        /* a called function works on the caller's tile where it is; the argument's placement
         * (tassign's, or the same written in the input: in the body, at a constant address,
         * before any use) only makes the descriptor the harness fills when it runs the function */
        if (!op->has_tile_addr || b->first_desc >= 0 || (!op->synthetic && !placement_first(e, op))) {
            emit_fail(e, op->name_span, "codegen does not support 'pto.tassign' of an argument of a called function "
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
        const char *x = op->has_tile_addr ? emit_arena_str(e, "%lld", (long long)addr) : emit_scalar(e, role(op, ROLE_ADDR), op);
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
            emit_fail(e, op->name_span, "codegen expects addr to be a constant");
            return;
        }
    }
    b->has_addr = true;
    b->addr = addr;
    b->desc = -1;
    if (op->nres)
        e->buf_of[op->res[0]] = bi;
    if ((b->vr || b->vc) && !b->view) /* the local of a dynamic valid shape, made at the binding */
        emit_use_tile(e, op->opnds[0], op);
}

/* ---- the scalar ops (docs/scalars.md) ----------------------------------------------------
 * An integer of width W is a C int64_t sign-extended from bit W-1 (i1 true is -1), a float
 * (f16, bf16, f32) a C float holding a value of its type; each op is one checked runtime
 * call (ptort_scalar_*) into a local, whose status check reports the op's location. */

/* The integer width of a scalar type codegen computes with (0 if none). */
unsigned emit_int_bits(const Type *t)
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
const char *emit_float_rt(const Type *t)
{
    if (!t || t->kind != TY_SCALAR)
        return NULL;
    return t->dtype == DT_F16 ? "PTORT_F16" : t->dtype == DT_BF16 ? "PTORT_BF16" : t->dtype == DT_F32 ? "PTORT_F32" : NULL;
}

/* False (reported at op) when codegen has no C representation for t. */
static bool scalar_type_ok(Emit *e, const Type *t, const Op *op)
{
    if (emit_int_bits(t) || emit_float_rt(t))
        return true;
    char b[128];
    return emit_fail(e, op->name_span, "codegen does not support '%s' on scalars of type '%s'", op_info(op->kind)->name,
                     type_str(t, b, sizeof b));
}

static const char *int_literal(Emit *e, int64_t x)
{
    return x == INT64_MIN ? "(-INT64_MAX - 1)" : emit_arena_str(e, "%lld", (long long)x);
}

static void emit_constant(Emit *e, const Op *op)
{
    if (!op->nres || !op->constant)
        return;
    const AttrValue *c = op->constant;
    ValueId r = op->res[0];
    const Type *t = val(e, r)->type;
    unsigned w = emit_int_bits(t);
    if (c->kind == AV_INT && w) {
        /* the numbers the parser read, in the held form (255 : i8 is -1) */
        uint64_t u = (uint64_t)c->u.i;
        int64_t x = w >= 64 ? (int64_t)u : (int64_t)((u & ((((uint64_t)1) << w) - 1)) ^ ((uint64_t)1 << (w - 1))) -
                                               (int64_t)((uint64_t)1 << (w - 1));
        e->cexpr[r] = int_literal(e, x);
    } else if (c->kind == AV_BOOL) {
        e->cexpr[r] = c->u.b ? "-1" : "0";
    } else if (c->kind == AV_FLOAT && emit_float_rt(t)) {
        if (c->u.f.bits)
            e->cexpr[r] = emit_arena_str(e, "ptort_scalar_from_bits(0x%llxu, %s)", (unsigned long long)c->u.f.raw, emit_float_rt(t));
        else if (c->u.f.d - c->u.f.d == 0) /* finite */
            e->cexpr[r] = emit_arena_str(e, "ptort_scalar_round(%a, %s)", c->u.f.d, emit_float_rt(t));
    }
    /* other constants (f64, 8-bit floats) have no C form: a use of one is reported */
}

/* A new local for result r of C type ctype ("int64_t", "float"). */
const char *emit_scalar_local(Emit *e, ValueId r, const char *ctype)
{
    const Value *x = val(e, r);
    const char *n = emit_unique_name(&e->local, "s_", x->name.p, x->name.len);
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
    case OP_ADDI: return emit_arena_str(e, "(int64_t)((uint64_t)%s + (uint64_t)%s)", a, b);
    case OP_SUBI: return emit_arena_str(e, "(int64_t)((uint64_t)%s - (uint64_t)%s)", a, b);
    case OP_MULI: return emit_arena_str(e, "(int64_t)((uint64_t)%s * (uint64_t)%s)", a, b);
    case OP_ANDI: return emit_arena_str(e, "(%s & %s)", a, b);
    case OP_ORI: return emit_arena_str(e, "(%s | %s)", a, b);
    case OP_XORI: return emit_arena_str(e, "(%s ^ %s)", a, b);
    case OP_MAXSI: return emit_arena_str(e, "(%s > %s ? %s : %s)", a, b, a, b);
    case OP_MINSI: return emit_arena_str(e, "(%s < %s ? %s : %s)", a, b, a, b);
    case OP_MAXUI: return emit_arena_str(e, "((uint64_t)%s > (uint64_t)%s ? %s : %s)", a, b, a, b);
    case OP_MINUI: return emit_arena_str(e, "((uint64_t)%s < (uint64_t)%s ? %s : %s)", a, b, a, b);
    default: break;
    }
    int64_t c;
    if (!const_int(e, op->opnds[1], &c))
        return NULL;
    bool div_ok = c != 0 && c != -1;
    switch (op->kind) {
    case OP_DIVSI: return div_ok ? emit_arena_str(e, "(%s / %s)", a, b) : NULL;
    case OP_REMSI: return div_ok ? emit_arena_str(e, "(%s %% %s)", a, b) : NULL;
    case OP_CEILDIVSI: /* C's quotient (toward zero) plus one when inexact with a positive exact
                        * quotient: the remainder (of A's sign) nonzero with B's sign */
        return div_ok ? emit_arena_str(e, "(%s / %s + (%s %% %s %s 0))", a, b, a, b, c > 0 ? ">" : "<") : NULL;
    case OP_FLOORDIVSI: /* minus one when inexact with a negative exact quotient */
        return div_ok ? emit_arena_str(e, "(%s / %s - (%s %% %s %s 0))", a, b, a, b, c > 0 ? "<" : ">") : NULL;
    case OP_DIVUI: return c ? emit_arena_str(e, "(int64_t)((uint64_t)%s / (uint64_t)%s)", a, b) : NULL;
    case OP_REMUI: return c ? emit_arena_str(e, "(int64_t)((uint64_t)%s %% (uint64_t)%s)", a, b) : NULL;
    case OP_SHLI: return c >= 0 && c < 64 ? emit_arena_str(e, "(int64_t)((uint64_t)%s << %s)", a, b) : NULL;
    case OP_SHRUI: return c >= 0 && c < 64 ? emit_arena_str(e, "(int64_t)((uint64_t)%s >> %s)", a, b) : NULL;
    case OP_SHRSI: /* the sign bit shifted in, without C's implementation-defined >> of negatives */
        return c >= 0 && c < 64 ? emit_arena_str(e, "(%s < 0 ? ~(~%s >> %s) : %s >> %s)", a, a, b, a, b) : NULL;
    default: return NULL;
    }
}

static void emit_scalar_op(Emit *e, const Op *op)
{
    ArithClass c = arith_class(op->kind);
    const char *a[3] = {NULL, NULL, NULL};
    bool access = op->kind == OP_LOAD_SCALAR || op->kind == OP_STORE_SCALAR;
    for (uint32_t i = access ? 1 : 0; i < op->nopnds && i < 3; i++) /* a pointer is no scalar */
        if (!(a[i] = emit_scalar(e, op->opnds[i], op)))
            return;
    const Type *t = op->nopnds ? val(e, op->opnds[c == AC_SELECT ? 1 : 0])->type : NULL;
    const Type *rt = op->nres ? val(e, op->res[0])->type : NULL;
    if (access) {
        ValueId p = op->opnds[0];
        const Type *vt = op->kind == OP_LOAD_SCALAR ? rt : val(e, op->opnds[2])->type;
        if (!e->csize[p]) {
            emit_fail(e, op->name_span, "codegen expects the pointer of '%s' to be a function argument",
                      op_info(op->kind)->name);
            return;
        }
        if (!scalar_type_ok(e, vt, op))
            return;
        bool fl = emit_float_rt(vt) != NULL;
        const char *r = op->kind == OP_LOAD_SCALAR ? emit_scalar_local(e, op->res[0], fl ? "float" : "int64_t") : NULL;
        /* floats by runtime dtype, integers by byte count (i1 takes a byte) */
        const char *kind = fl ? emit_float_rt(vt) : emit_arena_str(e, "%u", emit_int_bits(vt) > 8 ? emit_int_bits(vt) / 8 : 1);
        int bytes = fl ? (vt->dtype == DT_F32 ? 4 : 2) : emit_int_bits(vt) > 8 ? (int)emit_int_bits(vt) / 8 : 1;
        race_hook(e, op, e->cexpr[p], a[1], bytes);
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
        const char *r = emit_scalar_local(e, op->res[0], "int64_t");
        sb_printf(&e->body, "    %s = ptort_scalar_cmpi(%d, %s, %s, %u);\n", r, (int)pa->val->u.i, a[0], a[1], emit_int_bits(t));
        return;
    }
    case AC_SELECT: {
        const char *r = emit_scalar_local(e, op->res[0], emit_float_rt(rt) ? "float" : "int64_t");
        sb_printf(&e->body, "    %s = %s ? %s : %s;\n", r, a[0], a[1], a[2]);
        return;
    }
    case AC_INT_BIN: {
        const char *r = emit_scalar_local(e, op->res[0], "int64_t");
        const char *x = int_inline(e, op, a[0], a[1], emit_int_bits(t));
        if (x) { /* it cannot fail: no call, no check */
            uint32_t line, col;
            source_line_col(e->src, op->name_span.begin, &line, &col);
            sb_printf(&e->body, "    /* %u:%u %s */\n    %s = %s;\n", line + 1, col + 1, op_info(op->kind)->name, r, x);
            return;
        }
        begin_call(e, op);
        sb_printf(&e->body, "ptort_scalar_int(ctx, %s, %s, %s, %u, %u, &%s)", sop_name(op->kind), a[0], a[1],
                  emit_int_bits(t), flags_attr(op, ARITH_OVERFLOW_KEY), r);
        end_call(e, op);
        return;
    }
    case AC_FLOAT_BIN:
    case AC_FLOAT_UN: {
        const char *r = emit_scalar_local(e, op->res[0], "float");
        begin_call(e, op);
        sb_printf(&e->body, "ptort_scalar_float(ctx, %s, %s, %s, %s, %u, &%s)", sop_name(op->kind), a[0],
                  c == AC_FLOAT_UN ? "0.0f" : a[1], emit_float_rt(t), flags_attr(op, ARITH_FASTMATH_KEY), r);
        end_call(e, op);
        return;
    }
    case AC_CAST: {
        const char *r = emit_scalar_local(e, op->res[0], "int64_t");
        begin_call(e, op);
        sb_printf(&e->body, "ptort_scalar_cast(ctx, %s, %s, %u, %u, &%s)", sop_name(op->kind), a[0], emit_int_bits(t),
                  emit_int_bits(rt), r);
        end_call(e, op);
        return;
    }
    case AC_NONE:
        break;
    }
    emit_fail(e, op->name_span, "codegen does not support '%s'", op_info(op->kind)->name);
}

/* The C type that holds a scalar of type t (docs/scalars.md 4). */
const char *emit_c_scalar_type(const Type *t) { return emit_float_rt(t) ? "float" : "int64_t"; }

/* Whether generated C holds scalars of type t (integers, index, f16, bf16, f32). */
bool emit_c_scalar_ok(const Type *t) { return emit_int_bits(t) || emit_float_rt(t); }


/* ---- == PIPE == block ids, flags ------------------------------------------------------- */
/* pto.get_block_idx ...: the launch coordinates the runtime context holds (docs/launch.md) */
static void emit_block_id(Emit *e, const Op *op)
{
    static const char *const q[] = {"PTORT_BLOCK_IDX", "PTORT_BLOCK_NUM", "PTORT_SUBBLOCK_IDX", "PTORT_SUBBLOCK_NUM"};
    int i = op->kind == OP_GET_BLOCK_IDX ? 0 : op->kind == OP_GET_BLOCK_NUM ? 1 : op->kind == OP_GET_SUBBLOCK_IDX ? 2 : 3;
    const char *n = emit_scalar_local(e, op->res[0], "int64_t");
    sb_printf(&e->body, "    %s = ptort_block_id(ctx, %s);\n", n, q[i]);
}

/* An integer attribute, or DFLT. */
static int64_t int_attr_or(const Op *op, const char *key, int64_t dflt)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, key);
    return a && a->val->kind == AV_INT ? a->val->u.i : dflt;
}

/* The C expression of optional scalar operand of role R, else DFLT. */
static const char *opt_scalar(Emit *e, const Op *op, RoleId r, const char *dflt)
{
    ValueId v = role(op, r);
    return v == NO_VALUE ? dflt : emit_scalar(e, v, op);
}

/* ", PIPE, \"op\", \"FILE:L:C\"": what a blocking launch call names (docs/launch.md). */
static void put_op_where(Emit *e, const Op *op, bool pipe)
{
    if (pipe)
        sb_printf(&e->body, ", %d", (int)op_pipe(e->f, op));
    sb_printf(&e->body, ", \"%s\", ", op_info(op->kind)->name);
    emit_where(e, &e->body, op->name_span);
}

/* pto.import_reserved_buffer: the base of the reserve peer_func makes under its name. */
static void emit_import(Emit *e, const Op *op)
{
    const Attr *peer = ir_attr_find(op->attrs, op->nattrs, "peer_func");
    const Attr *name = ir_attr_find(op->attrs, op->nattrs, "name");
    for (uint32_t i = 0; peer && name && peer->val->kind == AV_SYMBOL && i < e->m->nmods; i++)
        for (uint32_t j = 0; j < e->m->mods[i]->nfuncs; j++) {
            const Func *g = e->m->mods[i]->funcs[j];
            if (!str_eq(g->name, peer->val->u.s.p, peer->val->u.s.len))
                continue;
            for (const Op *o = ir_first_op(g); o; o = ir_next_op(o)) {
                const Attr *n = ir_attr_find(o->attrs, o->nattrs, "name"), *b = ir_attr_find(o->attrs, o->nattrs, "base");
                if (o->kind == OP_RESERVE_BUFFER && n && b && b->val->kind == AV_INT && n->val->kind == name->val->kind &&
                    n->val->u.s.len == name->val->u.s.len && memcmp(n->val->u.s.p, name->val->u.s.p, n->val->u.s.len) == 0) {
                    e->cexpr[op->res[0]] = int_literal(e, b->val->u.i);
                    return;
                }
            }
        }
    emit_fail(e, op->name_span, "codegen expects the peer function's reserve_buffer of this name to have a base");
}

/* The initialize_pipe ops: the core's side of a pipe (docs/launch.md). */
static void emit_pipe_init(Emit *e, const Op *op)
{
    /* A2/A3's gm_slot_buffer stages each entry in global memory on its way to the consumer's
     * buffer: a launch moves it there directly (docs/launch.md); a FIFO of global entries
     * (gm_slot_tensor) is not run yet */
    if (role(op, ROLE_GM_SLOT_TENSOR) != NO_VALUE) {
        emit_fail(e, op->name_span, "codegen does not support '%s' with global entries (gm_slot_tensor) yet",
                  op_info(op->kind)->name);
        return;
    }
    int64_t dir = int_attr_or(op, "dir_mask", 1);
    const char *c2v = opt_scalar(e, op, ROLE_C2V_CONSUMER_BUF, "-1"), *v2c = opt_scalar(e, op, ROLE_V2C_CONSUMER_BUF, "-1");
    if (!c2v || !v2c)
        return;
    begin_call(e, op);
    sb_printf(&e->body, "ptort_pipe_init(ctx, %lld, %lld, %lld, %lld, %s, %s, \"%s\")", (long long)int_attr_or(op, "id", 0),
              (long long)dir, (long long)int_attr_or(op, "slot_size", 0),
              (long long)int_attr_or(op, "slot_num", dir == 3 ? 4 : 8), c2v, v2c, op_info(op->kind)->name);
    end_call(e, op);
}

/* tpush / tpop / tfree of a tile entry (a global entry, a tensor view, is not run yet). */
static void emit_fifo_xfer(Emit *e, const Op *op)
{
    OpKind k = op->kind;
    int dir = k == OP_TPUSH_TO_AIC || k == OP_TPOP_FROM_AIV || k == OP_TFREE_FROM_AIV;
    long long id = (long long)int_attr_or(op, "id", 0), split = (long long)int_attr_or(op, "split", 0);
    const char *name = op_info(k)->name;
    if (k == OP_TPUSH_TO_AIV || k == OP_TPUSH_TO_AIC) {
        ValueId v = role(op, ROLE_TILE);
        if (v == NO_VALUE || !type_is_tile(val(e, v)->type)) {
            emit_fail(e, op->name_span, "codegen does not support '%s' of a global entry yet", name);
            return;
        }
        const char *t = emit_use_tile(e, v, op);
        if (!t)
            return;
        begin_call(e, op);
        sb_printf(&e->body, "ptort_tpush(ctx, %lld, %d, %lld, %d, %s", id, dir, split, (int)op_pipe(e->f, op), t);
        put_op_where(e, op, false);
        sb_putc(&e->body, ')');
        end_call(e, op);
        return;
    }
    if (k == OP_TFREE_FROM_AIC || k == OP_TFREE_FROM_AIV) {
        ValueId v = role(op, ROLE_ENTRY);
        if (v != NO_VALUE && !type_is_tile(val(e, v)->type)) {
            emit_fail(e, op->name_span, "codegen does not support '%s' of a global entry yet", name);
            return;
        }
        begin_call(e, op);
        sb_printf(&e->body, "ptort_tfree(ctx, %lld, %d, %lld", id, dir, split);
        put_op_where(e, op, false);
        sb_putc(&e->body, ')');
        end_call(e, op);
        return;
    }
    ValueId r = op->nres ? op->res[0] : NO_VALUE;
    if (r == NO_VALUE || !type_is_tile(val(e, r)->type)) {
        emit_fail(e, op->name_span, "codegen does not support '%s' of a global entry yet", name);
        return;
    }
    const Value *rv = val(e, r);
    const TileBody *t = &rv->type->tile;
    emit_runtime_dtype(e, op->name_span, t->dtype, HOLD_TILE);
    char sr[32], sc[32];
    snprintf(sr, sizeof sr, "%lld", (long long)(t->vrow == DIM_DYNAMIC ? -1 : t->vrow));
    snprintf(sc, sizeof sc, "%lld", (long long)(t->vcol == DIM_DYNAMIC ? -1 : t->vcol));
    const char *vr = opt_scalar(e, op, ROLE_VALID_ROW, sr), *vc = opt_scalar(e, op, ROLE_VALID_COL, sc);
    if (!vr || !vc)
        return;
    const char *as = emit_type_desc(e, t, rv);
    const char *local = emit_unique_name(&e->local, "v_", rv->name.p, rv->name.len);
    sb_printf(&e->body, "    ptort_tile %s;\n", local);
    begin_call(e, op);
    sb_printf(&e->body, "ptort_tpop(ctx, %lld, %d, %lld, %d, &%s, %s, %s, &%s", id, dir, split, (int)op_pipe(e->f, op),
              as, vr, vc, local);
    put_op_where(e, op, false);
    sb_putc(&e->body, ')');
    end_call(e, op);
    Buf *b = &e->bufs[e->nbufs];
    memset(b, 0, sizeof *b);
    b->val = r;
    b->arg = -1;
    b->tb = t;
    b->has_addr = true;
    b->desc = b->first_desc = -1;
    b->origin = b->approx = b->parent = -1;
    b->view = local;
    b->written = true;
    e->buf_of[r] = (int)e->nbufs++;
}

/* sync.set, sync.wait, syncall: cross-core signals; the other sync ops order the pipes of
 * one core, which a core's sequential run already does (docs/launch.md). */
static void emit_sync(Emit *e, const Op *op)
{
    if (op->kind == OP_SYNCALL) {
        const Attr *ct = ir_attr_find(op->attrs, op->nattrs, "core_type");
        int kind = 2;
        if (ct && ct->val->kind == AV_OPAQUE) {
            Str s = ct->val->u.s;
            for (uint32_t i = 0; i + 8 <= s.len; i++)
                if (memcmp(s.p + i, "aiv_only", 8) == 0 || memcmp(s.p + i, "aic_only", 8) == 0)
                    kind = s.p[i + 2] == 'v' ? 0 : 1;
        }
        begin_call(e, op);
        sb_printf(&e->body, "ptort_syncall(ctx, %d", kind);
        put_op_where(e, op, false);
        sb_putc(&e->body, ')');
        end_call(e, op);
        return;
    }
    if (op->kind != OP_SYNC_SET && op->kind != OP_SYNC_WAIT)
        return;
    char ev[32];
    snprintf(ev, sizeof ev, "%lld", (long long)int_attr_or(op, "event_id", 0));
    const char *x = opt_scalar(e, op, ROLE_EVENT_ID_DYN, ev);
    if (!x)
        return;
    begin_call(e, op);
    sb_printf(&e->body, "ptort_sync_%s(ctx, %s", op->kind == OP_SYNC_SET ? "set" : "wait", x);
    put_op_where(e, op, true);
    sb_putc(&e->body, ')');
    end_call(e, op);
}

/* ---- one op ------------------------------------------------------------------------- */

void emit_op(Emit *e, const Op *op)
{
    const OpInfo *in = op_info(op->kind);
    if (in->syntax == SYN_COMPUTE && op->form == FORM_L1) {
        emit_fail(e, op->name_span,
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
    /* == PIPE == a run executes one op after another: every flag, barrier and event
     * already holds (docs/launch.md); the FIFOs and multi-buffers need a launch */
    case OC_SYNC: emit_race_sync(e, op); emit_sync(e, op); break;
    case OC_BLOCK_ID: emit_block_id(e, op); break;
    case OC_SECTION: break; /* emit_block's */
    case OC_FIFO: {
        /* a reserve's value is its base, which tassign resolved */
        const Attr *base = op->kind == OP_RESERVE_BUFFER ? ir_attr_find(op->attrs, op->nattrs, "base") : NULL;
        if (base && base->val->kind == AV_INT && op->nres)
            e->cexpr[op->res[0]] = int_literal(e, base->val->u.i);
        else if (op->kind == OP_IMPORT_RESERVED_BUFFER && op->nres)
            emit_import(e, op);
        else if (op->kind == OP_AIC_INITIALIZE_PIPE || op->kind == OP_AIV_INITIALIZE_PIPE)
            emit_pipe_init(e, op);
        else if (op->kind == OP_TPUSH_TO_AIV || op->kind == OP_TPUSH_TO_AIC || op->kind == OP_TPOP_FROM_AIC ||
                 op->kind == OP_TPOP_FROM_AIV || op->kind == OP_TFREE_FROM_AIC || op->kind == OP_TFREE_FROM_AIV)
            emit_fifo_xfer(e, op);
        else
            emit_fail(e, op->name_span, "codegen does not support '%s' yet", in->name);
        break;
    }
    case OC_MULTI_TILE:
        emit_fail(e, op->name_span, "codegen does not support '%s' yet", in->name);
        break;
    /* == SCALAR == */
    case OC_GETVAL:
    case OC_SETVAL:
    case OC_PTR:
    case OC_QUERY:
    case OC_DEBUG:
    case OC_LOCAL: emit_scalar_line(e, op); break;
    case OC_CMO: break; /* ptoas run has no data cache: invalidating it changes nothing */
    case OC_COMM_SIGNAL:
        emit_fail(e, op->name_span, "codegen does not support '%s' yet (ptoas run runs one rank)", in->name);
        break;
    /* == MLIR27 == */
    case OC_UNREGISTERED:
        emit_fail(e, op->name_span, "codegen cannot handle the unregistered op '%.*s'", (int)op->uname.len, op->uname.p);
        break;
    default: emit_compute(e, op); break; /* the rest: a call of the row's rt */
    }
}
