#!/usr/bin/env python3
"""eye.py FILE N [SCALE]: a raw .bin of the N x N f16 identity times SCALE (the launch tests)."""
import struct
import sys

n = int(sys.argv[2])
s = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
with open(sys.argv[1], 'wb') as f:
    f.write(b''.join(struct.pack('<e', s if i // n == i % n else 0.0) for i in range(n * n)))
