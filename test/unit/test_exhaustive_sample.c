/* test_exhaustive_sample.c - a strided sample of exhaustive.c for `make check`: the e4m3 and
 * e2m1 encoders against the reference encoders of ref_fp.h on every 251st fp32 pattern
 * (an odd stride, so all exponents and low mantissa bits are visited) plus special values.
 */
#include "ptort.h"
#include "ref_fp.h"
#include "unit.h"

int main(void)
{
    uint64_t checked = 0;
    uint64_t bad = ref_compare(251, &checked);
    CHECK(checked > 34000000);
    CHECK_EQ(bad, 0);
    return unit_done();
}
