#!/usr/bin/env python3
"""gen.py: deterministic test inputs for the test/run kernels (.npy files, stdlib only).

    python3 gen.py DIR NAME:DTYPE:RxC:PATTERN[:SEED] ...      writes DIR/NAME.npy

DTYPE is a tile dtype (f32 f16 bf16 i8 ui8 i16 i32 f8E4M3FN f8E5M2) and sets the .npy descr
as `ptoas run` expects it (bf16 as <u2 bits, fp8 as |u1 bytes). PATTERN:
  normal       values of both signs over a wide range of magnitudes (2^-12 .. 2^12)
  special      `normal` with planted rows: the worked vectors of docs/numerics.md, NaN, +-Inf, -0.0,
               subnormals of the dtype, 448 vs 480, 65504, huge and tiny groups, all zero
  ties         multiples of 1/8 (x * 4 lands on .5 ties), plus NaN, +-Inf, -0.0, out of range
  near1        +-(1 + k / 64), k in [-16, 16] (long products stay finite: trowprod, tcolprod)
  full         random mantissas with exponents in [-8, 8] (gemv operands: every rounding matters)
  scale        positive multipliers in [0.5, 64) (INT8 inverse scales / dequant scales)
  offset       values in [-4, 4) with fractions (dequant offsets) ; asym: 100 .. 156
  asym         ASYM zero points (100 .. 156, fractional)
  ints         integers over the dtype's whole range, extremes included
  divisors     `ints` without 0 (integer divisors): -1, 1, 2, -2, the extremes, random others
  codes        fp8 codes (f8E4M3FN, f8E5M2) of every finite value; row 0 starts with the largest
               finite of both signs, the smallest subnormal, -0.0 and (e5m2) +Inf, row 1 with NaN
  e8m0         MX scale exponents 118 .. 136 (2^-9 .. 2^9), row 0 (of several) starting 0xFF (NaN), 0, 254, 127
  shifts       shift amounts in [0, 31] (tshl, tshr)
  rowidx       mgather/mscatter row indices in [0, 31] with repeats; elemidx: [0, 1023]; idx256:
               [0, 255] (tscatter)
  oobidx       indices in and out of a 32-row / 1024-element table, negative ones too
  ramp         r * COLS + c (for moves and views; exact in every dtype used)
  zero         all 0
The seed defaults to a hash of NAME, so every file is reproducible.
"""
import math
import os
import random
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref  # noqa: E402


WORKED = [[448, -448, 1, 0.5, -0.0], [1.0, -0.25, 0.1, 0.0078125], [480, -240, 1, 3],
          [65504, -1, 0.5], [6, -6, 3, -0.25, 0.75, 1.25], [7, -3.5, 5, 1]]


def normal(rng):
    return rng.choice((-1, 1)) * rng.uniform(1, 2) * 2.0 ** rng.randint(-12, 12)


def special_row(dt, i, cols, rng):
    """Planted row number i (or None when rows run out of plants)."""
    sub = {'f32': 2.0 ** -140, 'f16': 2.0 ** -20, 'bf16': 2.0 ** -130}.get(dt, 2.0 ** -20)
    big = {'f32': 3.0e38, 'f16': 60000.0, 'bf16': 3.0e38}.get(dt, 60000.0)
    plants = [
        lambda: WORKED[0], lambda: WORKED[1], lambda: WORKED[2], lambda: WORKED[3],
        lambda: WORKED[4], lambda: WORKED[5],
        lambda: [normal(rng) for _ in range(cols)][:5] + [math.nan],        # NaN poisons the group
        lambda: [math.inf, -1.0, 2.0, -math.inf],
        lambda: [-0.0] * cols,
        lambda: [sub * k * rng.choice((-1, 1)) for k in range(1, cols + 1)],
        lambda: [480, 448, -464, 456, 0.001],
        lambda: [big, -big, big / 3, 1.0],
        lambda: [2.0 ** -24, -(2.0 ** -23), 2.0 ** -14],
        lambda: [0.0] * cols,
        lambda: [rng.choice((1, -1)) * 2.0 ** rng.randint(-20, 20) for _ in range(cols)],
        lambda: [6.0 * 2.0 ** k for k in range(-3, 4)] + [-7.0, 5.0, 0.25],
    ]
    if i >= len(plants):
        return None
    return plants[i]()


