"""Issue 11 (first part): PldAccountant for dp_accounting's standard events, checked against closed forms."""
import math
import numpy as np
import pytest
from scipy import stats
from hypothesis import given, settings, strategies as st
import dp_accounting
from dp_accounting import GaussianDpEvent, LaplaceDpEvent, RandomizedResponseDpEvent, SelfComposedDpEvent, ComposedDpEvent
import shuffle_privacy as sp
from shuffle_privacy.accounting.pld import PldAccountant, pld_of
from shuffle_privacy.accounting.rdp import RdpAccountant
from shuffle_privacy.accounting.calibrate import calibrate

def gauss_delta(z, e):
    "Exact δ(ε) of the Gaussian mechanism with noise multiplier z (Balle and Wang 2018)."
    return stats.norm.cdf(0.5/z - e*z) - math.exp(e)*stats.norm.cdf(-0.5/z - e*z)

@settings(max_examples=8)
@given(st.floats(0.3, 30.0), st.integers(1, 100), st.floats(0.0, 5.0))
def test_interval_contains_the_exact_gaussian_composition(z, k, e):
    lo, up = PldAccountant().compose(GaussianDpEvent(z), k).get_delta_bounds(e)
    ex = gauss_delta(z/math.sqrt(k), e)
    assert lo <= ex*(1 + 1e-9) + 1e-15 and ex <= up*(1 + 1e-9) + 1e-15
    assert 0 <= lo <= up <= 1

def test_laplace_pure_dp_upper_end():
    "Laplace with scale b is (1/b, 0)-DP: the upper δ at ε = 1/b is (numerically) 0."
    acc = PldAccountant().compose(LaplaceDpEvent(2.0))
    assert acc.get_delta(0.5 + 1e-3) <= 1e-9

def test_randomized_response_exact():
    p, k = 0.3, 4
    u, v = 1 - p + p/k, p/k
    e = 0.5
    exact = max(0.0, u - math.exp(e)*v)             # hockey stick on the two differing buckets
    lo, up = PldAccountant().compose(RandomizedResponseDpEvent(p, k)).get_delta_bounds(e)
    assert lo <= exact + 1e-12 and exact <= up + 1e-12

def test_pld_tighter_than_rdp_and_inverse():
    acc = PldAccountant().compose(GaussianDpEvent(5.0), 200)
    e = acc.get_epsilon(1e-6)
    assert e < RdpAccountant().compose(GaussianDpEvent(5.0), 200).get_epsilon(1e-6)
    assert acc.get_delta(e) <= 1e-6*(1 + 1e-6)

def test_composed_tree_equals_sequential():
    a = PldAccountant().compose(ComposedDpEvent([SelfComposedDpEvent(GaussianDpEvent(3.0), 5), LaplaceDpEvent(10.0)]))
    b = PldAccountant().compose(GaussianDpEvent(3.0), 5).compose(LaplaceDpEvent(10.0))
    assert a.get_epsilon(1e-5) == pytest.approx(b.get_epsilon(1e-5), rel=1e-9)

def test_calibrate_with_pld():
    s = calibrate(lambda s: SelfComposedDpEvent(GaussianDpEvent(s), 50), 1.0, 1e-6, make_accountant=PldAccountant, rtol=1e-4)
    assert PldAccountant().compose(GaussianDpEvent(s), 50).get_epsilon(1e-6) <= 1.0
    s_rdp = calibrate(lambda s: SelfComposedDpEvent(GaussianDpEvent(s), 50), 1.0, 1e-6, rtol=1e-4)
    assert s < s_rdp                                 # exact accounting needs less noise

def test_unsupported_and_bad_input():
    with pytest.raises(sp.UnsupportedEventError, match='LaplaceDpEvent'):
        PldAccountant().compose(dp_accounting.PoissonSampledDpEvent(0.1, LaplaceDpEvent(1.0)))
    with pytest.raises(sp.UnsupportedEventError, match='SampledWithoutReplacementDpEvent'):
        PldAccountant().compose(dp_accounting.SampledWithoutReplacementDpEvent(10, 2, GaussianDpEvent(1.0)))
    with pytest.raises(ValueError, match="noise_multiplier"):      # below 0.05 the PLD refuses (float64 range)
        PldAccountant().compose(sp.ShuffleGaussianEvent(100, 0.04))
    with pytest.raises(ValueError, match='target_delta'): PldAccountant().get_epsilon(0.0)
    with pytest.raises(ValueError, match='target_epsilon'): PldAccountant().get_delta(-1.0)
    with pytest.raises(ValueError, match='neighboring_relation'):
        PldAccountant(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_SPECIAL)
    assert PldAccountant().get_epsilon(1e-6) == 0.0 and PldAccountant().get_delta(0.0) == 0.0

