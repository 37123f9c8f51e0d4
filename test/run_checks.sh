#!/bin/sh
# make check: runs the sanitized unit tests given as arguments, the lit suite
# (against the sanitized ptoas), the fuzz corpus replay and the editor tests
# (test/editors: the TextMate grammar in vscode-textmate, the neovim files in
# headless neovim, the VS Code extension against stand-ins), then prints one
# summary line "N passed, M failed" and exits non-zero on any failure.
BUILD=${BUILD:-build}
LIT=${LIT:-python3 /usr/lib/llvm-19/build/utils/lit/lit.py}
pass=0
fail=0

# A program whose last line is "N passed, M failed"; a crash or a non-zero exit
# without a failed count still counts as one failure.
count() {
    name=$1
    shift
    out=$("$@" 2>&1)
    rc=$?
    last=$(printf '%s\n' "$out" | tail -n 1)
    p=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1/p')
    f=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then p=0; f=1; fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    if [ "$f" -ne 0 ]; then
        printf '%s\n' "$out" | tail -n 40
        echo "FAIL: $name ($f failed)"
    else
        echo "ok: $name ($p passed)"
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

litout=$($LIT -sv test 2>&1)
litrc=$?
printf '%s\n' "$litout" | grep -v '^PASS:' | tail -n 200
lp=$(printf '%s\n' "$litout" | sed -n 's/^ *Passed *: *\([0-9][0-9]*\).*/\1/p')
lf=0
for k in 'Failed' 'Unresolved' 'Timed Out' 'Unexpectedly Passed'; do
    n=$(printf '%s\n' "$litout" | sed -n "s/^ *$k *: *\([0-9][0-9]*\).*/\1/p")
    lf=$((lf + ${n:-0}))
done
if [ "$litrc" -ne 0 ] && [ "$lf" -eq 0 ]; then lf=1; fi
pass=$((pass + ${lp:-0}))
fail=$((fail + lf))

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
