/* exhaustive.c - checks the runtime's e4m3 and e2m1 encoders against the reference of
 * ref_fp.h on every fp32 bit pattern (or every Nth with --stride N). `make test-exhaustive`
 * runs it with --stride 1. Exit status 0 iff there is no mismatch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptort.h"
#include "ref_fp.h"

int main(int argc, char **argv)
{
    uint64_t stride = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc) {
            char *end;
            stride = strtoull(argv[++i], &end, 10);
            if (*end || stride == 0) {
                fprintf(stderr, "exhaustive: --stride needs a positive integer\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: exhaustive [--stride N]\n");
            return 2;
        }
    }
    uint64_t checked;
    uint64_t bad = ref_compare(stride, &checked);
    printf("exhaustive (stride %llu): %llu encodings checked, %llu mismatches\n",
           (unsigned long long)stride, (unsigned long long)checked, (unsigned long long)bad);
    return bad ? 1 : 0;
}
