/* strset.c - the set of byte strings (strset.h). */
#include <string.h>
#include <stdlib.h>
#include "arena.h"
#include "strset.h"

static StrSetSlot *slot_of(const StrSet *s, const char *p, size_t n)
{
    size_t i = str_hash(p, n) & (s->cap - 1);
    for (;; i = (i + 1) & (s->cap - 1)) {
        StrSetSlot *t = &s->slots[i];
        if (!t->p || (t->len == n && memcmp(t->p, p, n) == 0))
            return t;
    }
}

bool strset_has(const StrSet *s, const char *p, size_t n)
{
    return p && s->cap && slot_of(s, p, n)->p != NULL;
}

bool strset_add(StrSet *s, const char *p, size_t n)
{
    if (!p)
        return false;
    if ((s->n + 1) * 2 > s->cap) {
        StrSet big = {xcalloc(s->cap ? s->cap * 2 : 64, sizeof(StrSetSlot)), s->cap ? s->cap * 2 : 64, 0};
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i].p)
                strset_add(&big, s->slots[i].p, s->slots[i].len);
        free(s->slots);
        *s = big;
    }
    StrSetSlot *t = slot_of(s, p, n);
    if (t->p)
        return false;
    t->p = p;
    t->len = n;
    s->n++;
    return true;
}

void strset_free(StrSet *s)
{
    free(s->slots);
    s->slots = NULL;
    s->cap = s->n = 0;
}
