#!/bin/sh
# make demo: assemble every example kernel and print its IR.
set -e
PTOAS=${1:-build/ptoas}
for f in examples/*.pto; do
  echo "==> $PTOAS $f"
  "$PTOAS" "$f"
  echo
done
echo "==> $PTOAS --emit=generic examples/gemv_bias.pto   (MLIR generic form)"
"$PTOAS" --emit=generic examples/gemv_bias.pto
