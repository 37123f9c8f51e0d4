/* launch.c - launches (issue 23, docs/launch.md): the launch coordinates of the core a context
 * runs (what pto.get_block_idx, get_block_num, get_subblock_idx and get_subblock_num return),
 * and ptort_launch_run, which runs every block's cube core and vector cores as threads, each
 * with a context (on-chip memories) of its own, sharing the host arrays of the pointer
 * arguments (global memory). The cores of a block talk through FIFOs of the declared slot
 * size and count and through cross-core signals; every block waits in pto.syncall.
 *
 * One mutex and one condition variable per launch guard all of its FIFO and signal state: a
 * core that must wait records what it waits for and re-checks after each broadcast. Before
 * it sleeps it checks whether every live core of the launch waits for something that cannot
 * happen; then the launch deadlocked, and it reports each waiting core at its op and stops
 * them all. Data moves outside the lock: a slot belongs to its producer from the moment it is
 * free until the push, and to its consumers from the pop until every consumer freed it. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

int64_t ptort_block_id(const ptort_ctx *ctx, ptort_block_query q)
{
    return ctx && (unsigned)q <= PTORT_SUBBLOCK_NUM ? ctx->launch[q] : 0;
}

ptort_status ptort_set_launch(ptort_ctx *ctx, int64_t block_idx, int64_t block_num, int64_t sub_idx, int64_t sub_num)
{
    if (!ctx)
        return PTORT_E_ARG;
    if (block_num < 1 || block_idx < 0 || block_idx >= block_num || sub_num < 1 || sub_idx < 0 || sub_idx >= sub_num)
        return ptort_fail(ctx, PTORT_E_ARG, "launch: block %lld of %lld, subblock %lld of %lld is no core of a launch",
                          (long long)block_idx, (long long)block_num, (long long)sub_idx, (long long)sub_num);
    ctx->launch[PTORT_BLOCK_IDX] = block_idx;
    ctx->launch[PTORT_BLOCK_NUM] = block_num;
    ctx->launch[PTORT_SUBBLOCK_IDX] = sub_idx;
    ctx->launch[PTORT_SUBBLOCK_NUM] = sub_num;
    return PTORT_OK;
}

void ptort_set_launch_options(ptort_ctx *ctx, int64_t blocks, int64_t block, int64_t threads)
{
    if (!ctx)
        return;
    ctx->launch_opt[0] = blocks;
    ctx->launch_opt[1] = block;
    ctx->launch_opt[2] = threads;
}

/* ---- the launch's state ------------------------------------------------------------------ */

#define NSUB 2        /* vector cores per cube core: 1:2 on A2/A3 and on A5 */
#define MAX_PIPES 16  /* pipe ids per block (PTOAS: 16 hardware flags, 2 per pipe direction) */
#define NEVENTS 16    /* cross-core signal ids */

enum { W_PUSH = 1, W_POP, W_SIGNAL, W_SYNCALL };

typedef struct Slot {
    uint8_t *data;         /* the entry's valid region, row-major, ROWS x COLS elements */
    int64_t rows, cols;
    ptort_dtype dt;
} Slot;

/* One direction of one pipe id of a block. Lanes: the vector cores (C2V consumers, V2C
 * producers); the cube side uses lane 0. */
typedef struct Fifo {
    int used, dir;
    int64_t id, slot_size, slot_num;
    int declared_by;       /* 1 + the core kind that declared it first */
    int64_t pushed[NSUB], popped[NSUB], freed[NSUB];
    Slot *slots;
} Fifo;

typedef struct Block {
    Fifo fifo[MAX_PIPES * 2];
    int64_t set_by_cube[NEVENTS], set_by_vec[NSUB][NEVENTS];
} Block;

/* What a core declared with *_initialize_pipe. */
typedef struct PipeInit {
    int used;
    int64_t id, dir_mask, buf[2];
} PipeInit;

struct Launch;

struct ptort_core {
    struct Launch *L;
    Block *B;
    int64_t block;
    ptort_core_kind kind;
    int sub, index;
    ptort_ctx *ctx;
    const ptort_launch_func *fn;
    ptort_kernel_value *vals;
    PipeInit init[MAX_PIPES];
    int64_t got[NEVENTS];  /* signals consumed by sync.wait */
    uint8_t *tmp;          /* a part of an entry on its way */
    size_t tmp_size;
    /* guarded by the launch's mutex */
    int live, waiting;
    int wkind, wlane, wsplit;
    Fifo *wf;
    int64_t wn, wev, wgen;
    const char *wop, *wwhere;
};
typedef struct ptort_core Core;

