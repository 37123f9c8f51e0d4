/* insert_sync.c - automatic synchronization (--enable-insert-sync, docs/launch.md
 * "Automatic synchronization"): the set_flag / wait_flag pairs and barriers that order the
 * ops of one function that run on different pipes and touch the same bytes.
 *
 * The pass runs after tassign, so tiles have addresses. Each block is walked in order; an
 * op with regions (scf.for, scf.if, a section) counts as one step that makes all the
 * accesses of the ops inside it. The walk keeps a vector clock per pipe: known[q][p] is the
 * last step on pipe p that is certain to have finished before the next op issued on q
 * starts. A dependence (a write and an access, or two reads of acc, on overlapping bytes)
 * from step a on p to an op on q is already ordered when known[q][p] >= a; otherwise the
 * pass adds set_flag(p, q) right after the producer and wait_flag(p, q) right before the
 * consumer (a barrier on q when p == q), taking the latest producer first, since its flag
 * carries everything p had waited for. The flag pairs of a block stay in that block, so
 * both ends run on every path; a dependence into or out of a nested op is ordered before
 * or after that op. Loop bodies are walked twice: the second walk finds what one iteration
 * needs from the one before (back edges) and adds a flag set before the loop, waited in the
 * body before the consumer, set again after the producer, and waited once after the loop.
 * Event ids are then given per pipe pair in text order, the lowest free one in 0..7; a
 * flag that finds none becomes a barrier on all pipes. */
#include <stdlib.h>
#include "pass.h"
#include "pipe.h"

#define NP PIPE_COUNT
#define NEVENTS 8
#define SPACE_GM LOC_COUNT /* the memory spaces: the tile locations, then global memory */

/* What bytes an access names: an address range (a placed tile), a root value (a global
 * buffer behind a function argument, a FIFO entry), or anything in its space. */
typedef enum { MK_RANGE, MK_ROOT, MK_ANY } MemKind;

typedef struct Access {
    uint8_t pipe, space, kind;
    bool write;
    bool tload;              /* made by pto.tload: two loads' writes need no order (PTOAS) */
    int64_t lo, hi;
    ValueId root;
} Access;

/* One access of a step of the walk, with what its pipe knew when it issued. */
typedef struct Rec {
    int32_t pos;
    Op *top;                 /* the op of the walked block that holds it */
    Access a;
    int32_t snap[NP];
} Rec;

typedef struct Flag {
    uint8_t src, dst;
    bool back;               /* a loop's back edge: set before the loop, waited after it */
    bool snap_ok;
    Op *set, *wait, *preset, *postwait;
    int32_t snap[NP];
} Flag;

typedef struct State {
    int32_t known[NP][NP];
    int32_t last[NP];        /* the last step issued on each pipe */
} State;

typedef struct Ctx {
    Module *m;
    Func *f;
    const PassConfig *cfg;
    Flag *flags;
    uint32_t nflags, flags_cap;
} Ctx;

typedef struct Recs {
    Rec *v;
    uint32_t n, cap;
} Recs;

/* ---- building ops ------------------------------------------------------------------- */

static AttrValue *opaque(Ctx *c, const char *kind, const char *val, Span at)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "#pto.%s<%s>", kind, val);
    AttrValue *v = arena_alloc(&c->m->arena, sizeof *v);
    memset(v, 0, sizeof *v);
    v->kind = AV_OPAQUE;
    v->span = at;
    v->u.s = (Str){arena_strndup(&c->m->arena, buf, (size_t)n), (uint32_t)n};
    return v;
}

static Attr attr(const char *key, AttrValue *v)
{
    return (Attr){.key = {key, (uint32_t)strlen(key)}, .span = v->span, .val = v};
}

