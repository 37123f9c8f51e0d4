#!/usr/bin/env python3
"""edits.py PTOAS FILE - edits one document 1000 times through `PTOAS lsp`:
500 incremental insertions of a line before the function's `return`, then
500 deletions of those lines, newest first. Every 100 edits it asks for the
document's symbols and checks that the function's range ends where the
client's own copy of the text says (the server applied every edit at the
right place); at the end the text is the original again and the diagnostics
are empty. The server's resident memory after the last edit must be within
2 MiB of what it was after edit 100 (meaningful with the optimized build;
under ASan the quarantine keeps freed memory, so --no-memory skips it)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Server  # noqa: E402

URI = "file:///w/edits.pto"


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def request(srv, rid, method, params):
    srv.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    while True:
        m = srv.read()
        if m.get("id") == rid and "method" not in m:
            return m


def main():
    ptoas, path = sys.argv[1], sys.argv[2]
    check_memory = "--no-memory" not in sys.argv
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    ret = next(i for i, l in enumerate(lines) if l.strip() == "return")
    close = next(i for i, l in enumerate(lines) if l.startswith("  }"))
    srv = Server([ptoas, "lsp"])
    request(srv, 0, "initialize", {"processId": None, "capabilities": {}})
    srv.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    srv.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
              "params": {"textDocument": {"uri": URI, "languageId": "pto", "version": 1, "text": text}}})
    failures = 0
    rss100 = 0
    inserted = 0
    for i in range(1000):
        if i < 500:
            change = {"range": {"start": {"line": ret, "character": 4}, "end": {"line": ret, "character": 4}},
                      "text": "%%c%d = arith.constant %d : index\n    " % (i, i)}
            inserted += 1
        else:
            change = {"range": {"start": {"line": ret, "character": 4}, "end": {"line": ret + 1, "character": 4}},
                      "text": ""}
            inserted -= 1
        srv.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                  "params": {"textDocument": {"uri": URI, "version": i + 2}, "contentChanges": [change]}})
        if (i + 1) % 100 == 0:
            r = request(srv, 10000 + i, "textDocument/documentSymbol", {"textDocument": {"uri": URI}})
            end = r["result"][0]["children"][0]["range"]["end"]["line"]
            if end != close + inserted:
                print("edit %d: the function ends on line %d, expected %d" % (i + 1, end, close + inserted))
                failures += 1
            if i + 1 == 100:
                rss100 = rss_kib(srv.p.pid)
    rss1000 = rss_kib(srv.p.pid)
    r = request(srv, 1, "textDocument/hover",
                {"textDocument": {"uri": URI}, "position": {"line": ret, "character": 5}})
    # the last publish (after the last edit) must be clean: the text is the original
    srv.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
              "params": {"textDocument": {"uri": URI, "version": 2000},
                         "contentChanges": [{"text": text}]}})
    while True:
        m = srv.read()
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == 2000:
            break
    if m["params"]["diagnostics"]:
        print("diagnostics after the edits: %s" % json.dumps(m["params"]["diagnostics"]))
        failures += 1
    request(srv, 2, "shutdown", None)
    srv.send({"jsonrpc": "2.0", "method": "exit"})
    status = srv.p.wait(timeout=20)
    if status != 0:
        print("exit status %d" % status)
        failures += 1
    if check_memory:
        grew = rss1000 - rss100
        if grew > 2048:
            print("memory grew by %d KiB between edit 100 and edit 1000" % grew)
            failures += 1
        else:
            print("memory bounded")
    print("1000 edits: %d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