typedef struct Launch {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const ptort_launch_desc *d;
    const ptort_kernel_value *values;
    ptort_ctx *ctx0;
    ptort_race *race;
    int64_t nblocks, first, nrun, next;
    int per;               /* cores per block */
    Block *blocks;         /* the blocks that run, by block - first */
    Core *cores;           /* nrun * per */
    int stopped;
    ptort_status status;
    int64_t arrived, gen;  /* syncall */
} Launch;

/* ---- waiting ----------------------------------------------------------------------------- */

static int64_t min_freed(const Fifo *f, int lanes)
{
    int64_t m = f->freed[0];
    for (int l = 1; l < lanes; l++)
        if (f->freed[l] < m)
            m = f->freed[l];
    return m;
}

/* Whether what waiting core c waits for has happened (under the lock). */
static int ready(const Core *c)
{
    const Fifo *f = c->wf;
    const Launch *L = c->L;
    switch (c->wkind) {
    case W_PUSH: /* a free slot: C2V every vector freed it, V2C the cube did */
        return c->wn - (f->dir == 0 ? min_freed(f, NSUB) : f->freed[0]) < f->slot_num;
    case W_POP:
        if (f->dir == 0)
            return f->pushed[0] > c->wn;
        for (int l = 0; l < (c->wsplit ? NSUB : 1); l++)
            if (f->pushed[l] <= c->wn)
                return 0;
        return 1;
    case W_SIGNAL:
        if (c->kind == PTORT_CORE_VECTOR)
            return c->B->set_by_cube[c->wev] > c->got[c->wev];
        for (int l = 0; l < NSUB; l++)
            if (c->B->set_by_vec[l][c->wev] <= c->got[c->wev])
                return 0;
        return 1;
    case W_SYNCALL:
        return L->gen != c->wgen;
    default:
        return 1;
    }
}

static void core_name(const Core *c, char *buf, size_t n)
{
    if (c->kind == PTORT_CORE_CUBE)
        snprintf(buf, n, "block %lld cube", (long long)c->block);
    else
        snprintf(buf, n, "block %lld vector %d", (long long)c->block, c->sub);
}

/* Why waiting core c cannot go on, for the deadlock report. */
static void wait_reason(const Core *c, char *buf, size_t n)
{
    const Fifo *f = c->wf;
    const char *dir = f && f->dir ? "v2c" : "c2v";
    switch (c->wkind) {
    case W_PUSH:
        snprintf(buf, n, "%s pipe %lld is full: none of its %lld slots was freed", dir, (long long)f->id,
                 (long long)f->slot_num);
        break;
    case W_POP:
        snprintf(buf, n, "%s pipe %lld has no entry to pop", dir, (long long)f->id);
        break;
    case W_SIGNAL:
        snprintf(buf, n, "signal %lld is not set by the %s", (long long)c->wev,
                 c->kind == PTORT_CORE_CUBE ? "vector cores" : "cube");
        break;
    default:
        snprintf(buf, n, "not every core of the launch arrives");
        break;
    }
}

/* Stops the launch when every live core waits for what cannot happen, reporting each of
 * them in core order at its op (under the lock). */
static void check_deadlock(Launch *L)
{
    int64_t n = L->nrun * L->per, nlive = 0;
    for (int64_t i = 0; i < n; i++) {
        const Core *c = &L->cores[i];
        if (!c->live)
            continue;
        nlive++;
        if (!c->waiting || ready(c))
            return;
    }
    if (!nlive || L->stopped)
        return;
    for (int64_t i = 0; i < n; i++) {
        const Core *c = &L->cores[i];
        if (!c->live)
            continue;
        char who[64], why[160];
        core_name(c, who, sizeof who);
        wait_reason(c, why, sizeof why);
        fprintf(stderr, "%s: runtime error: deadlock: %s waits at '%s': %s\n", c->wwhere, who, c->wop, why);
    }
    fflush(stderr);
    L->stopped = 1;
    if (L->status == PTORT_OK)
        L->status = PTORT_E_STOPPED;
    pthread_cond_broadcast(&L->cv);
}

