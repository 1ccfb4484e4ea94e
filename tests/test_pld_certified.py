"""Issue 22 item 1: certified PLD composition. T Gaussian rounds at noise σ are one Gaussian with μ = √T/σ, whose
δ(ε) and ε(δ) are computed here in mpmath (50 digits, bisection to 1e-30); every certified interval must contain
them, in both directions (`epsilon_bounds` and `delta_bounds`)."""
import math
import numpy as np, mpmath as mp, pytest
import shuffle_privacy as sp
from dp_accounting import dp_event
from shuffle_privacy.accounting.pld_build import (gaussian_pair, gaussian_delta_bounds, gaussian_log_delta_bounds,
                                                  Factor, Tilted, pair_from_pmfs, PldPair)
from shuffle_privacy.mechanisms.shuffle_gaussian.pld import (shuffle_gaussian_delta_bounds,
                                                              shuffle_gaussian_log_delta_bounds)

def gauss_delta(mu, eps):
    "Exact δ(ε) of N(0,1) vs N(μ,1) (both directions), mpmath."
    mu, eps = mp.mpf(mu), mp.mpf(eps)
    return mp.ncdf(-eps/mu + mu/2) - mp.exp(eps)*mp.ncdf(-eps/mu - mu/2)

def gauss_eps(mu, delta):
    "Exact ε(δ) by bisection (δ(ε) is decreasing)."
    delta = mp.mpf(delta)
    if gauss_delta(mu, 0) <= delta: return mp.mpf(0)
    lo, hi = mp.mpf(0), mp.mpf(1)
    while gauss_delta(mu, hi) > delta: hi *= 2
    while hi - lo > mp.mpf('1e-30')*(1 + hi):
        m = (lo + hi)/2
        lo, hi = (m, hi) if gauss_delta(mu, m) > delta else (lo, m)
    return hi

DELTAS = [1e-6, 1e-9, 1e-12]
CASES = [(1.0, 1), (2.0, 10), (10.0, 100), (6.051, 1000),
         pytest.param(30.0, 20000, marks=pytest.mark.slow)]

@pytest.mark.parametrize('sigma,T', CASES)
def test_gaussian_pair_contains_exact_both_directions(sigma, T):
    "Fixed grid d = 1e-4: ε and δ intervals contain the exact values; the upper end is within 1e-3 relative."
    mu = mp.sqrt(T)/mp.mpf(sigma)
    pair = gaussian_pair(sigma, 1e-4).self_compose(T)
    for delta in DELTAS:
        e = gauss_eps(mu, delta)
        lo, up = pair.epsilon_bounds(delta)
        assert lo <= e <= up, (sigma, T, delta, lo, float(e), up)
        assert up - e <= 1e-3*e, (sigma, T, delta, float(up - e))
        dlo, dup = pair.delta_bounds(float(e))
        x = gauss_delta(mu, float(e))
        assert dlo <= x <= dup, (sigma, T, delta, dlo, float(x), dup)

def test_issue_example_through_the_accountant():
    "The issue's example: 1000 rounds of ShuffleGaussianEvent(1, 6.051); the upper end was 44.335941 < 44.335950."
    lo, up = sp.PldAccountant().compose(sp.ShuffleGaussianEvent(1, 6.051), 1000).get_epsilon_bounds(1e-9)
    e = gauss_eps(mp.sqrt(1000)/mp.mpf(6.051), 1e-9)
    assert up >= 44.335950 and lo <= e <= up and up - lo <= 0.01*up, (lo, float(e), up)

# get_delta_bounds refines the adaptive grid until the δ interval is tight: after 1000 rounds that is ~10 CPU-s, after
# 100 rounds under 1 s. The same property (the accountant's δ interval contains the exact δ) runs at 100 rounds by
# default; the issue's 1000 rounds run under -m slow.
@pytest.mark.parametrize('T,delta', [(100, 1e-6), pytest.param(1000, 1e-6, marks=pytest.mark.slow),
                                     pytest.param(1000, 1e-12, marks=pytest.mark.slow)])
def test_accountant_delta_bounds_contain_exact(T, delta):
    acc = sp.PldAccountant().compose(sp.ShuffleGaussianEvent(1, 6.051), T)
    mu = mp.sqrt(T)/mp.mpf(6.051)
    e = float(gauss_eps(mu, delta))
    lo, up = acc.get_delta_bounds(e)
    assert lo <= gauss_delta(mu, e) <= up, (T, delta, lo, up)

@pytest.mark.slow
def test_sigma_30_twenty_thousand_rounds_through_the_accountant():
    acc = sp.PldAccountant().compose(sp.ShuffleGaussianEvent(1, 30.0), 20000)
    mu = mp.sqrt(20000)/30
    for delta in (1e-9, 1e-12):
        lo, up = acc.get_epsilon_bounds(delta); e = gauss_eps(mu, delta)
        assert lo <= e <= up, (delta, lo, float(e), up)

