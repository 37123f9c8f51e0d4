/* suggest.c - edit distance and the closest candidates (suggest.h). */
#include "suggest.h"
#include <string.h>

uint32_t suggest_distance(const char *a, size_t na, const char *b, size_t nb, uint32_t max)
{
    if (na > SUGGEST_MAX_NAME || nb > SUGGEST_MAX_NAME || (na > nb ? na - nb : nb - na) > max)
        return max + 1;
    /* rows i-2, i-1 and i of the distance matrix of a[0, i) against b[0, j) */
    uint32_t r0[SUGGEST_MAX_NAME + 1], r1[SUGGEST_MAX_NAME + 1], r2[SUGGEST_MAX_NAME + 1];
    uint32_t *two = r0, *one = r1, *cur = r2, one_low = 0;
    for (size_t j = 0; j <= nb; j++)
        one[j] = (uint32_t)j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = (uint32_t)i;
        uint32_t low = cur[0];
        for (size_t j = 1; j <= nb; j++) {
            uint32_t best = one[j - 1] + (a[i - 1] != b[j - 1]);
            if (one[j] + 1 < best)
                best = one[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && two[j - 2] + 1 < best)
                best = two[j - 2] + 1; /* two neighbours swapped */
            cur[j] = best;
            if (best < low)
                low = best;
        }
        if (low > max && one_low >= max)
            return max + 1; /* every later cell is over max */
        one_low = low;
        uint32_t *t = two;
        two = one;
        one = cur;
        cur = t;
    }
    return one[nb] > max ? max + 1 : one[nb];
}

void suggest_init(Suggest *sg, const char *typed, size_t ntyped)
{
    memset(sg, 0, sizeof *sg);
    sg->typed = typed;
    sg->ntyped = ntyped;
    sg->max = ntyped / 3 > 1 ? (uint32_t)(ntyped / 3) : 1;
}

/* Offers a candidate: the closest ones are kept, ties ordered by the longest
 * prefix shared with what was typed, then table order. */
void suggest_offer(Suggest *sg, const char *name, size_t len)
{
    if (len == 0 || (len == sg->ntyped && memcmp(name, sg->typed, len) == 0))
        return;
    for (uint32_t i = 0; i < sg->n; i++)
        if (sg->len[i] == len && memcmp(sg->name[i], name, len) == 0)
            return;
    uint32_t d = suggest_distance(sg->typed, sg->ntyped, name, len, sg->max);
    if (d > sg->max)
        return;
    if (sg->n && d < sg->dist[0])
        sg->n = 0; /* a closer one: drop the others */
    if (sg->n && d > sg->dist[0])
        return;
    uint32_t pre = 0;
    while (pre < len && pre < sg->ntyped && name[pre] == sg->typed[pre])
        pre++;
    uint32_t i = sg->n < SUGGEST_MAX ? sg->n++ : SUGGEST_MAX;
    while (i > 0 && sg->prefix[i - 1] < pre) {
        if (i < SUGGEST_MAX) {
            sg->name[i] = sg->name[i - 1];
            sg->len[i] = sg->len[i - 1];
            sg->dist[i] = sg->dist[i - 1];
            sg->prefix[i] = sg->prefix[i - 1];
        }
        i--;
    }
    if (i < SUGGEST_MAX) {
        sg->name[i] = name;
        sg->len[i] = len;
        sg->dist[i] = d;
        sg->prefix[i] = pre;
    }
}

