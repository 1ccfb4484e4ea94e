"""Issue 12 property tests for accounting.conversions: δ(ε) non-increasing, ε(δ) and δ(ε) inverse, composition monotone."""
import math, warnings
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from shuffle_privacy.accounting.conversions import (rdp_to_dp, rdp_to_delta, OrderGridWarning, gdp_delta, gdp_epsilon,
                                                    optimal_composition_delta, advanced_composition, basic_composition)

sig = st.floats(0.3, 30.0)
eps_s = st.floats(0.0, 50.0)
ORD = np.array([1.25, 1.5, 2, 3, 4, 8, 16, 32, 64, 128, 256], float)

@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', OrderGridWarning)
        yield

@settings(max_examples=60, deadline=None)
@given(sig, eps_s, eps_s)
def test_rdp_to_delta_non_increasing_in_eps(s, e1, e2):
    r = ORD/(2*s*s)
    lo, hi = sorted((e1, e2))
    assert rdp_to_delta(ORD, r, hi)[0] <= rdp_to_delta(ORD, r, lo)[0]

@settings(max_examples=60, deadline=None)
@given(sig, st.floats(-300, -0.01))
def test_rdp_to_dp_and_rdp_to_delta_invert(s, logd):
    "ε = rdp_to_dp(δ) gives rdp_to_delta(ε) <= δ (rounded conservatively), and a slightly smaller ε gives more."
    r, d = ORD/(2*s*s), 10**logd
    e, _ = rdp_to_dp(ORD, r, d)
    assert rdp_to_delta(ORD, r, e)[0] <= d*(1 + 1e-9)
    if e > 1e-6: assert rdp_to_delta(ORD, r, e*(1 - 1e-6) - 1e-9)[0] >= d*(1 - 1e-6)

@settings(max_examples=60, deadline=None)
@given(st.floats(1e-3, 1e2), st.floats(-300, -0.01))
def test_gdp_epsilon_inverts_gdp_delta(mu, logd):
    d = 10**logd
    e = gdp_epsilon(mu, d)
    assert gdp_delta(mu, e) <= d
    if e > 0: assert gdp_delta(mu, e*(1 - 1e-9)) >= d*(1 - 1e-6)

@settings(max_examples=40, deadline=None)
@given(st.floats(1e-4, 2.0), st.floats(0.0, 1e-3), st.integers(1, 5000), st.integers(1, 5000), st.floats(0.0, 20.0))
def test_composition_monotone_in_count(e, d, k1, k2, eg):
    lo, hi = sorted((k1, k2))
    assert optimal_composition_delta(e, d, count=lo, epsilon_total=eg) <= optimal_composition_delta(e, d, count=hi, epsilon_total=eg)
    assert advanced_composition(e, d, count=lo, delta_prime=1e-6)[0] <= advanced_composition(e, d, count=hi, delta_prime=1e-6)[0]
    assert basic_composition(e, d, lo)[0] <= basic_composition(e, d, hi)[0]
