#!/usr/bin/env python3
"""Property test of Level 1 tiles carried through loops (docs/memory.md 2.2): seeded random
kernels whose scf.for / scf.while loops carry 1 to 4 tiles and pass them back in any order.

Each terminator (scf.yield, scf.condition) picks, per position, one of: the loop's own
carried tiles in another order (a permutation, a rotation, a swap), the same one twice, a
value from outside the loop (a function argument, a loop init, an earlier loop's result), or
a tile computed in the body. Loops nest (an scf.for, scf.while or scf.if inside a body) and
inits repeat (two iter_args sharing one init). bufferize must turn every terminator into one
parallel copy; a kernel whose moves act one after another returns the wrong tiles.

Every kernel runs with `ptoas run` with and without --no-reuse and with test/run/ref.py (which
gives every SSA tile its own array and knows nothing of buffers); all three outputs must be
identical byte for byte. The first failure keeps its kernel and inputs in --keep DIR.

usage: random_yields.py PTOAS [--seed N] [--count N] [--keep DIR] [--print N]
  --print N   write kernel N to stdout and exit (for the fuzz corpus seeds)
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
T = '!pto.tile<vec, 8x32xf32>'
BIN = ('tadd', 'tsub', 'tmax')
SCALAR = ('tadds', 'tmuls')


class Kernel:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.nv = 0

    def fresh(self, base):
        self.nv += 1
        return '%%%s%d' % (base, self.nv)

    def emit(self, depth, text):
        self.lines.append('  ' * (depth + 2) + text)

    def compute(self, depth, pool):
        """A tile computed from pool values: a binary op, or one with a scalar."""
        v = self.fresh('t')
        if self.rng.random() < 0.5:
            op = self.rng.choice(BIN)
            a, b = self.rng.choice(pool), self.rng.choice(pool)
            self.emit(depth, '%s = pto.%s %s, %s : (%s, %s) -> %s' % (v, op, a, b, T, T, T))
        else:
            op = self.rng.choice(SCALAR)
            s = self.rng.choice(('%half', '%one', '%mtwo'))
            self.emit(depth, '%s = pto.%s %s, %s : (%s, f32) -> %s' % (v, op, self.rng.choice(pool), s, T, T))
        return v

    def choose(self, args, pool, k):
        """k values for a terminator: the carried args reordered, duplicated, or mixed with
        outer and computed values."""
        rng = self.rng
        how = rng.randrange(5)
        if how == 0 and len(args) == k:                      # a permutation
            vals = list(args)
            rng.shuffle(vals)
        elif how == 1 and len(args) == k:                    # a rotation
            vals = args[1:] + args[:1]
        elif how == 2:                                       # one value everywhere
            vals = [rng.choice(args + pool)] * k
        else:                                                # anything in scope
            vals = [rng.choice(args + pool) for _ in range(k)]
        return vals

    def body(self, depth, args, outer, budget):
        """Ops of a loop body over carried args and outer values; returns the local pool."""
        pool = list(outer)
        local = list(args)
        for _ in range(self.rng.randrange(3)):
            local.append(self.compute(depth, local + pool))
        if budget > 0 and self.rng.random() < 0.5:
            local += self.construct(depth, local + pool, budget - 1)
        return local, pool

    def construct(self, depth, pool, budget):
        """A loop or branch whose tile results are returned (they join the caller's pool)."""
        kind = self.rng.choice(('for', 'for', 'while', 'if') if depth > 0 else ('for', 'while'))
        k = self.rng.randint(1, 4)
        inits = [self.rng.choice(pool) for _ in range(k)]
        res = self.fresh('r')
        names = ['%s#%d' % (res, i) for i in range(k)] if k > 1 else [res]
        head = '%s:%d' % (res, k) if k > 1 else res
        types = ', '.join([T] * k)
        if kind == 'for':
            trip = self.rng.choice(('%n', '%m', '%c2'))
            args = [self.fresh('a') for _ in range(k)]
            iv = self.fresh('i')
            self.emit(depth, '%s = scf.for %s = %%c0 to %s step %%c1 iter_args(%s) -> (%s) {'
                      % (head, iv, trip, ', '.join('%s = %s' % p for p in zip(args, inits)), types))
            local, outer = self.body(depth + 1, args, pool, budget)
            vals = self.choose(args, local[len(args):] + outer, k)
            self.emit(depth + 1, 'scf.yield %s : %s' % (', '.join(vals), types))
            self.emit(depth, '}')
        elif kind == 'while':
            trip = self.rng.choice(('%n', '%m'))
            cnt, cnt2 = self.fresh('j'), self.fresh('j')
            before = [self.fresh('b') for _ in range(k)]
            after = [self.fresh('u') for _ in range(k)]
            self.emit(depth, '%s:%d = scf.while (%s = %%c0, %s) : (index, %s) -> (index, %s) {'
                      % (res, k + 1, cnt, ', '.join('%s = %s' % p for p in zip(before, inits)), types, types))
            go = self.fresh('go')
            local, outer = self.body(depth + 1, before, pool, 0)
            self.emit(depth + 1, '%s = arith.cmpi slt, %s, %s : index' % (go, cnt, trip))
            cvals = self.choose(before, local[len(before):] + outer, k)
            self.emit(depth + 1, 'scf.condition(%s) %s, %s : index, %s' % (go, cnt, ', '.join(cvals), types))
            self.emit(depth, '} do {')
            self.emit(depth, '^bb0(%s: index, %s):' % (cnt2, ', '.join('%s: %s' % (a, T) for a in after)))
            local, outer = self.body(depth + 1, after, pool, budget)
            nxt = self.fresh('j')
            self.emit(depth + 1, '%s = arith.addi %s, %%c1 : index' % (nxt, cnt2))
            yvals = self.choose(after, local[len(after):] + outer, k)
            self.emit(depth + 1, 'scf.yield %s, %s : index, %s' % (nxt, ', '.join(yvals), types))
            self.emit(depth, '}')
            names = ['%s#%d' % (res, i + 1) for i in range(k)]
        else:
            cond = self.fresh('cc')
            self.emit(depth, '%s = arith.cmpi slt, %%c1, %%n : index' % cond)
            self.emit(depth, '%s = scf.if %s -> (%s) {' % (head, cond, types))
            for part in range(2):
                local, outer = self.body(depth + 1, [], pool, 0)
                vals = [self.rng.choice(local + outer) for _ in range(k)]
                self.emit(depth + 1, 'scf.yield %s : %s' % (', '.join(vals), types))
                self.emit(depth, '} else {' if part == 0 else '}')
        return names

    def text(self):
        rng = self.rng
        self.lines = []
        pool = ['%x', '%y']
        results = []
        for _ in range(rng.randint(1, 2)):
            names = self.construct(0, pool, 2)
            pool += names
            results = names
        outs = []
        for r in results + [rng.choice(pool)]:
            o = '%%out%d' % len(outs)
            self.emit(0, '%s = pto.tmov %s : (%s) -> %s' % (o, r, T, T))
            outs.append(o)
        head = [
            'module attributes {pto.target_arch = "a5"} {',
            '  func.func @k(%%x: %s, %%y: %s, %%n: index, %%m: index) -> (%s) {'
            % (T, T, ', '.join([T] * len(outs))),
            '    %c0 = arith.constant 0 : index',
            '    %c1 = arith.constant 1 : index',
            '    %c2 = arith.constant 2 : index',
            '    %half = arith.constant 0.5 : f32',
            '    %one = arith.constant 1.0 : f32',
            '    %mtwo = arith.constant -2.0 : f32',
        ]
        tail = ['    return %s : %s' % (', '.join(outs), ', '.join([T] * len(outs))), '  }', '}', '']
        return '\n'.join(head + self.lines + tail), [o[1:] for o in outs]


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)