/* Waits (under the lock) until ready(c); PTORT_E_STOPPED when the launch stops first. */
static ptort_status wait_for(Core *c, const char *op, const char *where)
{
    Launch *L = c->L;
    c->wop = op;
    c->wwhere = where;
    c->waiting = 1;
    for (;;) {
        if (L->stopped)
            break;
        if (ready(c)) {
            c->waiting = 0;
            return PTORT_OK;
        }
        check_deadlock(L);
        if (!L->stopped)
            pthread_cond_wait(&L->cv, &L->mu);
    }
    c->waiting = 0;
    return ptort_fail(c->ctx, PTORT_E_STOPPED, "the launch stopped");
}

/* ---- pipes ------------------------------------------------------------------------------- */

static ptort_status no_launch(ptort_ctx *ctx, const char *op)
{
    return ptort_fail(ctx, PTORT_E_ARG, "'%s' needs a launch: its other end runs on another core (a module with a cube "
                      "and a vector function, docs/launch.md)", op);
}

/* The FIFO of pipe ID in direction DIR of c's block, made when first declared (under the
 * lock); NULL when there is no room. */
static Fifo *fifo_find(Core *c, int64_t id, int dir, int make)
{
    for (int i = 0; i < MAX_PIPES * 2; i++) {
        Fifo *f = &c->B->fifo[i];
        if (f->used && f->id == id && f->dir == dir)
            return f;
        if (!f->used && make) {
            memset(f, 0, sizeof *f);
            f->used = 1;
            f->id = id;
            f->dir = dir;
            return f;
        }
    }
    return NULL;
}

static PipeInit *init_of(Core *c, int64_t id)
{
    for (int i = 0; i < MAX_PIPES; i++)
        if (c->init[i].used && c->init[i].id == id)
            return &c->init[i];
    return NULL;
}

/* Declares one direction of a pipe in the block (under the lock). */
static ptort_status declare(Core *c, int64_t id, int dir, int64_t slot_size, int64_t slot_num)
{
    Fifo *f = fifo_find(c, id, dir, 1);
    if (!f)
        return ptort_fail(c->ctx, PTORT_E_ARG, "pipe %lld: a block has room for %d pipes", (long long)id, MAX_PIPES);
    if (f->declared_by) {
        if (f->slot_size != slot_size || f->slot_num != slot_num)
            return ptort_fail(c->ctx, PTORT_E_ARG,
                              "pipe %lld: the %s declares %lld slots of %lld bytes, the %s %lld slots of %lld bytes",
                              (long long)id, f->declared_by == 1 ? "cube" : "vector core", (long long)f->slot_num,
                              (long long)f->slot_size, c->kind == PTORT_CORE_CUBE ? "cube" : "vector core",
                              (long long)slot_num, (long long)slot_size);
        return PTORT_OK;
    }
    f->slot_size = slot_size;
    f->slot_num = slot_num;
    f->declared_by = 1 + (int)c->kind;
    f->slots = calloc((size_t)slot_num, sizeof *f->slots);
    if (!f->slots)
        return ptort_fail(c->ctx, PTORT_E_NOMEM, "pipe %lld: out of memory", (long long)id);
    for (int64_t k = 0; k < slot_num; k++)
        if (!(f->slots[k].data = malloc((size_t)slot_size)))
            return ptort_fail(c->ctx, PTORT_E_NOMEM, "pipe %lld: out of memory", (long long)id);
    return PTORT_OK;
}

ptort_status ptort_pipe_init(ptort_ctx *ctx, int64_t id, int64_t dir_mask, int64_t slot_size, int64_t slot_num,
                             int64_t c2v_buf, int64_t v2c_buf, const char *op)
{
    Core *c = ctx ? ctx->core : NULL;
    if (!c)
        return ctx ? no_launch(ctx, op) : PTORT_E_ARG;
    if (dir_mask < 1 || dir_mask > 3 || slot_size < 1 || slot_size > ((int64_t)1 << 30) || slot_num < 1 ||
        slot_num > 64)
        return ptort_fail(ctx, PTORT_E_ARG, "pipe %lld: dir_mask %lld, %lld slots of %lld bytes is no pipe a launch runs",
                          (long long)id, (long long)dir_mask, (long long)slot_num, (long long)slot_size);
    PipeInit *p = init_of(c, id);
    for (int i = 0; !p && i < MAX_PIPES; i++)
        if (!c->init[i].used)
            p = &c->init[i];
    if (!p)
        return ptort_fail(ctx, PTORT_E_ARG, "pipe %lld: a core has room for %d pipes", (long long)id, MAX_PIPES);
    *p = (PipeInit){1, id, dir_mask, {c2v_buf, v2c_buf}};
    /* the consumer's buffer: C2V the vector core's, V2C the cube's */
    int cons = c->kind == PTORT_CORE_CUBE ? 1 : 0;
    if ((dir_mask & (1 << cons)) && p->buf[cons] < 0)
        return ptort_fail(ctx, PTORT_E_ARG, "pipe %lld: the consumer side declares no %s_consumer_buf", (long long)id,
                          cons ? "v2c" : "c2v");
    pthread_mutex_lock(&c->L->mu);
    ptort_status st = PTORT_OK;
    for (int dir = 0; dir < 2 && st == PTORT_OK; dir++)
        if (dir_mask & (1 << dir))
            st = declare(c, id, dir, slot_size, slot_num);
    pthread_mutex_unlock(&c->L->mu);
    return st;
}

