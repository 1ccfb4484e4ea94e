"""Checks of Theorem 2 (subsampled shuffle Gaussian) and the shuffled check-in bounds against independent
evaluations: the WBK formula in mpmath, the full unbounded Eq. 17 sum for small n, and ordering properties."""
import math, sys
from pathlib import Path
import mpmath as mp
import numpy as np
import pytest
from scipy import stats

from shuffle_privacy.mechanisms.shuffle_gaussian.rdp import shuffle_gaussian_rdp
from shuffle_privacy.mechanisms.shuffle_gaussian.subsampled import (checkin_rdp_chernoff, checkin_rdp_exact,
                                                      subsampled_shuffle_gaussian_rdp, _ssg_many_k)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]/'benchmarks'))
from bench_shuffle_gaussian import ssg_many_k_one_pass_per_k   # the pre-issue-14 code, the benchmark's baseline

mp.mp.dps = 50

def mp_wbk(lam, sg, gamma):
    "Theorem 2 literally, in mpmath (sg: dict j -> ε(j))."
    g = mp.mpf(gamma)
    e2 = mp.mpf(sg[2])
    tot = 1 + g**2*mp.binomial(lam, 2)*min(4*(mp.exp(e2) - 1), 2*mp.exp(e2))
    for j in range(3, lam + 1):
        tot += 2*g**j*mp.binomial(lam, j)*mp.exp((j - 1)*mp.mpf(sg[j]))
    return mp.log(tot)/(lam - 1)

@pytest.mark.parametrize('m,n,sigma', [(1, 3, 2.0), (50, 5000, 1.0), (6000, 60000, 5.0), (100, 100, 0.7)])
def test_theorem2_matches_mpmath_formula(m, n, sigma):
    L, gamma = 40, m/n
    sg = dict(zip(range(2, L + 1), shuffle_gaussian_rdp(np.arange(2, L + 1), m, sigma)))
    got = subsampled_shuffle_gaussian_rdp(np.arange(2, L + 1), m, num_users=n, sigma=sigma)
    for lam, g in zip(range(2, L + 1), got):
        ref = min(mp_wbk(lam, sg, gamma), mp.mpf(sg[lam]))   # Theorem 2, capped by the un-subsampled RDP
        assert abs(g - float(ref)) <= 1e-12*float(ref), (lam, g, ref)

def test_checkin_exact_equals_full_sum_small_n():
    n, gamma, sigma = 300, 0.2, 2.0
    o = np.array([2, 5, 12])
    # the full sum over k = 1..n (the k = 0 term contributes p_0 * (e^0 - 1) = 0 to the excess), at 40 digits
    mp.mp.dps = 40
    full = []
    for j, lam in enumerate(o):
        ex = mp.fsum(mp.binomial(n, k)*mp.mpf(gamma)**k*mp.mpf(1 - gamma)**(n - k)
                     *mp.expm1((lam - 1)*mp.mpf(float(_ssg_many_k(np.array([lam]), np.array([k]), gamma, sigma)[0, 0])))
                     for k in range(1, n + 1))
        full.append(float(mp.log1p(ex)/(lam - 1)))
    full = np.array(full)
    got = checkin_rdp_exact(o, n, probability=gamma, sigma=sigma)
    assert np.all(got >= full*(1 - 1e-10))            # certified: never below the full sum (up to rounding)
    np.testing.assert_allclose(got, full, rtol=1e-9)   # and tight

def test_chernoff_is_above_exact():
    o = np.array([2, 3, 8, 20])
    for n, gamma in [(500, 0.1), (4000, 0.05)]:
        assert np.all(checkin_rdp_chernoff(o, n, probability=gamma, sigma=3.0) >= checkin_rdp_exact(o, n, probability=gamma, sigma=3.0)*(1 - 1e-12))

def test_subsampling_never_hurts_and_helps_at_low_orders():
    o = np.arange(2, 30)
    s, u = subsampled_shuffle_gaussian_rdp(o, 200, num_users=4000, sigma=2.0), shuffle_gaussian_rdp(o, 200, 2.0)
    assert np.all(s <= u) and s[0] < 0.05*u[0] and np.all(s[:3] < u[:3])

@pytest.mark.parametrize('call,msg', [
    (lambda: subsampled_shuffle_gaussian_rdp([2], 0, num_users=10, sigma=1.0),
     'sample_size must be an integer in [1, inf)'),
    (lambda: subsampled_shuffle_gaussian_rdp([2], 10, num_users=5, sigma=1.0),
     'num_users must be an integer in [10, inf)'),
    (lambda: subsampled_shuffle_gaussian_rdp([1.5], 10, num_users=100, sigma=1.0), 'orders must'),
    (lambda: checkin_rdp_exact([2], 10, probability=0.1, sigma=-1.0), 'sigma must be in (0, inf)'),
    (lambda: checkin_rdp_exact([2], 10, probability=0.1, sigma=1.0, tail=0.0), 'tail must be in (0, 1)'),
    (lambda: checkin_rdp_chernoff([2], 10, probability=0.1, sigma=1.0, deltas=[1.0]), 'deltas must lie in (0, 1)'),
    (lambda: checkin_rdp_chernoff([2], 0, probability=0.1, sigma=1.0), 'num_users must be an integer in [1, inf)'),
    (lambda: checkin_rdp_exact([2], 10, probability=0.0, sigma=1.0), 'probability must be in (0, 1]'),
])
def test_bad_inputs(call, msg):
    with pytest.raises(ValueError) as e: call()
    assert msg in str(e.value), str(e.value)

