#!/usr/bin/env python3
"""Property test of placement over regions (docs/memory.md sections 3 and 4), independent of
tassign's code.

Generates seeded random Level 2 programs whose tiles (two sizes, vec) are loaded from a
tensor, moved between each other and stored to another, inside nested scf.for loops (constant
trip counts 0 to 3, rows picked by the induction variable or a constant) and scf.if branches
(on i1 arguments), with tiles allocated at the top and inside bodies. A tile is read only
where it was written before on every path, so a program's result does not depend on where its
tiles live. For every program it runs `ptoas --memory-report --verify-only` and checks, from
the report and its own liveness model of the rules in docs/memory.md 3.2:

  - each tile's live range is the one the rules give (pre-order numbering; a tile used in a
    loop is live over the whole loop when live before or after it, or read in an iteration
    before written, where a write inside an scf.if or an inner loop may not happen; a tile
    allocated inside a loop is never extended);
  - no two tiles whose live ranges overlap share a byte;
  - the peak equals the lower bound (the largest total of aligned sizes live at one op).

For every RUN_EVERY-th program it also runs the kernel with `ptoas run` twice, with reuse and
with --no-reuse (every tile at its own bytes), and requires the two outputs to be identical
byte for byte, for two settings of the i1 arguments.

usage: random_loops.py PTOAS [--seed N] [--count N] [--run-every N] [--keep DIR]
"""
import argparse
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

SIZES = {'A': (8, 32), 'B': (16, 32)}    # f32 tile shapes: 1024 and 2048 bytes
ROWS = 64
COLS = 32