/* The declared FIFO of pipe ID in direction DIR for c's op (under the lock), else NULL after
 * recording why. */
static Fifo *fifo_for(Core *c, int64_t id, int dir, const char *op)
{
    const PipeInit *p = init_of(c, id);
    Fifo *f = p && (p->dir_mask & (1 << dir)) ? fifo_find(c, id, dir, 0) : NULL;
    if (!f)
        ptort_fail(c->ctx, PTORT_E_ARG, "'%s': this core declared no %s pipe %lld before (pto.%s_initialize_pipe)", op,
                   dir ? "v2c" : "c2v", (long long)id, c->kind == PTORT_CORE_CUBE ? "aic" : "aiv");
    return f;
}

static uint8_t *core_tmp(Core *c, size_t n)
{
    if (n > c->tmp_size) {
        uint8_t *p = realloc(c->tmp, n);
        if (!p)
            return NULL;
        c->tmp = p;
        c->tmp_size = n;
    }
    return c->tmp;
}

/* Copies a ROWS x COLS block between row-major arrays of row strides SS and DS elements. */
static void copy_rows(uint8_t *d, int64_t ds, const uint8_t *s, int64_t ss, int64_t rows, int64_t cols, int es)
{
    for (int64_t r = 0; r < rows; r++)
        memcpy(d + (size_t)(r * ds) * (size_t)es, s + (size_t)(r * ss) * (size_t)es, (size_t)(cols * es));
}

ptort_status ptort_tpush(ptort_ctx *ctx, int64_t id, int dir, int split, int pipe, const ptort_tile *src,
                         const char *op, const char *where)
{
    Core *c = ctx ? ctx->core : NULL;
    if (!c)
        return ctx ? no_launch(ctx, op) : PTORT_E_ARG;
    ptort_status st = ptort_check_operand(ctx, op, "src", src);
    if (st)
        return st;
    if (dir == 1 && split == 0 && c->sub != 0)
        return PTORT_OK; /* an unsplit V2C entry comes from vector core 0 alone (pto-isa) */
    int lane = dir == 0 ? 0 : c->sub, es = ptort_dtype_size(src->dtype);
    int64_t vr = src->valid_rows, vc = src->valid_cols;
    /* a V2C part goes into the vector core's half of the entry */
    int64_t rows = dir == 1 && split == 1 ? 2 * vr : vr, cols = dir == 1 && split == 2 ? 2 * vc : vc;
    int64_t r0 = dir == 1 && split == 1 ? lane * vr : 0, c0 = dir == 1 && split == 2 ? lane * vc : 0;
    Launch *L = c->L;
    pthread_mutex_lock(&L->mu);
    Fifo *f = fifo_for(c, id, dir, op);
    if (!f) {
        pthread_mutex_unlock(&L->mu);
        return PTORT_E_ARG;
    }
    if (rows * cols * es > f->slot_size) {
        pthread_mutex_unlock(&L->mu);
        return ptort_fail(ctx, PTORT_E_SHAPE, "'%s': an entry of %lldx%lld %s elements (%lld bytes) does not fit a slot of "
                          "pipe %lld (slot_size %lld)", op, (long long)rows, (long long)cols, ptort_dtype_name(src->dtype),
                          (long long)(rows * cols * es), (long long)id, (long long)f->slot_size);
    }
    c->wkind = W_PUSH;
    c->wf = f;
    c->wn = f->pushed[lane];
    st = wait_for(c, op, where);
    pthread_mutex_unlock(&L->mu);
    if (st)
        return st;
    Slot *s = &f->slots[c->wn % f->slot_num];
    uint8_t *part = core_tmp(c, (size_t)(vr * vc * es) + 1);
    if (!part)
        return ptort_fail(ctx, PTORT_E_NOMEM, "'%s': out of memory", op);
    if ((st = ptort_tile_read(ctx, src, part, vr, vc)))
        return st;
    copy_rows(s->data + (size_t)(r0 * cols + c0) * (size_t)es, cols, part, vc, vr, vc, es);
    pthread_mutex_lock(&L->mu);
    s->rows = rows;
    s->cols = cols;
    s->dt = src->dtype;
    ptort_race_release(ctx, pipe, s);
    f->pushed[lane]++;
    pthread_cond_broadcast(&L->cv);
    pthread_mutex_unlock(&L->mu);
    return PTORT_OK;
}

