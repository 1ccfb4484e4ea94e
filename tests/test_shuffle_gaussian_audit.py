"Checks of shuffle_privacy.experiments.shuffle_gaussian_audit: the likelihood-ratio statistic against scipy densities, the audit below Theorem 1."
import math
import numpy as np
import pytest
from itertools import permutations
from scipy import stats

from shuffle_privacy.accounting.conversions import rdp_to_dp
from shuffle_privacy.mechanisms.shuffle_gaussian.rdp import shuffle_gaussian_rdp
from shuffle_privacy.experiments.shuffle_gaussian_audit import audit_shuffle_gaussian, shuffle_gaussian_log_lr, shuffle_gaussian_sampler

def test_log_lr_against_mixture_densities():
    "Density of a shuffled release = average over the n! orderings; the ratio for D' vs D must match."
    sigma, n = 0.7, 3
    y = np.array([[-0.3, 0.4, 1.2]])
    x1 = np.array([1.0, 0.0, 0.0])
    p1 = np.mean([np.prod(stats.norm.pdf(y[0], loc=x1[list(p)], scale=sigma)) for p in permutations(range(n))])
    p0 = np.prod(stats.norm.pdf(y[0], loc=0.0, scale=sigma))
    assert shuffle_gaussian_log_lr(y, sigma)[0] == pytest.approx(math.log(p1 / p0), rel=1e-12)

@pytest.mark.parametrize('n', [1, 5])
def test_audit_below_theorem1(n):
    r, _ = audit_shuffle_gaussian(n, 0.6, trials=3000, delta=1e-5, rng=0)
    o = np.arange(2, 200)
    assert 0 <= r.epsilon <= rdp_to_dp(o, shuffle_gaussian_rdp(o, n, 0.6), 1e-5)[0]

def test_sampler_shape_and_bad_input():
    assert shuffle_gaussian_sampler(np.zeros(4), 1.0)(np.random.default_rng(0), 7).shape == (7, 4)
    with pytest.raises(ValueError, match='sigma must be in'): shuffle_gaussian_sampler(np.zeros(2), 0.0)
    with pytest.raises(ValueError, match=r'n must be an integer in \[1, inf\)'): audit_shuffle_gaussian(0, 1.0)
