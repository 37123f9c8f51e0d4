#!/usr/bin/env python3
"""make_inputs.py [OUTDIR]: the input arrays of the example kernels, as .npy files.

Deterministic (fixed seeds) and standard library only. Default OUTDIR: build/demo.
Every file is C-order, little-endian, with the descr `ptoas run` expects for the tile's
dtype: f32 <f4, f16 <f2, bf16 <u2 (raw bits), i8 |i1, i32 <i4.
"""
import math
import os
import random
import struct
import sys


def npy(path, descr, shape, values):
    """Write VALUES (already in the element type's Python form) the way numpy.save does."""
    header = "{'descr': %r, 'fortran_order': False, 'shape': %r, }" % (descr, tuple(shape))
    header += ' ' * (21 - len(repr(shape[0])))
    header += ' ' * (64 - (10 + len(header) + 1) % 64) + '\n'
    code = {'<f4': 'f', '<f2': 'e', '<u2': 'H', '|i1': 'b', '|u1': 'B', '<i4': 'i'}[descr]
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode('latin1'))
        f.write(struct.pack('<%d%s' % (len(values), code), *values))


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def bf16_bits(x):
    """Round a float to bf16 (nearest even) and return its 16 bits."""
    b = struct.unpack('<I', struct.pack('<f', x))[0]
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def activation(rng, rows, cols):
    """Smooth per-channel activations with a few large outliers (what MX scaling is for)."""
    gain = [2.0 ** rng.randint(-4, 4) for _ in range(cols)]
    vals = []
    for r in range(rows):
        for c in range(cols):
            v = gain[c] * math.sin(0.37 * r + 0.11 * c) * rng.uniform(0.5, 1.5)
            if rng.random() < 0.01:
                v *= 300.0                      # outlier
            vals.append(f32(v))
    return vals


