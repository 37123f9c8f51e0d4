/* emit_flow.c - codegen of control flow: scf.for, scf.if, scf.while and
 * scf.execute_region as C statements, a block's ops (emit_block), func.call as a C call
 * of the callee's kernel function with what the callee does to each argument
 * (emit_call_effects), and func.return (emit_int.h). */
#include <stdlib.h>
#include <string.h>
#include "emit_int.h"
#include "ptort.h"
#include "regions.h"

/* ---- calls --------------------------------------------------------------------------
 * func.call is a C call of the callee's kernel function (docs/codegen.md, "Calls"). A called
 * function takes the base of its frame (its own tiles go there, above its
 * callers'), its tile arguments as descriptors (the caller's tiles, used in place) and an
 * out-parameter per scalar result. */

Str emit_callee_name(const Op *op)
{
    const Attr *a = ir_attr_find(op->attrs, op->nattrs, "callee");
    return a && a->val->kind == AV_SYMBOL ? a->val->u.s : (Str){"", 0};
}

/* The function a call of NAME in mod runs: mod's function of that name, or, when that is
 * a declaration, the definition another module of the file gives it (ir_func_definition)
 * if the two have the same signature (emit_func reports them otherwise). Its slot in
 * e->funcs; f NULL when there is none. */
const FuncSlot *emit_callee_slot(const Emit *e, const ModuleOp *mod, Str name)
{
    const FuncSlot *s = ir_func_index_find(&e->funcs, mod, name);
    if (s->f && s->f->decl) {
        const FuncSlot *def = ir_func_index_definition(&e->funcs, s->f);
        if (def->f && ir_same_signature(s->f, def->f))
            return def;
    }
    return s;
}

/* The index in e->called of the function of slot s, or -1. */
int emit_called_at(const Emit *e, const FuncSlot *s)
{
    return s->f && e->called_at ? e->called_at[s->all] : -1;
}

