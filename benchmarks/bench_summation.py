"""P1D and PVEC against plain numpy (the baseline a user would write), and P1D exact parameters against Lemma 3.1.

`run() -> list[dict]` (keys name, baseline, ratio_median, ratio_lo, ratio_hi, notes); ratios are candidate/baseline
time per interleaved pair. Peak memory of PVEC is stated in the notes."""
import os, sys, time
import numpy as np
sys.path.insert(0, os.path.dirname(__file__))
from _interleave import ratio_row, peak_mib
from shuffle_privacy.mechanisms.summation.protocols import p1d_sum, p1d_params, pvec_sum, pvec_params
from shuffle_privacy.mechanisms.summation.exact import p1d_exact_params

def _numpy_p1d(x, g, b, p, Delta, rng):
    "Plain numpy P1D: randomized rounding + one binomial, no validation."
    s = x*(g/Delta); fl = np.floor(s)
    c = int((fl + (rng.random(s.shape) < s - fl)).sum()) + int(rng.binomial(b*len(x), p))
    return Delta/g*(c - p*b*len(x))

def _numpy_pvec(X, prm, rng):
    "Plain numpy PVEC fast path on the whole array at once (no chunking, no validation)."
    W = np.clip((X + prm.Delta2)*prm.g/(2*prm.Delta2), 0, prm.g); fl = np.floor(W)
    c = fl.sum(0) + (rng.random(W.shape) < W - fl).sum(0) + rng.binomial(prm.b*len(X), prm.p, size=X.shape[1])
    return 2*prm.Delta2/prm.g*(c - prm.p*prm.b*len(X)) - len(X)*prm.Delta2

def run():
    rng = np.random.default_rng(0); out = []
    n = 10**6; x = rng.random(n); g, b, p = p1d_params(n, 1.0, 1e-6)
    out.append(ratio_row(f'p1d_sum n={n:.0e}', 'plain numpy rounding + binomial',
                         lambda: p1d_sum(x, g, b=b, p=p, Delta=1.0, rng=rng), lambda: _numpy_p1d(x, g, b, p, 1.0, rng)))
    n, d = 10**5, 100
    X = rng.normal(size=(n, d)); X /= np.linalg.norm(X, axis=1)[:, None]; prm = pvec_params(n, d, epsilon=1.0, delta=1e-6, Delta2=1.0)
    mem, mem_np = peak_mib(lambda: pvec_sum(X, 1.0, delta=1e-6, Delta2=1.0, rng=rng)), peak_mib(lambda: _numpy_pvec(X, prm, rng))
    out.append(ratio_row(f'pvec_sum n={n:.0e} d={d}', 'plain numpy (whole array)',
                         lambda: pvec_sum(X, 1.0, delta=1e-6, Delta2=1.0, rng=rng), lambda: _numpy_pvec(X, prm, rng), reps=5,
                         notes=f'peak memory {mem:.0f} MiB (chunked) vs {mem_np:.0f} MiB (numpy) at n={n}, d={d}'))
    n = 10**6
    out.append(ratio_row(f'p1d_exact_params n={n:.0e}', "Lemma 3.1's closed form (p1d_params)",
                         lambda: p1d_exact_params(n, 1.0, 1e-6), lambda: p1d_params(n, 1.0, 1e-6), reps=3,
                         notes='exact b is smaller than the lemma\'s; the closed form is O(1), so the ratio is large'))
    return out

if __name__ == '__main__':
    for r in run(): print(r)
