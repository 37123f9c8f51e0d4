#!/bin/sh
# bench/frontend.sh BUILD - frontend throughput: for N = 1000, 10000, 100000
# compute ops, generates one file with bench/gen_pto, runs `BUILD/ptoas FILE`
# (the whole pipeline, output to /dev/null) several times and prints one line
#   frontend N=100000: 123.4 MB/s, 127000 ops/s, peak 250 MB
# from the median wall time (MB = 10^6 bytes of input) and the peak RSS of the
# runs. Targets: >= 100 MB/s on one core, peak < 3x the input size, time
# linear in N. Then the same for the loop form (gen_pto --loops: nested scf.for,
# scf.if, arith index arithmetic, subviews with dynamic valid shapes), N = 100000:
#   frontend loops N=100000: 123.4 MB/s, 127000 ops/s, peak 250 MB
# (N counts the tile ops, as above; the arith and scf ops come on top).
set -e
BUILD=${1:-build}
PTOAS="$BUILD/ptoas"
DIR=$(dirname "$0")
[ -x "$PTOAS" ] || { echo "frontend.sh: $PTOAS not built" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ptoas-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

for form in 1000 10000 100000 loops:100000; do
    n=${form#loops:}
    label=""
    if [ "$form" != "$n" ]; then
        python3 "$DIR/gen_pto" --loops "$n" > "$TMP/in.pto"
        label="loops "
    else
        python3 "$DIR/gen_pto" "$n" > "$TMP/in.pto"
    fi
    case $n in
        100000) runs=5 ;;
        *) runs=9 ;;
    esac
    python3 - "$PTOAS" "$TMP/in.pto" "$n" "$runs" "$label" <<'PY'
import os, resource, statistics, subprocess, sys, time
ptoas, path, n, runs, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
size = os.path.getsize(path)
# Peak RSS: GNU time's %M when it is installed. A child forked from python
# carries python's own high-water mark (10-15 MB), so RUSAGE_CHILDREN is only
# the fallback.
gnu_time = '/usr/bin/time' if os.access('/usr/bin/time', os.X_OK) else None
times, peaks = [], []
for _ in range(runs):
    cmd = [ptoas, path]
    if gnu_time:
        cmd = [gnu_time, '-f', '%M', '-o', path + '.rss'] + cmd
    with open(os.devnull, 'wb') as null:
        t0 = time.perf_counter()
        rc = subprocess.run(cmd, stdout=null).returncode
        times.append(time.perf_counter() - t0)
    if rc != 0:
        sys.exit('frontend.sh: %s %s exited with %d' % (ptoas, path, rc))
    if gnu_time:
        with open(path + '.rss') as f:
            peaks.append(int(f.read().split()[-1]))
t = statistics.median(times)
kib = max(peaks) if peaks else resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print('frontend %sN=%d: %.1f MB/s, %d ops/s, peak %d MB' % (label, n, size / 1e6 / t, round(n / t), round(kib * 1024 / 1e6)))
PY
done
