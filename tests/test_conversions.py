"""Cross-checks of shuffle_privacy.accounting.conversions against dp_accounting, mpmath (50+ digits) and brute force;
hypothesis property tests; bad-input tests for every public function."""
import math, warnings
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, assume, strategies as st

from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant as rdp_acc
from dp_accounting.pld import privacy_loss_mechanism as plm

import itertools
from shuffle_privacy.accounting.conversions import (OrderGridWarning, UnsoundConversionWarning, rdp_to_dp,
                                                    mironov_rdp_to_dp,
                                         rdp_to_delta, gdp_delta, gdp_log_delta, gdp_epsilon, GDP_RTOL, gdp_compose,
                                         dp_tradeoff, gdp_tradeoff, pure_dp_to_rdp, paper001_dp_to_rdp,
                                         basic_composition, advanced_composition, heterogeneous_advanced_composition,
                                         cjmp_composition, optimal_composition_delta, optimal_composition_epsilon,
                                         composed_dp_tradeoff)

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

@pytest.mark.parametrize('mu', [30.0, 1e4, 1e8, 1e15])
@pytest.mark.parametrize('t', [-2.0, 0.0, 3.0, 20.0])
def test_gdp_delta_huge_mu_and_eps(mu, t):
    # eps = mu^2/2 + t mu puts a = eps/mu - mu/2 = t at order one while eps is astronomically large:
    # eps + log Q(b) would cancel two numbers of size mu^2/2
    eps = mu*mu/2 + t*mu
    with mp.workdps(120):
        m, e = mp.mpf(mu), mp.mpf(eps)
        ref = mp.ncdf(-e/m + m/2) - mp.exp(e)*mp.ncdf(-e/m - m/2)
    got = gdp_delta(mu, eps)
    assert float(ref) <= got <= float(ref)*(1 + 3*GDP_RTOL), (got, ref)

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

# ---------------------------------------------------------------- GDP composition and trade-off functions

def test_gdp_compose():
    assert abs(gdp_compose(0.3, 9) - 0.9) <= 1e-14 and gdp_compose(0.3, 9) >= 0.9
    mus = np.array([0.1, 0.2, 0.7, 1e-3])
    ref = float(mp.sqrt(sum(mp.mpf(m)**2 for m in mus)))
    assert 0 <= gdp_compose(mus) - ref <= 1e-14
    assert math.isfinite(gdp_compose([1e300, 1e300])) and gdp_compose([1e-300, 1e-300]) > 0
    # composition of GDP is GDP of the composed Gaussian: delta of sqrt(k) mu equals the k-fold Gaussian's PLD delta
    ref = plm.GaussianPrivacyLoss(1.0, sensitivity=math.sqrt(4)*0.5).get_delta_for_epsilon(0.5)
    assert rel(gdp_delta(gdp_compose(0.5, 4), 0.5), ref) <= 1e-10

@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(1e-3, 10), min_size=1, max_size=20), st.floats(1e-3, 10), st.integers(1, 50))
def test_gdp_compose_monotone(mus, extra, k):
    base = gdp_compose(mus, k)
    assert gdp_compose(mus + [extra], k) >= base and gdp_compose(mus, k + 1) >= base
    assert base >= max(mus)

@pytest.mark.parametrize('mu', [0.1, 1.0, 3.0])
def test_gdp_tradeoff_is_neyman_pearson(mu):
    # the most powerful test of N(0,1) vs N(mu,1) rejects when x > t: alpha = Q(t), beta = Phi(t - mu)
    for t in np.linspace(-6, 8, 57):
        alpha = float(mp.ncdf(-t)); beta = float(mp.ncdf(t - mu))
        assert abs(gdp_tradeoff(mu, alpha) - beta) <= 1e-12

@pytest.mark.parametrize('mu', [0.3, 1.0, 2.5])
def test_gdp_is_envelope_of_dp_tradeoffs(mu):
    # Dong-Roth-Su Cor. 2.13: mu-GDP <=> (eps, delta(eps))-DP for all eps, i.e. G_mu = sup_eps f_{eps, delta(eps)}
    al = np.linspace(0, 1, 201)
    G = gdp_tradeoff(mu, al)
    env = np.zeros_like(al)
    for e in np.linspace(0, 6*mu + mu**2, 3000):
        f = dp_tradeoff(e, min(1.0, gdp_delta(mu, e)), al)
        assert np.all(f <= G + 1e-9)
        env = np.maximum(env, f)
    assert np.max(G - env) <= 2e-3

