"Exact P1D accounting vs an independent mpmath computation of the hockey-stick divergence of shifted binomials."
import math
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from shuffle_privacy.mechanisms.summation.exact import (ShiftedBinomialProfile, binomial_shift_log_delta,
                                                        p1d_exact_delta,
                                            p1d_exact_epsilon, p1d_exact_params, p1d_min_b)
from shuffle_privacy.mechanisms.summation.protocols import p1d_epsilon, p1d_params

MP_DPS = 60   # conftest.py sets mpmath to this before each test
mp.mp.dps = MP_DPS

def mp_hockey(m, p, k, eps):
    p = mp.mpf(p); q = 1 - p
    pmf = lambda z: mp.binomial(m, z)*p**z*q**(m - z) if 0 <= z <= m else mp.mpf(0)
    e = mp.e**mp.mpf(eps)
    return mp.fsum(max(mp.mpf(0), pmf(z) - e*pmf(z - k)) for z in range(min(0, k), m + max(0, k) + 1))

@pytest.mark.parametrize('m,p,k,eps', [(1, 0.3, 1, 0.0), (10, 0.3, 2, 0.5), (10, 0.3, -2, 0.5), (200, 0.45, 5, 0.3),
                                       (200, 0.45, -5, 0.3), (500, 0.1, 3, 1.0), (500, 0.1, -3, 1.0), (3000, 0.5, 10, 0.05),
                                       (3000, 0.49, -20, 2.0), (50, 0.2, 7, 6.0)])
def test_matches_mpmath(m, p, k, eps):
    ref = mp_hockey(m, p, k, eps)
    got = binomial_shift_log_delta(eps, m=m, p=p, k=k)
    if ref == 0: assert got == -math.inf or got < -700
    else: assert abs(got - float(mp.log(ref))) <= 1e-9*max(1, abs(float(mp.log(ref))))

def test_tiny_delta_in_log_space():
    "Far in the tail the profile is far below 1e-300 and must not underflow to -inf or NaN."
    ref = mp_hockey(2000, 0.5, 1, 0.3)
    got = binomial_shift_log_delta(0.3, m=2000, p=0.5, k=1)
    assert abs(got - float(mp.log(ref))) < 1e-8*abs(float(mp.log(ref)))
    for m, k, eps in [(400, 2, 1.5), (100, 1, 2.5)]:
        ref = float(mp.log(max(mp_hockey(m, 0.5, k, eps), mp_hockey(m, 0.5, -k, eps))))
        v = ShiftedBinomialProfile(m, 0.5, shift=k).log_delta(eps)
        assert ref < math.log(1e-12) and abs(v - ref) < 1e-8*abs(ref)

@pytest.mark.parametrize('n,eps,delta', [(4, 2.0, 0.1), (4, 2.0, 1e-3), (25, 1.0, 1e-3), (100, 0.5, 1e-6)])
def test_exact_epsilon_is_tight_and_valid(n, eps, delta):
    g, b, p = p1d_params(n, eps, delta)
    e = p1d_exact_epsilon(delta, m=b*n, p=p, g=g, tol=1e-7)
    assert e < p1d_epsilon(eps, g, Delta=1.0)                     # exact beats the lemma
    if b*n <= 4000:                                          # independent check with mpmath
        assert max(mp_hockey(b*n, p, g, e), mp_hockey(b*n, p, -g, e)) <= delta
        if e > 0: assert max(mp_hockey(b*n, p, g, e - 1e-5), mp_hockey(b*n, p, -g, e - 1e-5)) > delta
        else: assert max(mp_hockey(b*n, p, g, 0), mp_hockey(b*n, p, -g, 0)) <= delta   # already (0, delta)-DP
    else:
        assert p1d_exact_delta(e, m=b*n, p=p, g=g) <= delta < p1d_exact_delta(max(e - 1e-5, 0), m=b*n, p=p, g=g)

