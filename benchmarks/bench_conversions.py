"""Speed of shuffle_privacy.conversions relative to dp_accounting on the same inputs, in the same run.

Run: .venv/bin/python benchmarks/bench_conversions.py
Prints time per call for each pair and the ratio ours/theirs (< 1 means we are faster). Not run in CI.
"""
import math, time, warnings
import numpy as np
from dp_accounting.rdp import rdp_privacy_accountant as rdp_acc
from dp_accounting.pld import privacy_loss_mechanism as plm
from shuffle_privacy.conversions import (rdp_to_dp, rdp_to_delta, gdp_delta, gdp_epsilon, optimal_composition_epsilon,
                                         OrderGridWarning, GDP_RTOL)

def per_call(f, n):
    "Best of 3 runs of n calls, in seconds per call."
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(n): f()
        best = min(best, (time.perf_counter() - t)/n)
    return best

def main():
    warnings.simplefilter('ignore', OrderGridWarning)
    orders = np.array(rdp_acc.DEFAULT_RDP_ORDERS, float)
    rdp = orders/(2*3.0**2)
    rows = []
    rows.append(('RDP -> eps (149 orders)', per_call(lambda: rdp_to_dp(orders, rdp, 1e-6), 2000),
                 per_call(lambda: rdp_acc.compute_epsilon(orders, rdp, 1e-6), 2000)))
    rows.append(('RDP -> delta (149 orders)', per_call(lambda: rdp_to_delta(orders, rdp, 1.0), 2000),
                 per_call(lambda: rdp_acc.compute_delta(orders, rdp, 1.0), 2000)))
    g = plm.GaussianPrivacyLoss(1.0, sensitivity=1.0)
    es = np.linspace(0, 8, 200)
    rows.append(('GDP delta, 200 eps, mu = 1', per_call(lambda: gdp_delta(1.0, es), 20),
                 per_call(lambda: g.get_delta_for_epsilon(es), 20)))
    g2 = plm.GaussianPrivacyLoss(1/0.02, sensitivity=1.0)
    es2 = np.linspace(0, 0.2, 200)
    rows.append(('GDP delta, 200 eps, mu = 0.02 (cancelling)', per_call(lambda: gdp_delta(0.02, es2), 5),
                 per_call(lambda: g2.get_delta_for_epsilon(es2), 5)))
    def their_eps(mu=1.0, delta=1e-6):
        gg = plm.GaussianPrivacyLoss(1/mu, sensitivity=1.0)
        lo, hi = 0.0, mu*(10 + mu)
        for _ in range(60):
            mid = (lo + hi)/2
            lo, hi = (mid, hi) if gg.get_delta_for_epsilon(mid) > delta else (lo, mid)
        return hi
    rows.append(('GDP eps(delta), vs 60-step bisection', per_call(lambda: gdp_epsilon(1.0, 1e-6), 50),
                 per_call(their_eps, 50)))
    print(f'{"operation":46s} {"ours (s)":>11s} {"dp_accounting (s)":>18s} {"ratio":>7s}')
    for name, a, b in rows:
        print(f'{name:46s} {a:11.3e} {b:18.3e} {a/b:7.2f}')
    # accuracy in the cancelling regime, against mpmath at 300 digits
    import mpmath as mp
    with mp.workdps(300):
        ref = np.array([float(mp.ncdf(-mp.mpf(e)/mp.mpf(0.02) + mp.mpf(0.02)/2)
                              - mp.exp(mp.mpf(e))*mp.ncdf(-mp.mpf(e)/mp.mpf(0.02) - mp.mpf(0.02)/2)) for e in es2])
    ok = ref > 1e-300
    for name, got in (('ours*', gdp_delta(0.02, es2)/(1 + GDP_RTOL)), ('dp_accounting', np.asarray(g2.get_delta_for_epsilon(es2)))):
        err = np.max(np.abs(got[ok] - ref[ok])/ref[ok])
        print(f'max relative error of delta, mu = 0.02, eps in [0, 0.2] ({ok.sum()} points), {name:13s}: {err:.1e}')
    print('* ours before its deliberate round-up by GDP_RTOL = 1e-12')
    print('\noptimal composition eps (no dp_accounting counterpart), scaling in k:')
    base = None
    for k in (100, 1000, 10_000, 100_000):
        t = per_call(lambda: optimal_composition_epsilon(0.01, 0.0, k, 1e-6), 1)
        base = base or t
        print(f'  k = {k:7d}: {t:9.3e} s  ({t/base:6.1f} x k = 100)')

if __name__ == '__main__':
    main()