def test_dp_tradeoff_closed_form():
    al = np.linspace(0, 1, 11)
    f = dp_tradeoff(math.log(2), 0.1, al)
    ref = np.maximum(0, np.maximum(0.9 - 2*al, 0.5*(0.9 - al)))
    np.testing.assert_allclose(f, ref, rtol=0, atol=1e-15)
    assert dp_tradeoff(1e4, 0.0, 0.5) == 0.0          # no overflow for huge eps

# ---------------------------------------------------------------- (eps, delta) -> RDP

@pytest.mark.parametrize('eps', [1e-6, 0.1, 1.0, 5.0, 30.0])
def test_pure_dp_to_rdp_matches_mpmath(eps):
    orders = [1 + 1e-10, 1 + 1e-4, 1.5, 2.0, 3.7, 32.0, 1e4]
    got = pure_dp_to_rdp(eps, orders)
    for a, g in zip(orders, got):
        with mp.workdps(200):
            e, al = mp.mpf(eps), mp.mpf(a)
            ref = mp.log((mp.exp(al*e) + mp.exp((1 - al)*e))/(1 + mp.exp(e)))/(al - 1)
        assert abs(g - float(ref)) <= 1e-13*float(ref) + 1e-300 and g >= float(ref)*(1 - 1e-15), (eps, a, g, ref)
        assert g <= min(eps, a*eps**2/2)*(1 + 1e-12)

@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.01, 1), min_size=2, max_size=6), st.data(), st.floats(1.01, 50))
def test_pure_dp_to_rdp_bounds_every_eps_dp_pair(q, data, alpha):
    q = np.array(q)/np.sum(q)
    r = np.array(data.draw(st.lists(st.floats(-3, 3), min_size=len(q), max_size=len(q))))
    p = q*np.exp(r); p /= p.sum()
    eps = float(np.max(np.abs(np.log(p/q))))
    d_alpha = math.log(np.sum(p**alpha*q**(1 - alpha)))/(alpha - 1)
    assert d_alpha <= pure_dp_to_rdp(eps, alpha)*(1 + 1e-12) + 1e-13   # 1e-13: float noise of d_alpha itself

def test_paper001_conversion_warns_and_is_falsified():
    with pytest.warns(UnsoundConversionWarning):
        v = paper001_dp_to_rdp(1.0, 1e-5, [2.0, 20.0])
    assert v[0] < 0                                     # a negative "Renyi divergence"
    claimed = mironov_rdp_to_dp([20.0], [2*v[1]], 1e-5)[0]   # 2 epochs, back to (eps, delta) at the same delta
    # exact 2-fold composition of the canonical (1, 1e-5) mechanism, brute force in mpmath
    assert float(brute_force_delta(1.0, 1e-5, 2, claimed)) > 0.24     # claimed delta was 1e-5

# ---------------------------------------------------------------- composition

def canonical_pair(eps, delta):
    e = mp.exp(mp.mpf(eps)); d = mp.mpf(delta)
    P = [d, (1 - d)*e/(1 + e), (1 - d)/(1 + e), mp.mpf(0)]
    return P, P[::-1]

def brute_force_delta(eps, delta, k, eps_g):
    "Hockey-stick divergence of the k-fold product of the canonical (eps, delta) pair, enumerating 4^k outcomes."
    with mp.workdps(60):
        P, Q = canonical_pair(eps, delta)
        eg = mp.exp(mp.mpf(eps_g))
        tot = mp.mpf(0)
        for out in itertools.product(range(4), repeat=k):
            p = mp.fprod(P[i] for i in out); q = mp.fprod(Q[i] for i in out)
            if p - eg*q > mp.mpf(10)**-50*p: tot += p - eg*q   # ignore mpmath noise on exact ties
        return tot

