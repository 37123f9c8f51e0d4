#!/bin/sh
# bench/tensor.sh BUILD - the MXFP8 tensor quantizer (examples/mxfp8_tensor.pto) on a 4096 x 4096
# f32 tensor: end to end through `ptoas run`, per kernel call, and the generated loop's own cost
# per 32 x 128 tile against the MX kernel's (bench/bench_tensor.c says how each is measured).
# The kernel is the C that `ptoas --emit=c` writes, compiled as `ptoas run` compiles it
# (-std=c11 -O2) with -DPTOAS_NO_MAIN, once as it is and once with its five data ops renamed to
# the driver's stubs (and its own symbols renamed, so that both link into one driver).
set -e
BUILD=${1:-build}
PTOAS="$BUILD/ptoas"
CC=${CC:-cc}
[ -x "$PTOAS" ] || { echo "tensor.sh: $PTOAS not built" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptoas-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
# the kernel cache of the warm runs: empty at first, and the user's own is left alone
export XDG_CACHE_HOME="$TMP/cache"

EX=examples/mxfp8_tensor.pto
"$PTOAS" --emit=c -o "$TMP/k.c" "$EX"
KFLAGS="-std=c11 -O2 -Iruntime -DPTOAS_NO_MAIN"
$CC $KFLAGS -c -o "$TMP/k.o" "$TMP/k.c"
$CC $KFLAGS -c -o "$TMP/nop.o" "$TMP/k.c" \
    -Dptort_texpands=bench_nop_texpands -Dptort_tload=bench_nop_tload \
    -Dptort_tstore=bench_nop_tstore -Dptort_tquant_mx_ex=bench_nop_tquant_mx_ex \
    -Dptoas_k_mxfp8_tensor=nop_k_mxfp8_tensor -Dptoas_run_mxfp8_tensor=nop_run_mxfp8_tensor \
    -Dptoas_kernel_mxfp8_tensor=nop_kernel_mxfp8_tensor
$CC -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -Werror -Iruntime \
    -o "$TMP/bench_tensor" bench/bench_tensor.c "$TMP/k.o" "$TMP/nop.o" "$BUILD/libptort.a" -lm
"$TMP/bench_tensor" "$PTOAS" "$EX" "$TMP"
