#!/usr/bin/env python3
"""vecdiff.py: the runtime's vector ops against the independent Python model, byte for byte.

    python3 vecdiff.py VECDRV DIR [--filter SUBSTRING] [--numerics hw|sim]

Builds every case -- each vector op on each dtype it takes (docs/vector-ops.md), every tcvt
pair with every rmode, with and without saturation -- over random and edge-case inputs (NaN
of both signs and kinds, +-Inf, -0, subnormals, ties, values at the saturation bounds), writes
the tiles as .npy files into DIR, runs them all through VECDRV (test/unit/vecdrv.c, which calls
runtime/ptort.h's ptort_v* functions) once per kernel set (best, AVX2 only, portable), and
compares each result tile -- its whole physical shape, so that padding read into a result or a
write outside the valid region shows -- with test/run/ref.py's model of the op. Prints
"vecdiff: N cases x 3 kernel sets, all identical" or the first differing elements per case.
"""
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref  # noqa: E402

FLOATS = ('f32', 'f16', 'bf16')
SIZE = {'f32': 4, 'f16': 2, 'bf16': 2, 'i32': 4, 'i16': 2, 'i8': 1, 'ui32': 4, 'ui16': 2, 'ui8': 1}
# .npy descrs vecdrv reads (ui32 travels as <i4: the same bytes)
DESCR = {'f32': '<f4', 'f16': '<f2', 'bf16': '<u2', 'i32': '<i4', 'i16': '<i2', 'i8': '|i1',
         'ui32': '<i4', 'ui16': '<u2', 'ui8': '|u1'}


def special_bits(dt):
    """Edge-case element bit patterns of a dtype."""
    if dt == 'f32':
        return [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
                0x7F800001, 0xFFA00001, 0x7FC12345, 0x00000001, 0x807FFFFF, 0x00800000,
                0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3FC00000, 0xC0200000,
                0x40600000, 0x3F000000, 0xBF000000, 0x4B800001, 0x4F000000, 0xCF000000,
                0x4EFFFFFF, 0xCF000001, 0x477FE000, 0x477FF000, 0x477FF001, 0x477FEFFF,
                0x46FFFE00, 0xC7000100, 0x437F0000, 0x43000000, 0xC3010000, 0x3DCCCCCD,
                0x33800000, 0x33000000, 0x387FC000, 0x38800000, 0x7F7F8000, 0x7F7F7FFF,
                0x4B000001, 0x4AFFFFFF, 0xC2FF0000, 0x437F8000, 0x3F7FFFFF,
                0xBEFFFFFF, 0x3EFFFFFF, 0xBF000001, 0xCAFFFFFF]
    if dt in ('f16', 'bf16'):
        if dt == 'f16':
            base = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFD55, 0x0001,
                    0x83FF, 0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0x3E00, 0xC100, 0x4300,
                    0x3800, 0xB800, 0x5BF8, 0x5A40, 0xDC00, 0x57F0, 0xD808, 0x5BFC, 0x6400,
                    0x7800, 0x1400, 0x2E66, 0x3C01, 0x7A00, 0x43FE]
        else:
            base = [0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0xFFA5, 0x0001,
                    0x807F, 0x0080, 0x7F7F, 0xFF7F, 0x3F80, 0xBF80, 0x3FC0, 0xC020, 0x4060,
                    0x3F00, 0xBF00, 0x4300, 0x437F, 0xC300, 0x477F, 0x4780, 0xC780, 0x4F00,
                    0xCF00, 0x4EFF, 0x3F81, 0x4B80, 0x3C00]
        return base
    size = SIZE[dt]
    w = 8 * size
    m = (1 << w) - 1
    vals = [0, 1, m, (1 << (w - 1)), (1 << (w - 1)) - 1, (1 << (w - 1)) + 1, 2, m - 1, 100, 127,
            128, 255, 256, 0x7FFF, 0x8000, 0xFFFF, 40000, 0x10000 - 300, 200, 65504 & m]
    return [v & m for v in vals]


