#!/usr/bin/env python3
"""runcmp.py: run a kernel with `ptoas run` and with the reference model, compare byte for byte.

    python3 runcmp.py PTOAS KERNEL.pto DIR [--func F] [--in NAME=FILE ...] [--arg NAME=INT ...]
                      [--pto-arch=A] [--pto-level=L] [--numerics=hw|sim] [--no-reuse] --out NAME[,NAME...]

Input files are relative to DIR. Each result NAME goes to DIR/NAME.npy (ptoas) and
DIR/NAME.ref.npy (ref.py); `cmp` decides. On a mismatch the differing elements are listed.
Prints `match: NAME ...` when every result is identical.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref  # noqa: E402


def main(argv):
    ptoas, kernel, d = argv[:3]
    rest = argv[3:]
    passthru, outs = [], []
    i = 0
    ptoas_only = []
    while i < len(rest):
        if ('=' in rest[i] and rest[i].startswith(('--pto', '--numerics'))) or rest[i] == '--no-reuse':
            ptoas_only.append(rest[i])
            if rest[i].startswith(('--pto-arch=', '--numerics=')):  # ref.py models the same
                passthru.append(rest[i])
            i += 1
            continue
        opt, val = rest[i], rest[i + 1]
        i += 2
        if opt == '--out':
            outs += [n for n in val.split(',') if n]
        elif opt == '--in':
            n, f = val.split('=', 1)
            passthru += ['--in', '%s=%s' % (n, os.path.join(d, f))]
        else:
            passthru += [opt, val]
    def out_args(suffix):
        a = []
        for n in outs:
            a += ['--out', '%s=%s' % (n, os.path.join(d, n + suffix))]
        return a
    cmd = [ptoas, 'run'] + ptoas_only + [kernel] + passthru + out_args('.npy')
    r = subprocess.run(cmd)
    if r.returncode != 0:
        print('runcmp: ptoas run failed (exit %d): %s' % (r.returncode, ' '.join(cmd)))
        return 1
    cmd = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ref.py'),
           'run', kernel] + passthru + out_args('.ref.npy')
    r = subprocess.run(cmd)
    if r.returncode != 0:
        print('runcmp: ref.py failed (exit %d)' % r.returncode)
        return 1
    bad = 0
    for n in outs:
        a, b = os.path.join(d, n + '.npy'), os.path.join(d, n + '.ref.npy')
        if subprocess.run(['cmp', a, b]).returncode == 0:
            continue
        bad += 1
        try:
            x, y = ref.npy_read(a), ref.npy_read(b)
        except ref.RefError as e:
            print('runcmp: %s: %s' % (n, e))
            continue
        if (x.descr, x.shape) != (y.descr, y.shape):
            print('runcmp: %%%s: ptoas wrote %s %s, ref %s %s' % (n, x.shape, x.descr, y.shape, y.descr))
            continue
        cols = x.shape[-1] if x.shape else 1
        diffs = [k for k in range(len(x.data)) if x.data[k] != y.data[k]]
        print('runcmp: %%%s: %d elements differ' % (n, len(diffs)))
        for k in diffs[:20]:
            print('  [%d, %d] ptoas %#x ref %#x' % (k // cols, k % cols, x.data[k], y.data[k]))
    if bad:
        return 1
    print('match: ' + ' '.join(outs))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
