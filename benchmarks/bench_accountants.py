"""The accountants' targets of the certified-PLD work, as ratios measured in one run with interleaved repetitions.

- the Poisson-subsampled Gaussian (q = 0.01, σ = 1), 1000 steps, replace-one, ε at δ = 1e-5, through the default
  adaptive `PldAccountant` (1% target) against dp_accounting's `PLDAccountant(REPLACE_ONE)` (target: within 3x);
- `calibrate(..., make_accountant=PldAccountant)` of σ for 100 shuffle Gaussian rounds (n = 60000, ε = 1,
  δ = 1e-5) against dp_accounting's `calibrate_dp_mechanism` with its `PLDAccountant` on 100 Gaussian rounds
  (target: within 5x). Each side takes tens of seconds, so this row has two repetitions and no warm-up; the shuffle
  Gaussian's cached laws are cleared before each run, so that every run builds them.

Run: .venv/bin/python benchmarks/bench_accountants.py
"""
import dp_accounting
from dp_accounting import GaussianDpEvent, NeighboringRelation, PoissonSampledDpEvent, SelfComposedDpEvent
from dp_accounting.mechanism_calibration import calibrate_dp_mechanism
from dp_accounting.pld import PLDAccountant
from harness import compare
import shuffle_privacy as sp
from shuffle_privacy.mechanisms.shuffle_gaussian import pld as _sgp

POISSON = PoissonSampledDpEvent(0.01, GaussianDpEvent(1.0))

def poisson_ours(): sp.PldAccountant().compose(POISSON, 1000).get_epsilon(1e-5)
def poisson_theirs(): PLDAccountant(NeighboringRelation.REPLACE_ONE).compose(POISSON, 1000).get_epsilon(1e-5)

def calibrate_ours():
    for f in vars(_sgp).values():                         # every cached law of notebook 12: a cold start
        if hasattr(f, 'cache_clear'): f.cache_clear()
    sp.calibrate(lambda s: SelfComposedDpEvent(sp.ShuffleGaussianEvent(60_000, s), 100), 1.0, 1e-5,
                 make_accountant=sp.PldAccountant)

def calibrate_theirs():
    calibrate_dp_mechanism(PLDAccountant, lambda s: SelfComposedDpEvent(GaussianDpEvent(s), 100), 1.0, 1e-5)

def run(repeats:int=5)->list:
    return [compare('Poisson-subsampled Gaussian, 1000 steps, replace-one (PldAccountant, 1% target)',
                    poisson_ours, poisson_theirs, repeats=repeats, number=1,
                    baseline_name='dp_accounting PLDAccountant(REPLACE_ONE)', notes='target: <= 3'),
            compare('calibrate σ of 100 shuffle Gaussian rounds (PldAccountant) / 100 Gaussian rounds',
                    calibrate_ours, calibrate_theirs, repeats=2, number=1, warmup=0,
                    baseline_name='dp_accounting calibrate_dp_mechanism(PLDAccountant)', notes='target: <= 5')]

if __name__ == '__main__':
    for r in run():
        print(f"{r['name']}: {r['ratio_median']:.3g} [{r['ratio_lo']:.3g}, {r['ratio_hi']:.3g}]  "
              f"ours {r['candidate_s']:.2f} s, baseline {r['baseline_s']:.2f} s  {r['notes']}")