@pytest.mark.parametrize('eps,delta,k', [(0.5, 0.0, 1), (0.5, 1e-3, 3), (1.0, 1e-6, 4), (0.2, 0.01, 5), (2.0, 0.0, 5)])
def test_optimal_composition_matches_brute_force(eps, delta, k):
    rng = np.random.default_rng(1)
    grid = np.concatenate([[0.0], np.arange(k + 1)*eps, rng.uniform(0, k*eps*1.1, 8)])
    for eg in grid:
        ref = float(brute_force_delta(eps, delta, k, eg))
        got = optimal_composition_delta(eps, delta, count=k, epsilon_total=eg)
        assert got >= ref and got - ref <= 1e-12*ref + 1e-300, (eg, got, ref)   # rounded up, accurate to 1e-12

@pytest.mark.parametrize('eps,delta,k', [(0.1, 1e-7, 50), (1.0, 1e-9, 200), (0.01, 0.0, 1000)])
def test_optimal_composition_matches_kov_lattice_formula(eps, delta, k):
    with mp.workdps(80):
        e, d = mp.mpf(eps), mp.mpf(delta)
        for i in (1, 2, k//4, k//2):
            di = mp.fsum(mp.binomial(k,
                                     l)*(mp.exp((k - l)*e) - mp.exp((k - 2*i + l)*e)) for l in range(i))/(1 + mp.exp(e))**k
            ref = 1 - (1 - d)**k + (1 - d)**k*di       # no cancellation when d = 0
            got = optimal_composition_delta(eps, delta, count=k, epsilon_total=(k - 2*i)*eps)
            assert got >= float(ref)*(1 - 1e-15) and abs(got - float(ref)) <= 1e-13*max(10, k)*float(ref), (i, got, ref)

@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 2), st.floats(0, 1e-6), st.integers(1, 300), st.floats(1e-9, 0.5))
def test_optimal_composition_epsilon_properties(eps, delta, k, dt):
    e = optimal_composition_epsilon(eps, delta, count=k, delta_total=dt)
    floor = 1 - (1 - delta)**k
    if dt < floor*(1 - 1e-9): assert e == math.inf; return
    if dt <= floor*(1 + 1e-9): return    # knife edge
    assert optimal_composition_delta(eps, delta, count=k, epsilon_total=e) <= dt                  # certified
    if e > 0: assert optimal_composition_delta(eps, delta, count=k,
                                               epsilon_total=e*(1 - 1e-8)) > dt*(1 - 1e-9)   # and tight
    assert e <= k*eps*(1 + 1e-14)                                             # never worse than basic
    if dt > k*delta:                                                          # never worse than advanced
        assert e <= advanced_composition(eps, delta, count=k,
                                         delta_prime=dt - k*delta)[0]*(1 + 1e-12) or dt - k*delta >= 1
    assert optimal_composition_epsilon(eps, delta, count=k + 1, delta_total=dt) >= e*(1 - 1e-12)   # monotone in k

@settings(max_examples=100, deadline=None)
@given(st.floats(0, 3), st.floats(0, 0.1), st.integers(1, 100), st.floats(0, 50), st.floats(0, 50))
def test_optimal_composition_delta_monotone(eps, delta, k, e1, e2):
    d1, d2 = optimal_composition_delta(eps, delta, count=k, epsilon_total=e1), optimal_composition_delta(eps, delta, count=k, epsilon_total=e2)
    assert 0 <= d1 <= 1
    if e1 < e2: assert d1 >= d2*(1 - 1e-12)

def test_advanced_composition_formulas():
    e, d = advanced_composition(0.05, 1e-8, count=1000, delta_prime=1e-6)
    assert rel(e, math.sqrt(2000*math.log(1e6))*0.05 + 1000*0.05*math.expm1(0.05)) <= 1e-14
    assert rel(d, 1000*1e-8 + 1e-6) <= 1e-14
    eps = np.array([0.1, 0.2, 0.05, 0.3])
    he, hd = heterogeneous_advanced_composition(eps, [1e-7]*4, 1e-6)
    assert rel(he, math.sqrt(2*math.log(1e6)*np.sum(eps**2)) + np.sum(eps*np.expm1(eps))) <= 1e-14
    ce, cd = cjmp_composition(eps, [1e-7]*4, 1e-6)
    assert rel(ce, 2*math.sqrt(math.log(1e6)*np.sum(eps**2)) + np.sum(eps*np.expm1(eps))) <= 1e-14
    assert ce > he and rel(cd, hd) <= 1e-14
    be, bd = basic_composition(eps, 1e-7, count=3)
    assert rel(be, 3*eps.sum()) <= 1e-14 and rel(bd, 12e-7) <= 1e-14
    assert basic_composition(1.0, 0.5, count=3)[1] == 1.0

