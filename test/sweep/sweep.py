"""sweep.py PTOAS ROOT MODE: properties that must hold on every .pto file of
the repository (test/ and examples/), run as lit tests.

  parse    every file that parses cleanly prints idempotently
           (--stop-after=parse: print -> parse -> print gives the same bytes)
  pipeline every file that assembles cleanly (verify, bufferize, tassign)
           re-assembles its own output to the same bytes
  mlir     the --emit=generic output of every example is accepted by
           mlir-opt --allow-unregistered-dialect

Prints one line per failure and a last line "checked N files"."""
import glob
import os
import subprocess
import sys

ptoas, root, mode = sys.argv[1], sys.argv[2], sys.argv[3]


def run(args, data=None):
    p = subprocess.run(args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout


if mode == 'mlir':
    files = sorted(glob.glob(os.path.join(root, 'examples', '*.pto')))
else:
    files = sorted(glob.glob(os.path.join(root, 'examples', '*.pto')) +
                   glob.glob(os.path.join(root, 'test', '**', '*.pto'), recursive=True))
    files = [f for f in files if '/fuzz/' not in f]

checked = 0
failed = 0
for f in files:
    rel = os.path.relpath(f, root)
    if mode == 'mlir':
        rc, out = run([ptoas, '--emit=generic', f])
        if rc != 0:
            print('FAIL %s: ptoas --emit=generic exited %d' % (rel, rc))
            failed += 1
            continue
        rc, _ = run(['mlir-opt', '--allow-unregistered-dialect'], out)
        checked += 1
        if rc != 0:
            print('FAIL %s: mlir-opt rejected the generic form' % rel)
            failed += 1
        continue
    stage = ['--stop-after=parse'] if mode == 'parse' else []
    rc, first = run([ptoas] + stage + [f])
    if rc != 0:
        continue  # error tests: nothing to print
    rc, second = run([ptoas] + stage + ['-'], first)
    checked += 1
    if rc != 0 or first != second:
        print('FAIL %s: output does not re-assemble to itself' % rel)
        failed += 1
print('checked %d files' % checked)
sys.exit(1 if failed else 0)