/* A sync op of kind k made for the op at `near` (its diagnostics point there). */
static Op *sync_new(Ctx *c, OpKind k, Pipe src, Pipe dst, Span near)
{
    Op *op = ir_op_new(c->m);
    op->kind = k;
    op->form = FORM_L2;
    op->synthetic = true;
    op->name_span = near;
    if (k == OP_BARRIER) {
        op->nattrs = 1;
        op->attrs = arena_alloc(&c->m->arena, sizeof *op->attrs);
        op->attrs[0] = attr("pipe", opaque(c, "pipe", pipe_name(src), near));
        return op;
    }
    op->nattrs = 3;
    op->attrs = arena_alloc(&c->m->arena, 3 * sizeof *op->attrs);
    op->attrs[0] = attr("src_pipe", opaque(c, "pipe", pipe_name(src), near));
    op->attrs[1] = attr("dst_pipe", opaque(c, "pipe", pipe_name(dst), near));
    op->attrs[2] = attr("event_id", opaque(c, "event", "EVENT_ID0", near));
    return op;
}

static void insert_after(Op *at, Op *op)
{
    if (at->next)
        ir_insert_before(at->next, op);
    else
        ir_block_append(at->parent, op);
}

static void unlink_op(Op *op)
{
    Block *b = op->parent;
    if (op->prev)
        op->prev->next = op->next;
    else
        b->first = op->next;
    if (op->next)
        op->next->prev = op->prev;
    else
        b->last = op->prev;
    op->next = op->prev = NULL;
}

static void barrier_before(Ctx *c, Op *at, Pipe p)
{
    ir_insert_before(at, sync_new(c, OP_BARRIER, p, p, at->name_span));
}

static Flag *flag_new(Ctx *c, Pipe src, Pipe dst)
{
    if (c->nflags == c->flags_cap) {
        c->flags_cap = c->flags_cap ? 2 * c->flags_cap : 16;
        c->flags = xrealloc(c->flags, c->flags_cap * sizeof *c->flags);
    }
    Flag *fl = &c->flags[c->nflags++];
    memset(fl, 0, sizeof *fl);
    fl->src = (uint8_t)src;
    fl->dst = (uint8_t)dst;
    return fl;
}

/* ---- what an op touches --------------------------------------------------------------- */

/* The placement tassign gave value v, or NULL. */
static const Placement *placement(const Ctx *c, ValueId v)
{
    for (uint32_t i = 0; i < c->m->nplaces; i++)
        if (c->m->places[i].f == c->f && c->m->places[i].value == v)
            return &c->m->places[i];
    return NULL;
}

/* The bytes a tile value names: its placement, or the one of the tile it views. */
static void tile_mem(const Ctx *c, ValueId v, Access *a)
{
    const Func *f = c->f;
    a->kind = MK_ANY;
    for (int hops = 0; v != NO_VALUE && hops < 64; hops++) {
        const Placement *pl = placement(c, v);
        if (pl) {
            a->kind = MK_RANGE;
            a->lo = pl->addr;
            a->hi = pl->addr + pl->size;
            return;
        }
        const Op *d = f->values[v].def_op;
        if (!d)
            return; /* a block argument: a loop's tile, any bytes */
        const OpInfo *in = op_info(d->kind);
        if ((in->cls == OC_TILE_VIEW || d->kind == OP_MULTI_TILE_GET) && d->nopnds) {
            v = d->opnds[0];
            continue;
        }
        if (in->cls == OC_ALLOC && d->nopnds && op_role(d->kind, ROLE_ADDR) == 0 && d->seg[0]) {
            int64_t addr;
            const Type *t = f->values[v].type;
            if (ir_const_int(f, d->opnds[0], &addr) && type_is_tile(t)) {
                a->kind = MK_RANGE;
                a->lo = addr;
                a->hi = addr + t->tile.rows * t->tile.cols * (int64_t)dtype_size(t->tile.dtype);
            }
            return;
        }
        if (in->cls == OC_FIFO) { /* a popped entry: the FIFO's own bytes */
            a->kind = MK_ROOT;
            a->root = v;
        }
        return;
    }
}

