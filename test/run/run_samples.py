#!/usr/bin/env python3
"""run_samples.py: PTOAS's cube sample kernels under `ptoas --verify-only` and `ptoas run`.

    python3 run_samples.py SAMPLES_DIR [--ptoas build/ptoas] [--filter REGEX] [-v]

Takes every `kernels/aic/*.pto` of the DeepSeek-V4 and Qwen3 folders of PTOAS's test/samples
that uses no pipe op (tpush*, tpop*, *_initialize_pipe, reserve_buffer,
import_reserved_buffer), verifies it with the flags PTOAS's runner gives the folder
(`--pto-arch=a5|a3 --pto-level=level3`), and runs it with generated inputs:

- a `!pto.ptr<T>` argument gets a raw file of deterministic values (floats in [-2, 2) with
  fractions, integers in [-8, 8)), as many elements as the kernel's tensor views reach with
  every index argument as chosen below (computed from the views' shapes and strides; when a
  view's extent is not a constant, a run's `outside the host buffer` error grows the buffer);
- an `index` argument gets a size S or 0: first S = 32 for the arguments that set a tensor
  view's dimension or are the minuend of an `arith.subi` (sizes: rows left = size - offset),
  0 for the others (offsets); when that run fails, S = 32 for every index argument, then the
  same two with S = 256, then S = 8192 for the sizes only (weight rows); `__pypto_spmd_block_idx` 0, `__pypto_spmd_block_num` 1, other
  integers 0. The first choice that runs counts;
- a buffer is at most 2 GiB, `ptoas run`'s cap for a pointer's memory (Qwen3-14B's lm_head
  reads 1.5 GB of its weight view even as block 0).

Prints one line per failing file and last `samples: files N, verify-ok V, run-ok R`.
Standard library only; the inputs are written to a temporary directory and removed.
"""
import argparse
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import zlib

PIPE = re.compile(r'pto\.(tpush|tpop|aic_initialize_pipe|aiv_initialize_pipe|'
                  r'reserve_buffer|import_reserved_buffer)')
FUNC = re.compile(r'func\.func\s+@[\w.$]+\((.*?)\)\s*(?:->|attributes|\{)', re.S)
ARG = re.compile(r'%([\w.$]+)\s*:\s*(!pto\.ptr<(\w+)>|index|i\d+|f\d+|bf16)')
CONST = re.compile(r'%([\w.$]+)\s*=\s*arith\.constant\s+(-?\d+)\s*:\s*(index|i\d+)')
BINOP = re.compile(r'%([\w.$]+)\s*=\s*arith\.(muli|addi|subi|divsi|maxsi|minsi)\s+%([\w.$]+)\s*,\s*%([\w.$]+)')
VIEW = re.compile(r'pto\.make_tensor_view\s+%([\w.$]+)\s*,\s*shape\s*=\s*\[([^\]]*)\]\s*,'
                  r'\s*strides\s*=\s*\[([^\]]*)\]')
OUTSIDE = re.compile(r'elements \[(\d+), (\d+)\], outside the host buffer of (\d+) elements')
PTR_CAP = 1 << 31
SUBI = re.compile(r'arith\.subi\s+%([\w.$]+)\s*,')
ELEM = {'f32': 4, 'i32': 4, 'f16': 2, 'bf16': 2, 'i16': 2, 'i8': 1, 'ui8': 1, 'i64': 8}


def flags_for(rel):
    top = rel.split(os.sep)[0]
    return ['--pto-arch=' + ('a5' if top.endswith('A5') else 'a3'), '--pto-level=level3']


def evaluate(text, scalars):
    """Values of the index/integer SSA names the views use (constants, arguments, arith)."""
    env = dict(scalars)
    for m in CONST.finditer(text):
        env[m.group(1)] = int(m.group(2))
    ops = {'muli': lambda a, b: a * b, 'addi': lambda a, b: a + b, 'subi': lambda a, b: a - b,
           'divsi': lambda a, b: int(a / b) if b else None, 'maxsi': max, 'minsi': min}
    for _ in range(3):  # definitions may come after uses in the text (nested regions)
        for m in BINOP.finditer(text):
            a, b = env.get(m.group(3)), env.get(m.group(4))
            if a is not None and b is not None:
                env[m.group(1)] = ops[m.group(2)](a, b)
    return env


def view_extents(text, env, ptrs):
    """Elements per pointer argument: the largest 1 + sum((dim - 1) * stride) of its views."""
    need = {p: 1 for p in ptrs}
    for m in VIEW.finditer(text):
        base = m.group(1)
        if base not in need:
            continue
        dims = [d.strip().lstrip('%') for d in m.group(2).split(',')]
        strides = [s.strip().lstrip('%') for s in m.group(3).split(',')]
        vals = [env.get(x) for x in dims + strides]
        if any(v is None for v in vals):
            continue
        n = len(dims)
        ext = 1 + sum(max(vals[i] - 1, 0) * vals[n + i] for i in range(n))
        need[base] = max(need[base], ext)
    return need


