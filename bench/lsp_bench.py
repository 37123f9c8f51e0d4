#!/usr/bin/env python3
"""lsp_bench.py PTOAS - request-to-publish time of `PTOAS lsp` after a
keystroke in a file of at least 5,000 lines (bench/gen_pto, every line
real PTO that assembles; warnings are published with the rest). One keystroke = one didChange inserting (then,
next time, deleting) a space at the start of a line in the middle of the
file; the time runs from writing the notification to reading the
publishDiagnostics of that version, so it includes the server's debounce
(5 ms by default), the whole pipeline up to tassign and the JSON. Prints

  lsp keystroke->publish, 5420-line file: median 9.8 ms, p90 11.2 ms, server CPU 4.1 ms/edit (61 edits, debounce 5 ms)

(the CPU figure, from /proc, is what the server itself spent per edit; on a
loaded machine the wall-clock median also holds the waits for a core). When
the median is at or over the target (20 ms, issue 13; --target-ms) it says so
on a second line and still exits 0: a timing is reported, never a failure
(issue 27). It exits 1 only when the run itself goes wrong.

usage: lsp_bench.py PTOAS [--edits N] [--target-ms MS]"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "lsp"))
from lsp_client import Server  # noqa: E402

URI = "file:///bench/big.pto"
EDITS = 61
TARGET_MS = 20.0


def cpu_ms(pid):
    """user + system CPU time of a process so far, in ms"""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptoas")
    ap.add_argument("--edits", type=int, default=EDITS)
    ap.add_argument("--target-ms", type=float, default=TARGET_MS)
    args = ap.parse_args()
    ptoas = args.ptoas
    ops = 1160
    while True:
        text = subprocess.run([sys.executable, os.path.join(HERE, "gen_pto"), str(ops)],
                              check=True, capture_output=True, text=True).stdout
        nlines = text.count("\n")
        if nlines >= 5000:
            break
        ops += 100
    srv = Server([ptoas, "lsp"])
    srv.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
    while srv.read().get("id") != 0:
        pass
    srv.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    srv.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
              "params": {"textDocument": {"uri": URI, "languageId": "pto", "version": 1, "text": text}}})
    while srv.read().get("method") != "textDocument/publishDiagnostics":
        pass
    line = nlines // 2
    times = []
    cpu0 = cpu_ms(srv.p.pid)
    for i in range(args.edits):
        version = i + 2
        if i % 2 == 0:
            change = {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}},
                      "text": " "}
        else:
            change = {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 1}},
                      "text": ""}
        t0 = time.perf_counter()
        srv.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                  "params": {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}})
        while True:
            m = srv.read()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == version:
                break
        times.append((time.perf_counter() - t0) * 1000.0)
        errors = [d for d in m["params"]["diagnostics"] if d["severity"] == 1]
        if errors:  # warnings do not stop the pipeline; an error would end it early
            print("lsp_bench: the benchmark file has errors: %s" % errors[0]["message"])
            return 1
        time.sleep(0.02)  # a typist's pause: each keystroke is diagnosed on its own
    cpu = (cpu_ms(srv.p.pid) - cpu0) / args.edits
    srv.send({"jsonrpc": "2.0", "id": 1, "method": "shutdown"})
    srv.send({"jsonrpc": "2.0", "method": "exit"})
    srv.p.wait(timeout=20)
    med = statistics.median(times)
    p90 = sorted(times)[int(len(times) * 0.9)]
    print("lsp keystroke->publish, %d-line file: median %.1f ms, p90 %.1f ms, server CPU %.1f ms/edit "
          "(%d edits, debounce 5 ms)" % (nlines, med, p90, cpu, args.edits))
    if med >= args.target_ms:
        print("lsp: the median is over the %g ms target on this machine (a loaded machine adds "
              "the waits for a core; the server CPU figure does not hold them)" % args.target_ms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