def values(dt, rows, cols, pattern, rng):
    out = []
    for r in range(rows):
        if pattern == 'normal':
            row = [normal(rng) for _ in range(cols)]
        elif pattern == 'special':
            row = [normal(rng) for _ in range(cols)]
            plant = special_row(dt, r, cols, rng)
            if plant is not None:
                # plant into the group at column (32 * (r % groups)) so several groups are hit
                g = (r % max(1, cols // 32)) * 32
                for k in range(g, min(cols, g + 32)):    # the rest of the group is +0
                    row[k] = 0.0
                for k, v in enumerate(plant):
                    if g + k < cols:
                        row[g + k] = v
                if r in (8, 13):                      # whole rows of -0.0 / +0.0
                    row = list(plant)
        elif pattern == 'ties':
            row = [rng.randint(-1200, 1200) / 8.0 for _ in range(cols)]
            if r == 0:
                row[:8] = [math.nan, math.inf, -math.inf, -0.0, 0.125, -0.125, 0.375, 1e30][:cols]
        elif pattern == 'near1':
            row = [rng.choice((-1, 1)) * (1 + rng.randint(-16, 16) / 64) for _ in range(cols)]
        elif pattern == 'full':
            row = [rng.choice((-1, 1)) * (1 + rng.random()) * 2.0 ** rng.randint(-8, 8)
                   for _ in range(cols)]
        elif pattern == 'scale':
            row = [rng.choice((0.5, 1.0, 4.0, 3.0, 127 / 7.5, 10.3, 63.9)) for _ in range(cols)]
        elif pattern == 'offset':
            row = [rng.randint(-32, 31) / 8.0 + rng.random() / 1000 for _ in range(cols)]
        elif pattern == 'asym':
            row = [rng.randint(100, 156) + rng.choice((0, 0.5, 0.25, 0.3)) for _ in range(cols)]
        elif pattern == 'ints':
            size, _, signed, _ = ref.DTYPES[dt]
            lo, hi = (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1) if signed else (0, (1 << 8 * size) - 1)
            row = [rng.choice((lo, hi, 0, -1 if signed else 1, rng.randint(lo, hi), rng.randint(lo, hi)))
                   for _ in range(cols)]
        elif pattern == 'divisors':
            size, _, signed, _ = ref.DTYPES[dt]
            lo, hi = (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1) if signed else (1, (1 << 8 * size) - 1)
            row = []
            while len(row) < cols:
                v = rng.choice((lo, hi, 1, 2, -1 if signed else 3, -2 if signed else 7, rng.randint(lo, hi)))
                if v != 0:
                    row.append(v)
        elif pattern == 'codes':
            e5 = dt == 'f8E5M2'
            bad = (lambda v: (v & 0x7C) == 0x7C) if e5 else (lambda v: (v & 0x7F) == 0x7F)
            row = []
            while len(row) < cols:
                v = rng.randint(0, 255)
                if not bad(v):
                    row.append(v)
            if r == 0:
                row[:5] = ([0x7B, 0xFB, 0x01, 0x80, 0x7C] if e5 else [0x7E, 0xFE, 0x01, 0x80, 0x08])[:cols]
            if r == 1:
                row[0] = 0x7F
        elif pattern == 'e8m0':
            row = [rng.randint(118, 136) for _ in range(cols)]
            if r == 0 and rows > 1:
                row[:4] = [0xFF, 0, 254, 127][:cols]
        elif pattern == 'shifts':
            row = [rng.choice((0, 1, 7, 8, 15, 16, 31, rng.randint(0, 31))) for _ in range(cols)]
        elif pattern == 'rowidx':     # table rows 0 .. 31, with repeats (scatter conflicts)
            row = [rng.choice((0, 1, 31, 5, 5, rng.randint(0, 31))) for _ in range(cols)]
        elif pattern == 'elemidx':    # table elements 0 .. 1023, with repeats
            row = [rng.choice((0, 1023, 7, 7, rng.randint(0, 1023), rng.randint(0, 1023))) for _ in range(cols)]
        elif pattern == 'idx256':     # tscatter: elements 0 .. 255 of a dst, with repeats
            row = [rng.choice((0, 255, 9, 9, rng.randint(0, 255), rng.randint(0, 255))) for _ in range(cols)]
        elif pattern == 'oobidx':     # in range for 32 rows, past them, past 1024, negative (huge as u32)
            row = [rng.choice((0, 31, 32, 33, 1000, 1024, 4096, -1, -(1 << 31), (1 << 31) - 1, rng.randint(0, 31)))
                   for _ in range(cols)]
        elif pattern == 'ramp':
            row = [r * cols + c for c in range(cols)]
        elif pattern == 'zero':
            row = [0] * cols
        else:
            raise SystemExit('gen.py: unknown pattern %s' % pattern)
        out.extend(row)
    return out


def to_bits(dt, v):
    kind = ref.DTYPES[dt][3]
    if kind == 'f':
        if isinstance(v, float) and math.isnan(v):
            return ref.QNAN[dt]
        return ref.float_to_bits(dt, float(v))
    if kind == 'b':
        return int(v) & 0xFF
    return ref.from_int(dt, int(v))


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    outdir = argv[0]
    os.makedirs(outdir, exist_ok=True)
    for spec in argv[1:]:
        parts = spec.split(':')
        name, dt, shape, pattern = parts[:4]
        seed = int(parts[4]) if len(parts) > 4 else zlib.crc32(name.encode())
        rows, cols = (int(x) for x in shape.split('x'))
        rng = random.Random(seed)
        vals = values(dt, rows, cols, pattern, rng)
        arr = ref.Array(ref.DTYPES[dt][1], (rows, cols), [to_bits(dt, v) for v in vals])
        ref.npy_write(os.path.join(outdir, name + '.npy'), arr)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
