/* race.c - the race checker (issue 23, docs/launch.md 5): which accesses of a run's ops are
 * ordered by what, and a report when two that conflict are not.
 *
 * Every (core, pipe) is a thread of a vector-clock happens-before order (FastTrack's epochs):
 * each pipe of each core keeps a clock per (core, pipe); an access is recorded with its
 * pipe's own clock (its epoch) and is ordered before a later access by another pipe when
 * that pipe's clock of the first pipe has reached the epoch. Releases (set_flag, rls_buf,
 * barrier PIPE_ALL, ptort_race_release) publish a pipe's clocks and advance its own;
 * acquires (wait_flag, get_buf, ptort_race_acquire) join them in. The scalar pipe issues
 * every op in program order and waits for its own accesses, so what it knows any pipe of
 * its core knows at its next op (a version number makes that join lazy).
 *
 * Shadow memory is a list of access records per memory space of each core, and one for
 * global memory (host addresses, shared by every core, under a lock): a record covers rows
 * of bytes (a strided range, as a tile's valid region or a view's rows lie), not single
 * bytes. A write drops the records it covers (they are ordered before it, or it was
 * reported); a read drops the reads it covers that are ordered before it. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define NPIPES 11          /* PIPE_S .. PIPE_FIX, PTOAS's numbering (ptort.h) */
#define PIPE_S 0
#define PIPE_ALL 6
#define FLAG_QUEUE 8       /* sets of one flag not yet waited for, kept in order */
#define MAX_PIECES 256     /* a view with more rows is checked as its bounding range */

typedef uint32_t Clock;

/* Bytes: COUNT rows of LEN bytes, STRIDE apart (STRIDE >= LEN), from LO. */
typedef struct {
    uint64_t lo, len, stride, count;
} Piece;

typedef struct {
    Piece at;
    uint64_t hi;            /* the end of the last row */
    uint32_t thread, epoch; /* the (core, pipe) that accessed, and its clock then */
    int write;
    const char *where, *op; /* the op, for the report */
} Rec;

typedef struct {
    Rec *r;
    size_t n, cap;
} Shadow;

/* A flag (SET_FLAG/WAIT_FLAG: src, dst, event) or a buffer token (RLS_BUF/GET_BUF: id). */
typedef struct {
    int buffer;
    int src, dst;
    int64_t id;
    int n, head;               /* a flag's queued sets */
    Clock *vc[FLAG_QUEUE];     /* a flag's queue; a token's clocks in vc[0] */
} Slot;

typedef struct {
    Clock *vc[NPIPES];         /* each pipe's clocks of every (core, pipe) */
    uint32_t sver, seen[NPIPES]; /* the scalar pipe's version, the one each pipe last joined */
    Shadow mem[PTORT_NUM_LOCS];
    Slot *slots;
    size_t nslots;
} Core;

typedef struct {
    const void *key;
    Clock *vc;
} Token;

struct ptort_race {
    int ncores, nthreads;
    Core *cores;
    atomic_flag lock;          /* gm and the tokens */
    Shadow gm;
    Token *tokens;
    size_t ntokens, captokens;
    atomic_int nomem;          /* an allocation failed: orders may be missing */
};

static const char *const pipe_names[NPIPES] = {
    "PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_ALL", "PIPE_MTE4", "PIPE_MTE5",
    "PIPE_V2", "PIPE_FIX",
};

static void lock(ptort_race *r)
{
    while (atomic_flag_test_and_set_explicit(&r->lock, memory_order_acquire))
        ;
}

static void unlock(ptort_race *r) { atomic_flag_clear_explicit(&r->lock, memory_order_release); }

/* ---- clocks ------------------------------------------------------------------------- */

static Clock *vc_new(ptort_race *r)
{
    Clock *c = calloc((size_t)r->nthreads, sizeof *c);
    if (!c)
        atomic_store(&r->nomem, 1);
    return c;
}

