"""Issue 11: the certified PLD of the shuffle Gaussian, against independent references."""
import math
import numpy as np
import pytest
from scipy import special, stats, integrate
import dp_accounting
import shuffle_privacy as sp
from shuffle_privacy.mechanisms.shuffle_gaussian.pld import shuffle_gaussian_delta_bounds, shuffle_gaussian_pld
from shuffle_privacy.accounting.pld import PldAccountant
from shuffle_privacy.accounting.rdp import RdpAccountant
from shuffle_privacy.accounting.calibrate import calibrate

def call(t, s):
    if t <= 0: return 1.0 - t
    a = s*math.log(t) + 0.5/s
    return special.ndtr(-(a - 1/s)) - t*special.ndtr(-a)

def exact_n2(s, e):
    "Both directions at n = 2 by one-dimensional quadrature of a lognormal call price."
    w = lambda z: math.exp(z/s - 0.5/s**2)
    fwd = integrate.quad(lambda z: stats.norm.pdf(z)*0.5*call(2*math.exp(e) - w(z), s), -40, 40, limit=500,
                         epsabs=1e-16, epsrel=1e-12)[0]
    def put(t):                                      # E[(t - W)_+] = t Φ(a) - Φ(a - 1/s), no cancellation at small t
        if t <= 0: return 0.0
        a = s*math.log(t) + 0.5/s
        return t*special.ndtr(a) - special.ndtr(a - 1/s)
    rev = integrate.quad(lambda z: stats.norm.pdf(z)*0.5*math.exp(e)*put(2*math.exp(-e) - w(z)), -40, 40, limit=500,
                         epsabs=1e-16, epsrel=1e-12)[0]
    return max(fwd, rev)

@pytest.mark.parametrize('s', [2.0, 3.0, 8.0, 30.0])
def test_n2_interval_contains_quadrature_and_is_tight(s):
    es = np.array([0.0, 0.05, 0.3, 1.0])
    lo, up = shuffle_gaussian_delta_bounds(2, s, es)
    for e, l, u in zip(es, lo, up):
        ex = exact_n2(s, e)
        assert l <= ex*(1 + 1e-9) and ex <= u*(1 + 1e-9)
        if ex > 1e-10: assert u <= 1.01*l

@pytest.mark.parametrize('s', [0.3, 1.0, 5.0])
def test_n1_is_the_gaussian_mechanism(s):
    e = np.array([0.0, 0.5, 2.0])
    mu = 1/s
    ex = stats.norm.cdf(mu/2 - e/mu) - np.exp(e)*stats.norm.cdf(-mu/2 - e/mu)
    lo, up = shuffle_gaussian_delta_bounds(1, s, e)
    assert np.all(lo <= ex*(1 + 1e-12)) and np.all(ex <= up*(1 + 1e-12))

# 1e5 samples by default (~0.8 CPU-s; the standard error doubles but the check is the same); 4e5 under -m slow
@pytest.mark.parametrize('N', [100_000, pytest.param(400_000, marks=pytest.mark.slow)])
def test_monte_carlo_inside_interval(N):
    "n = 200, σ = 2: δ(ε) = E_Q[(W̄ - e^ε)_+] estimated from N samples, within 5 standard errors of the interval."
    rng = np.random.default_rng(0)
    n, s, e = 200, 2.0, 0.05
    W = np.exp(rng.standard_normal((N, n), dtype=np.float32)/s - 0.5/s**2).mean(axis=1, dtype=np.float64)
    vals = np.maximum(W - math.exp(e), 0); est, se = vals.mean(), vals.std()/math.sqrt(len(vals))
    lo, up = shuffle_gaussian_delta_bounds(n, s, e)
    assert lo - 5*se <= est <= up + 5*se

