/* race.c - the race checker (issue 23, docs/launch.md). Its interface is in ptort.h's RACE
 * section; until the checker lands these entry points check nothing. */
#include <stdlib.h>

#include "internal.h"

struct ptort_race {
    int ncores;
};

ptort_race *ptort_race_new(int ncores)
{
    ptort_race *r = calloc(1, sizeof *r);
    if (r)
        r->ncores = ncores;
    return r;
}

void ptort_race_free(ptort_race *race) { free(race); }

void ptort_race_attach(ptort_ctx *ctx, ptort_race *race, int core)
{
    (void)ctx, (void)race, (void)core;
}

void ptort_race_release(ptort_ctx *ctx, int pipe, const void *token)
{
    (void)ctx, (void)pipe, (void)token;
}

void ptort_race_acquire(ptort_ctx *ctx, int pipe, const void *token)
{
    (void)ctx, (void)pipe, (void)token;
}
