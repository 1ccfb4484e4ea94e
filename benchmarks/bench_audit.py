"""The audit's Clopper–Pearson (checked inverse beta) against the old bisection, and the pilot threshold sweep against
the old search over 200 candidate quantiles (what notebook 42 does).

`run() -> list[dict]` with keys name, baseline, ratio_median, ratio_lo, ratio_hi, notes."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(__file__))
from _interleave import ratio_row
from shuffle_privacy.audit import epsilon_lower_bound, best_threshold, _log_beta_bisect, _log_minus, _alpha_for

def _old_epsilon_lower_bound(tp, fp, n, delta=0.0, alpha=0.05):
    "The previous implementation: four bisections in log x."
    lp1 = -np.inf if tp == 0 else _log_beta_bisect(tp, n - tp + 1, alpha, False, 'lo')
    lq1 = 0.0 if tp == 0 else _log_beta_bisect(n - tp + 1, tp, alpha, True, 'hi')
    lp0 = 0.0 if fp == n else _log_beta_bisect(fp + 1, n - fp, alpha, True, 'hi')
    lq0 = -np.inf if fp == n else _log_beta_bisect(n - fp, fp + 1, alpha, False, 'lo')
    return max(0.0, _log_minus(lp1, delta) - lp0, _log_minus(lq0, delta) - lq1)

def _old_threshold(a, b, delta):
    cands = np.quantile(a, np.linspace(0.0, 0.999, 200))
    return max(cands, key=lambda t: _old_epsilon_lower_bound(int((a >= t).sum()), int((b >= t).sum()), len(a), delta))

def run():
    out = []
    cases = [(950, 30, 1000), (10**5 - 3, 17, 10**5), (500, 480, 1000)]
    out.append(ratio_row('epsilon_lower_bound (3 count pairs)', 'old bisection in log x',
                         lambda: [epsilon_lower_bound(*c, delta=1e-5) for c in cases],
                         lambda: [_old_epsilon_lower_bound(*c, delta=1e-5) for c in cases]))
    g = np.random.default_rng(0); n = 10**4
    a, b = g.normal(2.0, 1.0, n), g.normal(0.0, 1.0, n)
    out.append(ratio_row(f'best_threshold n={n:.0e} (all {2*n} candidates)', 'old search: 200 quantiles, bisection',
                         lambda: best_threshold(a, b, delta=1e-5), lambda: _old_threshold(a, b, 1e-5), reps=3,
                         notes='the sweep scores every distinct score; the old search only 200 of them'))
    return out

if __name__ == '__main__':
    for r in run(): print(r)