def test_gdp_limit():
    "n → ∞: μ-GDP with μ = sqrt(expm1(1/σ²)/n)."
    n, s = 10**8, 3.0
    mu = math.sqrt(math.expm1(1/s**2)/n)
    for e in (0.0, 1e-4, 3e-4):
        gdp = stats.norm.cdf(-e/mu + mu/2) - math.exp(e)*stats.norm.cdf(-e/mu - mu/2)
        lo, up = shuffle_gaussian_delta_bounds(n, s, e)
        assert lo <= gdp*1.02 and gdp <= up*1.02

def test_delta_non_increasing_and_in_unit_interval():
    es = np.linspace(0, 0.5, 40)
    lo, up = shuffle_gaussian_delta_bounds(5000, 2.5, es)
    assert np.all(np.diff(up) <= 1e-15) and np.all((0 <= lo) & (lo <= up) & (up <= 1))

def test_pld_contains_direct_bounds_and_composes():
    pair = shuffle_gaussian_pld(1000, 3.0, 1e-5)
    for e in (0.0, 0.01, 0.05):
        lo, up = shuffle_gaussian_delta_bounds(1000, 3.0, e)
        plo, pup = pair.delta_bounds(e)
        assert plo <= lo*(1 + 1e-9) + 1e-15 and up <= pup*(1 + 1e-9) + 1e-15
    acc = PldAccountant(value_discretization_interval=1e-5)
    prev = 0.0
    for T in (1, 5, 25):
        e = PldAccountant(value_discretization_interval=1e-5).compose(
                sp.ShuffleGaussianEvent(1000, 3.0), T).get_epsilon(1e-6)
        assert e >= prev; prev = e

# PLD below RDP at Table 1 (n = 60000, σ = 9.48, δ = 1/n, grid 1e-6): notebook 12 (cell 5c3ef507) asserts it under
# nbdev-test at 1, 10, 100 and 1000 rounds; this file's copy at 1 and 100 rounds was merged into it.

@pytest.mark.slow      # calibrate with PldAccountant runs by default in test_pld.py and notebooks 04 and 51
def test_calibrate_with_pld_accountant():
    make = lambda s: dp_accounting.SelfComposedDpEvent(sp.ShuffleGaussianEvent(10_000, s), 10)
    s = calibrate(make, 0.05, 1e-6, make_accountant=lambda: PldAccountant(value_discretization_interval=1e-5
            ), bracket=(2.0, 50.0), rtol=1e-3)
    assert PldAccountant(value_discretization_interval=1e-5).compose(make(s)).get_epsilon(1e-6) <= 0.05
    assert PldAccountant(value_discretization_interval=1e-5).compose(make(s*1.01)).get_epsilon(1e-6) < 0.05

@pytest.mark.parametrize('kw', [dict(num_users=0, noise_multiplier=3.0), dict(num_users=10, noise_multiplier=0.04),
                                dict(num_users=10, noise_multiplier=math.nan), dict(num_users=10, noise_multiplier=3.0,
                                                                                  value_discretization_interval=0.0)])
def test_bad_input(kw):
    with pytest.raises(ValueError): shuffle_gaussian_pld(**kw)

@pytest.mark.parametrize('n, s, delta', [(1, 100.0, 1e-5), (1000, 100.0, 1e-5), (10**6, 10.0, 1e-10),
                                         (10**9, 100.0, 1e-10), (10**9, 2.0, 1e-10)])
def test_adaptive_grid_meets_one_percent(n, s, delta):
    "Issue 11's target through the default accountant: the certified interval is within 1% wherever epsilon > 0."
    lo, up = sp.PldAccountant().compose(sp.ShuffleGaussianEvent(n, s)).get_epsilon_bounds(delta)
    assert 0 < lo <= up and up - lo <= 0.01*up, (lo, up)
    if n >= 10**6:       # the GDP limit, mu = sqrt(expm1(1/s^2)/n), solved for epsilon: inside the interval to 1%
        mu = math.sqrt(math.expm1(1/s**2)/n)
        f = lambda e: stats.norm.cdf(-e/mu + mu/2) - math.exp(e)*stats.norm.cdf(-e/mu - mu/2) - delta
        from scipy import optimize
        e_gdp = optimize.brentq(f, 0.0, 50*mu, xtol=1e-18)
        assert lo*(1 - 0.01) <= e_gdp <= up*(1 + 0.01), (lo, e_gdp, up)

