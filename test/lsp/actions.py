#!/usr/bin/env python3
"""actions.py PTOAS FILE OUT MODE [SETTINGS] - drives `PTOAS lsp` (utf-8 positions) on
FILE, asks for the code actions at each diagnostic it publishes and prints
them, one diagnostic a line:

  L:C MESSAGE
    TITLE [KIND] [preferred] L:C-L:C "NEW TEXT" ...

(1-based lines and columns, as the CLI prints them), then applies, by the
LSP's rules for a WorkspaceEdit on one document (edits do not overlap,
insertions at one place go in the order given), and writes to OUT:
  --fix     the preferred fix of every diagnostic that has one;
  --expect  the "source" action asked for at the file's first character (the
            expected-* comments for every diagnostic).
Python standard library only; the server's answers are checked for form
(every edit inside the document, every action on this document's URI).
SETTINGS (JSON) are the initializationOptions (arch, level)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Server  # noqa: E402

URI = "file:///w/actions.pto"


def offset(lines, pos):
    """byte offset of an LSP position (utf-8) in the document split in lines"""
    line, ch = pos["line"], pos["character"]
    base = sum(len(x) for x in lines[:line])
    if line == len(lines):  # just after the last line break
        assert ch == 0, pos
    else:
        assert 0 <= line < len(lines) and 0 <= ch <= len(lines[line].rstrip(b"\r\n")), pos
    return base + ch


def apply(text, edits):
    lines = text.splitlines(keepends=True)
    spans = [(offset(lines, e["range"]["start"]), offset(lines, e["range"]["end"]), i, e["newText"])
             for i, e in enumerate(edits)]
    spans.sort(key=lambda s: (s[0], s[2]))
    for a, b in zip(spans, spans[1:]):
        assert a[1] <= b[0], "overlapping edits %r %r" % (a, b)
    out, at = [], 0
    for b, e, _, new in spans:
        out.append(text[at:b])
        out.append(new.encode())
        at = e
    out.append(text[at:])
    return b"".join(out)


def show_edit(e):
    r = e["range"]
    return "%d:%d-%d:%d %s" % (r["start"]["line"] + 1, r["start"]["character"] + 1, r["end"]["line"] + 1,
                               r["end"]["character"] + 1, json.dumps(e["newText"]))


def edits_of(action):
    changes = action["edit"]["changes"]
    assert list(changes) == [URI], changes
    return changes[URI]


def main():
    ptoas, path, out_path, mode = sys.argv[1:5]
    settings = json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}
    text = open(path, "rb").read()
    srv = Server([ptoas, "lsp"])
    srv.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"capabilities": {"general": {"positionEncodings": ["utf-8"]}},
                         "initializationOptions": settings}})
    while srv.read().get("id") != 0:
        pass
    srv.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    srv.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
              "params": {"textDocument": {"uri": URI, "languageId": "pto", "version": 1,
                                          "text": text.decode()}}})
    while True:
        m = srv.read()
        if m.get("method") == "textDocument/publishDiagnostics":
            break
    ids = [1]

    def actions(rng):
        ids[0] += 1
        srv.send({"jsonrpc": "2.0", "id": ids[0], "method": "textDocument/codeAction",
                  "params": {"textDocument": {"uri": URI}, "range": rng, "context": {"diagnostics": []}}})
        while True:
            r = srv.read()
            if r.get("id") == ids[0]:
                return r["result"]

    fixes = []
    for d in m["params"]["diagnostics"]:
        s = d["range"]["start"]
        print("%d:%d %s" % (s["line"] + 1, s["character"] + 1, d["message"]))
        for a in actions({"start": s, "end": s}):
            if a["kind"] == "source":
                continue
            mine = a.get("diagnostics") == [{k: d[k] for k in ("range", "severity", "code", "source", "message")}]
            print("  %s [%s]%s%s %s" % (a["title"], a["kind"], " [preferred]" if a.get("isPreferred") else "",
                                       "" if mine else " [another diagnostic]",
                                       " ".join(show_edit(e) for e in edits_of(a))))
            if mine and a.get("isPreferred"):
                fixes.extend(edits_of(a))
    if mode == "--fix":
        result = apply(text, fixes)
    else:
        start = {"line": 0, "character": 0}
        src = [a for a in actions({"start": start, "end": start}) if a["kind"] == "source"]
        assert len(src) == (1 if m["params"]["diagnostics"] else 0), src
        result = apply(text, edits_of(src[0])) if src else text
        if src:
            print(src[0]["title"])
    with open(out_path, "wb") as f:
        f.write(result)
    srv.send({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
    srv.send({"jsonrpc": "2.0", "method": "exit"})
    srv.p.wait(timeout=20)
    return srv.p.returncode


if __name__ == "__main__":
    sys.exit(main())
