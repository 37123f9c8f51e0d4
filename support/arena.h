/* arena.h - bump allocator: everything a module owns is freed at once.
 * Blocks grow geometrically; an allocation never moves, so pointers into the
 * arena stay valid until arena_free. Out of memory is fatal: an error, exit
 * code 2 (diag_out_of_memory). */
#ifndef PTOAS_ARENA_H
#define PTOAS_ARENA_H
#include <stddef.h>
#include <stdint.h>

typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
    ArenaBlock *head;     /* current block (newest first) */
    char *cur, *end;      /* free space in the current block */
    size_t total;         /* bytes reserved from malloc, for reports */
} Arena;

void  arena_init(Arena *a);
void  arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size);            /* 16-byte aligned, uninitialized */
void *arena_zalloc(Arena *a, size_t size);           /* zeroed */
void *arena_dup(Arena *a, const void *p, size_t size);
char *arena_strndup(Arena *a, const char *s, size_t n);

/* malloc wrappers that never return NULL: they report and exit(2). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Grows *p (of *cap elements of size elem) so that it holds at least need elements. */
void  xgrow(void **p, size_t *cap, size_t need, size_t elem);
/* The same for the IR's 32-bit counts. */
void  xgrow32(void **p, uint32_t *cap, size_t need, size_t elem);

#endif
