#!/usr/bin/env python3
"""ref.py: the reference model of `ptoas run`, in Python 3 (standard library only).

It is written from the project's docs alone (docs/numerics.md, docs/vector-ops.md, docs/cli.md,
docs/language.md; the vector ops also from the pto-isa CPU simulator's rules) and shares no code
with the C runtime, so that the end-to-end tests in test/run/ compare two independent readings:

    python3 ref.py run KERNEL.pto [--func NAME] --in NAME=FILE.npy ... --out NAME=FILE.npy ... \
                   [--arg NAME=VALUE]
    python3 ref.py --self-test          every worked vector of docs/numerics.md and
                                        docs/vector-ops.md, and more

`run` interprets the kernel (the PTO subset that the runtime executes: tquant INT8 and MX,
tdequant, tgemv.bias, tmov, tload/tstore through make_tensor_view/partition_view, alloc_tile,
tassign, the vector ops -- elementwise, tile-scalar, texpands, row and column reductions and
broadcasts, tcvt, tci --, arith's scalar ops, scf.for / scf.if / scf.while / scf.condition /
scf.execute_region / scf.yield, return; Level 1
and Level 2) tile by tile: each tile is its own array
of element bit patterns in logical (row, col) order over the full physical shape, zero at the
start, so positions no op writes read back as 0 (docs/cli.md). It does not model the
compiler's placement: two tiles it places never share bytes here. Tiles given an address by
`pto.alloc_tile addr = ...` (Level 3) do live at that address of a zeroed memory space, so
tiles placed over the same bytes alias, as PTOAS's kernels use them.

Numerics: fp32 values are Python floats holding exactly a binary32 value; every written fp32
operation is rounded once (a product or sum of two binary32 values is computed exactly or with
an innocuous double rounding in binary64 -- 53 >= 2*24+2 -- and then rounded to binary32).
fmaf is computed exactly with Fraction and rounded once by our own RNE routine. All narrow
formats (f16, bf16, e4m3, e2m1) are encoded by one exact RNE routine on Fractions.
"""
import ast
import math
import os
import re
import struct
import sys
from fractions import Fraction

INF = float('inf')
NAN = float('nan')


class RefError(Exception):
    """A kernel the reference cannot or must not run (bad input, out-of-bounds view, ...)."""


# ============================================================================================
# Exact rounding to binary floating-point formats
# ============================================================================================

def _floor_log2(fr):
    """floor(log2(fr)) of a positive Fraction."""
    n, d = fr.numerator, fr.denominator
    e = n.bit_length() - d.bit_length()
    if e >= 0:
        if n < (d << e):
            e -= 1
    elif (n << -e) < d:
        e -= 1
    return e


def _rne_int(fr):
    """Round a non-negative Fraction to an integer, ties to even."""
    q, r = divmod(fr.numerator, fr.denominator)
    twice = 2 * r
    if twice > fr.denominator or (twice == fr.denominator and q & 1):
        q += 1
    return q


def _pow2(e):
    return Fraction(1 << e) if e >= 0 else Fraction(1, 1 << -e)


class Fmt:
    """A binary floating-point format: E exponent bits, M mantissa bits, bias.
    kind 'ieee': the top exponent holds Inf/NaN; 'e4m3': only S.1111.111 is NaN, no Inf;
    'e2m1': every code is a number."""

    def __init__(self, name, ebits, mbits, bias, kind):
        self.name, self.ebits, self.mbits, self.bias, self.kind = name, ebits, mbits, bias, kind
        self.sign = 1 << (ebits + mbits)
        if kind == 'ieee':
            self.maxcode = (((1 << ebits) - 2) << mbits) | ((1 << mbits) - 1)
            self.infcode = ((1 << ebits) - 1) << mbits
        elif kind == 'e4m3':
            self.maxcode = (((1 << ebits) - 1) << mbits) | ((1 << mbits) - 2)
            self.infcode = None
        else:
            self.maxcode = ((1 << ebits) - 1) << mbits | ((1 << mbits) - 1)
            self.infcode = None

    def encode_exact(self, neg, mag, saturate):
        """Bits of the value (-1)^neg * mag (mag a non-negative Fraction), rounded to nearest even.
        Overflow gives the largest finite code when saturate, else Inf."""
        sign = self.sign if neg else 0
        if mag == 0:
            return sign
        emin = 1 - self.bias
        q = max(_floor_log2(mag), emin) - self.mbits
        n = _rne_int(mag * _pow2(-q))
        if n == 0:
            return sign
        if n >> (self.mbits + 1):           # rounded up to the next binade
            n >>= 1
            q += 1
        if n < (1 << self.mbits):           # subnormal (only possible at emin)
            code = n
        else:
            code = ((q + self.mbits + self.bias) << self.mbits) | (n - (1 << self.mbits))
        if code > self.maxcode:
            code = self.maxcode if (saturate or self.infcode is None) else self.infcode
        return sign | code

    def encode(self, x, saturate=False):
        """Bits of the Python float x rounded to this format (NaN: the caller decides)."""
        if math.isnan(x):
            raise ValueError('encode of NaN')
        neg = math.copysign(1.0, x) < 0
        if math.isinf(x):
            if saturate or self.infcode is None:
                return (self.sign if neg else 0) | self.maxcode
            return (self.sign if neg else 0) | self.infcode
        return self.encode_exact(neg, Fraction(abs(x)), saturate)

    def decode(self, bits):
        """The value of a code as a Python float (exact: every format here fits binary64)."""
        neg = bits & self.sign
        mag = bits & (self.sign - 1)
        e = mag >> self.mbits
        m = mag & ((1 << self.mbits) - 1)
        if self.kind == 'ieee' and e == (1 << self.ebits) - 1:
            v = INF if m == 0 else NAN
        elif self.kind == 'e4m3' and mag == (self.sign - 1):
            v = NAN
        elif e == 0:
            v = math.ldexp(m, 1 - self.bias - self.mbits)
        else:
            v = math.ldexp(m | (1 << self.mbits), e - self.bias - self.mbits)
        return -v if neg else v


F32 = Fmt('f32', 8, 23, 127, 'ieee')
F16 = Fmt('f16', 5, 10, 15, 'ieee')
BF16 = Fmt('bf16', 8, 7, 127, 'ieee')
E4M3 = Fmt('e4m3', 4, 3, 7, 'e4m3')
E5M2 = Fmt('e5m2', 5, 2, 15, 'ieee')
E2M1 = Fmt('e2m1', 2, 1, 1, 'e2m1')


def f32_bits(x):
    """Bits of a Python float that holds a binary32 value (NaN keeps sign and payload top)."""
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f32_val(bits):
    return struct.unpack('<f', struct.pack('<I', bits & 0xFFFFFFFF))[0]


def f32(x):
    """Round a binary64 value to binary32 (RNE, overflow to Inf)."""
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(INF, x)


def fmul(a, b):
    return f32(a * b)          # the binary64 product of two binary32 values is exact


def fadd(a, b):
    return f32(a + b)          # double rounding binary64 -> binary32 is innocuous for + (p' >= 2p+2)


def fsub(a, b):
    return f32(a - b)


def f32_exact(fr_neg, fr_mag):
    return f32_val(F32.encode_exact(fr_neg, fr_mag, False))


def fmaf(a, b, c):
    """fmaf(a, b, c) on binary32 values: a*b+c exact, one rounding (RNE), as C's fmaf."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return f32(a * b + c)                      # Inf/NaN rules are those of IEEE + and *
    p = a * b                                      # exact in binary64
    s = p + c
    bb = s - p
    err = (p - (s - bb)) + (c - bb)                # TwoSum: s + err == p + c exactly
    if err == 0 and math.isfinite(s):
        if s == 0:                                 # exact zero: IEEE sign rules of fma
            if p == 0 and c == 0:
                neg = math.copysign(1, p) < 0 and math.copysign(1, c) < 0
                return -0.0 if neg else 0.0
            return 0.0
        return f32(s)                              # s is exact: one rounding
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return 0.0
    return f32_exact(exact < 0, abs(exact))


# ============================================================================================
# Element types
# ============================================================================================

# name -> (bytes, npy descr, signed int?, kind)   kind: 'f' float, 'i' integer, 'b' raw byte
DTYPES = {
    'f32': (4, '<f4', False, 'f'), 'f16': (2, '<f2', False, 'f'), 'bf16': (2, '<u2', False, 'f'),
    'i32': (4, '<i4', True, 'i'), 'si32': (4, '<i4', True, 'i'), 'ui32': (4, '<u4', False, 'i'),
    'i16': (2, '<i2', True, 'i'), 'si16': (2, '<i2', True, 'i'), 'ui16': (2, '<u2', False, 'i'),
    'i64': (8, '<i8', True, 'i'), 'si64': (8, '<i8', True, 'i'), 'ui64': (8, '<u8', False, 'i'),
    'i8': (1, '|i1', True, 'i'), 'si8': (1, '|i1', True, 'i'), 'ui8': (1, '|u1', False, 'i'),
    'f8E4M3FN': (1, '|u1', False, 'b'), 'f8E5M2': (1, '|u1', False, 'b'),
    'f8E8M0FNU': (1, '|u1', False, 'b'), '!pto.f4E2M1x2': (1, '|u1', False, 'b'),
    '!pto.f8E8M0': (1, '|u1', False, 'b'),     # PTOAS's spelling of the same E8M0 bytes
}
DESCR_SIZE = {'<f4': 4, '<f2': 2, '<u2': 2, '<i4': 4, '<u4': 4, '<i2': 2, '|i1': 1, '|u1': 1,
              '<f8': 8, '<i8': 8, '<u8': 8}


def dsize(dt):
    return DTYPES[dt][0]


def to_float(dt, bits):
    """Value of an element (bits) as a Python float: floats exactly, integers exactly."""
    if dt == 'f32':
        return f32_val(bits)
    if dt == 'f16':
        return F16.decode(bits)
    if dt == 'bf16':
        return f32_val(bits << 16)
    if dt == 'f8E4M3FN':
        return E4M3.decode(bits)
    if dt == 'f8E5M2':
        return E5M2.decode(bits)
    return float(to_int(dt, bits))


def to_int(dt, bits):
    size, _, signed, _ = DTYPES[dt]
    w = 8 * size
    bits &= (1 << w) - 1
    if signed and bits >> (w - 1):
        bits -= 1 << w
    return bits


def from_int(dt, v):
    return v & ((1 << (8 * dsize(dt))) - 1)


def float_to_bits(dt, x):
    """RNE of a Python float into a float dtype (Inf on overflow)."""
    if dt == 'f32':
        return f32_bits(x) if not math.isnan(x) else 0x7FC00000
    if dt == 'f16':
        return F16.encode(x) if not math.isnan(x) else 0x7E00
    if dt == 'bf16':
        return BF16.encode(x) if not math.isnan(x) else 0x7FC0
    raise RefError('no float encoding for %s' % dt)


QNAN = {'f32': 0x7FC00000, 'f16': 0x7E00, 'bf16': 0x7FC0}

# tload pad values (docs/numerics.md 6): largest finite / lowest per dtype.
PAD_MAX = {'f32': 0x7F7FFFFF, 'f16': 0x7BFF, 'bf16': 0x7F7F, 'f8E4M3FN': 0x7E, 'f8E5M2': 0x7B,
           'f8E8M0FNU': 0xFE, '!pto.f8E8M0': 0xFE, '!pto.f4E2M1x2': 0x77}
PAD_MIN = {'f32': 0xFF7FFFFF, 'f16': 0xFBFF, 'bf16': 0xFF7F, 'f8E4M3FN': 0xFE, 'f8E5M2': 0xFB,
           'f8E8M0FNU': 0x00, '!pto.f8E8M0': 0x00, '!pto.f4E2M1x2': 0xFF}


def pad_value(dt, pad):
    if pad == 1:
        return 0
    if dt in PAD_MAX:
        return PAD_MAX[dt] if pad == 2 else PAD_MIN[dt]
    size, _, signed, _ = DTYPES[dt]
    w = 8 * size
    if signed:
        return from_int(dt, (1 << (w - 1)) - 1 if pad == 2 else -(1 << (w - 1)))
    return (1 << w) - 1 if pad == 2 else 0


# ============================================================================================
# .npy files
# ============================================================================================

class Array:
    """An n-d array as numpy would hold it: descr, shape, and the elements' raw little-endian
    unsigned bit patterns in C order."""

    def __init__(self, descr, shape, data):
        self.descr, self.shape, self.data = descr, tuple(shape), data


def npy_read(path):
    with open(path, 'rb') as f:
        buf = f.read()
    if buf[:6] != b'\x93NUMPY':
        raise RefError('%s: not a .npy file' % path)
    major = buf[6]
    if major == 1:
        hlen = struct.unpack('<H', buf[8:10])[0]
        start = 10
    elif major in (2, 3):
        hlen = struct.unpack('<I', buf[8:12])[0]
        start = 12
    else:
        raise RefError('%s: unsupported .npy version %d' % (path, major))
    hdr = ast.literal_eval(buf[start:start + hlen].decode('latin1'))
    if hdr.get('fortran_order'):
        raise RefError('%s: fortran_order arrays are not supported' % path)
    descr, shape = hdr['descr'], tuple(hdr['shape'])
    if descr.startswith('>') or descr not in DESCR_SIZE:
        raise RefError('%s: unsupported descr %s' % (path, descr))
    size = DESCR_SIZE[descr]
    n = 1
    for d in shape:
        n *= d
    body = buf[start + hlen:]
    if len(body) != n * size:
        raise RefError('%s: %d data bytes, expected %d' % (path, len(body), n * size))
    fmt = {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[size]
    return Array(descr, shape, list(struct.unpack('<%d%s' % (n, fmt), body)))


def npy_bytes(arr):
    """The exact bytes numpy.save writes (format 1.0): the header dict, numpy's spare space for
    growing axis 0 (21 - len(repr(shape[0])) spaces), then spaces up to a multiple of 64 bytes
    including the 10-byte preamble, then '\\n'."""
    shape = arr.shape
    header = "{'descr': %r, 'fortran_order': False, 'shape': %r, }" % (arr.descr, shape)
    if len(shape) > 0:
        header += ' ' * (21 - len(repr(shape[0])))
    hlen = len(header) + 1
    padlen = 64 - ((10 + hlen) % 64)
    header = header + ' ' * padlen + '\n'
    size = DESCR_SIZE[arr.descr]
    fmt = {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[size]
    mask = (1 << (8 * size)) - 1
    body = struct.pack('<%d%s' % (len(arr.data), fmt), *[v & mask for v in arr.data])
    return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode('latin1') + body


def npy_write(path, arr):
    with open(path, 'wb') as f:
        f.write(npy_bytes(arr))


def float_array(descr, shape, values):
    """An Array from Python floats/ints (descr <f4 <f2 <u2(bf16) or integer descrs)."""
    enc = {'<f4': lambda v: float_to_bits('f32', v), '<f2': lambda v: float_to_bits('f16', v),
           '<u2bf16': lambda v: float_to_bits('bf16', v)}
    if descr in enc:
        return Array(descr[:3], shape, [enc[descr](v) for v in values])
    size = DESCR_SIZE[descr]
    return Array(descr, shape, [int(v) & ((1 << (8 * size)) - 1) for v in values])


# ============================================================================================
# Tile types and layouts
# ============================================================================================

class TType:
    def __init__(self, level, loc, dtype, rows, cols, vr, vc, blayout='row_major',
                 slayout='none_box', fractal=512, pad=0, compact=0):
        self.level, self.loc, self.dtype = level, loc, dtype
        self.rows, self.cols, self.vr, self.vc = rows, cols, vr, vc
        self.blayout, self.slayout, self.fractal = blayout, slayout, fractal
        self.pad, self.compact = pad, compact

    def box(self):
        """Inner box (IR, IC) in elements (docs/verify.md section 1)."""
        if self.slayout == 'none_box':
            return 1, 1
        if self.fractal == 1024:
            return 16, 16
        if self.fractal == 32:
            return (16, 2) if self.slayout == 'row_major' else (2, 16)
        per = 32 // dsize(self.dtype)
        return (16, per) if self.slayout == 'row_major' else (per, 16)

    def offset(self, r, c):
        """Element offset of (r, c) inside the tile (docs/numerics.md section 5)."""
        R, C = self.rows, self.cols
        if self.slayout == 'none_box':
            if self.compact == 2:
                return r * (C + 1) + c if self.blayout == 'row_major' else c * (R + 1) + r
            return r * C + c if self.blayout == 'row_major' else c * R + r
        IR, IC = self.box()
        if R == 1:
            return c
        R = -(-R // IR) * IR
        C = -(-C // IC) * IC
        sr, ir, sc, ic = r // IR, r % IR, c // IC, c % IC
        if self.blayout == 'col_major' and self.slayout == 'row_major':      # NZ
            return sc * R * IC + sr * IR * IC + ir * IC + ic
        if self.blayout == 'row_major' and self.slayout == 'row_major':      # ZZ
            return sr * C * IR + sc * IR * IC + ir * IC + ic
        if self.blayout == 'row_major' and self.slayout == 'col_major':      # ZN
            return sr * C * IR + sc * IR * IC + ic * IR + ir
        return sc * R * IC + sr * IR * IC + ic * IR + ir                      # NN


def _split_top(s, sep=','):
    """Split s at sep outside <>, (), [] and {}."""
    out, depth, cur = [], 0, []
    for ch in s:
        if ch in '<([{':
            depth += 1
        elif ch in '>)]}':
            depth -= 1
        if ch == sep and depth == 0:
            out.append(''.join(cur))
            cur = []
        else:
            cur.append(ch)
    if cur or out:
        out.append(''.join(cur))
    return [p.strip() for p in out]


def _dim(s):
    s = s.strip()
    return None if s in ('?', '-1') else int(s, 0)


def parse_type(text):
    """A type: TType for tiles, else a tuple ('ptr', dtype) / ('tensor_view', dtype) /
    ('partition_view', dtype, shape) / ('scalar', name)."""
    t = text.strip()
    m = re.match(r'^!pto\.(tile|tile_buf)<(.*)>$', t, re.S)
    if m:
        level = 1 if m.group(1) == 'tile' else 2
        parts = _split_top(m.group(2))
        if parts and '=' in parts[0]:            # keyword form
            kv = dict(p.split('=', 1) for p in parts)
            kv = {k.strip(): v.strip() for k, v in kv.items()}
            return TType(level, kv['loc'], kv['dtype'], int(kv['rows']), int(kv['cols']),
                         _dim(kv['v_row']), _dim(kv['v_col']), kv['blayout'], kv['slayout'],
                         int(kv['fractal']), int(kv['pad']), int(kv.get('compact', '0')))
        loc = parts[0]
        sm = re.match(r'^(\d+)x(\d+)x(.+)$', parts[1])
        rows, cols, dtype = int(sm.group(1)), int(sm.group(2)), sm.group(3)
        tt = TType(level, loc, dtype, rows, cols, rows, cols)
        for p in parts[2:]:
            k, v = [x.strip() for x in p.split('=', 1)]
            if k == 'valid':
                a, b = v.split('x')
                tt.vr, tt.vc = _dim(a), _dim(b)
            elif k in ('blayout', 'slayout'):
                setattr(tt, k, v)
            else:
                setattr(tt, k, int(v))
        return tt
    m = re.match(r'^!pto\.ptr<([^,>]+)', t)
    if m:
        return ('ptr', m.group(1).strip())
    m = re.match(r'^!pto\.tensor_view<(.*)>$', t)
    if m:
        return ('tensor_view', m.group(1).split('x')[-1])
    m = re.match(r'^!pto\.partition_tensor_view<(.*)>$', t)
    if m:
        dims = m.group(1).split('x')
        return ('partition_view', dims[-1], [_dim(d) for d in dims[:-1]])
    return ('scalar', t)


def tile_nbytes(tt):
    """Bytes behind a tile: its box-rounded shape (compact row_plus_one: one spare element per
    row, or per column)."""
    R, C = tt.rows, tt.cols
    if tt.slayout == 'none_box' and tt.compact == 2:
        R, C = (R, C + 1) if tt.blayout == 'row_major' else (R + 1, C)
    IR, IC = tt.box()
    return -(-R // IR) * IR * (-(-C // IC) * IC) * dsize(tt.dtype)


class Tile:
    """A tile: bytes (shared by the views of one tile, from byte `base`) and the type that
    places element (r, c) in them (TType.offset)."""

    def __init__(self, tt, vr=None, vc=None, mem=None, base=0):
        self.tt = tt
        self.vr = tt.vr if vr is None else vr
        self.vc = tt.vc if vc is None else vc
        if self.vr is None or self.vc is None:
            raise RefError('a tile with a dynamic valid shape needs its sizes')
        self.size = dsize(tt.dtype)
        self.mem = bytearray(tile_nbytes(tt)) if mem is None else mem
        self.base = base

    def _at(self, r, c):
        k = self.base + self.tt.offset(r, c) * self.size
        if not 0 <= k <= len(self.mem) - self.size:
            raise RefError('element (%d, %d) lies outside the bytes of its tile' % (r, c))
        return k

    def get(self, r, c):
        k = self._at(r, c)
        return int.from_bytes(self.mem[k:k + self.size], 'little')

    def set(self, r, c, bits):
        k = self._at(r, c)
        self.mem[k:k + self.size] = (bits & ((1 << (8 * self.size)) - 1)).to_bytes(self.size, 'little')

    def elements(self):
        """Every element of the physical shape, in logical (row-major) order."""
        return [self.get(r, c) for r in range(self.tt.rows) for c in range(self.tt.cols)]

    def val(self, r, c):
        return to_float(self.tt.dtype, self.get(r, c))


# ============================================================================================
# The ops (docs/numerics.md sections 1-6)
# ============================================================================================

def rint_clamp(y, lo, hi):
    if math.isnan(y):
        return 0
    if y == INF:
        return hi
    if y == -INF:
        return lo
    q = round(y)                               # Python rounds half to even
    return max(lo, min(hi, q))


def param(tile, r):
    """Row r's parameter: column 0 of row r, or (0, 0) of a [1, 1] param tile."""
    return tile.val(0 if (tile.vr == 1 and tile.vc == 1) else r, 0)


def op_tquant_int8(kind, src, scale, offset, dst):
    M, N = src.vr, src.vc
    for r in range(M):
        s = param(scale, r)
        z = param(offset, r) if offset is not None else 0.0
        for c in range(N):
            y = fmul(src.val(r, c), s)
            if kind == 'INT8_SYM':
                q = rint_clamp(y, -128, 127)
            else:
                q = rint_clamp(fadd(y, z), 0, 255)
            dst.set(r, c, from_int(dst.tt.dtype, q))


def op_tdequant(src, scale, offset, dst):
    for r in range(dst.vr):
        s, z = scale.val(r, 0), offset.val(r, 0)
        for c in range(dst.vc):
            dst.set(r, c, f32_bits(fmul(fsub(src.val(r, c), z), s)))


# the float inputs tgemv.bias computes: no fp8 or hif8, on A5 as on A2/A3 (docs/numerics.md 4)
GEMV_FLOAT_IN = ('f16', 'bf16', 'f32')


def op_tgemv_bias(a, b, bias, c):
    K, N = a.vc, b.vc
    if a.tt.dtype not in GEMV_FLOAT_IN + ('i8', 'si8'):
        raise RefError('tgemv.bias takes no %s input' % a.tt.dtype)
    if a.tt.dtype in ('i8', 'si8'):
        for j in range(N):
            acc = 0
            for k in range(K):
                acc += to_int(a.tt.dtype, a.get(0, k)) * to_int(b.tt.dtype, b.get(k, j))
            acc += to_int(bias.tt.dtype, bias.get(0, j))
            c.set(0, j, from_int(c.tt.dtype, acc))
        return
    av = [a.val(0, k) for k in range(K)]
    for j in range(N):
        acc = 0.0
        for k in range(K):
            acc = fmaf(av[k], b.val(k, j), acc)
        c.set(0, j, f32_bits(fadd(acc, bias.val(0, j))))


# the cube's products (docs/cube.md 3): the element pairs tmatmul* and tgemv* compute
MM_FLOAT_IN = ('f16', 'bf16', 'f32')
MM_FP8 = ('f8E4M3FN', 'f8E5M2')
MM_QNAN = 0x7FC00000


def _e8m0(bits):
    """2^(e - 127) of an E8M0 exponent, exact in binary64; NaN for 0xFF."""
    return math.nan if bits == 0xFF else 2.0 ** (bits - 127)


