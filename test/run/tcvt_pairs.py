#!/usr/bin/env python3
"""tcvt_pairs.py: no tcvt pair stops `ptoas run` without a warning at verify time.

    python3 tcvt_pairs.py PTOAS VECDRV DIR

For a3 and a5, verifies every pair of the nine element types (f32 f16 bf16 i32 i16 i8 ui32
ui16 ui8) with `PTOAS --verify-only`, one op per `// -----` chunk, and runs each pair through
the runtime (VECDRV, test/unit/vecdrv.c) on a 1 x 32 tile. A pair the verifier accepts runs
unless it got the warning "... ptoas run stops at it", and a pair with that warning does not
run (docs/vector-ops.md, tcvt). Prints, per arch, the verified pairs, how many run, and the
warned ones; "mismatch" lines for any pair that breaks the rule.
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vecdiff  # noqa: E402

TYPES = ('f32', 'f16', 'bf16', 'i32', 'i16', 'i8', 'ui32', 'ui16', 'ui8')


def main(argv):
    ptoas, vecdrv, out = argv[1:4]
    os.makedirs(out, exist_ok=True)
    pairs = [(s, d) for s in TYPES for d in TYPES]
    chunks = []
    for s, d in pairs:
        chunks.append(
            'module {\n'
            f'  func.func @k(%x: !pto.tile_buf<vec, 1x32x{s}>, %y: !pto.tile_buf<vec, 1x32x{d}>) {{\n'
            f'    pto.tcvt ins(%x {{rmode = #pto<round_mode CAST_RINT>}} : !pto.tile_buf<vec, 1x32x{s}>)'
            f' outs(%y : !pto.tile_buf<vec, 1x32x{d}>)\n'
            '    return\n  }\n}\n')
    src = os.path.join(out, 'pairs.pto')
    with open(src, 'w') as f:
        f.write('// -----\n'.join(chunks))
    starts = []
    line = 1
    for c in chunks:
        starts.append(line)
        line += c.count('\n') + 1
    rng = random.Random(7)
    for arch in ('a3', 'a5'):
        r = subprocess.run([ptoas, '--verify-only', '--split-input-file', '--pto-arch=' + arch, src],
                           capture_output=True, text=True)
        errors, stops, asides = set(), set(), set()
        for m in re.finditer(r'pairs\.pto:(\d+):\d+: (error|warning): (.*)', r.stderr):
            ln = int(m.group(1))
            i = max(k for k in range(len(starts)) if starts[k] <= ln)
            if m.group(2) == 'error':
                errors.add(pairs[i])
            elif 'ptoas run stops at it' in m.group(3):
                stops.add(pairs[i])
            else:
                asides.add(pairs[i])
        manifest = os.path.join(out, arch + '.txt')
        with open(manifest, 'w') as f:
            for k, (s, d) in enumerate(pairs):
                sp = os.path.join(out, f'{arch}_{k}_s.npy')
                dp = os.path.join(out, f'{arch}_{k}_d.npy')
                vecdiff.write_npy(sp, vecdiff.make(s, 1, 32, 1, 32, rng))
                vecdiff.write_npy(dp, vecdiff.sentinel(d, 1, 32, 1, 32, rng))
                f.write(f'tcvt - {arch} RINT 0 0 {os.path.join(out, "o.npy")} '
                        f'{dp}:{d}:1:32:1:32:r {sp}:{s}:1:32:1:32:r\n')
        res = subprocess.run([vecdrv, manifest], capture_output=True, text=True).stdout.split('\n')
        runs = {p for p, line in zip(pairs, res) if line == 'ok'}
        verified = [p for p in pairs if p not in errors]
        print(f'{arch}: {len(verified)} pairs verify, {len(runs & set(verified))} run; '
              f'warned, not run: {len(stops)}; warned, run: '
              + (' '.join(f'{s}->{d}' for s, d in sorted(asides)) or 'none'))
        for p in verified:
            if (p in runs) == (p in stops):
                print(f'mismatch {arch} {p[0]}->{p[1]}: '
                      + ('runs, yet warned' if p in runs else 'does not run, not warned'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