def test_worst_shift_is_g():
    "Monotone likelihood ratio: H(N || N+k) increases with |k| (each sign separately), so +-g is the worst case."
    for m, p, g, eps in [(200, 0.3, 4, 0.2), (100, 0.5, 3, 0.8), (300, 0.05, 4, 0.5)]:
        for s in (1, -1):
            v = [float(mp_hockey(m, p, s*k, eps)) for k in range(1, g + 1)]
            assert all(a <= b_ for a, b_ in zip(v, v[1:]))

def test_min_b_is_minimal():
    n, g, eps, delta = 9, 3, 1.0, 1e-4
    b = p1d_min_b(n, eps, delta, g=g)
    assert max(mp_hockey(b*n, 0.5, g, eps), mp_hockey(b*n, 0.5, -g, eps)) <= delta
    assert max(mp_hockey((b - 1)*n, 0.5, g, eps), mp_hockey((b - 1)*n, 0.5, -g, eps)) > delta
    gx, bx, px = p1d_exact_params(100, 1.2, 1e-6)
    assert gx == 10 and px == 0.5 and bx < p1d_params(100, 1.0, 1e-6)[1]/10

@given(st.integers(1, 3000), st.floats(0.01, 0.5), st.integers(1, 8), st.floats(0, 5))
@settings(max_examples=60, deadline=None)
def test_profile_properties(m, p, g, eps):
    prof = ShiftedBinomialProfile(m, p, shift=g)
    d1, d2 = prof.delta(eps), prof.delta(eps + 0.1)
    assert 0 <= d2 <= d1 <= 1 + 1e-12
    # more noise trials: no worse (post-processing). Below ~1e-100 the value is an upper bound dominated by the tail
    # mass added beyond 25 standard deviations, so monotonicity is only checked above that level.
    if d1 > 1e-100: assert d1 >= p1d_exact_delta(eps, m=m + 1, p=p, g=g)*(1 - 1e-9)

def test_bad_input():
    with pytest.raises(ValueError, match='m must be an integer'): ShiftedBinomialProfile(0, 0.3, shift=1)
    with pytest.raises(ValueError, match='p must be in'): ShiftedBinomialProfile(10, 1.0, shift=1)
    with pytest.raises(ValueError, match='shift must be an integer'): ShiftedBinomialProfile(10, 0.3, shift=-1)
    with pytest.raises(ValueError, match='epsilon must be in'): binomial_shift_log_delta(-0.1, m=10, p=0.3, k=1)
    with pytest.raises(ValueError, match='delta must be in'): p1d_exact_epsilon(0.0, m=10, p=0.3, g=1)
    with pytest.raises(ValueError, match='p must be in'): p1d_min_b(10, 1.0, 1e-6, g=3, p=0.7)
    with pytest.raises(ValueError, match='n must be an integer'): p1d_exact_params(0, 1.0, 1e-6)


def test_epsilon_below_the_infinite_loss_floor_is_inf():
    "Bin(100, 1/2) vs a shift by 10: outputs 0..9 have infinite loss, mass P[N < 10] ~ 1.5e-17; below it no finite eps exists."
    floor = float(stats.binom.cdf(9, 100, 0.5))
    assert p1d_exact_epsilon(1e-300, m=100, p=0.5, g=10) == math.inf
    assert p1d_exact_epsilon(floor / 2, m=100, p=0.5, g=10) == math.inf
    e = p1d_exact_epsilon(floor * 2, m=100, p=0.5, g=10)
    assert math.isfinite(e) and p1d_exact_delta(e, m=100, p=0.5, g=10) <= floor * 2

def test_epsilon_tol_clamped_to_float_resolution_negative_refused():
    "tol = 0 means: as tight as floats allow (clamped, never looped on); a negative tol is refused."
    e = p1d_exact_epsilon(1e-3, m=100, p=0.5, g=10, tol=0.0)
    assert e == pytest.approx(p1d_exact_epsilon(1e-3, m=100, p=0.5, g=10), abs=1e-8)
    with pytest.raises(ValueError, match='tol must be in'): p1d_exact_epsilon(1e-3, m=100, p=0.5, g=10, tol=-1.0)

