#!/usr/bin/env python3
"""op_locs.py FILE: the location of every op line of mlir-opt's (or ptoas's)
--mlir-print-debuginfo output, #loc aliases resolved, one per line: `NAME
"file":L:C`. With --subset REF OUT: exit 1 (naming them) unless every line
of REF's list is in OUT's (as many times or more)."""
import collections
import re
import sys

ALIAS = re.compile(r'^(#loc\d*) = loc\((.*)\)$')
OP = re.compile(r'^\s*(\}|(?:%\S+(?:, %\S+)* = )?"?[A-Za-z_][\w.]*"?).*\sloc\((#loc\d*|".*?":\d+:\d+)\)$')


def op_locs(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    aliases = {}
    for ln in lines:
        m = ALIAS.match(ln)
        if m:
            aliases[m.group(1)] = m.group(2)
    out = []
    for ln in lines:
        if ALIAS.match(ln):
            continue
        m = OP.match(ln)
        if m:
            loc = aliases.get(m.group(2), m.group(2))
            name = m.group(1).split('= ')[-1].strip('"')
            if name.startswith('}'):  # a region op's closing line (module, func, scf)
                name = 'region'
            out.append('%s %s' % (name, loc))
    return out


if __name__ == '__main__':
    if sys.argv[1] == '--subset':
        ref = collections.Counter(l.split(' ', 1)[1] for l in op_locs(sys.argv[2]))
        got = collections.Counter(l.split(' ', 1)[1] for l in op_locs(sys.argv[3]))
        missing = [k for k in ref if got[k] < 1]
        for k in missing:
            print('missing: %s' % k)
        print('%d locations, %d missing' % (len(ref), len(missing)))
        sys.exit(1 if missing else 0)
    for l in op_locs(sys.argv[1]):
        print(l)
