"""Issue 11 speed targets, as ratios measured in one run with interleaved repetitions.

- one shuffle Gaussian round at n = 60000 (σ = 9.48): the certified PLD pair, absolute seconds;
- 1000 composed shuffle Gaussian rounds (PldAccountant) against dp_accounting's PLD for 1000 Gaussian rounds at the
  same value_discretization_interval: the ratio (target: within 10x).

Run: .venv/bin/python benchmarks/bench_pld.py
"""
import statistics, time
import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
import shuffle_privacy as sp
from shuffle_privacy.mechanisms.shuffle_gaussian_pld import shuffle_gaussian_pld

D = 1e-4

def ours():
    sp.PldAccountant(D).compose(sp.ShuffleGaussianEvent(60_000, 9.48), 1000).get_epsilon(1e-6)

def baseline():
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=D)
    acc.compose(dp_accounting.GaussianDpEvent(9.48), 1000).get_epsilon(1e-6)

def one_round():
    shuffle_gaussian_pld(60_000, 9.48, D)

def timed(f):
    t = time.perf_counter(); f(); return time.perf_counter() - t

def run(repeats:int=7)->list:
    ours(); baseline(); one_round()                     # warm-up
    a, b, c = [], [], []
    for _ in range(repeats):                            # interleaved: A B C A B C ...
        a.append(timed(ours)); b.append(timed(baseline)); c.append(timed(one_round))
    ratios = sorted(x/y for x, y in zip(a, b))
    return [dict(name='1000 shuffle Gaussian rounds (PLD) / dp_accounting 1000 Gaussian rounds (PLD)',
                 baseline='dp_accounting PLDAccountant', ratio_median=statistics.median(ratios),
                 ratio_lo=ratios[0], ratio_hi=ratios[-1],
                 notes=f'ours {statistics.median(a):.3f} s, baseline {statistics.median(b):.3f} s'),
            dict(name='one shuffle Gaussian round at n = 60000: certified PLD pair', baseline='(absolute)',
                 ratio_median=statistics.median(c), ratio_lo=min(c), ratio_hi=max(c), notes='seconds')]

if __name__ == '__main__':
    for r in run(): print(f"{r['name']}: {r['ratio_median']:.3g} [{r['ratio_lo']:.3g}, {r['ratio_hi']:.3g}]  {r['notes']}")
