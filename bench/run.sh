#!/bin/sh
# make bench: runtime kernels against memcpy, then frontend throughput.
set -e
BUILD=${1:-build}
if [ -f bench/bench_runtime.c ]; then
  make -s "$BUILD/bench_runtime" && "$BUILD/bench_runtime"
fi
if [ -f bench/frontend.sh ]; then
  sh bench/frontend.sh "$BUILD"
fi
