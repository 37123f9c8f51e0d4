#!/bin/sh
# bench/race.sh BUILD - the race checker's cost (docs/launch.md 4): the flagged kernel
# bench/race_kernel.pto (64 passes over a 2048 x 256 f32 tensor, 5 checked ops per 32 x 256
# block) built with --emit=exe twice, with the checker (the default) and with --no-race-check,
# each run 5 times; prints the best wall time of each and their ratio (the issue's bound: 3x).
set -e
BUILD=${1:-build}
PTOAS="$BUILD/ptoas"
[ -x "$PTOAS" ] || { echo "race.sh: $PTOAS not built" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptoas-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
export XDG_CACHE_HOME="$TMP/cache"
K=bench/race_kernel.pto
"$PTOAS" --emit=exe -o "$TMP/on" "$K"
"$PTOAS" --emit=exe --no-race-check -o "$TMP/off" "$K"
python3 test/run/gen.py "$TMP" s:f32:2048x256:ramp d:f32:2048x256:zero > /dev/null
python3 - "$TMP" <<'PY'
import subprocess, sys, time
d = sys.argv[1]
def best(exe):
    cmd = [exe, "--in", "src=%s/s.npy" % d, "--in", "dst=%s/d.npy" % d, "--arg", "reps=64",
           "--out", "dst=%s/o.npy" % d]
    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True)
        ts.append(time.perf_counter() - t0)
    return min(ts)
on, off = best(d + "/on"), best(d + "/off")
print("race checker: flagged kernel (64 passes x 64 blocks of 32x256 f32, 5 ops each): %.1f ms checked, "
      "%.1f ms unchecked, ratio %.2fx (bound 3x)" % (on * 1e3, off * 1e3, on / off))
PY
