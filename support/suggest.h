/* suggest.h - "did you mean" by edit distance (suggest.c): the closest known
 * names to a mistyped one, for the driver's options, the parser's op names,
 * element types and SSA names, and the language server's quick fixes. */
#ifndef PTOAS_SUGGEST_H
#define PTOAS_SUGGEST_H
#include <stddef.h>
#include <stdint.h>

#define SUGGEST_MAX_NAME 64 /* longer names get no suggestion */
#define SUGGEST_MAX 3       /* candidates kept */

/* The edit distance of a[0, na) and b[0, nb) counting an insertion, a
 * deletion, a substitution or a swap of two neighbours as one (optimal string
 * alignment); max + 1 when it is over max or a string is over 64 bytes. */
uint32_t suggest_distance(const char *a, size_t na, const char *b, size_t nb, uint32_t max);

typedef struct Suggest {
    const char *name[SUGGEST_MAX];
    size_t len[SUGGEST_MAX];
    uint32_t dist[SUGGEST_MAX], prefix[SUGGEST_MAX];
    uint32_t n, max;
    const char *typed;
    size_t ntyped;
} Suggest;

/* Starts a search for what typed[0, ntyped) was meant to be: candidates at
 * most max(1, ntyped / 3) edits away. */
void suggest_init(Suggest *sg, const char *typed, size_t ntyped);

/* Offers a candidate (kept by pointer): the closest ones are kept, ties
 * ordered by the longest prefix shared with what was typed, then by the order
 * offered. The typed name itself is never a candidate. */
void suggest_offer(Suggest *sg, const char *name, size_t len);

#endif