/* The part [r0, r0 + pr) x [c0, c0 + pc) of an R x C entry that consumer LANE gets. */
static void part_of(int dir, int split, int lane, int64_t R, int64_t C, int64_t *r0, int64_t *c0, int64_t *pr,
                    int64_t *pc)
{
    *r0 = *c0 = 0;
    *pr = R;
    *pc = C;
    if (dir != 0 || split == 0)
        return;
    int64_t n = split == 1 || split == 3 ? R : C, first = split >= 3 ? (n + 1) / 2 : n / 2;
    int64_t at = lane ? first : 0, len = lane ? n - first : first;
    if (split == 1 || split == 3)
        *r0 = at, *pr = len;
    else
        *c0 = at, *pc = len;
}

ptort_status ptort_tpop(ptort_ctx *ctx, int64_t id, int dir, int split, int pipe, const ptort_tile *type,
                        int64_t valid_rows, int64_t valid_cols, ptort_tile *out, const char *op, const char *where)
{
    Core *c = ctx ? ctx->core : NULL;
    if (!c)
        return ctx ? no_launch(ctx, op) : PTORT_E_ARG;
    if (!type || !out)
        return ptort_fail(ctx, PTORT_E_ARG, "'%s': no result descriptor", op);
    int lane = dir == 0 ? c->sub : 0;
    Launch *L = c->L;
    pthread_mutex_lock(&L->mu);
    Fifo *f = fifo_for(c, id, dir, op);
    if (!f) {
        pthread_mutex_unlock(&L->mu);
        return PTORT_E_ARG;
    }
    c->wkind = W_POP;
    c->wf = f;
    c->wn = f->popped[lane];
    c->wsplit = split;
    ptort_status st = wait_for(c, op, where);
    pthread_mutex_unlock(&L->mu);
    if (st)
        return st;
    int64_t k = c->wn % f->slot_num;
    Slot *s = &f->slots[k];
    ptort_race_acquire(ctx, pipe, s);
    int64_t r0, c0, pr, pc;
    part_of(dir, split, lane, s->rows, s->cols, &r0, &c0, &pr, &pc);
    *out = *type;
    out->addr = init_of(c, id)->buf[dir] + k * f->slot_size;
    out->valid_rows = valid_rows >= 0 ? valid_rows : pr;
    out->valid_cols = valid_cols >= 0 ? valid_cols : pc;
    if (s->dt != type->dtype)
        return ptort_fail(ctx, PTORT_E_DTYPE, "'%s': the entry holds %s elements, the result is %s", op,
                          ptort_dtype_name(s->dt), ptort_dtype_name(type->dtype));
    if (pr > type->rows || pc > type->cols)
        return ptort_fail(ctx, PTORT_E_SHAPE, "'%s': this core's part of the entry is %lldx%lld, more than the result's "
                          "%lldx%lld", op, (long long)pr, (long long)pc, (long long)type->rows, (long long)type->cols);
    if (ptort_tile_bytes(type) > f->slot_size)
        return ptort_fail(ctx, PTORT_E_SHAPE, "'%s': the result's %lld bytes do not fit a slot of pipe %lld (slot_size "
                          "%lld)", op, (long long)ptort_tile_bytes(type), (long long)id, (long long)f->slot_size);
    int es = ptort_dtype_size(s->dt);
    uint8_t *part = core_tmp(c, (size_t)(pr * pc * es) + 1);
    if (!part)
        return ptort_fail(ctx, PTORT_E_NOMEM, "'%s': out of memory", op);
    copy_rows(part, pc, s->data + (size_t)(r0 * s->cols + c0) * (size_t)es, s->cols, pr, pc, es);
    ptort_tile whole = *out;
    whole.valid_rows = whole.rows;
    whole.valid_cols = whole.cols;
    if ((st = ptort_tile_fill(ctx, &whole, part, pr, pc)))
        return st;
    pthread_mutex_lock(&L->mu);
    f->popped[lane]++;
    pthread_mutex_unlock(&L->mu);
    return PTORT_OK;
}

