#!/usr/bin/env python3
"""samples_launch.py: runs PTOAS's cube+vector sample modules as launches (docs/launch.md).

    python3 samples_launch.py PTOAS SAMPLES_DIR [--blocks N] [--jobs J] [--timeout S] [-v]

For every kernels/*.pto of the DeepSeek* / Qwen3* folders that has a cube function and a vector
function, it runs `PTOAS --verify-only FLAGS FILE` with the flags of PTOAS's sample runner
(A5 folders --pto-arch=a5 --pto-level=level3, A3 folders --pto-arch=a3 --pto-level=level3) and,
when that passes, `PTOAS run FLAGS FILE --blocks N` on generated deterministic inputs: each
pointer argument gets an array as large as the widest tensor view made from it reaches (its
shape and strides from arith.constant values; 1 Mi elements when they are not constants), of
small values of its dtype; each scalar argument 0. Prints per folder: modules, verified, ran
clean, and the first error line of each failure. Standard library only.
"""
import argparse
import collections
import os
import re
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

FUNC = re.compile(r'func\.func @(\w+)\((.*?)\)\s*(?:->[^{]*)?attributes\s*\{([^}]*)\}', re.S)
ARG = re.compile(r'%([\w.$-]+)\s*:\s*(!pto\.ptr<(\w+)(?:,[^>]*)?>|[\w]+)')
CONST = re.compile(r'%([\w.$-]+)\s*=\s*arith\.constant\s+(-?\d+)\s*:')
VIEW = re.compile(r'pto\.make_tensor_view\s+%([\w.$-]+),\s*shape\s*=\s*\[([^\]]*)\],\s*strides\s*=\s*\[([^\]]*)\]')
SIZES = {'f32': 4, 'i32': 4, 'ui32': 4, 'si32': 4, 'f16': 2, 'bf16': 2, 'i16': 2, 'ui16': 2, 'si16': 2,
         'i8': 1, 'ui8': 1, 'si8': 1, 'i64': 8, 'ui64': 8, 'si64': 8, 'f8E4M3FN': 1, 'f8E5M2': 1, 'i1': 1}
DESCR = {'f32': '<f4', 'i32': '<i4', 'ui32': '<u4', 'si32': '<i4', 'f16': '<f2', 'bf16': '<u2', 'i16': '<i2',
         'ui16': '<u2', 'si16': '<i2', 'i8': '|i1', 'ui8': '|u1', 'si8': '|i1', 'i64': '<i8', 'ui64': '<u8',
         'si64': '<i8', 'f8E4M3FN': '|u1', 'f8E5M2': '|u1', 'i1': '|u1'}
DEFAULT_ELEMS = 1 << 20


def flags_for(folder):
    if re.match(r'(Qwen|Deepseek).*A5$', folder):
        return ['--pto-arch=a5', '--pto-level=level3']
    if re.match(r'(Qwen|Deepseek).*A3$', folder):
        return ['--pto-arch=a3', '--pto-level=level3']
    return []


def funcs_of(text):
    out = []
    starts = [m.start() for m in FUNC.finditer(text)] + [len(text)]
    for i, m in enumerate(FUNC.finditer(text)):
        body = text[m.end():starts[i + 1]]
        kind = 'cube' if 'kernel_kind<cube>' in m.group(3) else 'vector' if 'kernel_kind<vector>' in m.group(3) else None
        out.append((m.group(1), kind, ARG.findall(m.group(2)), body))
    return out


def elems_needed(body, arg):
    consts = {n: int(v) for n, v in CONST.findall(body)}
    need = 0
    for base, shape, strides in VIEW.findall(body):
        if base != arg:
            continue
        sh = [s.strip().lstrip('%') for s in shape.split(',') if s.strip()]
        st = [s.strip().lstrip('%') for s in strides.split(',') if s.strip()]
        try:
            n = 1 + sum((consts[a] - 1) * consts[b] for a, b in zip(sh, st))
        except KeyError:
            n = DEFAULT_ELEMS
        need = max(need, n)
    return need or DEFAULT_ELEMS