/* The global buffer a view or pointer names: the function argument (or FIFO slot) it is
 * made from; any global bytes when that is not known. */
static void gm_mem(const Func *f, ValueId v, Access *a)
{
    a->kind = MK_ANY;
    for (int hops = 0; v != NO_VALUE && hops < 64; hops++) {
        const Op *d = f->values[v].def_op;
        if (!d) {
            if (f->values[v].block == ir_entry(f)) {
                a->kind = MK_ROOT;
                a->root = v;
            }
            return;
        }
        OpClass cls = op_info(d->kind)->cls;
        if ((cls == OC_VIEW || cls == OC_PTR || cls == OC_CAST) && d->nopnds) {
            v = d->opnds[0];
            continue;
        }
        if (cls == OC_FIFO) {
            a->kind = MK_ROOT;
            a->root = v;
        }
        return;
    }
}

typedef struct Accs {
    Access *v;
    uint32_t n, cap;
} Accs;

static void acc_push(Accs *l, const Access *a)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = *a;
}

/* One operand or result of op: a tile, a view or a global pointer; nothing for scalars. */
static void value_access(const Ctx *c, const Op *op, Pipe p, ValueId v, bool write, Accs *out)
{
    const Type *t = v == NO_VALUE ? NULL : c->f->values[v].type;
    if (!t)
        return;
    Access a;
    memset(&a, 0, sizeof a);
    a.pipe = (uint8_t)p;
    a.write = write;
    a.tload = op->kind == OP_TLOAD;
    a.root = NO_VALUE;
    if (type_is_tile(t) || t->kind == TY_MULTI_TILE) {
        a.space = t->tile.loc;
        tile_mem(c, v, &a);
    } else if (t->kind == TY_TENSOR_VIEW || t->kind == TY_PART_VIEW ||
               (t->kind == TY_PTR && (t->ptr_space == PS_DEFAULT || t->ptr_space == PS_GM))) {
        a.space = SPACE_GM;
        gm_mem(c->f, v, &a);
    } else {
        return;
    }
    acc_push(out, &a);
}

/* A popped entry of FIFO `id` that a free releases (the pops before it with that id). */
static bool same_fifo(const Op *a, const Op *b)
{
    const Attr *x = ir_attr_find(a->attrs, a->nattrs, "id");
    const Attr *y = ir_attr_find(b->attrs, b->nattrs, "id");
    int64_t i = x && x->val->kind == AV_INT ? x->val->u.i : 0;
    int64_t j = y && y->val->kind == AV_INT ? y->val->u.i : 0;
    return i == j;
}

/* The accesses of a leaf op: ins read, outs written (a tmp both), results written. */
static void leaf_accesses(const Ctx *c, const Op *op, Accs *out)
{
    const OpInfo *in = op_info(op->kind);
    switch (in->cls) {
    case OC_SYNC: case OC_ALLOC: case OC_TASSIGN: case OC_VIEW: case OC_TILE_VIEW: case OC_MULTI_TILE:
    case OC_CONSTANT: case OC_RETURN: case OC_YIELD: case OC_CONDITION: case OC_INT_BIN: case OC_FLOAT_BIN:
    case OC_FLOAT_UN: case OC_CMPI: case OC_SELECT: case OC_CAST: case OC_CALL: case OC_PTR: case OC_QUERY:
    case OC_BLOCK_ID: case OC_SECTION:
        return; /* handles, scalars and metadata: no tile or global bytes (a call: walk_block) */
    default:
        break;
    }
    if (op->nregions)
        return;
    Pipe p = op_pipe(c->f, op);
    if (p == PIPE_NONE)
        return;
    if (op->kind == OP_TFREE_FROM_AIC || op->kind == OP_TFREE_FROM_AIV) {
        OpKind pop = op->kind == OP_TFREE_FROM_AIC ? OP_TPOP_FROM_AIC : OP_TPOP_FROM_AIV;
        for (Op *o = ir_first_op(c->f); o && o != op; o = ir_next_op(o))
            if (o->kind == pop && o->nres && same_fifo(o, op))
                value_access(c, op, p, o->res[0], true, out);
        return;
    }
    if (in->cls == OC_LOAD_SCALAR || in->cls == OC_STORE_SCALAR) {
        for (uint32_t i = 0; i < op->nopnds; i++)
            value_access(c, op, p, op->opnds[i], in->cls == OC_STORE_SCALAR, out);
        return;
    }
    for (int r = 0; r < in->nroles; r++) {
        uint32_t first, n = ir_role_operands(op, r, &first);
        bool write = r >= in->nins || (in->flags[r] & ROLE_TEMP);
        for (uint32_t k = 0; k < n; k++)
            value_access(c, op, p, op->opnds[first + k], write, out);
    }
    for (uint32_t i = 0; i < op->nres; i++)
        value_access(c, op, p, op->res[i], true, out);
}

