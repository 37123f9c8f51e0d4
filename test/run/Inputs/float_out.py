#!/usr/bin/env python3
"""float_out.py gen DIR | check DIR: inputs for test/run/out-float.test, and the check of
`--out-float` against ref.py's decoders (and, for e8m0, the definition 2^(code - 127)).

gen writes every code 0..255 of the fp8 formats (8x32 |u1, row-major), every byte of a packed
fp4 tile, and 256 bf16 bit patterns (16x16 <u2) with zeros, infinities, NaNs, subnormals.
check compares DIR/NAME.raw.npy (the default raw bits) with DIR/NAME.f32.npy element for
element: equal values (bit for bit apart from NaN payloads, and -0.0 kept), NaN for NaN.
"""
import math
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import ref  # noqa: E402


def bf16_codes():
    special = [0x0000, 0x8000, 0x3F80, 0xBF80, 0x7F80, 0xFF80, 0x7FC0, 0xFFC1, 0x7F81, 0x0001,
               0x8001, 0x007F, 0x0080, 0x7F7F, 0xFF7F, 0x4049]
    codes = list(special)
    x = 12345
    while len(codes) < 256:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        codes.append((x >> 8) & 0xFFFF)
    return codes


def e8m0(code):
    return math.nan if code == 0xFF else math.ldexp(1.0, code - 127)


def decode(name, raw):
    """The expected float32 values (Python floats) of a raw array."""
    if name == 'b':
        return [ref.BF16.decode(c) for c in raw]
    if name == 'e4':
        return [ref.E4M3.decode(c) for c in raw]
    if name == 'e5':
        return [ref.E5M2.decode(c) for c in raw]
    if name == 'e8':
        return [e8m0(c) for c in raw]
    if name == 'f4':
        out = []
        for c in raw:
            out += [ref.E2M1.decode(c & 15), ref.E2M1.decode(c >> 4)]
        return out
    raise SystemExit('unknown array ' + name)


def main(argv):
    cmd, d = argv[1], argv[2]
    if cmd == 'gen':
        ref.npy_write(os.path.join(d, 'b.npy'), ref.Array('<u2', (16, 16), bf16_codes()))
        for n in ('e4', 'e5', 'e8', 'f4'):
            ref.npy_write(os.path.join(d, n + '.npy'), ref.Array('|u1', (8, 32), list(range(256))))
        return 0
    bad = 0
    for n in ('b', 'e4', 'e5', 'e8', 'f4'):
        raw = ref.npy_read(os.path.join(d, n + '.raw.npy'))
        got = ref.npy_read(os.path.join(d, n + '.f32.npy'))
        want = decode(n, raw.data)
        shape = raw.shape[:-1] + (raw.shape[-1] * (2 if n == 'f4' else 1),)
        if got.descr != '<f4' or tuple(got.shape) != tuple(shape) or len(got.data) != len(want):
            print('%s: descr %s shape %s, expected <f4 %s' % (n, got.descr, got.shape, shape))
            bad += 1
            continue
        for i, (g, w) in enumerate(zip(got.data, want)):
            gv = ref.f32_val(g)
            same = (math.isnan(gv) and math.isnan(w)) or (
                not math.isnan(w) and g == ref.f32_bits(w))
            if not same:
                print('%s[%d]: got %#010x, expected %r' % (n, i, g, w))
                bad += 1
    print('%d mismatches' % bad)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
