"""Cross-checks of shuffle_privacy.conversions against dp_accounting, mpmath (50+ digits) and brute force;
hypothesis property tests; bad-input tests for every public function."""
import math, warnings
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, assume, strategies as st

from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant as rdp_acc
from dp_accounting.pld import privacy_loss_mechanism as plm

from shuffle_privacy.conversions import (OrderGridWarning, rdp_to_dp, mironov_rdp_to_dp, rdp_to_delta,
                                         gdp_delta, gdp_log_delta, gdp_epsilon, GDP_RTOL)

mp.mp.dps = 50
DEFAULT_ORDERS = np.array(rdp_acc.DEFAULT_RDP_ORDERS, dtype=float)
SIGMAS = [0.5, 0.8, 1.0, 2.0, 5.0, 10.0]
DELTAS = [1e-2, 1e-5, 1e-8, 1e-12]

def rel(a, b): return abs(a - b)/max(abs(b), 1e-300)

# ---------------------------------------------------------------- RDP -> (eps, delta) against dp_accounting

@pytest.mark.parametrize('sigma', SIGMAS)
@pytest.mark.parametrize('delta', DELTAS)
def test_gaussian_rdp_to_dp_matches_dp_accounting(sigma, delta):
    rdp = DEFAULT_ORDERS/(2*sigma**2)
    ref_eps, ref_order = rdp_acc.compute_epsilon(DEFAULT_ORDERS, rdp, delta)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', OrderGridWarning)
        eps, order = rdp_to_dp(DEFAULT_ORDERS, rdp, delta)
    assert rel(eps, ref_eps) <= 1e-10 or abs(eps - ref_eps) <= 1e-14
    assert order == ref_order

@pytest.mark.parametrize('sigma,k', [(1.0, 1), (4.0, 100), (20.0, 1000), (0.9, 7)])
@pytest.mark.parametrize('delta', [1e-5, 1e-9])
def test_composed_gaussian_matches_rdp_accountant(sigma, k, delta):
    acc = rdp_acc.RdpAccountant()     # default orders
    acc.compose(dp_event.GaussianDpEvent(sigma), k)
    ref_eps, ref_order = acc.get_epsilon_and_optimal_order(delta)
    eps, order = rdp_to_dp(DEFAULT_ORDERS, k*DEFAULT_ORDERS/(2*sigma**2), delta)
    assert rel(eps, ref_eps) <= 1e-10 and order == ref_order
    ref_d, ref_o = acc.get_delta_and_optimal_order(eps)
    d, o = rdp_to_delta(DEFAULT_ORDERS, k*DEFAULT_ORDERS/(2*sigma**2), eps)
    assert rel(d, ref_d) <= 1e-10 and o == ref_o
    assert d <= delta*(1 + 1e-10)

@pytest.mark.parametrize('sigma', SIGMAS)
@pytest.mark.parametrize('eps', [0.1, 1.0, 3.0, 10.0])
def test_gaussian_rdp_to_delta_matches_dp_accounting(sigma, eps):
    rdp = DEFAULT_ORDERS/(2*sigma**2)
    ref_d, ref_o = rdp_acc.compute_delta(DEFAULT_ORDERS, rdp, eps)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', OrderGridWarning)
        d, o = rdp_to_delta(DEFAULT_ORDERS, rdp, eps)
    assert rel(d, ref_d) <= 1e-10 and o == ref_o

def test_mironov_matches_closed_form_and_is_worse():
    # Gaussian, continuous optimum of rho*a + log(1/delta)/(a-1) at a = 1 + sqrt(2 sigma^2 log(1/delta))
    sigma, delta = 3.0, 1e-6
    grid = np.linspace(1.001, 400, 400_000)
    eps, a = mironov_rdp_to_dp(grid, grid/(2*sigma**2), delta)
    L = math.log(1/delta)
    exact = 1/(2*sigma**2) + math.sqrt(2*L)/sigma
    assert abs(eps - exact) <= 1e-8 and abs(a - (1 + sigma*math.sqrt(2*L))) < 2e-3
    assert rdp_to_dp(grid, grid/(2*sigma**2), delta)[0] < eps

def test_edge_warning_and_extremes():
    with pytest.warns(OrderGridWarning):
        rdp_to_dp([2., 3., 4.], [0.5, 0.75, 1.0], 1e-5)
    with pytest.warns(OrderGridWarning):
        rdp_to_dp([2., 3., 4.], [100., 10., 9.], 1e-5)   # decreasing: the last order wins
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        rdp_to_dp([10., 20., 30.], [0.5, 0.5, 5.0], 1e-5)   # interior optimum: no warning
        rdp_to_dp([2.], [1.0], 1e-5)                            # a single order: no warning
    for o in ([1.0 + 1e-12, 2.0, 1e6], [1e6], np.geomspace(1.0001, 1e6, 50)):
        for r in (1e-300, 1.0, 1e6):
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', OrderGridWarning)
                eps, a = rdp_to_dp(o, np.full(len(o), r), 1e-10)
                d, _ = rdp_to_delta(o, np.full(len(o), r), 1.0)
            assert math.isfinite(eps) and eps >= 0 and 0 <= d <= 1
    # infinite rdp at some orders is allowed (no guarantee there) and never chosen
    assert rdp_to_dp([2., 3., 4.], [np.inf, 0.5, np.inf], 1e-5)[1] == 3.0
    assert rdp_to_dp([2.], [np.inf], 1e-5)[0] == math.inf