def test_adaptive_grid_composition_and_fixed_grid():
    """100 rounds: the adaptive default is within 1%, and so is the fixed grid 1e-4 (spread and contraction lose no
    grid step per round; rounding the losses lost more than half the interval there)."""
    ev = sp.ShuffleGaussianEvent(60_000, 9.48)
    lo, up = sp.PldAccountant().compose(ev, 100).get_epsilon_bounds(1e-5)
    flo, fup = sp.PldAccountant(value_discretization_interval=1e-4).compose(ev, 100).get_epsilon_bounds(1e-5)
    assert up - lo <= 0.01*up and flo <= lo <= up <= fup and fup - flo <= 0.01*fup
    assert sp.PldAccountant().compose(ev, 100).get_delta(up) <= 1e-5*(1 + 1e-9)

def test_sigma_1_5_from_five_users():
    "sigma = 1.5 (the log-scale grid): Monte Carlo inside the interval at n = 5, the GDP limit at n = 1e8, 1% at 1e-10."
    rng = np.random.default_rng(1)
    n, s, e = 5, 1.5, 0.5
    W = np.exp(rng.standard_normal((400_000, n))/s - 0.5/s**2).mean(axis=1)
    vals = np.maximum(W - math.exp(e), 0); est, se = vals.mean(), vals.std()/math.sqrt(len(vals))
    lo, up = shuffle_gaussian_delta_bounds(n, s, e)
    assert lo - 5*se <= est <= up + 5*se
    lo, up = sp.PldAccountant().compose(sp.ShuffleGaussianEvent(5, s)).get_epsilon_bounds(1e-6)
    assert 0 < lo <= up and up - lo <= 0.01*up
    n = 10**8; mu = math.sqrt(math.expm1(1/s**2)/n)
    for e in (0.0, 1e-4, 5e-4):
        gdp = stats.norm.cdf(-e/mu + mu/2) - math.exp(e)*stats.norm.cdf(-e/mu - mu/2)
        lo, up = shuffle_gaussian_delta_bounds(n, s, e)
        assert lo <= gdp*1.02 and gdp <= up*1.02
    lo, up = sp.PldAccountant().compose(sp.ShuffleGaussianEvent(10**9, s)).get_epsilon_bounds(1e-10)
    assert 0 < lo <= up and up - lo <= 0.01*up
    with pytest.raises(ValueError, match=r'in \[0.05, 10000\]'): shuffle_gaussian_pld(5, 0.049)
    with pytest.raises(ValueError, match='noise_multiplier'): shuffle_gaussian_delta_bounds(5, 2e4, 0.1)


# --- below sigma = 2: the log-scale grid (sigma in [0.05, 2)) ------------------------------------------------------
from shuffle_privacy.mechanisms.shuffle_gaussian import pld as _sgp

@pytest.mark.filterwarnings('ignore::scipy.integrate.IntegrationWarning')   # quad's own estimate; it is checked
@pytest.mark.parametrize('s, es', [(1.0, (0.0, 0.5, 2.0, 5.0)), (0.5, (0.0, 1.5, 6.0, 15.0)),
                                   (0.3, (1.5, 6.0, 15.0, 30.0))])
def test_small_sigma_n2_against_quadrature(s, es):
    "n = 2 by one-dimensional quadrature: inside the interval, and the interval within 2% on delta down to 1e-14."
    lo, up = shuffle_gaussian_delta_bounds(2, s, np.array(es))
    for e, l, u in zip(es, lo, up):
        ex = exact_n2(s, e)
        assert l <= ex*(1 + 1e-9) and ex <= u*(1 + 1e-9), (s, e, l, ex, u)
        if ex > 1e-14: assert u <= 1.02*l, (s, e, l, u)

