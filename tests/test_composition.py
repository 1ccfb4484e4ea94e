"""Checks of shuffle_privacy.mechanisms.iteration.multi_epoch against independent references: brute-force enumeration of the E-fold
canonical (eps, delta) pair in mpmath at 50 digits, the Kairouz-Oh-Viswanath formula in mpmath, dp_accounting's
PLD, the definition of the Renyi divergence; validity and ordering of the routes; monotonicity; bad inputs."""
import itertools, math
import numpy as np
import pytest
import mpmath as mp
from hypothesis import given, settings, strategies as st

import warnings
from shuffle_privacy.mechanisms.iteration.multi_epoch import (exact_epsilon, pld_epsilon, rdp_epsilon,
                                                              paper_rdp_epsilon, advanced_epsilon,
                                         compare_routes)
from shuffle_privacy.accounting.conversions import dp_tradeoff, composed_dp_tradeoff
from shuffle_privacy.accounting.conversions import optimal_composition_delta, pure_dp_to_rdp, UnsoundConversionWarning

# the exact reference the routes are compared with is 01_conversions' KOV implementation; it is cross-checked here
# against a brute-force enumeration of the product pair (independent of the binomial formula) and mpmath KOV
def exact_delta(eps, delta, E, eps_total): return optimal_composition_delta(eps, delta, count=E,
                                                                            epsilon_total=eps_total)
def exact_log_delta(eps, delta, E, eps_total): return math.log(optimal_composition_delta(eps, delta, count=E,
                                                                                         epsilon_total=eps_total))

mp.mp.dps = 50


def brute_delta(eps, delta, E, eps_total):
    "sum over all 4^E outcomes of (P - e^eps' Q)_+ for the product of the canonical 4-point pair, in mpmath."
    eps, delta, g = mp.mpf(eps), mp.mpf(delta), mp.exp(mp.mpf(eps_total))
    p = mp.exp(eps) / (1 + mp.exp(eps))
    P = [delta, (1 - delta) * p, (1 - delta) * (1 - p), mp.mpf(0)]
    Q = [mp.mpf(0), (1 - delta) * (1 - p), (1 - delta) * p, delta]
    tot = mp.mpf(0)
    for w in itertools.product(range(4), repeat=E):
        pw, qw = mp.fprod(P[i] for i in w), mp.fprod(Q[i] for i in w)
        tot += max(pw - g * qw, 0)
    return tot


@pytest.mark.parametrize('eps, delta, E', [(0.3, 1e-3, 1), (0.7, 1e-2, 3), (1.3, 1e-6, 5), (0.05, 0.1, 6), (2.0, 0.0, 4)])
def test_exact_delta_matches_brute_force(eps, delta, E):
    for et in np.linspace(0, E * eps + 0.5, 13):
        ref = brute_delta(eps, delta, E, et)
        got = exact_delta(eps, delta, E, et)
        assert abs(got - float(ref)) <= 1e-13 * float(ref) + 1e-300, (et, got, ref)


def kov_delta_i(eps, delta, E, i):
    "Kairouz-Oh-Viswanath Thm 3.3: delta at eps' = (E - 2i) eps, in mpmath."
    eps = mp.mpf(eps)
    di = mp.fsum(mp.binomial(E, l) * (mp.exp((E - l) * eps) - mp.exp((E - 2 * i + l) * eps)) for l in range(i))
    di /= (1 + mp.exp(eps)) ** E
    return 1 - (1 - mp.mpf(delta)) ** E * (1 - di)