static void vc_join(Clock *d, const Clock *s, int n)
{
    for (int i = 0; i < n; i++)
        d[i] = s[i] > d[i] ? s[i] : d[i];
}

/* Pipe P's clocks, with what the scalar pipe knows joined in (it issued this op). */
static Clock *pipe_vc(ptort_race *r, Core *c, int p)
{
    if (p != PIPE_S && c->seen[p] != c->sver) {
        vc_join(c->vc[p], c->vc[PIPE_S], r->nthreads);
        c->seen[p] = c->sver;
    }
    return c->vc[p];
}

/* Pipe P's clocks changed: its own advances (a release), and the others learn the scalar's. */
static void changed(Core *c, int p, int core, int advance)
{
    if (advance)
        c->vc[p][core * NPIPES + p]++;
    if (p == PIPE_S)
        c->sver++;
}

/* ---- pieces ------------------------------------------------------------------------- */

static uint64_t piece_end(const Piece *p) { return p->lo + (p->count - 1) * p->stride + p->len; }

/* A piece of COUNT rows, one range when the rows touch or overlap. */
static Piece piece(uint64_t lo, uint64_t len, uint64_t stride, uint64_t count)
{
    Piece p = {lo, len, stride, count};
    if (count <= 1 || stride <= len) {
        p.len = count <= 1 ? len : (count - 1) * stride + len;
        p.stride = p.len;
        p.count = 1;
    }
    return p;
}

/* Whether A and B share a byte; the first shared range of A's rows in *LO, *HI. */
static int overlap(const Piece *a, const Piece *b, uint64_t *lo, uint64_t *hi)
{
    if (a->count > b->count) {
        const Piece *t = a;
        a = b;
        b = t;
    }
    uint64_t bend = piece_end(b);
    for (uint64_t i = 0; i < a->count; i++) {
        uint64_t x = a->lo + i * a->stride, xe = x + a->len;
        if (x >= bend)
            break;
        if (xe <= b->lo)
            continue;
        uint64_t jmax = (xe - 1 - b->lo) / b->stride;
        uint64_t jmin = x < b->lo + b->len ? 0 : (x - b->lo - b->len) / b->stride + 1;
        if (jmax > b->count - 1)
            jmax = b->count - 1;
        if (jmin <= jmax) {
            uint64_t y = b->lo + jmin * b->stride;
            *lo = x > y ? x : y;
            *hi = xe < y + b->len ? xe : y + b->len;
            return 1;
        }
    }
    return 0;
}

/* Whether P covers every byte of record R. */
static int covers(const Piece *p, const Rec *r)
{
    if (p->count == 1)
        return p->lo <= r->at.lo && r->hi <= p->lo + p->len;
    return p->lo == r->at.lo && p->len == r->at.len && p->stride == r->at.stride && p->count == r->at.count;
}

/* The bytes of a tile: its valid region's rows (row-major none_box), else all its bytes. */
static int tile_pieces(const ptort_tile *t, Piece *out)
{
    int64_t es = ptort_dtype_size(t->dtype), bytes = ptort_tile_bytes(t);
    if (es <= 0 || bytes <= 0 || t->addr < 0 || t->valid_rows == 0 || t->valid_cols == 0)
        return 0;
    if (tile_is_row_major(t) && t->valid_rows > 0 && t->valid_cols > 0 && t->valid_rows <= t->rows &&
        t->valid_cols <= t->cols) {
        int64_t rs = tile_row_stride(t) * es;
        out[0] = piece((uint64_t)t->addr, (uint64_t)(t->valid_cols * es), (uint64_t)rs, (uint64_t)t->valid_rows);
        return 1;
    }
    out[0] = piece((uint64_t)t->addr, (uint64_t)bytes, (uint64_t)bytes, 1);
    return 1;
}

/* The bytes of a view: its innermost contiguous run (or element) by the next dimension's rows,
 * one piece per index of the dimensions outside them; its bounding range when that makes
 * more than MAX_PIECES or a stride is negative. */