@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 2), min_size=1, max_size=30), st.floats(1e-12, 0.5), st.floats(0, 2))
def test_composition_monotone(eps, dp, extra):
    for f in (heterogeneous_advanced_composition, cjmp_composition):
        e0, d0 = f(eps, 0.0, dp)
        e1, d1 = f(eps + [extra], 0.0, dp)
        assert e1 >= e0*(1 - 1e-14) and d1 >= d0*(1 - 1e-14)   # up to the summation order's rounding
        assert f(eps, 0.0, dp/2)[0] >= e0        # smaller delta', larger eps
    assert cjmp_composition(eps, 0.0, dp)[0] >= heterogeneous_advanced_composition(eps, 0.0, dp)[0]

# ---------------------------------------------------------------- bad input for the rest of the API

def test_bad_inputs_rest():
    bad = [
        (lambda: gdp_compose(0.0), 'mu'), (lambda: gdp_compose(1.0, 0), 'count'), (lambda: gdp_compose([]), 'mu'),
        (lambda: dp_tradeoff(-1.0, 0.1, 0.5), 'eps'), (lambda: dp_tradeoff(1.0, 1.1, 0.5), 'delta'),
        (lambda: dp_tradeoff(1.0, 0.1, -0.1), 'alpha'), (lambda: gdp_tradeoff(0.0, 0.5), 'mu'),
        (lambda: gdp_tradeoff(1.0, [0.5, 2.0]), 'alpha'),
        (lambda: pure_dp_to_rdp(-0.1, 2.0), 'eps'), (lambda: pure_dp_to_rdp(1.0, 1.0), 'orders'),
        (lambda: paper001_dp_to_rdp(1.0, 0.0, 2.0), 'delta'), (lambda: paper001_dp_to_rdp(1.0, 0.5, 0.5), 'orders'),
        (lambda: basic_composition(-1.0, 0.0), 'eps'), (lambda: basic_composition(1.0, 2.0), 'delta'),
        (lambda: basic_composition([1.0, 2.0], [0.0, 0.0, 0.0]), 'mismatched'),
        (lambda: basic_composition(1.0, 0.0, count=0), 'count'),
        (lambda: advanced_composition(1.0, 0.0, count=10, delta_prime=1.0),
         'delta_prime'), (lambda: advanced_composition(1.0, 0.0, count=1.5, delta_prime=0.1), 'count'),
        (lambda: advanced_composition(float('nan'), 0.0, count=10, delta_prime=0.1), 'eps'),
        (lambda: heterogeneous_advanced_composition([0.1, -0.1], 0.0, 0.1), 'eps'),
        (lambda: heterogeneous_advanced_composition([0.1], 0.0, 0.0), 'delta_prime'),
        (lambda: cjmp_composition([0.1], 0.0, 1.0), 'delta_prime'), (lambda: cjmp_composition([0.1], -1e-3, 0.5),
                                                                     'delta'),
        (lambda: optimal_composition_delta(1.0, 0.0, count=0, epsilon_total=1.0),
         'count'), (lambda: optimal_composition_delta(1.0, 0.0, count=2, epsilon_total=-1.0), 'epsilon_total'),
        (lambda: optimal_composition_delta(-1.0, 0.0, count=2, epsilon_total=1.0),
         'eps'), (lambda: optimal_composition_delta(1.0, 1.5, count=2, epsilon_total=1.0), 'delta'),
        (lambda: optimal_composition_epsilon(1.0, 0.0, count=2, delta_total=1.0), 'delta_total'),
        (lambda: optimal_composition_epsilon(1.0, 0.0, count=-2, delta_total=0.5), 'count'),
        (lambda: composed_dp_tradeoff(1.0, 0.0, count=0, alpha=0.5), 'count'), (lambda: composed_dp_tradeoff(1.0, 0.0, count=2, alpha=1.5), 'alpha'),
        (lambda: composed_dp_tradeoff(-1.0, 0.0, count=2, alpha=0.5), 'eps'), (lambda: composed_dp_tradeoff(1.0, -0.1, count=2, alpha=0.5), 'delta'),
    ]
    for f, name in bad:
        with pytest.raises(ValueError, match=name): f()

