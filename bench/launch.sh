#!/bin/sh
# make bench, the launch (docs/launch.md): bench/launch.pto as a launch of 32 blocks with one
# thread and with two, in one run; prints the times and their ratio (the scaling on this
# machine's cores; ideal is the thread count).
set -e
BUILD=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
B=32
python3 test/run/gen.py "$T" a:f16:$((B * 512))x64:ramp o:f32:$((B * 512))x64:zero >/dev/null
python3 test/run/Inputs/eye.py "$T/eye.bin" 64
"$BUILD/ptoas" --emit=exe -o "$T/k" bench/launch.pto
run() {
  s=$(date +%s%N)
  "$T/k" --blocks $B --threads "$1" --in a="$T/a.npy" --in w="$T/eye.bin" --in o="$T/o.npy" --out o="$T/o$1.npy"
  e=$(date +%s%N)
  echo $(( (e - s) / 1000000 ))
}
t1=$(run 1)
t2=$(run 2)
cmp "$T/o1.npy" "$T/o2.npy"
awk -v a="$t1" -v b="$t2" -v n="$B" 'BEGIN { printf "launch: %d blocks, 1 thread %d ms, 2 threads %d ms, scaling %.2fx (same bytes)\n", n, a, b, a / b }'