def main(argv):
    out = argv[0] if argv else os.path.join('build', 'demo')
    os.makedirs(out, exist_ok=True)
    rng = random.Random(2024)

    # mxfp8_nv: a 64x128 f32 activation tile
    npy(os.path.join(out, 'act_64x128_f32.npy'), '<f4', (64, 128), activation(rng, 64, 128))

    # mxfp4_dn: a 64x64 bf16 weight tile (groups run down the columns)
    w = [bf16_bits(rng.gauss(0.0, 0.05) * (8.0 if c % 16 == 0 else 1.0)) for r in range(64) for c in range(64)]
    npy(os.path.join(out, 'weight_64x64_bf16.npy'), '<u2', (64, 64), w)

    # int8_roundtrip and level1_mixed: a 32x64 tile and per-row symmetric scales
    x = activation(rng, 32, 64)
    npy(os.path.join(out, 'x_32x64_f32.npy'), '<f4', (32, 64), x)
    amax = [max(abs(v) for v in x[r * 64:(r + 1) * 64]) or 1.0 for r in range(32)]
    npy(os.path.join(out, 'inv_scale_32x1_f32.npy'), '<f4', (32, 1), [f32(127.0 / a) for a in amax])
    npy(os.path.join(out, 'scale_32x1_f32.npy'), '<f4', (32, 1), [f32(a / 127.0) for a in amax])
    npy(os.path.join(out, 'offset_32x1_f32.npy'), '<f4', (32, 1), [0.0] * 32)

    # gemv_bias (f16): a 1x256 vector, a 256x64 matrix, a 1x64 f32 bias
    npy(os.path.join(out, 'a_1x256_f16.npy'), '<f2', (1, 256), [rng.uniform(-1, 1) for _ in range(256)])
    npy(os.path.join(out, 'b_256x64_f16.npy'), '<f2', (256, 64), [rng.gauss(0, 0.1) for _ in range(256 * 64)])
    npy(os.path.join(out, 'bias_1x64_f32.npy'), '<f4', (1, 64), [f32(rng.uniform(-0.5, 0.5)) for _ in range(64)])

    # gemv_i8: int8 operands and an int32 bias
    npy(os.path.join(out, 'a_1x256_i8.npy'), '|i1', (1, 256), [rng.randint(-128, 127) for _ in range(256)])
    npy(os.path.join(out, 'b_256x64_i8.npy'), '|i1', (256, 64), [rng.randint(-128, 127) for _ in range(256 * 64)])
    npy(os.path.join(out, 'bias_1x64_i32.npy'), '<i4', (1, 64), [rng.randint(-100000, 100000) for _ in range(64)])

    # int8_rowquant and rmsnorm_quant: a 32x128 f32 activation tile and a 1x128 RMSNorm gain
    npy(os.path.join(out, 'x_32x128_f32.npy'), '<f4', (32, 128), activation(rng, 32, 128))
    npy(os.path.join(out, 'gamma_1x128_f32.npy'), '<f4', (1, 128), [f32(rng.uniform(0.5, 1.5)) for _ in range(128)])
    # dequant_scale: int8 codes, a per-row and a per-column scale
    npy(os.path.join(out, 'q_32x128_i8.npy'), '|i1', (32, 128), [rng.randint(-127, 127) for _ in range(32 * 128)])
    npy(os.path.join(out, 'row_scale_32x1_f32.npy'), '<f4', (32, 1), [f32(rng.uniform(0.001, 0.05)) for _ in range(32)])
    npy(os.path.join(out, 'col_scale_1x128_f32.npy'), '<f4', (1, 128), [f32(2.0 ** rng.randint(-3, 3) * rng.uniform(0.5, 1.0)) for _ in range(128)])
    # mxfp8_tensor: a 70x200 f32 tensor (tails in both directions) and zeroed result buffers
    npy(os.path.join(out, 'act_70x200_f32.npy'), '<f4', (70, 200), activation(rng, 70, 200))
    npy(os.path.join(out, 'q_70x200_i8.npy'), '|i1', (70, 200), [0] * (70 * 200))
    npy(os.path.join(out, 'e_70x7_ui8.npy'), '|u1', (70, 7), [0] * (70 * 7))
    # dequant_tensor: 70x200 int8 codes, one scale per column, a zeroed f32 result
    npy(os.path.join(out, 'w_70x200_i8.npy'), '|i1', (70, 200), [rng.randint(-127, 127) for _ in range(70 * 200)])
    npy(os.path.join(out, 'w_scale_1x200_f32.npy'), '<f4', (1, 200), [f32(rng.uniform(0.001, 0.02)) for _ in range(200)])
    npy(os.path.join(out, 'y_70x200_f32.npy'), '<f4', (70, 200), [0.0] * (70 * 200))
    # int8_matmul and mxfp8_matmul: a 64x64 f32 activation tensor, zeroed result buffers
    xm = activation(rng, 64, 64)
    npy(os.path.join(out, 'act_64x64_f32.npy'), '<f4', (64, 64), xm)
    npy(os.path.join(out, 'q_64x64_i8.npy'), '|i1', (64, 64), [0] * (64 * 64))
    npy(os.path.join(out, 'y_64x32_f32.npy'), '<f4', (64, 32), [0.0] * (64 * 32))
    # int8_matmul: per-row 127 / max|x|, int8 weights with one scale 1/256 for the whole
    # matrix, and the per-row dequant scale max|x| / 127 / 256
    am = [max(abs(v) for v in xm[r * 64:(r + 1) * 64]) or 1.0 for r in range(64)]
    npy(os.path.join(out, 'qscale_64x1_f32.npy'), '<f4', (64, 1), [f32(127.0 / a) for a in am])
    npy(os.path.join(out, 'dqscale_64x1_f32.npy'), '<f4', (64, 1), [f32(a / 127.0 / 256.0) for a in am])
    npy(os.path.join(out, 'w_64x32_i8.npy'), '|i1', (64, 32), [rng.randint(-127, 127) for _ in range(64 * 32)])
    # mxfp8_matmul: e4m3 weight codes (|value| in [2^-3, 2^4), no NaN), one E8M0 exponent
    # per 32 k of each column (2^-6 .. 2^-2), a zeroed exponent buffer
    npy(os.path.join(out, 'w_64x32_e4m3.npy'), '|u1', (64, 32),
        [rng.randint(0, 1) << 7 | rng.randint(4, 10) << 3 | rng.randint(0, 7) for _ in range(64 * 32)])
    npy(os.path.join(out, 'ws_2x32_ui8.npy'), '|u1', (2, 32), [rng.randint(121, 125) for _ in range(64)])
    npy(os.path.join(out, 'e_64x2_ui8.npy'), '|u1', (64, 2), [0] * (64 * 2))
    print('make_inputs.py: wrote the example inputs to %s' % out)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