def test_optimal_composition_approaches_gdp_clt():
    # Dong-Roth-Su central limit theorem: k-fold randomized response at eps ~ 1/sqrt(k) tends to mu-GDP, mu = sqrt(k) eps
    # (to first order in eps); an independent sanity check of both the KOV sum and gdp_epsilon
    k, eps, delta = 10_000, 0.01, 1e-5
    assert abs(optimal_composition_epsilon(eps, 0.0, count=k, delta_total=delta) - gdp_epsilon(math.sqrt(k)*eps, delta)) < 5e-3

@pytest.mark.parametrize('eps,delta,k', [(0.5, 0.0, 1), (0.5, 1e-3, 3), (1.0, 1e-6, 4), (0.2, 0.01, 5)])
def test_composed_tradeoff_matches_brute_force(eps, delta, k):
    # Neyman-Pearson on the enumerated 4^k outcomes of the canonical pair, in mpmath: vertices of the curve
    with mp.workdps(40):
        P, Q = canonical_pair(eps, delta)
        outs = []
        for out in itertools.product(range(4), repeat=k):
            p = mp.fprod(P[i] for i in out); q = mp.fprod(Q[i] for i in out)
            if p == 0 and q == 0: continue
            outs.append((mp.inf if q == 0 else p/q, p, q))
        outs.sort(key=lambda t: -t[0])
        a = b = mp.mpf(0); verts = [(mp.mpf(0), mp.mpf(1))]
        for lr, p, q in outs:
            a += q; b += p; verts.append((a, 1 - b))
    best = {}
    for a, b in verts: best[a] = min(b, best.get(a, b))     # a trade-off function is an infimum
    for a, b in best.items():
        assert abs(composed_dp_tradeoff(eps, delta, count=k, alpha=float(a)) - float(b)) <= 1e-13

@settings(max_examples=60, deadline=None)
@given(st.floats(0, 3), st.floats(0, 0.2), st.integers(1, 60))
def test_composed_tradeoff_properties(eps, delta, k):
    al = np.linspace(0, 1, 257)
    f = composed_dp_tradeoff(eps, delta, count=k, alpha=al)
    assert np.all(np.diff(f) <= 1e-15) and np.all(f <= 1 - al + 1e-12) and np.all(f >= -1e-15)
    assert np.all(composed_dp_tradeoff(eps, delta, count=k + 1, alpha=al) <= f + 1e-12)    # composition never helps
    assert np.all(f >= dp_tradeoff(min(k*eps, 700), min(1.0, k*delta), al) - 1e-12)   # basic composition is valid


def test_gdp_vectorised_matches_scalar_path():
    "Issue 14: the array path of gdp_delta/gdp_log_delta gives the scalar path's answers (both rounded up by GDP_RTOL)."
    import numpy as np
    from shuffle_privacy.accounting.conversions import gdp_delta, gdp_log_delta
    rng = np.random.default_rng(5)
    mu, eps = 10**rng.uniform(-4, 2.5, 3000), np.r_[0.0, 10**rng.uniform(-6, 3, 2999)]
    v, lv = gdp_delta(mu, eps), gdp_log_delta(mu, eps)
    s = np.array([gdp_delta(float(a), float(b)) for a, b in zip(mu, eps)])
    ls = np.array([gdp_log_delta(float(a), float(b)) for a, b in zip(mu, eps)])
    assert np.all((v >= 0) & (v <= 1)) and not np.isnan(lv).any()
    f = ls > -np.inf
    assert np.all(lv[~f] == -np.inf) and np.all(np.abs(lv[f] - ls[f]) <= 5e-13*np.maximum(1, np.abs(ls[f])))
    assert np.allclose(v, s, rtol=5e-13, atol=0)


@pytest.mark.parametrize('mu,eps', [(0.0012835487515295188, 276.26603508827145), (0.001207459342234596,
                                                                                  190.37049551131437),
                                    (0.5, 60.0), (1.0, 90.0), (0.05, 3.0)])