/* Every access of op and of the ops inside its regions. */
static void op_accesses(const Ctx *c, const Op *op, Accs *out)
{
    leaf_accesses(c, op, out);
    for (uint32_t r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].first; b; b = b->next)
            for (Op *o = b->first; o; o = o->next)
                op_accesses(c, o, out);
}

static bool overlap(const Access *x, const Access *y)
{
    if (x->space != y->space)
        return false;
    if (x->kind == MK_ANY || y->kind == MK_ANY)
        return true;
    if (x->kind != y->kind)
        return false; /* a placed tile is never a FIFO entry; a root is never a range */
    if (x->kind == MK_ROOT)
        return x->root == y->root;
    return x->lo < y->hi && y->lo < x->hi;
}

/* Whether an access of the earlier op must finish before one of the later op starts. */
static bool conflict(const Access *early, const Access *late)
{
    if (early->pipe == PIPE_S && late->pipe == PIPE_S)
        return false;
    if (!early->write && !late->write) /* reads of acc on two pipes still conflict (PTOAS) */
        return early->space == LOC_ACC && early->pipe != late->pipe && overlap(early, late);
    if (early->write && late->write && early->tload && late->tload)
        return false;
    return overlap(early, late);
}

/* ---- the walk ----------------------------------------------------------------------- */

typedef struct Walk {
    State st;
    Recs cur;
    const Recs *prev;        /* the second walk of a loop body: the iteration before */
    Op *loop;                /* ... of this loop, whose back edges the walk adds */
    int32_t pos;
} Walk;

static void walk_init(Walk *w)
{
    memset(w, 0, sizeof *w);
    for (int q = 0; q < NP; q++) {
        w->st.last[q] = -1;
        for (int p = 0; p < NP; p++)
            w->st.known[q][p] = -1;
    }
}

static Flag *flag_of(const Ctx *c, const Op *op)
{
    for (uint32_t i = 0; i < c->nflags; i++) {
        Flag *fl = &c->flags[i];
        if (fl->set == op || fl->wait == op || fl->preset == op || fl->postwait == op)
            return fl;
    }
    return NULL;
}

/* What a sync op met on the walk orders: a barrier (the input's or ours) and our flags.
 * The input's flags are not matched up (their ids may be computed): they order nothing
 * here, so the pass may add flags next to them. */
static void apply_sync(const Ctx *c, State *s, const Op *op)
{
    if (op->kind == OP_BARRIER) {
        int p = (int)pipe_attr(op, "pipe");
        for (int q = 0; q < NP; q++)
            for (int r = 0; r < NP; r++)
                if (p == PIPE_ALL || (p == q && p == r))
                    s->known[q][r] = s->last[r] > s->known[q][r] ? s->last[r] : s->known[q][r];
        return;
    }
    Flag *fl = op->synthetic ? flag_of(c, op) : NULL;
    if (!fl || fl->back)
        return;
    if (op == fl->set) {
        memcpy(fl->snap, s->known[fl->src], sizeof fl->snap);
        if (s->last[fl->src] > fl->snap[fl->src])
            fl->snap[fl->src] = s->last[fl->src];
        fl->snap_ok = true;
    } else if (op == fl->wait && fl->snap_ok) {
        for (int p = 0; p < NP; p++)
            if (fl->snap[p] > s->known[fl->dst][p])
                s->known[fl->dst][p] = fl->snap[p];
    }
}

