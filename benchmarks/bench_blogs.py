"""BloGS block shuffle against a plain copy of the same array, with peak memory (ported to the harness by `bench`).

Run: python3 dev.py bench blogs
"""
import numpy as np
from harness import compare, peak_memory
from shuffle_privacy.mechanisms.blogs import block_shuffle

def run():
    n = 10**7
    x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    out = np.empty_like(x)
    rng = np.random.default_rng(1)
    rows = []
    for b in (16, 4096):
        r = compare(f'block_shuffle, n = 1e7 float32, b = {b}', lambda: block_shuffle(x, b, rng, out=out),
                    lambda: np.copyto(out, x), repeats=7, number=1, baseline_name='np.copyto (plain copy)',
                    notes='issue 6 target <= 3')
        mb, _ = peak_memory(lambda: block_shuffle(x, b, rng))
        r['peak_mb'] = mb
        r['notes'] += f'; peak {mb:.0f} MB without out= (array {x.nbytes/2**20:.0f} MB)'
        rows.append(r)
    return rows

if __name__ == '__main__':
    for r in run(): print(r)