def test_huge_m_switches_method_instead_of_exhausting_memory():
    "Contract item 4: the profile switches to two CDF values; the PLD, which needs the pmf, refuses and names the profile."
    from shuffle_privacy.core import ResourceLimitError
    from shuffle_privacy.mechanisms.summation.exact import p1d_pld
    d = p1d_exact_delta(1.0, m=10**15, p=0.5, g=10)
    assert 0.0 <= d <= 1e-300                     # shift 10 against sd 1.6e7: nothing to see (an upper bound)
    assert p1d_exact_delta(1.0, m=100, p=0.5, g=10**9) == 1.0   # a shift beyond the support: disjoint, delta = 1
    with pytest.raises(ResourceLimitError, match='instead'):
        p1d_pld(10**15, 0.5, g=10)


# --- the two-CDF route and the log pmf at large m (issue 14 item 5; found by the two routes disagreeing) ---------

def _mp_log_pmf(m, p, z):
    import mpmath as mp
    mp.mp.dps = 40
    return mp.log(mp.binomial(m, z)) + z*mp.log(mp.mpf(p)) + (m - z)*mp.log(1 - mp.mpf(p))

def _mp_log_cdf(m, p, z):
    "log P(N <= z) by summing pmf terms down from z (z well below the mean: they fall geometrically)."
    import mpmath as mp
    mp.mp.dps = 40
    p = mp.mpf(p); t = s = mp.mpf(1); j = z
    while j > 0:
        t *= mp.mpf(j)/(m - j + 1)*(1 - p)/p; j -= 1; s += t
        if t < s*mp.mpf(10)**-30: break
    return _mp_log_pmf(m, p, z) + mp.log(s)

@pytest.mark.parametrize('m,p,z', [(10**6, 0.5, 497_000), (10**9, 0.001, 994_000), (10**9, 0.5, 499_900_000)])
def test_window_log_pmf_is_within_its_error_bound(m, p, z):
    from shuffle_privacy.mechanisms.summation.exact import _binom_logpmf
    zs = np.array([z, z + 1, z + 1000])
    lp, err = _binom_logpmf(zs, m, p)
    for v, e, zz in zip(lp, err, zs):
        assert abs(float(v - _mp_log_pmf(m, p, int(zz)))) <= e

@pytest.mark.parametrize('m,p,z', [(10**6, 0.5, 497_000), (10**9, 0.001, 994_000), (10**7, 0.3, 2_985_000)])
def test_scipy_logcdf_within_the_assumed_error(m, p, z):
    from scipy import stats
    from shuffle_privacy.mechanisms.summation.exact import _CDF_ERR
    v = float(stats.binom.logcdf(z, m, p))
    assert abs(v - float(_mp_log_cdf(m, p, z))) <= _CDF_ERR*(1 + abs(v))/30   # 30x below the margin we assume

@pytest.mark.parametrize('m,p,k', [(10**5, 0.5, 30), (10**6, 0.3, 100), (4*10**6, 0.01, 20), (10**5, 0.001, 3), (300, 0.2, 5)])
def test_cdf_route_agrees_with_the_window_sum(m, p, k):
    from shuffle_privacy.mechanisms.summation.exact import ShiftedBinomialProfile
    w, c = ShiftedBinomialProfile(m, p, shift=k, method='window'), ShiftedBinomialProfile(m, p, shift=k, method='cdf')
    for e in (0.0, 0.05, 0.3, 1.0, 3.0):
        for s in (1, -1):
            a, b = w.log_delta(e, s), c.log_delta(e, s)
            if a < -250: continue          # the window adds its whole outside tail (~e^-312): an upper bound there
            assert b >= a - 1e-8 and b - a < 1e-6 * max(1.0, abs(a)), (e, s, a, b)   # cdf: an upper bound as tight

def test_p1d_exact_params_at_n_1e8_is_exact_at_the_boundary():
    from shuffle_privacy.mechanisms.summation.exact import p1d_exact_params, p1d_exact_delta
    g, b, p = p1d_exact_params(10**8, 1.0, 1e-6)
    assert p1d_exact_delta(1.0, m=b*10**8, p=p, g=g) <= 1e-6 < p1d_exact_delta(1.0, m=(b - 1)*10**8, p=p, g=g)