/* Orders the accesses of op after the recorded ones they conflict with, latest first. */
static void order_op(Ctx *c, Walk *w, Op *op, const Accs *accs)
{
    const Recs *from = w->prev ? w->prev : &w->cur;
    for (;;) {
        const Rec *best = NULL;
        Pipe bq = PIPE_NONE;
        for (uint32_t i = 0; i < accs->n; i++) {
            const Access *y = &accs->v[i];
            for (uint32_t k = from->n; k-- > 0;) {
                const Rec *r = &from->v[k];
                if (best && r->pos <= best->pos)
                    break; /* records are in step order */
                if ((!w->prev && r->top == op) || r->pos <= w->st.known[y->pipe][r->a.pipe] || !conflict(&r->a, y))
                    continue;
                best = r;
                bq = (Pipe)y->pipe;
                break;
            }
        }
        if (!best)
            return;
        Pipe p = (Pipe)best->a.pipe;
        int32_t *kq = w->st.known[bq];
        if (p == bq) {
            barrier_before(c, op, bq);
            kq[bq] = w->st.last[bq];
            continue;
        }
        Flag *fl = flag_new(c, p, bq);
        fl->set = sync_new(c, OP_SET_FLAG, p, bq, best->top->name_span);
        fl->wait = sync_new(c, OP_WAIT_FLAG, p, bq, op->name_span);
        insert_after(best->top, fl->set);
        ir_insert_before(op, fl->wait);
        for (int r = 0; r < NP; r++)
            if (best->snap[r] > kq[r])
                kq[r] = best->snap[r];
        if (best->pos > kq[p])
            kq[p] = best->pos;
        if (w->loop) {
            fl->back = true;
            fl->preset = sync_new(c, OP_SET_FLAG, p, bq, w->loop->name_span);
            fl->postwait = sync_new(c, OP_WAIT_FLAG, p, bq, w->loop->name_span);
            ir_insert_before(w->loop, fl->preset);
            insert_after(w->loop, fl->postwait);
        }
    }
}

static void record(Walk *w, Op *op, const Accs *accs)
{
    for (uint32_t i = 0; i < accs->n; i++) {
        if (w->cur.n == w->cur.cap) {
            w->cur.cap = w->cur.cap ? 2 * w->cur.cap : 32;
            w->cur.v = xrealloc(w->cur.v, w->cur.cap * sizeof *w->cur.v);
        }
        Rec *r = &w->cur.v[w->cur.n++];
        r->pos = w->pos;
        r->top = op;
        r->a = accs->v[i];
        memcpy(r->snap, w->st.known[accs->v[i].pipe], sizeof r->snap);
        w->st.last[accs->v[i].pipe] = w->pos;
    }
}

static void nested(Ctx *c, Op *op);

/* One walk over block b; the first walk of a block also orders the inside of its nested ops. */
static void walk_block(Ctx *c, Walk *w, Block *b, bool first)
{
    for (Op *op = b->first; op; op = op->next) {
        if (op_info(op->kind)->cls == OC_SYNC) {
            apply_sync(c, &w->st, op);
            continue;
        }
        if (op_info(op->kind)->cls == OC_CALL && first) {
            /* the callee's ops run on their own pipes: all of ours finish before it, and
             * its finish before what follows */
            Op *after = sync_new(c, OP_BARRIER, PIPE_ALL, PIPE_ALL, op->name_span);
            barrier_before(c, op, PIPE_ALL);
            apply_sync(c, &w->st, op->prev);
            insert_after(op, after);
            continue; /* the walk meets `after` next */
        }
        Accs accs = {0};
        op_accesses(c, op, &accs);
        if (accs.n) {
            order_op(c, w, op, &accs);
            record(w, op, &accs);
            w->pos++;
        }
        free(accs.v);
        if (first && op->nregions)
            nested(c, op);
    }
}