static int view_pieces(const ptort_view *v, Piece *out)
{
    int64_t es = ptort_dtype_size(v->dtype);
    int rank = v->rank;
    if (es <= 0 || rank < 1 || rank > PTORT_VIEW_MAX_RANK)
        return 0;
    int64_t lo = v->offset, hi = v->offset, n = 1;
    for (int k = 0; k < rank; k++) {
        if (v->shape[k] <= 0)
            return 0;
        if (v->stride[k] < 0)
            lo += (v->shape[k] - 1) * v->stride[k];
        else
            hi += (v->shape[k] - 1) * v->stride[k];
    }
    uint64_t base = (uint64_t)(uintptr_t)v->base;
    int inner = rank - 1; /* dimensions [inner, rank) make one piece */
    int64_t run = es, rstride = v->stride[rank - 1] * es, rows = v->shape[rank - 1];
    if (v->stride[rank - 1] == 1 && rank >= 2) {
        run = v->shape[rank - 1] * es;
        rstride = v->stride[rank - 2] * es;
        rows = v->shape[rank - 2];
        inner = rank - 2;
    }
    for (int k = 0; k < inner; k++)
        n *= v->shape[k];
    int neg = lo < 0 || rstride < 0;
    for (int k = 0; k < rank; k++)
        neg |= v->stride[k] < 0;
    if (n > MAX_PIECES || neg) {
        out[0] = piece(base + (uint64_t)(lo * es), (uint64_t)((hi - lo + 1) * es), 0, 1);
        return 1;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t at = v->offset, rest = i;
        for (int k = inner - 1; k >= 0; k--) {
            at += (rest % v->shape[k]) * v->stride[k];
            rest /= v->shape[k];
        }
        out[i] = piece(base + (uint64_t)(at * es), (uint64_t)run, (uint64_t)rstride, (uint64_t)rows);
    }
    return (int)n;
}

/* ---- shadow memory ------------------------------------------------------------------ */

static int shadow_add(ptort_race *r, Shadow *s, const Rec *x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        Rec *p = realloc(s->r, cap * sizeof *p);
        if (!p) {
            atomic_store(&r->nomem, 1);
            return 0;
        }
        s->r = p;
        s->cap = cap;
    }
    s->r[s->n++] = *x;
    return 1;
}

/* Checks access X (its piece in X->at) against the records of S with the clocks VC of X's
 * pipe: the first record it conflicts with is returned (the shared bytes in *LO, *HI);
 * else X is recorded, and the records it makes redundant (the file comment) are dropped.
 * One pass: most records do not even share the bounding range. */
static const Rec *check_and_record(ptort_race *r, Shadow *s, const Rec *x, const Clock *vc, uint64_t *lo,
                                   uint64_t *hi)
{
    for (size_t i = 0; i < s->n;) {
        const Rec *y = &s->r[i];
        if (y->hi <= x->at.lo || x->hi <= y->at.lo) {
            i++;
            continue;
        }
        int before = y->thread == x->thread || y->epoch <= vc[y->thread];
        if (!before && (x->write || y->write) && overlap(&x->at, &y->at, lo, hi))
            return y;
        if ((x->write || (!y->write && before)) && covers(&x->at, y))
            s->r[i] = s->r[--s->n];
        else
            i++;
    }
    shadow_add(r, s, x);
    return NULL;
}

/* ---- the report --------------------------------------------------------------------- */

