#!/usr/bin/env python3
"""lsp_client.py PTOAS SCRIPT - drives `PTOAS lsp` through a script and prints
every message the server sends, one line each ("<- " + compact JSON, keys in
the server's order), for FileCheck. Python standard library only.

Script lines ('#' starts a comment line; $DIR is the script's directory):
  init [JSON]          initialize with JSON as the params' "capabilities" (and
                       "initializationOptions" if JSON has that key), then initialized
  open URI PATH        didOpen of the file at PATH as URI (version 1)
  opentext URI JSON    didOpen with the JSON string as the text
  send JSON            a message; "jsonrpc" is added; waits for the response
                       when it has an "id"
  labels JSON          a completion request: prints "labels ID L:C-L:C: A B ..." (the
                       range the items replace, their labels) instead of the response
  notify JSON          a message sent without waiting
  publish              waits for the next publishDiagnostics
  raw PYTHON-BYTES     bytes sent as they are (a Python bytes expression;
                       frame(b'...') adds a correct Content-Length header)
  exit                 closes stdin, waits for the exit, prints "exit N"
Messages that arrive while waiting are printed too, in order. A wait longer
than 20 s fails the run (exit 1)."""
import ast
import json
import os
import select
import subprocess
import sys
import time


class Server:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buf = b""

    def write(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg, ensure_ascii=False).encode()
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def _fill(self, deadline):
        left = deadline - time.time()
        if left <= 0:
            raise TimeoutError("timeout waiting for the server")
        r, _, _ = select.select([self.p.stdout], [], [], left)
        if not r:
            raise TimeoutError("timeout waiting for the server")
        chunk = os.read(self.p.stdout.fileno(), 1 << 16)
        if not chunk:
            raise EOFError("the server closed its output")
        self.buf += chunk

    def read(self, timeout=20.0):
        deadline = time.time() + timeout
        while b"\r\n\r\n" not in self.buf:
            self._fill(deadline)
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        n = None
        for line in head.split(b"\r\n"):
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                n = int(v.strip())
        if n is None:
            raise ValueError("a message without Content-Length: %r" % head)
        self.buf = rest
        while len(self.buf) < n:
            self._fill(deadline)
        body, self.buf = self.buf[:n], self.buf[n:]
        return json.loads(body.decode())


def frame(body):
    """body with a correct Content-Length header, for raw lines"""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def show(msg):
    print("<- " + json.dumps(msg, ensure_ascii=False, separators=(",", ":")), flush=True)


def main():
    ptoas, script = sys.argv[1], sys.argv[2]
    sdir = os.path.dirname(os.path.abspath(script))
    srv = Server([ptoas, "lsp"])
    try:
        for line in open(script, encoding="utf-8"):
            line = line.rstrip("\n").replace("$DIR", sdir)
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cmd, _, arg = line.strip().partition(" ")
            if cmd == "init":
                opts = json.loads(arg) if arg else {}
                params = {"processId": None, "rootUri": None,
                          "capabilities": {k: v for k, v in opts.items() if k != "initializationOptions"}}
                if "initializationOptions" in opts:
                    params["initializationOptions"] = opts["initializationOptions"]
                srv.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})
                wait_id(srv, 0)
                srv.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
            elif cmd in ("open", "opentext"):
                uri, _, rest = arg.partition(" ")
                text = open(rest, encoding="utf-8").read() if cmd == "open" else json.loads(rest)
                srv.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                          "params": {"textDocument": {"uri": uri, "languageId": "pto", "version": 1, "text": text}}})
            elif cmd in ("send", "notify"):
                msg = json.loads(arg)
                msg.setdefault("jsonrpc", "2.0")
                srv.send(msg)
                if cmd == "send" and "id" in msg:
                    wait_id(srv, msg["id"])
            elif cmd == "labels":
                msg = json.loads(arg)
                msg.setdefault("jsonrpc", "2.0")
                srv.send(msg)
                while True:
                    m = srv.read()
                    if m.get("id") == msg["id"] and "method" not in m:
                        break
                    show(m)
                items = (m.get("result") or {}).get("items", [])
                rng = "-"
                if items:
                    r = items[0]["textEdit"]["range"]
                    rng = "%d:%d-%d:%d" % (r["start"]["line"], r["start"]["character"],
                                           r["end"]["line"], r["end"]["character"])
                print("labels %s %s: %s" % (msg["id"], rng, " ".join(i["label"] for i in items)), flush=True)
            elif cmd == "publish":
                while True:
                    m = srv.read()
                    show(m)
                    if m.get("method") == "textDocument/publishDiagnostics":
                        break
            elif cmd == "raw":
                srv.write(eval(arg, {"__builtins__": {}, "frame": frame}))  # the test's bytes expression
            elif cmd == "exit":
                srv.p.stdin.close()
                try:
                    while True:
                        show(srv.read(timeout=20.0))
                except EOFError:
                    pass
                print("exit %d" % srv.p.wait(timeout=20), flush=True)
                return 0
            else:
                raise ValueError("unknown script command %r" % cmd)
        srv.p.stdin.close()
        srv.p.wait(timeout=20)
    except (TimeoutError, EOFError, ValueError) as e:
        print("lsp_client: %s" % e, flush=True)
        srv.p.kill()
        return 1
    return 0


def wait_id(srv, want):
    while True:
        m = srv.read()
        show(m)
        if "id" in m and m["id"] == want and "method" not in m:
            return


if __name__ == "__main__":
    sys.exit(main())
