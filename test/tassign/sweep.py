#!/usr/bin/env python3
"""Acceptance sweep of the tassign placement (docs/memory.md section 4: peak =
lower bound on straight-line code whenever fragmentation and pinned tiles
allow).

Runs `ptoas --memory-report --verify-only` over every examples/*.pto and
test/**/*.pto file that verifies cleanly (with the default target, else with
--pto-arch=a5; `// -----` files with --split-input-file), has no pinned tile
(no `addr =`, no `pto.tassign`) and is not marked `// fragmentation`, and
requires peak == lower-bound on every summary line.

usage: sweep.py PTOAS ROOT
"""
import glob
import os
import re
import subprocess
import sys


def main():
    ptoas, root = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(root, 'examples', '*.pto')) +
                   glob.glob(os.path.join(root, 'test', '**', '*.pto'), recursive=True))
    nfiles = nlines = 0
    bad = []
    for path in files:
        with open(path, 'rb') as f:
            text = f.read().decode('utf-8', 'replace')
        if 'addr =' in text or 'pto.tassign' in text or '// fragmentation' in text:
            continue
        base = [ptoas, '--memory-report', '--verify-only']
        if re.search(r'^// -----\s*$', text, re.M):
            base.append('--split-input-file')
        out = None
        for extra in ([], ['--pto-arch=a5']):
            try:
                r = subprocess.run(base + extra + [path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   timeout=60)
            except subprocess.TimeoutExpired:
                bad.append('%s: timed out' % path)
                break
            if r.returncode == 0:
                out = r.stdout.decode('utf-8', 'replace')
                break
        if out is None:
            continue
        nfiles += 1
        func = '?'
        for line in out.splitlines():
            if line.startswith('func @'):
                func = line[5:]
            m = re.match(r'^(\w+): capacity \d+, peak (\d+), lower-bound (\d+)$', line)
            if m:
                nlines += 1
                if m.group(2) != m.group(3):
                    bad.append('%s: %s %s' % (os.path.relpath(path, root), func, line))
    for b in bad:
        print('ABOVE BOUND ' + b)
    print('sweep: %d files, %d summary lines, %d above the lower bound' % (nfiles, nlines, len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