def check(ptoas, idx, text, outs, d, rng):
    path = os.path.join(d, 'k%d.pto' % idx)
    with open(path, 'w') as f:
        f.write(text)
    args = ['--in', 'x=' + os.path.join(d, 'x.npy'), '--in', 'y=' + os.path.join(d, 'y.npy'),
            '--arg', 'n=%d' % rng.randint(0, 3), '--arg', 'm=%d' % rng.randint(0, 3)]
    got = {}
    for tag, cmd in (('ref', [sys.executable, os.path.join(HERE, 'ref.py'), 'run', path]),
                     ('reuse', [ptoas, 'run', path]), ('noreuse', [ptoas, 'run', '--no-reuse', path])):
        files = [os.path.join(d, '%s.%s.npy' % (o, tag)) for o in outs]
        r = run(cmd + args + sum((['--out', '%s=%s' % (o, fn)] for o, fn in zip(outs, files)), []))
        if r.returncode != 0:
            return '%s failed (exit %d): %s' % (tag, r.returncode, r.stdout.strip()[-2000:])
        got[tag] = [open(fn, 'rb').read() for fn in files]
    for tag in ('reuse', 'noreuse'):
        for o, a, b in zip(outs, got['ref'], got[tag]):
            if a != b:
                return 'ptoas run (%s) differs from ref.py in %s (%s)' % (tag, o, ' '.join(args))
    return None


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument('ptoas')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=40)
    ap.add_argument('--keep')
    ap.add_argument('--print', type=int, dest='print_idx')
    o = ap.parse_args(argv)
    if o.print_idx is not None:
        sys.stdout.write(Kernel(random.Random(o.seed * 100003 + o.print_idx)).text()[0])
        return 0
    d = o.keep or tempfile.mkdtemp(prefix='yields')
    os.makedirs(d, exist_ok=True)
    r = run([sys.executable, os.path.join(HERE, 'gen.py'), d, 'x:f32:8x32:normal', 'y:f32:8x32:ramp'])
    if r.returncode != 0:
        print(r.stdout)
        return 1
    failures = 0
    for i in range(o.count):
        rng = random.Random(o.seed * 100003 + i)
        text, outs = Kernel(rng).text()
        err = check(o.ptoas, i, text, outs, d, rng)
        if err:
            failures += 1
            print('kernel %d (%s): %s' % (i, os.path.join(d, 'k%d.pto' % i), err))
    print('%d kernels checked, %d failures' % (o.count, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