static ptort_status report(ptort_ctx *ctx, const Rec *now, const Rec *was, const ptort_race_ref *ref,
                           uint64_t lo, uint64_t hi, uint64_t base)
{
    ptort_race *r = ctx->race;
    int np = (int)(now->thread % NPIPES), wp = (int)(was->thread % NPIPES);
    int nc = (int)(now->thread / NPIPES), wc = (int)(was->thread / NPIPES);
    char space[16], ncore[32] = "", wcore[32] = "", fix[160];
    snprintf(space, sizeof space, "%s", ref->tile ? ptort_loc_name(ref->tile->loc) : "GM");
    if (r->ncores > 1) {
        snprintf(ncore, sizeof ncore, " of core %d", nc);
        snprintf(wcore, sizeof wcore, " of core %d", wc);
    }
    if (nc == wc)
        snprintf(fix, sizeof fix, "pto.set_flag[<%s>, <%s>, <EVENT_ID0>] after the earlier op and "
                 "pto.wait_flag[<%s>, <%s>, <EVENT_ID0>] before this one", pipe_names[wp], pipe_names[np],
                 pipe_names[wp], pipe_names[np]);
    else
        snprintf(fix, sizeof fix, "pto.sync.set <%s>, 0 after the earlier op and pto.sync.wait <%s>, 0 before "
                 "this one", pipe_names[wp], pipe_names[np]);
    return ptort_fail(ctx, PTORT_E_RACE,
                      "data race: '%s' on %s%s %s %s bytes [%llu, %llu) of '%s', which '%s' at %s on %s%s %s, "
                      "with nothing ordering the two (add %s)",
                      now->op, pipe_names[np], ncore, now->write ? "writes" : "reads", space,
                      (unsigned long long)(lo - base), (unsigned long long)(hi - base), ref->name ? ref->name : "?",
                      was->op, was->where, pipe_names[wp], wcore, was->write ? "writes" : "reads", fix);
}

/* ---- the interface ------------------------------------------------------------------ */

ptort_race *ptort_race_new(int ncores)
{
    if (ncores < 1)
        return NULL;
    ptort_race *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->ncores = ncores;
    r->nthreads = ncores * NPIPES;
    atomic_flag_clear(&r->lock);
    r->cores = calloc((size_t)ncores, sizeof *r->cores);
    if (!r->cores) {
        free(r);
        return NULL;
    }
    for (int c = 0; c < ncores; c++)
        for (int p = 0; p < NPIPES; p++) {
            Clock *vc = r->cores[c].vc[p] = vc_new(r);
            if (!vc) {
                ptort_race_free(r);
                return NULL;
            }
            vc[c * NPIPES + p] = 1;
        }
    return r;
}

void ptort_race_free(ptort_race *r)
{
    if (!r)
        return;
    for (int c = 0; c < r->ncores; c++) {
        Core *k = &r->cores[c];
        for (int p = 0; p < NPIPES; p++)
            free(k->vc[p]);
        for (int l = 0; l < PTORT_NUM_LOCS; l++)
            free(k->mem[l].r);
        for (size_t i = 0; i < k->nslots; i++)
            for (int q = 0; q < FLAG_QUEUE; q++)
                free(k->slots[i].vc[q]);
        free(k->slots);
    }
    for (size_t i = 0; i < r->ntokens; i++)
        free(r->tokens[i].vc);
    free(r->tokens);
    free(r->gm.r);
    free(r->cores);
    free(r);
}

void ptort_race_attach(ptort_ctx *ctx, ptort_race *race, int core)
{
    if (!ctx)
        return;
    int ok = race && core >= 0 && core < race->ncores;
    ctx->race = ok ? race : NULL;
    ctx->race_core = ok ? core : 0;
}

/* One access (REF) of an op: checked, then recorded. */
static ptort_status race_access(ptort_ctx *ctx, Rec *x, const Clock *vc, const ptort_race_ref *ref)
{
    ptort_race *r = ctx->race;
    Piece pc[MAX_PIECES];
    int n = 0;
    uint64_t base = 0;
    Shadow *s;
    if (ref->tile) {
        if ((unsigned)ref->tile->loc >= PTORT_NUM_LOCS)
            return PTORT_OK;
        n = tile_pieces(ref->tile, pc);
        s = &r->cores[ctx->race_core].mem[ref->tile->loc];
    } else {
        if (ref->view) {
            n = view_pieces(ref->view, pc);
            base = (uint64_t)(uintptr_t)ref->view->base;
        } else if (ref->gm && ref->gm_bytes > 0) {
            base = (uint64_t)(uintptr_t)ref->gm;
            pc[n++] = piece(base + (uint64_t)ref->gm_off, (uint64_t)ref->gm_bytes, 0, 1);
        }
        s = &r->gm;
    }
    x->write = ref->write != 0;
    ptort_status st = PTORT_OK;
    if (!ref->tile)
        lock(r);
    for (int i = 0; i < n && st == PTORT_OK; i++) {
        uint64_t lo, hi;
        x->at = pc[i];
        x->hi = piece_end(&pc[i]);
        const Rec *y = check_and_record(r, s, x, vc, &lo, &hi);
        if (y) {
            Rec was = *y;
            st = report(ctx, x, &was, ref, lo, hi, base);
            break;
        }
    }
    if (!ref->tile)
        unlock(r);
    return st;
}