/* The same for f, a function of mod. */
int emit_called_index(const Emit *e, const ModuleOp *mod, const Func *f)
{
    const FuncSlot *s = ir_func_index_find(&e->funcs, mod, f->name);
    return s->f == f ? emit_called_at(e, s) : -1;
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
            int gi = emit_called_at(e, emit_callee_slot(e, mod, emit_callee_name(op)));
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

/* What each called function does to its arguments, through its own calls too: a fixed
 * point over the call graph. The verifier rejected cycles, so taking the functions callees
 * first (Kahn's algorithm over the calls) reaches it in one pass; the loop only confirms it. */
void emit_call_effects(Emit *e)
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
            int fi = emit_called_index(e, m->mods[i], m->mods[i]->funcs[j]);
            if (fi < 0)
                continue;
            mods[fi] = m->mods[i];
            for (const Op *op = ir_first_op(m->mods[i]->funcs[j]); op; op = ir_next_op(op)) {
                int gi = op->kind == OP_CALL ? emit_called_at(e, emit_callee_slot(e, m->mods[i], emit_callee_name(op))) : -1;
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

/* return: each scalar result into its out-parameter (tiles are read by the harness). */
void emit_return(Emit *e, const Op *op)
{
    for (uint32_t i = 0; i < op->nopnds && i < e->f->nresults; i++) {
        if (!e->ret_out[i])
            continue;
        const char *x = emit_scalar(e, op->opnds[i], op);
        if (!x)
            return;
        sb_printf(&e->body, "    *%s = %s;\n", e->ret_out[i], x);
    }
}

/* %r = func.call @g(%a, ...): scalars by value, pointers as base and size, tiles as the
 * caller's current descriptor; a tile or pointer passed is read and written as g does it. */
void emit_call(Emit *e, const Op *op)
{
    Str name = emit_callee_name(op);
    const FuncSlot *gs = emit_callee_slot(e, e->mod, name);
    const Func *g = gs->f;
    if (!g) {
        emit_fail(e, op->name_span, "codegen expects '@%.*s' to be a function of this module", (int)name.len, name.p);
        return;
    }
    for (uint32_t i = 0; i < g->nresults; i++)
        if (type_is_tile(g->results[i]) || !emit_c_scalar_ok(g->results[i])) {
            char tb[256];
            emit_fail(e, op->name_span,
                 "codegen supports calls whose results are integer, index, f16, bf16 or f32 scalars only, but "
                 "'@%.*s' returns '%s'",
                      (int)name.len, name.p, type_str(g->results[i], tb, sizeof tb));
            return;
        }
    StrBuf args = {0};
    int gi = emit_called_at(e, gs);
    for (uint32_t i = 0; i < op->nopnds && !e->errors; i++) {
        ValueId v = op->opnds[i];
        const Type *t = val(e, v)->type;
        uint8_t eff = gi >= 0 && i < ir_entry(g)->nargs ? e->eff[gi][i] : EFF_READ | EFF_WRITE;
        if (type_is_tile(t)) {
            const char *x = emit_use_tile(e, v, op);
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
                emit_fail(e, op->name_span, "codegen expects a pointer passed to 'func.call' to be a function argument");
                break;
            }
            sb_printf(&args, ", %s, %s", e->cexpr[v], e->csize[v]);
            if (e->ptr_arg[v] >= 0 && (eff & EFF_WRITE))
                e->entries[e->ptr_arg[v]].flags |= PTORT_KARG_WRITTEN;
        } else {
            const char *x = emit_scalar(e, v, op);
            if (!x)
                break;
            sb_printf(&args, ", %s", x);
        }
    }
    for (uint32_t i = 0; i < op->nres && !e->errors; i++)
        sb_printf(&args, ", &%s", emit_scalar_local(e, op->res[i], emit_c_scalar_type(val(e, op->res[i])->type)));
    if (!e->errors) {
        uint32_t line, col;
        source_line_col(e->src, op->name_span.begin, &line, &col);
        sb_printf(&e->body, "    /* %u:%u func.call */\n", line + 1, col + 1);
        if (!e->frame) { /* the callee's tiles go above this function's (docs/codegen.md, "Calls") */
            e->frame_fn = emit_unique_name(&e->global, e->tag, "frame", 5);
            e->frame = emit_unique_name(&e->local, "", "frame", 5);
            e->first_call = op;
            sb_printf(&e->hoist, "    int64_t %s[PTORT_NUM_LOCS];\n", e->frame);
            sb_printf(&e->decls, "static void %s(const int64_t *base, int64_t *fr);\n", e->frame_fn);
        }
        sb_printf(&e->body, "    %s(%s, %s);\n", e->frame_fn, e->f_called ? e->base : "ptoas_base0", e->frame);
        StrBuf tag = {0};
        emit_func_tag(&tag, g->name);
        sb_putc(&tag, '\0');
        sb_printf(&e->body, "    st = (ptort_status)ptoas_k%s(ctx, %s%s);\n", tag.p, e->frame,
                  args.p ? args.p : "");
        sb_puts(&e->body, "    if (st != PTORT_OK)\n        return (int)st; /* the callee reported it at its op */\n");
        e->calls = true;
        sb_free(&tag);
    }
    sb_free(&args);
}

/* ---- control flow ---------------------------------------------------------------------
 * scf.for is a C for over int64 with its bounds and step read once, a step that is not
 * positive a located runtime error (docs/codegen.md); scf.if is a C if, scf.while a C
 * `for (;;)` that breaks when its condition fails, scf.execute_region a C block. Scalar iteration
 * arguments and results are int64 locals declared before the op: the loop's carried values
 * are assigned all at once from its scf.yield (through temporaries), and the results are
 * those locals after it; an scf.if's results are assigned in each branch. */

/* Loop-carried and scf results: integers and index (codegen's int64 locals). */

/* Whether scalar value v can go through op's iter_args or results (reported if not). */
static bool carry_ok(Emit *e, ValueId v, const Op *op)
{
    const Value *x = val(e, v);
    if (emit_c_scalar_ok(x->type))
        return true;
    char tb[256];
    return emit_fail(e, op->name_span,
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
    const char *n = emit_unique_name(&e->local, "s_", x->name.p, x->name.len);
    sb_printf(&e->body, "    %s %s = %s;\n", emit_c_scalar_type(x->type), n, init ? init : "0");
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
        const char *v = emit_scalar(e, src[i], at);
        if (!v)
            break;
        tmp[i] = emit_unique_name(&e->local, "y_", dst[i], strlen(dst[i]));
        sb_printf(&e->body, "    %s %s = %s;\n", emit_c_scalar_type(val(e, src[i])->type), tmp[i], v);
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
    const char *lb = emit_scalar(e, op->opnds[0], op), *ub = lb ? emit_scalar(e, op->opnds[1], op) : NULL;
    const char *st = ub ? emit_scalar(e, op->opnds[2], op) : NULL;
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
        const char *init = emit_scalar(e, in.src[i], op);
        if (!init || !(carried[i] = carried_local(e, in.dst[i], op, init)))
            return;
        e->cexpr[op->res[i]] = carried[i];
    }
    const Value *iv = val(e, body->args[0]);
    const char *i = emit_unique_name(&e->local, "i_", iv->name.p, iv->name.len);
    const char *hi = emit_unique_name(&e->local, i, "_ub", 3), *step = emit_unique_name(&e->local, i, "_step", 5);
    e->cexpr[body->args[0]] = i;
    uint32_t line, col;
    source_line_col(e->src, op->name_span.begin, &line, &col);
    sb_printf(&e->body, "    /* %u:%u scf.for */\n    {\n    int64_t %s = %s, %s = %s, %s = %s;\n", line + 1, col + 1,
              i, lb, hi, ub, step, st);
    sb_printf(&e->body, "    if (%s <= 0)\n        return ptoas_bad_step(", step);
    emit_where(e, &e->body, op->name_span);
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
    const char *c = emit_scalar(e, op->opnds[0], op);
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
        const char *init = emit_scalar(e, op->opnds[i], op);
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
    const char *cond = e->errors ? NULL : emit_scalar(e, c->opnds[0], c);
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

/* == PIPE == pto.section.cube / section.vector: its body when the core the function runs
 * on is that kind (its pto.kernel_kind; a function without one runs as a vector core,
 * docs/launch.md), else nothing */
static void emit_section(Emit *e, const Op *op)
{
    const Attr *k = ir_attr_find(e->f->attrs, e->f->nattrs, "pto.kernel_kind");
    bool cube = k && k->val->kind == AV_ENUM && k->val->u.e.kind == EK_KERNEL_KIND && k->val->u.e.value == 0;
    if (cube != (op->kind == OP_SECTION_CUBE) || !op->regions[0].first)
        return;
    sb_puts(&e->body, "    {\n");
    emit_block(e, op->regions[0].first);
    sb_puts(&e->body, "    }\n");
}

/* Emits block b's ops; returns its scf.yield (NULL if it has none). */
const Op *emit_block(Emit *e, const Block *b)
{
    for (const Op *op = b->first; op; op = op->next) {
        switch (op_info(op->kind)->cls) {
        case OC_FOR: emit_for(e, op); break;
        case OC_IF: emit_if(e, op); break;
        case OC_WHILE: emit_while(e, op); break;
        case OC_EXECUTE_REGION: emit_execute_region(e, op); break;
        case OC_SECTION: emit_section(e, op); break;
        case OC_YIELD: return op;
        case OC_CONDITION: return NULL; /* emit_while's */
        default: emit_op(e, op); break;
        }
    }
    return NULL;
}