def write_payload(path, dtype, count, seed):
    """Deterministic raw bytes for COUNT elements: a 4096-element block repeated."""
    rng = random.Random(seed)
    block = min(count, 4096)
    if dtype == 'f32':
        raw = b''.join(struct.pack('<f', rng.randrange(-128, 128) / 64.0) for _ in range(block))
    elif dtype == 'f16':
        raw = b''.join(struct.pack('<e', rng.randrange(-128, 128) / 64.0) for _ in range(block))
    elif dtype == 'bf16':
        raw = b''.join(struct.pack('<f', rng.randrange(-128, 128) / 64.0)[2:] for _ in range(block))
    else:
        size = ELEM[dtype]
        raw = b''.join(rng.randrange(-8, 8).to_bytes(size, 'little', signed=True)
                       for _ in range(block))
    reps, rest = divmod(count, block)
    chunk = raw * max(1, (1 << 24) // len(raw))
    per = len(chunk) // len(raw)
    with open(path, 'wb') as out:
        while reps >= per:
            out.write(chunk)
            reps -= per
        out.write(raw * reps + raw[:rest * ELEM[dtype]])


def choices(args, text):
    """The scalar assignments to try, in order (see the docstring)."""
    sizes = set(SUBI.findall(text))
    for m in VIEW.finditer(text):
        sizes.update(d.strip().lstrip('%') for d in m.group(2).split(','))
    for size, every in ((32, False), (32, True), (256, False), (256, True), (8192, False)):
        if True:
            scalars = {}
            for name, ty, elem in args:
                if elem:
                    continue
                if name == '__pypto_spmd_block_num':
                    scalars[name] = 1
                elif ty == 'index' and (every or name in sizes):
                    scalars[name] = size
                else:
                    scalars[name] = 0
            yield scalars


def run_with(ptoas, path, rel, tmp, verbose, text, flags, ptrs, scalars):
    """One run with these scalars; the pointer buffers grow while the runtime asks for more."""
    need = view_extents(text, evaluate(text, scalars), ptrs)
    need = {n: min(v, PTR_CAP // ELEM[ptrs[n]]) for n, v in need.items()}
    cmd_args = ['--arg=%s=%d' % (n, v) for n, v in scalars.items()]
    for _ in range(8):
        cmd = [ptoas, 'run'] + flags + [path] + cmd_args
        for name, elem in ptrs.items():
            f = os.path.join(tmp, name + '.bin')
            write_payload(f, elem, need[name], zlib.crc32((rel + name).encode()))
            cmd += ['--in', '%s=%s' % (name, f)]
        if verbose:
            print(' '.join(cmd), file=sys.stderr)
        r = subprocess.run(cmd, capture_output=True, text=True, errors='replace')
        if r.returncode == 0:
            return []
        m = OUTSIDE.search(r.stderr)
        grown = False
        if m:
            want, have = int(m.group(2)) + 1, int(m.group(3))
            for name in ptrs:
                if need[name] == have:
                    most = PTR_CAP // ELEM[ptrs[name]]
                    need[name] = max(want, min(2 * have, most))
                    grown = True
        if not grown:
            return r.stderr.strip().splitlines()[:2]
    return ['buffers kept growing']


def run_one(ptoas, path, rel, tmp, verbose):
    text = open(path, errors='replace').read()
    flags = flags_for(rel)
    r = subprocess.run([ptoas, '--verify-only'] + flags + [path], capture_output=True, text=True,
                       errors='replace')
    if r.returncode != 0:
        return 'verify', r.stderr.strip().splitlines()[:1]
    sig = FUNC.search(text)
    args = ARG.findall(sig.group(1)) if sig else []
    ptrs = {name: elem for name, ty, elem in args if elem}
    first = None
    for scalars in choices(args, text):
        why = run_with(ptoas, path, rel, tmp, verbose, text, flags, ptrs, scalars)
        if not why:
            return 'ok', []
        first = first or why
    return 'run', first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('samples')
    ap.add_argument('--ptoas', default='build/ptoas')
    ap.add_argument('--filter', default='')
    ap.add_argument('-v', action='store_true')
    a = ap.parse_args()
    files = []
    for top in sorted(os.listdir(a.samples)):
        if not re.match(r'(DeepseekV4|Qwen3)', top):
            continue
        aic = os.path.join(a.samples, top, 'kernels', 'aic')
        if not os.path.isdir(aic):
            continue
        for f in sorted(os.listdir(aic)):
            rel = os.path.join(top, 'kernels', 'aic', f)
            if f.endswith('.pto') and re.search(a.filter, rel):
                if not PIPE.search(open(os.path.join(a.samples, rel), errors='replace').read()):
                    files.append(rel)
    counts = {'ok': 0, 'run': 0, 'verify': 0}
    with tempfile.TemporaryDirectory() as tmp:
        for rel in files:
            what, why = run_one(a.ptoas, os.path.join(a.samples, rel), rel, tmp, a.v)
            counts[what] += 1
            if what != 'ok':
                print('%s: %s failed: %s' % (rel, what, ' | '.join(why)))
    print('samples: files %d, verify-ok %d, run-ok %d'
          % (len(files), counts['ok'] + counts['run'], counts['ok']))
    return 0 if counts['ok'] == len(files) else 1


if __name__ == '__main__':
    sys.exit(main())