ptort_status ptort_race_op(ptort_ctx *ctx, int pipe, const char *where, const char *op, int n,
                           const ptort_race_ref *refs)
{
    if (!ctx || !ctx->race || pipe < 0 || pipe >= NPIPES || pipe == PIPE_ALL)
        return PTORT_OK;
    ptort_race *r = ctx->race;
    int core = ctx->race_core;
    Clock *vc = pipe_vc(r, &r->cores[core], pipe);
    Rec x = {.thread = (uint32_t)(core * NPIPES + pipe), .where = where ? where : "?", .op = op ? op : "?"};
    x.epoch = vc[x.thread];
    /* reads first: an op that reads and writes one tile is checked as its write */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            if ((refs[i].write != 0) != pass)
                continue;
            ptort_status st = race_access(ctx, &x, vc, &refs[i]);
            if (st != PTORT_OK)
                return st;
        }
    if (atomic_load(&r->nomem))
        return ptort_fail(ctx, PTORT_E_NOMEM, "out of memory in the race checker");
    return PTORT_OK;
}

/* The slot of a flag or token of core C, made when first used; NULL when out of memory. */
static Slot *slot(ptort_race *r, Core *c, int buffer, int src, int dst, int64_t id)
{
    for (size_t i = 0; i < c->nslots; i++) {
        Slot *s = &c->slots[i];
        if (s->buffer == buffer && s->src == src && s->dst == dst && s->id == id)
            return s;
    }
    Slot *p = realloc(c->slots, (c->nslots + 1) * sizeof *p);
    if (!p) {
        atomic_store(&r->nomem, 1);
        return NULL;
    }
    c->slots = p;
    Slot *s = &p[c->nslots++];
    memset(s, 0, sizeof *s);
    s->buffer = buffer;
    s->src = src;
    s->dst = dst;
    s->id = id;
    return s;
}

/* barrier PIPE_ALL: every pipe of core C knows what any of them did, and advances. */
static void barrier_all(ptort_race *r, Core *c, int core)
{
    for (int p = 1; p < NPIPES; p++)
        vc_join(c->vc[PIPE_S], pipe_vc(r, c, p), r->nthreads);
    for (int p = 1; p < NPIPES; p++)
        memcpy(c->vc[p], c->vc[PIPE_S], (size_t)r->nthreads * sizeof(Clock));
    for (int p = 0; p < NPIPES; p++)
        changed(c, p, core, 1);
}

