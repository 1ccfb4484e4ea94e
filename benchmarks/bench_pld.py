"""Speed of the certified PLD engine through the default (adaptive, 1% target) `PldAccountant` at δ = 1e-5, each a
ratio against dp_accounting's `PLDAccountant` on 1000 `GaussianDpEvent(9.48)` rounds (grid 1e-4), measured in the
same run with interleaved repetitions (candidate, baseline, candidate, baseline, ...):

- 1000 shuffle Gaussian rounds, n = 60000, σ = 9.48 (target <= 2);
- one shuffle Gaussian round, n = 60000, σ = 1, where the laws come from notebook 12's log-scale grid (target <= 2);
- 1000 shuffled check-in rounds, n = 60000, p = 0.01, σ = 1 (target <= 10).

Every timing of ours starts cold: the cached laws of the sums of lognormals are cleared first.

Run: .venv/bin/python benchmarks/bench_pld.py
"""
import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
import shuffle_privacy as sp
from shuffle_privacy.mechanisms.shuffle_gaussian import pld as _sgp
from harness import compare

D, DELTA = 1e-4, 1e-5

def cold():
    "Forget the cached laws of the sums of lognormals, so that every timing builds them."
    for f in (_sgp._cached_law, _sgp._log_pow2, _sgp._prefix_law, _sgp._shared_law): f.cache_clear()

def baseline():
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=D)
    acc.compose(dp_accounting.GaussianDpEvent(9.48), 1000).get_epsilon(DELTA)

def shuffle_rounds():
    cold(); sp.PldAccountant().compose(sp.ShuffleGaussianEvent(60_000, 9.48), 1000).get_epsilon_bounds(DELTA)

def one_round_small_sigma():
    cold(); sp.PldAccountant().compose(sp.ShuffleGaussianEvent(60_000, 1.0)).get_epsilon_bounds(DELTA)

def checkin_rounds():
    cold()
    ev = sp.ShuffledCheckInEvent(60_000, probability=0.01, noise_multiplier=1.0)
    sp.PldAccountant().compose(ev, 1000).get_epsilon_bounds(DELTA)

BASE = 'dp_accounting PLDAccountant, 1000 GaussianDpEvent(9.48) rounds'

def run(repeats:int=3)->list:
    rows = []
    for name, fn, target, reps in (
            ('1000 shuffle Gaussian rounds (n = 60000, σ = 9.48), PldAccountant ε(1e-5)', shuffle_rounds, 2, repeats),
            ('one shuffle Gaussian round (n = 60000, σ = 1), PldAccountant ε(1e-5)', one_round_small_sigma, 2, repeats),
            ('1000 shuffled check-in rounds (n = 60000, p = 0.01, σ = 1), PldAccountant ε(1e-5)', checkin_rounds, 10,
             1)):
        r = compare(name, fn, baseline, repeats=reps, number=1, warmup=0, baseline_name=BASE,
                    notes=f'cold law caches; target <= {target}')
        r['target'] = target
        rows.append(r)
    return rows

if __name__ == '__main__':
    for r in run():
        print(f"{r['name']}: {r['ratio_median']:.3g} [{r['ratio_lo']:.3g}, {r['ratio_hi']:.3g}]  "
              f"ours {r['candidate_s']:.3f} s, baseline {r['baseline_s']:.3f} s  ({r['notes']})")