def _mm_chain(av, col, sa_row, sb_col, mx):
    """One output element's chain over k in order: fmaf steps from +0.0, or for MX the exact
    binary64 term added in binary64 and rounded to binary32 after every step."""
    acc = 0.0
    for k, (x, y) in enumerate(zip(av, col)):
        if mx:
            acc = f32(acc + x * y * (_e8m0(sa_row[k // 32]) * _e8m0(sb_col[k // 32])))
        else:
            acc = fmaf(x, y, acc)
    return acc


def op_matmul(a, b, c, acc=None, bias=None, sa=None, sb=None):
    """tmatmul, .acc, .bias, .mx, .mx.acc, .mx.bias and tgemv, .acc, .mx*: for i < M, j < N
    (M, K = a's valid rows and cols, N = b's valid cols) the chain over k, then + acc[i][j]
    or + bias[0][j] (one binary32 addition, wrapping int32 for i8); a float NaN result is the
    default NaN 0x7FC00000 (docs/cube.md 3)."""
    M, K, N = a.vr, a.vc, b.vc
    da, db, dc = a.tt.dtype, b.tt.dtype, c.tt.dtype
    mx = sa is not None
    ints = da in ('i8', 'si8') and db in ('i8', 'si8') and dc in ('i32', 'si32')
    floats = dc == 'f32' and ((da == db and da in MM_FLOAT_IN) or (da in MM_FP8 and db in MM_FP8))
    if not ints and not floats or (mx and not (da in MM_FP8 and db in MM_FP8)):
        raise RefError('no product of (%s, %s, %s)' % (dc, da, db))
    G = (K + 31) // 32
    for i in range(M):
        if ints:
            av = [to_int(da, a.get(i, k)) for k in range(K)]
        else:
            av = [a.val(i, k) for k in range(K)]
        sa_row = [sa.get(i, g) for g in range(G)] if mx else None
        for j in range(N):
            if ints:
                v = sum(x * to_int(db, b.get(k, j)) for k, x in enumerate(av))
                if acc is not None:
                    v += to_int(acc.tt.dtype, acc.get(i, j))
                if bias is not None:
                    v += to_int(bias.tt.dtype, bias.get(0, j))
                c.set(i, j, from_int(dc, v))
                continue
            col = [b.val(k, j) for k in range(K)]
            sb_col = [sb.get(g, j) for g in range(G)] if mx else None
            v = _mm_chain(av, col, sa_row, sb_col, mx)
            if acc is not None:
                v = fadd(acc.val(i, j), v)
            if bias is not None:
                v = fadd(bias.val(0, j), v)
            c.set(i, j, MM_QNAN if math.isnan(v) else f32_bits(v))


def op_matmul_named(op, tiles, dst):
    """The operands of a cube op in PTOAS's order (ins), by op name."""
    names = op.split('.')[1:]       # 'tmatmul', then 'mx' / 'acc' / 'bias'
    t = list(tiles)
    acc = t.pop(0) if 'acc' in names else None
    bias = t.pop() if 'bias' in names else None
    if 'mx' in names:
        a, sa, b, sb = t
        op_matmul(a, b, dst, acc, bias, sa, sb)
    else:
        a, b = t
        op_matmul(a, b, dst, acc, bias)


def op_tmov_zz(axis, src, dst):
    """tmov with a tmp (pto-isa A5 X-to-ZZ): exponent bytes into 32-byte ZZ boxes of 16 pairs,
    written as consecutive bytes from dst's first byte (section 6)."""
    if src.tt.dtype != dst.tt.dtype or src.tt.dtype not in ('ui8', 'f8E8M0FNU', '!pto.f8E8M0'):
        raise RefError('X-to-ZZ tmov needs ui8 / E8M0 tiles')
    s, d = src.mem, dst.mem
    s0, d0 = src.base, dst.base
    if axis == 'axis0':
        M, N = src.vr, src.vc
        for p in range(M // 2):
            for cb in range(N // 16):
                for q in range(16):
                    for dd in range(2):
                        d[d0 + (cb * (M // 2) + p) * 32 + 2 * q + dd] = src.get(2 * p + dd, 16 * cb + q)
        return
    R, C = dst.vr, dst.vc
    RB = -(-R // 16)
    flat = [src.get(r, c) for r in range(src.vr) for c in range(src.vc)]   # the compact R x C
    for k in range(R * C, RB * 16 * C):                                     # zeroed in place
        s[s0 + k] = 0
    flat += [0] * (RB * 16 * C - R * C)
    for rb in range(RB):
        for j in range(C // 2):
            for q in range(16):
                for dd in range(2):
                    d[d0 + ((rb * (C // 2) + j) * 16 + q) * 2 + dd] = flat[(16 * rb + q) * C + 2 * j + dd]


def op_tmov(src, dst):
    for r in range(src.vr):
        for c in range(src.vc):
            dst.set(r, c, acc_convert(src, dst, src.get(r, c)))


def acc_convert(src, dst, bits):
    """An element moving into a tile of another type (docs/numerics.md 8.4): leaving an acc
    tile, f32 to f16/bf16 rounds to nearest even (the fixpipe's cast); a mat f16/bf16 element
    entering an f32 bias tile widens exactly."""
    if src.tt.dtype == dst.tt.dtype:
        return bits
    if src.tt.loc == 'mat' and dst.tt.loc == 'bias' and src.tt.dtype in ('f16', 'bf16') and dst.tt.dtype == 'f32':
        if src.tt.dtype == 'bf16':                         # the bias table's exact widening
            return bits << 16
        x = to_float('f16', bits)
        if math.isnan(x):                                  # sign and payload kept
            return (bits & 0x8000) << 16 | 0x7F800000 | (bits & 0x3FF) << 13
        return float_to_bits('f32', x) | ((bits & 0x8000) << 16 if x == 0 else 0)
    if not (src.tt.loc == 'acc' and src.tt.dtype == 'f32' and dst.tt.dtype in ('f16', 'bf16')):
        raise RefError('no conversion from %s to %s' % (src.tt.dtype, dst.tt.dtype))
    return float_to_bits(dst.tt.dtype, to_float('f32', bits))


def _nan_to(dt, b):
    """An f32 NaN (bits b) converted as x86 does: quieted, sign and top payload kept."""
    b |= 0x400000
    if dt == 'f32':
        return b
    if dt == 'f16':
        return (b >> 16) & 0x8000 | 0x7E00 | (b >> 13) & 0x1FF
    return (b >> 16) | 0x40


def fix_convert(sd, dd, bits, relu, word):
    """An acc element (dtype sd) through the fixpipe's relu and scalar pre-quantization into
    dtype dd (docs/numerics.md 8.6; pto-isa's quantize_element): word None is none."""
    if sd == 'i32' and word is None:
        if dd != 'i32':
            raise RefError('no relu pair %s -> %s' % (sd, dd))
        v = to_int('i32', bits)
        return from_int('i32', max(v, 0) if relu else v)
    if sd not in ('f32', 'i32'):
        raise RefError('fixpipe source %s' % sd)
    x = to_float('f32', bits) if sd == 'f32' else f32(float(to_int('i32', bits)))
    nan_bits = bits if sd == 'f32' and math.isnan(x) else None
    if word is not None:
        scale = f32_val(word & 0xFFFFFFFF)
        x = fmul(x, scale)
        if dd in ('i8', 'si8', 'ui8', 'u8'):
            off, sign = (word >> 37) & 0x1FF, (word >> 46) & 1
            t = fadd(x, float(off))
            if not math.isnan(t) and not math.isinf(t):
                t = float(round(t))                    # Python's round: half to even
            lo, hi = (-128.0, 127.0) if sign else (0.0, 255.0)
            if not math.isnan(t):
                t = min(max(t, lo), hi)
            if relu:
                t = t if t > 0 else 0.0
            return 0 if math.isnan(t) else int(t) & 0xFF
        if dd == 'f16' and (sd == 'i32' or math.isfinite(x)):
            x = min(max(x, -65504.0), 65504.0)
        elif dd not in ('f16', 'bf16'):
            raise RefError('no scalar quantization %s -> %s' % (sd, dd))
    if relu:
        x = x if x > 0 else 0.0
        nan_bits = None
    if math.isnan(x):
        return _nan_to(dd, nan_bits if nan_bits is not None else 0x7FC00000)
    if dd == 'f32':
        return f32_bits(x)
    return float_to_bits(dd, x)


def op_textract(src, r0, c0, dst):
    """dst[i][j] = src[r0 + i][c0 + j] over dst's valid region."""
    if r0 < 0 or c0 < 0 or r0 + dst.vr > src.tt.rows or c0 + dst.vc > src.tt.cols:
        raise RefError('textract window leaves src')
    for i in range(dst.vr):
        for j in range(dst.vc):
            dst.set(i, j, acc_convert(src, dst, src.get(r0 + i, c0 + j)))


def op_tinsert(src, r0, c0, dst):
    """dst[r0 + i][c0 + j] = src[i][j] over src's valid region."""
    if r0 < 0 or c0 < 0 or r0 + src.vr > dst.tt.rows or c0 + src.vc > dst.tt.cols:
        raise RefError('tinsert window leaves dst')
    for i in range(src.vr):
        for j in range(src.vc):
            dst.set(r0 + i, c0 + j, acc_convert(src, dst, src.get(i, j)))


def op_fix_window(src, r0, c0, dst, relu, word, kind):
    """tmov / textract / tinsert of an acc tile through fix_convert."""
    if kind == 'tinsert':
        for i in range(src.vr):
            for j in range(src.vc):
                dst.set(r0 + i, c0 + j, fix_convert(src.tt.dtype, dst.tt.dtype, src.get(i, j), relu, word))
        return
    for i in range(dst.vr):
        for j in range(dst.vc):
            dst.set(i, j, fix_convert(src.tt.dtype, dst.tt.dtype, src.get(r0 + i, c0 + j), relu, word))


def op_ttrans(src, dst):
    """dst[j][i] = src[i][j] over src's valid region."""
    vals = [[src.get(i, j) for j in range(src.vc)] for i in range(src.vr)]
    for i in range(src.vr):
        for j in range(src.vc):
            dst.set(j, i, vals[i][j])


K_NV = {'fp8': f32(1.0 / 448.0), 'fp4': f32(1.0 / 6.0)}


def mx_exponent(m, fmt, alg):
    """E8M0 exponent of a group whose (non-NaN) max |x| is the fp32 value m (section 1 step 2)."""
    if alg == 'ocp':
        E = (f32_bits(m) >> 23) & 0xFF
        emax = 8 if fmt == 'fp8' else 2
        return E - emax if E > emax else 0
    if m == 0:
        return 0
    d = fmul(m, K_NV[fmt])
    if math.isinf(d):
        return 0xFE
    bits = f32_bits(d)
    ef, mant = (bits >> 23) & 0xFF, bits & 0x7FFFFF
    if mant != 0 and ef != 0xFE and not (ef == 0 and mant <= 0x400000):
        ef += 1
    return ef


def mx_scale(e):
    """The fp32 reciprocal scale 2^(127 - e) built from bits; 2^-127 when the field is 0."""
    field = 254 - e
    return f32_val(field << 23) if field > 0 else f32_val(0x00400000)


def mx_encode(x, s, fmt, src_dt):
    y = fmul(x, s)
    if fmt == 'fp8':
        return E4M3.encode(y, saturate=True)
    if src_dt == 'bf16':
        y = BF16.decode(BF16.encode(y))       # y rounded to bf16 first (RNE)
    return E2M1.encode(y, saturate=True)


def mx_group(xs, fmt, alg, src_dt):
    """One group: its fp32 elements xs -> (e, codes, max bits, scaling bits) (NaN poisoning)."""
    if any(math.isnan(x) for x in xs):
        return 0xFF, [0x7F if fmt == 'fp8' else 0x7] * len(xs), QNAN[src_dt], QNAN[src_dt]
    m = 0.0
    for x in xs:
        a = abs(x)
        if fmt == 'fp4' and alg == 'ocp':
            a = f32_val((f32_bits(a) >> 16) << 16)
        if a > m:
            m = a
    e = mx_exponent(m, fmt, alg)
    s = mx_scale(e)
    codes = [mx_encode(x, s, fmt, src_dt) for x in xs]
    return e, codes, float_to_bits(src_dt, m), float_to_bits(src_dt, s)


def op_tquant_mx(kind, alg, axis, src, dst, exp, mx, scl, zz, interleave=False):
    """interleave (axis0 only): the exponent of row group g, column c goes to
    exp[g // 2][2c + g % 2] instead of exp[g][c] (pto-isa TQUANT_DN, E_FLAT)."""
    fmt = 'fp8' if kind == 'MXFP8' else 'fp4'
    sdt = src.tt.dtype
    M, N = src.vr, src.vc
    codes = {}

    def at(t, r, g, G):
        # canonical [r][g], or flat k = r * G + g for a [1, M*G] tile (each tile on its own)
        if axis == 'axis1' and t.vr == 1 and t.vc == M * G and M != 1:
            return 0, r * G + g
        return r, g

    def put_aux(r, g, G, e, mb, sb):
        exp.set(*at(exp, r, g, G), e)
        if zz is not None:
            # storeMode nz: byte ((r/16 * G/2 + g/2) * 16 + r%16) * 2 + g%2 of exp_zz's storage
            k = ((r // 16 * (G // 2) + g // 2) * 16 + r % 16) * 2 + g % 2
            zz.set(k // zz.tt.cols, k % zz.tt.cols, e)
        if mx is not None:
            mx.set(*at(mx, r, g, G), mb)
        if scl is not None:
            scl.set(*at(scl, r, g, G), sb)

    if axis == 'axis1':
        G = -(-N // 32)
        if zz is not None and (M % 16 or G % 2 or zz.tt.slayout != 'none_box' or zz.tt.blayout != 'row_major'):
            raise RefError('exp_zz needs an ND tile, valid rows % 16 == 0 and an even group count')
        for r in range(M):
            for g in range(G):
                cols = range(32 * g, min(N, 32 * g + 32))
                e, cs, mb, sb = mx_group([src.val(r, c) for c in cols], fmt, alg, sdt)
                for c, code in zip(cols, cs):
                    codes[r, c] = code
                put_aux(r, g, G, e, mb, sb)
    else:
        if M % 32:
            raise RefError('axis0 needs valid rows % 32 == 0')
        if interleave and (M % 64 or exp.vr != M // 64 or exp.vc != 2 * N):
            raise RefError('interleave needs valid rows % 64 == 0 and exp [M/64, 2N]')
        for g in range(M // 32):
            for c in range(N):
                rows = range(32 * g, 32 * g + 32)
                e, cs, mb, sb = mx_group([src.val(r, c) for r in rows], fmt, alg, sdt)
                for r, code in zip(rows, cs):
                    codes[r, c] = code
                if interleave:
                    exp.set(g // 2, 2 * c + g % 2, e)
                else:
                    exp.set(g, c, e)
                if mx is not None:
                    mx.set(g, c, mb)
                if scl is not None:
                    scl.set(g, c, sb)
    for r in range(M):
        if fmt == 'fp8':
            for c in range(N):
                dst.set(r, c, codes[r, c])
        else:
            for i in range((N + 1) // 2):
                lo = codes[r, 2 * i]
                hi = codes[r, 2 * i + 1] if 2 * i + 1 < N else 0
                dst.set(r, i, lo | (hi << 4))


# ============================================================================================
# Vector ops (docs/vector-ops.md; the pto-isa CPU simulator's numerics)
# ============================================================================================
#
# Written from docs/vector-ops.md and pto-isa's simulator rules, independently of runtime/vec.c:
# float results are computed exactly (Fractions) and rounded once into the destination format,
# which is what "computed in f32 and rounded once" gives for + - * / sqrt (f32 has more than
# twice the precision of f16/bf16 plus two bits); trsqrt is A5's root then division, each
# rounded in T, or elsewhere the simulator's binary64 1.0 / sqrt(x) rounded once into the
# destination; reductions follow the simulator's loops
# element by element with their accumulator type.

FLOAT_FMT = {'f32': F32, 'f16': F16, 'bf16': BF16}
# x86's default NaN (invalid operations): negative, quiet, no payload
DEFAULT_NAN = {'f32': 0xFFC00000, 'f16': 0xFE00, 'bf16': 0xFFC0}
INT_DTYPES = ('i32', 'si32', 'ui32', 'i16', 'si16', 'ui16', 'i8', 'si8', 'ui8')


def is_float(dt):
    return dt in FLOAT_FMT


def fclass(dt, bits):
    """('nan',) | ('inf', neg) | ('num', neg, Fraction magnitude) of a float element."""
    fmt = FLOAT_FMT[dt]
    neg = bool(bits & fmt.sign)
    mag = bits & (fmt.sign - 1)
    e = mag >> fmt.mbits
    m = mag & ((1 << fmt.mbits) - 1)
    if e == (1 << fmt.ebits) - 1:
        return ('nan',) if m else ('inf', neg)
    if e == 0:
        return ('num', neg, Fraction(m) * _pow2(1 - fmt.bias - fmt.mbits))
    return ('num', neg, Fraction(m | (1 << fmt.mbits)) * _pow2(e - fmt.bias - fmt.mbits))


def fquiet(dt, bits):
    """A NaN made quiet: the top fraction bit set (sign and payload kept)."""
    return bits | (1 << (FLOAT_FMT[dt].mbits - 1))


def fsigned(dt, neg, frac):
    """RNE of the exact value (-1)^neg * frac into dt (overflow to Inf); zero keeps neg."""
    return FLOAT_FMT[dt].encode_exact(neg, frac, False)


def finf(dt, neg):
    fmt = FLOAT_FMT[dt]
    return (fmt.sign if neg else 0) | fmt.infcode


def fval_exact(c):
    """Signed Fraction of a ('num', neg, mag) class."""
    return -c[2] if c[1] else c[2]


def farith(op, dt, a, b):
    """a op b for op in add sub mul div on float elements of dt, IEEE-754 with RNE; a NaN
    operand gives that NaN quieted, the left one when both are; invalid operations give the
    default NaN."""
    ca, cb = fclass(dt, a), fclass(dt, b)
    if ca[0] == 'nan':
        return fquiet(dt, a)
    if cb[0] == 'nan':
        return fquiet(dt, b)
    if op == 'sub':
        cb = ('inf', not cb[1]) if cb[0] == 'inf' else ('num', not cb[1], cb[2])
        op = 'add'
    if op == 'add':
        if ca[0] == 'inf' and cb[0] == 'inf':
            return finf(dt, ca[1]) if ca[1] == cb[1] else DEFAULT_NAN[dt]
        if ca[0] == 'inf' or cb[0] == 'inf':
            return finf(dt, (ca if ca[0] == 'inf' else cb)[1])
        s = fval_exact(ca) + fval_exact(cb)
        if s == 0:
            # exact zero: -0 only for (-0) + (-0) (round to nearest)
            return fsigned(dt, ca[1] and cb[1] and ca[2] == 0 and cb[2] == 0, Fraction(0))
        return fsigned(dt, s < 0, abs(s))
    neg = ca[1] != cb[1]
    za = ca[0] == 'num' and ca[2] == 0
    zb = cb[0] == 'num' and cb[2] == 0
    if op == 'mul':
        if (ca[0] == 'inf' and zb) or (cb[0] == 'inf' and za):
            return DEFAULT_NAN[dt]
        if ca[0] == 'inf' or cb[0] == 'inf':
            return finf(dt, neg)
        return fsigned(dt, neg, ca[2] * cb[2])
    # div
    if (ca[0] == 'inf' and cb[0] == 'inf') or (za and zb):
        return DEFAULT_NAN[dt]
    if ca[0] == 'inf':
        return finf(dt, neg)
    if cb[0] == 'inf':
        return fsigned(dt, neg, Fraction(0))
    if zb:
        return finf(dt, neg)
    return fsigned(dt, neg, ca[2] / cb[2])


def flt(dt, a, b):
    """a < b on elements (floats by value, NaN compares false; integers by value)."""
    if is_float(dt):
        ca, cb = fclass(dt, a), fclass(dt, b)
        if ca[0] == 'nan' or cb[0] == 'nan':
            return False
        ka = (INF if not ca[1] else -INF) if ca[0] == 'inf' else fval_exact(ca)
        kb = (INF if not cb[1] else -INF) if cb[0] == 'inf' else fval_exact(cb)
        return ka < kb
    return to_int(dt, a) < to_int(dt, b)


def fsqrt_bits(dt, a):
    """Correctly rounded square root (Python's math.sqrt is; binary64 -> f32/f16/bf16 double
    rounding is innocuous for sqrt)."""
    c = fclass(dt, a)
    if c[0] == 'nan':
        return fquiet(dt, a)
    if c[0] == 'inf':
        return DEFAULT_NAN[dt] if c[1] else a
    if c[2] == 0:
        return a                          # sqrt(+-0) = +-0
    if c[1]:
        return DEFAULT_NAN[dt]
    return FLOAT_FMT[dt].encode(math.sqrt(float(c[2])))


# The target of the kernel being modelled: only trsqrt depends on it (a5 or not); cmd_run sets
# it as ptoas does, vecdiff.py per case.
ARCH = 'a5'
# Whose numerics (ptoas --numerics, docs/numerics.md 9): 'hw', the hardware's rules, or 'sim',
# the pto-isa CPU simulator's where the two differ (docs/departures.md 6 and 12-16, and the
# NaN choices of its x86 build). cmd_run sets it from --numerics.
NUMERICS = 'hw'


def frsqrt_bits(dt, a):
    """trsqrt per arch (docs/numerics.md 8.2). A5's TRSQRT is vsqrt then vdiv(1, root): the
    correctly rounded root in T, then the correctly rounded quotient in T. Elsewhere (A2/A3's
    vrsqrt, not documented further) the simulator's (T)(1.0 / sqrt((double)x)): two binary64
    roundings, then one into T."""
    if ARCH == 'a5' and NUMERICS == 'hw':
        return farith('div', dt, float_to_bits(dt, 1.0), fsqrt_bits(dt, a))
    c = fclass(dt, a)
    if c[0] == 'nan':
        return fquiet(dt, a)
    if c[0] == 'inf':
        return DEFAULT_NAN[dt] if c[1] else 0
    if c[2] == 0:
        return finf(dt, c[1])             # 1 / +-0
    if c[1]:
        return DEFAULT_NAN[dt]
    y = 1.0 / math.sqrt(float(c[2]))      # both binary64, correctly rounded
    return FLOAT_FMT[dt].encode(y)


def fexp_bits(dt, a):
    """The simulator's exp: (float)exp((double)x) on f32, half(expf(x)) on f16. Python's
    math.exp is binary64 exp; on f16 inputs rounding it to f32 and then to f16 gives what
    expf gives (checked on all 65536 of them)."""
    c = fclass(dt, a)
    if c[0] == 'nan':
        return fquiet(dt, a)
    if c[0] == 'inf':
        return 0 if c[1] else a           # exp(-Inf) = +0, exp(+Inf) = +Inf
    x = -float(c[2]) if c[1] else float(c[2])
    try:
        y = math.exp(x)
    except OverflowError:
        y = math.inf
    r = FLOAT_FMT['f32'].encode(y)
    return r if dt == 'f32' else narrow_f32(dt, r)


def flog_bits(dt, a):
    """The simulator's (T)log((double)x): binary64 log (Python's math.log, the C library's),
    rounded once into T. log(+-0) = -Inf, log(+Inf) = +Inf, log of a negative number or -Inf
    is the default NaN, a NaN comes back quieted."""
    c = fclass(dt, a)
    if c[0] == 'nan':
        return fquiet(dt, a)
    if c[0] == 'inf':
        return DEFAULT_NAN[dt] if c[1] else a
    if c[2] == 0:
        return finf(dt, True)
    if c[1]:
        return DEFAULT_NAN[dt]
    return FLOAT_FMT[dt].encode(math.log(float(c[2])))


def iwrap(dt, v):
    return from_int(dt, v)


def vec_binary(op, dt, a, b):
    """One element of tadd .. tmin (and the tile-scalar and broadcast forms)."""
    if op == 'pow':
        return vec_pow(dt, a, b)
    if op in ('fmod', 'rem'):
        return vec_rem(op, dt, a, b)
    if op in ('prelu', 'lrelu'):              # the simulator: x > 0 ? x : x * slope
        return a if flt(dt, 0, a) else farith('mul', dt, a, b)
    if op == 'max':
        return b if flt(dt, a, b) else a       # std::max(a, b) = a < b ? b : a
    if op == 'min':
        return b if flt(dt, b, a) else a       # std::min(a, b) = b < a ? b : a
    if is_float(dt):
        return farith(op, dt, a, b)
    if op in BITWISE:
        return vec_bitwise(op, dt, a, b)
    x, y = to_int(dt, a), to_int(dt, b)
    if op == 'add':
        return iwrap(dt, x + y)
    if op == 'sub':
        return iwrap(dt, x - y)
    if op == 'mul':
        return iwrap(dt, x * y)
    if op == 'div':                           # truncated toward zero; INT_MIN / -1 wraps
        if y == 0:
            raise RefError('division by zero')
        q = abs(x) // abs(y)
        return iwrap(dt, -q if (x < 0) != (y < 0) else q)
    raise RefError('%s is not defined on %s' % (op, dt))


def vec_rem(op, dt, a, b):
    """tfmod (C's truncated remainder: integer %, binary64 fmod, exact) and trem (the
    simulator's OP_REM: fmod, plus the divisor when the signs (x >= 0) differ and the
    remainder is not 0, the sum rounded in dt). A NaN operand comes back quiet, the
    dividend's first; fmod(+-Inf, y) and fmod(x, 0.0) are the default NaN. A zero integer
    divisor is an error; INT_MIN % -1 is 0."""
    if is_float(dt):
        ca, cb = fclass(dt, a), fclass(dt, b)
        if ca[0] == 'nan' or cb[0] == 'nan':
            return fquiet(dt, a if ca[0] == 'nan' else b)
        x, y = to_float(dt, a), to_float(dt, b)
        try:
            r = math.fmod(x, y)
        except ValueError:
            return DEFAULT_NAN[dt]
        rb = float_to_bits(dt, r)             # exact
        if op == 'rem' and (x >= 0) != (y >= 0) and r != 0:
            return farith('add', dt, rb, b)
        return rb
    x, y = to_int(dt, a), to_int(dt, b)
    if y == 0:
        raise RefError('division by zero')
    r = 0 if y == -1 else abs(x) % abs(y) * (-1 if x < 0 else 1)
    if op == 'rem' and (x >= 0) != (y >= 0) and r != 0:
        r += y
    return iwrap(dt, r)


def _odd_integer(y):
    return y == math.floor(y) and abs(y) < 2.0 ** 53 and int(y) % 2 == 1


def vec_pow(dt, a, b):
    """tpow / tpows, as the simulator. Floats: (T)(float)pow((double)x, (double)y), C99's pow
    (Python's math.pow; its errors are C's special values: a zero base with a negative
    exponent is +-Inf, a negative finite base with a non-integer exponent the default NaN,
    overflow +-Inf), rounded to f32 and then to f16 / bf16; pow(x, 0) = pow(1, y) = 1 even
    for a NaN, otherwise a NaN operand comes back quiet (the base's first). Integers:
    repeated squaring, wrapping; x^0 = 1^y = 1; a negative exponent gives 0, or +-1 for the
    base -1."""
    if not is_float(dt):
        x, e = to_int(dt, a), to_int(dt, b)
        m = (1 << (8 * dsize(dt))) - 1
        if e == 0 or x == 1:
            return 1
        if e < 0:
            return (1 if e % 2 == 0 else m) if x == -1 else 0
        return pow(x, e, 1 << (8 * dsize(dt)))
    ca, cb = fclass(dt, a), fclass(dt, b)
    one = float_to_bits(dt, 1.0)
    if (cb[0] == 'num' and cb[2] == 0) or a == one:
        return one
    if ca[0] == 'nan' or cb[0] == 'nan':
        return fquiet(dt, a if ca[0] == 'nan' else b)
    x, y = to_float(dt, a), to_float(dt, b)
    try:
        r = math.pow(x, y)
    except ValueError:
        if x == 0:
            r = math.copysign(math.inf, x) if _odd_integer(y) else math.inf
        else:
            return DEFAULT_NAN[dt]
    except OverflowError:
        r = -math.inf if x < 0 and _odd_integer(y) else math.inf
    bits = FLOAT_FMT['f32'].encode(r)
    return bits if dt == 'f32' else narrow_f32(dt, bits)


BITWISE = ('and', 'or', 'xor', 'shl', 'shr')


def vec_bitwise(op, dt, a, b):
    """tand .. tshr on integer bits. Shifts are C++'s on the promoted operand (a 32-bit int for
    8- and 16-bit types), truncated back to dt: left shifts wrap, right shifts are arithmetic
    on signed and logical on unsigned types; an amount outside [0, 31] is undefined there and
    an error here."""
    if is_float(dt):
        raise RefError('%s is not defined on %s' % (op, dt))
    m = (1 << (8 * dsize(dt))) - 1
    if op == 'and':
        return a & b
    if op == 'or':
        return a | b
    if op == 'xor':
        return a ^ b
    x, k = to_int(dt, a), to_int(dt, b)
    if k < 0 or k > 31:
        raise RefError('shift amount %d is outside [0, 31]' % k)
    if op == 'shl':
        return (x << k) & m
    return (x >> k) & m                       # Python's >> is arithmetic on negative ints


def vec_unary(op, dt, a):
    if op == 'not':
        if is_float(dt):
            raise RefError('not is not defined on %s' % dt)
        return a ^ ((1 << (8 * dsize(dt))) - 1)
    if op == 'abs':                           # the simulator: x < 0 ? -x : x
        return vec_unary('neg', dt, a) if flt(dt, a, 0) else a
    if op == 'neg':
        if is_float(dt):
            return a ^ FLOAT_FMT[dt].sign
        return iwrap(dt, -to_int(dt, a))
    if op == 'relu':                          # std::max(x, 0) = x < 0 ? 0 : x
        return 0 if flt(dt, a, 0) else a
    if not is_float(dt):
        raise RefError('%s is not defined on %s' % (op, dt))
    if op == 'sqrt':
        return fsqrt_bits(dt, a)
    if op == 'recip':
        return farith('div', dt, float_to_bits(dt, 1.0), a)
    if op == 'rsqrt':
        return frsqrt_bits(dt, a)
    if op == 'exp':
        return fexp_bits(dt, a)
    if op == 'log':
        return flog_bits(dt, a)
    raise RefError('unknown unary op %s' % op)


def widen_f32(dt, bits):
    """An element as f32 bits: f16 -> f32 exactly (a NaN is quieted, as the C conversion does),
    bf16 -> f32 by a 16-bit shift, integers are not widened here."""
    if dt == 'f32':
        return bits
    if dt == 'bf16':
        return bits << 16
    if dt == 'f16':
        c = fclass('f16', bits)
        if c[0] == 'nan':
            return ((bits & 0x8000) << 16) | 0x7FC00000 | ((bits & 0x3FF) << 13)
        if c[0] == 'inf':
            return finf('f32', c[1])
        return fsigned('f32', c[1], c[2])
    raise RefError('no f32 widening of %s' % dt)


def narrow_f32(dt, bits):
    """f32 bits -> dt with RNE (overflow to Inf); a NaN keeps its sign and top payload bits
    and is made quiet."""
    if dt == 'f32':
        return bits
    c = fclass('f32', bits)
    fmt = FLOAT_FMT[dt]
    if c[0] == 'nan':
        keep = fmt.mbits
        top = (bits & 0x7FFFFF) >> (23 - keep)
        return (fmt.sign if bits >> 31 else 0) | fmt.infcode | top | (1 << (keep - 1))
    if c[0] == 'inf':
        return finf(dt, c[1])
    return fsigned(dt, c[1], c[2])


def sim_two_nan(op, dt, a, b):
    """vec_binary, except that under NUMERICS 'sim' + and * of two NaNs give the second one,
    quieted: the simulator's `src0 + src1` as GCC builds it for x86-64 (the hardware rule:
    the first)."""
    if NUMERICS == 'sim' and op in ('add', 'mul') and is_float(dt) and \
            fclass(dt, a)[0] == 'nan' and fclass(dt, b)[0] == 'nan':
        return fquiet(dt, b)
    return vec_binary(op, dt, a, b)


def op_velementwise(kind, op, srcs, dst, scalar=None):
    """tadd.. (binary), tabs.. (unary), tadds.. (scalar: the right operand; rscalar: the left
    one, tdivs with the scalar first), texpands: over
    dst's valid region; every source has dst's valid shape."""
    dt = dst.tt.dtype
    for s in srcs:
        if (s.vr, s.vc) != (dst.vr, dst.vc):
            raise RefError('%s: valid shapes differ' % op)
        if s.tt.dtype != dt:
            raise RefError('%s: element types differ' % op)
    for r in range(dst.vr):
        for c in range(dst.vc):
            if kind == 'binary':
                v = sim_two_nan(op, dt, srcs[0].get(r, c), srcs[1].get(r, c))
            elif kind == 'unary':
                v = vec_unary(op, dt, srcs[0].get(r, c))
                if NUMERICS == 'sim' and op == 'neg' and dt == 'f16' and fclass(dt, v)[0] == 'nan':
                    v = fquiet(dt, v)             # -x on _Float16 goes through f32 on x86
            elif kind == 'scalar':
                v = sim_two_nan(op, dt, srcs[0].get(r, c), scalar)
            elif kind == 'rscalar':               # tdivs with the scalar first: scalar / src
                v = vec_binary(op, dt, scalar, srcs[0].get(r, c))
            else:
                v = scalar
            dst.set(r, c, v)


def op_trsqrt_tmp(src, tmp, dst):
    """A2/A3's trsqrt with a tmp (docs/numerics.md 8.2; pto-isa npu/a2a3 TUnaryOp.hpp,
    TRsqrtHighPrecision): tmp's first 32 bytes become T(1.0), then vsqrt and vdiv(1, root),
    each rounded in T, as A5's trsqrt."""
    dt = dst.tt.dtype
    if (src.vr, src.vc) != (dst.vr, dst.vc) or src.tt.dtype != dt:
        raise RefError('trsqrt: src and dst differ')
    one, sz = float_to_bits(dt, 1.0), dsize(dt)
    tmp.mem[tmp.base:tmp.base + 32] = one.to_bytes(sz, 'little') * (32 // sz)
    for r in range(dst.vr):
        for c in range(dst.vc):
            dst.set(r, c, farith('div', dt, one, fsqrt_bits(dt, src.get(r, c))))


def _red_step(op, adt, acc, x):
    if op == 'sum':
        if is_float(adt):
            return farith('add', adt, acc, x)
        return iwrap(adt, to_int(adt, acc) + to_int(adt, x))
    return vec_binary(op, adt, acc, x)


def _red_acc(src_dt, dst_dt, axis, op):
    """(accumulator dtype, element -> accumulator, accumulator -> dst) of a reduction."""
    if is_float(src_dt):
        if op == 'sum' and (axis == 'row' or dst_dt == 'f32'):
            # row sums of f16/bf16 and every f32 destination accumulate in f32
            return 'f32', lambda b: widen_f32(src_dt, b), lambda a: narrow_f32(dst_dt, a)
        if dst_dt == src_dt:
            return src_dt, lambda b: b, lambda a: a
        # f16/bf16 -> f32 max/min: compare and keep the widened elements
        return 'f32', lambda b: widen_f32(src_dt, b), lambda a: a
    # integers: the destination type (trowsum i16 -> i32 wraps in i32)
    return dst_dt, lambda b: iwrap(dst_dt, to_int(src_dt, b)), lambda a: a


def rowsum_a5(src, dst):
    """A5's TROWSUM of f32 / f16 (docs/numerics.md 8.3): blocks of one 256-byte vector (64 f32,
    128 f16 lanes); vcadd sums a block into the element type -- in which order the ISA does
    not say, so as the simulator's loop: left to right in f32, rounded to f16 at the end --
    and vadd adds the block sums, in order, to an accumulator that starts at +0, rounding in
    the element type."""
    dt = src.tt.dtype
    w = 64 if dt == 'f32' else 128
    for r in range(src.vr):
        acc = 0
        for j0 in range(0, src.vc, w):
            b = 0
            for j in range(j0, min(src.vc, j0 + w)):
                b = _red_step('sum', 'f32', b, widen_f32(dt, src.get(r, j)))
            acc = farith('add', dt, acc, narrow_f32(dt, b))
        dst.set(r, 0, acc)


def rowsum_a3(src, dst):
    """A2/A3's TROWSUM of f32 / f16 (docs/numerics.md 8.3; pto-isa npu/a2a3 TRowSum.hpp and
    TRowReduceOps.hpp's TRowReduceInstr). E = 64 (f32) or 128 (f16) lanes per repeat: a row of
    at most E is one vcadd; otherwise the repeats are added pairwise, lane by lane, into tmp
    (an odd last one into tmp[0]), the tail into tmp[0]'s first lanes, tmp's repeats paired down
    to one, and vcadd of it. f32 [64, 128] / [32, 256] / [16, 512] / [8, 1024] sources (valid =
    physical) into a DN [R, 1] dst take TryOptimizeFP32Reduce's vcgadd (sums of 8) steps.
    vadd rounds to the element type; vcadd / vcgadd sum left to right in f32 from +0."""
    dt = src.tt.dtype
    E = 64 if dt == 'f32' else 128

    def vcadd(vals):
        acc = 0
        for v in vals:
            acc = _red_step('sum', 'f32', acc, widen_f32(dt, v))
        return narrow_f32(dt, acc)

    def vadd(xs, ys):
        return [farith('add', dt, a, b) for a, b in zip(xs, ys)]

    n = src.vc
    fast = dt == 'f32' and (src.tt.rows, src.tt.cols) == (src.vr, n) and \
        (src.vr, n) in ((64, 128), (32, 256), (16, 512), (8, 1024)) and \
        dst.tt.blayout != 'row_major' and dst.tt.cols == 1
    for r in range(src.vr):
        x = [src.get(r, j) for j in range(n)]
        if fast:
            g = [vcadd(x[8 * k:8 * k + 8]) for k in range(n // 8)]
            if n == 128:
                t = vadd(g[:8], g[8:16])
            elif n == 256:
                v = vadd(g[:8], g[8:16]) + vadd(g[16:24], g[24:32])
                t = vadd(v[:8], v[8:])
            elif n == 512:
                t = [vcadd(g[8 * k:8 * k + 8]) for k in range(8)]
            else:
                h = [vcadd(g[8 * k:8 * k + 8]) for k in range(16)]
                t = vadd(h[:8], h[8:])
            dst.set(r, 0, vcadd(t))
            continue
        if n <= E:
            dst.set(r, 0, vcadd(x))
            continue
        P, R = divmod(n, E)
        rep = [x[i * E:(i + 1) * E] for i in range(P)]
        if P == 1:
            tmp = [rep[0]]
        else:
            tmp = [vadd(rep[2 * i], rep[2 * i + 1]) for i in range(P // 2)]
            if P % 2:
                tmp[0] = vadd(tmp[0], rep[P - 1])
        tmp[0] = vadd(tmp[0][:R], x[P * E:]) + tmp[0][R:]
        ln = P // 2
        while ln > 1:
            for i in range(ln // 2):
                tmp[i] = vadd(tmp[2 * i], tmp[2 * i + 1])
            odd = ln % 2
            ln //= 2
            if odd:
                tmp[ln - 1] = vadd(tmp[ln - 1], tmp[2 * ln])
        dst.set(r, 0, vcadd(tmp[0]))


# == REARR: trowprod / tcolprod, the exp-differences (docs/numerics.md 8.8) ==
def _pmul(dt, a, b):
    """One vmul: IEEE-754 product with RNE in dt (farith's NaN rules), integers wrapping."""
    if is_float(dt):
        return farith('mul', dt, a, b)
    return iwrap(dt, to_int(dt, a) * to_int(dt, b))


def _pone(dt):
    return float_to_bits(dt, 1.0) if is_float(dt) else 1


def rowprod_one(dt, xs):
    """The product of one row per the ISA kernels. sim: the simulator's loop, from 1, left to
    right. A2/A3: one 32-byte block of lanes from 1 (vector_dup), each block of the row
    multiplied in by vmul (lane l gets columns l, l + w, ...), then the scalar unit's
    tmp[0] * tmp[1] * ... * tmp[w - 1], f16 lanes as floats and the result cast to half. A5:
    one 256-byte register of lanes from 1 (vbr), vmul merging the blocks in, then log2(w)
    rounds of vintlv(d, ones) + vmul: lane m of the low half times lane m + w / 2."""
    if NUMERICS == 'sim':
        acc = _pone(dt)
        for x in xs:
            acc = _pmul(dt, acc, x)
        return acc
    w = (256 if ARCH == 'a5' else 32) // dsize(dt)
    lanes = [_pone(dt)] * w
    for j, x in enumerate(xs):
        lanes[j % w] = _pmul(dt, lanes[j % w], x)
    if ARCH == 'a5':
        while w > 1:
            w //= 2
            lanes = [_pmul(dt, lanes[m], lanes[m + w]) for m in range(w)]
        return lanes[0]
    if dt == 'f16':
        acc = widen_f32(dt, lanes[0])
        for x in lanes[1:]:
            acc = farith('mul', 'f32', acc, widen_f32(dt, x))
        return narrow_f32(dt, acc)
    acc = lanes[0]
    for x in lanes[1:]:
        acc = _pmul(dt, acc, x)
    return acc


def colprod_one(dt, xs):
    """The product of one column: sim from 1, top to bottom; A2/A3 (ColReduceInstr) row 0
    copied, then dst = dst * row i; A5 (TColReduceInstr_PostUpdate) row 0 loaded, then
    dst = dst * (row 2k + 1 * row 2k + 2), then dst = dst * the last row when one is left."""
    if NUMERICS == 'sim':
        acc = _pone(dt)
        for x in xs:
            acc = _pmul(dt, acc, x)
        return acc
    acc, i = xs[0], 1
    if ARCH == 'a5':
        while i + 1 < len(xs):
            acc = _pmul(dt, acc, _pmul(dt, xs[i], xs[i + 1]))
            i += 2
    for x in xs[i:]:
        acc = _pmul(dt, acc, x)
    return acc


def op_vprod(axis, src, dst):
    dt = src.tt.dtype
    if dst.tt.dtype != dt:
        raise RefError('t%sprod: element types differ' % axis)
    if axis == 'row':
        for r in range(src.vr):
            dst.set(r, 0, rowprod_one(dt, [src.get(r, j) for j in range(src.vc)]))
    elif src.vr > 0:                          # an empty tcolprod leaves dst as it was
        for j in range(src.vc):
            dst.set(0, j, colprod_one(dt, [src.get(i, j) for i in range(src.vr)]))


def expdif(dt, a, b):
    """exp(a - b): the A2/A3 kernels' vsub then vexp, each rounded in dt (texp's model)."""
    return vec_unary('exp', dt, vec_binary('sub', dt, a, b))


def op_vrowreduce(op, src, dst):
    """trowsum/max/min: dst[r][0] = fold over src[r][0 .. vc-1], left to right; sum from 0,
    max/min from the first element (the f32 and f16 sums in hw numerics: rowsum_a5 and
    rowsum_a3)."""
    if op == 'prod':
        return op_vprod('row', src, dst)
    if op == 'sum' and NUMERICS == 'hw' and src.tt.dtype == dst.tt.dtype and \
            src.tt.dtype in ('f32', 'f16'):
        return rowsum_a5(src, dst) if ARCH == 'a5' else rowsum_a3(src, dst)
    adt, load, store = _red_acc(src.tt.dtype, dst.tt.dtype, 'row', op)
    for r in range(src.vr):
        if op == 'sum':
            acc = 0
            js = range(src.vc)
        else:
            if src.vc == 0:
                continue
            acc = load(src.get(r, 0))
            js = range(1, src.vc)
        for j in js:
            acc = _red_step(op, adt, acc, load(src.get(r, j)))
        dst.set(r, 0, store(acc))


def op_vcolreduce(op, src, dst):
    """tcolsum/max/min: dst[0][j] = fold over src[0 .. vr-1][j], top to bottom; tcolsum's
    accumulator has the destination type (f16 -> f16 rounds at every step)."""
    if op == 'prod':
        return op_vprod('col', src, dst)
    adt, load, store = _red_acc(src.tt.dtype, dst.tt.dtype, 'col', op)
    for j in range(src.vc):
        if op == 'sum':
            acc = 0
            rs = range(src.vr)
        else:
            if src.vr == 0:
                continue
            acc = load(src.get(0, j))
            rs = range(1, src.vr)
        for i in rs:
            acc = _red_step(op, adt, acc, load(src.get(i, j)))
        dst.set(0, j, store(acc))


def op_vrowexpand(op, src0, src1, dst):
    """trowexpand (op 'copy'): dst[r][c] = src0[r][0]; trowexpand<op>:
    dst[r][c] = op(src0[r][c % vc0], src1[r][c % vc1]) (the simulator's indexing)."""
    dt = dst.tt.dtype
    for r in range(dst.vr):
        for c in range(dst.vc):
            if op == 'copy':
                v = src0.get(r, 0)
            elif op == 'expdif':
                v = expdif(dt, src0.get(r, c % src0.vc), src1.get(r, c % src1.vc))
            else:
                v = sim_two_nan(op, dt, src0.get(r, c % src0.vc), src1.get(r, c % src1.vc))
            dst.set(r, c, v)


def op_vcolexpand(op, src0, src1, dst):
    """tcolexpand: dst[i][j] = src0[0][j]; tcolexpand<op>: op(src0[i][j], src1[0][j])."""
    dt = dst.tt.dtype
    for i in range(dst.vr):
        for j in range(dst.vc):
            if op == 'copy':
                v = src0.get(0, j)
            elif op == 'expdif':
                v = expdif(dt, src0.get(i, j), src1.get(0, j))
            else:
                v = sim_two_nan(op, dt, src0.get(i, j), src1.get(0, j))
            dst.set(i, j, v)


def op_tci(dst, start, descending):
    """tci: dst[0][j] = start + j (start - j descending), wrapping in dst's type."""
    for j in range(dst.vc):
        dst.set(0, j, iwrap(dst.tt.dtype, start - j if descending else start + j))


# ---- tcvt -------------------------------------------------------------------------------------

RMODES = ('NONE', 'RINT', 'ROUND', 'FLOOR', 'CEIL', 'TRUNC', 'ODD')
F16_MAX = Fraction(65504)
BF16_MAX = Fraction(0xFF) * _pow2(127 - 7)           # 0x7F7F: (2 - 2^-7) * 2^127
F32_MAX = Fraction((1 << 24) - 1) * _pow2(127 - 23)


def dt_range(dt):
    """[lowest, max] of a dtype as Fractions (the simulator's SafeLimits)."""
    if dt == 'f16':
        return -F16_MAX, F16_MAX
    if dt == 'bf16':
        return -BF16_MAX, BF16_MAX
    if dt == 'f32':
        return -F32_MAX, F32_MAX
    size, _, signed, _ = DTYPES[dt]
    w = 8 * size
    if signed:
        return Fraction(-(1 << (w - 1))), Fraction((1 << (w - 1)) - 1)
    return Fraction(0), Fraction((1 << w) - 1)


def cvt_rmode(sdt, ddt, rmode):
    """The rounding a tcvt pair really does (docs/numerics.md, tcvt). pto-isa's A5 TCvt hands
    the mode to vcvt/vtrc for every pair that rounds, A2/A3 picks the vconv variant of the
    mode; round-to-odd exists only for f32 -> f16, and NONE or an ODD elsewhere takes the
    implementation's default: truncation into integers, nearest even into floats. i32 -> f16
    is A2/A3's dequantizing vconv_deq, which has no mode at all."""
    if rmode == 'CAST_RINT':
        rmode = 'RINT'
    if is_float(sdt) and not is_float(ddt):
        return 'TRUNC' if rmode in ('NONE', 'ODD') else rmode
    if (sdt, ddt) == ('i32', 'f16') or rmode == 'NONE':
        return 'RINT'
    if rmode == 'ODD' and (sdt, ddt) != ('f32', 'f16'):
        return 'RINT'
    return rmode


def fround_rm(dt, neg, mag, rmode):
    """(-1)^neg * mag (a Fraction) rounded into the float format dt per rmode, IEEE 754's
    rounding directions: the significand scaled to an integer is rounded as round_integral
    rounds (ODD: truncate and set the last bit when inexact). Overflow gives Inf for the
    nearest modes and for the directed ones that point away from zero, else the largest
    finite value (TRUNC, ODD, FLOOR of a positive, CEIL of a negative value)."""
    fmt = FLOAT_FMT[dt]
    sign = fmt.sign if neg else 0
    if mag == 0:
        return sign
    q = max(_floor_log2(mag), 1 - fmt.bias) - fmt.mbits
    scaled = mag * _pow2(-q)
    if rmode == 'ODD':
        n = scaled.numerator // scaled.denominator
        if n != scaled:
            n |= 1
    else:                                     # on the magnitude: the sign turns FLOOR and CEIL
        m = {'FLOOR': 'CEIL', 'CEIL': 'FLOOR'}.get(rmode, rmode) if neg else rmode
        n = round_integral(scaled, m)
    if n >> (fmt.mbits + 1):                  # rounded up into the next binade
        n >>= 1
        q += 1
    code = n if n < (1 << fmt.mbits) else \
        ((q + fmt.mbits + fmt.bias) << fmt.mbits) | (n - (1 << fmt.mbits))
    if code > fmt.maxcode:
        away = rmode in ('RINT', 'ROUND') or (rmode == 'CEIL' and not neg) or \
            (rmode == 'FLOOR' and neg)
        code = fmt.infcode if away else fmt.maxcode
    return sign | code


def round_integral(x, rmode):
    """A finite Fraction rounded to an integer per rmode (RINT, ROUND, FLOOR, CEIL, TRUNC;
    cvt_rmode has already turned NONE and ODD into one of these)."""
    fl = x.numerator // x.denominator
    frac = x - fl
    if rmode == 'TRUNC':
        return fl if x >= 0 or frac == 0 else fl + 1
    if rmode == 'FLOOR':
        return fl
    if rmode == 'CEIL':
        return fl if frac == 0 else fl + 1
    half = Fraction(1, 2)
    if frac != half:
        return fl + 1 if frac > half else fl
    if rmode == 'RINT':
        return fl if fl % 2 == 0 else fl + 1
    if rmode == 'ROUND':                      # ties away from zero
        return fl + 1 if x > 0 else fl
    raise RefError('unknown rmode %s' % rmode)


def cvt_elem_sim(sdt, ddt, bits, rmode, sat):
    """One tcvt element as the pto-isa CPU simulator's TCvt.hpp computes it (NUMERICS 'sim'):
    float destinations ignore the mode (a C cast: nearest even; f32 -> f32 a copy); into
    integers the mode rounds (NONE truncates, ODD is nearest with ties to odd), saturation
    clamps to both ranges in binary64 (NaN to the upper bound) and stores the bound back into
    the source type (f32's 2147483647 becomes 2^31, f16's 32767 becomes 32768), and the cast is
    x86's."""
    if rmode == 'CAST_RINT':
        rmode = 'RINT'
    if not (is_float(sdt) and not is_float(ddt)):
        if sdt == ddt == 'f32':
            if not sat:
                return bits
            c = fclass(sdt, bits)
            hi = dt_range('f32')[1]
            if c[0] == 'nan':
                return fsigned('f32', False, Fraction(hi))
            if c[0] == 'inf':
                return fsigned('f32', c[1], Fraction(hi))
            return bits
        return cvt_elem_hw(sdt, ddt, bits, 'RINT', sat)
    c = fclass(sdt, bits)
    if sat:
        lo = max(dt_range(sdt)[0], dt_range(ddt)[0])
        hi = min(dt_range(sdt)[1], dt_range(ddt)[1])
        v = hi if c[0] == 'nan' else (lo if c[1] else hi) if c[0] == 'inf' else \
            min(hi, max(lo, fval_exact(c)))
        c = fclass(sdt, fsigned(sdt, v < 0, Fraction(abs(v))))   # back into the source type
    if c[0] != 'num':
        i = -(1 << 31)
    else:
        x = fval_exact(c)
        if rmode == 'ODD':
            fl = x.numerator // x.denominator
            frac = x - fl
            i = fl + 1 if frac > Fraction(1, 2) else fl if frac < Fraction(1, 2) else \
                (fl if fl % 2 else fl + 1)
        else:
            i = round_integral(x, 'TRUNC' if rmode == 'NONE' else rmode)
        w = 63 if ddt == 'ui8' else 31
        if not -(1 << w) <= i < (1 << w):
            i = -(1 << 31)
    return iwrap(ddt, i)


def cvt_elem(sdt, ddt, bits, rmode, sat):
    """One tcvt element, per NUMERICS."""
    if NUMERICS == 'sim':
        return cvt_elem_sim(sdt, ddt, bits, rmode, sat)
    return cvt_elem_hw(sdt, ddt, bits, rmode, sat)


def cvt_elem_hw(sdt, ddt, bits, rmode, sat):
    """One tcvt element (docs/vector-ops.md, `tcvt`)."""
    rmode = cvt_rmode(sdt, ddt, rmode)
    if is_float(sdt):
        c = fclass(sdt, bits)
        if sat:                              # clamp to both ranges; NaN -> the largest value
            lo = max(dt_range(sdt)[0], dt_range(ddt)[0])
            hi = min(dt_range(sdt)[1], dt_range(ddt)[1])
            if c[0] == 'nan':
                c = ('num', hi < 0, abs(hi))
            elif c[0] == 'inf':
                v = lo if c[1] else hi
                c = ('num', v < 0, abs(v))
            else:
                v = min(hi, max(lo, fval_exact(c)))
                c = ('num', v < 0 or (v == 0 and c[1]), abs(v))
        if is_float(ddt):
            if c[0] == 'nan':
                return narrow_f32(ddt, widen_f32(sdt, bits))
            if c[0] == 'inf':
                return finf(ddt, c[1])
            if ddt == 'f32' and sdt == 'f32':    # f32 -> f32 rounds to an integral value
                i = round_integral(fval_exact(c), rmode)
                return fsigned(ddt, c[1], Fraction(abs(i)))
            return fround_rm(ddt, c[1], c[2], rmode)
        # float -> integer: round to an integral value, then x86's cast
        if c[0] != 'num':
            i = -(1 << 31)                   # NaN, +-Inf: the "integer indefinite"
        else:
            i = round_integral(fval_exact(c), rmode)
            w = 63 if ddt == 'ui8' else 31   # the simulator casts to u8 through int64
            if not -(1 << w) <= i < (1 << w):
                i = -(1 << 31)
        return iwrap(ddt, i)                 # narrower destinations keep the low bits
    v = to_int(sdt, bits)
    if sat:
        lo, hi = dt_range(ddt)
        v = int(min(hi, max(lo, v)))
    if is_float(ddt):
        return fround_rm(ddt, v < 0, Fraction(abs(v)), rmode)
    return iwrap(ddt, v)


def op_tcvt(src, dst, rmode, sat):
    if (src.vr, src.vc) != (dst.vr, dst.vc):
        raise RefError('tcvt: valid shapes differ')
    for r in range(dst.vr):
        for c in range(dst.vc):
            dst.set(r, c, cvt_elem(src.tt.dtype, dst.tt.dtype, src.get(r, c), rmode, sat))


class View:
    """A strided N-D window onto the memory behind a !pto.ptr (a flat list of element bits).
    Tiles move through it as rows of its last dimension: view row i is the index tuple of all
    dimensions but the last, counted with the second-to-last fastest (a 1-D view is one row),
    as pto-isa's ND transfer flattens a 5-D global tensor."""

    def __init__(self, mem, dtype, shape, strides, base=0, parent_shape=None):
        self.mem, self.dtype, self.shape, self.strides, self.base = mem, dtype, shape, strides, base

    def plane(self):
        """(rows, cols) the view presents to a tile."""
        rows = 1
        for d in self.shape[:-1]:
            rows *= d
        return (rows, self.shape[-1])

    def index(self, i, j):
        k = self.base + j * self.strides[-1]
        for d in range(len(self.shape) - 2, -1, -1):
            n = self.shape[d]
            k += (i % n if d else i) * self.strides[d]
            i = i // n if d else 0
        if not 0 <= k < len(self.mem.data):
            raise RefError('view accesses element %d, outside the buffer of %d elements'
                           % (k, len(self.mem.data)))
        return k


def check_view_shape(view, tile):
    """The view shape equals the tile's valid shape, or holds as many elements in at least as
    many rows: tile row r then runs on along view row r (pto-isa's ND transfer)."""
    (r, c), vr, vc = view.plane(), tile.vr, tile.vc
    if vr == 0 or vc == 0:
        return                                 # nothing moves, whatever the view's shape
    if (r, c) != (vr, vc) and (vr > r or vr * vc != r * c):
        raise RefError('view shape %s does not fit the tile valid shape [%d, %d]' % (list(view.shape), vr, vc))


def op_tload(view, tile):
    check_view_shape(view, tile)
    if tile.tt.pad:
        v = pad_value(tile.tt.dtype, tile.tt.pad)
        for r in range(tile.tt.rows):
            for c in range(tile.tt.cols):
                tile.set(r, c, v)
    for i in range(tile.vr):
        for j in range(tile.vc):
            tile.set(i, j, view.mem.data[view.index(i, j)])


def op_tstore(tile, view, atomic=False, relu=False, word=None):
    """The valid region into the view; an acc f32 tile into an f16/bf16 view rounds to nearest
    even, and an atomic add stores view + tile (f32: one rounding; i32: wrapping)
    (docs/numerics.md 8.4); relu / a preQuantScalar word go through fix_convert (8.6)."""
    check_view_shape(view, tile)
    if relu or word is not None:
        if tile.tt.loc != 'acc' or atomic:
            raise RefError('tstore relu / preQuantScalar needs an acc tile and no atomic add')
        for i in range(tile.vr):
            for j in range(tile.vc):
                view.mem.data[view.index(i, j)] = fix_convert(tile.tt.dtype, view.dtype, tile.get(i, j), relu, word)
        return
    st, vt = tile.tt.dtype, view.dtype
    for i in range(tile.vr):
        for j in range(tile.vc):
            k = view.index(i, j)
            x = tile.get(i, j)
            if st != vt and st == 'f32' and tile.tt.loc == 'acc' and vt in ('f16', 'bf16') and not atomic:
                x = float_to_bits(vt, to_float('f32', x))
            elif atomic and st == 'f32' and vt == 'f32':
                a, b = to_float('f32', view.mem.data[k]), to_float('f32', x)
                x = QNAN['f32'] if math.isnan(a) or math.isnan(b) else float_to_bits('f32', a + b) \
                    if not (math.isinf(a) and math.isinf(b) and a != b) else QNAN['f32']
            elif atomic and dsize(st) == 4 and st in ('i32', 'ui32', 'si32'):
                x = (view.mem.data[k] + x) & 0xFFFFFFFF
            elif atomic or st != vt and dsize(st) != dsize(vt):
                raise RefError('tstore from %s to a %s view%s' % (st, vt, ' (atomic add)' if atomic else ''))
            view.mem.data[k] = x


# ============================================================================================
# The kernel interpreter
# ============================================================================================

def strip_comments(text):
    out = []
    for line in text.split('\n'):
        in_str = False
        cut = len(line)
        i = 0
        while i < len(line):
            ch = line[i]
            if in_str:
                if ch == '\\':
                    i += 1
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif line.startswith('//', i):
                cut = i
                break
            elif ch == '#' and (i + 1 == len(line) or line[i + 1] in ' \t'):
                cut = i
                break
            i += 1
        out.append(line[:cut])
    return '\n'.join(out)


def _matching(text, i, open_ch, close_ch):
    depth = 0
    for k in range(i, len(text)):
        if text[k] == open_ch:
            depth += 1
        elif text[k] == close_ch:
            depth -= 1
            if depth == 0:
                return k
    raise RefError('unbalanced %s' % open_ch)


class Func:
    def __init__(self, name, args, results, attrs, body):
        self.name, self.args, self.results, self.attrs, self.body = name, args, results, attrs, body


def parse_funcs(text):
    text = strip_comments(text)
    funcs = []
    for m in re.finditer(r'func\.func\s+(?:private\s+|public\s+)?@([\w$.-]+)\s*\(', text):
        lp = m.end() - 1
        rp = _matching(text, lp, '(', ')')
        args = []
        for a in _split_top(text[lp + 1:rp]):
            if a:
                n, t = a.split(':', 1)
                args.append((n.strip()[1:], t.strip()))
        rest = text[rp + 1:]
        body_open = None
        k = 0
        attrs = ''
        results = []
        # results and attributes come before the body's '{'
        am = re.match(r'\s*(?:->\s*(\((?:[^()]|\([^()]*\))*\)|[^{]*?))?\s*(?:attributes\s*(\{[^{}]*\}))?\s*\{', rest)
        if not am:
            raise RefError('cannot parse the signature of @%s' % m.group(1))
        if am.group(1):
            rs = am.group(1).strip()
            if rs.startswith('('):
                rs = rs[1:-1]
            results = _split_top(rs)
        attrs = am.group(2) or ''
        body_open = rp + 1 + am.end() - 1
        body_close = _matching(text, body_open, '{', '}')
        del k
        funcs.append(Func(m.group(1), args, results, attrs, text[body_open + 1:body_close]))
    return funcs


OP_START = re.compile(r'(?m)^[ \t]*((?:%[\w$.-]+(?::\d+)?[ \t]*,[ \t]*)*%[\w$.-]+(?::\d+)?[ \t]*=[ \t]*)?'
                      r'(pto\.[\w.]+|tgemv\.bias|arith\.\w+|scf\.\w+|func\.return|func\.call|call|return)\b')
NAME = r'%[\w$.-]+(?:#\d+)?'
REGION_OPS = ('scf.for', 'scf.if', 'scf.while', 'scf.execute_region')


def _result_names(group):
    """Result names of `%a, %b =` or `%r:2 =` (the pack's members are r#0, r#1)."""
    out = []
    for m in re.finditer(r'%([\w$.-]+)(?::(\d+))?', group or ''):
        if m.group(2):
            out += ['%s#%d' % (m.group(1), k) for k in range(int(m.group(2)))]
        else:
            out.append(m.group(1))
    return out


def split_ops(body, start=0, end=None):
    """The ops of a block: (name, result names, text, line, regions) where a region op
    (scf.for, scf.if) has its header as text and its bodies, each a list of ops, as regions."""
    end = len(body) if end is None else end
    ops = []
    pos = start
    m = OP_START.search(body, pos, end)
    while m:
        name = m.group(2)
        line = body.count('\n', 0, m.start())
        if name in REGION_OPS:
            lb = body.index('{', m.end())
            rb = _matching(body, lb, '{', '}')
            regions = [split_ops(body, lb + 1, rb)]
            nxt = rb + 1
            em = re.compile(r'\s*else\s*\{').match(body, nxt) if name == 'scf.if' else None
            if name == 'scf.while':
                em = re.compile(r'\s*do\s*\{').match(body, nxt)
                if not em:
                    raise RefError('line %d: scf.while without its do region' % (line + 1))
            if em:
                lb2 = em.end() - 1
                rb2 = _matching(body, lb2, '{', '}')
                regions.append(split_ops(body, lb2 + 1, rb2))
                if name == 'scf.while':  # the after region's block arguments: `^bb0(%a: T, ...):`
                    lm = re.compile(r'\s*\^\w+\s*\(([^)]*)\)').match(body, lb2 + 1, rb2)
                    regions.append(re.findall(r'%([\w$.-]+)\s*:', lm.group(1)) if lm else [])
                nxt = rb2 + 1
            ops.append((name, _result_names(m.group(1)), body[m.end():lb].strip(), line, regions))
            m = OP_START.search(body, nxt, end)
            continue
        n = OP_START.search(body, m.end(), end)
        stop = n.start() if n else end
        ops.append((name, _result_names(m.group(1)), body[m.end():stop].strip(), line, None))
        m = n
    return ops


def _attr(text, key, enum):
    """The value of `key = #pto<enum VALUE>` (or `#pto.enum<VALUE>`) in an op's text."""
    m = re.search(r'\b' + key + r'\s*=\s*#pto(?:<' + enum + r'\s+(\w+)>|\.' + enum + r'<\s*(\w+)\s*>)', text)
    return (m.group(1) or m.group(2)) if m else None


def _group_names(text, key):
    """Operand names of `key(...)`: `%a, %b : T1, T2` or per operand `%a : T1, %b {attr} : T2`."""
    m = re.search(r'\b' + key + r'\s*\(', text)
    if not m:
        return []
    depth, i = 1, m.end()
    while i < len(text) and depth:
        depth += {'(': 1, ')': -1}.get(text[i], 0)
        i += 1
    names = []
    for item in _split_top(text[m.end():i - 1]):
        if item.startswith('%'):
            names.append(re.match(NAME, item).group(0)[1:])
    return names


def _ins_outs(text):
    return _group_names(text, 'ins'), _group_names(text, 'outs')


def _l1_operands(text):
    """Operand names of a Level 1 op: the %names before the attribute dict or the ':'."""
    cut = len(text)
    for ch in '{:':
        k = text.find(ch)
        if k >= 0:
            cut = min(cut, k)
    return [n[1:] for n in re.findall(NAME, text[:cut])]


def _l1_result_types(text):
    k = text.rfind('->')
    if k < 0:
        raise RefError('missing result types')
    rs = text[k + 2:].strip()
    if rs.startswith('('):
        rs = rs[1:rs.rfind(')')]
    return [parse_type(t) for t in _split_top(rs)]


def int_width(ty):
    """Bit width of an integer type (index is 64-bit); None for other types."""
    if ty == 'index':
        return 64
    m = re.match(r'^[su]?i(\d+)$', ty)
    return int(m.group(1)) if m else None


def sext(v, w):
    """v as a signed w-bit integer (i1 true is -1, as docs/scalars.md holds it)."""
    v &= (1 << w) - 1
    if v >> (w - 1):
        v -= 1 << w
    return v


def float_round(ty, x):
    if ty == 'f64':
        return x
    if math.isnan(x):
        return x
    return to_float(ty, float_to_bits(ty, x))


def arith_binary(kind, ty, a, b, fail):
    """arith integer and float binary ops (MLIR): integers wrap at the type's width, division
    by zero, divsi's INT_MIN / -1 and shifts of at least the width are errors."""
    if kind in ('addf', 'subf', 'mulf', 'divf', 'maximumf', 'minimumf', 'maxnumf', 'minnumf', 'remf'):
        if kind in ('maximumf', 'minimumf'):
            if math.isnan(a) or math.isnan(b):
                return NAN
            if a == b == 0:
                neg = math.copysign(1, a) < 0
                negb = math.copysign(1, b) < 0
                pick = (neg and negb) if kind == 'maximumf' else (neg or negb)
                return -0.0 if pick else 0.0
            return max(a, b) if kind == 'maximumf' else min(a, b)
        if kind in ('maxnumf', 'minnumf'):
            if math.isnan(a):
                return b
            if math.isnan(b):
                return a
            return max(a, b) if kind == 'maxnumf' else min(a, b)
        if ty not in FLOAT_FMT:
            fail('%s on %s is not modelled' % (kind, ty))
        dt = ty
        ab, bb_ = float_to_bits(dt, a), float_to_bits(dt, b)
        if math.isnan(a) or math.isnan(b):
            return NAN
        op = {'addf': 'add', 'subf': 'sub', 'mulf': 'mul', 'divf': 'div'}.get(kind)
        if op is None:
            fail('%s is not modelled' % kind)
        return to_float(dt, farith(op, dt, ab, bb_))
    w = int_width(ty)
    if w is None:
        fail('%s on %s is not modelled' % (kind, ty))
    mask = (1 << w) - 1
    ua, ub = a & mask, b & mask
    sa, sb = sext(a, w), sext(b, w)
    if kind in ('divsi', 'divui', 'remsi', 'remui', 'ceildivsi', 'floordivsi') and ub == 0:
        fail('%s: division by zero' % kind)
    if kind in ('divsi', 'ceildivsi', 'floordivsi') and sb == -1 and sa == -(1 << (w - 1)) and w > 1:
        fail('%s: signed overflow' % kind)
    if kind in ('shli', 'shrsi', 'shrui') and ub >= w:
        fail('%s: shift amount %d is at least the bit width %d' % (kind, ub, w))
    if kind == 'addi':
        r = sa + sb
    elif kind == 'subi':
        r = sa - sb
    elif kind == 'muli':
        r = sa * sb
    elif kind == 'divsi':
        q = abs(sa) // abs(sb)
        r = q if (sa < 0) == (sb < 0) else -q
    elif kind == 'divui':
        r = ua // ub
    elif kind == 'remsi':
        q = abs(sa) % abs(sb)
        r = -q if sa < 0 else q
    elif kind == 'remui':
        r = ua % ub
    elif kind == 'ceildivsi':
        r = -((-sa) // sb)
    elif kind == 'floordivsi':
        r = sa // sb
    elif kind == 'maxsi':
        r = max(sa, sb)
    elif kind == 'minsi':
        r = min(sa, sb)
    elif kind == 'maxui':
        r = max(ua, ub)
    elif kind == 'minui':
        r = min(ua, ub)
    elif kind == 'andi':
        r = ua & ub
    elif kind == 'ori':
        r = ua | ub
    elif kind == 'xori':
        r = ua ^ ub
    elif kind == 'shli':
        r = ua << ub
    elif kind == 'shrsi':
        r = sa >> ub
    elif kind == 'shrui':
        r = ua >> ub
    else:
        fail('arith.%s is not modelled' % kind)
    return sext(r, w)


def arith_cmp(kind, pred, ty, a, b):
    if kind == 'cmpf':
        if math.isnan(a) or math.isnan(b):
            return int(pred in ('une', 'uno', 'ueq', 'ult', 'ule', 'ugt', 'uge', 'true'))
        base = pred[1:] if pred[0] in 'ou' else pred
        return int({'eq': a == b, 'ne': a != b, 'lt': a < b, 'le': a <= b, 'gt': a > b,
                    'ge': a >= b, 'rd': True, 'o': True, 'rue': True}.get(base, pred == 'true'))
    w = int_width(ty)
    mask = (1 << w) - 1
    if pred[0] == 'u':
        a, b = a & mask, b & mask
    else:
        a, b = sext(a, w), sext(b, w)
    op = pred[1:] if pred[0] in 'su' else pred
    return int({'eq': a == b, 'ne': a != b, 'lt': a < b, 'le': a <= b, 'gt': a > b,
                'ge': a >= b}[op])


def arith_cast(kind, src_ty, dst_ty, v, fail):
    ws, wd = int_width(src_ty), int_width(dst_ty)
    if kind in ('index_cast', 'extsi'):
        r = sext(v, ws)
        if kind == 'index_cast' and sext(r, wd) != r:
            fail('index_cast: %d does not fit in %s' % (r, dst_ty))
        return sext(r, wd)
    if kind in ('index_castui', 'extui'):
        r = v & ((1 << ws) - 1)
        if kind == 'index_castui' and r >> wd:
            fail('index_castui: %d does not fit in %s' % (r, dst_ty))
        return sext(r, wd)
    if kind == 'trunci':
        return sext(v, wd)
    if kind in ('sitofp', 'uitofp'):
        x = sext(v, ws) if kind == 'sitofp' else v & ((1 << ws) - 1)
        return to_float(dst_ty, FLOAT_FMT[dst_ty].encode_exact(x < 0, Fraction(abs(x)), False))
    if kind in ('extf', 'truncf'):
        return float_round(dst_ty, v)
    fail('arith.%s is not modelled' % kind)


def scalar_arg(ty, text):
    """The value of --arg NAME=TEXT for a scalar argument of type ty: an integer wrapped to
    the type's width, or a float rounded once to a float type."""
    text = str(text)
    if ty in FLOAT_FMT or ty == 'f64':
        try:
            fr = Fraction(text)
        except (ValueError, ZeroDivisionError):
            x = float.fromhex(text) if 'x' in text.lower() else float(text)   # C's strtod forms (docs/scalars.md 4)
            return float_round(ty, x)
        if ty == 'f64':
            return float(fr)
        return to_float(ty, FLOAT_FMT[ty].encode_exact(fr < 0 or text.strip().startswith('-'), abs(fr), False))
    w = int_width(ty)
    v = int(text, 0)
    return sext(v, w) if w else v


# bytes of each modelled memory space (the largest capacity of docs/memory.md; bounds are
# ptoas's to check)
SPACE_BYTES = 1 << 20


class Machine:
    def __init__(self, func, inputs, args, funcs=None):
        self.func = func
        self.env = {}
        self.inputs = inputs           # name -> Array
        self.scalars = args            # name -> int
        self.returned = {}
        self.results = []              # the values of the return, in order
        self.spaces = {}               # loc -> bytearray: the tiles placed with alloc_tile addr
        self.funcs = funcs or [func]   # the module's functions (func.call's callees)

    def mgather_scatter(self, op, text, res):
        """pto.mgather (both forms) and pto.mscatter, Level 2 or Level 1."""
        env = self.env
        if 'ins' in text:
            ins, outs = _ins_outs(text)
        else:
            ins, outs = _l1_operands(text), []
        coalesce = _attr(text, 'coalesce', 'coalesce') or 'row'
        if op == 'pto.mscatter':
            mem = env[outs[0]] if outs else env[ins[2]]
            op_mscatter(coalesce, _attr(text, 'scatterAtomicOp', 'scatter_atomic_op') or 'none',
                        _attr(text, 'scatterOob', 'scatter_oob') or 'undefined',
                        self.tile(ins[0]), self.tile(ins[1]), mem)
            return
        if outs:
            dst = self.tile(outs[0])
        else:
            dst = Tile(_l1_result_types(text)[0])
            env[res[0]] = dst
        idx = env[ins[1]]
        op_mgather(coalesce, _attr(text, 'gatherOob', 'gather_oob') or 'undefined', env[ins[0]],
                   idx if isinstance(idx, View) else self.tile(ins[1]), dst)

    def one_out(self, text, res):
        """The ins operand names and the dst tile of an op with one output, in
        either level (a Level 1 result becomes a fresh tile bound to its name)."""
        if re.search(r'\bins\s*\(', text):
            ins, outs = _ins_outs(text)
            return ins, self.tile(outs[0])
        dst = Tile(_l1_result_types(text)[0])
        self.env[res[0]] = dst
        return _l1_operands(text), dst

    def fail(self, line, msg):
        raise RefError('line %d: %s' % (line + 1, msg))

    def scalar(self, name):
        v = self.env.get(name)
        if not isinstance(v, int):
            raise RefError('%%%s is not a known scalar' % name)
        return v

    def new_tile(self, tt, vr=None, vc=None):
        return Tile(tt, vr, vc)

    def bind_args(self):
        for name, ts in self.func.args:
            t = parse_type(ts)
            arr = self.inputs.get(name)
            if isinstance(arr, bytes):          # a raw .bin: the full physical shape, C order
                dt = t.dtype if isinstance(t, TType) else t[1]
                size = dsize(dt)
                n = len(arr) // size
                if isinstance(t, TType) and len(arr) != t.rows * t.cols * size or len(arr) % size:
                    raise RefError("argument '%%%s': raw file of %d bytes does not fit" % (name, len(arr)))
                shape = (t.rows, t.cols) if isinstance(t, TType) else (n,)
                fmt = {1: 'B', 2: 'H', 4: 'I'}[size]
                arr = Array(DTYPES[dt][1], shape, list(struct.unpack('<%d%s' % (n, fmt), arr)))
            if isinstance(t, TType):
                if arr is None:
                    vr, vc = t.vr, t.vc
                    if vr is None or vc is None:
                        raise RefError("argument '%%%s' has a dynamic valid shape: give --in" % name)
                    self.env[name] = Tile(t)
                    continue
                descr = DTYPES[t.dtype][1]
                if arr.descr != descr or len(arr.shape) != 2:
                    raise RefError("argument '%%%s': expected dtype %s, got %s %s"
                                   % (name, descr, arr.shape, arr.descr))
                ar, ac = arr.shape
                dyn = t.vr is None or t.vc is None
                vr = ar if t.vr is None else t.vr
                vc = ac if t.vc is None else t.vc
                tile = Tile(t, vr, vc)
                if (ar, ac) != (vr, vc) and ((ar, ac) != (t.rows, t.cols) or dyn):
                    raise RefError("argument '%%%s': expected shape (%d, %d), got %s"
                                   % (name, vr, vc, arr.shape))
                for r in range(ar):
                    for c in range(ac):
                        tile.set(r, c, arr.data[r * ac + c])
                self.env[name] = tile
            elif t[0] == 'ptr':
                if arr is None:
                    raise RefError("argument '%%%s' (a !pto.ptr) needs --in" % name)
                if arr.descr != DTYPES[t[1]][1]:
                    raise RefError("argument '%%%s': dtype %s, expected %s"
                                   % (name, arr.descr, DTYPES[t[1]][1]))
                self.env[name] = arr              # the memory itself (written by tstore)
            else:
                if name not in self.scalars:
                    raise RefError("scalar argument '%%%s' needs --arg" % name)
                self.env[name] = scalar_arg(t[1], self.scalars[name])

    def constant(self, text, line):
        """The value of `arith.constant LITERAL : TYPE`: an int for integer types (true/false
        too), a Python float holding the literal rounded once to a float type (a hex literal
        gives the bits)."""
        m = re.match(r'\s*(\S+)\s*:\s*(\w+)', text)
        if not m:
            self.fail(line, 'cannot read the constant')
        lit, ty = m.group(1), m.group(2)
        if ty in ('f32', 'f16', 'bf16', 'f64'):
            if lit.lower().startswith('0x'):
                bits = int(lit, 16)
                return struct.unpack('<d', struct.pack('<Q', bits))[0] if ty == 'f64' else to_float(ty, bits)
            if ty == 'f64':
                return float(lit)
            try:
                fr = Fraction(lit)
            except (ValueError, ZeroDivisionError):
                return to_float(ty, float_to_bits(ty, float(lit)))      # inf, nan
            return to_float(ty, FLOAT_FMT[ty].encode_exact(fr < 0 or lit.startswith('-'), abs(fr), False))
        if lit in ('true', 'false'):
            return int(lit == 'true')
        w = int_width(ty)
        return sext(int(lit, 0), w) if w else int(lit, 0)

    def scalar_bits(self, name, dt):
        """A scalar operand as the bits of one element of dt."""
        v = self.env.get(name)
        if isinstance(v, float) and is_float(dt):
            return float_to_bits(dt, v)
        if isinstance(v, int):
            return float_to_bits(dt, float(v)) if is_float(dt) else from_int(dt, v)
        raise RefError('%%%s is not a known scalar' % name)

    def tile(self, name):
        v = self.env.get(name)
        if not isinstance(v, Tile):
            raise RefError('%%%s is not a tile' % name)
        return v

    def subview(self, text, line):
        """%r = pto.subview %src[%i, %j] sizes [R, C] (valid [%vr, %vc])? : T1 -> T2: the window
        from element (i, j) of src, in src's layout and bytes. Its physical shape is the window's
        when the window's layout steps like src's (full rows of a row-major tile, full columns
        of a col-major one, any boxed window), else src's own (PTOAS keeps the strides)."""
        m = re.match(r'\s*(' + NAME + r')\s*\[([^\]]*)\]\s*sizes\s*\[([^\]]*)\]', text)
        src = self.tile(m.group(1)[1:])
        i, j = [self.scalar(n[1:]) for n in re.findall(NAME, m.group(2))]
        R, C = [int(x) for x in m.group(3).split(',')]
        tt = parse_type(text[text.rfind('->') + 2:])
        mv = re.search(r'\bvalid\s*\[([^\]]*)\]', text)
        if mv:
            vr, vc = [self.scalar(n[1:]) for n in re.findall(NAME, mv.group(1))]
        else:
            vr, vc = tt.vr, tt.vc
        st = src.tt
        if i < 0 or j < 0 or i + R > st.rows or j + C > st.cols:
            self.fail(line, 'subview window outside its source')
        if not (0 <= vr <= R and 0 <= vc <= C):
            self.fail(line, 'subview valid shape outside its sizes')
        if st.slayout != 'none_box':
            same = True
        elif st.blayout == 'row_major':
            same = C == st.cols
        else:
            same = R == st.rows
        ct = TType(st.level, st.loc, st.dtype, R if same else st.rows, C if same else st.cols, vr, vc,
                   st.blayout, st.slayout, st.fractal, st.pad, st.compact)
        return Tile(ct, vr, vc, mem=src.mem, base=src.base + st.offset(i, j) * src.size)

    def run(self):
        self.bind_args()
        self.run_block(split_ops(self.func.body))

    def run_block(self, ops):
        """Runs a block's ops; returns the values of its scf.yield (or [])."""
        for opname, res, text, line, regions in ops:
            if opname == 'scf.yield':
                return [self.env[n] for n in _l1_operands(text)]
            if opname == 'scf.condition':  # `(%c) %a, ... : T, ...`: the condition, then the values
                return [self.env[n[1:]] for n in re.findall(NAME, text.split(':')[0])]
            if regions is not None:
                self.region_op(opname, res, text, line, regions)
            elif opname.startswith('arith.') and opname != 'arith.constant':
                self.arith(opname, res, text, line)
            else:
                self.step(opname, res, text, line)
        return []

    def region_op(self, op, res, text, line, regions):
        """scf.for (signed induction from lb while < ub by a positive step, iter_args carried,
        results the last values) and scf.if (the then or else region's yield)."""
        env = self.env
        if op == 'scf.execute_region':
            for n, v in zip(res, self.run_block(regions[0])):
                env[n] = v
            return
        if op == 'scf.while':
            # (%a = %init, ...): the before region's arguments; the after region's from its label
            inits = re.match(r'\s*\(([^)]*)\)', text)
            args = []
            for item in (_split_top(inits.group(1)) if inits and '=' in inits.group(1) else []):
                a, b = [x.strip()[1:] for x in item.split('=')]
                args.append(a)
                env[a] = env[b]
            while True:
                vals = self.run_block(regions[0])
                if not vals:
                    self.fail(line, 'scf.while before region without scf.condition')
                cond, vals = vals[0], vals[1:]
                if not isinstance(cond, int):
                    self.fail(line, 'scf.condition value is not an integer')
                if not cond & 1:
                    for n, v in zip(res, vals):
                        env[n] = v
                    return
                for n, v in zip(regions[2], vals):
                    env[n] = v
                for n, v in zip(args, self.run_block(regions[1])):
                    env[n] = v
        if op == 'scf.if':
            cond = self.int_of(re.findall(NAME, text)[0][1:])
            if cond & 1:
                vals = self.run_block(regions[0])
            elif len(regions) > 1:
                vals = self.run_block(regions[1])
            else:
                vals = []
            for n, v in zip(res, vals):
                env[n] = v
            return
        m = re.match(r'\s*(' + NAME + r')\s*=\s*(' + NAME + r')\s+to\s+(' + NAME + r')\s+step\s+(' + NAME + ')', text)
        if not m:
            self.fail(line, 'cannot read the scf.for header')
        iv = m.group(1)[1:]
        lb, ub, st = (self.int_of(m.group(k)[1:]) for k in (2, 3, 4))
        if st <= 0:
            self.fail(line, 'scf.for step %d is not positive' % st)
        carried = []
        im = re.search(r'iter_args\s*\(', text)
        if im:
            inner = text[im.end():_matching(text, im.end() - 1, '(', ')')]
            for item in _split_top(inner):
                a, b = [x.strip()[1:] for x in item.split('=')]
                carried.append(a)
                env[a] = env[b]
        i = lb
        while i < ub:
            env[iv] = i
            vals = self.run_block(regions[0])
            for n, v in zip(carried, vals):
                env[n] = v
            i += st
        for n, c in zip(res, carried):
            env[n] = env[c]

    def int_of(self, name):
        v = self.env.get(name)
        if not isinstance(v, int):
            raise RefError('%%%s is not a known integer' % name)
        return v

    def arith(self, op, res, text, line):
        """The arith dialect on scalars (MLIR's semantics; undefined behaviour is an error)."""
        env = self.env
        kind = op[6:]
        names = [n[1:] for n in re.findall(NAME, text.split(':')[0])]
        ty = text[text.rfind(':') + 1:].strip()
        if kind in ('index_cast', 'index_castui', 'extsi', 'extui', 'trunci', 'sitofp', 'uitofp',
                    'fptosi', 'fptoui', 'extf', 'truncf', 'bitcast'):
            src_ty, dst_ty = [x.strip() for x in ty.split(' to ')] if ' to ' in ty else (ty, ty)
            env[res[0]] = arith_cast(kind, src_ty, dst_ty, env[names[0]], lambda msg: self.fail(line, msg))
            return
        if kind == 'cmpi' or kind == 'cmpf':
            pm = re.match(r'\s*"?(\w+)"?\s*,', text)
            a, b = env[names[0]], env[names[1]]
            env[res[0]] = arith_cmp(kind, pm.group(1), ty, a, b)
            return
        if kind == 'select':
            c, a, b = (env[n] for n in names[:3])
            env[res[0]] = a if c & 1 else b
            return
        if kind == 'negf':
            env[res[0]] = float_round(ty, -env[names[0]])
            return
        a, b = env[names[0]], env[names[1]]
        env[res[0]] = arith_binary(kind, ty, a, b, lambda msg: self.fail(line, msg))

    def step(self, op, res, text, line):
        env = self.env
        if op == 'arith.constant':
            env[res[0]] = self.constant(text, line)
            return
        if op in ('return', 'func.return'):
            names = _l1_operands(text)
            for n in names:
                self.returned[n] = env[n]
            self.results = [env[n] for n in names]
            return
        if op in ('func.call', 'call'):
            # %r = func.call @g(%a, ...) : (...) -> ...: the callee runs on the caller's values
            # (tiles and memories are the same objects: written in place)
            m = re.match(r'\s*@([\w$.-]+)', text)
            callee = [f for f in self.funcs if m and f.name == m.group(1)]
            if not callee:
                self.fail(line, 'func.call: no callee')
            # (the verifier rejects recursion, so calls nest at most once per function)
            sub = Machine(callee[0], {}, {}, self.funcs)
            sub.spaces = self.spaces
            for (an, _), n in zip(callee[0].args, _l1_operands(text)):
                sub.env[an] = env[n]
            sub.run_block(split_ops(callee[0].body))
            for n, v in zip(res, sub.results):
                env[n] = v
            return
        if op in ('pto.load_scalar', 'pto.store_scalar'):
            # %v = pto.load_scalar %p[%i] : !pto.ptr<T> -> T; pto.store_scalar %v, %p[%i] : ...
            names = [n[1:] for n in re.findall(NAME, text.split(':')[0])]
            dt = re.search(r'!pto\.ptr<\s*(\w+)', text).group(1)
            if op == 'pto.load_scalar':
                mem, k = env[names[0]], self.int_of(names[1])
            else:
                mem, k = env[names[1]], self.int_of(names[2])
            if not isinstance(mem, Array) or not 0 <= k < len(mem.data):
                self.fail(line, '%s: element %d is outside the buffer' % (op, k))
            if op == 'pto.load_scalar':
                b = mem.data[k]
                env[res[0]] = to_float(dt, b) if is_float(dt) else sext(b, 8 * dsize(dt))
            else:
                v = env[names[0]]
                mem.data[k] = float_to_bits(dt, v) if is_float(dt) else from_int(dt, v)
            return
        if op == 'pto.alloc_tile':
            tt = parse_type(text[text.rfind(':') + 1:])
            vr = vc = None
            m = re.search(r'valid_row\s*=\s*(' + NAME + ')', text)
            if m:
                vr = self.scalar(m.group(1)[1:])
            m = re.search(r'valid_col\s*=\s*(' + NAME + ')', text)
            if m:
                vc = self.scalar(m.group(1)[1:])
            m = re.search(r'\baddr\s*=\s*(' + NAME + ')', text)
            if m:
                # Level 3: the tile's bytes are at that address of its memory space, shared
                # with every other tile placed over them (PTOAS's kernels alias on purpose)
                addr = self.scalar(m.group(1)[1:])
                mem = self.spaces.setdefault(tt.loc, bytearray(SPACE_BYTES))
                if not 0 <= addr <= len(mem) - tile_nbytes(tt):
                    self.fail(line, 'alloc_tile address %d outside the %s space' % (addr, tt.loc))
                env[res[0]] = Tile(tt, vr, vc, mem=mem, base=addr)
                return
            env[res[0]] = Tile(tt, vr, vc)
            return
        if op == 'pto.tassign':
            names = re.findall(NAME, text.split(':')[0])
            src = names[0][1:]
            if len(names) > 1:
                # Level 3 at a computed address: from here on the tile (and the result) is the
                # bytes at that address of its space, shared with every tile placed over them
                t = self.tile(src)
                addr = self.scalar(names[1][1:])
                mem = self.spaces.setdefault(t.tt.loc, bytearray(SPACE_BYTES))
                if not 0 <= addr <= len(mem) - tile_nbytes(t.tt):
                    self.fail(line, 'tassign address %d outside the %s space' % (addr, t.tt.loc))
                env[src] = Tile(t.tt, t.vr, t.vc, mem=mem, base=addr)
                if res:
                    env[res[0]] = env[src]
                return
            if res:
                env[res[0]] = env[src]          # the same buffer (placement only)
            return
        if op == 'pto.treshape':
            # %r = pto.treshape %src : T1 -> T2: T2 over the same bytes (PTOAS's rules)
            src = self.tile(re.findall(NAME, text)[0][1:])
            tt = parse_type(text[text.rfind('->') + 2:])
            if tt.loc != src.tt.loc:
                self.fail(line, 'treshape changes the loc')
            if tt.rows * tt.cols * dsize(tt.dtype) != src.tt.rows * src.tt.cols * dsize(src.tt.dtype):
                self.fail(line, 'treshape changes the total byte size')
            if (tt.slayout == 'none_box') != (src.tt.slayout == 'none_box'):
                self.fail(line, 'treshape between boxed and non-boxed layouts')
            env[res[0]] = Tile(tt, mem=src.mem, base=src.base)
            return
        if op == 'pto.subview':
            env[res[0]] = self.subview(text, line)
            return
        if op == 'pto.set_validshape':
            names = re.findall(NAME, text.split(':')[0])
            t = self.tile(names[0][1:])
            vr, vc = self.scalar(names[1][1:]), self.scalar(names[2][1:])
            if not (0 <= vr <= t.tt.rows and 0 <= vc <= t.tt.cols):
                self.fail(line, 'set_validshape outside the shape')
            t.vr, t.vc = vr, vc
            return
        if op == 'pto.make_tensor_view':
            ptr = re.findall(NAME, text)[0][1:]
            shape = [self.scalar(n[1:]) for n in
                     re.findall(NAME, re.search(r'shape\s*=\s*\[([^\]]*)\]', text).group(1))]
            m = re.search(r'strides\s*=\s*\[([^\]]*)\]', text)
            strides = [self.scalar(n[1:]) for n in re.findall(NAME, m.group(1))] if m else \
                [math.prod(shape[k + 1:]) for k in range(len(shape))]   # dense, row-major
            t = parse_type(text[text.rfind(':') + 1:])
            env[res[0]] = View(env[ptr], t[1], shape, strides)
            return
        if op == 'pto.partition_view':
            v = env[re.findall(NAME, text)[0][1:]]
            offs = [self.scalar(n[1:]) for n in
                    re.findall(NAME, re.search(r'offsets\s*=\s*\[([^\]]*)\]', text).group(1))]
            sizes = [self.scalar(n[1:]) for n in
                     re.findall(NAME, re.search(r'sizes\s*=\s*\[([^\]]*)\]', text).group(1))]
            for o, s, d in zip(offs, sizes, v.shape):
                if o < 0 or s < 0 or o + s > d:
                    self.fail(line, 'partition outside its tensor')
            if not len(offs) == len(sizes) == len(v.shape):
                self.fail(line, 'partition_view of rank %d with %d offsets' % (len(v.shape), len(offs)))
            base = v.base + sum(o * st for o, st in zip(offs, v.strides))
            env[res[0]] = View(v.mem, v.dtype, sizes, v.strides, base)
            return
        if op == 'pto.tload':
            if 'ins' in text:
                ins, outs = _ins_outs(text)
                view, tile = env[ins[0]], self.tile(outs[0])
            else:
                view = env[_l1_operands(text)[0]]
                tile = Tile(_l1_result_types(text)[0])
                env[res[0]] = tile
            op_tload(view, tile)
            return
        if op == 'pto.tstore':
            if 'ins' in text:
                ins, outs = _ins_outs(text)
                tile, view = self.tile(ins[0]), env[outs[0]]
            else:
                a = _l1_operands(text)
                tile, view = self.tile(a[0]), env[a[1]]
                ins = []
            relu = _attr(text, 'reluPreMode', 'relu_pre_mode') == 'normal_relu'
            word = self.scalar(ins[1]) if len(ins) > 1 and isinstance(env.get(ins[1]), int) else None
            op_tstore(tile, view, _attr(text, 'atomicType', 'atomic_type') == 'atomic_add', relu, word)
            return
        if op == 'pto.tprefetch':
            ins, outs = _ins_outs(text)
            op_tprefetch(env[ins[0]], self.tile(outs[0]))
            return
        if op in ('pto.mgather', 'pto.mscatter'):
            self.mgather_scatter(op, text, res)
            return
        if op == 'pto.tmov':
            ins, dst = self.one_out(text, res)
            relu = _attr(text, 'reluPreMode', 'relu_pre_mode') == 'normal_relu'
            if relu or (len(ins) > 1 and ins[1] in env and isinstance(env[ins[1]], int)):
                word = self.scalar(ins[1]) if len(ins) > 1 else None
                op_fix_window(self.tile(ins[0]), 0, 0, dst, relu, word, 'tmov')
            elif len(ins) > 1:
                op_tmov_zz(_attr(text, 'grpAxis', 'mx_group_axis') or 'axis1', self.tile(ins[0]), dst)
            else:
                op_tmov(self.tile(ins[0]), dst)
            return
        if op.startswith(('pto.tmatmul', 'pto.tgemv.')) and op != 'pto.tgemv.bias' or op == 'pto.tgemv':
            ins, dst = self.one_out(text, res)
            op_matmul_named(op, [self.tile(n) for n in ins], dst)
            return
        if op in ('pto.textract', 'pto.tinsert'):
            ins, dst = self.one_out(text, res)
            relu = _attr(text, 'reluPreMode', 'relu_pre_mode') == 'normal_relu'
            if len(ins) == 4 and isinstance(env.get(ins[3]), int) or relu and len(ins) == 3:
                word = self.scalar(ins[3]) if len(ins) == 4 else None
                op_fix_window(self.tile(ins[0]), self.scalar(ins[1]), self.scalar(ins[2]), dst, relu, word,
                              op[4:])
                return
            if len(ins) != 3:
                self.fail(line, '%s with an fp tile' % op)
            f = op_textract if op == 'pto.textract' else op_tinsert
            f(self.tile(ins[0]), self.scalar(ins[1]), self.scalar(ins[2]), dst)
            return
        if op == 'pto.ttrans':
            ins, dst = self.one_out(text, res)
            op_ttrans(self.tile(ins[0]), dst)
            return
        if op in ('pto.tgemv.bias', 'tgemv.bias'):
            ins, dst = self.one_out(text, res)
            op_tgemv_bias(self.tile(ins[0]), self.tile(ins[1]), self.tile(ins[2]), dst)
            return
        if op == 'pto.tdequant':
            ins, dst = self.one_out(text, res)
            op_tdequant(self.tile(ins[0]), self.tile(ins[1]), self.tile(ins[2]), dst)
            return
        if op in ('pto.tquant', 'pto.tquant.mx'):
            qt = _attr(text, 'quant_type', 'quant_type')
            alg = _attr(text, 'quantScaleAlg', 'quant_scale_alg') or 'ocp'
            axis = _attr(text, 'grpAxis', 'mx_group_axis') or 'axis1'
            l2 = re.search(r'\bins\s*\(', text) is not None
            if l2:
                ins, outs = _ins_outs(text)
                outt = [self.tile(n) for n in outs]
            else:
                ins = _l1_operands(text)
                outt = [Tile(t) for t in _l1_result_types(text)]
                for n, t in zip(res, outt):
                    env[n] = t
            mx = (len(outs) >= 4) if l2 else len(outt) >= 2
            if qt is None:
                if mx:
                    qt = 'MXFP4_E2M1' if outt[0].tt.dtype == '!pto.f4E2M1x2' else 'MXFP8'
                else:
                    qt = 'INT8_ASYM' if len(ins) == 3 else 'INT8_SYM'
            src = self.tile(ins[0])
            if qt.startswith('INT8'):
                off = self.tile(ins[2]) if len(ins) > 2 else None
                op_tquant_int8(qt, src, self.tile(ins[1]), off, outt[0])
            else:
                if l2:
                    d, e, m, s = outt[:4]
                    z = outt[4] if len(outt) > 4 else None
                else:
                    d, e = outt[:2]
                    z = outt[2] if len(outt) > 2 else None
                    m = s = None
                il = re.search(r'\binterleave\s*=\s*true\b', text) is not None
                if il and axis != 'axis0':
                    raise RefError('interleave needs grpAxis axis0')
                op_tquant_mx(qt, alg, axis, src, d, e, m, s, z, il)
            return
        if op == 'pto.tfillpad':
            ins, dst = self.one_out(text, res)
            op_tfillpad(self.tile(ins[0]), dst)
            return
        if op == 'pto.tgather' and 'maskPattern' in text:
            pat = re.search(r'mask_pattern<(P[01]{4})>', text).group(1)
            axis = re.search(r'"(row|col)"', text).group(1)
            src = re.search(r'\bins\s*\(\s*%([\w.$-]+)', text).group(1)
            dst = re.search(r'\bouts\s*\(\s*%([\w.$-]+)', text).group(1)
            op_tgather_mask(pat, axis, self.tile(src), self.tile(dst))
            return
        if op == 'pto.tscatter':
            ins, dst = self.one_out(text, res)
            if 'maskPattern' in text:
                op_tscatter_mask(re.search(r'mask_pattern<(P[01]{4})>', text).group(1),
                                 re.search(r'"(row|col)"', text).group(1), self.tile(ins[0]), dst)
            else:
                op_tscatter(self.tile(ins[0]), self.tile(ins[1]), dst)
            return
        if op == 'pto.thistogram':
            ins, dst = self.one_out(text, res)
            m = re.search(r'\bbyte\s*=\s*(\d+)', text)
            msb = re.search(r'\bisMSB\s*=\s*(true|false)', text)
            byte = int(m.group(1)) if m else (0 if msb and msb.group(1) == 'false' else 1)
            op_thistogram(byte, self.tile(ins[0]), self.tile(ins[1]), dst)
            return
        if op == 'pto.tconcat':
            ins, dst = self.one_out(text, res)
            op_tconcat(self.tile(ins[0]), self.tile(ins[1]), dst)
            return
        if op == 'pto.tsort32':
            ins, dst = self.one_out(text, res)
            op_tsort32(self.tile(ins[0]), self.tile(ins[1]), dst)
            return
        if op in ('pto.tgather', 'pto.tgatherb') and 'maskPattern' not in text:
            ins, dst = self.one_out(text, res)
            (op_tgather if op == 'pto.tgather' else op_tgatherb)(self.tile(ins[0]), self.tile(ins[1]), dst)
            return
        if op == 'pto.taxpy':
            ins, dst = self.one_out(text, res)
            op_taxpy(self.tile(ins[0]), self.scalar_bits(ins[1], dst.tt.dtype), dst)
            return
        if op in ('pto.taddc', 'pto.tsubc', 'pto.taddsc', 'pto.tsubsc'):
            ins, dst = self.one_out(text, res)
            t = [self.tile(n) if isinstance(self.env.get(n), Tile) else None for n in ins]
            mid = t[1] if t[1] is not None else self.scalar_bits(ins[1], dst.tt.dtype)
            op_tternary('add' if op.startswith('pto.tadd') else 'sub', t[0], mid, t[2], dst)
            return
        if op in ('pto.tcmp', 'pto.tcmps', 'pto.tsel', 'pto.tsels'):
            ins, dst = self.one_out(text, res)
            tiles = [self.tile(n) for n in ins if isinstance(self.env.get(n), Tile)]
            scal = [n for n in ins if not isinstance(self.env.get(n), Tile)]
            if op == 'pto.tcmp':
                op_tcmp(cmp_mode(text), tiles[0], tiles[1], None, dst)
            elif op == 'pto.tcmps':
                op_tcmp(cmp_mode(text), tiles[0], None, self.scalar_bits(scal[0], tiles[0].tt.dtype), dst)
            elif op == 'pto.tsel':
                op_tsel(tiles[0], tiles[1], tiles[2], None, dst)
            else:
                op_tsel(tiles[0], tiles[1], None, self.scalar_bits(scal[0], dst.tt.dtype), dst)
            return
        short = op[4:] if op.startswith('pto.') else op
        if short in VEC_OPS:
            self.vector_op(short, text, res, line)
            return
        self.fail(line, 'op %s is not modelled' % op)

    def vector_op(self, short, text, res, line):
        """The vector ops of docs/vector-ops.md, Level 1 or Level 2: tile operands in order,
        a scalar operand (tile-scalar ops, texpands, tci) wherever it stands, tmp ignored
        (except A2/A3's trsqrt, op_trsqrt_tmp)."""
        cls, vop = VEC_OPS[short]
        ins, dst = self.one_out(text, res)
        tiles = [self.tile(n) for n in ins if isinstance(self.env.get(n), Tile)]
        scal = [n for n in ins if not isinstance(self.env.get(n), Tile)]
        if short == 'trsqrt' and len(tiles) > 1 and ARCH != 'a5' and NUMERICS == 'hw':
            op_trsqrt_tmp(tiles[0], tiles[1], dst)
        elif cls in ('binary', 'unary'):
            n = 2 if cls == 'binary' else 1
            op_velementwise(cls, vop, tiles[:n], dst)
        elif cls == 'scalar':
            first = vop == 'div' and ins[0] in scal    # tdivs ins(%s, %tile ...): dst = s / tile
            op_velementwise('rscalar' if first else 'scalar', vop, tiles[:1], dst,
                            self.scalar_bits(scal[0], dst.tt.dtype))
        elif cls == 'expands':
            op_velementwise('expands', 'copy', [], dst, self.scalar_bits(scal[0], dst.tt.dtype))
        elif cls == 'rowreduce':
            op_vrowreduce(vop, tiles[0], dst)
        elif cls == 'colreduce':
            op_vcolreduce(vop, tiles[0], dst)
        elif cls in ('rowarg', 'colarg'):
            op_vargreduce(cls[:3], vop, tiles[0], dst)
        elif cls == 'rowexpand':
            op_vrowexpand(vop, tiles[0], tiles[1] if vop != 'copy' else None, dst)
        elif cls == 'colexpand':
            op_vcolexpand(vop, tiles[0], tiles[1] if vop != 'copy' else None, dst)
        elif cls == 'tcvt':
            rm = _attr(text, 'rmode', 'round_mode') or 'RINT'
            sat = (_attr(text, 'sat_mode', 'saturation_mode') or _attr(text, 'satmode', 'saturation_mode')
                   or 'OFF') == 'ON'
            op_tcvt(tiles[0], dst, rm, sat)
        elif cls == 'tci':
            desc = re.search(r'\bdescending\s*=\s*true\b', text) is not None
            op_tci(dst, to_int('i32', self.scalar_bits(scal[0], 'i32')), desc)


# ============================================================================================
# The rearrangement ops (docs/vector-ops.md, "Rearrangement"): where each element comes from
# ============================================================================================

def op_tgather(src, idx, dst):
    """Index form: dst[i][j] = src's element at flat index k = indices[i][j] read unsigned
    (row k // cols, column k % cols of src's physical shape); k >= rows * cols gives 0."""
    R, C = src.tt.rows, src.tt.cols
    vals = {}
    for r in range(dst.vr):
        for c in range(dst.vc):
            k = idx.get(r, c)
            vals[r, c] = src.get(k // C, k % C) if k < R * C else 0
    for (r, c), v in vals.items():
        dst.set(r, c, v)


MASK_PATTERNS = {'P0101': (2, 0), 'P1010': (2, 1), 'P0001': (4, 0), 'P0010': (4, 1),
                 'P0100': (4, 2), 'P1000': (4, 3), 'P1111': (1, 0)}


def mask_selects(pattern, k):
    step, at = MASK_PATTERNS[pattern]
    return k % step == at


def op_tgather_mask(pattern, axis, src, dst):
    """Mask-pattern form. Axis 'row': the selected columns of each valid row of src, in row
    order, fill dst's row-major storage from its first element; 'col': the selected rows
    become dst's rows 0, 1, ..."""
    picked = []
    if axis == 'row':
        for r in range(src.vr):
            picked += [src.get(r, c) for c in range(src.vc) if mask_selects(pattern, c)]
        for k, v in enumerate(picked):
            dst.set(k // dst.tt.cols, k % dst.tt.cols, v)
        return
    rows = [[src.get(r, c) for c in range(src.vc)] for r in range(src.vr) if mask_selects(pattern, r)]
    for i, row in enumerate(rows):
        for c, v in enumerate(row):
            dst.set(i, c, v)


def _zero_tile(t):
    for r in range(t.tt.rows):
        for c in range(t.tt.cols):
            t.set(r, c, 0)


def op_tscatter(src, idx, dst):
    """Index form (pto-isa's NPU kernels): dst is zeroed, then element k = idx[i][j] (unsigned)
    of dst's row-major storage gets src[i][j], row by row, so the last of equal k wins."""
    vals = [(idx.get(i, j), src.get(i, j)) for i in range(src.vr) for j in range(src.vc)]
    n = dst.tt.rows * dst.tt.cols
    if any(k >= n for k, _ in vals):
        raise RefError('tscatter index past dst')
    _zero_tile(dst)
    for k, v in vals:
        dst.set(k // dst.tt.cols, k % dst.tt.cols, v)


def op_tscatter_mask(pattern, axis, src, dst):
    """Mask-pattern form: with t the pattern's group (1, 2, 4) and p its selected position, axis
    'row' puts src[i][j] at dst[i][t j + p], 'col' src row i at dst row t i + p; the rest of
    dst is 0 (P1111 copies the valid region and keeps the rest)."""
    t = {'P1111': 1, 'P0101': 2, 'P1010': 2}.get(pattern, 4)
    p = next(k for k in range(4) if mask_selects(pattern, k))
    vals = [(i, j, src.get(i, j)) for i in range(src.vr) for j in range(src.vc)]
    if t > 1:
        _zero_tile(dst)
    for i, j, v in vals:
        dst.set(t * i + p if axis == 'col' else i, j if axis == 'col' else t * j + p, v)


def op_tgatherb(src, offs, dst):
    """32-byte block b of dst row i = src's bytes [o, o + 32) with o = offsets[i][b]; a
    block past src's bytes leaves dst's block as it was."""
    nbytes = tile_nbytes(src.tt)
    blocks = dst.vc * dst.size // 32
    out = {}
    for r in range(dst.vr):
        row0 = dst.base + dst.tt.offset(r, 0) * dst.size
        for b in range(blocks):
            o = offs.get(r, b)
            at = row0 + 32 * b
            out[at] = bytes(src.mem[src.base + o:src.base + o + 32]) if o + 32 <= nbytes else bytes(dst.mem[at:at + 32])
    for at, blk in out.items():
        dst.mem[at:at + 32] = blk


def arg_key(dt, bits):
    """The value an arg reduction compares: floats by value (NaN compares false), integers by
    their signedness."""
    if DTYPES[dt][3] == 'f':
        return to_float(dt, bits)
    return to_int(dt, bits)


def _arg_line(vals, is_min):
    """The first index of the extreme: later elements win only strictly."""
    best, at = vals[0], 0
    for k in range(1, len(vals)):
        x = vals[k]
        if (x < best) if is_min else (x > best):
            best, at = x, k
    return at


def op_vargreduce(axis, op, src, dst):
    """trowargmax ... tcolargmin: the index of each row's (column's) max or min as a 32-bit
    integer, ties to the lowest index (pto-isa's CPU simulator)."""
    dt = src.tt.dtype
    if axis == 'row':
        for r in range(src.vr):
            dst.set(r, 0, _arg_line([arg_key(dt, src.get(r, c)) for c in range(src.vc)], op == 'min'))
    else:
        for c in range(src.vc):
            dst.set(0, c, _arg_line([arg_key(dt, src.get(r, c)) for r in range(src.vr)], op == 'min'))


def op_tsort32(src, idx, dst):
    """Blocks of 32 columns of each valid row of src, each sorted by value descending (NaN
    first, -0 = +0), equal values by idx ascending; pair k of a row is dst row bytes
    [8k, 8k + 8): the value's bits (f16: then two zero bytes) and the u32 index. idx of one
    row serves every row."""
    dt = src.tt.dtype
    rows = []
    for r in range(src.vr):
        ir = 0 if idx.vr == 1 else r
        out = bytearray()
        for j in range(0, src.vc, 32):
            blk = []
            for k in range(j, min(src.vc, j + 32)):
                b = src.get(r, k)
                x = to_float(dt, b)
                nan = x != x
                blk.append((0 if nan else 1, 0.0 if nan else -x, idx.get(ir, k), b))
            blk.sort(key=lambda p: (p[0], p[1], p[2]))
            for _, _, ix, b in blk:
                out += b.to_bytes(4, 'little') + ix.to_bytes(4, 'little')
        rows.append(out)
    for r, out in enumerate(rows):
        at = dst.base + dst.tt.offset(r, 0) * dst.size
        dst.mem[at:at + len(out)] = out


def op_thistogram(byte, src, idx, dst):
    """Row r: the cumulative 256-bin histogram of byte `byte` of src row r's valid elements
    that pass the filter (u16: byte 0 counts only high bytes equal to idx[r][0]; u32: bytes
    above `byte` equal to idx[0][0], idx[1][0], idx[2][0] for bytes 3, 2, 1), into dst
    elements [256 r, 256 r + 256) counted from its first element in row-major order."""
    u16 = dsize(src.tt.dtype) == 2
    depth = (1 if byte == 0 else 0) if u16 else 3 - byte
    filt = [idx.get(k, 0) for k in range(depth)] if not u16 else []
    for r in range(src.vr):
        counts = [0] * 256
        for c in range(src.vc):
            x = src.get(r, c)
            if u16:
                ok = depth == 0 or (x >> 8) == idx.get(r, 0)
            else:
                ok = all(((x >> (8 * (3 - k))) & 0xFF) == filt[k] for k in range(depth))
            if ok:
                counts[(x >> (8 * byte)) & 0xFF] += 1
        run = 0
        for b in range(256):
            run += counts[b]
            k = 256 * r + b
            dst.set(k // dst.tt.cols, k % dst.tt.cols, run)


def op_tconcat(src0, src1, dst):
    """Row i of dst: src0's valid columns, then src1's."""
    rows = [[src0.get(r, c) for c in range(src0.vc)] + [src1.get(r, c) for c in range(src1.vc)]
            for r in range(dst.vr)]
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            dst.set(r, c, v)


def op_tprefetch(view, dst):
    """pto-isa's simulator: dst[r][c] = the view's element r * dst.cols + c, counted flat from
    the view's first element."""
    for r in range(dst.vr):
        for c in range(dst.vc):
            k = view.base + r * dst.tt.cols + c
            if not 0 <= k < len(view.mem.data):
                raise RefError('tprefetch reads element %d, outside the buffer' % k)
            dst.set(r, c, view.mem.data[k])


# mgather / mscatter (pto-isa's MGATHER / MSCATTER pages): a table in global memory, indices
# read as u32. Row mode: table row k (the view's second-to-last dimension) is elements
# base + k * strides[-2] + j * strides[-1]; elem mode: element k counted flat from the view's
# first element. An index at or past the capacity (rows, or all elements) is remapped by the
# out-of-bounds mode: clamp -> capacity - 1, wrap -> k mod capacity, zero -> 0 (gather),
# skip -> no write (scatter); undefined is an error here.

def _m_capacity(view, coalesce):
    return view.shape[-2] if coalesce == 'row' else math.prod(view.shape)


def _m_where(view, coalesce, oob, k, j):
    """The table element for index k (column j in row mode), or None (zero / skip)."""
    cap = _m_capacity(view, coalesce)
    if k >= cap:
        if oob == 'clamp':
            k = cap - 1
        elif oob == 'wrap':
            k %= cap
        elif oob in ('zero', 'skip'):
            return None
        else:
            raise RefError('index %d outside the table of %d' % (k, cap))
    a = view.base + (k * view.strides[-2] + j * view.strides[-1] if coalesce == 'row' else k)
    if not 0 <= a < len(view.mem.data):
        raise RefError('table element %d outside the buffer' % a)
    return a


def _m_index(idx, coalesce, i, j):
    """Row mode: the i-th 32-bit word of idx's storage (a tile) or of its first row (a view);
    elem mode: idx[i][j]. Unsigned."""
    if isinstance(idx, View):
        return idx.mem.data[idx.base + (i * idx.strides[-1] if coalesce == 'row'
                                        else i * idx.strides[-2] + j * idx.strides[-1])] & 0xFFFFFFFF
    if coalesce == 'row':
        k = idx.base + 4 * i
        return int.from_bytes(idx.mem[k:k + 4], 'little')
    return idx.get(i, j)


def op_mgather(coalesce, oob, view, idx, dst):
    out = {}
    for i in range(dst.vr):
        for j in range(dst.vc):
            a = _m_where(view, coalesce, oob, _m_index(idx, coalesce, i, j), j)
            out[i, j] = 0 if a is None else view.mem.data[a]
    for (i, j), v in out.items():
        dst.set(i, j, v)


def _m_combine(dt, atomic, old, x):
    if atomic == 'none':
        return x
    if atomic == 'add':
        if dt in ('f32', 'f16'):
            a, b = to_float(dt, old), to_float(dt, x)
            if math.isnan(a) or math.isnan(b) or (math.isinf(a) and math.isinf(b) and a != b):
                return QNAN[dt]
            if math.isinf(a) or math.isinf(b):
                return float_to_bits(dt, a + b)
            fr = Fraction(a) + Fraction(b)            # exact, then one rounding
            neg = fr < 0 or (fr == 0 and math.copysign(1, a) < 0 and math.copysign(1, b) < 0)
            return (F32 if dt == 'f32' else F16).encode_exact(neg, abs(fr), False)
        return (old + x) & 0xFFFFFFFF
    a, b = to_float(dt, old), to_float(dt, x)
    return x if (b > a if atomic == 'max' else b < a) else old


def op_mscatter(coalesce, atomic, oob, src, idx, view):
    """In row-major order over src's valid region: the last of equal indices wins, or the
    atomic op combines."""
    todo = []
    for i in range(src.vr):
        for j in range(src.vc):
            todo.append((_m_where(view, coalesce, oob, _m_index(idx, coalesce, i, j), j), src.get(i, j)))
    for a, x in todo:
        if a is not None:
            view.mem.data[a] = _m_combine(src.tt.dtype, atomic, view.mem.data[a], x)


# tfillpad's pad values (pto-isa's PadValueMap): the floats pad with infinities, the
# integers with their extremes, the 8-bit floats with 0
FILLPAD_FLOAT = {'f32': (0x7F800000, 0xFF800000), 'f16': (0x7C00, 0xFC00), 'bf16': (0x7F80, 0xFF80)}


def fillpad_value(dt, pad):
    if pad == 1:
        return 0
    if dt in FILLPAD_FLOAT:
        return FILLPAD_FLOAT[dt][0 if pad == 2 else 1]
    size, _, signed, kind = DTYPES.get(dt, (1, '', False, 'f'))
    if kind != 'i':
        return 0
    w = 8 * size
    if signed:
        return from_int(dt, (1 << (w - 1)) - 1 if pad == 2 else -(1 << (w - 1)))
    return (1 << w) - 1 if pad == 2 else 0


def op_tfillpad(src, dst):
    """Every element of dst's physical shape: src's inside src's valid region, else the pad
    value of dst's pad; nothing when dst's valid region is empty."""
    if dst.vr == 0 or dst.vc == 0:
        return
    keep = {(r, c): src.get(r, c) for r in range(src.vr) for c in range(src.vc)}
    pv = fillpad_value(dst.tt.dtype, dst.tt.pad)
    for r in range(dst.tt.rows):
        for c in range(dst.tt.cols):
            dst.set(r, c, keep.get((r, c), pv))


# op name -> (class, op) for Machine.vector_op
# ============================================================================================
# Compare and select (docs/vector-ops.md, "Compare and select"): the packed bit mask
# ============================================================================================
# Written from pto-isa's TCMP / TCMPS / TSEL / TSELS pages and the NPU code they name
# (include/pto/npu/a2a3, a5): the mask of row r starts at the mask tile's row r; data column c
# is bit c % 8, least significant first, of byte c / 8 of that row.

CMP_MODES = ('eq', 'ne', 'lt', 'le', 'gt', 'ge')


def cmp_mode(text):
    m = re.search(r'#pto<cmp\s+(\w+)>|#pto\.cmp<(\w+)>', text)
    return (m.group(1) or m.group(2)) if m else 'eq'


def _cmp(mode, x, y):
    """IEEE comparisons on exact values: a NaN is unequal to everything and unordered."""
    return {'eq': x == y, 'ne': x != y, 'lt': x < y, 'le': x <= y, 'gt': x > y, 'ge': x >= y}[mode]


def _row_byte(tile, r, j):
    """Index in tile.mem of byte j of tile's row r (a row-major tile)."""
    return tile.base + tile.tt.offset(r, 0) * tile.size + j


def op_tcmp(mode, src0, src1, scalar, dst):
    """dst's row r, byte j of its valid region: the results of columns 8j .. 8j + 7 of src0's
    valid columns (bit c % 8), the rest 0; rows both src0 and dst have valid. On A2/A3 32-bit
    integers compare for equality whatever the mode (ne: its inverse: vcmpv_eq, then vnot),
    and tcmps's 16-bit integers compare as the f16 values of their bits (vcmpvs on half)."""
    dt = src0.tt.dtype
    if ARCH != 'a5' and dsize(dt) == 4 and not is_float(dt):
        mode = 'ne' if mode == 'ne' else 'eq'
    vt = 'f16' if ARCH != 'a5' and src1 is None and dsize(dt) == 2 and not is_float(dt) else dt
    nbytes = dst.vc * dst.size
    s = to_float(vt, scalar) if src1 is None else None
    for r in range(min(src0.vr, dst.vr)):
        row = [0] * nbytes
        for c in range(src0.vc):
            if c // 8 >= nbytes:
                break
            x = to_float(vt, src0.get(r, c))
            y = to_float(vt, src1.get(r, c)) if src1 is not None else s
            if _cmp(mode, x, y):
                row[c // 8] |= 1 << (c % 8)
        k = _row_byte(dst, r, 0)
        dst.mem[k:k + nbytes] = bytes(row)


def op_tsel(mask, src0, src1, scalar, dst):
    """dst (r, c) = bit c of mask's row r ? src0 (r, c) : src1 (r, c) (tsels: the scalar's
    bits), over dst's valid region."""
    for r in range(dst.vr):
        for c in range(dst.vc):
            bit = (mask.mem[_row_byte(mask, r, c // 8)] >> (c % 8)) & 1
            dst.set(r, c, src0.get(r, c) if bit else (src1.get(r, c) if src1 is not None else scalar))


def op_tternary(op, src0, mid, src2, dst):
    """taddc / tsubc (MID a tile) and taddsc / tsubsc (MID the scalar's bits): pto-isa's CPU
    simulator's `src0 OP mid + src2`, left to right, each step rounded in the element type
    (integers wrap), over dst's valid region; every tile has dst's element type and valid
    shape (pto-isa's one TileData type)."""
    dt = dst.tt.dtype
    for s in (src0, mid, src2):
        if isinstance(s, Tile) and ((s.vr, s.vc) != (dst.vr, dst.vc) or s.tt.dtype != dt):
            raise RefError('t%sc: element types or valid shapes differ' % op)
    vals = {}
    for r in range(dst.vr):
        for c in range(dst.vc):
            m = mid.get(r, c) if isinstance(mid, Tile) else mid
            t = sim_two_nan(op, dt, src0.get(r, c), m)
            vals[r, c] = sim_two_nan('add', dt, t, src2.get(r, c))
    for (r, c), v in vals.items():
        dst.set(r, c, v)

def axpy_hw(dt, a, x, y):
    """One element of vaxpy, `a * x + y` fused: the exact value rounded once into dt (the ISA's
    vaxpy page: "a single fused operation"). A NaN operand gives that NaN quieted, the first of
    a, x, y; Inf * 0 and Inf - Inf give the default NaN."""
    ca, cx, cy = fclass(dt, a), fclass(dt, x), fclass(dt, y)
    for c, b in ((ca, a), (cx, x), (cy, y)):
        if c[0] == 'nan':
            return fquiet(dt, b)
    pneg = ca[1] != cx[1]
    zero = lambda c: c[0] == 'num' and c[2] == 0
    if (ca[0] == 'inf' and zero(cx)) or (cx[0] == 'inf' and zero(ca)):
        return DEFAULT_NAN[dt]
    pinf = ca[0] == 'inf' or cx[0] == 'inf'
    if pinf and cy[0] == 'inf':
        return finf(dt, pneg) if pneg == cy[1] else DEFAULT_NAN[dt]
    if pinf:
        return finf(dt, pneg)
    if cy[0] == 'inf':
        return y
    p = ca[2] * cx[2] * (-1 if pneg else 1)
    v = p + fval_exact(cy)
    if v == 0:   # an exact zero: -0 only when the product and y are both -0
        return fsigned(dt, pneg and p == 0 and cy[1] and cy[2] == 0, Fraction(0))
    return fsigned(dt, v < 0, abs(v))


def op_taxpy(src, a, dst):
    """dst = a * src + dst over dst's valid region (a: the scalar's bits in dst's type); an f16
    src with an f32 dst is widened exactly first. Hardware: vaxpy, rounded once; NUMERICS
    'sim': pto-isa's simulator, `dst + src * scalar` with each step rounded."""
    dt = dst.tt.dtype
    if (src.vr, src.vc) != (dst.vr, dst.vc):
        raise RefError('taxpy: valid shapes differ')
    for r in range(dst.vr):
        for c in range(dst.vc):
            x = src.get(r, c)
            if src.tt.dtype != dt:
                x = widen_f32(src.tt.dtype, x)
            y = dst.get(r, c)
            if NUMERICS == 'sim':
                v = sim_two_nan('add', dt, y, sim_two_nan('mul', dt, x, a))
            else:
                v = axpy_hw(dt, a, x, y)
            dst.set(r, c, v)

VEC_OPS = {'texpands': ('expands', 'copy'), 'tcvt': ('tcvt', '-'), 'tci': ('tci', '-'),
           'trowexpand': ('rowexpand', 'copy'), 'tcolexpand': ('colexpand', 'copy')}
for _o in ('add', 'sub', 'mul', 'div', 'max', 'min'):
    VEC_OPS['t' + _o] = ('binary', _o)
    VEC_OPS['t' + _o + 's'] = ('scalar', _o)
    VEC_OPS['trowexpand' + _o] = ('rowexpand', _o)
    VEC_OPS['tcolexpand' + _o] = ('colexpand', _o)
for _o in ('abs', 'neg', 'relu', 'sqrt', 'recip', 'rsqrt', 'exp', 'log', 'not'):
    VEC_OPS['t' + _o] = ('unary', _o)
for _o in BITWISE + ('pow', 'prelu', 'fmod', 'rem'):
    VEC_OPS['t' + _o] = ('binary', _o)
    VEC_OPS['t' + _o + 's'] = ('scalar', _o)
VEC_OPS['tlrelu'] = ('scalar', 'lrelu')    # the f32 slope rounded to the tile's type
for _o in ('sum', 'max', 'min'):
    VEC_OPS['trow' + _o] = ('rowreduce', _o)
    VEC_OPS['tcol' + _o] = ('colreduce', _o)
VEC_OPS['trowprod'] = ('rowreduce', 'prod')
VEC_OPS['tcolprod'] = ('colreduce', 'prod')
VEC_OPS['trowexpandexpdif'] = ('rowexpand', 'expdif')
VEC_OPS['tcolexpandexpdif'] = ('colexpand', 'expdif')
for _o in ('max', 'min'):
    VEC_OPS['trowarg' + _o] = ('rowarg', _o)
    VEC_OPS['tcolarg' + _o] = ('colarg', _o)


def tile_array(tile):
    return Array(DTYPES[tile.tt.dtype][1], (tile.tt.rows, tile.tt.cols), tile.elements())


def cmd_run(argv):
    import argparse
    ap = argparse.ArgumentParser(prog='ref.py run')
    ap.add_argument('file')
    ap.add_argument('--func')
    ap.add_argument('--in', dest='ins', action='append', default=[])
    ap.add_argument('--out', dest='outs', action='append', default=[])
    ap.add_argument('--arg', dest='args', action='append', default=[])
    ap.add_argument('--pto-arch', dest='arch', default='a3')
    ap.add_argument('--numerics', choices=('hw', 'sim'), default='hw')
    o = ap.parse_args(argv)
    with open(o.file, encoding='latin1') as f:
        text = f.read()
    funcs = parse_funcs(text)
    # ptoas's rule (docs/language.md 2): a module that names A5 is A5 whatever the flag
    global ARCH, NUMERICS
    NUMERICS = o.numerics
    names_a5 = re.search(r'pto\.target_arch\s*=\s*"a5"', text, re.I) or \
        re.search(r'"pto\.device-spec"\s*=\s*"(Ascend950|Ascend910_95)', text)
    ARCH = 'a5' if names_a5 else o.arch.lower()
    if o.func:
        cand = [fn for fn in funcs if fn.name == o.func]
    elif len(funcs) == 1:
        cand = funcs
    else:
        cand = [fn for fn in funcs if 'pto.entry' in fn.attrs]
    if len(cand) != 1:
        raise RefError('cannot choose the function to run')
    inputs = {}
    for s in o.ins:
        n, p = s.split('=', 1)
        if p.endswith('.bin'):
            with open(p, 'rb') as f:
                inputs[n.lstrip('%')] = f.read()
        else:
            inputs[n.lstrip('%')] = npy_read(p)
    scal = {}
    for s in o.args:
        n, v = s.split('=', 1)
        scal[n.lstrip('%')] = v
    mach = Machine(cand[0], inputs, scal, funcs)
    mach.run()
    for s in o.outs:
        n, p = s.split('=', 1)
        n = n.lstrip('%')
        v = mach.returned.get(n, mach.env.get(n))
        if isinstance(v, Tile):
            npy_write(p, tile_array(v))
        elif isinstance(v, Array):
            npy_write(p, v)
        else:
            raise RefError("no result or buffer argument named '%%%s'" % n)
    return 0


# ============================================================================================
# Self-test: every worked vector of docs/numerics.md, and the routines checked against each other
# ============================================================================================

def _src_bits(dt, x):
    return float_to_bits(dt, x)


def _mx_row(vals, dt, fmt, alg):
    """Run one axis1 group row of 32 through the op and return (e, codes)."""
    tt = TType(2, 'vec', dt, 1, 32, 1, 32)
    src = Tile(tt)
    for c, x in enumerate(vals):
        src.set(0, c, _src_bits(dt, x))
    if fmt == 'fp8':
        dst = Tile(TType(2, 'vec', 'f8E4M3FN', 1, 32, 1, 32))
    else:
        dst = Tile(TType(2, 'vec', '!pto.f4E2M1x2', 1, 32, 1, 16))
    exp = Tile(TType(2, 'vec', 'ui8', 1, 32, 1, 1))
    mx = Tile(TType(2, 'vec', dt, 1, 32 // dsize(dt), 1, 1))
    sc = Tile(TType(2, 'vec', dt, 1, 32 // dsize(dt), 1, 1))
    op_tquant_mx('MXFP8' if fmt == 'fp8' else 'MXFP4_E2M1', alg, 'axis1', src, dst, exp, mx, sc,
                 None)
    return exp.get(0, 0), [dst.get(0, c) for c in range(dst.vc)], mx.get(0, 0), sc.get(0, 0)


def self_test():
    fails = []

    def check(what, got, want):
        if got != want:
            fails.append('%s: got %r, want %r' % (what, got, want))

    # ---- docs/numerics.md section 1 worked vectors (groups of 32, unlisted elements +0) ----
    table = [
        ([448, -448, 1, 0.5, -0.0], 'f32 f16 bf16', 'ocp nv', 'fp8', 0x7F, [0x7E, 0xFE, 0x38, 0x30, 0x80]),
        ([1.0, -0.25, 0.1, 0.0078125], 'f32 f16 bf16', 'ocp nv', 'fp8', 0x77, [0x78, 0xE8, 0x5D, 0x40]),
        ([480, -240, 1, 3], 'f32 f16 bf16', 'ocp', 'fp8', 0x7F, [0x7E, 0xF7, 0x38, 0x44]),
        ([480, -240, 1, 3], 'f32 f16 bf16', 'nv', 'fp8', 0x80, [0x77, 0xEF, 0x30, 0x3C]),
        ([65504, -1, 0.5], 'f32 f16', 'ocp', 'fp8', 0x86, [0x7E, 0x84, 0x02]),
        ([65504, -1, 0.5], 'f32 f16', 'nv', 'fp8', 0x87, [0x78, 0x82, 0x01]),
        ([6, -6, 3, -0.25, 0.75, 1.25], 'f16 bf16', 'ocp nv', 'fp4', 0x7F, [0xF7, 0x85, 0x22]),
        ([7, -3.5, 5, 1], 'f16 bf16', 'ocp', 'fp4', 0x7F, [0x7 | 0xE << 4, 0x6 | 0x2 << 4]),
        ([7, -3.5, 5, 1], 'f16 bf16', 'nv', 'fp4', 0x80, [0x6 | 0xC << 4, 0x4 | 0x1 << 4]),
    ]
    for vals, dts, algs, fmt, e_want, codes_want in table:
        for dt in dts.split():
            for alg in algs.split():
                # the row must hold exactly in the src dtype ("src" column of the table)
                for x in vals:
                    if x != 0.1:    # 0.1 is rounded to the src dtype (the codes hold for every one)
                        check('vector %r exact in %s' % (vals, dt), to_float(dt, _src_bits(dt, x)), float(x))
                e, codes, _, _ = _mx_row(vals + [0.0] * (32 - len(vals)), dt, fmt, alg)
                tag = '%s %s %s %r' % (dt, alg, fmt, vals)
                check(tag + ' e', e, e_want)
                check(tag + ' codes', codes[:len(codes_want)], codes_want)
                check(tag + ' rest', codes[len(codes_want):], [0] * (len(codes) - len(codes_want)))
    for dt in ('f32', 'f16', 'bf16'):
        for alg in ('ocp', 'nv'):
            for fmt in ('fp8', 'fp4'):
                if fmt == 'fp4' and dt == 'f32':
                    continue
                e, codes, mb, sb = _mx_row([0.0] * 32, dt, fmt, alg)
                check('all zero %s %s %s' % (dt, alg, fmt), (e, codes, mb), (0, [0] * len(codes), 0))
    # exponent rules in words: 448 -> 0x7F, 1.0 -> 0x77 (fp8) / 0x7D (fp4), zero and subnormal
    # maxima -> 0, +Inf -> 0xF7 (fp8) / 0xFD (fp4); NV never clips; NV Inf -> 0xFE
    check('ocp 448', mx_exponent(448.0, 'fp8', 'ocp'), 0x7F)
    check('ocp 1 fp8', mx_exponent(1.0, 'fp8', 'ocp'), 0x77)
    check('ocp 1 fp4', mx_exponent(1.0, 'fp4', 'ocp'), 0x7D)
    check('ocp subnormal', mx_exponent(f32_val(0x00000123), 'fp8', 'ocp'), 0)
    check('ocp inf fp8', mx_exponent(INF, 'fp8', 'ocp'), 0xF7)
    check('ocp inf fp4', mx_exponent(INF, 'fp4', 'ocp'), 0xFD)
    check('nv inf', mx_exponent(INF, 'fp8', 'nv'), 0xFE)
    check('nv max finite', mx_exponent(f32_val(0x7F7FFFFF), 'fp8', 'nv'), 0xF7)
    check('scale e=254', f32_bits(mx_scale(254)), 0x00400000)
    check('scale e=0', mx_scale(0), 2.0 ** 127)
    check('scale e=0x7F', mx_scale(0x7F), 1.0)
    check('NV K fp8', f32_bits(K_NV['fp8']), f32_bits(f32(1 / 448)))
    # an Inf element encodes as +-max; a NaN poisons the group
    e, codes, mb, sb = _mx_row([INF, -INF, 1.0] + [0.0] * 29, 'f32', 'fp8', 'nv')
    check('inf group', (e, codes[:3]), (0xFE, [0x7E, 0xFE, 0x00]))
    e, codes, mb, sb = _mx_row([NAN, -1.0] + [0.0] * 30, 'f16', 'fp8', 'ocp')
    check('nan group', (e, codes, mb, sb), (0xFF, [0x7F] * 32, 0x7E00, 0x7E00))
    e, codes, mb, sb = _mx_row([1.0, NAN] + [0.0] * 30, 'bf16', 'fp4', 'nv')
    check('nan group fp4', (e, codes, mb, sb), (0xFF, [0x77] * 16, 0x7FC0, 0x7FC0))
    # the scaling tile: f16 s > 65504 is +Inf, s <= 2^-25 is +0; f32 exact
    check('f16 scaling of 2^16', F16.encode(2.0 ** 16), 0x7C00)
    check('f16 scaling of 2^-25', F16.encode(2.0 ** -25), 0x0000)
    check('f16 scaling of 2^-24', F16.encode(2.0 ** -24), 0x0001)
    _, _, _, sb = _mx_row([2.0 ** -20] + [0.0] * 31, 'f16', 'fp8', 'ocp')
    check('f16 scaling tile of s = 2^28', sb, 0x7C00)
    _, _, _, sb = _mx_row([2.0 ** -125] + [0.0] * 31, 'f32', 'fp8', 'ocp')
    check('f32 scaling tile of s = 2^127', sb, 0x7F000000)
    # e4m3 and e2m1 encoders
    check('e4m3 464', E4M3.encode(464.0, True), 0x7E)
    check('e4m3 -1e9', E4M3.encode(-1e9, True), 0xFE)
    check('e4m3 2^-10 (tie to 0)', E4M3.encode(2.0 ** -10, True), 0x00)
    check('e4m3 -2^-10 keeps sign', E4M3.encode(-(2.0 ** -10), True), 0x80)
    check('e4m3 3*2^-10 (tie to 2^-8)', E4M3.encode(3 * 2.0 ** -10, True), 0x02)
    check('e4m3 240', E4M3.encode(240.0, True), 0x77)
    check('e4m3 subnormal max', E4M3.encode(7 * 2.0 ** -9, True), 0x07)
    for code in range(256):
        if code & 0x7F != 0x7F:
            check('e4m3 round trip %#x' % code, E4M3.encode(E4M3.decode(code), True), code)
    for code in range(16):
        check('e2m1 round trip %#x' % code, E2M1.encode(E2M1.decode(code), True), code)
    check('e2m1 values', [E2M1.decode(c) for c in range(8)], [0, 0.5, 1, 1.5, 2, 3, 4, 6])
    check('e2m1 0.25 -> 0', E2M1.encode(0.25, True), 0)
    check('e2m1 2.5 -> 2', E2M1.encode(2.5, True), 4)
    check('e2m1 5 -> 4', E2M1.encode(5.0, True), 6)
    check('e2m1 -100 -> -6', E2M1.encode(-100.0, True), 0xF)
    check('e5m2 decode', [E5M2.decode(0x7C), E5M2.decode(0xFC), E5M2.decode(0x3C)], [INF, -INF, 1.0])
    check('e5m2 NaN', all(math.isnan(E5M2.decode(c)) for c in (0x7D, 0x7E, 0x7F, 0xFD, 0xFF)), True)
    check('e4m3 NaN', math.isnan(E4M3.decode(0x7F)) and math.isnan(E4M3.decode(0xFF)), True)
    # bf16 and f16 RNE against struct's half-precision packer
    import random
    rng = random.Random(1234)
    for _ in range(3000):
        x = f32_val(rng.getrandbits(32))
        if not math.isfinite(x):
            continue
        try:
            want = struct.unpack('<H', struct.pack('<e', x))[0]
        except OverflowError:
            want = 0xFC00 if x < 0 else 0x7C00
        check('f16 encode %r' % x, F16.encode(x), want)
        check('f32 exact encode %r' % x, F32.encode(x), f32_bits(x))
        b = f32_bits(x)
        lo = b & 0xFFFF
        up = (b >> 16) + (1 if lo > 0x8000 or (lo == 0x8000 and (b >> 16) & 1) else 0)
        if (up & 0x7F80) == 0x7F80 and (b & 0x7F800000) != 0x7F800000:
            up = (up & 0x8000) | 0x7F80
        check('bf16 encode %r' % x, BF16.encode(x), up)
    # ---- section 2: INT8 ----
    check('rint', [rint_clamp(v, -128, 127) for v in (2.5, -2.5, 0.5, 1.5, -0.5, 126.5, 127.5, 1e9,
                                                      -1e9, INF, -INF, NAN)],
          [2, -2, 0, 2, 0, 126, 127, 127, -128, 127, -128, 0])
    tt = TType(2, 'vec', 'f32', 1, 8, 1, 8)
    src, sc, off = Tile(tt), Tile(TType(2, 'vec', 'f32', 1, 8, 1, 1)), Tile(TType(2, 'vec', 'f32', 1, 8, 1, 1))
    xs = [2.5, -2.5, 0.5, NAN, INF, -INF, 300.0, -0.0]
    for c, x in enumerate(xs):
        src.set(0, c, float_to_bits('f32', x))
    sc.set(0, 0, f32_bits(1.0))
    off.set(0, 0, f32_bits(128.0))
    q = Tile(TType(2, 'vec', 'i8', 1, 32, 1, 8))
    op_tquant_int8('INT8_SYM', src, sc, None, q)
    check('INT8_SYM', [to_int('i8', q.get(0, c)) for c in range(8)], [2, -2, 0, 0, 127, -128, 127, 0])
    q = Tile(TType(2, 'vec', 'ui8', 1, 32, 1, 8))
    op_tquant_int8('INT8_ASYM', src, sc, off, q)
    check('INT8_ASYM', [q.get(0, c) for c in range(8)], [130, 126, 128, 0, 255, 0, 255, 128])
    # ASYM: x*s and +z are two roundings: (1.5 + 2^-23) * (1 - 2^-24) = 1.5 + 2^-25 - 2^-47 rounds
    # to 1.5, + 1 = 2.5, rint 2 (one fused rounding would give 2.5 + 2^-25 -> 3)
    x, s = f32_val(0x3FC00001), f32_val(0x3F7FFFFF)
    check('ASYM two roundings', rint_clamp(fadd(fmul(x, s), 1.0), 0, 255), 2)
    # ---- section 3: tdequant ----
    check('dequant', fmul(fsub(float(-128), 0.5), 0.25), -32.125)
    # ---- section 4: fmaf exactly rounded (a case binary64 would double-round) ----
    a, b, c = f32_val(0x33800001), f32_val(0x3F7FFFFE), f32_val(0x3F800001)
    check('fmaf exact rounding', f32_bits(fmaf(a, b, c)), 0x3F800001)
    check('fmaf via binary64 would give', f32_bits(f32(a * b + c)), 0x3F800002)
    check('fmaf zero signs', [math.copysign(1, fmaf(-0.0, 1.0, -0.0)), math.copysign(1, fmaf(-0.0, 1.0, 0.0)),
                              math.copysign(1, fmaf(1.0, 1.0, -1.0))], [-1.0, 1.0, 1.0])
    check('fmaf overflow', fmaf(f32_val(0x7F7FFFFF), 2.0, 0.0), INF)
    check('fmaf underflow', f32_bits(fmaf(2.0 ** -100, 2.0 ** -60, 0.0)), 0)
    check('fmaf subnormal', f32_bits(fmaf(2.0 ** -100, 2.0 ** -49, 0.0)), 1)
    for _ in range(2000):
        a = f32_val(rng.getrandbits(32) & 0xBFFFFFFF)   # moderate exponents
        b = f32_val(rng.getrandbits(32) & 0xBFFFFFFF)
        c = f32_val(rng.getrandbits(32) & 0xBFFFFFFF)
        if not all(map(math.isfinite, (a, b, c))):
            continue
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        want = f32_exact(exact < 0, abs(exact)) if exact != 0 else 0.0
        check('fmaf random', f32_bits(fmaf(a, b, c)), f32_bits(want))
        exact = Fraction(a) * Fraction(b)
        check('fmul random', f32_bits(fmul(a, b)), f32_bits(f32_exact(exact < 0, abs(exact))) if exact else f32_bits(fmul(a, b)))
        exact = Fraction(a) + Fraction(c)
        if exact != 0:
            check('fadd random', f32_bits(fadd(a, c)), f32_bits(f32_exact(exact < 0, abs(exact))))
    # i8 gemv wraps modulo 2^32 after the bias
    ta = Tile(TType(2, 'left', 'i8', 1, 32, 1, 2))
    tb = Tile(TType(2, 'right', 'i8', 32, 32, 2, 1))
    tbias = Tile(TType(2, 'bias', 'i32', 1, 8, 1, 1))
    tc = Tile(TType(2, 'acc', 'i32', 16, 16, 1, 1))
    ta.set(0, 0, from_int('i8', -128)); ta.set(0, 1, from_int('i8', -128))
    tb.set(0, 0, from_int('i8', -128)); tb.set(1, 0, from_int('i8', 127))
    tbias.set(0, 0, from_int('i32', 2 ** 31 - 1))
    op_tgemv_bias(ta, tb, tbias, tc)
    check('i8 gemv wraps', to_int('i32', tc.get(0, 0)), (2 ** 31 - 1 + 128 * 128 - 128 * 127) - 2 ** 32)
    # ---- docs/cube.md 3.4: the cube's worked values ----
    ma = Tile(TType(2, 'left', 'f32', 1, 8, 1, 3))
    mb = Tile(TType(2, 'right', 'f32', 3, 8, 3, 1))
    mx_ = Tile(TType(2, 'acc', 'f32', 16, 16, 1, 1))
    mc = Tile(TType(2, 'acc', 'f32', 16, 16, 1, 1))
    for k, (x, y) in enumerate(zip((-1.0, 1 + 2 ** -12, 1.0), (1 + 2 ** -11, 1 + 2 ** -12, 0.0))):
        ma.set(0, k, f32_bits(x)); mb.set(k, 0, f32_bits(y))
    op_matmul(ma, mb, mc)
    check('tmatmul chain', mc.val(0, 0), 2.0 ** -24)
    mx_.set(0, 0, f32_bits(1.0))
    op_matmul(ma, mb, mc, acc=mx_)
    check('tmatmul.acc tie', mc.val(0, 0), 1.0)
    ma.set(0, 0, 0xFF811111)
    op_matmul(ma, mb, mc)
    check('tmatmul default NaN', mc.get(0, 0), MM_QNAN)
    ia = Tile(TType(2, 'left', 'i8', 1, 32, 1, 2))
    ib = Tile(TType(2, 'right', 'i8', 32, 32, 2, 1))
    ix = Tile(TType(2, 'acc', 'i32', 16, 16, 1, 1))
    ic = Tile(TType(2, 'acc', 'i32', 16, 16, 1, 1))
    ia.set(0, 0, from_int('i8', 127)); ia.set(0, 1, from_int('i8', -128))
    ib.set(0, 0, from_int('i8', -128)); ib.set(1, 0, from_int('i8', -128))
    ix.set(0, 0, from_int('i32', 2 ** 31 - 1))
    op_matmul(ia, ib, ic, acc=ix)
    check('tmatmul i8 wraps', to_int('i32', ic.get(0, 0)), -2147483521)
    fa = Tile(TType(2, 'left', 'f8E4M3FN', 1, 64, 1, 1))
    fb = Tile(TType(2, 'right', 'f8E5M2', 64, 32, 1, 1))
    sa_ = Tile(TType(2, 'scaling', 'ui8', 1, 32, 1, 1))
    sb_ = Tile(TType(2, 'scaling', 'ui8', 2, 32, 1, 1))
    fc = Tile(TType(2, 'acc', 'f32', 16, 16, 1, 1))
    fa.set(0, 0, 0x3C); fb.set(0, 0, 0x40); sa_.set(0, 0, 126); sb_.set(0, 0, 130)
    op_matmul(fa, fb, fc, sa=sa_, sb=sb_)
    check('tmatmul.mx', fc.val(0, 0), 12.0)
    # ---- section 5: layouts ----
    R, G = 32, 4
    zz = TType(2, 'vec', 'ui8', R, G, R, G, 'row_major', 'row_major', 32)
    for r in range(R):
        for c in range(G):
            check('ZZ (%d,%d)' % (r, c), zz.offset(r, c), ((r // 16 * G // 2 + c // 2) * 16 + r % 16) * 2 + c % 2)
    nz = TType(2, 'vec', 'f8E4M3FN', 64, 128, 64, 128, 'col_major', 'row_major', 512)
    check('NZ box', nz.box(), (16, 32))
    check('NZ (17, 33)', nz.offset(17, 33), 1 * 64 * 32 + 1 * 16 * 32 + 1 * 32 + 1)
    dn = TType(2, 'vec', 'ui8', 4, 64, 4, 64, 'col_major', 'col_major', 32)
    check('DN->ZZ box', dn.box(), (2, 16))
    offs = sorted(dn.offset(r, c) for r in range(4) for c in range(64))
    check('NN is a permutation', offs, list(range(256)))
    for t in (TType(2, 'vec', 'f16', 32, 64, 32, 64, 'col_major', 'row_major', 512),
              TType(2, 'vec', 'f32', 32, 32, 32, 32, 'row_major', 'col_major', 1024),
              TType(2, 'vec', 'f32', 8, 32, 8, 32, 'col_major', 'none_box'),
              TType(2, 'vec', 'f32', 8, 32, 8, 32, 'row_major', 'none_box', compact=2)):
        offs = sorted(t.offset(r, c) for r in range(t.rows) for c in range(t.cols))
        if t.compact != 2:
            check('layout permutation %s/%s' % (t.blayout, t.slayout), offs, list(range(t.rows * t.cols)))
        else:
            check('row_plus_one', t.offset(1, 0), 33)
    # ---- docs/vector-ops.md worked vectors ----
    fb = lambda x: f32_bits(x)                                           # noqa: E731
    hb = lambda x: F16.encode(x)                                         # noqa: E731
    bb = lambda x: BF16.encode(x)                                        # noqa: E731
    check('0.1f + 0.2f', vec_binary('add', 'f32', fb(f32(0.1)), fb(f32(0.2))), 0x3E99999A)
    check('2^24 + 1', vec_binary('add', 'f32', fb(2.0 ** 24), fb(1.0)), 0x4B800000)
    check('-0 + 0', vec_binary('add', 'f32', 0x80000000, 0), 0)
    check('-0 + -0', vec_binary('add', 'f32', 0x80000000, 0x80000000), 0x80000000)
    check('1 - 1', vec_binary('sub', 'f32', fb(1.0), fb(1.0)), 0)
    check('3 / -0', vec_binary('div', 'f32', fb(3.0), 0x80000000), 0xFF800000)
    check('0 / 0', vec_binary('div', 'f32', 0, 0), 0xFFC00000)
    check('i32 -7 / 2, 7 / -2, INT32_MIN / -1', [to_int('i32', vec_binary('div', 'i32', from_int('i32', a), from_int('i32', b)))
                                             for a, b in ((-7, 2), (7, -2), (-2 ** 31, -1))], [-3, -3, -2 ** 31])
    check('i16 -32768 / -1, ui16 65535 / 2', [vec_binary('div', 'i16', 0x8000, 0xFFFF), vec_binary('div', 'ui16', 0xFFFF, 2)],
          [0x8000, 0x7FFF])
    check('1e30 + 1e30', vec_binary('add', 'f32', fb(f32(1e30)), fb(f32(1e30))), 0x71C9F2CA)
    check('Inf - Inf', vec_binary('sub', 'f32', 0x7F800000, 0x7F800000), 0xFFC00000)
    check('0 * -Inf', vec_binary('mul', 'f32', 0, 0xFF800000), 0xFFC00000)
    check('NaN + NaN: the left one, quieted', vec_binary('add', 'f32', 0x7F800001, 0x7FC00002), 0x7FC00001)
    check('1 * sNaN', vec_binary('mul', 'f32', fb(1.0), 0xFF800005), 0xFFC00005)
    check('f16 1 + 2^-11 (tie, even)', vec_binary('add', 'f16', hb(1.0), hb(2.0 ** -11)), 0x3C00)
    check('f16 1 + 3*2^-11', vec_binary('add', 'f16', hb(1.0), hb(3 * 2.0 ** -11)), 0x3C02)
    check('f16 65504 + 16', vec_binary('add', 'f16', 0x7BFF, hb(16.0)), 0x7C00)
    check('f16 2^-24 + 2^-24', vec_binary('add', 'f16', 1, 1), 0x0002)
    check('f16 0x2E66^2', vec_binary('mul', 'f16', 0x2E66, 0x2E66), 0x211E)
    check('f16 sNaN + 1', vec_binary('add', 'f16', 0x7C01, hb(1.0)), 0x7E01)
    check('bf16 1 + 2^-8', vec_binary('add', 'bf16', bb(1.0), bb(2.0 ** -8)), 0x3F80)
    check('bf16 1 + 3*2^-8', vec_binary('add', 'bf16', bb(1.0), bb(3 * 2.0 ** -8)), 0x3F82)
    check('bf16 3 * 1.5', vec_binary('mul', 'bf16', bb(3.0), bb(1.5)), 0x4090)
    check('i8 100 * 100', vec_binary('mul', 'i8', 100, 100), 0x10)
    check('i8 100 + 100', vec_binary('add', 'i8', 100, 100), 0xC8)
    check('i8 -128 * -1', vec_binary('mul', 'i8', 0x80, 0xFF), 0x80)
    check('i32 INT32_MIN - 3', vec_binary('sub', 'i32', 0x80000000, 3), 0x7FFFFFFD)
    check('u16 max(0xFFFF, 1)', vec_binary('max', 'ui16', 0xFFFF, 1), 0xFFFF)
    check('i16 max(-1, 1)', vec_binary('max', 'i16', 0xFFFF, 1), 1)
    check('tmax(-0, +0)', vec_binary('max', 'f32', 0x80000000, 0), 0x80000000)
    check('tmax(+0, -0)', vec_binary('max', 'f32', 0, 0x80000000), 0)
    check('tmax(NaN, 1)', vec_binary('max', 'f32', 0x7FC00000, fb(1.0)), 0x7FC00000)
    check('tmax(1, NaN)', vec_binary('max', 'f32', fb(1.0), 0x7FC00000), fb(1.0))
    check('tmin(1, NaN)', vec_binary('min', 'f32', fb(1.0), 0x7FC00000), fb(1.0))
    check('rsqrt(2)', vec_unary('rsqrt', 'f32', fb(2.0)), 0x3F3504F3)
    # trsqrt per arch: x = 1.1506855 (0x3F9349AA). A5 rounds sqrt(x) to 1.0727001 (0x3F894E3D)
    # and 1 / 1.0727001 lies 0.18 of the way from 0x3F6EA66D to 0x3F6EA66E: 0x3F6EA66D. The
    # binary64 1 / sqrt(x) lies 0.5000016 of the way: 0x3F6EA66E (a3).
    global ARCH
    check('rsqrt a5 0x3F9349AA', vec_unary('rsqrt', 'f32', 0x3F9349AA), 0x3F6EA66D)
    ARCH = 'a3'
    check('rsqrt a3 0x3F9349AA', vec_unary('rsqrt', 'f32', 0x3F9349AA), 0x3F6EA66E)
    check('rsqrt(2) a3', vec_unary('rsqrt', 'f32', fb(2.0)), 0x3F3504F3)
    ARCH = 'a5'
    # --numerics=sim (docs/numerics.md 9), worked from the simulator's sources: trsqrt is the
    # binary64 formula on a5 too; tcvt into floats ignores the mode (f32 -> f32 copies); ODD
    # into integers is nearest with ties to odd; saturation stores the bound back into the
    # source type (2147483647 -> 2^31, f16 32767 -> 32768) before x86's cast.
    global NUMERICS
    NUMERICS = 'sim'
    check('sim rsqrt a5 0x3F9349AA', vec_unary('rsqrt', 'f32', 0x3F9349AA), 0x3F6EA66E)
    check('sim tcvt f32 -> f16 TRUNC 1.0014658', cvt_elem('f32', 'f16', 0x3F803008, 'TRUNC', False), 0x3C02)
    check('sim tcvt f32 -> f32 RINT 2.5', cvt_elem('f32', 'f32', fb(2.5), 'RINT', False), fb(2.5))
    check('sim tcvt f32 -> i32 ODD 2.5 -2.5 1.5 0.5', [to_int('i32', cvt_elem('f32', 'i32', fb(x), 'ODD', False))
                                                       for x in (2.5, -2.5, 1.5, 0.5)], [3, -3, 1, 1])
    check('sim tcvt f32 -> i32 sat 3e9 NaN -Inf', [cvt_elem('f32', 'i32', b, 'RINT', True)
                                                   for b in (fb(3e9), 0x7FC00000, 0xFF800000)],
          [0x80000000, 0x80000000, 0x80000000])
    check('sim tcvt f16 -> i16 sat 40000 NaN 32752', [cvt_elem('f16', 'i16', b, 'RINT', True)
                                                       for b in (0x78E2, 0x7E00, 0x77FF)],
          [0x8000, 0x8000, 0x7FF0])
    check('sim tadd two NaNs', sim_two_nan('add', 'f32', 0x7FC00011, 0xFFA00022), 0xFFE00022)
    NUMERICS = 'hw'
    check('tcvt f16 -> i16 sat 40000 NaN', [cvt_elem('f16', 'i16', b, 'RINT', True) for b in (0x78E2, 0x7E00)],
          [0x7FFF, 0x7FFF])
    check('sqrt(2)', vec_unary('sqrt', 'f32', fb(2.0)), 0x3FB504F3)
    check('recip(3)', vec_unary('recip', 'f32', fb(3.0)), 0x3EAAAAAB)
    check('exp(0), exp(1), exp(-100), exp(100)', [vec_unary('exp', 'f32', x) for x in
                                                  (0, fb(1.0), fb(-100.0), fb(100.0))],
          [0x3F800000, 0x402DF854, 0x1B, 0x7F800000])
    check('exp(-Inf), exp(+Inf), exp(NaN)', [vec_unary('exp', 'f32', x) for x in (0xFF800000, 0x7F800000, 0x7FA00000)],
          [0, 0x7F800000, 0x7FE00000])
    check('f16 exp(1), exp(12)', [vec_unary('exp', 'f16', 0x3C00), vec_unary('exp', 'f16', 0x4A00)], [0x4170, 0x7C00])
    # ln 2 = 0.6931471805..., f32 0x3F317218; ln(e rounded to f32, 0x402DF854) = 1 - 3.04e-8, below
    # the midpoint 1 - 2^-25, so 1 - 2^-24; f16 ln 2 = 1.386294 * 2^-1 -> mantissa 395.57 -> 396,
    # ln 65504 = ln 2^16 + ln(1 - 2^-11) = 11.0898665 = 1.3862333 * 2^3 -> mantissa 395.503 -> 396
    check('log(1), log(2), log(0.5), log(e)', [vec_unary('log', 'f32', x) for x in
                                               (fb(1.0), fb(2.0), fb(0.5), 0x402DF854)],
          [0, 0x3F317218, 0xBF317218, 0x3F7FFFFF])
    check('log(+0), log(-0), log(-1), log(+Inf), log(-Inf), log(NaN)',
          [vec_unary('log', 'f32', x) for x in (0, 0x80000000, fb(-1.0), 0x7F800000, 0xFF800000, 0x7FA00000)],
          [0xFF800000, 0xFF800000, 0xFFC00000, 0x7F800000, 0xFFC00000, 0x7FE00000])
    check('f16 log(2), log(65504), log(0)', [vec_unary('log', 'f16', x) for x in (0x4000, 0x7BFF, 0)],
          [0x398C, 0x498C, 0xFC00])
    check('rsqrt(+-0)', [vec_unary('rsqrt', 'f32', 0), vec_unary('rsqrt', 'f32', 0x80000000)],
          [0x7F800000, 0xFF800000])
    check('sqrt(-0), sqrt(-1)', [vec_unary('sqrt', 'f32', 0x80000000), vec_unary('sqrt', 'f32', fb(-1.0))],
          [0x80000000, 0xFFC00000])
    check('abs(-1.5), abs(-0), abs(-NaN)', [vec_unary('abs', 'f32', fb(-1.5)), vec_unary('abs', 'f32', 0x80000000),
                                            vec_unary('abs', 'f32', 0xFFC00000)],
          [fb(1.5), 0x80000000, 0xFFC00000])
    check('abs(i8 -128), neg(i8 -7)', [vec_unary('abs', 'i8', 0x80), vec_unary('neg', 'i8', 0xF9)], [0x80, 7])
    check('neg(NaN) flips the sign', vec_unary('neg', 'f16', 0x7E00), 0xFE00)
    check('relu(-0), relu(-1), relu(NaN)', [vec_unary('relu', 'f32', 0x80000000), vec_unary('relu', 'f32', fb(-1.0)),
                                            vec_unary('relu', 'f32', 0xFFC00000)], [0x80000000, 0, 0xFFC00000])

    def tile_of(dt, rows, cols, vals, layout='row_major'):
        t = Tile(TType(2, 'vec', dt, rows, cols, rows, cols, layout))
        for k, v in enumerate(vals):
            t.set(k // cols, k % cols, v)
        return t

    src = tile_of('f32', 1, 4, [fb(1e8), fb(1.0), fb(-1e8), fb(1.0)])
    d = tile_of('f32', 1, 1, [0], 'col_major')
    op_vrowreduce('sum', src, d)
    check('row 1e8, 1, -1e8, 1 sums to 1', d.get(0, 0), fb(1.0))
    src = tile_of('f16', 1, 3, [hb(1.0), hb(2.0 ** -11), hb(2.0 ** -11)])
    d = tile_of('f16', 1, 1, [0], 'col_major')
    op_vrowreduce('sum', src, d)
    check('f16 row sum in f32', d.get(0, 0), 0x3C01)
    src = tile_of('f16', 3, 1, [hb(1.0), hb(2.0 ** -11), hb(2.0 ** -11)])
    d = tile_of('f16', 1, 1, [0])
    op_vcolreduce('sum', src, d)
    check('f16 column sum in f16', d.get(0, 0), 0x3C00)
    d = tile_of('f32', 1, 1, [0])
    op_vcolreduce('sum', src, d)
    check('f16 -> f32 column sum', d.get(0, 0), 0x3F802000)
    # A5's blocks (docs/numerics.md 8.3): f32 2^25, 63 zeros, 1, 1, 1 -- the blocks sum to 2^25
    # and 3, and 2^25 + 3 rounds to 2^25 + 4 (ulp 4); A2/A3 adds the tail to tmp's lanes 0..2
    # (2^25 + 1 rounds back) and vcadd's 2^25 + 1 + 1 rounds back twice
    src = tile_of('f32', 1, 67, [fb(2.0 ** 25)] + [0] * 63 + [fb(1.0)] * 3)
    d = tile_of('f32', 1, 1, [0], 'col_major')
    op_vrowreduce('sum', src, d)
    check('a5 f32 row sum by blocks of 64', d.get(0, 0), 0x4C000001)
    ARCH = 'a3'
    op_vrowreduce('sum', src, d)
    check('a3 f32 row sum, tail into tmp', d.get(0, 0), 0x4C000000)
    # f16 1, 2^-11, 2^-11, zeros, 2^-11 at column 128: A5's block 0 is 1 + 2^-10, + 2^-11 a tie
    # to the even 0x3C02; A2/A3's tmp lane 0 is 1 + 2^-11, a tie to 1 in f16, and vcadd sums
    # 1 + 2^-10 (0x3C01)
    src = tile_of('f16', 1, 129, [hb(1.0), 0x1000, 0x1000] + [0] * 125 + [0x1000])
    d = tile_of('f16', 1, 1, [0], 'col_major')
    op_vrowreduce('sum', src, d)
    check('a3 f16 row sum, tail into tmp', d.get(0, 0), 0x3C01)
    ARCH = 'a5'
    op_vrowreduce('sum', src, d)
    check('a5 f16 row sum by blocks of 128', d.get(0, 0), 0x3C02)
    # A2/A3's f32 repeats of 64 (rowsum_a3): 128 columns, 2^25 at 0, 1 at 1, 2 at 65 -> tmp lane
    # 1 = 3 -> 2^25 + 4; 197 columns, 1 at 65, 129, 193 -> lane 1 = 3; 320 columns, 1 at 128
    # and 2 at 192 -> lane 0 = 2^25 + (1 + 2); a5 gives 2^25 for each
    for n, adds in ((128, {1: 1.0, 65: 2.0}), (197, {65: 1.0, 129: 1.0, 193: 1.0}),
                    (320, {128: 1.0, 192: 2.0})):
        vals = [fb(2.0 ** 25)] + [fb(adds.get(j, 0.0)) for j in range(1, n)]
        src = tile_of('f32', 1, n, vals)
        d = tile_of('f32', 1, 1, [0], 'col_major')
        ARCH = 'a3'
        op_vrowreduce('sum', src, d)
        check('a3 f32 row sum of %d' % n, d.get(0, 0), 0x4C000001)
        ARCH = 'a5'
        op_vrowreduce('sum', src, d)
        check('a5 f32 row sum of %d' % n, d.get(0, 0), 0x4C000000)
    # [64, 128] f32 into a DN [64, 1] (TryOptimizeFP32Reduce): row 0 2^25 at 0, 1 at 8, 9, 10
    # -> group sum g1 = 3 -> 2^25 + 4; the same row alone (1 x 128) sums left to right: 2^25
    ARCH = 'a3'
    row = [fb(2.0 ** 25)] + [0] * 7 + [fb(1.0)] * 3 + [0] * 117
    src = tile_of('f32', 64, 128, row + [0] * (63 * 128))
    d = tile_of('f32', 64, 1, [0] * 64, 'col_major')
    op_vrowreduce('sum', src, d)
    check('a3 f32 [64, 128] vcgadd steps', d.get(0, 0), 0x4C000001)
    src = tile_of('f32', 1, 128, row)
    d = tile_of('f32', 1, 1, [0], 'col_major')
    op_vrowreduce('sum', src, d)
    check('a3 f32 [1, 128] general path', d.get(0, 0), 0x4C000000)
    # trsqrt with a tmp on A2/A3: vsqrt then vdiv, tmp's first 32 bytes 1.0
    src = tile_of('f32', 1, 1, [0x3F9349AA])
    d = tile_of('f32', 1, 1, [0])
    tmp = tile_of('f32', 1, 16, [0xEEEEEEEE] * 16)
    op_trsqrt_tmp(src, tmp, d)
    check('a3 trsqrt with tmp 0x3F9349AA', d.get(0, 0), 0x3F6EA66D)
    check('a3 trsqrt tmp filled', tmp.elements(), [0x3F800000] * 8 + [0xEEEEEEEE] * 8)
    ARCH = 'a5'
    src = tile_of('f32', 1, 3, [0x80000000, 0, 0x80000000])
    d = tile_of('f32', 1, 1, [0x1234], 'col_major')
    op_vrowreduce('max', src, d)
    check('max(-0, +0, -0) = -0', d.get(0, 0), 0x80000000)
    op_vrowreduce('sum', src, d)
    check('sum of -0s from +0', d.get(0, 0), 0)
    src = tile_of('bf16', 1, 2, [0x7F81, 0x3F80])
    op_vrowreduce('max', src, d)
    check('bf16 -> f32 max keeps a leading sNaN', d.get(0, 0), 0x7F810000)
    # broadcasts: a row-major [R, 8] per-row operand repeats its 8 elements
    full = tile_of('f32', 1, 16, [fb(float(k)) for k in range(16)])
    per = tile_of('f32', 1, 8, [fb(float(10 * k)) for k in range(8)])
    d = tile_of('f32', 1, 16, [0] * 16)
    op_vrowexpand('add', full, per, d)
    check('trowexpandadd [1, 8]', d.get(0, 9), fb(9.0 + 10.0))
    op_vrowexpand('div', per, full, d)
    check('trowexpanddiv keeps the operand order', d.get(0, 2), fb(20.0 / 2.0))
    # tcvt f32 -> i32 per rmode (docs table)
    xs = [2.5, -2.5, 3.5, 0.5, -0.5, 1.7, -1.7]
    table = {'RINT': [2, -2, 4, 0, 0, 2, -2], 'ROUND': [3, -3, 4, 1, -1, 2, -2],
             'FLOOR': [2, -3, 3, 0, -1, 1, -2], 'CEIL': [3, -2, 4, 1, 0, 2, -1],
             'TRUNC': [2, -2, 3, 0, 0, 1, -1], 'NONE': [2, -2, 3, 0, 0, 1, -1],
             'ODD': [2, -2, 3, 0, 0, 1, -1]}    # no odd rounding into integers: truncation
    for rm, want in table.items():
        check('tcvt f32 -> i32 %s' % rm, [to_int('i32', cvt_elem('f32', 'i32', fb(f32(x)), rm, False)) for x in xs], want)
    check('tcvt f32 -> i32 ODD 0xBEFFFFFF', cvt_elem('f32', 'i32', 0xBEFFFFFF, 'ODD', False), 0)
    check('tcvt f32 -> i32 ODD -1.5', to_int('i32', cvt_elem('f32', 'i32', fb(-1.5), 'ODD', False)), -1)
    # The rounding mode of the float destinations (docs/numerics.md, tcvt), worked by hand.
    # f32 1.0014658 (0x3F803008, 1 + 1.501 * 2^-10) lies between the f16 codes
    # 0x3C01 (1 + 2^-10 = 1.00098) and 0x3C02 (1 + 2^-9 = 1.00195), a bit above the midpoint:
    # nearest (RINT, ROUND) and CEIL take 0x3C02, TRUNC, FLOOR and ODD (odd last bit) 0x3C01.
    x = fb(f32(1.0014658))
    for rm, want in (('NONE', 0x3C02), ('RINT', 0x3C02), ('ROUND', 0x3C02), ('FLOOR', 0x3C01),
                     ('CEIL', 0x3C02), ('TRUNC', 0x3C01), ('ODD', 0x3C01)):
        check('tcvt f32 -> f16 1.0014658 %s' % rm, cvt_elem('f32', 'f16', x, rm, False), want)
        check('tcvt f32 -> f16 -1.0014658 %s' % rm, cvt_elem('f32', 'f16', x | 0x80000000, rm, False),
              0x8000 | {'FLOOR': 0x3C02, 'CEIL': 0x3C01}.get(rm, want))
    # ties: 1 + 2^-11 is halfway between 0x3C00 and 0x3C01: RINT to the even 0x3C00, ROUND away
    check('tcvt f32 -> f16 1+2^-11', [cvt_elem('f32', 'f16', fb(1 + 2 ** -11), rm, False)
                                      for rm in ('RINT', 'ROUND', 'ODD', 'TRUNC')],
          [0x3C00, 0x3C01, 0x3C01, 0x3C00])
    # overflow: 70000 > 65504; toward zero (TRUNC, FLOOR of a positive, ODD) stops at 0x7BFF
    check('tcvt f32 -> f16 70000', [cvt_elem('f32', 'f16', fb(70000.0), rm, False)
                                    for rm in ('RINT', 'ROUND', 'FLOOR', 'CEIL', 'TRUNC', 'ODD')],
          [0x7C00, 0x7C00, 0x7BFF, 0x7C00, 0x7BFF, 0x7BFF])
    check('tcvt f32 -> f16 -70000', [cvt_elem('f32', 'f16', fb(-70000.0), rm, False)
                                     for rm in ('FLOOR', 'CEIL')], [0xFC00, 0xFBFF])
    # below the smallest subnormal 2^-24: 2^-26 is 0 except CEIL and ODD (0x0001)
    check('tcvt f32 -> f16 2^-26', [cvt_elem('f32', 'f16', fb(2.0 ** -26), rm, False)
                                    for rm in ('RINT', 'FLOOR', 'CEIL', 'TRUNC', 'ODD')],
          [0, 0, 1, 0, 1])
    check('tcvt f32 -> f16 -2^-26 FLOOR', cvt_elem('f32', 'f16', fb(-2.0 ** -26), 'FLOOR', False), 0x8001)
    # i32 -> f32: 2^24 + 1 is a tie between 2^24 (0x4B800000) and 2^24 + 2 (0x4B800001)
    check('tcvt i32 -> f32 2^24+1', [cvt_elem('i32', 'f32', 2 ** 24 + 1, rm, False) for rm in RMODES],
          [0x4B800000, 0x4B800000, 0x4B800001, 0x4B800000, 0x4B800001, 0x4B800000, 0x4B800000])
    check('tcvt i32 -> f32 -(2^24+1) FLOOR', cvt_elem('i32', 'f32', from_int('i32', -(2 ** 24 + 1)), 'FLOOR', False),
          0xCB800001)
    # i32 -> f16 is the A2/A3 vconv_deq: no mode, 2049 -> 2048 in every one
    check('tcvt i32 -> f16 2049', {cvt_elem('i32', 'f16', 2049, rm, False) for rm in RMODES}, {0x6800})
    # i16 -> f16: 2049 is a tie between 2048 (0x6800) and 2050 (0x6801)
    check('tcvt i16 -> f16 2049', [cvt_elem('i16', 'f16', 2049, rm, False) for rm in RMODES],
          [0x6800, 0x6800, 0x6801, 0x6800, 0x6801, 0x6800, 0x6800])
    # f32 -> bf16: 1 + 2^-9 is a quarter ulp above 1 (0x3F80); ODD is nearest even here
    check('tcvt f32 -> bf16 1+2^-9', [cvt_elem('f32', 'bf16', fb(1 + 2 ** -9), rm, False) for rm in RMODES],
          [0x3F80, 0x3F80, 0x3F80, 0x3F80, 0x3F81, 0x3F80, 0x3F80])
    # bf16 -> f16: 0x4789 = 70144 overflows f16; 0x3280 = 2^-26 underflows
    check('tcvt bf16 -> f16 70144', [cvt_elem('bf16', 'f16', 0x4789, rm, False) for rm in ('RINT', 'TRUNC')],
          [0x7C00, 0x7BFF])
    check('tcvt bf16 -> f16 2^-26 CEIL', cvt_elem('bf16', 'f16', 0x3280, 'CEIL', False), 0x0001)
    # f32 -> f32 rounds to an integral value (vtrc); a zero result keeps the sign
    check('tcvt f32 -> f32 2.5', [cvt_elem('f32', 'f32', fb(2.5), rm, False) for rm in RMODES],
          [fb(2.0), fb(2.0), fb(3.0), fb(2.0), fb(3.0), fb(2.0), fb(2.0)])
    check('tcvt f32 -> f32 -0.3', [cvt_elem('f32', 'f32', fb(f32(-0.3)), rm, False)
                                   for rm in ('RINT', 'FLOOR', 'CEIL', 'TRUNC')],
          [0x80000000, fb(-1.0), 0x80000000, 0x80000000])
    check('tcvt f32 -> f16 65520', cvt_elem('f32', 'f16', fb(65520.0), 'RINT', False), 0x7C00)
    check('tcvt f32 -> f16 65520 sat', cvt_elem('f32', 'f16', fb(65520.0), 'RINT', True), 0x7BFF)
    check('tcvt f32 -> f16 NaN sat', cvt_elem('f32', 'f16', 0xFFC00000, 'RINT', True), 0x7BFF)
    check('tcvt f32 -> f16 NaN', cvt_elem('f32', 'f16', 0xFF812345, 'RINT', False), 0xFE09)
    check('tcvt f16 -> f32 sNaN', cvt_elem('f16', 'f32', 0x7C01, 'RINT', False), 0x7FC02000)
    check('tcvt bf16 -> f32 sNaN', cvt_elem('bf16', 'f32', 0x7F81, 'RINT', False), 0x7F810000)
    check('tcvt f16 -> i8 200, -300', [cvt_elem('f16', 'i8', hb(200.0), 'RINT', False),
                                       cvt_elem('f16', 'i8', hb(-300.0), 'RINT', False)], [0xC8, 0xD4])
    check('tcvt f16 -> i8 sat', [cvt_elem('f16', 'i8', hb(200.0), 'RINT', True),
                                 cvt_elem('f16', 'i8', hb(-300.0), 'RINT', True)], [0x7F, 0x80])
    check('tcvt i32 -> f32 2^24+1, 2^24+3', [cvt_elem('i32', 'f32', 2 ** 24 + 1, 'RINT', False),
                                            cvt_elem('i32', 'f32', 2 ** 24 + 3, 'RINT', False)],
          [fb(2.0 ** 24), fb(2.0 ** 24 + 4)])
    check('tcvt i32 -> i16 40000', [cvt_elem('i32', 'i16', 40000, 'RINT', False),
                                    cvt_elem('i32', 'i16', 40000, 'RINT', True)], [0x9C40, 0x7FFF])
    check('tcvt f32 -> i32 3e9, NaN', [cvt_elem('f32', 'i32', fb(3e9), 'RINT', False),
                                       cvt_elem('f32', 'i32', 0x7FC00000, 'RINT', False),
                                       cvt_elem('f32', 'i32', fb(3e9), 'RINT', True),
                                       cvt_elem('f32', 'i32', 0x7FC00000, 'RINT', True)],
          [0x80000000, 0x80000000, 0x7FFFFFFF, 0x7FFFFFFF])
    d = tile_of('i16', 1, 4, [0] * 4)
    op_tci(d, 0x7FFE, False)
    check('tci i16 wraps', [d.get(0, j) for j in range(4)], [0x7FFE, 0x7FFF, 0x8000, 0x8001])
    op_tci(d, 1, True)
    check('tci descending', [d.get(0, j) for j in range(4)], [1, 0, 0xFFFF, 0xFFFE])
    # ---- arith (MLIR semantics) and scf ----
    def nofail(msg):
        raise RefError(msg)
    check('divsi -7 / 2', arith_binary('divsi', 'i32', -7, 2, nofail), -3)
    check('remsi -7 % 2', arith_binary('remsi', 'i32', -7, 2, nofail), -1)
    check('floordivsi -7 / 2', arith_binary('floordivsi', 'index', -7, 2, nofail), -4)
    check('ceildivsi -7 / 2, 7 / 2', [arith_binary('ceildivsi', 'index', -7, 2, nofail),
                                      arith_binary('ceildivsi', 'index', 7, 2, nofail)], [-3, 4])
    check('shrsi -8 >> 1', arith_binary('shrsi', 'i8', -8, 1, nofail), -4)
    check('shrui i8 -8 >> 1', arith_binary('shrui', 'i8', -8, 1, nofail), 124)
    check('addi i8 127 + 1 wraps', arith_binary('addi', 'i8', 127, 1, nofail), -128)
    check('muli index wraps', arith_binary('muli', 'index', 1 << 62, 4, nofail), 0)
    check('maxui i32 -1, 1', arith_binary('maxui', 'i32', -1, 1, nofail), -1)
    check('minsi i32 -1, 1', arith_binary('minsi', 'i32', -1, 1, nofail), -1)
    check('cmpi ult -1, 1', arith_cmp('cmpi', 'ult', 'i32', -1, 1), 0)
    check('cmpi slt -1, 1', arith_cmp('cmpi', 'slt', 'i32', -1, 1), 1)
    check('index_cast i32 -> index', arith_cast('index_cast', 'i32', 'index', -5, nofail), -5)
    check('index_castui i32 -> index', arith_cast('index_castui', 'i32', 'index', -1, nofail), 0xFFFFFFFF)
    check('trunci 300 -> i8', arith_cast('trunci', 'i32', 'i8', 300, nofail), 44)
    check('maximumf(-0, +0)', math.copysign(1, arith_binary('maximumf', 'f32', -0.0, 0.0, nofail)), 1.0)
    check('minimumf(-0, +0)', math.copysign(1, arith_binary('minimumf', 'f32', -0.0, 0.0, nofail)), -1.0)
    check('addf f32 rounds', arith_binary('addf', 'f32', 1.0, 2.0 ** -24, nofail), 1.0)
    for what, args in (('divsi by zero', ('divsi', 'i32', 1, 0)), ('divsi overflow', ('divsi', 'i32', -2 ** 31, -1)),
                       ('shli by the width', ('shli', 'i32', 1, 32))):
        try:
            arith_binary(*args, nofail)
            fails.append('%s: no error' % what)
        except RefError:
            pass
    try:
        arith_cast('index_cast', 'index', 'i32', 1 << 40, nofail)
        fails.append('index_cast out of range: no error')
    except RefError:
        pass
    kernel = '''module {
  func.func @k(%n: index, %t: !pto.tile_buf<vec, 1x8xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %z = arith.constant 0 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %cnt = %z) -> (i32, i32) {
      %ii = arith.index_cast %i : index to i32
      %p = arith.cmpi slt, %i, %c3 : index
      %a2 = scf.if %p -> (i32) {
        %x = arith.addi %acc, %ii : i32
        scf.yield %x : i32
      } else {
        %y = arith.subi %acc, %ii : i32
        scf.yield %y : i32
      }
      %one = arith.constant 1 : i32
      %c2 = arith.addi %cnt, %one : i32
      scf.yield %a2, %c2 : i32, i32
    }
    %s = arith.muli %r#0, %r#1 : i32
    pto.tci ins(%s : i32) outs(%t : !pto.tile_buf<vec, 1x8xi32>)
    return
  }
}'''
    for n, want in ((5, -20), (1, 0), (0, 0), (3, 9)):
        mach = Machine(parse_funcs(kernel)[0], {}, {'n': str(n)})
        mach.run()
        check('scf.for/if kernel n=%d' % n, to_int('i32', mach.env['t'].get(0, 1)), want + 1)   # element 1: start + 1
    # ---- .npy bytes as numpy.save writes them ----
    hdr = npy_bytes(Array('<f4', (32, 64), [0] * 2048))[:128]
    check('npy header', hdr, b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, "
          b"'shape': (32, 64), }" + b' ' * 56 + b'\n')
    check('npy 1-d shape', npy_bytes(Array('|u1', (5,), [0] * 5))[10:70].split(b'}')[0],
          b"{'descr': '|u1', 'fortran_order': False, 'shape': (5,), ")
    for shape in [(1, 1), (1234567, 3), (7,)]:
        n = 1
        for d in shape:
            n *= d
        bs = npy_bytes(Array('|i1', shape, [0] * n))
        hl = struct.unpack('<H', bs[8:10])[0]
        check('npy alignment %r' % (shape,), ((10 + hl) % 64, bs[10 + hl - 1:10 + hl]), (0, b'\n'))
    if fails:
        for f in fails[:50]:
            print('FAIL', f)
        print('%d failures' % len(fails))
        return 1
    print('ref.py self-test: all worked vectors and checks pass')
    return 0


def main(argv):
    try:
        if argv[:1] == ['--self-test']:
            return self_test()
        if argv[:1] == ['run']:
            return cmd_run(argv[1:])
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    except RefError as e:
        print('ref.py: error: %s' % e, file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