void ptort_race_sync(ptort_ctx *ctx, ptort_race_sync_kind kind, int pipe, int dst, int64_t id)
{
    if (!ctx || !ctx->race || pipe < 0 || pipe >= NPIPES)
        return;
    ptort_race *r = ctx->race;
    int core = ctx->race_core;
    Core *c = &r->cores[core];
    if (kind == PTORT_RACE_BARRIER) {
        if (pipe == PIPE_ALL)
            barrier_all(r, c, core);
        return;
    }
    if (pipe == PIPE_ALL || ((kind == PTORT_RACE_SET_FLAG || kind == PTORT_RACE_WAIT_FLAG) &&
                             (dst < 0 || dst >= NPIPES || dst == PIPE_ALL)))
        return;
    int buffer = kind == PTORT_RACE_GET_BUF || kind == PTORT_RACE_RLS_BUF;
    Slot *s = slot(r, c, buffer, buffer ? 0 : pipe, buffer ? 0 : dst, id);
    if (!s)
        return;
    if (kind == PTORT_RACE_SET_FLAG || kind == PTORT_RACE_RLS_BUF) {
        int q = buffer ? 0 : (s->head + s->n) % FLAG_QUEUE;
        if (!buffer && s->n == FLAG_QUEUE) /* full: the newest set joins the last one */
            q = (s->head + s->n - 1) % FLAG_QUEUE;
        if (!s->vc[q] && !(s->vc[q] = vc_new(r)))
            return;
        if (!buffer && s->n < FLAG_QUEUE) {
            memset(s->vc[q], 0, (size_t)r->nthreads * sizeof(Clock));
            s->n++;
        }
        vc_join(s->vc[q], pipe_vc(r, c, pipe), r->nthreads);
        changed(c, pipe, core, 1);
        return;
    }
    int to = buffer ? pipe : dst;
    if (buffer ? !s->vc[0] : s->n == 0)
        return; /* nothing set or released yet: nothing to order after */
    vc_join(pipe_vc(r, c, to), s->vc[buffer ? 0 : s->head], r->nthreads);
    if (!buffer) {
        s->head = (s->head + 1) % FLAG_QUEUE;
        s->n--;
    }
    changed(c, to, core, 0);
}

/* The token's clocks, made when first used (the lock held); NULL when out of memory. */
static Clock *token(ptort_race *r, const void *key, int make)
{
    for (size_t i = 0; i < r->ntokens; i++)
        if (r->tokens[i].key == key)
            return r->tokens[i].vc;
    if (!make)
        return NULL;
    if (r->ntokens == r->captokens) {
        size_t cap = r->captokens ? 2 * r->captokens : 16;
        Token *p = realloc(r->tokens, cap * sizeof *p);
        if (!p) {
            atomic_store(&r->nomem, 1);
            return NULL;
        }
        r->tokens = p;
        r->captokens = cap;
    }
    Clock *vc = vc_new(r);
    if (vc)
        r->tokens[r->ntokens++] = (Token){key, vc};
    return vc;
}

/* The pipes PIPE names: itself, or every pipe for PIPE_ALL; 0 when none. */
static int pipe_range(int pipe, int *first, int *last)
{
    if (pipe < 0 || pipe >= NPIPES)
        return 0;
    *first = pipe == PIPE_ALL ? 0 : pipe;
    *last = pipe == PIPE_ALL ? NPIPES - 1 : pipe;
    return 1;
}

void ptort_race_release(ptort_ctx *ctx, int pipe, const void *token_key)
{
    int first, last;
    if (!ctx || !ctx->race || !pipe_range(pipe, &first, &last))
        return;
    ptort_race *r = ctx->race;
    Core *c = &r->cores[ctx->race_core];
    lock(r);
    Clock *t = token(r, token_key, 1);
    for (int p = first; t && p <= last; p++)
        if (p != PIPE_ALL)
            vc_join(t, pipe_vc(r, c, p), r->nthreads);
    unlock(r);
    for (int p = first; p <= last; p++)
        if (p != PIPE_ALL)
            changed(c, p, ctx->race_core, 1);
}

void ptort_race_acquire(ptort_ctx *ctx, int pipe, const void *token_key)
{
    int first, last;
    if (!ctx || !ctx->race || !pipe_range(pipe, &first, &last))
        return;
    ptort_race *r = ctx->race;
    Core *c = &r->cores[ctx->race_core];
    lock(r);
    Clock *t = token(r, token_key, 0);
    for (int p = first; t && p <= last; p++)
        if (p != PIPE_ALL) {
            vc_join(pipe_vc(r, c, p), t, r->nthreads);
            changed(c, p, ctx->race_core, 0);
        }
    unlock(r);
}
