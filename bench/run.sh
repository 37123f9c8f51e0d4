#!/bin/sh
# make bench: runtime kernels against memcpy, the cube's products against OpenBLAS, the MXFP8 tensor quantizer example
# end to end and per tile, the race checker's cost, frontend throughput, then the language server's
# keystroke-to-diagnostics time.
set -e
BUILD=${1:-build}
if [ -f bench/bench_runtime.c ]; then
  make -s "$BUILD/bench_runtime" && "$BUILD/bench_runtime"
fi
if [ -f bench/bench_matmul.c ]; then
  make -s "$BUILD/bench_matmul" && "$BUILD/bench_matmul"
fi
if [ -f bench/tensor.sh ]; then
  sh bench/tensor.sh "$BUILD"
fi
if [ -f bench/race.sh ]; then
  sh bench/race.sh "$BUILD"
fi
if [ -f bench/launch.sh ]; then
  sh bench/launch.sh "$BUILD"
fi
if [ -f bench/frontend.sh ]; then
  sh bench/frontend.sh "$BUILD"
fi
if [ -f bench/lsp_bench.py ]; then
  python3 bench/lsp_bench.py "$BUILD/ptoas"
fi