@pytest.mark.parametrize('L,ks,gamma,sigma', [
    (30, np.arange(1, 120), 0.1, 1.0), (64, np.arange(1, 300, 7), 0.01, 3.0), (20, np.arange(1, 50), 0.5, 0.2),
    (40, np.array([1, 2, 3, 100, 1000]), 0.001, 50.0), (16, np.arange(1, 40), 0.3, 1e-3),
    (16, np.arange(1, 40), 0.3, 1e5), (12, np.arange(1, 2000, 3), 0.9, 0.7)])
def test_vectorised_over_k_matches_one_pass_per_k(L, ks, gamma, sigma):
    o = np.unique(np.r_[2, 3, L//2, L, np.arange(2, L + 1, 3)])
    old, new = ssg_many_k_one_pass_per_k(o, ks, gamma, sigma), _ssg_many_k(o, ks, gamma, sigma)
    np.testing.assert_allclose(new, old, rtol=1e-12, atol=0)

def test_checkin_large_n_is_practical_and_below_the_uncheckedin_curve():
    o = np.array([2, 4, 8, 16])
    v = checkin_rdp_exact(o, 10**6, probability=0.01, sigma=2.0)
    assert np.all(np.isfinite(v)) and np.all(np.diff(v) >= 0)
    assert np.all(v <= shuffle_gaussian_rdp(o, 10**4, 2.0))

def test_checkin_large_n_keeps_only_the_central_range_and_equals_the_full_sum():
    # the truncation keeps k within ~13 standard deviations of nγ on both sides (the upper cut used to be n),
    # and the certified result equals the sum over every k = 1..n (float64, log space) to 1e-12
    from scipy.special import logsumexp
    n, gamma, sigma = 20000, 0.05, 2.0
    o = np.arange(2, 17)
    got, (klo, khi, _) = checkin_rdp_exact(o, n, probability=gamma, sigma=sigma, return_details=True)
    sd = math.sqrt(n*gamma*(1 - gamma))
    assert n*gamma - 20*sd < klo < khi < n*gamma + 20*sd
    ks = np.arange(1, n + 1)
    ssg = _ssg_many_k(o, ks, gamma, sigma)
    with np.errstate(divide='ignore'):
        ex = logsumexp(stats.binom(n, gamma).logpmf(ks)[:, None] + np.log(np.expm1((o - 1)[None, :]*ssg)), axis=0)
    full = np.minimum.accumulate((np.logaddexp(0.0, ex)/(o - 1))[::-1])[::-1]   # the same monotone envelope
    assert np.all(got >= full*(1 - 1e-13))
    np.testing.assert_allclose(got, full, rtol=1e-12)

def _checkin_eps(n, p, sigma, delta=1e-6):
    "ε of one check-in round from the event's curve at orders 2..32 (the improved conversion)."
    import warnings
    from shuffle_privacy.accounting.events import rdp_of
    from shuffle_privacy.accounting.conversions import rdp_to_dp
    from shuffle_privacy.mechanisms.shuffle_gaussian.subsampled import ShuffledCheckInEvent
    o = np.arange(2, 33).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return rdp_to_dp(o, rdp_of(ShuffledCheckInEvent(n, p, sigma), o), delta)[0]

@pytest.mark.parametrize('n,sigma', [(1000, 1.0), (300, 3.0)])
def test_checkin_event_epsilon_is_non_decreasing_in_the_probability(n, sigma):
    # thinning: check-in at p is a post-processing of check-in at p' >= p, so the event's bound may not decrease in p
    eps = [_checkin_eps(n, p, sigma) for p in (0.005, 0.01, 0.03, 0.1, 0.25, 0.5, 0.8, 1.0)]
    assert all(a <= b for a, b in zip(eps, eps[1:])), eps
    assert eps[1] <= eps[-1]

def test_checkin_event_curve_is_the_minimum_of_eq17_and_full_participation():
    from shuffle_privacy.accounting.events import rdp_of
    from shuffle_privacy.mechanisms.shuffle_gaussian.subsampled import ShuffledCheckInEvent
    o = np.arange(2, 17)
    ev = rdp_of(ShuffledCheckInEvent(1000, 0.01, 1.0), o.astype(float))
    eq17, full = checkin_rdp_exact(o, 1000, probability=0.01, sigma=1.0), shuffle_gaussian_rdp(o, 1000, 1.0)
    np.testing.assert_allclose(ev, np.minimum(eq17, full), rtol=1e-12)
    assert np.all(ev <= eq17) and ev[-1] < eq17[-1]     # full participation is the better bound here