def rand_bits(dt, rng):
    """A random element: often a special, often a moderate value, sometimes any bits."""
    k = rng.random()
    if k < 0.3:
        return rng.choice(special_bits(dt))
    if dt in FLOATS and k < 0.8:
        x = rng.choice((-1, 1)) * rng.uniform(1, 2) * 2.0 ** rng.randint(-14, 15)
        if rng.random() < 0.3:
            x = rng.choice((-1, 1)) * (rng.randint(0, 600) / 4.0)       # ties for rounding
        return ref.float_to_bits(dt, x)
    if dt not in FLOATS and k < 0.6:
        return ref.from_int(dt, rng.randint(-300, 300))
    return rng.getrandbits(8 * SIZE[dt])


class Spec:
    """A tile: dtype, physical shape, valid shape, blayout, and its initial bits (physical
    shape, logical row-major order)."""

    def __init__(self, dt, rows, cols, vr, vc, layout='r', bits=None, pad=0):
        self.dt, self.rows, self.cols, self.vr, self.vc, self.layout = dt, rows, cols, vr, vc, layout
        self.bits = bits
        self.pad = pad

    def tile(self):
        tt = ref.TType(2, 'vec', self.dt, self.rows, self.cols, self.vr, self.vc,
                       'col_major' if self.layout == 'c' else 'row_major', pad=self.pad)
        t = ref.Tile(tt)
        for r in range(self.rows):
            for c in range(self.cols):
                t.set(r, c, self.bits[r * self.cols + c])
        return t


def make(dt, rows, cols, vr, vc, rng, layout='r'):
    return Spec(dt, rows, cols, vr, vc, layout,
                [rand_bits(dt, rng) for _ in range(rows * cols)])


def sentinel(dt, rows, cols, vr, vc, rng, layout='r'):
    """A destination: random bits everywhere, so an unwritten position keeps its byte."""
    return Spec(dt, rows, cols, vr, vc, layout,
                [rng.getrandbits(8 * SIZE[dt]) for _ in range(rows * cols)])


class Case:
    def __init__(self, cls, op, dst, srcs, rmode='RINT', sat=0, scalar=0, arch='a5'):
        self.cls, self.op, self.dst, self.srcs = cls, op, dst, srcs
        self.rmode, self.sat, self.scalar, self.arch = rmode, sat, scalar, arch

    def name(self):
        s = '%s %s %s' % (self.cls, self.op, '->'.join([x.dt for x in self.srcs] + [self.dst.dt]))
        if self.cls == 'tcvt':
            s += ' %s%s' % (self.rmode, ' sat' if self.sat else '')
        if self.cls in ('scalar', 'expands', 'tci', 'gathermask', 'fillpad', 'histogram'):
            s += ' scalar=%#x' % self.scalar
        return s

    def model(self):
        ref.ARCH = self.arch                 # trsqrt's rule depends on it
        d = self.dst.tile()
        s = [x.tile() for x in self.srcs]
        if self.cls in ('binary', 'unary'):
            ref.op_velementwise(self.cls, self.op, s, d)
        elif self.cls == 'scalar':
            ref.op_velementwise('scalar', self.op, s, d, self.scalar)
        elif self.cls == 'expands':
            ref.op_velementwise('expands', 'copy', [], d, self.scalar)
        elif self.cls == 'rowreduce':
            ref.op_vrowreduce(self.op, s[0], d)
        elif self.cls == 'colreduce':
            ref.op_vcolreduce(self.op, s[0], d)
        elif self.cls == 'rowexpand':
            ref.op_vrowexpand(self.op, s[0], s[1] if len(s) > 1 else None, d)
        elif self.cls == 'colexpand':
            ref.op_vcolexpand(self.op, s[0], s[1] if len(s) > 1 else None, d)
        elif self.cls == 'tcvt':
            ref.op_tcvt(s[0], d, self.rmode, self.sat)
        elif self.cls == 'tci':
            start = ref.to_int('i32', self.scalar)
            ref.op_tci(d, start, self.op == 'desc')
        elif self.cls in ('rowarg', 'colarg'):
            ref.op_vargreduce(self.cls[:3], self.op, s[0], d)
        elif self.cls == 'sort32':
            ref.op_tsort32(s[0], s[1], d)
        elif self.cls == 'histogram':
            ref.op_thistogram(self.scalar, s[0], s[1], d)
        elif self.cls == 'concat':
            ref.op_tconcat(s[0], s[1], d)
        elif self.cls == 'gather':
            ref.op_tgather(s[0], s[1], d)
        elif self.cls == 'gathermask':
            ref.op_tgather_mask(MASKS[self.scalar - 1], self.op, s[0], d)
        elif self.cls == 'gatherb':
            ref.op_tgatherb(s[0], s[1], d)
        elif self.cls == 'fillpad':
            d.tt.pad = self.scalar
            ref.op_tfillpad(s[0], d)
        return d.elements()