@settings(max_examples=200, deadline=None)
@given(st.floats(0.05, 50), st.floats(1e-15, 0.5), st.floats(1e-15, 0.5))
def test_rdp_conversion_properties(sigma, d1, d2):
    grid = np.geomspace(1.01, 5000, 300)
    rdp = grid/(2*sigma**2)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', OrderGridWarning)
        e1, e2 = rdp_to_dp(grid, rdp, d1)[0], rdp_to_dp(grid, rdp, d2)[0]
        if d1 < d2: assert e1 >= e2            # eps is non-increasing in delta
        assert e1 <= mironov_rdp_to_dp(grid, rdp, d1)[0]   # improved never worse than Mironov
        # more divergence, larger eps
        assert rdp_to_dp(grid, 1.5*rdp, d1)[0] >= e1
        # delta from eps inverts eps from delta (up to rounding), conservatively
        if e1 > 0:
            d, _ = rdp_to_delta(grid, rdp, e1)
            assert d <= d1*(1 + 1e-9)

# ---------------------------------------------------------------- Gaussian DP

def mp_gdp_delta(mu, eps, dps=400):
    "delta(eps) of mu-GDP with enough working digits to survive the cancellation."
    with mp.workdps(dps):
        mu, eps = mp.mpf(mu), mp.mpf(eps)
        return +(mp.ncdf(-eps/mu + mu/2) - mp.exp(eps)*mp.ncdf(-eps/mu - mu/2))

MUS = [1e-6, 1e-3, 0.01, 0.1, 0.3, 1.0, 2.0, 5.0, 20.0, 100.0]
EPSS = [0.0, 1e-9, 1e-4, 0.05, 0.5, 1.0, 3.0, 10.0, 40.0, 300.0]

@pytest.mark.parametrize('mu', MUS)
def test_gdp_log_delta_matches_mpmath(mu):
    got = gdp_log_delta(mu, np.array(EPSS))
    for eps, g in zip(EPSS, got):
        ref = mp_gdp_delta(mu, eps)
        lref = float(mp.log(ref))
        if lref > -745:   # delta representable: relative accuracy of delta itself
            assert 0 <= g - lref <= 2*GDP_RTOL, (mu, eps, g, lref)
            assert gdp_delta(mu, eps) >= float(ref)   # rounded up
        else:             # below the float range: relative accuracy of log delta
            assert abs(g - lref) <= 1e-14*abs(lref), (mu, eps, g, lref)

@pytest.mark.parametrize('mu,eps', [(0.05, 0.3), (0.01, 0.05), (1e-4, 1e-3), (0.2, 2.0), (1e-8, 1e-7)])
def test_gdp_delta_extreme_tail_cancellation(mu, eps):
    # mu^2 << eps: the two terms of Cor. 2.13 agree to many digits; naive float evaluation loses them all
    ref = mp_gdp_delta(mu, eps)
    assert rel(gdp_log_delta(mu, eps), float(mp.log(ref))) <= 1e-13 or \
        abs(gdp_log_delta(mu, eps) - float(mp.log(ref))) <= 2*GDP_RTOL

@pytest.mark.parametrize('mu', [0.1, 0.5, 1.0, 2.0, 4.0, 8.0])
@pytest.mark.parametrize('eps', [0.0, 0.1, 0.5, 1.0, 2.0, 5.0])
def test_gdp_delta_matches_dp_accounting_analytic_gaussian(mu, eps):
    ref = plm.GaussianPrivacyLoss(1/mu, sensitivity=1.0).get_delta_for_epsilon(eps)
    if ref < 1e-300: return
    assert rel(gdp_delta(mu, eps), ref) <= 1e-10

@pytest.mark.parametrize('mu', [0.1, 0.5, 1.0, 2.0, 4.0])
@pytest.mark.parametrize('delta', [1e-3, 1e-6, 1e-10])
def test_gdp_epsilon_matches_dp_accounting_analytic_gaussian(mu, delta):
    g = plm.GaussianPrivacyLoss(1/mu, sensitivity=1.0)
    # bisection on dp_accounting's delta(eps), independent of our code
    lo, hi = 0.0, mu*(10 + mu)
    if g.get_delta_for_epsilon(0.0) <= delta: ref = 0.0
    else:
        for _ in range(200):
            mid = (lo + hi)/2
            lo, hi = (mid, hi) if g.get_delta_for_epsilon(mid) > delta else (lo, mid)
        ref = hi
    eps = gdp_epsilon(mu, delta)
    assert rel(eps, ref) <= 1e-9
    assert gdp_delta(mu, eps) <= delta

