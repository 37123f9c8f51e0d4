/* cpu.c - the one place the runtime asks the CPU what it has: which hand-written kernel
 * sets may run (AVX2, AVX-512, AVX-512 VBMI, FMA), each answer cached, the environment's
 * PTORT_NO_AVX2 / PTORT_NO_AVX512 and the tests' one switch, ptort_cpu_cap. */
#include <stdlib.h>
#include "internal.h"

int ptort_cpu_cap = 0;

#if defined(__GNUC__) && defined(__x86_64__)
#define CPU_X86 1
/* One cached probe: v < 0 until the first call works it out. */
#define CPU_CACHED(expr)                  \
    do {                                  \
        static volatile int cached = -1;  \
        int v = cached;                   \
        if (v < 0)                        \
            cached = v = (expr);          \
        return v;                         \
    } while (0)

static int has_avx2(void)
{
    CPU_CACHED(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
               __builtin_cpu_supports("f16c") && !getenv("PTORT_NO_AVX2"));
}

static int has_avx512(void)
{
    CPU_CACHED(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
               !getenv("PTORT_NO_AVX512"));
}

static int has_vbmi(void) { CPU_CACHED(__builtin_cpu_supports("avx512vbmi")); }

static int has_fma(void) { CPU_CACHED(__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2")); }
#endif

int ptort_use_avx2(void)
{
#ifdef CPU_X86
    return ptort_cpu_cap < 2 && has_avx2();
#else
    return 0;
#endif
}

int ptort_use_avx512(void)
{
#ifdef CPU_X86
    return ptort_cpu_cap < 1 && ptort_use_avx2() && has_avx512();
#else
    return 0;
#endif
}

int ptort_use_avx512vbmi(void)
{
#ifdef CPU_X86
    return has_vbmi() && ptort_use_avx512();
#else
    return 0;
#endif
}

int ptort_cpu_fma(void)
{
#ifdef CPU_X86
    return has_fma();
#else
    return 0;
#endif
}