class Prog:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.tiles = []         # (name, kind, block id where allocated)
        self.nv = 0
        self.blocks = 0         # block ids: 0 is the function body
        self.ops = []           # numbered ops: (k, [(tile, write)], block id, loops it is in)
        self.loops = []         # (block id of its body, [enclosing loop indices])
        self.block_loops = {0: []}  # block id -> the loops it is in

    def fresh(self, base):
        self.nv += 1
        return '%s%d' % (base, self.nv)

    def emit(self, depth, text):
        self.lines.append('  ' * (depth + 2) + text)

    def view(self, depth, kind, row, src):
        r, c = SIZES[kind]
        v = self.fresh('p')
        self.emit(depth, '%%%s = pto.partition_view %%%s, offsets = [%s, %%c0], sizes = [%%c%d, %%c%d] : '
                         '!pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<%dx%dxf32>'
                  % (v, src, row, r, c, r, c))
        return v

    def numbered(self, acc, blk, loops):
        self.ops.append((len(self.ops), acc, blk, list(loops)))

    def stmts(self, depth, blk, loops, init, rows, budget):
        """Random statements in block blk; init is the set of tiles written on every path so
        far (updated in place for this block); rows the row expressions available."""
        local = []
        n = self.rng.randint(1, 4)
        for _ in range(n):
            if budget[0] <= 0:
                break
            budget[0] -= 1
            choice = self.rng.random()
            visible = [t for t in self.tiles if t[0] in self.visible]
            if choice < 0.12 and depth < 3:
                trips = self.rng.randint(0, 3)
                iv = self.fresh('i')
                self.emit(depth, 'scf.for %%%s = %%c0 to %%c%d step %%c1 {' % (iv, trips))
                self.blocks += 1
                body = self.blocks
                self.loops.append((body, list(loops)))
                li = len(self.loops) - 1
                self.block_loops[body] = loops + [li]
                inner = set(init)
                self.stmts(depth + 1, body, loops + [li], inner, rows + ['%' + iv], budget)
                self.emit(depth, '}')
            elif choice < 0.22 and depth < 3:
                pred = self.rng.choice(['%p0', '%p1'])
                self.emit(depth, 'scf.if %s {' % pred)
                self.blocks += 1
                self.block_loops[self.blocks] = list(loops)
                then_init = set(init)
                self.stmts(depth + 1, self.blocks, loops, then_init, rows, budget)
                if self.rng.random() < 0.6:
                    self.emit(depth, '} else {')
                    self.blocks += 1
                    self.block_loops[self.blocks] = list(loops)
                    else_init = set(init)
                    self.stmts(depth + 1, self.blocks, loops, else_init, rows, budget)
                    init |= then_init & else_init
                self.emit(depth, '}')
            elif choice < 0.32 or not visible:
                kind = self.rng.choice('AB')
                name = self.fresh('t')
                r, c = SIZES[kind]
                self.emit(depth, '%%%s = pto.alloc_tile : !pto.tile_buf<vec, %dx%dxf32>' % (name, r, c))
                self.tiles.append((name, kind, blk))
                self.visible.add(name)
                local.append(name)
            elif choice < 0.55:
                name, kind, _ = self.rng.choice(visible)
                v = self.view(depth, kind, self.rng.choice(rows), 'vx')
                r, c = SIZES[kind]
                self.emit(depth, 'pto.tload ins(%%%s : !pto.partition_tensor_view<%dx%dxf32>) outs(%%%s : '
                                 '!pto.tile_buf<vec, %dx%dxf32>)' % (v, r, c, name, r, c))
                self.numbered([(name, True)], blk, loops)
                init.add(name)
            elif choice < 0.8:
                src = [t for t in visible if t[0] in init]
                if not src:
                    continue
                s = self.rng.choice(src)
                dsts = [t for t in visible if t[1] == s[1] and t[0] != s[0]]
                if not dsts:
                    continue
                d = self.rng.choice(dsts)
                r, c = SIZES[s[1]]
                ty = '!pto.tile_buf<vec, %dx%dxf32>' % (r, c)
                self.emit(depth, 'pto.tmov ins(%%%s : %s) outs(%%%s : %s)' % (s[0], ty, d[0], ty))
                self.numbered([(s[0], False), (d[0], True)], blk, loops)
                init.add(d[0])
            else:
                src = [t for t in visible if t[0] in init]
                if not src:
                    continue
                name, kind, _ = self.rng.choice(src)
                v = self.view(depth, kind, self.rng.choice(rows), 'vy')
                r, c = SIZES[kind]
                self.emit(depth, 'pto.tstore ins(%%%s : !pto.tile_buf<vec, %dx%dxf32>) outs(%%%s : '
                                 '!pto.partition_tensor_view<%dx%dxf32>)' % (name, r, c, v, r, c))
                self.numbered([(name, False)], blk, loops)
        for name in local:   # out of scope after the block
            self.visible.discard(name)
            init.discard(name)

    def generate(self):
        self.visible = set()
        self.stmts(0, 0, [], set(), ['%c0', '%c8', '%c40'], [self.rng.randint(4, 22)])
        head = ['module attributes {pto.target_arch = "a5"} {',
                '  func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %p0: i1, %p1: i1) {']
        for c in (0, 1, 2, 3, 8, 16, 32, 40, ROWS):
            head.append('    %%c%d = arith.constant %d : index' % (c, c))
        for v, p in (('vx', 'x'), ('vy', 'y')):
            head.append('    %%%s = pto.make_tensor_view %%%s, shape = [%%c%d, %%c%d], strides = [%%c%d, %%c1] : '
                        '!pto.tensor_view<?x?xf32>' % (v, p, ROWS, COLS, COLS))
        return '\n'.join(head + self.lines + ['    return', '  }', '}', ''])

    def liveness(self):
        """The live range of each tile by docs/memory.md 3.2, or None when never accessed."""
        acc = {}
        for k, a, blk, loops in self.ops:
            for t, w in a:
                acc.setdefault(t, []).append((k, w, blk, loops))
        live = {}
        alloc_block = {t: b for t, _, b in self.tiles}
        for t, xs in acc.items():
            # reads come before writes within one op
            xs.sort(key=lambda x: (x[0], x[1]))
            start = xs[0][0] if xs[0][1] else 0
            live[t] = [start, max(x[0] for x in xs)]
        # the blocks of each loop (its body and everything nested in it)
        inside = {i: set() for i in range(len(self.loops))}
        for k, a, blk, loops in self.ops:
            for li in loops:
                inside[li].add(k)
        for i in range(len(self.loops) - 1, -1, -1):
            if not inside[i]:
                continue
            lo, hi = min(inside[i]), max(inside[i])
            body = self.loops[i][0]
            for t, xs in acc.items():
                ab = alloc_block[t]
                # allocated inside the loop: its block is the body or nested in it
                if i in self.block_loops[ab]:
                    continue
                ins = [x for x in xs if lo <= x[0] <= hi]
                if not ins:
                    continue
                f = ins[0]
                carried = (not f[1]) or f[2] != body
                s, e = live[t]
                if s < lo or e > hi or carried:
                    live[t] = [min(s, lo), max(e, hi)]
        return live


