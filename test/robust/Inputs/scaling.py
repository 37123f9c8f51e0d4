"""scaling.py PTOAS CASE N: runs CASE at sizes N and 8N and prints "CASE: near-linear" when
the second took at most 16 times the CPU time of the first (linear work takes 8 times,
quadratic 64), else the two times. CPU time (user + system) of the processes run, the
better of two runs per size, so that a loaded machine does not decide; no absolute time
is checked (issue 26: each of these inputs once took minutes).

Cases: chain-verify, chain-emit, chain-lsp (a call chain f0 -> f1 -> ... -> fN),
edits-lsp (one didChange with N edits to an N-line document), diag-json, diag-lsp (a
one-line file of N bad tokens), complete-lsp (completion after '%' among N values),
live-tiles (N tiles live at once, more than fit: the overflow error).
scaling.py --print KIND N: the input (chain, junk, values, live-tiles) on stdout."""
import json
import os
import resource
import select
import subprocess
import sys
import tempfile

TILE = '!pto.tile_buf<vec, 1x16xf32>'
LIMIT = 120  # seconds of wall time for one run: a quadratic build takes minutes at 8N


class TooLong(Exception):
    pass


def chain(n):
    out = ['module {\n']
    for i in range(n):
        out.append(f'  func.func @f{i}(%x: {TILE}) {{\n')
        if i + 1 < n:
            out.append(f'    func.call @f{i + 1}(%x) : ({TILE}) -> ()\n')
        else:
            out.append(f'    pto.tmov ins(%x : {TILE}) outs(%x : {TILE})\n')
        out.append('    return\n  }\n')
    out.append('}\n')
    return ''.join(out)


def junk(n):
    return '@ ' * n + '\n'


def values(n):
    out = ['func.func @f(%a: index) {\n']
    for i in range(n):
        out.append(f'  %v{i} = arith.addi %a, %a : index\n')
    out.append('  %\n  return\n}\n')
    return ''.join(out)


def live(n):
    out = [f'func.func @k(%a: {TILE}) {{\n']
    for i in range(n):
        out.append(f'  %t{i} = pto.alloc_tile : {TILE}\n  pto.tmov ins(%a : {TILE}) outs(%t{i} : {TILE})\n')
    for i in range(n):
        out.append(f'  pto.tmov ins(%t{i} : {TILE}) outs(%a : {TILE})\n')
    out.append('  return\n}\n')
    return ''.join(out)


def frame(msg):
    body = json.dumps(msg).encode()
    return b'Content-Length: %d\r\n\r\n' % len(body) + body


def lsp_session(ptoas, messages, wait_id):
    """Runs `ptoas lsp` over messages (after initialize); returns once the response with
    id wait_id (or, for None, the first publishDiagnostics) came, then shuts it down."""
    p = subprocess.Popen([ptoas, 'lsp'], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    init = [{'jsonrpc': '2.0', 'id': 0, 'method': 'initialize', 'params': {'capabilities': {}}},
            {'jsonrpc': '2.0', 'method': 'initialized', 'params': {}}]
    p.stdin.write(b''.join(frame(m) for m in init + messages))
    p.stdin.flush()
    buf = b''

    def more():
        if not select.select([p.stdout], [], [], LIMIT)[0]:
            p.kill()
            p.wait()
            raise TooLong()
        return os.read(p.stdout.fileno(), 1 << 20)
    while True:
        while b'\r\n\r\n' not in buf:
            buf += more()
        head, _, buf = buf.partition(b'\r\n\r\n')
        n = int(head.split(b':')[1])
        while len(buf) < n:
            buf += more()
        msg, buf = json.loads(buf[:n]), buf[n:]
        if (wait_id is None and msg.get('method') == 'textDocument/publishDiagnostics') or \
                (wait_id is not None and msg.get('id') == wait_id):
            break
    p.stdin.write(frame({'jsonrpc': '2.0', 'id': 99, 'method': 'shutdown'}) +
                  frame({'jsonrpc': '2.0', 'method': 'exit'}))
    p.stdin.close()
    p.stdout.read()
    p.wait()
    return msg


def opened(text):
    return {'jsonrpc': '2.0', 'method': 'textDocument/didOpen',
            'params': {'textDocument': {'uri': 'file:///s.pto', 'languageId': 'pto', 'version': 1, 'text': text}}}


def run_case(ptoas, case, n, tmp):
    path = os.path.join(tmp, 'in.pto')
    if case in ('chain-verify', 'chain-emit', 'diag-json', 'live-tiles'):
        text = {'chain-verify': chain, 'chain-emit': chain, 'diag-json': junk, 'live-tiles': live}[case](n)
        with open(path, 'w') as f:
            f.write(text)
        argv = {'chain-verify': ['--verify-only'], 'chain-emit': ['--emit=c'],
                'diag-json': ['--error-limit=0', '--diagnostics-format=json'], 'live-tiles': []}[case]
        try:
            subprocess.run([ptoas] + argv + [path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=LIMIT)
        except subprocess.TimeoutExpired:
            raise TooLong()
    elif case == 'chain-lsp':
        lsp_session(ptoas, [opened(chain(n))], None)
    elif case == 'diag-lsp':
        lsp_session(ptoas, [opened(junk(n))], None)
    elif case == 'edits-lsp':
        text = ''.join('// line %d of the document\n' % i for i in range(n))
        # "replace all": every line's "line" becomes "LINE", last line first as editors send it
        edits = [{'range': {'start': {'line': i, 'character': 3}, 'end': {'line': i, 'character': 7}}, 'text': 'LINE'}
                 for i in reversed(range(n))]
        change = {'jsonrpc': '2.0', 'method': 'textDocument/didChange',
                  'params': {'textDocument': {'uri': 'file:///s.pto', 'version': 2}, 'contentChanges': edits}}
        hover = {'jsonrpc': '2.0', 'id': 1, 'method': 'textDocument/hover',
                 'params': {'textDocument': {'uri': 'file:///s.pto'}, 'position': {'line': 0, 'character': 0}}}
        lsp_session(ptoas, [opened(text), change, hover], 1)
    elif case == 'complete-lsp':
        req = {'jsonrpc': '2.0', 'id': 1, 'method': 'textDocument/completion',
               'params': {'textDocument': {'uri': 'file:///s.pto'}, 'position': {'line': n + 1, 'character': 3}}}
        lsp_session(ptoas, [opened(values(n)), req], 1)
    else:
        sys.exit('unknown case ' + case)


def cpu_time(ptoas, case, n, tmp):
    best = None
    for _ in range(2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run_case(ptoas, case, n, tmp)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = t if best is None else min(best, t)
    return best


def main():
    if sys.argv[1] == '--print':  # the input of a case, for other tests
        sys.stdout.write({'chain': chain, 'junk': junk, 'values': values, 'live-tiles': live}[sys.argv[2]](int(sys.argv[3])))
        return
    ptoas, case, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        small = cpu_time(ptoas, case, n, tmp)
        try:
            big = cpu_time(ptoas, case, 8 * n, tmp)
        except TooLong:
            print('%s: N=%d took %.3f s, 8N did not end within %d s' % (case, n, small, LIMIT))
            return
    if big <= 16 * max(small, 0.01):
        print('%s: near-linear' % case)
    else:
        print('%s: N=%d took %.3f s, 8N took %.3f s (%.1fx)' % (case, n, small, big, big / max(small, 1e-9)))


main()
