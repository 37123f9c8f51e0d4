/* test_race.c - the race checker (runtime/race.c, docs/launch.md 5) through its C API: each
 * order (program order, flags, barriers, buffer tokens, cross-core release/acquire with two
 * contexts on two threads, a FIFO's push/pop and free) with and without it, the exact
 * report, and the byte footprints of tiles and strided views. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <pthread.h>
#include <stdatomic.h>
#include "ptort.h"
#include "unit.h"

enum { S = 0, V = 1, M = 2, MTE1 = 3, MTE2 = 4, MTE3 = 5, ALL = 6, FIX = 10 };

static ptort_race_ref tile_ref(const ptort_tile *t, const char *name, int write)
{
    return (ptort_race_ref){.tile = t, .name = name, .write = write};
}

static ptort_race_ref view_ref(const ptort_view *v, const char *name, int write)
{
    return (ptort_race_ref){.view = v, .name = name, .write = write};
}

/* One access of one operand. */
static ptort_status op1(ptort_ctx *ctx, int pipe, const char *where, const char *op, ptort_race_ref r)
{
    return ptort_race_op(ctx, pipe, where, op, 1, &r);
}

/* A context attached to a new one-core checker. */
static ptort_ctx *fresh(ptort_race **race)
{
    ptort_ctx *ctx = ptort_ctx_new(PTORT_A3, NULL);
    *race = ptort_race_new(1);
    ptort_race_attach(ctx, *race, 0);
    return ctx;
}

static void done(ptort_ctx *ctx, ptort_race *race)
{
    ptort_ctx_free(ctx);
    ptort_race_free(race);
}