@pytest.mark.parametrize('q, z', [(0.1, 1.0), (0.5, 2.0), (1.0, 0.8)])
def test_poisson_gaussian_replace_one_against_quadrature(q, z):
    "The replace-one pair (1-q)N(0) + qN(-1) vs (1-q)N(0) + qN(1), z = noise multiplier: delta by quadrature."
    from scipy import integrate, stats
    import dp_accounting
    from shuffle_privacy.accounting.pld import pld_of
    pair = pld_of(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), 1e-4)
    p = lambda x: (1 - q)*stats.norm.pdf(x, 0, z) + q*stats.norm.pdf(x, -1, z)
    r = lambda x: (1 - q)*stats.norm.pdf(x, 0, z) + q*stats.norm.pdf(x, 1, z)
    for e in (0.05, 0.3, 1.0):
        ref = integrate.quad(lambda x: max(p(x) - math.exp(e)*r(x), 0.0), -40*z, 40*z, points=[-1, 0, 1],
                             limit=400, epsabs=1e-14)[0]
        lo, up = pair.delta_bounds(e)
        assert lo - 1e-9 <= ref <= up + 1e-9, (e, lo, ref, up)

def test_adaptive_grid_inverse_supports_and_profile_lower_end():
    "get_delta(get_epsilon(d)) <= d with the adaptive grid; supports() looks inside Poisson; profiles: lower end 0."
    acc = PldAccountant().compose(GaussianDpEvent(1e4))
    for d in (1e-5, 1e-7):
        assert acc.get_delta(acc.get_epsilon(d)) <= d
    assert len(acc._fine) <= 2                                   # only the two finest grids are kept
    assert not PldAccountant().supports(dp_accounting.PoissonSampledDpEvent(0.1, LaplaceDpEvent(1.0)))
    assert PldAccountant().supports(dp_accounting.PoissonSampledDpEvent(0.1, GaussianDpEvent(1.0)))
    ev = sp.ShuffledPNSGDEvent(n=1000, L=1.0, sigma=2.0, eta=0.05, diameter=1.0, beta=1.0, rho=0.0)
    lo, up = PldAccountant().compose(ev).compose(GaussianDpEvent(5.0)).get_epsilon_bounds(1e-5)
    assert lo == 0.0 < up

# (100, 1e-13) and (10, 1e-12) lie between neighbours that stay (1e-12 is where the slack was needed): slow only
@pytest.mark.parametrize('k, d', [(100, 1e-10), (100, 1e-12), pytest.param(100, 1e-13, marks=pytest.mark.slow),
                                  pytest.param(10, 1e-12, marks=pytest.mark.slow), (10, 1e-14), (10, 1e-6)])
def test_interval_holds_at_small_delta_against_mpmath(k, d):
    """k Gaussian(1) rounds = one Gaussian with mu = sqrt(k): the interval contains mpmath's exact epsilon even where
    dp_accounting's FFT roundoff (~1e-15) is comparable to delta (it did not at 1e-12 before the slack)."""
    import mpmath as mp
    mu = math.sqrt(k)
    from scipy import optimize
    mp.mp.dps = 40
    g = lambda e: float(mp.log(mp.ncdf(mu/2 - e/mu) - mp.exp(e)*mp.ncdf(-mu/2 - e/mu)) - mp.log(d))
    ex = optimize.brentq(g, 1e-9, 20*mu + mu*mu, xtol=1e-13, rtol=1e-14)
    acc = PldAccountant().compose(GaussianDpEvent(1.0), k)
    lo, up = acc.get_epsilon_bounds(d)
    assert lo <= ex <= up, (lo, ex, up)
    if up < math.inf: assert acc.get_delta(up) <= d

@pytest.mark.parametrize('grid', [None, pytest.param(1e-4, marks=pytest.mark.slow)])   # None: the adaptive grid
def test_get_delta_inverts_get_epsilon_at_moderate_sigma(grid):
    acc = PldAccountant(value_discretization_interval=grid).compose(GaussianDpEvent(1.0), 10)
    for d in (1e-3, 1e-6, 1e-9):
        assert acc.get_delta(acc.get_epsilon(d)) <= d

def test_dp_accounting_losses_refuse_a_grid_too_fine_before_building():
    "Laplace(1e-3) spans 2000 nats: on a grid of 1e-7 that is 2e10 values, refused at once (not looped over)."
    from dp_accounting import LaplaceDpEvent
    from shuffle_privacy.accounting.pld_build import check_grid_size
    with pytest.raises(sp.ResourceLimitError, match='instead'):
        sp.PldAccountant(value_discretization_interval=1e-7).compose(LaplaceDpEvent(1e-3)).get_epsilon(1e-6)
    check_grid_size(1.0, 1e-6)                                  # 1e6 values: allowed
    with pytest.raises(sp.ResourceLimitError, match='instead'): check_grid_size(10.0, 1e-6)

