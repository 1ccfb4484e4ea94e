"""Issue 11 speed targets, as ratios measured in one run with interleaved repetitions.

- one shuffle Gaussian round at n = 60000 (σ = 9.48): the certified PLD pair, absolute seconds;
- the same at σ = 1, where the laws come from notebook 12's log-scale grid, absolute seconds;
- 1000 composed shuffle Gaussian rounds (PldAccountant) against dp_accounting's PLD for 1000 Gaussian rounds at the
  same value_discretization_interval: the ratio (target: within 10x).

Run: .venv/bin/python benchmarks/bench_pld.py
"""
import statistics, time
import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
import shuffle_privacy as sp
from shuffle_privacy.mechanisms.shuffle_gaussian import pld as _sgp
from shuffle_privacy.mechanisms.shuffle_gaussian.pld import shuffle_gaussian_pld

D = 1e-4

def cold():
    "Forget the cached laws of the sum of lognormals, so that every timing builds them."
    _sgp._cached_law.cache_clear(); _sgp._log_pow2.cache_clear()

def ours():
    cold()
    sp.PldAccountant(D).compose(sp.ShuffleGaussianEvent(60_000, 9.48), 1000).get_epsilon(1e-6)

def baseline():
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=D)
    acc.compose(dp_accounting.GaussianDpEvent(9.48), 1000).get_epsilon(1e-6)

def one_round():
    cold(); shuffle_gaussian_pld(60_000, 9.48, D)

def one_round_small_sigma():
    cold(); shuffle_gaussian_pld(60_000, 1.0, D)

def timed(f):
    t = time.perf_counter(); f(); return time.perf_counter() - t

def run(repeats:int=7)->list:
    ours(); baseline(); one_round(); one_round_small_sigma()      # warm-up
    a, b, c, d = [], [], [], []
    for _ in range(repeats):                            # interleaved: A B C D A B C D ...
        a.append(timed(ours)); b.append(timed(baseline)); c.append(timed(one_round))
        d.append(timed(one_round_small_sigma))
    ratios = sorted(x/y for x, y in zip(a, b))
    return [dict(name='1000 shuffle Gaussian rounds (PLD) / dp_accounting 1000 Gaussian rounds (PLD)',
                 baseline='dp_accounting PLDAccountant', ratio_median=statistics.median(ratios),
                 ratio_lo=ratios[0], ratio_hi=ratios[-1],
                 notes=f'ours {statistics.median(a):.3f} s, baseline {statistics.median(b):.3f} s'),
            dict(name='one shuffle Gaussian round at n = 60000: certified PLD pair', baseline='(absolute)',
                 ratio_median=statistics.median(c), ratio_lo=min(c), ratio_hi=max(c), notes='seconds'),
            dict(name='one shuffle Gaussian round at n = 60000, σ = 1 (log-scale grid): certified PLD pair',
                 baseline='(absolute)', ratio_median=statistics.median(d), ratio_lo=min(d), ratio_hi=max(d),
                 notes='seconds')]

if __name__ == '__main__':
    for r in run(): print(f"{r['name']}: {r['ratio_median']:.3g} [{r['ratio_lo']:.3g}, {r['ratio_hi']:.3g}]  {r['notes']}")