def _eps_gdp(mu, delta):
    from scipy import optimize
    f = lambda e: stats.norm.cdf(-e/mu + mu/2) - math.exp(e)*stats.norm.cdf(-e/mu - mu/2) - delta
    return optimize.brentq(f, 0.0, 50*mu, xtol=1e-18)

# sigma = 0.1 is slow only: notebook 12 checks (2, 0.1) at test size, and sigma = 0.5 runs here at n = 1e3 and 1e9
@pytest.mark.parametrize('n, s, delta', [pytest.param(2, 0.1, 1e-10, marks=pytest.mark.slow), (3, 1.9, 1e-10), (1000, 0.5, 1e-5), (10**5, 1.0, 1e-10),
                                         (60_000, 1.5, 1e-5), (60_000, 1.9, 1e-10),
                                         pytest.param(10**9, 0.1, 1e-10, marks=pytest.mark.slow), (10**9, 0.5, 1e-10),
                                         pytest.param(10**9, 1.0, 1e-5, marks=pytest.mark.slow),
                                         pytest.param(10**9, 1.4, 1e-10, marks=pytest.mark.slow)])
def test_small_sigma_meets_one_percent(n, s, delta):
    "Issue 11's target below the lattice's bound, through the default accountant (and the GDP limit at n = 1e9)."
    lo, up = sp.PldAccountant().compose(sp.ShuffleGaussianEvent(n, s)).get_epsilon_bounds(delta)
    assert 0 < lo <= up and up - lo <= 0.01*up, (lo, up)
    if n == 10**9 and s >= 1.0:         # skewness of S/n is ~1e-4 here: the GDP limit is within 2%
        e_gdp = _eps_gdp(math.sqrt(math.expm1(1/s**2)/n), delta)
        assert lo*0.98 <= e_gdp <= up*1.02, (lo, e_gdp, up)

def test_small_sigma_monte_carlo():
    "n = 20, sigma = 1: both directions estimated from 4e5 runs, within 5 standard errors of the interval."
    rng = np.random.default_rng(2)
    n, s = 20, 1.0
    W = np.exp(rng.standard_normal((400_000, n))/s - 0.5/s**2).mean(axis=1)
    for e in (0.3, 1.0):
        f, r = np.maximum(W - math.exp(e), 0), np.maximum(1 - math.exp(e)*W, 0)
        est = max(f.mean(), r.mean()); se = max(f.std(), r.std())/math.sqrt(len(W))
        lo, up = shuffle_gaussian_delta_bounds(n, s, e)
        assert lo - 5*se <= est <= up + 5*se, (e, lo, est, up)

def test_log_grid_agrees_with_lattice():
    "At sigma = 2, n = 100 both constructions are valid: their certified intervals must overlap, and both be tight."
    n, e = 100, np.array([0.0, 0.1, 0.4, 0.8])
    E = np.exp(e)[:, None]
    def bounds(U, F):
        fwd = lambda L: (L.p[None, :]*np.maximum(L.values()[None, :]/n - E, 0)).sum(1)
        rev = lambda L: (L.p[None, :]*np.maximum(1 - E*L.values()[None, :]/n, 0)).sum(1) + L.z0
        return np.maximum(fwd(F), rev(F)), np.maximum(fwd(U) + U.exc/n, rev(U))
    g = bounds(_sgp._log_sum_law(n, 2.0, _sgp.UPPER), _sgp._log_sum_law(n, 2.0, _sgp.LOWER_FORWARD))
    l = shuffle_gaussian_delta_bounds(n, 2.0, e)
    assert np.all(g[0] <= l[1]*(1 + 1e-9)) and np.all(l[0] <= g[1]*(1 + 1e-9))
    assert np.all(g[1][:3] <= 1.02*g[0][:3])                # tight down to delta ~ 1e-14

def test_log_grid_laws_keep_mass_and_mean():
    for s in (0.05, 0.3, 1.2):
        for kind in (_sgp.UPPER, _sgp.LOWER_FORWARD):
            L = _sgp._log_sum_law(777, s, kind)
            assert abs(L.p.sum() - 1) < 1e-12 and abs(L.mean()/777 - 1) < 1e-12
            assert np.all(np.diff(L.x) > 0) and np.all(L.p > 0)