def test_gdp_extremes_finite():
    for mu in (1e-300, 1e-8, 1.0, 1e8, 1e150, 1e300):
        for eps in (0.0, 1e-300, 1.0, 1e8, 1e300):
            d, ld = gdp_delta(mu, eps), gdp_log_delta(mu, eps)
            assert 0 <= d <= 1 and not math.isnan(ld) and ld <= 0
    assert gdp_delta(1e6, 0.0) == 1.0 and gdp_delta(1e-6, 1.0) == 0.0
    for mu in (1e-8, 1e-3, 1.0, 1e3, 1e6):
        for delta in (1e-300, 1e-12, 0.5, 1 - 1e-12):
            e = gdp_epsilon(mu, delta)
            assert math.isfinite(e) and e >= 0 and gdp_delta(mu, e) <= delta
    # epsilon approx mu^2/2 for huge mu (beyond the float range only when mu^2/2 overflows)
    assert gdp_epsilon(1e200, 0.5) == math.inf

@settings(max_examples=150, deadline=None)
@given(st.floats(1e-3, 30), st.floats(0, 60), st.floats(0, 60))
def test_gdp_delta_decreasing_in_eps(mu, e1, e2):
    assume(e1 < e2)
    assert gdp_log_delta(mu, e1) >= gdp_log_delta(mu, e2) - 2*GDP_RTOL

@settings(max_examples=150, deadline=None)
@given(st.floats(1e-3, 30), st.floats(1e-3, 30), st.floats(0, 60))
def test_gdp_delta_increasing_in_mu(m1, m2, eps):
    assume(m1 < m2)
    assert gdp_log_delta(m1, eps) <= gdp_log_delta(m2, eps) + 2*GDP_RTOL

@settings(max_examples=80, deadline=None)
@given(st.floats(1e-3, 30), st.floats(1e-14, 0.9), st.floats(1e-14, 0.9))
def test_gdp_epsilon_properties(mu, d1, d2):
    e1 = gdp_epsilon(mu, d1)
    assert gdp_delta(mu, e1) <= d1                      # certified
    if e1 > 0: assert gdp_delta(mu, e1*(1 - 1e-9) - 1e-300) > d1*(1 - 1e-9)   # and nearly tight
    if d1 < d2: assert e1 >= gdp_epsilon(mu, d2)        # eps decreasing in delta

# ---------------------------------------------------------------- bad input

BAD_DELTA = [0.0, 1.0, -0.1, 1.5, float('nan'), 'x', None]

@pytest.mark.parametrize('delta', BAD_DELTA)
def test_bad_delta(delta):
    with pytest.raises(ValueError, match='delta'): rdp_to_dp([2.], [0.1], delta)
    with pytest.raises(ValueError, match='delta'): mironov_rdp_to_dp([2.], [0.1], delta)
    with pytest.raises(ValueError, match='delta'): gdp_epsilon(1.0, delta)

@pytest.mark.parametrize('mu', [0.0, -1.0, float('inf'), float('nan'), 'a'])
def test_bad_mu(mu):
    with pytest.raises(ValueError, match='mu'): gdp_delta(mu, 1.0)
    with pytest.raises(ValueError, match='mu'): gdp_log_delta(mu, 1.0)
    with pytest.raises(ValueError, match='mu'): gdp_epsilon(mu, 1e-5)
    with pytest.raises(ValueError, match='mu'): gdp_delta([1.0, mu], 1.0)

@pytest.mark.parametrize('f', [rdp_to_dp, mironov_rdp_to_dp, rdp_to_delta])
def test_bad_orders_and_rdp(f):
    arg = 1e-5 if f is not rdp_to_delta else 1.0
    for orders in ([1.0, 2.0], [0.5], [2.0, float('nan')], [], [[2.0, 3.0]], 'abc', [2.0, float('inf')]):
        with pytest.raises(ValueError, match='orders'): f(orders, [0.1]*max(1, len(orders) if not isinstance(orders, str) else 1), arg)
    with pytest.raises(ValueError, match='mismatched lengths'): f([2.0, 3.0], [0.1], arg)
    for rdp in ([-0.1], [float('nan')], ['a']):
        with pytest.raises(ValueError, match='rdp'): f([2.0], rdp, arg)

def test_bad_eps():
    with pytest.raises(ValueError, match='eps'): rdp_to_delta([2.0], [0.1], -1.0)
    with pytest.raises(ValueError, match='eps'): gdp_delta(1.0, -0.5)
    with pytest.raises(ValueError, match='eps'): gdp_delta(1.0, [0.5, float('nan')])