def test_gdp_log_delta_rounded_up_at_huge_a(mu, eps):
    "a = ε/μ - μ/2 in doubles moves log φ(a) by ~a² ulp (2.7e-6 at a = 1.6e5): the margin keeps log δ an upper bound."
    from shuffle_privacy.accounting.conversions import gdp_log_delta
    with mp.workdps(400):
        m, e = mp.mpf(mu), mp.mpf(eps)
        exact = mp.log(mp.ncdf(-(e/m - m/2)) - mp.e**e*mp.ncdf(-(e/m + m/2)))
        for v in (gdp_log_delta(mu, eps), float(gdp_log_delta(np.array([mu]), np.array([eps]))[0])):
            assert v >= exact and v - exact <= 1e-9*abs(exact) + 1e-11

def test_short_grid_fast_path_is_bit_for_bit_the_full_path():
    # 1-d float64 arrays and lists of Python floats (<= 64 orders) take the fast path; lists of numpy scalars the full
    import warnings
    from shuffle_privacy.accounting.conversions import rdp_to_dp, rdp_to_delta, OrderGridWarning
    rng = np.random.default_rng(7)
    for _ in range(3000):
        k = int(rng.integers(1, 65))
        o = np.sort([1 + 10**rng.uniform(-15, 0, k), 10**rng.uniform(0.01, 4, k),
                     rng.integers(2, 300, k).astype(float)][int(rng.integers(3))])
        r = o*10**rng.uniform(-12, 3)
        if rng.random() < 0.1: r[rng.integers(k)] = 0.0
        d, e = float(10**rng.uniform(-300, -1e-3)), float(10**rng.uniform(-6, 3))
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', OrderGridWarning)
            full = rdp_to_dp(list(o), list(r), d)
            assert rdp_to_dp(o, r, d) == full and rdp_to_dp(o.tolist(), r.tolist(), d) == full
            full = rdp_to_delta(list(o), list(r), e)
            assert rdp_to_delta(o, r, e) == full and rdp_to_delta(tuple(o.tolist()), r.tolist(), e) == full

def test_short_lists_fast_path_validates_like_the_full_path():
    from shuffle_privacy.accounting.conversions import rdp_to_dp, rdp_to_delta
    assert rdp_to_dp([2, 3], [1, 2], 1e-5) == rdp_to_dp(np.array([2., 3.]), np.array([1., 2.]), 1e-5)
    for o, r, msg in [([1.0, 2.0], [0.1, 0.2], 'orders must lie'), ([2.0, 3.0], [0.1, -0.2], 'rdp must contain'),
                      ([2.0, 3.0], [0.1], 'mismatched'),
                      ([2.0, 10**400], [0.1, 0.2], 'orders must'), ([2.0, math.nan], [0.1, 0.2], 'orders must'), ([2.0, 3.0], [0.1, 10**400], 'rdp must')]:
        with pytest.raises(ValueError, match=msg): rdp_to_dp(o, r, 1e-5)
        with pytest.raises(ValueError, match=msg): rdp_to_delta(o, r, 1.0)

def test_gdp_epsilon_arrays_match_the_scalar_path_and_are_certified():
    rng = np.random.default_rng(3)
    mu = 10**rng.uniform(-4, 3, 400)
    d = 10**rng.uniform(-300, -1e-6, 400)
    e = gdp_epsilon(mu, d)
    ref = np.array([gdp_epsilon(float(a), float(b)) for a, b in zip(mu, d)])
    fin = np.isfinite(ref)
    assert np.array_equal(fin, np.isfinite(e)) and np.all(e >= 0)
    np.testing.assert_allclose(e[fin], ref[fin], rtol=1e-12, atol=1e-300)
    assert np.all(gdp_delta(mu[fin], e[fin]) <= d[fin])          # every entry certified: δ(ε) <= δ
    assert gdp_epsilon(np.array([1e200, 1.0]), 0.5)[0] == math.inf
    with pytest.raises(ValueError, match='delta'): gdp_epsilon(np.array([1.0, 2.0]), np.array([0.1, 0.0]))
    with pytest.raises(ValueError, match='mu'): gdp_epsilon(np.array([np.nan, 2.0]), 0.1)
