/* test_cvt_sample.c - a strided sample of the tcvt sweep for `make check`: f32 -> f16, bf16
 * and i16 against ref_vec.h on every 4093rd fp32 pattern (an odd stride, so every exponent
 * and low mantissa bits are visited); `make test-exhaustive` runs all 2^32.
 */
#include "cvt_sweep.h"
#include "unit.h"

int main(void)
{
    uint64_t checked = 0;
    uint64_t bad = cvt_sweep(4093, &checked);
    CHECK(checked > 3000000);
    CHECK_EQ(bad, 0);
    return unit_done();
}
