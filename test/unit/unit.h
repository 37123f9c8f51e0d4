/* unit.h - the tiny harness shared by the runtime's C unit tests.
 *
 * Each check counts as one pass or one failure; a failure prints where and what. A test
 * program ends with `return unit_done();`, which prints the required last line
 * "N passed, M failed" and yields exit status 0 iff nothing failed.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "bits.h"

static int unit_passed, unit_failed;

static inline int unit_check(int ok, const char *file, int line, const char *what)
{
    if (ok) {
        unit_passed++;
    } else {
        unit_failed++;
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
    return ok;
}

/* CHECK(cond): a boolean check. */
#define CHECK(c) unit_check(!!(c), __FILE__, __LINE__, #c)

/* CHECK_EQ(a, b): integer equality, printing both values (in hex) on failure. */
#define CHECK_EQ(a, b)                                                                       \
    do {                                                                                     \
        unsigned long long ua_ = (unsigned long long)(a), ub_ = (unsigned long long)(b);     \
        if (!unit_check(ua_ == ub_, __FILE__, __LINE__, #a " == " #b))                       \
            fprintf(stderr, "    got 0x%llx, expected 0x%llx\n", ua_, ub_);                  \
    } while (0)

/* CHECK_BYTES(p, expected, n): N bytes equal, printing the first difference. */
#define CHECK_BYTES(p, e, n)                                                                 \
    do {                                                                                     \
        const uint8_t *pa_ = (const uint8_t *)(p), *pb_ = (const uint8_t *)(e);              \
        size_t i_ = 0, n_ = (size_t)(n);                                                     \
        while (i_ < n_ && pa_[i_] == pb_[i_])                                                \
            i_++;                                                                            \
        if (!unit_check(i_ == n_, __FILE__, __LINE__, #p " == " #e))                         \
            fprintf(stderr, "    byte %zu: got 0x%02x, expected 0x%02x\n", i_, pa_[i_], pb_[i_]); \
    } while (0)

/* CHECK_STATUS(call, st, substr): CALL returns ST and the context message contains SUBSTR. */
#define CHECK_STATUS(ctx, call, st, sub)                                                     \
    do {                                                                                     \
        ptort_status s_ = (call);                                                            \
        if (!unit_check(s_ == (st) && strstr(ptort_error(ctx), (sub)) != NULL, __FILE__,     \
                        __LINE__, #call " fails with " #st))                                 \
            fprintf(stderr, "    got %s: '%s', expected message containing '%s'\n",         \
                    ptort_status_name(s_), ptort_error(ctx), (sub));                         \
    } while (0)

static inline int unit_done(void)
{
    printf("%d passed, %d failed\n", unit_passed, unit_failed);
    return unit_failed ? 1 : 0;
}

#endif