def value_bytes(dt, n):
    """N small deterministic values of dtype DT, little-endian."""
    vals = [((i * 37) % 17 - 8) / 16.0 for i in range(min(n, 4099))]
    if dt == 'f32':
        one = b''.join(struct.pack('<f', v) for v in vals)
    elif dt == 'f16':
        one = b''.join(struct.pack('<e', v) for v in vals)
    elif dt == 'bf16':
        one = b''.join(struct.pack('<f', v)[2:] for v in vals)
    elif dt.startswith('f8'):
        one = bytes((0x38 if i % 3 else 0x30) for i in range(len(vals)))
    else:
        sz = SIZES[dt]
        one = b''.join(((i * 7) % 5).to_bytes(sz, 'little') for i in range(len(vals)))
    reps = (n + len(vals) - 1) // len(vals)
    return (one * reps)[:n * SIZES.get(dt, 1)]


def write_npy(path, dt, n):
    head = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (DESCR[dt], n)
    head += ' ' * (63 - (len(head) + 10) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(head)) + head.encode('latin1'))
        f.write(value_bytes(dt, n))


def first_error(text):
    for line in text.splitlines():
        if 'error' in line:
            return re.sub(r'^\S*?\.pto:\d+:\d+: ', '', line)[:160]
    return text.strip().splitlines()[-1][:160] if text.strip() else 'no output'


def run_one(a, path, folder, tmp):
    flags = flags_for(folder)
    v = subprocess.run([a.ptoas, '--verify-only'] + flags + [path], capture_output=True, text=True)
    if v.returncode != 0:
        return 'reject', first_error(v.stderr)
    fs = funcs_of(open(path).read())
    args = collections.OrderedDict()
    for name, kind, fargs, body in fs:
        if kind is None:
            continue
        for an, ty, dt in fargs:
            if an.startswith('__pypto_spmd_'):
                continue
            if dt:
                need = elems_needed(body, an)
                old = args.get(an)
                args[an] = ('ptr', dt, max(need, old[2] if old else 0))
            else:
                args.setdefault(an, ('scalar', ty, 0))
    cmd = [a.ptoas, 'run'] + flags + [path, '--blocks', str(a.blocks), '--timeout', str(a.timeout)]
    for an, (k, dt, n) in args.items():
        if k == 'ptr':
            if dt not in DESCR:
                return 'skip', 'pointer of %s' % dt
            f = os.path.join(tmp, '%s.npy' % re.sub(r'\W', '_', an))
            write_npy(f, dt, n)
            cmd += ['--in', '%s=%s' % (an, f), '--out', '%s=%s.out.npy' % (an, f)]
        else:
            cmd += ['--arg', '%s=%d' % (an, a.scalar)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return 'fail', first_error(r.stderr)
    return 'ok', ''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ptoas')
    ap.add_argument('samples')
    ap.add_argument('--blocks', type=int, default=2)
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--timeout', type=int, default=300)
    ap.add_argument('--scalar', type=int, default=0)
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    work = []
    for folder in sorted(os.listdir(a.samples)):
        if not re.match(r'(Deepseek|DeepSeek|Qwen3)', folder):
            continue
        kd = os.path.join(a.samples, folder, 'kernels')
        if not os.path.isdir(kd):
            continue
        for fn in sorted(os.listdir(kd)):
            p = os.path.join(kd, fn)
            if fn.endswith('.pto') and 'kernel_kind<cube>' in open(p).read() and 'kernel_kind<vector>' in open(p).read():
                work.append((folder, p))
    res = {}
    with tempfile.TemporaryDirectory() as tmpd:
        def go(item):
            folder, p = item
            t = os.path.join(tmpd, '%d' % work.index(item))
            os.makedirs(t)
            return item, run_one(a, p, folder, t)
        with ThreadPoolExecutor(a.jobs) as ex:
            for item, r in ex.map(go, work):
                res[item] = r
    per = collections.OrderedDict()
    for (folder, p), (st, why) in res.items():
        per.setdefault(folder, collections.Counter())[st] += 1
        per[folder]['all'] += 1
        if st != 'ok':
            print('  %s %s/%s: %s' % (st, folder, os.path.basename(p), why))
    tot = collections.Counter()
    for folder, c in per.items():
        print('%-28s modules %2d  verified %2d  ran %2d' % (folder, c['all'], c['all'] - c['reject'], c['ok']))
        tot.update(c)
    print('launch samples: modules %d, verified %d, ran clean %d, failed %d, skipped %d' %
          (tot['all'], tot['all'] - tot['reject'], tot['ok'], tot['fail'], tot['skip']))


if __name__ == '__main__':
    main()