ptort_status ptort_tfree(ptort_ctx *ctx, int64_t id, int dir, int split, const char *op, const char *where)
{
    Core *c = ctx ? ctx->core : NULL;
    (void)split, (void)where;
    if (!c)
        return ctx ? no_launch(ctx, op) : PTORT_E_ARG;
    int lane = dir == 0 ? c->sub : 0;
    Launch *L = c->L;
    pthread_mutex_lock(&L->mu);
    Fifo *f = fifo_for(c, id, dir, op);
    ptort_status st = f ? PTORT_OK : PTORT_E_ARG;
    if (f && f->freed[lane] >= f->popped[lane])
        st = ptort_fail(ctx, PTORT_E_ARG, "'%s': no entry of %s pipe %lld is popped and not yet freed", op,
                        dir ? "v2c" : "c2v", (long long)id);
    if (!st) {
        f->freed[lane]++;
        pthread_cond_broadcast(&L->cv);
    }
    pthread_mutex_unlock(&L->mu);
    return st;
}

/* ---- cross-core signals ------------------------------------------------------------------ */

static ptort_status check_event(ptort_ctx *ctx, int64_t event, const char *op)
{
    if (event < 0 || event >= NEVENTS)
        return ptort_fail(ctx, PTORT_E_ARG, "'%s': signal %lld is outside 0..%d", op, (long long)event, NEVENTS - 1);
    return PTORT_OK;
}

ptort_status ptort_sync_set(ptort_ctx *ctx, int64_t event, int pipe, const char *op, const char *where)
{
    Core *c = ctx ? ctx->core : NULL;
    (void)where;
    if (!c)
        return ctx ? PTORT_OK : PTORT_E_ARG; /* one core alone: every signal already holds */
    ptort_status st = check_event(ctx, event, op);
    if (st)
        return st;
    pthread_mutex_lock(&c->L->mu);
    int64_t *sig = c->kind == PTORT_CORE_CUBE ? &c->B->set_by_cube[event] : &c->B->set_by_vec[c->sub][event];
    ptort_race_release(ctx, pipe, sig);
    (*sig)++;
    pthread_cond_broadcast(&c->L->cv);
    pthread_mutex_unlock(&c->L->mu);
    return PTORT_OK;
}

ptort_status ptort_sync_wait(ptort_ctx *ctx, int64_t event, int pipe, const char *op, const char *where)
{
    Core *c = ctx ? ctx->core : NULL;
    if (!c)
        return ctx ? PTORT_OK : PTORT_E_ARG; /* one core alone: every signal already holds */
    ptort_status st = check_event(ctx, event, op);
    if (st)
        return st;
    pthread_mutex_lock(&c->L->mu);
    c->wkind = W_SIGNAL;
    c->wf = NULL;
    c->wev = event;
    st = wait_for(c, op, where);
    if (!st)
        c->got[event]++;
    pthread_mutex_unlock(&c->L->mu);
    if (st)
        return st;
    /* the cube's wait observes every vector core's set */
    if (c->kind == PTORT_CORE_VECTOR)
        ptort_race_acquire(ctx, pipe, &c->B->set_by_cube[event]);
    else
        for (int l = 0; l < NSUB; l++)
            ptort_race_acquire(ctx, pipe, &c->B->set_by_vec[l][event]);
    return PTORT_OK;
}

/* Whether a core of kind K takes part in a syncall of CORE_TYPE (0 vector, 1 cube, 2 both). */
static int takes_part(ptort_core_kind k, int core_type)
{
    return core_type == 2 || (core_type == 0) == (k == PTORT_CORE_VECTOR);
}

