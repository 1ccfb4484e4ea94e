"""PVEC: the fast path against the message-level simulation and against a plain numpy Gaussian sum, with peak memory
(ported to the harness by `bench`).

Run: python3 dev.py bench summation
"""
import numpy as np
from harness import compare, peak_memory, row
from shuffle_privacy.mechanisms.summation import pvec_sum

def _rows(rng, n, d):
    X = rng.normal(size=(n, d)); return X/np.linalg.norm(X, axis=1)[:, None]

def run():
    rng = np.random.default_rng(0)
    out = []
    n, d = 200, 10
    X = _rows(rng, n, d)
    out.append(compare(f'pvec_sum fast, n = {n}, d = {d}, ε = 15', lambda: pvec_sum(X, 15.0, 0.4, 1.0, rng),
                       lambda: pvec_sum(X, 15.0, 0.4, 1.0, rng, method='messages'), repeats=5,
                       baseline_name='message-level simulation'))
    n, d = 10**5, 100
    X = _rows(rng, n, d)
    r = compare(f'pvec_sum fast, n = {n:.0e}, d = {d}, ε = 1', lambda: pvec_sum(X, 1.0, 1e-6, 1.0, rng),
                lambda: X.sum(0) + rng.normal(0, 5.0, d), repeats=3, number=1,
                baseline_name='numpy sum + Gaussian noise (central DP)')
    mb, _ = peak_memory(lambda: pvec_sum(X, 1.0, 1e-6, 1.0, rng))
    r['peak_mb'] = mb
    r['notes'] = f'peak memory {mb:.1f} MB (input {X.nbytes/2**20:.0f} MB)'
    out.append(r)
    return out

if __name__ == '__main__':
    for r in run(): print(r)
