#!/usr/bin/env python3
"""Writes a .npy v1.0 file exactly as numpy.save does, without numpy.

usage: npy.py OUT DESCR ROWSxCOLS VALUE...   (fewer values than elements: the rest are 0;
       'nan' and 'inf' are accepted for float descrs)
       npy.py OUT DESCR ROWSxCOLS =EXPR      (element (r, c) is the Python expression EXPR)

The header is the dict numpy writes ({'descr': ..., 'fortran_order': False, 'shape': (...), }),
padded with spaces to a multiple of 64 bytes including the 10-byte preamble, then '\\n'.
numpy leaves room for growing the first axis: 21 - len(str(shape[0])) spare spaces first.
"""
import struct
import sys

FORMATS = {'<f4': 'f', '<f2': 'e', '<i4': 'i', '<i2': 'h', '|i1': 'b', '|u1': 'B', '<u2': 'H'}


def main():
    out, descr, shape = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split('x')]
    vals = sys.argv[4:]
    n = 1
    for s in shape:
        n *= s
    fmt = FORMATS[descr]
    conv = float if fmt in 'fe' else int
    if len(vals) == 1 and vals[0].startswith('='):
        cols = shape[-1]
        vals = [eval(vals[0][1:], {}, {'r': i // cols, 'c': i % cols}) for i in range(n)]
    data = [conv(v) for v in vals] + [0] * (n - len(vals))
    body = struct.pack('<%d%s' % (n, fmt), *data[:n])
    dims = ', '.join(str(s) for s in shape) + (',' if len(shape) == 1 else '')
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += ' ' * (21 - len(str(shape[0])))
    pad = 64 - (10 + len(header) + 1) % 64
    header += ' ' * (pad % 64) + '\n'
    with open(out, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + body)


main()