@pytest.mark.parametrize('eps, delta, E', [(0.1, 1e-8, 50), (0.5, 1e-10, 200), (1.0, 1e-200, 30), (0.01, 1e-12, 1000)])
def test_exact_delta_matches_kov(eps, delta, E):
    for i in range(0, E // 2 + 1, max(1, E // 20)):
        ref = kov_delta_i(eps, delta, E, i)
        got = exact_log_delta(eps, delta, E, (E - 2 * i) * eps)
        assert abs(got - float(mp.log(ref))) <= 1e-11 * max(1, abs(float(mp.log(ref)))), (i, got, ref)


def test_exact_epsilon_inverts_and_is_rounded_up():
    for eps, delta, E, dt in [(0.5, 1e-8, 10, 1e-5), (0.1, 1e-9, 300, 1e-6), (1.0, 0.0, 20, 1e-3), (0.2, 1e-7, 3, 1e-4)]:
        x = exact_epsilon(eps, delta, count=E, delta_total=dt)
        assert 0 <= x <= E * eps
        # mpmath evaluation of the profile at x (binomial formula written independently)
        p = mp.exp(mp.mpf(eps)) / (1 + mp.exp(mp.mpf(eps)))
        def prof(xx):
            s = mp.fsum(mp.binomial(E,
                                    k) * p**k * (1 - p)**(E - k) * (1 - mp.exp(mp.mpf(xx) - (2 * k - E) * mp.mpf(eps)))
                        for k in range(E + 1) if (2 * k - E) * eps > xx)
            return 1 - (1 - mp.mpf(delta))**E + (1 - mp.mpf(delta))**E * s
        assert prof(x) <= dt * (1 + 1e-12)
        assert prof(x - 1e-8 * max(1, x)) > dt


@pytest.mark.parametrize('eps, delta, E', [(0.3, 1e-3, 1), (0.7, 1e-2, 3), (1.3, 1e-6, 4), (0.05, 0.1, 5)])
def test_composed_tradeoff_dual_to_brute_force_profile(eps, delta, E):
    "The trade-off curve used in 17_multi_epoch (01_conversions' composed_dp_tradeoff) is dual to the brute-force profile."
    a = np.linspace(0, 1, 400001)
    f = composed_dp_tradeoff(eps, delta, count=E, alpha=a)
    for et in np.linspace(0, E * eps + 0.3, 7):
        ref = float(brute_delta(eps, delta, E, et))
        d = np.max(1 - f - math.exp(et) * a)         # sup over a grid: below the exact value by <= step * e^et
        assert -1e-13 <= ref - d <= 2.5e-6 * math.exp(et) + 1e-13


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 3), st.floats(0, 0.3), st.integers(1, 100))
def test_composed_tradeoff_is_a_tradeoff_function(eps, delta, E):
    a = np.linspace(0, 1, 201)
    f = composed_dp_tradeoff(eps, delta, count=E, alpha=a)
    assert np.all(f <= 1 - a + 1e-12) and np.all(f >= -1e-15)                 # below perfect privacy
    assert np.all(np.diff(f) <= 1e-12)                                         # non-increasing
    assert np.all(np.diff(f, 2) >= -1e-9)                                      # convex (on the grid)
    assert abs(f[0] - (1 - delta) ** E) <= 1e-12                               # f(0) = P(no epoch hits the delta event)
    if E == 1: np.testing.assert_allclose(f, dp_tradeoff(eps, delta, a), atol=1e-14)


def test_paper_route_warns():
    with pytest.warns(UnsoundConversionWarning): paper_rdp_epsilon(0.5, 1e-8, count=10, delta_total=1e-5)


def test_exact_epsilon_edge_cases():
    assert exact_epsilon(0.5, 1e-6, count=10, delta_total=9e-6) == math.inf            # below 1-(1-delta)^E
    assert exact_epsilon(0.5, 1e-6, count=1,
                         delta_total=0.5) == 0.0                   # delta' so large that eps' = 0 works
    assert exact_epsilon(0.0, 0.0, count=100, delta_total=1e-10) == 0.0


@pytest.mark.parametrize('eps, delta, E, dt', [(0.37, 1e-8, 7, 1e-5), (0.5, 1e-8, 40, 1e-5), (0.13, 1e-9, 100, 1e-6),
                                               (1.0, 1e-7, 3, 1e-6)])
def test_pld_agrees_with_exact(eps, delta, E, dt):
    "dp_accounting's FFT-based PLD is pessimistic (up to its search tolerance) and close to the exact value."
    ex, pl = exact_epsilon(eps, delta, count=E, delta_total=dt), pld_epsilon(eps, delta, count=E, delta_total=dt,
                                                                             discretization=1e-4)
    assert pl >= ex - 1e-6
    assert pl - ex <= 1e-4 * E + 1e-6


def test_rdp_route_matches_independent_rdp_computation():
    "rdp_epsilon equals an mpmath computation: E * D_alpha(RR) at each order, improved conversion, minimised over orders."
    eps, delta, E, dt = 0.3, 1e-8, 40, 1e-5
    orders = np.array([1.5, 2, 3, 5, 8, 12, 20, 32, 50, 80])
    d_rr = (mp.mpf(dt) - (1 - (1 - mp.mpf(delta)) ** E)) / (1 - mp.mpf(delta)) ** E
    best = mp.inf
    for a in orders:
        a_, e = mp.mpf(a), mp.mpf(eps)
        p = mp.exp(e) / (1 + mp.exp(e))
        rho = E * mp.log(p**a_ * (1 - p)**(1 - a_) + (1 - p)**a_ * p**(1 - a_)) / (a_ - 1)
        best = min(best, rho + mp.log1p(-1 / a_) - (mp.log(d_rr) + mp.log(a_)) / (a_ - 1))   # Balle et al. 2020
    got = rdp_epsilon(eps, delta, count=E, delta_total=dt, orders=orders)
    assert abs(got - min(float(best), E * eps)) <= 1e-10