def parse_report(text):
    tiles, summary = {}, None
    for line in text.splitlines():
        m = re.match(r'^vec: capacity \d+, peak (\d+), lower-bound (\d+)$', line)
        if m:
            summary = (int(m.group(1)), int(m.group(2)))
        m = re.match(r'^  %(\S+) addr (\d+) size (\d+) live (\[\]|\[(\d+), (\d+)\])$', line)
        if m:
            lv = None if m.group(4) == '[]' else [int(m.group(5)), int(m.group(6))]
            tiles[m.group(1)] = (int(m.group(2)), int(m.group(3)), lv)
    return tiles, summary


def check_placement(p, text):
    errs = []
    tiles, summary = parse_report(text)
    want = p.liveness()
    for name, _, _ in p.tiles:
        if name not in tiles:
            errs.append('%%%s missing from the report' % name)
            continue
        if tiles[name][2] != want.get(name):
            errs.append('%%%s live %s, expected %s' % (name, tiles[name][2], want.get(name)))
    live = [(n, a, s, lv) for n, (a, s, lv) in tiles.items() if lv]
    for i in range(len(live)):
        for j in range(i + 1, len(live)):
            n1, a1, s1, l1 = live[i]
            n2, a2, s2, l2 = live[j]
            if l1[0] <= l2[1] and l2[0] <= l1[1] and a1 < a2 + s2 and a2 < a1 + s1:
                errs.append('%%%s and %%%s are live together and share bytes' % (n1, n2))
    if summary and summary[0] != summary[1]:
        errs.append('peak %d != lower bound %d' % summary)
    if live and summary is None:
        errs.append('no vec summary line')
    return errs


def npy(path, data):
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (ROWS, COLS)
    hdr += ' ' * ((64 - (10 + len(hdr) + 1) % 64) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode() + data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ptoas')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=520)
    ap.add_argument('--run-every', type=int, default=1)
    ap.add_argument('--keep')
    a = ap.parse_args()
    d = a.keep or tempfile.mkdtemp()
    os.makedirs(d, exist_ok=True)
    npy(os.path.join(d, 'x.npy'), b''.join(struct.pack('<f', float(i) * 0.5 - 100) for i in range(ROWS * COLS)))
    npy(os.path.join(d, 'y.npy'), bytes(4 * ROWS * COLS))
    fails = runs = loops = 0
    for n in range(a.count):
        rng = random.Random(a.seed * 100003 + n)
        p = Prog(rng)
        src = p.generate()
        loops += len(p.loops) > 0
        f = os.path.join(d, 'p%d.pto' % n)
        with open(f, 'w') as fh:
            fh.write(src)
        r = subprocess.run([a.ptoas, '--memory-report', '--verify-only', f], capture_output=True, text=True)
        errs = ['ptoas failed: ' + r.stderr.strip()] if r.returncode else check_placement(p, r.stdout)
        if not errs and n % a.run_every == 0:
            runs += 1
            for preds in (('1', '0'), ('0', '1')):
                outs = []
                for extra in ([], ['--no-reuse']):
                    out = os.path.join(d, 'p%d.%s.npy' % (n, 'own' if extra else 'reuse'))
                    cmd = [a.ptoas, 'run'] + extra + [f, '--in', 'x=' + os.path.join(d, 'x.npy'), '--in',
                                                      'y=' + os.path.join(d, 'y.npy'), '--arg', 'p0=' + preds[0],
                                                      '--arg', 'p1=' + preds[1], '--out', 'y=' + out]
                    rr = subprocess.run(cmd, capture_output=True, text=True)
                    if rr.returncode:
                        errs.append('run failed: ' + rr.stderr.strip())
                        break
                    outs.append(open(out, 'rb').read())
                if len(outs) == 2 and outs[0] != outs[1]:
                    errs.append('outputs differ with and without --no-reuse (p0=%s p1=%s)' % preds)
        if errs:
            fails += 1
            print('FAIL %s:' % f)
            for e in errs[:5]:
                print('  ' + e)
    print('%d programs checked (%d with loops, %d run with and without --no-reuse), %d failures'
          % (a.count, loops, runs, fails))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
