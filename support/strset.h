/* strset.h - the one string hash (FNV-1a) and the one set of byte strings
 * (open addressing, linear probing). The set holds pointers to the caller's bytes;
 * it copies nothing and frees only its slots. */
#ifndef PTOAS_STRSET_H
#define PTOAS_STRSET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* FNV-1a over p[0, n). */
static inline uint32_t str_hash(const char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 16777619u;
    return h;
}

typedef struct StrSetSlot {
    const char *p; /* NULL: empty */
    size_t len;
} StrSetSlot;

/* Start with StrSet s = {0}. */
typedef struct StrSet {
    StrSetSlot *slots;
    size_t cap, n;
} StrSet;

/* Adds p[0, n) (the bytes stay the caller's); false if it was there already.
 * A NULL p is never added. */
bool strset_add(StrSet *s, const char *p, size_t n);
bool strset_has(const StrSet *s, const char *p, size_t n);
/* Frees the slots (not the strings) and empties the set. */
void strset_free(StrSet *s);

#endif