@pytest.mark.parametrize('eps, delta', [(0.5, 1e-8), (0.1, 1e-8), (1.0, 1e-10), (0.05, 0.0)])
@pytest.mark.filterwarnings('ignore::shuffle_privacy.accounting.conversions.UnsoundConversionWarning')
def test_route_ordering(eps, delta):
    "Every valid route is >= the exact optimum; the paper's RDP route is below it (so it is not a valid bound)."
    Es = [1, 2, 5, 20, 80]
    c = compare_routes(eps, delta, counts=Es, delta_total=1e-5, pld=False) if delta > 0 else None
    for E in Es:
        ex = exact_epsilon(eps, delta, count=E, delta_total=1e-5)
        r = rdp_epsilon(eps, delta, count=E, delta_total=1e-5)
        assert r >= ex - 1e-9
        assert exact_delta(eps, delta, E, r) <= 1e-5 * (1 + 1e-9)        # the RDP route's eps' really holds
        adv = advanced_epsilon(eps, delta, count=E, delta_total=1e-5)
        assert adv >= ex - 1e-9 and exact_delta(eps, delta, E, adv) <= 1e-5 * (1 + 1e-9)
        assert adv <= E * eps + 1e-12
    if c is not None:
        assert np.all(c['paper_rdp'][1:] < c['exact'][1:])
        # a concrete violation: the exact profile at the paper's eps' is far above the claimed delta'
        assert exact_delta(eps, delta, 20, c['paper_rdp'][3]) > 100 * 1e-5


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 2), st.floats(1e-12, 1e-7), st.integers(1, 60), st.floats(2e-5, 1e-2))
def test_exact_epsilon_monotone(eps, delta, E, dt):
    x = exact_epsilon(eps, delta, count=E, delta_total=dt)
    assert exact_epsilon(eps, delta, count=E + 1, delta_total=dt) >= x - 1e-12            # more epochs: no less loss
    assert exact_epsilon(eps * 1.1, delta, count=E, delta_total=dt) >= x - 1e-12           # larger one-epoch eps
    assert exact_epsilon(eps, delta * 1.5, count=E, delta_total=dt) >= x - 1e-12           # larger one-epoch delta
    assert exact_epsilon(eps, delta, count=E,
                         delta_total=dt * 2) <= x + 1e-12             # larger total delta: smaller eps'
    assert exact_epsilon(eps, delta, count=E,
                         delta_total=dt) <= E * eps + 1e-12           # never worse than basic composition


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 2), st.floats(0, 1e-3), st.integers(1, 200), st.floats(0, 50), st.floats(0, 5))
def test_profile_decreasing_and_bounded(eps, delta, E, x, dx):
    a, b = exact_delta(eps, delta, E, x), exact_delta(eps, delta, E, x + dx)
    assert b <= a * (1 + 1e-12) and a <= 1.0
    if delta > 0: assert b >= -math.expm1(E * math.log1p(-delta)) * (1 - 1e-12)   # never below the floor


@pytest.mark.parametrize('call, msg', [
    (lambda: exact_epsilon(-0.1, 1e-6, count=2, delta_total=1e-5), 'epsilon must be in [0, inf)'),
    (lambda: exact_epsilon(0.1, 1.0, count=2, delta_total=1e-5), 'delta must be in [0, 1)'),
    (lambda: exact_epsilon(0.1, 1e-6, count=0, delta_total=1e-5), 'count must be an integer in [1, inf)'),
    (lambda: exact_epsilon(0.1, 1e-6, count=2.5, delta_total=1e-5), 'count must be an integer'),
    (lambda: pld_epsilon(0.1, 1e-6, count=0, delta_total=1e-5), 'count must be an integer in [1, inf)'),
    (lambda: exact_epsilon(0.1, 1e-6, count=2, delta_total=0.0), 'delta_total must be in (0, 1)'),
    (lambda: exact_epsilon(0.1, 1e-6, count=2, delta_total=1.0), 'delta_total must be in (0, 1)'),
    (lambda: pld_epsilon(0.1, 1e-6, count=2, delta_total=1e-5, discretization=0), 'discretization must be in (0, inf)'),
    (lambda: rdp_epsilon(0.1, 1e-6, count=2, delta_total=1e-5, orders=[0.5, 2]), 'orders must lie in (1, inf)'),
    (lambda: rdp_epsilon(0.1, -1e-6, count=2, delta_total=1e-5), 'delta must be in [0, 1)'),
    (lambda: advanced_epsilon(0.1, 1e-6, count=2, delta_total=2.0), 'delta_total must be in (0, 1)'),
    (lambda: paper_rdp_epsilon(0.0, 1e-6, count=2, delta_total=1e-5), 'epsilon must be in (0, inf)'),
    (lambda: paper_rdp_epsilon(0.1, 0.0, count=2, delta_total=1e-5), 'delta must be in (0, 1)'),
    (lambda: paper_rdp_epsilon(0.1, 1e-6, count=2, delta_total=1e-5, orders=[1.01]),
     'no order gives a non-negative RDP value'),
    (lambda: compare_routes(0.1, 1e-6, counts=[0, 2], delta_total=1e-5), 'counts must lie in [1, inf)'),
])
@pytest.mark.filterwarnings('ignore::shuffle_privacy.accounting.conversions.UnsoundConversionWarning')
def test_bad_inputs(call, msg):
    with pytest.raises(ValueError) as e: call()
    assert msg in str(e.value), str(e.value)