def test_gaussian_dp_event_through_the_accountant():
    "dp_accounting's Gaussian masses (not certified; 05 could use `gaussian_pair`), composed certifiably."
    lo, up = sp.PldAccountant().compose(dp_event.GaussianDpEvent(6.051), 1000).get_epsilon_bounds(1e-9)
    assert up >= gauss_eps(mp.sqrt(1000)/mp.mpf(6.051), 1e-9)

def test_heterogeneous_composition():
    "300 rounds at σ = 3 then 700 at σ = 8 are one Gaussian with μ² = 300/9 + 700/64."
    pair = gaussian_pair(3.0, 1e-4).self_compose(300).compose(gaussian_pair(8.0, 1e-4).self_compose(700))
    mu = mp.sqrt(mp.mpf(300)/9 + mp.mpf(700)/64)
    for delta in (1e-8, 1e-12):
        lo, up = pair.epsilon_bounds(delta); e = gauss_eps(mu, delta)
        assert lo <= e <= up and up - lo <= 0.01*up, (delta, lo, float(e), up)

def test_tilted_against_exact_convolution():
    "A random PMF with a mass at +inf composed 5 times: the tilted ends contain the mpmath convolution's δ(ε)."
    rng = np.random.default_rng(7)
    p = rng.random(30)**3; p = p/p.sum()*(1 - 1e-3); i0, d, T, pinf = -10, 0.05, 5, 1e-3
    exact = [mp.mpf(1)]
    for _ in range(T):
        exact = [mp.fsum(exact[k - j]*mp.mpf(float(p[j])) for j in range(len(p)) if 0 <= k - j < len(exact))
                 for k in range(len(exact) + len(p) - 1)]
    inf_mass = 1 - (1 - mp.mpf(pinf))**T
    for eps in (0.0, 0.4, 1.0):
        x = inf_mass + mp.fsum(m*(1 - mp.e**(mp.mpf(eps) - (T*i0 + k)*mp.mpf(d))) for k, m in enumerate(exact)
                               if (T*i0 + k)*d > eps)
        f = [Factor(p, i0, pinf=pinf, d=d, count=T)]
        lo, up = Tilted(f, eps, upper=False).delta(eps), Tilted(f, eps, upper=True).delta(eps)
        assert lo <= x <= up and up - lo <= 1e-3*x, (eps, lo, float(x), up)

def test_pair_from_dp_plds_keeps_old_interface():
    "PldPair(upper, lower) from dp_accounting PLDs (the older interface) composes and bounds like before."
    from dp_accounting.pld import privacy_loss_distribution as P
    mk = lambda pe: P.from_laplace_mechanism(1.0, pessimistic_estimate=pe, value_discretization_interval=1e-3)
    pair = PldPair(mk(True), mk(False)).self_compose(10)
    ref = mk(True).self_compose(10).get_epsilon_for_delta(1e-6)
    lo, up = pair.epsilon_bounds(1e-6)
    assert lo <= up and abs(up - ref) <= 1e-3*ref, (lo, up, ref)
    up_, lo_, cert = pair                                   # unpacks as the former NamedTuple did
    assert cert and up_.get_delta_for_epsilon(1.0) > 0

SIGMAS = [0.3, 1.0, 6.051, 30.0, 1e3]

@pytest.mark.parametrize('sigma', SIGMAS)
def test_n1_delta_certified_to_the_last_float(sigma):
    "n = 1: the interval contains 80-digit δ, is 1e-14 relative or 2 ulps wide, never (0, 0); log bounds too."
    mu = 1/sigma
    top = mu*mu/2 + mu*math.sqrt(2*3000)
    es = np.concatenate([[0.0], np.geomspace(1e-3, top, 12)])
    lo, up = shuffle_gaussian_delta_bounds(1, sigma, es)
    llo, lup = shuffle_gaussian_log_delta_bounds(1, sigma, es)
    for x, l, u, ll, lu in zip(es, lo, up, llo, lup):
        with mp.workdps(80):
            r = mp.ncdf(mp.mpf(mu)/2 - mp.mpf(x)/mu) - mp.exp(mp.mpf(x))*mp.ncdf(-mp.mpf(mu)/2 - mp.mpf(x)/mu)
            assert ll <= mp.log(r) <= lu and lu - ll <= 1e-12*max(1.0, abs(ll)), (sigma, x, ll, lu)
        assert l <= r <= u and u > 0, (sigma, x, l, float(r), u)
        if r > 1e-300: assert u - l <= 1e-14*u or u - l <= 4*np.spacing(u), (sigma, x, l, u)