# the runtime's ptort_mask_pattern order (1 ...)
MASKS = ('P0101', 'P1010', 'P0001', 'P0010', 'P0100', 'P1000', 'P1111')


def rearr_cases(rng, make, sentinel):
    """tgather (index and mask-pattern forms), tgatherb, tfillpad: every element type they
    take, indices and offsets in and out of range, every pattern and axis, every pad."""
    cases = []
    R, C, VR, VC = 6, 24, 5, 19
    for dt, arch in (('f32', 'a3'), ('f16', 'a3'), ('i32', 'a3'), ('i16', 'a3'), ('ui16', 'a5'),
                     ('i8', 'a5'), ('ui8', 'a5'), ('ui32', 'a5'), ('f32', 'a5')):
        for idt in (('i32', 'i16') if arch == 'a5' else ('i32',)):
            m = (1 << (8 * SIZE[idt])) - 1
            idx = Spec(idt, 5, 16, 5, 16, 'r', [rng.choice((rng.randrange(R * C), rng.randrange(R * C),
                                                            R * C, R * C - 1, m, rng.getrandbits(8 * SIZE[idt])))
                                                 for _ in range(5 * 16)])
            cases.append(Case('gather', '-', sentinel(dt, 5, 16, 5, 16, rng), [make(dt, R, C, VR, VC, rng), idx],
                              arch=arch))
    for k, pat in enumerate(MASKS):
        times = 1 if pat == 'P1111' else 2 if pat in ('P0101', 'P1010') else 4
        for dt, arch in (('f32', 'a3'), ('f16', 'a3'), ('i8', 'a5')):
            src = make(dt, 8, 32, 8, 32, rng)
            cases.append(Case('gathermask', 'row', sentinel(dt, 8, 32 // times, 8, 32 // times, rng), [src],
                              scalar=k + 1, arch=arch))
            cases.append(Case('gathermask', 'col', sentinel(dt, 8 // times, 32, 8 // times, 32, rng), [src],
                              scalar=k + 1, arch=arch))
    for dt in ('f32', 'f16', 'i8'):
        src = make(dt, 6, 32, 6, 32, rng)
        nbytes = 6 * 32 * SIZE[dt]
        per = 64 // SIZE[dt]                      # two blocks per dst row
        offs = Spec('i32', 5, 8, 5, 8, 'r', [rng.choice((32 * rng.randrange(nbytes // 32), rng.randrange(nbytes),
                                                         nbytes - 32, nbytes - 31, 0xFFFFFFF0))
                                              for _ in range(5 * 8)])
        cases.append(Case('gatherb', '-', sentinel(dt, 5, per, 5, per, rng), [src, offs]))
    for dt in ('f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'ui32', 'ui16', 'ui8'):
        for pad in (1, 2, 3):
            cases.append(Case('fillpad', '-', sentinel(dt, R, C, VR, VC, rng), [make(dt, R, C, VR, VC, rng)],
                              scalar=pad))
            cases.append(Case('fillpad', '-', sentinel(dt, R + 2, C + 8, R, C, rng), [make(dt, R, C, 3, 7, rng)],
                              scalar=pad))
    cases.append(Case('fillpad', '-', sentinel('f32', R, C, 0, C, rng), [make('f32', R, C, VR, VC, rng)], scalar=2))
    # tsort32: whole and short blocks, ties (few distinct values), NaN, +-0, +-Inf, idx per row or
    # one row for all
    for dt in ('f32', 'f16'):
        for vc in (32, 64, 45, 7):
            for few in (False, True):
                bits = [rng.choice(special_bits(dt)[:8]) if few else rand_bits(dt, rng) for _ in range(4 * 64)]
                src = Spec(dt, 4, 64, 3, vc, 'r', bits)
                irows = 1 if few else 3
                idx = Spec('i32', 4, 64, irows, vc, 'r', [rng.choice((rng.randrange(8), rng.getrandbits(32)))
                                                          for _ in range(4 * 64)])
                cases.append(Case('sort32', '-', sentinel(dt, 4, 64 * 8 // SIZE[dt], 3, 64 * 8 // SIZE[dt], rng),
                                  [src, idx]))
    # thistogram (a5): u16 bytes 1 and 0 (filtered by each row's idx), u32 bytes 3 .. 0 (filtered by
    # idx's rows); few distinct high bytes so that filters match
    for byte in (1, 0):
        src = Spec('ui16', 4, 64, 3, 50, 'r', [(rng.choice((0, 1, 0xFF)) << 8) | rng.getrandbits(8)
                                              for _ in range(4 * 64)])
        idx = Spec('ui8', 4, 1, 3, 1, 'c', [rng.choice((0, 1)) for _ in range(4)])
        cases.append(Case('histogram', '-', sentinel('ui32', 4, 256, 3, 256, rng), [src, idx], scalar=byte))
    for byte in (3, 2, 1, 0):
        src = Spec('ui32', 2, 64, 2, 61, 'r', [(rng.choice((0, 7)) << 24) | (rng.choice((0, 3)) << 16) |
                                              (rng.choice((5, 9)) << 8) | rng.getrandbits(8) for _ in range(2 * 64)])
        depth = 3 - byte
        idx = Spec('ui8', max(depth, 1), 64, max(depth, 1), 61, 'r',
                   [(7, 3, 9)[k // 64] if k // 64 < 3 else 0 for k in range(max(depth, 1) * 64)])
        cases.append(Case('histogram', '-', sentinel('ui32', 2, 256, 2, 256, rng), [src, idx], scalar=byte))
    for dt in ('f32', 'f16', 'bf16', 'i32', 'i16', 'i8'):
        cases.append(Case('concat', '-', sentinel(dt, 5, 64, 4, 13 + 9, rng),
                          [make(dt, 6, 32, 4, 13, rng), make(dt, 4, 16, 4, 9, rng)]))
    # arg reductions: ties (few distinct values), NaN, -0 and +0, the integer extremes
    for op in ('max', 'min'):
        for dt in ('f32', 'f16', 'i32', 'i16', 'ui32', 'ui16'):
            for ddt in ('i32', 'ui32'):
                cases.append(Case('rowarg', op, sentinel(ddt, R, 1, VR, 1, rng, 'c'), [make(dt, R, C, VR, VC, rng)]))
                few = Spec(dt, R, C, VR, VC, 'r', [rng.choice(special_bits(dt)[:6]) for _ in range(R * C)])
                cases.append(Case('rowarg', op, sentinel(ddt, R, 8, VR, 1, rng), [few]))
        for dt in ('f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'ui8', 'ui16'):
            cases.append(Case('colarg', op, sentinel('i32', 1, C, 1, VC, rng), [make(dt, R, C, VR, VC, rng)]))
            few = Spec(dt, R, C, VR, VC, 'r', [rng.choice(special_bits(dt)[:6]) for _ in range(R * C)])
            cases.append(Case('colarg', op, sentinel('ui32', 1, C, 1, VC, rng), [few]))
    # trowprod / tcolprod (docs/numerics.md 8.8): any bits (NaN, Inf, 0 * Inf), both dst
    # layouts, each arch's order; long rows and columns of values near 1, several lane blocks
    for arch in ('a5', 'a3'):
        for dt in ('f32', 'f16', 'i32', 'i16', 'ui32', 'ui16') + (('bf16',) if arch == 'a5' else ()):
            if dt != 'bf16':
                cases.append(Case('rowreduce', 'prod', sentinel(dt, R, 1, VR, 1, rng, 'c'),
                                  [make(dt, R, C, VR, VC, rng)], arch=arch))
                cases.append(Case('rowreduce', 'prod', sentinel(dt, R, 8, VR, 1, rng), [make(dt, R, C, VR, VC, rng)],
                                  arch=arch))
            cases.append(Case('colreduce', 'prod', sentinel(dt, 1, C, 1, VC, rng), [make(dt, R, C, VR, VC, rng)],
                              arch=arch))
        for dt in ('f32', 'f16'):
            near = Spec(dt, 4, 320, 3, 301, 'r', [ref.float_to_bits(dt, rng.choice((1, -1)) * (1 + rng.randint(-16, 16) / 64))
                                                  for _ in range(4 * 320)])
            cases.append(Case('rowreduce', 'prod', sentinel(dt, 4, 1, 3, 1, rng, 'c'), [near], arch=arch))
            near = Spec(dt, 40, 16, 37, 13, 'r', [ref.float_to_bits(dt, rng.choice((1, -1)) * (1 + rng.randint(-16, 16) / 64))
                                                  for _ in range(40 * 16)])
            cases.append(Case('colreduce', 'prod', sentinel(dt, 1, 16, 1, 13, rng), [near], arch=arch))
    # trowexpandexpdif / tcolexpandexpdif: either operand the per-row vector, both vector forms
    for dt in ('f32', 'f16'):
        per = 32 // SIZE[dt]
        cases.append(Case('rowexpand', 'expdif', sentinel(dt, R, C, VR, VC, rng),
                          [make(dt, R, C, VR, VC, rng), make(dt, R, 1, VR, 1, rng, 'c')]))
        cases.append(Case('rowexpand', 'expdif', sentinel(dt, R, C, VR, VC, rng),
                          [make(dt, R, 1, VR, 1, rng, 'c'), make(dt, R, C, VR, VC, rng)]))
        cases.append(Case('rowexpand', 'expdif', sentinel(dt, R, C, VR, VC, rng),
                          [make(dt, R, C, VR, VC, rng), make(dt, R, per, VR, per, rng)]))
        cases.append(Case('colexpand', 'expdif', sentinel(dt, R, C, VR, VC, rng),
                          [make(dt, R, C, VR, VC, rng), make(dt, 1, C, 1, VC, rng)]))
    return cases


def build_cases():
    rng = random.Random(20261124)
    cases = []
    R, C, VR, VC = 6, 24, 5, 19          # physical / valid: padding on both axes

    def full(dt):
        return make(dt, R, C, VR, VC, rng)

    def dst(dt, rows=R, cols=C, vr=VR, vc=VC, layout='r'):
        return sentinel(dt, rows, cols, vr, vc, rng, layout)

    def nonzero(spec):
        """An integer divisor: every 0 becomes 1 (a zero divisor is a runtime error)."""
        if spec.dt not in FLOATS:
            spec.bits = [b or 1 for b in spec.bits]
        return spec

    arith = ('f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'ui8')
    for op in ('add', 'sub', 'mul', 'div', 'max', 'min'):
        for dt in arith:
            idiv = op == 'div' and dt not in FLOATS
            if not idiv or dt in ('i32', 'i16'):       # integer tdiv: i32 and i16
                for _ in range(2):
                    cases.append(Case('binary', op, dst(dt), [full(dt), nonzero(full(dt)) if idiv else full(dt)]))
            for sc in rng.sample(special_bits(dt), 4) + [rand_bits(dt, rng)]:
                cases.append(Case('scalar', op, dst(dt), [full(dt)], scalar=(sc or 1) if idiv else sc))
    for op in ('abs', 'neg', 'relu', 'sqrt', 'recip', 'rsqrt', 'exp', 'log'):
        dts = ('f32', 'f16', 'bf16', 'i32', 'i16', 'i8') if op in ('abs', 'neg', 'relu') else ('f32', 'f16')
        for dt in dts:
            for _ in range(2):
                cases.append(Case('unary', op, dst(dt), [full(dt)]))
    # the bitwise ops: any bits; shift amounts in [0, 31] (outside is a runtime error)
    ints = ('i32', 'i16', 'i8', 'ui32', 'ui16', 'ui8')

    def amounts(dt):
        return Spec(dt, R, C, VR, VC, 'r', [rng.choice((0, 1, 7, 8, 15, 16, 31, rng.randint(0, 31)))
                                            for _ in range(R * C)])
    for op in ('and', 'or', 'xor', 'shl', 'shr'):
        shift = op in ('shl', 'shr')
        for dt in ints:
            for _ in range(2):
                cases.append(Case('binary', op, dst(dt), [full(dt), amounts(dt) if shift else full(dt)]))
            scs = [0, 1, 8, 31, rng.randint(0, 31)] if shift else rng.sample(special_bits(dt), 4) + [rand_bits(dt, rng)]
            for sc in scs:
                cases.append(Case('scalar', op, dst(dt), [full(dt)], scalar=sc))
    for dt in ints:
        cases.append(Case('unary', 'not', dst(dt), [full(dt)]))
    # pow: exponents of every kind (specials, small integers, halves, random)
    def exps(dt):
        if dt in FLOATS:
            pick = lambda: (rng.choice(special_bits(dt)) if rng.random() < 0.3 else
                            ref.float_to_bits(dt, rng.choice((0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, -0.5, 1.5,
                                                              rng.uniform(-8, 8)))))
        else:
            pick = lambda: ref.from_int(dt, rng.choice((0, 1, 2, 3, 7, 31, -1, -2, rng.randint(-40, 40))))
        return Spec(dt, R, C, VR, VC, 'r', [pick() for _ in range(R * C)])
    # trem (floored) and tfmod (truncated): nonzero integer divisors
    for op in ('rem', 'fmod'):
        for dt in ('f32', 'f16', 'i32', 'i16', 'ui32', 'ui16'):
            for _ in range(2):
                cases.append(Case('binary', op, dst(dt), [full(dt), nonzero(full(dt))]))
            for sc in rng.sample(special_bits(dt), 4) + [rand_bits(dt, rng)]:
                cases.append(Case('scalar', op, dst(dt), [full(dt)], scalar=sc or 3))
    for dt in ('f32', 'f16'):
        for _ in range(2):
            cases.append(Case('binary', 'prelu', dst(dt), [full(dt), full(dt)]))
        for sc in rng.sample(special_bits(dt), 4) + [rand_bits(dt, rng)]:   # tlrelu's slope
            cases.append(Case('scalar', 'lrelu', dst(dt), [full(dt)], scalar=sc))
    for dt in ('f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'ui32', 'ui16', 'ui8'):
        for _ in range(2):
            cases.append(Case('binary', 'pow', dst(dt), [full(dt), exps(dt)]))
        for sc in exps(dt).bits[:5]:
            cases.append(Case('scalar', 'pow', dst(dt), [full(dt)], scalar=sc))
    for dt in ('f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'ui8', 'ui16', 'ui32'):
        cases.append(Case('expands', 'copy', dst(dt), [], scalar=rand_bits(dt, rng)))
    row_pairs = [('f32', 'f32'), ('f16', 'f16'), ('bf16', 'bf16'), ('f16', 'f32'), ('bf16', 'f32'),
                 ('i32', 'i32'), ('i16', 'i16')]
    for op in ('sum', 'max', 'min'):
        for sdt, ddt in row_pairs + ([('i16', 'i32')] if op == 'sum' else []):
            cases.append(Case('rowreduce', op, dst(ddt, R, 1, VR, 1, 'c'), [full(sdt)]))
            cases.append(Case('rowreduce', op, dst(ddt, R, 8, VR, 1), [full(sdt)]))
    col_pairs = [('f32', 'f32'), ('f16', 'f16'), ('bf16', 'bf16'), ('f16', 'f32'), ('bf16', 'f32')]
    for op in ('sum', 'max', 'min'):
        for sdt, ddt in col_pairs + ([] if op == 'sum' else [('i8', 'i8'), ('ui8', 'ui8')]):
            for _ in range(2):
                cases.append(Case('colreduce', op, dst(ddt, 1, C, 1, VC), [full(sdt)]))
    # long columns and rows: the accumulation order matters (f16 column sums round every step)
    for sdt, ddt in (('f16', 'f16'), ('f16', 'f32'), ('bf16', 'bf16'), ('f32', 'f32')):
        src = Spec(sdt, 64, 16, 64, 16, 'r',
                   [ref.float_to_bits(sdt, rng.choice((1.0, 2.0 ** -11, 3.0, -2.0 ** -9, 1e-3)))
                    for _ in range(64 * 16)])
        cases.append(Case('colreduce', 'sum', dst(ddt, 1, 16, 1, 16), [src]))
        src = Spec(sdt, 16, 64, 16, 64, 'r', list(src.bits))
        cases.append(Case('rowreduce', 'sum', dst(ddt, 16, 1, 16, 1, 'c'), [src]))
    # rows of several vector blocks (A5 sums f32 / f16 by blocks of 64 / 128, docs/numerics.md
    # 8.3), with a padded last block, on a5 and a3
    for sdt in ('f32', 'f16'):
        for arch in ('a5', 'a3'):
            src = Spec(sdt, 4, 320, 3, 301, 'r',
                       [ref.float_to_bits(sdt, rng.choice((1.0, 2.0 ** -11, 3.0, -2.0 ** -9, 1e-3, 1000.0)))
                        for _ in range(4 * 320)])
            cases.append(Case('rowreduce', 'sum', dst(sdt, 4, 1, 3, 1, 'c'), [src], arch=arch))
    # A2/A3's f32 [64, 128] into a DN [64, 1]: TryOptimizeFP32Reduce's sums of 8 (8.3)
    src = Spec('f32', 64, 128, 64, 128, 'r',
               [ref.float_to_bits('f32', rng.choice((1.0, 2.0 ** -11, 3.0, -2.0 ** -9, 1e-3, 1000.0, 2.0 ** 25)))
                for _ in range(64 * 128)])
    cases.append(Case('rowreduce', 'sum', dst('f32', 64, 1, 64, 1, 'c'), [src], arch='a3'))
    expand = ('f32', 'f16', 'bf16', 'i32', 'i16', 'ui32', 'ui16')
    for dt in expand + ('i8', 'ui8'):
        cases.append(Case('rowexpand', 'copy', dst(dt), [make(dt, R, 1, VR, 1, rng, 'c')]))
        cases.append(Case('colexpand', 'copy', dst(dt), [make(dt, 1, C, 1, VC, rng)]))
    for op in ('add', 'sub', 'mul', 'div', 'max', 'min'):
        dts = ('f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'ui8') if op == 'div' else expand
        for dt in dts + (('ui8',) if op == 'mul' else ()):
            nz = nonzero if op == 'div' else (lambda t: t)
            per = 32 // SIZE[dt]
            cases.append(Case('rowexpand', op, dst(dt), [full(dt), nz(make(dt, R, 1, VR, 1, rng, 'c'))]))
            cases.append(Case('rowexpand', op, dst(dt), [make(dt, R, 1, VR, 1, rng, 'c'), nz(full(dt))]))
            cases.append(Case('rowexpand', op, dst(dt), [full(dt), nz(make(dt, R, per, VR, per, rng))]))
            cases.append(Case('colexpand', op, dst(dt), [full(dt), nz(make(dt, 1, C, 1, VC, rng))]))
    # big tiles of any bits: the hand-written kernels' fast paths and their fallbacks
    def anybits(dt, n=64):
        return Spec(dt, n, n, n, n, 'r', [rng.getrandbits(8 * SIZE[dt]) if rng.random() < 0.5
                                          else rand_bits(dt, rng) for _ in range(n * n)])
    for op in ('sqrt', 'recip', 'rsqrt', 'exp', 'log'):
        cases.append(Case('unary', op, dst('f32', 64, 64, 64, 64), [anybits('f32')]))
    for dt in ('f32', 'f16'):                # trsqrt's A2/A3 rule (docs/numerics.md 8.2)
        cases.append(Case('unary', 'rsqrt', dst(dt, 64, 64, 64, 64), [anybits(dt)], arch='a3'))
    for op in ('add', 'sub', 'mul', 'div'):
        for dt in FLOATS:
            cases.append(Case('binary', op, dst(dt, 64, 64, 64, 64), [anybits(dt), anybits(dt)]))
    for ddt in ('f16', 'bf16', 'i32', 'i16'):
        for sat in (0, 1):
            cases.append(Case('tcvt', '-', dst(ddt, 64, 64, 64, 64), [anybits('f32')], sat=sat))
    cvt = {'f32': ('f16', 'bf16', 'f32', 'i32', 'i16'), 'f16': ('f32', 'i32', 'i16', 'i8', 'ui8'),
           'bf16': ('f32', 'i32', 'f16'), 'i32': ('f32', 'f16', 'i16', 'ui16', 'ui8'),
           'i16': ('f16', 'f32', 'i32', 'ui32', 'ui8'), 'i8': ('f16', 'i16', 'i32'),
           'ui8': ('f16', 'ui16'), 'ui32': ('ui8', 'ui16', 'i16')}
    for sdt, ddts in cvt.items():
        for ddt in ddts:
            f2i = sdt in FLOATS and ddt not in FLOATS
            rounds = (sdt, ddt) in (('f32', 'f16'), ('f32', 'bf16'), ('f32', 'f32'), ('bf16', 'f16'),
                                    ('i32', 'f32'), ('i16', 'f16'), ('i32', 'f16'))
            for rm in (ref.RMODES if f2i or rounds else ('RINT', 'TRUNC')):
                for sat in (0, 1):
                    cases.append(Case('tcvt', '-', dst(ddt), [full(sdt)], rmode=rm, sat=sat))
    for dt in ('i32', 'i16', 'ui32', 'ui16'):
        for d in ('asc', 'desc'):
            for start in (0, 5, 0x7FFFFFF0, 0xFFFFFFFE, 0x7FF0):
                cases.append(Case('tci', d, dst(dt, 1, 48, 1, 37), [], scalar=start))
    return cases + rearr_cases(rng, make, sentinel)


def write_npy(path, spec):
    descr = DESCR[spec.dt]
    size = SIZE[spec.dt]
    arr = ref.Array(descr, (spec.rows, spec.cols), spec.bits)
    assert ref.DESCR_SIZE[descr] == size
    ref.npy_write(path, arr)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    drv, d = argv[0], argv[1]
    opts = dict(zip(argv[2::2], argv[3::2]))
    filt = opts.get('--filter')
    # --numerics sim: the runtime with PTORT_NUMERICS_SIM against ref.py's simulator model
    ref.NUMERICS = opts.get('--numerics', 'hw')
    os.makedirs(d, exist_ok=True)
    cases = [c for c in build_cases() if filt is None or filt in c.name()]
    lines = []
    for i, c in enumerate(cases):
        specs = [c.dst] + c.srcs
        names = []
        for k, s in enumerate(specs):
            p = os.path.join(d, 'c%d_%d.npy' % (i, k))
            write_npy(p, s)
            names.append('%s:%s:%d:%d:%d:%d:%s' % (p, s.dt, s.rows, s.cols, s.vr, s.vc, s.layout))
        lines.append('%s %s %s %s %d %#x %s %s' % (c.cls, c.op if c.op not in ('asc', 'desc') else c.op,
                                                   c.arch, c.rmode, c.sat, c.scalar,
                                                   os.path.join(d, 'o%d.npy' % i), ' '.join(names)))
    man = os.path.join(d, 'manifest')
    with open(man, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    want = [c.model() for c in cases]
    bad = 0
    sets = (('best', {}), ('avx2', {'PTORT_NO_AVX512': '1'}),
            ('portable', {'PTORT_NO_AVX512': '1', 'PTORT_NO_AVX2': '1'}))
    for setname, env in sets:
        e = dict(os.environ)
        e.update(env)
        e['VECDRV_NUMERICS'] = ref.NUMERICS
        r = subprocess.run([drv, man], env=e, stdout=subprocess.PIPE, universal_newlines=True)
        status = r.stdout.split('\n')
        if r.returncode != 0:
            print('vecdiff: %s: vecdrv failed (exit %d)' % (setname, r.returncode))
            return 1
        for i, c in enumerate(cases):
            if status[i] != 'ok':
                bad += 1
                print('vecdiff: %s: %s: %s' % (setname, c.name(), status[i]))
                continue
            got = ref.npy_read(os.path.join(d, 'o%d.npy' % i)).data
            if got == want[i]:
                continue
            bad += 1
            diffs = [k for k in range(len(got)) if got[k] != want[i][k]]
            print('vecdiff: %s: %s: %d elements differ' % (setname, c.name(), len(diffs)))
            srcs = c.srcs
            for k in diffs[:6]:
                r_, col = divmod(k, c.dst.cols)
                ins = ' '.join('%#x' % s.bits[min(r_, s.rows - 1) * s.cols + min(col, s.cols - 1)]
                               for s in srcs)
                print('  [%d, %d] runtime %#x ref %#x (inputs at [%d, %d]: %s)'
                      % (r_, col, got[k], want[i][k], r_, col, ins))
    if bad:
        print('vecdiff: %d of %d case runs differ' % (bad, 3 * len(cases)))
        return 1
    print('vecdiff: %d cases x 3 kernel sets, all identical%s'
          % (len(cases), ' (--numerics sim)' if ref.NUMERICS == 'sim' else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
