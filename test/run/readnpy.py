#!/usr/bin/env python3
"""readnpy.py FILE: prints an .npy file's elements as a list of their raw bit patterns (for
small integer outputs a test checks against values worked out by hand)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref  # noqa: E402

print(ref.npy_read(sys.argv[1]).data)