static void test_flag(void)
{
    ptort_tile t = ptort_tile_make(PTORT_VEC, PTORT_F32, 16, 16, 0);
    ptort_race *race;
    ptort_ctx *ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_OK);
    CHECK_STATUS(ctx, op1(ctx, V, "k.pto:4:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_E_RACE,
                 "data race: 'pto.tabs' on PIPE_V reads vec bytes [0, 1024) of '%t', which 'pto.tload' at "
                 "k.pto:3:5 on PIPE_MTE2 writes, with nothing ordering the two (add "
                 "pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>] after the earlier op and "
                 "pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>] before this one)");
    done(ctx, race);

    ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_OK);
    ptort_race_sync(ctx, PTORT_RACE_SET_FLAG, MTE2, V, 0);
    ptort_race_sync(ctx, PTORT_RACE_WAIT_FLAG, MTE2, V, 0);
    CHECK_EQ(op1(ctx, V, "k.pto:6:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_OK);
    /* the write after the flag is not ordered before V's later read */
    CHECK_EQ(op1(ctx, MTE2, "k.pto:7:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_E_RACE);
    CHECK(strstr(ptort_error(ctx), "'pto.tload' on PIPE_MTE2 writes vec bytes [0, 1024) of '%t', which "
                                   "'pto.tabs' at k.pto:6:5 on PIPE_V reads") != NULL);
    done(ctx, race);

    /* a flag of another event, or the reverse direction, orders nothing */
    ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_OK);
    ptort_race_sync(ctx, PTORT_RACE_SET_FLAG, MTE2, V, 0);
    ptort_race_sync(ctx, PTORT_RACE_WAIT_FLAG, MTE2, V, 1);
    ptort_race_sync(ctx, PTORT_RACE_WAIT_FLAG, V, MTE2, 0);
    CHECK_EQ(op1(ctx, V, "k.pto:6:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_E_RACE);
    done(ctx, race);

    /* sets and waits pair first in, first out: the second wait gets the second set */
    ptort_tile u = ptort_tile_make(PTORT_VEC, PTORT_F32, 16, 16, 1024);
    ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_OK);
    ptort_race_sync(ctx, PTORT_RACE_SET_FLAG, MTE2, V, 0);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:5:5", "pto.tload", tile_ref(&u, "%u", 1)), PTORT_OK);
    ptort_race_sync(ctx, PTORT_RACE_SET_FLAG, MTE2, V, 0);
    ptort_race_sync(ctx, PTORT_RACE_WAIT_FLAG, MTE2, V, 0);
    CHECK_EQ(op1(ctx, V, "k.pto:8:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_OK);
    CHECK_EQ(op1(ctx, V, "k.pto:9:5", "pto.tabs", tile_ref(&u, "%u", 0)), PTORT_E_RACE);
    ptort_race_sync(ctx, PTORT_RACE_WAIT_FLAG, MTE2, V, 0);
    CHECK_EQ(op1(ctx, V, "k.pto:9:5", "pto.tabs", tile_ref(&u, "%u", 0)), PTORT_OK);
    done(ctx, race);
}

static void test_barrier_buf_scalar(void)
{
    ptort_tile t = ptort_tile_make(PTORT_VEC, PTORT_F32, 16, 16, 0);
    ptort_race *race;
    ptort_ctx *ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_OK);
    ptort_race_sync(ctx, PTORT_RACE_BARRIER, V, 0, 0); /* in-pipe: orders nothing across pipes */
    CHECK_EQ(op1(ctx, V, "k.pto:5:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_E_RACE);
    done(ctx, race);

    ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_OK);
    ptort_race_sync(ctx, PTORT_RACE_BARRIER, ALL, 0, 0);
    CHECK_EQ(op1(ctx, V, "k.pto:5:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_OK);
    CHECK_EQ(op1(ctx, MTE3, "k.pto:6:5", "pto.tstore", tile_ref(&t, "%t", 0)), PTORT_OK);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:7:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_E_RACE);
    done(ctx, race);

    /* buffer tokens: rls_buf by MTE2, get_buf by V */
    ctx = fresh(&race);
    ptort_race_sync(ctx, PTORT_RACE_GET_BUF, MTE2, 0, 3);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_OK);
    ptort_race_sync(ctx, PTORT_RACE_RLS_BUF, MTE2, 0, 3);
    ptort_race_sync(ctx, PTORT_RACE_GET_BUF, V, 0, 2);
    CHECK_EQ(op1(ctx, V, "k.pto:5:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_E_RACE);
    ptort_race_sync(ctx, PTORT_RACE_GET_BUF, V, 0, 3);
    CHECK_EQ(op1(ctx, V, "k.pto:5:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_OK);
    done(ctx, race);

    /* the scalar pipe: what it waited for, every later op of the core is ordered after */
    ctx = fresh(&race);
    CHECK_EQ(op1(ctx, V, "k.pto:3:5", "pto.tabs", tile_ref(&t, "%t", 1)), PTORT_OK);
    CHECK_EQ(op1(ctx, S, "k.pto:4:5", "pto.tgetval", tile_ref(&t, "%t", 0)), PTORT_E_RACE);
    ptort_race_sync(ctx, PTORT_RACE_SET_FLAG, V, S, 0);
    ptort_race_sync(ctx, PTORT_RACE_WAIT_FLAG, V, S, 0);
    CHECK_EQ(op1(ctx, S, "k.pto:7:5", "pto.tgetval", tile_ref(&t, "%t", 0)), PTORT_OK);
    CHECK_EQ(op1(ctx, MTE3, "k.pto:8:5", "pto.tstore", tile_ref(&t, "%t", 0)), PTORT_OK);
    CHECK_EQ(op1(ctx, S, "k.pto:9:5", "pto.tsetval", tile_ref(&t, "%t", 1)), PTORT_E_RACE);
    CHECK(strstr(ptort_error(ctx), "which 'pto.tstore' at k.pto:8:5 on PIPE_MTE3 reads") != NULL);
    done(ctx, race);

    /* without a checker nothing is checked */
    ctx = ptort_ctx_new(PTORT_A3, NULL);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_OK);
    CHECK_EQ(op1(ctx, V, "k.pto:4:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_OK);
    ptort_ctx_free(ctx);
}

static void test_footprints(void)
{
    /* the two column halves of a 16x32 f32 tile (as pto.subview makes them) are disjoint */
    ptort_tile l = ptort_tile_make(PTORT_VEC, PTORT_F32, 16, 32, 0), r = l, w = l;
    l.valid_cols = r.valid_cols = 16;
    r.addr = 64;
    w.valid_cols = 17;
    w.addr = 4;
    ptort_race *race;
    ptort_ctx *ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&l, "%l", 1)), PTORT_OK);
    CHECK_EQ(op1(ctx, V, "k.pto:4:5", "pto.tabs", tile_ref(&r, "%r", 1)), PTORT_OK);
    CHECK_STATUS(ctx, op1(ctx, V, "k.pto:5:5", "pto.tabs", tile_ref(&w, "%w", 0)), PTORT_E_RACE,
                 "reads vec bytes [4, 64) of '%w', which 'pto.tload' at k.pto:3:5");
    done(ctx, race);

    /* views: columns [0, 8) and [8, 16) of rows of a 4x16 f16 tensor, then a column across */
    uint16_t gm[64];
    ptort_view full = ptort_view_make(gm, sizeof gm, PTORT_F16, 4, 16, 16, 1), a, b, c;
    CHECK_EQ(ptort_view_partition(NULL, &full, 0, 0, 4, 8, &a), PTORT_OK);
    CHECK_EQ(ptort_view_partition(NULL, &full, 0, 8, 4, 8, &b), PTORT_OK);
    CHECK_EQ(ptort_view_partition(NULL, &full, 2, 7, 2, 2, &c), PTORT_OK);
    ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE3, "k.pto:3:5", "pto.tstore", view_ref(&a, "%a", 1)), PTORT_OK);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:4:5", "pto.tload", view_ref(&b, "%b", 0)), PTORT_OK);
    CHECK_STATUS(ctx, op1(ctx, MTE2, "k.pto:5:5", "pto.tload", view_ref(&c, "%c", 0)), PTORT_E_RACE,
                 "'pto.tload' on PIPE_MTE2 reads GM bytes [78, 80) of '%c', which 'pto.tstore' at k.pto:3:5 on "
                 "PIPE_MTE3 writes");
    done(ctx, race);

    /* two reads never conflict; a raw GM write (store_scalar) does */
    ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", view_ref(&a, "%a", 0)), PTORT_OK);
    CHECK_EQ(op1(ctx, V, "k.pto:4:5", "pto.x", view_ref(&a, "%a", 0)), PTORT_OK);
    ptort_race_ref sc = {.gm = gm, .gm_off = 34, .gm_bytes = 2, .name = "%p", .write = 1};
    CHECK_STATUS(ctx, op1(ctx, S, "k.pto:5:5", "pto.store_scalar", sc), PTORT_E_RACE,
                 "writes GM bytes [34, 36) of '%p', which 'pto.tload' at k.pto:3:5 on PIPE_MTE2 reads");
    done(ctx, race);
}

/* Views of other shapes: a column (one element per row), a transposed block (column stride
 * 1 in the first dimension), a rank-3 view; 4x4 f32 tensor, bytes 16 r + 4 c. */
static void test_view_shapes(void)
{
    float gm[16];
    int64_t s41[2] = {4, 1}, st41[2] = {4, 1}, s14[2] = {1, 4}, s22[2] = {2, 2}, st14[2] = {1, 4};
    int64_t s222[3] = {2, 2, 2}, st841[3] = {8, 4, 1};
    ptort_view col = ptort_view_make_nd(gm, sizeof gm, PTORT_F32, 2, s41, st41);
    ptort_view row = ptort_view_make_nd(gm, sizeof gm, PTORT_F32, 2, s14, st41);
    ptort_view tr = ptort_view_make_nd(gm, sizeof gm, PTORT_F32, 2, s22, st14);
    ptort_view cube = ptort_view_make_nd(gm, sizeof gm, PTORT_F32, 3, s222, st841);
    col.offset = 1; /* column 1: bytes [4, 8), [20, 24), [36, 40), [52, 56) */
    row.offset = 8; /* row 2: bytes [32, 48) */
    tr.offset = 2;  /* elements 2, 6, 3, 7: bytes [8, 16), [24, 32) */
    ptort_race *race;
    ptort_ctx *ctx = fresh(&race);
    CHECK_EQ(op1(ctx, MTE3, "k.pto:3:5", "pto.tstore", view_ref(&col, "%col", 1)), PTORT_OK);
    CHECK_EQ(op1(ctx, MTE2, "k.pto:4:5", "pto.tload", view_ref(&tr, "%tr", 0)), PTORT_OK);
    CHECK_STATUS(ctx, op1(ctx, MTE2, "k.pto:5:5", "pto.tload", view_ref(&row, "%row", 0)), PTORT_E_RACE,
                 "reads GM bytes [36, 40) of '%row'");
    CHECK_STATUS(ctx, op1(ctx, MTE2, "k.pto:6:5", "pto.tload", view_ref(&cube, "%cube", 0)), PTORT_E_RACE,
                 "reads GM bytes [4, 8) of '%cube'");
    done(ctx, race);
}

/* ---- two cores on two threads ------------------------------------------------------- */

typedef struct {
    ptort_ctx *ctx;
    uint16_t *gm;
    int release, acquire;  /* use the order */
    atomic_int *ready;
    ptort_status st;
} Side;

static const int token_a = 0, token_b = 0; /* addresses as tokens */

static void *producer(void *p)
{
    Side *s = p;
    ptort_race_ref w = {.gm = s->gm, .gm_off = 0, .gm_bytes = 64, .name = "%g", .write = 1};
    s->st = ptort_race_op(s->ctx, MTE3, "k.pto:10:5", "pto.tstore", 1, &w);
    if (s->release)
        ptort_race_release(s->ctx, MTE3, &token_a);
    atomic_store(s->ready, 1);
    return NULL;
}

static void *consumer(void *p)
{
    Side *s = p;
    while (!atomic_load(s->ready))
        ;
    if (s->acquire)
        ptort_race_acquire(s->ctx, MTE2, &token_a);
    ptort_race_ref r = {.gm = s->gm, .gm_off = 32, .gm_bytes = 8, .name = "%g", .write = 0};
    s->st = ptort_race_op(s->ctx, MTE2, "k.pto:20:5", "pto.tload", 1, &r);
    return NULL;
}

/* Core 0 writes GM, core 1 reads it, each on its own thread; ordered when both sides use the
 * token. */
static ptort_status cross(int release, int acquire, char *msg, size_t n)
{
    uint16_t gm[32];
    atomic_int ready = 0;
    ptort_race *race = ptort_race_new(2);
    Side a = {ptort_ctx_new(PTORT_A3, NULL), gm, release, acquire, &ready, PTORT_OK}, b = a;
    b.ctx = ptort_ctx_new(PTORT_A3, NULL);
    ptort_race_attach(a.ctx, race, 0);
    ptort_race_attach(b.ctx, race, 1);
    pthread_t ta, tb;
    pthread_create(&tb, NULL, consumer, &b);
    pthread_create(&ta, NULL, producer, &a);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK_EQ(a.st, PTORT_OK);
    snprintf(msg, n, "%s", ptort_error(b.ctx));
    ptort_ctx_free(a.ctx);
    ptort_ctx_free(b.ctx);
    ptort_race_free(race);
    return b.st;
}

static void test_cross_core(void)
{
    char msg[1024];
    CHECK_EQ(cross(1, 1, msg, sizeof msg), PTORT_OK);
    CHECK_EQ(cross(1, 0, msg, sizeof msg), PTORT_E_RACE);
    CHECK(strcmp(msg, "data race: 'pto.tload' on PIPE_MTE2 of core 1 reads GM bytes [32, 40) of '%g', which "
                      "'pto.tstore' at k.pto:10:5 on PIPE_MTE3 of core 0 writes, with nothing ordering the two "
                      "(add pto.sync.set <PIPE_MTE3>, 0 after the earlier op and pto.sync.wait <PIPE_MTE2>, 0 "
                      "before this one)") == 0);
    CHECK_EQ(cross(0, 1, msg, sizeof msg), PTORT_E_RACE);
}

/* A FIFO of one slot in the consumer's vec memory, as a launch runs it: the producer (cube,
 * core 0) writes the slot on FIX and pushes (release on FIX), the consumer (vector, core 1)
 * pops (acquire on S), reads it on V and frees it (release on V); the producer's next write
 * needs the free (acquire before it). Sequential here: the checker only sees the orders. */
static void test_fifo(void)
{
    for (int with_free = 0; with_free < 2; with_free++) {
        ptort_race *race = ptort_race_new(2);
        ptort_ctx *cube = ptort_ctx_new(PTORT_A3, NULL), *vec = ptort_ctx_new(PTORT_A3, NULL);
        ptort_race_attach(cube, race, 0);
        ptort_race_attach(vec, race, 1);
        uint8_t slot[256];
        ptort_race_ref w = {.gm = slot, .gm_bytes = 256, .name = "%slot", .write = 1}, r = w;
        r.write = 0;
        CHECK_EQ(ptort_race_op(cube, FIX, "k.pto:5:5", "pto.tpush_to_aiv", 1, &w), PTORT_OK);
        ptort_race_release(cube, FIX, &token_a);
        ptort_race_acquire(vec, S, &token_a);
        CHECK_EQ(ptort_race_op(vec, V, "k.pto:20:5", "pto.tabs", 1, &r), PTORT_OK);
        ptort_race_release(vec, V, &token_b);
        if (with_free)
            ptort_race_acquire(cube, S, &token_b);
        CHECK_EQ(ptort_race_op(cube, FIX, "k.pto:5:5", "pto.tpush_to_aiv", 1, &w),
                 with_free ? PTORT_OK : PTORT_E_RACE);
        ptort_ctx_free(cube);
        ptort_ctx_free(vec);
        ptort_race_free(race);
    }
}

/* A kernel loop's worth of accesses keeps the shadow small: each iteration's records replace
 * the last's. */
static void test_loop(void)
{
    ptort_tile t = ptort_tile_make(PTORT_VEC, PTORT_F32, 16, 16, 0);
    ptort_race *race;
    ptort_ctx *ctx = fresh(&race);
    ptort_race_sync(ctx, PTORT_RACE_SET_FLAG, V, MTE2, 0);
    for (int i = 0; i < 1000; i++) {
        ptort_race_sync(ctx, PTORT_RACE_WAIT_FLAG, V, MTE2, 0);
        CHECK_EQ(op1(ctx, MTE2, "k.pto:3:5", "pto.tload", tile_ref(&t, "%t", 1)), PTORT_OK);
        ptort_race_sync(ctx, PTORT_RACE_SET_FLAG, MTE2, V, 0);
        ptort_race_sync(ctx, PTORT_RACE_WAIT_FLAG, MTE2, V, 0);
        CHECK_EQ(op1(ctx, V, "k.pto:4:5", "pto.tabs", tile_ref(&t, "%t", 0)), PTORT_OK);
        ptort_race_sync(ctx, PTORT_RACE_SET_FLAG, V, MTE2, 0);
    }
    ptort_race_sync(ctx, PTORT_RACE_WAIT_FLAG, V, MTE2, 0);
    done(ctx, race);
}

int main(void)
{
    test_flag();
    test_barrier_buf_scalar();
    test_footprints();
    test_view_shapes();
    test_cross_core();
    test_fifo();
    test_loop();
    return unit_done();
}