def test_small_sigma_properties():
    "Ordered, in [0, 1], delta non-increasing; get_delta inverts get_epsilon; composition is monotone."
    es = np.linspace(0, 12, 60)
    lo, up = shuffle_gaussian_delta_bounds(50, 0.4, es)
    assert np.all((0 <= lo) & (lo <= up) & (up <= 1)) and np.all(np.diff(up) <= 1e-15) and np.all(np.diff(lo) <= 1e-15)
    ev = sp.ShuffleGaussianEvent(500, 0.7)
    acc = sp.PldAccountant().compose(ev, 3)
    e = acc.get_epsilon(1e-7)
    assert acc.get_delta(e) <= 1e-7*(1 + 1e-9)
    assert sp.PldAccountant().compose(ev, 6).get_epsilon(1e-7) > e

def test_small_sigma_beats_rdp():
    "The issue's claim at sigma = 1: the exact epsilon is more than ten times below RDP's (27x at n = 60000)."
    ev = sp.ShuffleGaussianEvent(60_000, 1.0)
    up = sp.PldAccountant().compose(ev).get_epsilon(1e-5)
    assert 10*up < RdpAccountant().compose(ev).get_epsilon(1e-5)
    assert sp.PldAccountant().compose(ev, 100).get_epsilon(1e-5) < RdpAccountant().compose(ev, 100).get_epsilon(1e-5)

def test_small_sigma_subsampled_and_checkin():
    "The mixtures of notebook 13 accept small sigma: ordered, and sampling 10% of 1000 users helps."
    from shuffle_privacy.mechanisms.shuffle_gaussian.subsampled_pld import subsampled_shuffle_gaussian_pld, shuffled_checkin_pld
    full = shuffle_gaussian_pld(100, 1.0).delta_bounds(0.5)
    sub = subsampled_shuffle_gaussian_pld(1000, 100, noise_multiplier=1.0).delta_bounds(0.5)
    chk = shuffled_checkin_pld(200, 0.5, noise_multiplier=1.0, max_buckets=4).delta_bounds(0.5)
    assert 0 <= sub[0] <= sub[1] < full[0] <= full[1] and 0 <= chk[0] <= chk[1] <= 1

def _mp_delta(n, s, e):
    "n = 1, 2, 3 by mpmath: both directions as E over (W_1, .., W_n-1) of a lognormal call/put, split at the kinks."
    import mpmath as mp
    mp.mp.dps = 15
    s, E = mp.mpf(s), mp.exp(mp.mpf(e))
    w = lambda z: mp.exp(z/s - 1/(2*s*s))
    def call(t):                                     # E[(W - t)_+]
        if t <= 0: return 1 - t
        a = s*mp.log(t) + 1/(2*s)
        return mp.ncdf(-(a - 1/s)) - t*mp.ncdf(-a)
    def put(t):                                      # E[(t - W)_+] = t Φ(a) - Φ(a - 1/s)
        if t <= 0: return mp.mpf(0)
        a = s*mp.log(t) + 1/(2*s)
        return t*mp.ncdf(a) - mp.ncdf(a - 1/s)
    top = 14 + 1/s                                   # E[W; .] weighs z near 1/s
    def pts(t):                                      # [-14, top], split where W = t (the kink), if inside
        if t <= 0: return [-14, top]
        return sorted({mp.mpf(-14), top, min(max(s*mp.log(t) + 1/(2*s), mp.mpf(-14)), top)})
    def expect(g, c, k):                             # E[g(c - W_1 - ... - W_k)]
        if k == 0: return g(c)
        return mp.quad(lambda z: mp.npdf(z)*expect(g, c - w(z), k - 1), pts(c))
    fwd = expect(call, n*E, n - 1)/n
    rev = E*expect(put, n/E, n - 1)/n
    return float(max(fwd, rev))

