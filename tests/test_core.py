"Cross-checks of shuffle_privacy.core against mpmath at 50 digits, property tests and bad-input tests."
import math
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shuffle_privacy.core import (check_array, check_int, check_positive, check_probability, check_real,
                                  check_same_length, log1mexp, log_norm_cdf, log_norm_sf, log_norm_sf_diff,
                                  logdiffexp, logsumexp, norm_cdf, norm_sf)

mp.mp.dps = 50

def mp_Q(x): return mp.erfc(mp.mpf(x)/mp.sqrt(2))/2

XS = np.concatenate([np.linspace(-40, 40, 801), [-37.5, -8.3, -1e-8, 0.0, 1e-8, 5.5, 8.3, 26.1, 39.999]])

def test_norm_sf_matches_mpmath_to_1e12_relative():
    got = norm_sf(XS)
    for x, g in zip(XS, got):
        ref = mp_Q(x)
        if ref < mp.mpf('1e-307'): continue  # below the normal float range; log_norm_sf covers it
        assert abs(g - float(ref)) <= 1e-12*float(ref), (x, g, ref)

def test_log_norm_sf_matches_mpmath_to_1e12_relative():
    got = log_norm_sf(XS)
    for x, g in zip(XS, got):
        ref = mp.log(mp_Q(x))
        # relative accuracy of Q itself: |log Q - ref| <= 1e-12 means Q is accurate to 1e-12 relative
        assert abs(g - float(ref)) <= 1e-12*max(1.0, abs(float(ref))) , (x, g, ref)
        assert abs(g - float(ref)) <= 1e-12 or abs(x) > 1, (x, g, ref)

def test_cdf_is_reflected_tail():
    np.testing.assert_allclose(norm_cdf(XS), norm_sf(-XS), rtol=0)
    np.testing.assert_allclose(log_norm_cdf(XS), log_norm_sf(-XS), rtol=0)

@pytest.mark.parametrize('x', [-1e-300, -1e-20, -1e-8, -0.3, -math.log(2), -0.7, -5., -50., -700., -1e4])
def test_log1mexp_matches_mpmath(x):
    ref = mp.log(1 - mp.exp(mp.mpf(x)))
    assert abs(log1mexp(x) - float(ref)) <= 1e-14*max(1, abs(float(ref))) + 1e-300

@given(st.floats(-700, 700), st.floats(0, 800))
@settings(max_examples=200, deadline=None)
def test_logdiffexp_matches_mpmath(a, gap):
    b = a - gap
    got = logdiffexp(a, b)
    if b == a: assert got == -math.inf; return
    ref = mp.mpf(a) + mp.log(-mp.expm1(mp.mpf(b) - mp.mpf(a)))  # no cancellation in the reference itself
    assert abs(got - float(ref)) <= 1e-13*max(1, abs(float(ref))) + 1e-13

@given(st.lists(st.floats(-1e4, 1e4), min_size=1, max_size=30))
@settings(max_examples=200, deadline=None)
def test_logsumexp_matches_mpmath(xs):
    ref = mp.log(mp.fsum(mp.exp(mp.mpf(x)) for x in xs))
    assert abs(logsumexp(xs) - float(ref)) <= 1e-12*max(1, abs(float(ref)))

def test_logdiffexp_subnormal_gap():
    ref = mp.log(-mp.expm1(mp.mpf(-2.2e-311)))
    assert abs(logdiffexp(0., -2.2e-311) - float(ref)) <= 1e-12*abs(float(ref))

def test_logsumexp_edge_cases():
    assert logsumexp([-np.inf]) == -np.inf
    assert logsumexp([np.inf, 0.]) == np.inf
    np.testing.assert_allclose(logsumexp(np.zeros((3, 4)), axis=0), np.full(4, math.log(3)))
    with pytest.raises(ValueError, match='b must be non-negative'): logsumexp([0., 1.], b=[1., -1.])

@pytest.mark.parametrize('a,b,c', [(1., 2., 1.), (10., 10.5, 0.2), (0.5, 35., 5.), (20., 30., 40.)])
def test_log_norm_sf_diff_matches_mpmath(a, b, c):
    ref = mp.log(mp_Q(a) - mp.exp(c)*mp_Q(b))
    assert abs(log_norm_sf_diff(a, b, c) - float(ref)) <= 1e-11*max(1, abs(float(ref)))

def test_log_norm_sf_diff_rejects_negative_difference():
    with pytest.raises(ValueError, match='Q\\(a\\) >= exp\\(c\\) Q\\(b\\)'): log_norm_sf_diff(2., 1.)

# ---- bad input ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize('bad', [0, -1, float('nan'), float('inf'), 'x', None, True])
def test_check_positive_rejects(bad):
    with pytest.raises(ValueError, match='sigma'): check_positive('sigma', bad)

@pytest.mark.parametrize('bad', [0, 1, -0.5, 2, float('nan')])
def test_check_probability_rejects(bad):
    with pytest.raises(ValueError, match=r'delta must .*\(0, 1\)'): check_probability('delta', bad)

@pytest.mark.parametrize('bad', [0, 2.5, float('inf'), '3', False])
def test_check_int_rejects(bad):
    with pytest.raises(ValueError, match=r'n must be an integer in \[1, inf\)'): check_int('n', bad, lo=1)

def test_check_real_accepts_infinite_endpoint_only_when_allowed():
    assert check_real('eps', math.inf, lo=0, hi=math.inf, allow_inf=True) == math.inf
    with pytest.raises(ValueError, match='eps'): check_real('eps', math.inf, lo=0, hi=math.inf)
    with pytest.raises(ValueError, match='eps'): check_real('eps', math.inf, lo=0, hi=10, allow_inf=True)

def test_check_array_and_lengths():
    with pytest.raises(ValueError, match='orders must have 1 dimension'): check_array('orders', [[2]], ndim=1)
    with pytest.raises(ValueError, match='orders must contain only finite'): check_array('orders', [2, np.nan])
    with pytest.raises(ValueError, match='mismatched lengths'): check_same_length(a=[1, 2], b=[1, 2, 3])

def test_log1mexp_rejects_positive():
    with pytest.raises(ValueError, match='x must be <= 0'): log1mexp(1e-3)

@given(st.floats(1e-300, 700))
@settings(max_examples=200, deadline=None)
def test_log_expm1_matches_mpmath(x):
    from shuffle_privacy.core import log_expm1
    ref = mp.log(mp.expm1(mp.mpf(x)))
    assert abs(log_expm1(x) - float(ref)) <= 1e-14*max(1, abs(float(ref)))

def test_log_expm1_bad_input_and_edges():
    from shuffle_privacy.core import log_expm1
    assert log_expm1(1e6) == 1e6
    with pytest.raises(ValueError, match='x must be >= 0'): log_expm1(-1e-3)

def test_check_array_rejects_an_int_beyond_the_float_range_with_value_error():
    from shuffle_privacy.core import check_array
    with pytest.raises(ValueError, match='orders must be an array of real numbers'):
        check_array('orders', [2.0, 10**400], lo=1)