/* A block on its own: what comes before it is ordered before the op that holds it. */
static void fresh_block(Ctx *c, Block *b)
{
    Walk w;
    walk_init(&w);
    walk_block(c, &w, b, true);
    free(w.cur.v);
}

/* An scf.for body: one iteration, then the next one against it (the back edges). */
static void loop_body(Ctx *c, Op *loop, Block *b)
{
    Walk w;
    walk_init(&w);
    walk_block(c, &w, b, true);
    Recs prev = w.cur;
    memset(&w.cur, 0, sizeof w.cur);
    w.prev = &prev;
    w.loop = loop;
    walk_block(c, &w, b, false);
    free(prev.v);
    free(w.cur.v);
}

static bool block_touches(const Ctx *c, const Block *b)
{
    for (const Op *o = b->first; o; o = o->next) {
        Accs a = {0};
        op_accesses(c, o, &a);
        free(a.v);
        if (a.n)
            return true;
    }
    return false;
}

static void nested(Ctx *c, Op *op)
{
    OpClass cls = op_info(op->kind)->cls;
    for (uint32_t r = 0; r < op->nregions; r++)
        for (Block *b = op->regions[r].first; b; b = b->next) {
            if (cls == OC_FOR) {
                loop_body(c, op, b);
            } else {
                /* scf.while: each region runs after either region's last run; a barrier on
                 * every pipe at its start orders that, the walk what is inside */
                if (cls == OC_WHILE && b->first && block_touches(c, b))
                    barrier_before(c, b->first, PIPE_ALL);
                fresh_block(c, b);
            }
        }
}

/* ---- event ids ---------------------------------------------------------------------- */

static void set_event(Ctx *c, Op *op, int id)
{
    if (!op)
        return;
    char buf[16];
    snprintf(buf, sizeof buf, "EVENT_ID%d", id);
    op->attrs[2] = attr("event_id", opaque(c, "event", buf, op->name_span));
}

/* A flag with no free id: a barrier on every pipe where it was waited in the body. */
static void degrade(Ctx *c, Flag *fl)
{
    Op *drop[3] = {fl->set, fl->preset, fl->postwait};
    for (int i = 0; i < 3; i++)
        if (drop[i])
            unlink_op(drop[i]);
    Op *w = fl->wait;
    w->kind = OP_BARRIER;
    w->nattrs = 1;
    w->attrs[0] = attr("pipe", opaque(c, "pipe", "PIPE_ALL", w->name_span));
}

/* Ids per pipe pair in text order: a flag holds its id from its first set (before the loop
 * for a back edge) to its last wait; the lowest free one of 0..7 is taken. */
static void assign_events(Ctx *c)
{
    uint8_t busy[NP][NP];
    memset(busy, 0, sizeof busy);
    int *ids = xcalloc(c->nflags ? c->nflags : 1, sizeof *ids);
    for (uint32_t i = 0; i < c->nflags; i++)
        ids[i] = -2; /* not reached yet */
    for (Op *op = ir_first_op(c->f); op; op = ir_next_op(op)) {
        if (!op->synthetic || (op->kind != OP_SET_FLAG && op->kind != OP_WAIT_FLAG))
            continue;
        Flag *fl = flag_of(c, op);
        if (!fl)
            continue;
        uint32_t i = (uint32_t)(fl - c->flags);
        uint8_t *mask = &busy[fl->src][fl->dst];
        if (op == (fl->back ? fl->preset : fl->set)) {
            int id = 0;
            while (id < NEVENTS && (*mask >> id & 1))
                id++;
            ids[i] = id < NEVENTS ? id : -1;
            if (id < NEVENTS)
                *mask |= (uint8_t)(1u << id);
        } else if (op == (fl->back ? fl->postwait : fl->wait) && ids[i] >= 0) {
            *mask &= (uint8_t)~(1u << ids[i]);
        }
    }
    for (uint32_t i = 0; i < c->nflags; i++) {
        Flag *fl = &c->flags[i];
        if (ids[i] < 0) {
            degrade(c, fl);
            continue;
        }
        set_event(c, fl->set, ids[i]);
        set_event(c, fl->wait, ids[i]);
        set_event(c, fl->preset, ids[i]);
        set_event(c, fl->postwait, ids[i]);
    }
    free(ids);
}

