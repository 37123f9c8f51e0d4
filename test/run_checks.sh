#!/bin/sh
# make check: runs the sanitized unit tests given as arguments, the fuzz corpus
# replay, the editor tests (test/editors: the TextMate grammar in
# vscode-textmate, the neovim files in headless neovim, the VS Code extension
# against stand-ins) and the lit suite (against the sanitized ptoas), then
# prints one summary line "N passed, M failed" as its last line and exits
# non-zero on any failure.
#
# Progress is printed as it goes: one line per stage (with its wall-clock and
# CPU seconds, so that a slow stage shows on a loaded machine too) and one
# line per lit test, as lit prints it with -v. LIT_OPTS is read by lit itself
# (LIT_OPTS=--time-tests lists the slowest tests at the end).
BUILD=${BUILD:-build}
LIT=${LIT:-python3 /usr/lib/llvm-19/build/utils/lit/lit.py}
pass=0
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptoas-check.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# CPU time (user + system) of the finished children so far, in ms, into
# $cpu. `times` is a builtin and must run in this shell (a subshell would see
# no children), so nothing here is called through $(...).
cpu_ms() {
    times >"$tmp/times"
    { read -r _ _; read -r u s; } <"$tmp/times"
    cpu=$(( $(sec_ms "$u") + $(sec_ms "$s") ))
}

# "1m2.345678s" (dash) or "1m2.345s" (bash) -> 62345
sec_ms() {
    m=${1%%m*}
    r=${1#*m}
    r=${r%s}
    frac=$(printf '%.3s' "${r#*.}000")
    echo $(( m * 60000 + ${r%%.*} * 1000 + 1$frac - 1000 ))
}

stage_begin() {
    t0=$(date +%s)
    cpu_ms
    c0=$cpu
}

# Sets $took to " in W s (C s CPU)" for the stage begun last.
stage_end() {
    cpu_ms
    c=$((cpu - c0))
    took=" in $(( $(date +%s) - t0 )) s ($((c / 1000)).$((c % 1000 / 100)) s CPU)"
}

# A program whose last line is "N passed, M failed"; a crash or a non-zero exit
# without a failed count still counts as one failure.
count() {
    name=$1
    shift
    stage_begin
    out=$("$@" 2>&1)
    rc=$?
    last=$(printf '%s\n' "$out" | tail -n 1)
    p=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1/p')
    f=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then p=0; f=1; fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    stage_end
    if [ "$f" -ne 0 ]; then
        printf '%s\n' "$out" | tail -n 40
        echo "FAIL: $name ($f failed)$took"
    else
        echo "ok: $name ($p passed)$took"
    fi
    pass=$((pass + p))
    fail=$((fail + f))
}

for t in "$@"; do
    count "unit $(basename "$t")" "$t"
done

if [ -x "$BUILD/asan/fuzz_replay" ] && [ -d test/fuzz/corpus ]; then
    count "fuzz corpus replay" "$BUILD/asan/fuzz_replay" test/fuzz/corpus
fi
if [ -x "$BUILD/asan/fuzz_lsp_replay" ] && [ -d test/fuzz/lsp_corpus ]; then
    count "fuzz lsp corpus replay" "$BUILD/asan/fuzz_lsp_replay" test/fuzz/lsp_corpus
fi

count "editor grammar (vscode-textmate)" node test/editors/grammar_test.js . "$BUILD/npm/node_modules"
count "editor syntax (neovim)" nvim --headless -u NONE -i NONE -n -c "luafile test/editors/vim_syntax_test.lua"
count "editor client (neovim)" nvim --headless -u NONE -i NONE -n -c "luafile test/editors/nvim_client_test.lua"
count "editor install (neovim)" sh test/editors/nvim_install_test.sh
count "editor extension (vscode)" node test/editors/vscode_extension_test.js .
count "install (temporary prefix)" sh test/install_test.sh

# lit: its output streams (one line per test, a failure's output in full) and
# is kept in a file for the counts; its exit status goes through a file too,
# as a pipeline's status is its last command's.
stage_begin
{ $LIT -v test 2>&1; echo $? >"$tmp/litrc"; } | tee "$tmp/lit"
litrc=$(cat "$tmp/litrc" 2>/dev/null || echo 1)
lp=$(sed -n 's/^ *Passed *: *\([0-9][0-9]*\).*/\1/p' "$tmp/lit")
lf=0
for k in 'Failed' 'Unresolved' 'Timed Out' 'Unexpectedly Passed'; do
    n=$(sed -n "s/^ *$k *: *\([0-9][0-9]*\).*/\1/p" "$tmp/lit")
    lf=$((lf + ${n:-0}))
done
if [ "$litrc" -ne 0 ] && [ "$lf" -eq 0 ]; then lf=1; fi
stage_end
if [ "$lf" -ne 0 ]; then
    echo "FAIL: lit ($lf failed)$took"
else
    echo "ok: lit (${lp:-0} passed)$took"
fi
pass=$((pass + ${lp:-0}))
fail=$((fail + lf))

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] || exit 1