ptort_status ptort_syncall(ptort_ctx *ctx, int core_type, const char *op, const char *where)
{
    Core *c = ctx ? ctx->core : NULL;
    if (!c)
        return ctx ? PTORT_OK : PTORT_E_ARG; /* one core alone: every signal already holds */
    if (!takes_part(c->kind, core_type))
        return PTORT_OK;
    Launch *L = c->L;
    int64_t need = 0;
    for (int i = 0; i < L->per; i++)
        need += takes_part(L->cores[i].kind, core_type);
    need *= L->nrun;
    pthread_mutex_lock(&L->mu);
    ptort_race_release(ctx, 6 /* PIPE_ALL */, &L->gen);
    c->wkind = W_SYNCALL;
    c->wf = NULL;
    c->wgen = L->gen;
    ptort_status st = PTORT_OK;
    if (++L->arrived == need) {
        L->arrived = 0;
        L->gen++;
        pthread_cond_broadcast(&L->cv);
    } else {
        st = wait_for(c, op, where);
    }
    pthread_mutex_unlock(&L->mu);
    if (!st)
        ptort_race_acquire(ctx, 6 /* PIPE_ALL */, &L->gen);
    return st;
}

/* ---- running ------------------------------------------------------------------------------- */

/* Core c ran to its end (or failed): it no longer counts as live, and the cores that wait for
 * it may now wait for nothing that can happen. */
static void *core_main(void *arg)
{
    Core *c = arg;
    Launch *L = c->L;
    int st = c->fn->run(c->ctx, c->vals);
    pthread_mutex_lock(&L->mu);
    c->live = 0;
    if (st != PTORT_OK) {
        if (L->status == PTORT_OK)
            L->status = (ptort_status)st;
        L->stopped = 1; /* its error is reported; the others stop quietly */
    }
    check_deadlock(L);
    pthread_cond_broadcast(&L->cv);
    pthread_mutex_unlock(&L->mu);
    return NULL;
}

/* Makes the cores of block B (their contexts and arguments); false when out of memory. */
static int block_make(Launch *L, int64_t b)
{
    const ptort_launch_desc *d = L->d;
    Core *cs = &L->cores[(b - L->first) * L->per];
    int i = 0;
    for (int fi = 0; fi < d->nfuncs; fi++) {
        const ptort_launch_func *fn = &d->funcs[fi];
        int nsub = fn->kind == PTORT_CORE_CUBE ? 1 : NSUB;
        for (int s = 0; s < nsub; s++, i++) {
            Core *c = &cs[i];
            memset(c, 0, sizeof *c);
            c->L = L;
            c->B = &L->blocks[b - L->first];
            c->block = b;
            c->kind = fn->kind;
            c->sub = s;
            c->index = (int)((b - L->first) * L->per + i);
            c->fn = fn;
            c->ctx = ptort_ctx_new(L->ctx0->arch, L->ctx0->size);
            c->vals = calloc((size_t)fn->nargs + 1, sizeof *c->vals);
            if (!c->ctx || !c->vals)
                return 0;
            c->ctx->numerics = L->ctx0->numerics;
            c->ctx->core = c;
            ptort_set_launch(c->ctx, b, L->nblocks, s, nsub);
            if (L->race)
                ptort_race_attach(c->ctx, L->race, c->index);
            for (int a = 0; a < fn->nargs; a++) {
                int m = fn->map[a];
                if (m >= 0)
                    c->vals[a] = L->values[m];
                else
                    c->vals[a].scalar = m == PTORT_SPMD_BLOCK_IDX      ? b
                                        : m == PTORT_SPMD_BLOCK_NUM    ? L->nblocks
                                        : m == PTORT_SPMD_SUBBLOCK_IDX ? s
                                                                       : nsub;
            }
        }
    }
    return 1;
}

static void block_free(Launch *L, int64_t b)
{
    Core *cs = &L->cores[(b - L->first) * L->per];
    for (int i = 0; i < L->per; i++) {
        ptort_ctx_free(cs[i].ctx);
        cs[i].ctx = NULL;
        free(cs[i].vals);
        free(cs[i].tmp);
    }
    Block *B = &L->blocks[b - L->first];
    for (int i = 0; i < MAX_PIPES * 2; i++) {
        for (int64_t k = 0; B->fifo[i].slots && k < B->fifo[i].slot_num; k++)
            free(B->fifo[i].slots[k].data);
        free(B->fifo[i].slots);
        B->fifo[i].slots = NULL;
    }
}

/* Runs blocks [first, last] with their cores made and counted live; the calling thread runs
 * the first core. */
