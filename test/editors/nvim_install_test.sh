#!/bin/sh
# nvim_install_test.sh - the neovim install commands of editors/README.md, run
# as written (from the repository root) in a scratch home directory, then a
# real neovim started as a user would (its init.lua, no -u): a .pto file gets
# the filetype and syntax 'pto' and a client named 'ptoas' attached. The
# server command the README writes into init.lua is swapped for fake_lsp.py,
# a stand-in that logs what it gets. Last line: "N passed, M failed".
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# the first ```sh block after "## Neovim"
awk '/^## Neovim/ { n = 1 } n == 1 && /^```sh$/ { n = 2; next } n == 2 && /^```$/ { exit } n == 2' \
    editors/README.md > "$tmp/install.sh"
if grep -q 'ln -sfn' "$tmp/install.sh"; then ok; else bad "no install commands found in editors/README.md"; fi

HOME="$tmp/home"
mkdir -p "$HOME"
export HOME
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_CACHE_HOME
if sh -e "$tmp/install.sh"; then ok; else bad "the install commands failed"; fi
init="$HOME/.config/nvim/init.lua"
if grep -q "'$root/build/ptoas', 'lsp'" "$init"; then ok; else bad "init.lua does not name $root/build/ptoas: $(cat "$init")"; fi
sed -i "s|'$root/build/ptoas', 'lsp'|'python3', '$root/test/editors/fake_lsp.py', '$tmp/log'|" "$init"

out=$(timeout 60 nvim --headless -i NONE -n "$root/examples/gemv_i8.pto" \
    -c 'lua vim.wait(5000, function() local c = vim.lsp.get_active_clients()[1]; return c ~= nil and vim.lsp.buf_is_attached(0, c.id) end, 20)' \
    -c 'lua local c = vim.lsp.get_active_clients()[1]; io.stdout:write(string.format("ft=%s syntax=%s client=%s group=%s\n", vim.bo.filetype, tostring(vim.b.current_syntax), c and c.name or "none", vim.fn.synIDattr(vim.fn.synID(1, 1, 1), "name")))' \
    -c 'qall!' 2>&1)
case $out in *"ft=pto syntax=pto client=ptoas group=ptoComment"*) ok ;; *) bad "neovim after the install: $out" ;; esac
if grep -q '"languageId": "pto"' "$tmp/log" 2>/dev/null; then ok; else bad "the server got no didOpen of a pto document"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
