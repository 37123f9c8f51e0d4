#!/usr/bin/env python3
"""fake_lsp.py LOG - a stand-in language server for the neovim client test:
it answers initialize (declaring hover and definition), hover and definition
(with null) and shutdown, and appends every message it receives to LOG as one
JSON line, so the test can read what the client sent."""
import json
import sys


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(stream.read(length))


def send(msg):
    body = json.dumps(msg).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def main():
    log = open(sys.argv[1], "a")
    while True:
        msg = read_message(sys.stdin.buffer)
        if msg is None:
            return
        log.write(json.dumps(msg) + "\n")
        log.flush()
        method = msg.get("method")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": msg["id"],
                  "result": {"capabilities": {"textDocumentSync": 1, "hoverProvider": True,
                                              "definitionProvider": True},
                             "serverInfo": {"name": "fake"}}})
        elif method in ("textDocument/hover", "textDocument/definition"):
            send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        elif method == "shutdown":
            send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        elif method == "exit":
            return


main()