# ---- the upper end of dp_accounting's continuous losses at grid points, against mpmath with no tolerance
def _mp_hockey(p, r, eps, a, b, kinks=()):
    "H_ε(P || R) = ∫ (p - e^ε r)_+ by mpmath quadrature, split at `kinks` and where log p - log r - ε changes sign."
    import mpmath as mp
    g = mp.e**mp.mpf(eps)
    h = lambda x: mp.log(p(x)) - mp.log(r(x)) - mp.mpf(eps)
    lo, hi = mp.mpf(a), mp.mpf(b)
    cut = lambda *xs: [-mp.inf, *sorted({*map(mp.mpf, xs), *map(mp.mpf, kinks)}), mp.inf]
    if (h(lo) > 0) == (h(hi) > 0): return mp.quad(lambda x: max(p(x) - g*r(x), 0), cut(a, b))
    for _ in range(120):                                            # bisection on the (single) sign change
        c = (lo + hi)/2
        if (h(c) > 0) == (h(lo) > 0): lo = c
        else: hi = c
    return mp.quad(lambda x: max(p(x) - g*r(x), 0), cut(a, lo, b))

def _laplace_exact(b):
    import mpmath as mp
    b = mp.mpf(b); dens = lambda loc: (lambda x: mp.e**(-abs(x - loc)/b)/(2*b))
    return lambda e: _mp_hockey(dens(0), dens(1), e, -1, 2, kinks=(0, 1))

def _mixture_exact(q, z, relation):
    "Both directions of dp_accounting's pair for PoissonSampledDpEvent(q, GaussianDpEvent(z)), the larger δ."
    import mpmath as mp
    q, z = mp.mpf(q), mp.mpf(z)
    mix = lambda m: (lambda x: (1 - q)*mp.npdf(x, 0, z) + q*mp.npdf(x, m, z))
    P, R = (mix(-1), mix(1)) if relation == dp_accounting.NeighboringRelation.REPLACE_ONE else (mix(1), mix(0))
    return lambda e: max(_mp_hockey(P, R, e, -40*z - 2, 40*z + 2), _mp_hockey(R, P, e, -40*z - 2, 40*z + 2))

def _upper_delta_exactly(pair, e):
    "δ(ε) of the pair's upper end (one factor per direction), summed in mpmath from its float masses."
    import mpmath as mp
    out = []
    for (f,) in pair.factors[0]:
        ls = (f.i0 + np.arange(len(f.p)))*mp.mpf(f.d)
        out.append(mp.mpf(f.pinf) + mp.fsum(mp.mpf(float(m))*(1 - mp.e**(mp.mpf(e) - l))
                                            for m, l in zip(f.p, ls) if l > e))
    return max(out)

_R, _A = dp_accounting.NeighboringRelation.REPLACE_ONE, dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE
_PG = dp_accounting.PoissonSampledDpEvent(0.2, GaussianDpEvent(1.0))
@pytest.mark.parametrize('event, relation, exact, grid_points', [
    (LaplaceDpEvent(0.7), _R, _laplace_exact(0.7), [1000, 1420, 1424]),
    (LaplaceDpEvent(2.0), _A, _laplace_exact(2.0), [490, 499]),
    (_PG, _R, _mixture_exact(0.2, 1.0, _R), [4800, 5600]),
    (_PG, _A, _mixture_exact(0.2, 1.0, _A), [5000])])
def test_continuous_losses_upper_end_at_grid_points(event, relation, exact, grid_points):
    """At a grid point connect-the-dots has no slack of its own: the upper end's δ there is dp_accounting's float δ,
    which cancellation put up to 2e-14 relative below the exact value (Laplace near 1/b, the replace-one mixture at
    δ ~ 1e-11) before its float error was added (notebook 05). Checked on the masses, summed exactly, and through
    the pair's certified evaluation, both with no tolerance; the margin stays below 1e-9 relative."""
    import mpmath as mp
    mp.mp.dps = 30
    d = 1e-3
    pair = pld_of(event, d, neighboring_relation=relation)
    for k in grid_points:
        e = k*d; ref = exact(e)
        for up in (_upper_delta_exactly(pair, e), pair.delta_bounds(e)[1]):
            assert ref <= up <= ref*(1 + 1e-9), (event, relation, e, float(up), float(ref))