/* ---- the pass ----------------------------------------------------------------------- */

static const char *const mode_flags[] = {
    [SYNC_INSERT] = "--enable-insert-sync",
    [SYNC_BARRIER_ALL] = "--enable-inject-barrier-all-sync",
    [SYNC_GRAPH] = "--enable-graph-sync-solver",
    [SYNC_BUFID] = "--enable-bufid_sync",
};

const char *insert_sync_flag(SyncMode mode)
{
    return mode > SYNC_AUTO && mode <= SYNC_BUFID ? mode_flags[mode] : NULL;
}

bool insert_sync_wanted(const Func *f, const PassConfig *cfg)
{
    if (f->decl || cfg->sync == SYNC_OFF)
        return false;
    if (cfg->sync != SYNC_AUTO)
        return true;
    return pipe_func_auto_synced(f); /* else hand-synchronized: runs as written */
}

/* PTOAS's conservative mode: a barrier on every pipe before each op that touches memory. */
static void barrier_all(Ctx *c)
{
    for (Op *op = ir_first_op(c->f); op; op = ir_next_op(op)) {
        if (op->nregions || op_info(op->kind)->cls == OC_SYNC)
            continue;
        Accs a = {0};
        leaf_accesses(c, op, &a);
        free(a.v);
        if (a.n)
            ir_insert_before(op, sync_new(c, OP_BARRIER, PIPE_ALL, PIPE_ALL, op->name_span));
    }
}

static void sync_func(Ctx *c)
{
    Block *entry = ir_entry(c->f);
    if (c->cfg->sync == SYNC_BARRIER_ALL) {
        barrier_all(c);
        return;
    }
    if (!block_touches(c, entry))
        return;
    fresh_block(c, entry);
    assign_events(c);
    /* PTOAS ends an automatically synchronized kernel with a barrier on every pipe, so
     * that nothing is in flight when it returns */
    Op *last = entry->last;
    if (last && op_info(last->kind)->cls == OC_RETURN)
        ir_insert_before(last, sync_new(c, OP_BARRIER, PIPE_ALL, PIPE_ALL, last->name_span));
}

/* PTOAS refuses a written pto.tassign with its automatic synchronization modes. */
static bool check_tassign(const Func *f, DiagEngine *d, const PassConfig *cfg)
{
    if (cfg->sync == SYNC_AUTO)
        return true;
    for (const Op *op = ir_first_op(f); op; op = ir_next_op(op))
        if (op->kind == OP_TASSIGN && !op->synthetic) {
            diag_error(d, op->name_span, "pto.tassign requires %s to be disabled", insert_sync_flag(cfg->sync));
            return false;
        }
    return true;
}

bool insert_sync_module(Module *m, SourceFile *src, DiagEngine *d, const PassConfig *cfg)
{
    (void)src;
    bool ok = true;
    for (uint32_t i = 0; i < m->nmods; i++)
        for (uint32_t j = 0; j < m->mods[i]->nfuncs; j++) {
            Func *f = m->mods[i]->funcs[j];
            if (!insert_sync_wanted(f, cfg))
                continue;
            if (!check_tassign(f, d, cfg)) {
                ok = false;
                continue;
            }
            Ctx c = {.m = m, .f = f, .cfg = cfg};
            sync_func(&c);
            free(c.flags);
        }
    return ok;
}
