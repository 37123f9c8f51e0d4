/* arena.c - the bump allocator behind every IR object (see arena.h). */
#include "arena.h"
#include "diag.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArenaBlock {
    ArenaBlock *next;
    size_t size;
    max_align_t align[]; /* payload */
};

#define ARENA_MIN_BLOCK ((size_t)64 * 1024)
#define ARENA_MAX_BLOCK ((size_t)1024 * 1024)

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        diag_out_of_memory(n);
    }
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        diag_out_of_memory(0);
    }
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        diag_out_of_memory(n);
    }
    return q;
}

void xgrow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem) {
            diag_out_of_memory(0);
        }
        n *= 2;
    }
    *p = xrealloc(*p, n * elem);
    *cap = n;
}

void xgrow32(void **p, uint32_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t c = *cap;
    xgrow(p, &c, need, elem);
    if (c > UINT32_MAX) {
        fprintf(stderr, "ptoas: internal error: more than 2^32 elements\n");
        exit(3);
    }
    *cap = (uint32_t)c;
}

void arena_init(Arena *a)
{
    a->head = NULL;
    a->cur = a->end = NULL;
    a->total = 0;
}

void arena_free(Arena *a)
{
    ArenaBlock *b = a->head;
    while (b) {
        ArenaBlock *n = b->next;
        free(b);
        b = n;
    }
    arena_init(a);
}

void *arena_alloc(Arena *a, size_t size)
{
    /* Empty lists are common (ops without attributes): they share one
     * non-null address and cost nothing. */
    static max_align_t empty;
    if (size == 0)
        return &empty;
    size = (size + 15) & ~(size_t)15;
    if ((size_t)(a->end - a->cur) < size) {
        /* blocks grow with the arena, but the unused tail of the last one stays small */
        size_t bs = a->total / 2 < ARENA_MIN_BLOCK ? ARENA_MIN_BLOCK
                    : a->total / 2 > ARENA_MAX_BLOCK ? ARENA_MAX_BLOCK : a->total / 2;
        if (bs < size)
            bs = size;
        ArenaBlock *b = xmalloc(sizeof *b + bs);
        b->next = a->head;
        b->size = bs;
        a->head = b;
        a->cur = (char *)b->align;
        a->end = a->cur + bs;
        a->total += bs;
    }
    void *p = a->cur;
    a->cur += size;
    return p;
}

void *arena_zalloc(Arena *a, size_t size)
{
    void *p = arena_alloc(a, size);
    memset(p, 0, size);
    return p;
}

void *arena_dup(Arena *a, const void *p, size_t size)
{
    void *q = arena_alloc(a, size);
    if (size)
        memcpy(q, p, size);
    return q;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *q = arena_alloc(a, n + 1);
    memcpy(q, s, n);
    q[n] = 0;
    return q;
}