_n3 = pytest.mark.slow   # nested mpmath quadrature (~1 min each); n >= 3 stays checked by Monte Carlo by default
@pytest.mark.parametrize('n, s, es', [(1, 0.3, (0.0, 2.0, 8.0)), (2, 0.3, (1.5, 15.0)), (2, 3.0, (0.0, 0.5)),
                                      pytest.param(3, 3.0, (0.3,), marks=_n3), pytest.param(3, 1.0, (2.5,), marks=_n3),
                                      pytest.param(3, 0.5, (3.0,), marks=_n3)])
def test_against_mpmath(n, s, es):
    "n = 1, 2, 3 by mpmath (the lattice at sigma = 3, the log-scale grid below 2): inside the interval, within 2%."
    lo, up = shuffle_gaussian_delta_bounds(n, s, np.array(es))
    for e, l, u in zip(es, lo, up):
        ex = _mp_delta(n, s, e)
        assert l <= ex*(1 + 1e-8) and ex <= u*(1 + 1e-8), (n, s, e, l, ex, u)
        assert u <= 1.02*l, (n, s, e, l, u)

def test_n1_far_tail_is_zero_not_nan():
    "One user, epsilon far beyond the Gaussian's support: lower 0, upper the least positive float (δ > 0 for every\n    finite ε, so 0 would not be an upper bound); never NaN, no OverflowError (mpmath overflowed at ε = 1e300)."
    lo, up = shuffle_gaussian_delta_bounds(1, 0.05, np.array([1e6, 1e300]))
    assert np.all(lo == 0) and np.all(up == 5e-324) and not np.isnan(up).any()
    lo, up = shuffle_gaussian_delta_bounds(1, 3.0, 1e10)
    assert lo == 0 and up == 5e-324

@pytest.mark.parametrize('args,word', [(((3,), -1.0, 'upper'), 'sigma'), (((3,), 0.01, 'upper'), 'sigma'),
                                       (((3,), float('nan'), 'upper'), 'sigma'), (((3,), 1.0, 'bogus'), 'kind'),
                                       (((0,), 1.0, 'upper'), 'ns')])
def test_sum_laws_bad_inputs(args, word):
    from shuffle_privacy.mechanisms.shuffle_gaussian.pld import sum_laws
    with pytest.raises(ValueError, match=word): sum_laws(*args)

@pytest.mark.parametrize('n, s', [(51, 1.0), pytest.param(700, 1.0, marks=pytest.mark.slow),
                                  pytest.param(1000, 0.5, marks=pytest.mark.slow)])
def test_sum_laws_coarse_remainder_within_the_stated_tolerance(n, s):
    """`sum_laws`' coarse remainder path (n mod 2^j on a coarser grid) against `sum_law`'s exact path (notebook 12):
    its upper law stays above the exact path's lower law in c(t) = E(S - t)_+ (that lower law is <= the true one in
    convex order, so this is the direction that matters: the upper end is not below the truth), and its largest gap
    c_upper - c_lower is at most 1.5 times the exact path's, the tolerance notebook 12 states."""
    from shuffle_privacy.mechanisms.shuffle_gaussian.pld import sum_laws, sum_law, UPPER, LOWER_FORWARD
    assert n % (1 << max((n//16).bit_length() - 1, 0)) != 0              # the remainder path is taken
    c = lambda L, t: (L.p[None, :]*np.maximum(L.values()[None, :] - t[:, None], 0)).sum(1) + L.exc
    t = n*np.exp(np.linspace(-0.5, 1.0, 61))
    (U,), (L,) = sum_laws((n,), s, UPPER), sum_laws((n,), s, LOWER_FORWARD)
    EU, EL = sum_law(n, s, UPPER), sum_law(n, s, LOWER_FORWARD)
    assert np.all(c(U, t) >= c(EL, t))
    assert np.max(c(U, t) - c(L, t)) <= 1.5*np.max(c(EU, t) - c(EL, t))
