"""Block shuffle of 10^8 float32 values against a plain copy of the same array, measured in one run.

Run: .venv/bin/python benchmarks/bench_blogs.py [--n 100000000] [--repeats 3]
Prints, per block size, the best-of-`repeats` wall time (copy and shuffle measured alternately) of `block_shuffle` (permutation of the block indices plus one
np.take gather into a preallocated output) and its ratio to `np.copyto` of the same array into a preallocated output.
The target of issue 6 is a ratio <= 3.
"""
import argparse, time
import numpy as np
from shuffle_privacy.blogs import block_shuffle, blogs_block_sizes

def best_of(f, repeats):
    ts = []
    for _ in range(repeats):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--n', type=int, default=10**8)
    ap.add_argument('--repeats', type=int, default=5)
    ap.add_argument('--with-b1', action='store_true', help='also time b = 1 (about a minute: 10^8 random indices)')
    a = ap.parse_args()
    n = a.n
    x = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    out = np.empty_like(x)
    rng = np.random.default_rng(1)
    t_copy = best_of(lambda: np.copyto(out, x), a.repeats)
    # block sizes that Algorithm 2 chooses for one tensor of n entries at the paper's targets (1000 steps, C = 1)
    alg2 = {t: blogs_block_sizes([n], t, 1e-5, 1000, 1.0, warn=False)[0] for t in (1.0, 10.0, 100.0)}
    sizes = [(f'b = {b}', b) for b in (16, 256, 4096, 65536)]
    if a.with_b1: sizes = [('b = 1 (a full random permutation)', 1)] + sizes
    sizes += [(f'Alg. 2, target eps {t:g}: b = {b}', b) for t, b in alg2.items()]
    sizes += [(f'b = {4096 + 3} (padded: does not divide n)', 4099)]
    print(f'n = {n:,} float32 ({x.nbytes / 2**20:.0f} MiB); plain copy: {t_copy * 1e3:.1f} ms (best of {a.repeats})')
    print(f'{"block size":<45}{"blocks":>12}{"time [ms]":>12}{"ratio to copy":>15}{"  <= 3x":>8}')
    for name, b in sizes:
        # interleave copy and shuffle so that both see the same machine load (the cores are shared)
        tc, ts = [], []
        for _ in range(a.repeats):
            tc.append(best_of(lambda: np.copyto(out, x), 1))
            ts.append(best_of(lambda: block_shuffle(x, b, rng, out=out), 1))
        t, r = min(ts), min(ts) / min(tc)
        print(f'{name:<45}{-(-n // b):>12,}{t * 1e3:>12.1f}{r:>15.2f}{"yes" if r <= 3 else "no":>8}')

if __name__ == '__main__':
    main()
