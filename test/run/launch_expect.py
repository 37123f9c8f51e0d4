#!/usr/bin/env python3
"""launch_expect.py: checks every element of a 2-D float32 .npy result against a formula
worked out by hand (the launch tests, docs/launch.md).

    python3 launch_expect.py FILE.npy 'EXPR'

EXPR is a Python expression of the row r and column c (e.g. 'r * 16 + c + 1', or
'0 if r < 32 else r * 16 + c'). Prints `expect: ok RxC` when every element equals it, else
the first differing elements and `expect: N mismatches`.
"""
import ast
import struct
import sys


def load(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:6] != b'\x93NUMPY':
        sys.exit('not a .npy file: %s' % path)
    hlen = struct.unpack('<H', data[8:10])[0] if data[6] == 1 else struct.unpack('<I', data[8:12])[0]
    start = 10 if data[6] == 1 else 12
    head = ast.literal_eval(data[start:start + hlen].decode('latin1'))
    if head['descr'] != '<f4' or len(head['shape']) != 2:
        sys.exit('expected a 2-D <f4 array, got %s %s' % (head['descr'], head['shape']))
    rows, cols = head['shape']
    vals = struct.unpack('<%df' % (rows * cols), data[start + hlen:start + hlen + 4 * rows * cols])
    return rows, cols, vals


def main():
    path, expr = sys.argv[1], sys.argv[2]
    rows, cols, vals = load(path)
    code = compile(expr, '<expr>', 'eval')
    bad = 0
    for r in range(rows):
        for c in range(cols):
            want = float(eval(code, {}, {'r': r, 'c': c}))
            got = vals[r * cols + c]
            if got != want:
                if bad < 8:
                    print('  [%d][%d]: got %r, expected %r' % (r, c, got, want))
                bad += 1
    print('expect: ok %dx%d' % (rows, cols) if not bad else 'expect: %d mismatches' % bad)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
