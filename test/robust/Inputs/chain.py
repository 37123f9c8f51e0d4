"""chain.py N: one function whose N tmovs copy a 16x64 f32 tile down a chain
of N + 1 tiles (each op reads the previous tile and writes a new one)."""
import sys

n = int(sys.argv[1])
t = '!pto.tile_buf<vec, 16x64xf32>'
out = [f'func.func @big(%t0: {t}) {{\n']
for i in range(1, n + 1):
    out.append(f'  %t{i} = pto.alloc_tile : {t}\n')
    out.append(f'  pto.tmov ins(%t{i - 1} : {t}) outs(%t{i} : {t})\n')
out.append('  return\n}\n')
sys.stdout.write(''.join(out))
