"""BloGS block shuffle against plain numpy (reshape + permutation indexing), with peak memory.

`run() -> list[dict]` with keys name, baseline, ratio_median, ratio_lo, ratio_hi, notes."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(__file__))
from _interleave import ratio_row, peak_mib
from shuffle_privacy.mechanisms.blogs import block_shuffle

def _numpy_block_shuffle(x, b, rng):
    "Plain numpy when b divides x.size: a fancy-indexed copy of the blocks."
    return x.reshape(-1, b)[rng.permutation(x.size//b)].reshape(x.shape)

def run():
    rng = np.random.default_rng(0); out = []
    for n, b in [(10**6, 64), (2**23, 1024)]:
        x = rng.normal(size=n).astype(np.float32)
        m, m0 = peak_mib(lambda: block_shuffle(x, b, rng)), peak_mib(lambda: _numpy_block_shuffle(x, b, rng))
        out.append(ratio_row(f'block_shuffle n={n:.0e} b={b}', 'plain numpy fancy indexing',
                             lambda: block_shuffle(x, b, rng), lambda: _numpy_block_shuffle(x, b, rng),
                             notes=f'peak memory {m:.1f} MiB vs {m0:.1f} MiB (float32, n={n})'))
    return out

if __name__ == '__main__':
    for r in run(): print(r)