static void run_blocks(Launch *L, int64_t first, int64_t last)
{
    int64_t n = (last - first + 1) * L->per;
    Core *cs = &L->cores[(first - L->first) * L->per];
    pthread_t *th = calloc((size_t)n, sizeof *th);
    char *started = calloc((size_t)n, 1);
    int ok = th && started;
    pthread_mutex_lock(&L->mu);
    for (int64_t b = first; b <= last && ok; b++)
        ok = block_make(L, b);
    for (int64_t i = 0; i < n && ok; i++)
        cs[i].live = 1;
    if (!ok && !L->stopped) {
        fprintf(stderr, "error: launch: out of memory\n");
        L->stopped = 1;
        L->status = PTORT_E_NOMEM;
    }
    pthread_mutex_unlock(&L->mu);
    for (int64_t i = 1; i < n && ok; i++)
        if (pthread_create(&th[i], NULL, core_main, &cs[i]) == 0) {
            started[i] = 1;
        } else {
            pthread_mutex_lock(&L->mu);
            if (!L->stopped)
                fprintf(stderr, "error: launch: cannot start a thread for a core\n");
            L->stopped = 1;
            L->status = PTORT_E_NOMEM;
            cs[i].live = 0;
            pthread_cond_broadcast(&L->cv);
            pthread_mutex_unlock(&L->mu);
        }
    if (ok)
        core_main(&cs[0]);
    for (int64_t i = 1; i < n; i++)
        if (started[i])
            pthread_join(th[i], NULL);
    for (int64_t b = first; b <= last; b++)
        block_free(L, b);
    free(th);
    free(started);
}

/* A worker of the pool: runs the next block until none is left (or the launch stopped). */
static void *worker(void *arg)
{
    Launch *L = arg;
    for (;;) {
        pthread_mutex_lock(&L->mu);
        int64_t b = L->stopped || L->next >= L->first + L->nrun ? -1 : L->next++;
        pthread_mutex_unlock(&L->mu);
        if (b < 0)
            return NULL;
        run_blocks(L, b, b);
    }
}

ptort_status ptort_launch_run(ptort_ctx *ctx, const ptort_launch_desc *d, const ptort_kernel_value *values)
{
    if (!ctx || !d || d->nfuncs < 1)
        return PTORT_E_ARG;
    Launch *L = calloc(1, sizeof *L);
    if (!L)
        return ptort_fail(ctx, PTORT_E_NOMEM, "launch: out of memory");
    L->d = d;
    L->values = values;
    L->ctx0 = ctx;
    L->nblocks = ctx->launch_opt[0] > 0 ? ctx->launch_opt[0] : 1;
    L->first = ctx->launch_opt[1] > 0 ? ctx->launch_opt[1] : 0;
    L->nrun = ctx->launch_opt[1] >= 0 && ctx->launch_opt[0] > 0 ? 1 : L->nblocks;
    L->next = L->first;
    for (int fi = 0; fi < d->nfuncs; fi++)
        L->per += d->funcs[fi].kind == PTORT_CORE_CUBE ? 1 : NSUB;
    int64_t threads = ctx->launch_opt[2] > 0 ? ctx->launch_opt[2] : sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    if (threads > L->nrun)
        threads = L->nrun;
    L->blocks = calloc((size_t)L->nrun, sizeof *L->blocks);
    L->cores = calloc((size_t)(L->nrun * L->per), sizeof *L->cores);
    L->race = ptort_race_new((int)(L->nrun * L->per));
    pthread_mutex_init(&L->mu, NULL);
    pthread_cond_init(&L->cv, NULL);
    ptort_status st = PTORT_OK;
    if (!L->blocks || !L->cores) {
        st = ptort_fail(ctx, PTORT_E_NOMEM, "launch: out of memory");
    } else if (d->syncall) {
        run_blocks(L, L->first, L->first + L->nrun - 1); /* every block waits for every other */
    } else {
        pthread_t *th = calloc((size_t)threads, sizeof *th);
        int64_t started = 0;
        for (int64_t t = 1; th && t < threads; t++)
            if (pthread_create(&th[t], NULL, worker, L) == 0)
                started = t;
            else
                break;
        worker(L);
        for (int64_t t = 1; t <= started; t++)
            pthread_join(th[t], NULL);
        free(th);
    }
    if (!st)
        st = L->status;
    pthread_cond_destroy(&L->cv);
    pthread_mutex_destroy(&L->mu);
    ptort_race_free(L->race);
    free(L->blocks);
    free(L->cores);
    free(L);
    return st;
}
