#!/bin/sh
# make demo: generate the example inputs into build/demo/, then run every example kernel on the
# CPU with `ptoas run` and print its results (statistics and the first 8x8 values per result).
set -e
PTOAS=${1:-build/ptoas}
D=${2:-build/demo}
python3 examples/make_inputs.py "$D"

run() {
  echo
  echo "==> $PTOAS run $*"
  "$PTOAS" run "$@"
}
run examples/mxfp8_nv.pto --in x=$D/act_64x128_f32.npy --out qnz=$D/mxfp8_nv.qnz.npy --out ezz=$D/mxfp8_nv.ezz.npy
run examples/mxfp8_nv.pto --in x=$D/act_64x128_f32.npy
run examples/mxfp4_dn.pto --in w=$D/weight_64x64_bf16.npy
run examples/int8_roundtrip.pto --in x=$D/x_32x64_f32.npy --in inv_scale=$D/inv_scale_32x1_f32.npy \
    --in scale=$D/scale_32x1_f32.npy --in offset=$D/offset_32x1_f32.npy
run examples/gemv_bias.pto --in a=$D/a_1x256_f16.npy --in b=$D/b_256x64_f16.npy --in bias=$D/bias_1x64_f32.npy
run examples/gemv_i8.pto --in a=$D/a_1x256_i8.npy --in b=$D/b_256x64_i8.npy --in bias=$D/bias_1x64_i32.npy
run examples/int8_rowquant.pto --in x=$D/x_32x128_f32.npy
run examples/rmsnorm_quant.pto --in x=$D/x_32x128_f32.npy --in gamma=$D/gamma_1x128_f32.npy
run examples/dequant_scale.pto --in q=$D/q_32x128_i8.npy --in row_scale=$D/row_scale_32x1_f32.npy \
    --in col_scale=$D/col_scale_1x128_f32.npy
run examples/mxfp8_tensor.pto --in x=$D/act_70x200_f32.npy --in q=$D/q_70x200_i8.npy \
    --in e=$D/e_70x7_ui8.npy --arg m=70 --arg n=200
run examples/dequant_tensor.pto --in q=$D/w_70x200_i8.npy --in s=$D/w_scale_1x200_f32.npy \
    --in y=$D/y_70x200_f32.npy --arg m=70 --arg n=200
run examples/int8_matmul.pto --in x=$D/act_64x64_f32.npy --in s=$D/qscale_64x1_f32.npy \
    --in w=$D/w_64x32_i8.npy --in d=$D/dqscale_64x1_f32.npy --in q=$D/q_64x64_i8.npy \
    --in y=$D/y_64x32_f32.npy --arg m=64
run examples/mxfp8_matmul.pto --in x=$D/act_64x64_f32.npy --in w=$D/w_64x32_e4m3.npy \
    --in ws=$D/ws_2x32_ui8.npy --in q=$D/q_64x64_i8.npy --in e=$D/e_64x2_ui8.npy \
    --in y=$D/y_64x32_f32.npy --arg m=64
run examples/level1_mixed.pto --in x=$D/x_32x64_f32.npy --in inv_scale=$D/inv_scale_32x1_f32.npy \
    --in scale=$D/scale_32x1_f32.npy --in offset=$D/offset_32x1_f32.npy
echo
echo "==> $PTOAS examples/level1_mixed.pto   (the IR after bufferize and tassign)"
"$PTOAS" examples/level1_mixed.pto
