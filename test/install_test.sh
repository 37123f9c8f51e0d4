#!/bin/sh
# install_test.sh - `make install` into a temporary prefix (with DESTDIR too):
# the program, the runtime, the docs in share/doc/ptoas and the man page
# ptoas.1, which renders without warnings and has every option of the three
# --help texts. Run by test/run_checks.sh after `make all`; last line
# "N passed, M failed".
set -u
MAKE=${MAKE:-make}
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
check() { # NAME CONDITION...
    name=$1
    shift
    if "$@" >/dev/null 2>&1; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
p=$tmp/prefix
if ! $MAKE -s install PREFIX="$p" BUILD="$BUILD" >"$tmp/log" 2>&1; then
    cat "$tmp/log"
    echo "0 passed, 1 failed"
    exit 1
fi
check "bin/ptoas runs" "$p/bin/ptoas" --version
check "include/ptort.h" test -f "$p/include/ptort.h"
check "include/ptort_vops.def" test -f "$p/include/ptort_vops.def"
check "lib/libptort.a" test -f "$p/lib/libptort.a"
for f in README.md LICENSE docs/*.md; do
    check "share/doc/ptoas/$(basename "$f")" cmp "$f" "$p/share/doc/ptoas/$(basename "$f")"
done
man1=$p/share/man/man1/ptoas.1
check "share/man/man1/ptoas.1" test -s "$man1"
# groff -ww: every warning; -z: no output but the warnings
check "the man page renders without warnings" sh -c "[ -z \"\$(groff -man -ww -z '$man1' 2>&1)\" ]"
MANWIDTH=200 man -l "$man1" 2>/dev/null | sed 's/^ *//' >"$tmp/man.txt"
check "the man page names the installed docs" grep -q "$p/share/doc/ptoas" "$tmp/man.txt"
for sub in "" run lsp; do
    "$p/bin/ptoas" $sub --help | sed -n 's/^  *\(--*[A-Za-z][^ ]*\).*/\1/p' >"$tmp/opts"
    check "ptoas $sub --help has options" test -s "$tmp/opts"
    while read -r o; do
        check "man page: ptoas $sub $o" grep -qF -- "$o" "$tmp/man.txt"
    done <"$tmp/opts"
done
# DESTDIR stages the same tree under another root
$MAKE -s install PREFIX=/usr/local DESTDIR="$tmp/stage" BUILD="$BUILD" >/dev/null 2>&1
check "DESTDIR: bin/ptoas" test -x "$tmp/stage/usr/local/bin/ptoas"
check "DESTDIR: the man page names the final doc path" grep -q '/usr/local/share/doc/ptoas' "$tmp/stage/usr/local/share/man/man1/ptoas.1"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
