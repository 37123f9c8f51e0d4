#!/usr/bin/env python3
"""Property test: the file name and the symbol names of a kernel never reach the
generated C except escaped or as validated identifiers.

For N random cases it writes one kernel under a hostile directory name (with
'*/', newlines, quotes, backslashes, '??/' trigraphs, '#include' lines) and with
random SSA names from the whole alphabet the lexer allows and random function names,
bare or quoted (@"*/ ??/ #include ..."), then
checks that
  - `ptoas --emit=c` succeeds and the C compiles with -Werror (no text escaped
    a comment or a string literal),
  - the C has as many lines as the plain kernel's (no newline of the file name
    reached it raw, so no '#include' or code line could start),
  - `ptoas run` prints the same numbers as for the plain kernel.
usage: hostile_names.py PTOAS WORKDIR CASES SEED
"""
import os
import random
import re
import subprocess
import sys

KERNEL = """module attributes {pto.target_arch = "a3"} {
  func.func @FN(%X: !pto.tile_buf<vec, 8x32xf32>, %S: !pto.tile_buf<vec, 8x1xf32, blayout=col_major>,
                %Q: !pto.tile_buf<vec, 8x32xi8>) attributes {pto.entry} {
    pto.tquant ins(%X, %S : !pto.tile_buf<vec, 8x32xf32>, !pto.tile_buf<vec, 8x1xf32, blayout=col_major>)
        outs(%Q : !pto.tile_buf<vec, 8x32xi8>) {quant_type = #pto<quant_type INT8_SYM>}
    return
  }
}
"""

DIR_PIECES = ['*/', '/*', '\n', '"', "'", '\\', '??/', '??=', '#include <stdlib.h>\n', 'system("x");',
              ' ', '\t', '$', '%', '%s', '\\n', 'é', '*', '?', 'x']
FIRST = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_'
REST = FIRST + '0123456789$.'
SSA_FIRST = FIRST + '$.-'
QUOTED = [p for p in DIR_PIECES if '"' not in p and '\\' not in p and '\n' not in p] + [' ', '-', '|', 'k', '#include <stdlib.h>']
SSA = REST + '-'


def rand_name(rng, alphabet, first=None):
    n = rng.randint(1, 40)
    s = ''.join(rng.choice(alphabet) for _ in range(n))
    return (rng.choice(first) + s) if first else s


def run(args, **kw):
    return subprocess.run(args, capture_output=True, **kw)


def numbers(out):
    # The printed tiles without the lines that name values.
    return [line for line in out.decode().splitlines() if not line.startswith('%')]


def main():
    ptoas, work, cases, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    os.makedirs(work, exist_ok=True)
    plain = os.path.join(work, 'plain.pto')
    with open(plain, 'w') as f:
        f.write(KERNEL.replace('FN', 'k').replace('%X', '%x').replace('%S', '%s').replace('%Q', '%q'))
    import struct
    def npy(path, shape, vals):
        hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % shape
        hdr += ' ' * (64 - (10 + len(hdr) + 1) % 64) + '\n'
        with open(path, 'wb') as f:
            f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode())
            f.write(struct.pack('<%df' % len(vals), *vals))
    xs, ss = os.path.join(work, 'x.npy'), os.path.join(work, 's.npy')
    npy(xs, (8, 32), [(i % 13) * 3.5 - 20 for i in range(256)])
    npy(ss, (8, 1), [1.0 + r for r in range(8)])
    base = run([ptoas, 'run', plain, '--in', 'x=' + xs, '--in', 's=' + ss])
    if base.returncode != 0:
        print(base.stderr.decode())
        print('0 passed, 1 failed')
        return 1
    want = numbers(base.stdout)
    plain_lines = run([ptoas, '--emit=c', plain]).stdout.count(b'\n')
    ok = bad = 0
    for i in range(cases):
        d = ''.join(rng.choice(DIR_PIECES) for _ in range(rng.randint(1, 8))).replace('/', '\u2215')
        # Directory separators in the middle keep a '*/' sequence spanning two parts.
        d = d.replace('\u2215', '/') if i % 2 else d.replace('\u2215', '_')
        path = os.path.join(work, 'c%d' % i, d.strip('/') or 'x', 'k*/.pto')
        os.makedirs(os.path.dirname(path), exist_ok=True)
        names = {}
        for key in ('%X', '%S', '%Q'):
            while True:
                n = '%' + rand_name(rng, SSA, SSA_FIRST)
                if n not in names.values():
                    break
            names[key] = n
        if i % 2:  # a bare name of the lexer's alphabet
            fn = '@' + rand_name(rng, REST, FIRST)
        else:      # a quoted one (@"..."): any text but a quote, a backslash or a newline
            fn = '@"%s"' % ''.join(rng.choice(QUOTED) for _ in range(rng.randint(1, 6)))
        text = re.sub(r'%[XSQ]\b', lambda m: names[m.group(0)], KERNEL.replace('@FN', fn))
        with open(path, 'w') as f:
            f.write(text)
        c = run([ptoas, '--emit=c', path])
        src = c.stdout.decode('latin-1')
        err = None
        if c.returncode != 0:
            err = 'emit-c failed: ' + c.stderr.decode(errors='replace')
        elif src.count('\n') != plain_lines or '\n#include <stdlib.h>' in src:
            err = 'file name text reached the C as code'
        else:
            cfile = os.path.join(work, 'c%d.c' % i)
            with open(cfile, 'w', encoding='latin-1') as f:
                f.write(src)
            cc = run(['cc', '-std=c11', '-Wall', '-Werror', '-fsyntax-only', '-DPTOAS_NO_MAIN',
                      '-I' + os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'runtime'),
                      cfile])
            if cc.returncode != 0:
                err = 'generated C does not compile: ' + cc.stderr.decode(errors='replace')[:2000]
            else:
                r = run([ptoas, 'run', path, '--in', names['%X'][1:] + '=' + xs,
                         '--in', names['%S'][1:] + '=' + ss])
                if r.returncode != 0:
                    err = 'run failed: ' + r.stderr.decode(errors='replace')
                elif numbers(r.stdout) != want:
                    err = 'run printed other numbers'
        if err:
            bad += 1
            print('case %d: %r fn=%r names=%r: %s' % (i, path, fn, names, err))
        else:
            ok += 1
    print('%d passed, %d failed' % (ok, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
