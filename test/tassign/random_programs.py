#!/usr/bin/env python3
"""Property test of the tassign pass (docs/memory.md), independent of its code.

Generates seeded random straight-line Level 2 programs (tmov chains across
layouts and memory spaces, INT8 tquant with and without tmp, tdequant,
tgemv.bias, some pinned tiles, some tiles read before written or never used),
runs `ptoas --memory-report --memory-map --verify-only` on them, and checks
from the printed report and its own liveness computation of each program:

  - every tile is reported with the size (inner boxes, compact row_plus_one)
    and the live range docs/memory.md defines, unused tiles `live []` at 0;
  - addresses are aligned per space, non-negative and within capacity;
    pinned tiles keep their address;
  - no two tiles with overlapping live ranges share bytes (per space);
  - the summary's peak and lower bound are the ones defined in section 4;
  - peak <= the total of aligned sizes (never worse than no reuse) when
    nothing is pinned, and peak == lower bound where first-fit provably
    reaches it: every tile of the space has the same aligned size (interval
    graph colouring), or every two live ranges overlap (a clique);
  - the memory map draws the same tiles, padded, with one mark per op;
  - programs whose lower bound exceeds the capacity fail with the overflow
    error.

usage: random_programs.py PTOAS [--seed N] [--count N] [--keep DIR]
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

CAP = {
    'a3': {'vec': 196608, 'mat': 524288, 'left': 65536, 'right': 65536,
           'acc': 131072, 'bias': 65536, 'scaling': 196608},
    'a5': {'vec': 253952, 'mat': 524288, 'left': 65536, 'right': 65536,
           'acc': 262144, 'bias': 65536, 'scaling': 253952},
}
ALIGN = {'vec': 32, 'mat': 32, 'left': 512, 'right': 512, 'acc': 512,
         'bias': 32, 'scaling': 32}
SPACES = ['vec', 'mat', 'left', 'right', 'acc', 'bias', 'scaling']
DSIZE = {'f32': 4, 'f16': 2, 'bf16': 2, 'i8': 1, 'ui8': 1, 'i16': 2,
         'i32': 4, 'f8E4M3FN': 1}
# a per-space budget for the tiles of one program, so that placing every
# tile without reuse fits (first-fit then always succeeds)
ELEMS = {'vec': 4096, 'mat': 8192, 'left': 2048, 'right': 2048, 'acc': 2048,
         'bias': 16, 'scaling': 32}


def round_up(x, m):
    return (x + m - 1) // m * m


class Tile:
    """A tile type: loc, dtype, rows x cols, valid vr x vc, layouts."""

    def __init__(self, loc, dt, rows, cols, vr, vc, bl='row_major',
                 sl='none_box', fr=512, compact=0):
        self.loc, self.dt, self.rows, self.cols = loc, dt, rows, cols
        self.vr, self.vc, self.bl, self.sl, self.fr = vr, vc, bl, sl, fr
        self.compact = compact

    def spell(self):
        s = '!pto.tile_buf<%s, %dx%dx%s' % (self.loc, self.rows, self.cols, self.dt)
        if (self.vr, self.vc) != (self.rows, self.cols):
            s += ', valid=%dx%d' % (self.vr, self.vc)
        if self.bl != 'row_major':
            s += ', blayout=' + self.bl
        if self.sl != 'none_box':
            s += ', slayout=' + self.sl
        if self.fr != 512:
            s += ', fractal=%d' % self.fr
        if self.compact:
            s += ', compact=%d' % self.compact
        return s + '>'

    def moved(self, loc):
        """The same tile type in another space."""
        return Tile(loc, self.dt, self.rows, self.cols, self.vr, self.vc,
                    self.bl, self.sl, self.fr, self.compact)

    def inner(self):
        """docs/verify.md section 1: the inner box in elements."""
        sz = DSIZE[self.dt]
        if self.sl == 'none_box':
            return 1, 1
        if self.fr == 1024:
            return 16, 16
        if self.fr == 32:
            return (16, 2) if self.sl == 'row_major' else (2, 16)
        return (16, 32 // sz) if self.sl == 'row_major' else (32 // sz, 16)

    def size(self):
        """docs/memory.md section 1."""
        sz = DSIZE[self.dt]
        if self.compact == 2:
            major, minor = (self.rows, self.cols) if self.bl == 'row_major' else (self.cols, self.rows)
            return ((major - 1) * (minor + 1) + minor) * sz
        ir, ic = self.inner()
        return round_up(self.rows, ir) * round_up(self.cols, ic) * sz

    def asize(self):
        return round_up(self.size(), ALIGN[self.loc])


def tmov_dtypes(arch):
    """Element types a tmov takes: PTOAS has no low-precision tmov on A2/A3."""
    return [d for d in DSIZE if arch == 'a5' or d != 'f8E4M3FN']


# the (src, dst) address spaces of a tmov PTOAS allows (docs/verify.md): mat
# feeds left, right, bias and scaling; acc drains to mat and vec; vec moves to
# vec, and on A5 to mat as well
PAIRS = {
    'a3': [('vec', 'vec'), ('mat', 'left'), ('mat', 'right'), ('mat', 'bias'),
           ('mat', 'scaling'), ('acc', 'mat'), ('acc', 'vec')],
}
PAIRS['a5'] = PAIRS['a3'] + [('vec', 'mat')]
# the sets of spaces a uniform program uses: each holds at least one pair
PAIR_SPACES = {arch: [sorted(set(pr)) for pr in prs] + [['acc', 'mat', 'vec'], ['left', 'mat', 'right']]
               for arch, prs in PAIRS.items()}


def same_physical(arch, src_loc):
    """PTOAS: a tmov from mat, and every A2/A3 tmov, keeps the physical shape."""
    return arch != 'a5' or src_loc == 'mat'


def physical(rng, loc, dt, vr, vc, plain=False):
    """A random valid tile type of valid shape vr x vc."""
    sz = DSIZE[dt]
    per = 32 // sz
    kinds = ['nd'] if plain else ['nd', 'nd', 'dn', 'nz', 'zn', 'f1024', 'f32', 'compact']
    for _ in range(20):
        k = rng.choice(kinds)
        pad_r = rng.choice([0, 0, 0, 1, 3])
        pad_c = rng.choice([0, 0, 0, 1])
        if k == 'nd' or k == 'compact':
            t = Tile(loc, dt, vr + pad_r, round_up(vc + pad_c * per, per), vr, vc,
                     compact=2 if k == 'compact' else 0)
        elif k == 'dn':
            t = Tile(loc, dt, round_up(vr + pad_r, per), vc + pad_c, vr, vc, bl='col_major')
        else:
            bl, sl, fr = {'nz': ('col_major', 'row_major', 512),
                          'zn': ('row_major', 'col_major', 512),
                          'f1024': ('col_major', 'row_major', 1024),
                          'f32': ('row_major', 'row_major', 32)}[k]
            t = Tile(loc, dt, vr, vc, vr, vc, bl, sl, fr)
            ir, ic = t.inner()
            t.cols = round_up(vc + pad_c, ic)
            t.rows = vr + pad_r
            if not (t.rows == 1 or fr == 32 or loc == 'vec'):
                t.rows = round_up(t.rows, ir)
        if t.size() <= ELEMS[loc] * 4:
            return t
    return Tile(loc, dt, vr, round_up(vc, per), vr, vc)


class Prog:
    def __init__(self, rng, name, arch, mode):
        self.rng, self.name, self.arch, self.mode = rng, name, arch, mode
        self.args = []          # (name, Tile)
        self.allocs = []        # (name, Tile, pinned addr or None, how)
        self.types = {}
        self.ops = []           # (text, reads, writes)
        self.scratch = []       # compiler-made tmp tiles: (name, Tile, op index)
        self.n = 0

    def fresh(self):
        self.n += 1
        return 't%d' % self.n

    def arg(self, t):
        nm = 'a%d' % (len(self.args) + 1)
        self.args.append((nm, t))
        self.types[nm] = t
        return nm

    def alloc(self, t):
        nm = self.fresh()
        self.allocs.append([nm, t, None, None])
        self.types[nm] = t
        return nm

    def retype(self, nm, t):
        """Gives the alloc nm the type t (before any op uses it)."""
        self.types[nm] = t
        for a in self.allocs:
            if a[0] == nm:
                a[1] = t

    def op(self, text, reads, writes):
        self.ops.append((text, reads, writes))

    def ty(self, nm):
        return self.types[nm].spell()

    # ---- op builders ----
    def tmov(self, src, dst, tmp=None):
        ins = [src] + ([tmp] if tmp else [])
        self.op('pto.tmov ins(%s : %s) outs(%%%s : %s)' % (
            ', '.join('%' + x for x in ins), ', '.join(self.ty(x) for x in ins), dst, self.ty(dst)),
            [src], [dst] + ([tmp] if tmp else []))

    def tquant(self, src, scale, dst, offset=None, tmp=None):
        ins = [src, scale] + ([offset] if offset else [])
        outs = [dst] + ([tmp] if tmp else [])
        q = 'INT8_ASYM' if offset else 'INT8_SYM'
        self.op('pto.tquant ins(%s : %s) outs(%s : %s) {quant_type = #pto<quant_type %s>}' % (
            ', '.join('%' + x for x in ins), ', '.join(self.ty(x) for x in ins),
            ', '.join('%' + x for x in outs), ', '.join(self.ty(x) for x in outs), q),
            ins, outs)
        if not tmp and self.arch != 'a5':
            s = self.types[src]
            base = dst + '.tmp'
            nm, k = base, 0
            while nm in self.types:
                k += 1
                nm = '%s_%d' % (base, k)
            dyn = s.vr == '?' or s.vc == '?'  # a dynamic valid shape: all valid (departures.md 2)
            self.types[nm] = Tile('vec', 'f32', s.rows, s.cols, s.rows if dyn else s.vr, s.cols if dyn else s.vc)
            self.scratch.append((nm, self.types[nm], len(self.ops) - 1))
            self.ops[-1][2].append(nm)

    def tdequant(self, src, scale, offset, dst):
        ins = [src, scale, offset]
        self.op('pto.tdequant ins(%s : %s) outs(%%%s : %s)' % (
            ', '.join('%' + x for x in ins), ', '.join(self.ty(x) for x in ins), dst, self.ty(dst)),
            ins, [dst])

    def tgemv(self, a, b, bias, c):
        ins = [a, b, bias]
        self.op('pto.tgemv.bias ins(%s : %s) outs(%%%s : %s)' % (
            ', '.join('%' + x for x in ins), ', '.join(self.ty(x) for x in ins), c, self.ty(c)),
            ins, [c])

    # ---- liveness (docs/memory.md section 3), independent of the pass ----
    def liveness(self):
        n = len(self.ops)
        first, first_w, last = {}, {}, {}
        for k, (_, reads, writes) in enumerate(self.ops):
            for x in reads:
                first.setdefault(x, k)
                first_w.setdefault(x, False)
                last[x] = k
            for x in writes:
                first.setdefault(x, k)
                first_w.setdefault(x, True)
                last[x] = k
        live = {}
        for nm, _ in self.args:
            live[nm] = (0, n - 1)
        for nm in [a[0] for a in self.allocs] + [s[0] for s in self.scratch]:
            if nm not in first:
                live[nm] = None
            else:
                live[nm] = (first[nm] if first_w[nm] else 0, last[nm])
        return live

    def text(self):
        out = []
        sig = ', '.join('%%%s: %s' % (nm, t.spell()) for nm, t in self.args)
        out.append('  func.func @%s(%s) {' % (self.name, sig))
        consts = sorted({a[2] for a in self.allocs if a[2] is not None})
        for c in consts:
            out.append('    %%p%d = arith.constant %d : i64' % (c, c))
        by_first = {}
        for i, (_, r, w) in enumerate(self.ops):
            for x in r + w:
                by_first.setdefault(x, i)
        # each alloc right before its first use (unused ones at the top)
        pending = {}
        for nm, t, addr, how in self.allocs:
            pending.setdefault(by_first.get(nm, -1), []).append((nm, t, addr, how))

        def emit_alloc(nm, t, addr, how):
            if addr is not None and how == 'addr':
                out.append('    %%%s = pto.alloc_tile addr = %%p%d : %s' % (nm, addr, t.spell()))
            else:
                out.append('    %%%s = pto.alloc_tile : %s' % (nm, t.spell()))
                if addr is not None:
                    out.append('    pto.tassign %%%s, @tile(%d)' % (nm, addr))
        for a in pending.get(-1, []):
            emit_alloc(*a)
        for i, (text, _, _) in enumerate(self.ops):
            for a in pending.get(i, []):
                emit_alloc(*a)
            out.append('    ' + text)
        out.append('    return')
        out.append('  }')
        return '\n'.join(out)


def gen_program(rng, name, arch, mode):
    p = Prog(rng, name, arch, mode)
    uniform = mode == 'uniform'
    clique = mode == 'clique'
    nops = rng.randint(1, 14)
    if uniform:
        # every tile of a space has one aligned size: one (dtype, shape) for the
        # program, so that a move between any pair of its spaces keeps the shape
        spaces = ['vec'] if rng.random() < 0.5 else rng.choice(
            [ps for ps in PAIR_SPACES[arch] if len(ps) > 1])
        dt = rng.choice(['f32', 'f16', 'i8'])
        per = 32 // DSIZE[dt]
        if 'bias' in spaces:
            r, c = 1, per * rng.randint(1, 2)
        elif 'scaling' in spaces:
            r, c = rng.randint(1, 2), per
        else:
            r, c = rng.randint(1, 32), per * rng.randint(1, 4)
        pairs = [pr for pr in PAIRS[arch] if pr[0] in spaces and pr[1] in spaces]
        pool = []
        for sp in spaces:
            for _ in range(rng.randint(0, 2)):
                pool.append(p.arg(Tile(sp, dt, r, c, r, c)))
        for _ in range(nops):
            a, b = rng.choice(pairs)
            cands = [x for x in pool if p.types[x].loc == a]
            if not cands or rng.random() < 0.2:
                src = p.alloc(Tile(a, dt, r, c, r, c))      # read before written
            else:
                src = rng.choice(cands)
            cands = [x for x in pool if p.types[x].loc == b and x != src]
            if cands and rng.random() < 0.25:
                dst = rng.choice(cands)                      # written again
            else:
                dst = p.alloc(Tile(b, dt, r, c, r, c))
            p.tmov(src, dst)
            pool.append(dst)
        if rng.random() < 0.3:
            p.alloc(Tile(rng.choice(spaces), dt, r, c, r, c))  # never used
        return p
    spaces = ['vec'] if rng.random() < 0.5 else rng.sample(SPACES, rng.randint(1, 3))
    if clique:
        # every live range contains op 0: arguments, and tiles read before
        # they are written (live from entry), possibly written later; the
        # readers are in a and the sinks in b, a pair PTOAS's tmov allows
        a, b = ('vec', 'vec') if rng.random() < 0.5 else rng.choice(PAIRS[arch])
        acc_mat = arch != 'a5' and (a, b) == ('acc', 'mat')  # PTOAS: a fractal-512 dst
        dts = tmov_dtypes(arch)
        sinks, readers = [], []
        for _ in range(rng.randint(1, 3)):
            dt = rng.choice(dts)
            per = 32 // DSIZE[dt]
            # boxes that fit both spaces when the readers take the sinks' shape
            t = physical(rng, a if a != 'vec' else b, dt, rng.randint(1, 8), per * rng.randint(1, 2), plain=acc_mat)
            sinks.append(p.arg(t.moved(b)))
        for _ in range(nops):
            dst = rng.choice(sinks + (readers if a == b else []))
            dt = p.types[dst]
            src = p.alloc(physical(rng, a, dt.dt, dt.vr, dt.vc))
            if same_physical(arch, a):
                p.retype(src, dt.moved(a))                   # PTOAS: one physical shape
            p.tmov(src, dst)
            readers.append(src)
        return p
    # mixed: chains of INT8 quantization, moves and gemv
    pool = {}   # space -> [(name)]
    def have(nm):
        pool.setdefault(p.types[nm].loc, []).append(nm)
    for _ in range(rng.randint(0, 3)):
        s = rng.choice(spaces)
        dt = rng.choice(tmov_dtypes(arch))
        per = 32 // DSIZE[dt]
        have(p.arg(physical(rng, s, dt, rng.randint(1, 24), per * rng.randint(1, 3))))
    for _ in range(nops):
        kind = rng.choice(['tmov', 'tmov', 'int8', 'gemv'] if arch != 'a5' else ['tmov', 'tmov', 'int8'])
        if kind == 'int8':
            r, c = rng.randint(1, 24), 8 * rng.randint(1, 4)
            xs = [x for x in pool.get('vec', []) if p.types[x].dt == 'f32' and p.types[x].bl == 'row_major'
                  and p.types[x].sl == 'none_box' and p.types[x].compact == 0]
            if xs and rng.random() < 0.6:
                x = rng.choice(xs)
                r, c = p.types[x].vr, p.types[x].vc
            else:
                x = p.alloc(physical(rng, 'vec', 'f32', r, c, plain=True))
            if arch == 'a5':
                sc = p.alloc(Tile('vec', 'f32', r, 8, r, 1))
            else:
                sc = p.alloc(Tile('vec', 'f32', round_up(r, 8), 1, r, 1, bl='col_major'))
            asym = rng.random() < 0.4
            off = p.alloc(p.types[sc]) if asym else None
            q = p.alloc(physical(rng, 'vec', 'ui8' if asym else 'i8', r, c, plain=True))
            tmp = None
            if arch == 'a5' and rng.random() < 0.3 or rng.random() < 0.3:
                s = p.types[x]
                tmp = p.alloc(Tile('vec', 'f32', s.rows, s.cols, s.vr, s.vc))  # src's valid shape (PTOAS)
            p.tquant(x, sc, q, off, tmp)
            have(q)
            if not asym and rng.random() < 0.6:
                o = p.alloc(p.types[sc])
                y = p.alloc(physical(rng, 'vec', 'f32', r, c, plain=True))
                p.tdequant(q, sc, o, y)
                have(y)
            continue
        if kind == 'gemv':
            k, nn = 16 * rng.randint(1, 8), 16 * rng.randint(1, 4)
            a = p.alloc(Tile('left', 'f16', 1, k, 1, k))
            b = p.alloc(Tile('right', 'f16', k, nn, k, nn))
            bias = p.alloc(Tile('bias', 'f32', 1, nn, 1, nn))
            cc = p.alloc(Tile('acc', 'f32', 16, nn, 1, nn))
            p.tgemv(a, b, bias, cc)
            have(cc)
            continue
        movable = [pr for pr in PAIRS[arch] if pr[0] in spaces or pr[1] in spaces]
        a, b = rng.choice(movable) if movable and rng.random() < 0.5 else ('vec', 'vec')
        acc_mat = arch != 'a5' and (a, b) == ('acc', 'mat')  # PTOAS: a fractal-512 dst
        srcs = [x for x in pool.get(a, []) if not acc_mat or p.types[x].fr == 512]
        if srcs and rng.random() < 0.8:
            src = rng.choice(srcs)
        else:
            dt = rng.choice(tmov_dtypes(arch))
            per = 32 // DSIZE[dt]
            src = p.alloc(physical(rng, a, dt, rng.randint(1, 24), per * rng.randint(1, 3), plain=acc_mat))
        st = p.types[src]
        same = [x for x in pool.get(b, []) if x != src and p.types[x].dt == st.dt
                and (p.types[x].vr, p.types[x].vc) == (st.vr, st.vc)
                and (not same_physical(arch, a) or (p.types[x].rows, p.types[x].cols) == (st.rows, st.cols))]
        if same and rng.random() < 0.3:
            dst = rng.choice(same)
        else:
            dst = p.alloc(physical(rng, b, st.dt, st.vr, st.vc))
            if same_physical(arch, a):
                p.retype(dst, st.moved(b))                   # PTOAS: one physical shape
        rng.random()            # was a tmp: tmov with a tmp is now the MX X-to-ZZ move
        p.tmov(src, dst)
        have(dst)
    if rng.random() < 0.3:
        s = rng.choice(spaces)
        p.alloc(physical(rng, s, 'f32', 4, 8))               # never used
    return p


def pin(rng, p, live):
    """Pins some allocs above the total of the auto tiles of their space,
    first-fit among themselves (so disjoint live ranges may share bytes)."""
    cand = [a for a in p.allocs if rng.random() < 0.3]
    if not cand:
        return
    for a in cand:
        a[3] = rng.choice(['addr', 'tassign'])
        a[2] = -1
    cap = CAP[p.arch]
    for s in SPACES:
        auto = sum(p.types[nm].asize() for nm, l in live.items()
                   if p.types[nm].loc == s and not any(a[0] == nm and a[2] is not None for a in p.allocs))
        base = round_up(auto, ALIGN[s])
        placed = []
        for a in cand:
            t = a[1]
            if t.loc != s:
                continue
            addr = base + ALIGN[s] * rng.choice([0, 0, 1, 3])
            lv = live[a[0]]
            for (lo, hi, l2) in sorted(placed):
                if lv is None or l2 is None or lv[1] < l2[0] or l2[1] < lv[0]:
                    continue
                if lo < addr + t.asize() and addr < hi:
                    addr = round_up(hi, ALIGN[s])
            a[2] = addr
            placed.append((addr, addr + t.asize(), lv))
    for a in cand:
        if a[2] is None or a[2] < 0:
            a[2], a[3] = None, None
    if any(a[2] is not None and a[2] + a[1].size() > cap[a[1].loc] for a in p.allocs):
        for a in p.allocs:
            a[2], a[3] = None, None


def fits(p, live):
    cap = CAP[p.arch]
    for s in SPACES:
        tot = sum(p.types[nm].asize() for nm in live if p.types[nm].loc == s)
        if tot > cap[s]:
            return False
    return True


def lower_bound(p, live, s, n):
    best = 0
    for k in range(max(n, 1)):
        tot = sum(p.types[nm].asize() for nm, l in live.items()
                  if p.types[nm].loc == s and l is not None and l[0] <= k <= l[1])
        best = max(best, tot)
    return best


def parse_output(text):
    """func -> {'report': {space: (cap, peak, lb, [(name, addr, size, live)])},
                'map': {space: [line]}}"""
    funcs = {}
    cur = None
    space = None
    for line in text.splitlines():
        m = re.match(r'^func @(\S+)$', line)
        if m:
            f = funcs.setdefault(m.group(1), {'report': {}, 'map': {}, 'seen': 0})
            f['seen'] += 1
            cur = (f, 'report' if f['seen'] == 1 else 'map')
            continue
        m = re.match(r'^(\w+): capacity (\d+), peak (\d+), lower-bound (\d+)$', line)
        if m:
            space = m.group(1)
            cur[0]['report'][space] = (int(m.group(2)), int(m.group(3)), int(m.group(4)), [])
            continue
        m = re.match(r'^  %(\S+) addr (\d+) size (\d+) live (\[\]|\[(\d+), (\d+)\])$', line)
        if m:
            lv = None if m.group(4) == '[]' else (int(m.group(5)), int(m.group(6)))
            cur[0]['report'][space][3].append((m.group(1), int(m.group(2)), int(m.group(3)), lv))
            continue
        m = re.match(r'^(\w+):$', line)
        if m:
            space = m.group(1)
            cur[0]['map'][space] = []
            continue
        if line.startswith('['):
            cur[0]['map'][space].append(line)
            continue
        raise AssertionError('unexpected output line: %r' % line)
    return funcs


def check(p, live, rep, errs):
    def fail(msg):
        errs.append('@%s: %s' % (p.name, msg))
    n = len(p.ops)
    cap = CAP[p.arch]
    pinned = {a[0]: a[2] for a in p.allocs if a[2] is not None}
    spaces = [s for s in SPACES if any(p.types[nm].loc == s for nm in live)]
    if list(rep['report']) != spaces:
        fail('spaces %s, expected %s' % (list(rep['report']), spaces))
        return
    for s in spaces:
        c, peak, lb, tiles = rep['report'][s]
        if c != cap[s]:
            fail('%s capacity %d, expected %d' % (s, c, cap[s]))
        names = sorted(nm for nm in live if p.types[nm].loc == s)
        if sorted(t[0] for t in tiles) != names:
            fail('%s tiles %s, expected %s' % (s, sorted(t[0] for t in tiles), names))
            continue
        if tiles != sorted(tiles, key=lambda t: (t[1], t[0])):
            fail('%s: not sorted by address then name' % s)
        al = ALIGN[s]
        for nm, addr, size, lv in tiles:
            t = p.types[nm]
            if size != t.size():
                fail('%%%s size %d, expected %d (%s)' % (nm, size, t.size(), t.spell()))
            if lv != live[nm]:
                fail('%%%s live %s, expected %s' % (nm, lv, live[nm]))
            if addr < 0 or addr % al or addr + size > cap[s]:
                fail('%%%s at %d: misaligned or out of %s' % (nm, addr, s))
            if nm in pinned and addr != pinned[nm]:
                fail('%%%s pinned at %d, reported at %d' % (nm, pinned[nm], addr))
            if live[nm] is None and nm not in pinned and addr != 0:
                fail('unused %%%s at %d, expected 0' % (nm, addr))
        for i, (na, aa, sa, la) in enumerate(tiles):
            for nb, ab, sb, lb_ in tiles[i + 1:]:
                if la is None or lb_ is None or la[1] < lb_[0] or lb_[1] < la[0]:
                    continue
                if aa < ab + sb and ab < aa + sa:
                    fail('%%%s [%d, %d) and %%%s [%d, %d) share bytes while both live'
                         % (na, aa, aa + sa, nb, ab, ab + sb))
        want_peak = max([addr + round_up(size, al) for nm, addr, size, lv in tiles if lv is not None] + [0])
        if peak != want_peak:
            fail('%s peak %d, expected %d' % (s, peak, want_peak))
        want_lb = lower_bound(p, live, s, n)
        if lb != want_lb:
            fail('%s lower-bound %d, expected %d' % (s, lb, want_lb))
        used = [nm for nm in names if live[nm] is not None]
        if not any(nm in pinned for nm in names):
            total = sum(p.types[nm].asize() for nm in used)
            if peak > total:
                fail('%s peak %d worse than no reuse (%d)' % (s, peak, total))
            one_size = len({p.types[nm].asize() for nm in used}) <= 1
            clique = all(not (live[x][1] < live[y][0] or live[y][1] < live[x][0])
                         for x in used for y in used)
            if (one_size or clique) and peak != lb:
                fail('%s peak %d != lower bound %d (%s)' % (s, peak, lb, 'one size' if one_size else 'clique'))
        # the map: same tiles and order, labels padded to the widest
        lines = rep['map'].get(s, [])
        labels = ['[%d, %d) %%%s' % (a, a + sz, nm) for nm, a, sz, lv in tiles]
        width = max(len(x) for x in labels)
        want = [lab.ljust(width) + ' ' + ''.join(
            '#' if lv is not None and lv[0] <= k <= lv[1] else '.' for k in range(n))
            for lab, (nm, a, sz, lv) in zip(labels, tiles)]
        if lines != want:
            fail('%s map:\n%s\nexpected:\n%s' % (s, '\n'.join(lines), '\n'.join(want)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('ptoas')
    ap.add_argument('--seed', type=int, default=20240501)
    ap.add_argument('--count', type=int, default=400)
    ap.add_argument('--per-file', type=int, default=50)
    ap.add_argument('--keep', help='write the generated files to this directory')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    progs = []
    while len(progs) < args.count:
        i = len(progs)
        arch = rng.choice(['a3', 'a5'])
        mode = rng.choice(['uniform', 'uniform', 'clique', 'mixed', 'mixed', 'mixed'])
        p = gen_program(rng, 'p%d_%s' % (i, mode), arch, mode)
        live = p.liveness()
        if not fits(p, live):
            continue
        if mode == 'mixed' and rng.random() < 0.4:
            pin(rng, p, live)
        progs.append((p, live))
    errs = []
    tmpdir = args.keep or tempfile.mkdtemp(prefix='tassign-random-')
    os.makedirs(tmpdir, exist_ok=True)
    nchecked = 0
    for base in range(0, len(progs), args.per_file):
        chunk = progs[base:base + args.per_file]
        text = []
        for arch in ['a3', 'a5']:
            body = [p.text() for p, _ in chunk if p.arch == arch]
            if body:
                text.append('module attributes {pto.target_arch = "%s"} {\n%s\n}' % (arch, '\n'.join(body)))
        path = os.path.join(tmpdir, 'random_%d.pto' % (base // args.per_file))
        with open(path, 'w') as f:
            f.write('\n'.join(text) + '\n')
        r = subprocess.run([args.ptoas, '--memory-report', '--memory-map', '--verify-only', path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if r.returncode != 0:
            errs.append('%s: exit %d\n%s' % (path, r.returncode, r.stderr))
            continue
        out = parse_output(r.stdout)
        for p, live in chunk:
            if p.name not in out:
                errs.append('%s: no report for @%s' % (path, p.name))
                continue
            check(p, live, out[p.name], errs)
            nchecked += 1
    # overflow: a program whose lower bound exceeds the capacity
    for i in range(20):
        arch = rng.choice(['a3', 'a5'])
        s = rng.choice(['vec', 'left', 'scaling', 'bias'])
        per = 8
        k = rng.randint(2, 4)
        cap = CAP[arch][s]
        rows = max(1, cap // (k - 1) // (per * 4) // 1)
        p = Prog(rng, 'over%d' % i, arch, 'overflow')
        t = Tile(s, 'f32', rows, per, rows, per)
        src = [p.arg(t) for _ in range(k - 1)]
        dst = p.alloc(t)
        p.tmov(src[0] if s == 'vec' else p.arg(t.moved('mat')), dst)   # a pair PTOAS allows
        live = p.liveness()
        lb = lower_bound(p, live, s, 1)
        if lb <= cap:
            continue
        path = os.path.join(tmpdir, 'over_%d.pto' % i)
        with open(path, 'w') as f:
            f.write('module attributes {pto.target_arch = "%s"} {\n%s\n}\n' % (arch, p.text()))
        r = subprocess.run([args.ptoas, '--verify-only', path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        want = ('error: %s overflow, requires %d bits while %d bits available' % (s, lb * 8, cap * 8))
        if r.returncode != 1 or want not in r.stderr or 'note: at this op, live: ' not in r.stderr:
            errs.append('%s: expected %r, got exit %d:\n%s' % (path, want, r.returncode, r.stderr))
        nchecked += 1
    for e in errs[:30]:
        print('FAIL ' + e)
    print('%d programs checked, %d failures' % (nchecked, len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
