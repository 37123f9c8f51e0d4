/* bits.h - the bit patterns of f32 values and back, shared by the unit-test
 * harness (unit.h) and the independent reference models (ref_vec.h). */
#ifndef PTOAS_TEST_BITS_H
#define PTOAS_TEST_BITS_H
#include <stdint.h>
#include <string.h>

static inline uint32_t unit_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float unit_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#endif
