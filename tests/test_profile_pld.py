"""Issue 11 item 5: `profile_pld` turns a privacy-profile bound into a dominating PLD (notebook 06).

References: the Gaussian mechanism's closed-form profile and dp_accounting's own Gaussian PLD; exact enumeration of
small discrete pairs composed k times; the KOV / basic composition of single points of the PNSGD profiles."""
import dataclasses, math
import numpy as np
import pytest
from scipy import stats
from dp_accounting.pld import privacy_loss_distribution as P
import shuffle_privacy as sp
from shuffle_privacy.core import ResourceLimitError
from shuffle_privacy.accounting.profile_pld import profile_pld, _profile_pmf
from shuffle_privacy.accounting.conversions import gdp_delta, gdp_epsilon, optimal_composition_epsilon
from shuffle_privacy.accounting.calibrate import calibrate

def gauss_delta(z, e):
    "Exact δ(ε) of the Gaussian mechanism with noise multiplier z (Balle and Wang 2018), by scipy."
    return stats.norm.cdf(0.5/z - e*z) - math.exp(e)*stats.norm.cdf(-0.5/z - e*z)

# (a) the Gaussian mechanism: its exact profile in, dp_accounting's Gaussian PLD and the closed form out
@pytest.mark.parametrize('sigma', [pytest.param(0.8, marks=pytest.mark.slow), 2.0])
def test_gaussian_profile_composes_to_the_gaussian(sigma):
    pl = profile_pld(lambda e: gauss_delta(sigma, e))
    ref = P.from_gaussian_mechanism(sigma, value_discretization_interval=1e-4)
    for k in (1, 10, 100):
        a, b = (pl, ref) if k == 1 else (pl.self_compose(k), ref.self_compose(k))
        for e in (0.0, 0.5, 2.0, 5.0):
            ours, theirs, exact = a.get_delta_for_epsilon(e), b.get_delta_for_epsilon(e), gauss_delta(sigma/math.sqrt(k), e)
            assert ours >= exact*(1 - 1e-9) - 1e-15, (k, e, ours, exact)            # sound (FFT rounding aside)
            assert ours <= theirs*(1 + 2e-3) + 1e-13, (k, e, ours, theirs)         # and as tight as dp_accounting's
        for d in (1e-5, 1e-10):
            ours, theirs = a.get_epsilon_for_delta(d), b.get_epsilon_for_delta(d)
            assert ours >= gdp_epsilon(math.sqrt(k)/sigma, d)*(1 - 1e-9), (k, d, ours)   # the exact ε
            assert abs(ours - theirs) <= 1e-4*theirs + 1e-6, (k, d, ours, theirs)   # the stated tolerance: 0.01%

# (b) one round reproduces δ̂ at the grid points it keeps (a convex δ̂ keeps almost all of them)
@pytest.mark.parametrize('mu', [0.3, 1.0, 3.0])
def test_one_round_reproduces_the_profile_at_the_grid_points(mu):
    f = lambda e: gdp_delta(mu, e)
    lp, inf = _profile_pmf(f, 1e-4, None, 1e-15, 500)
    pl = profile_pld(f, max_points=500)
    pos = sorted(k for k in lp if k >= 0)
    assert len(pos) > 400
    for k in pos[::7]:
        e = k*1e-4
        got, want = pl.get_delta_for_epsilon(e), f(e)
        assert want <= got <= want*(1 + 1e-12) + 2e-15, (e, got, want)
    assert inf <= 1e-15 + 1e-15

# (c) a non-convex bound: the PLD dominates every pair whose symmetric profile is below it, alone and composed
def _pair_delta(p, q, e):
    return float(np.sum(np.maximum(p - math.exp(e)*q, 0.0)))

def _product(p, k):
    out = p
    for _ in range(k - 1): out = np.outer(out, p).ravel()
    return out

@pytest.mark.parametrize('seed', range(4))
def test_nonconvex_staircase_bound_dominates_the_pair_and_its_compositions(seed):
    rng = np.random.default_rng(seed)
    p, q = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
    prof = lambda e: max(_pair_delta(p, q, e), _pair_delta(q, p, e))
    stair = lambda e: prof(math.floor(e/0.37)*0.37) + 1e-3*(e < 1.0)   # a step function above the profile
    pl = profile_pld(stair, value_discretization_interval=1e-3, max_points=300)
    for k in (1, 2, 3):
        pk = pl if k == 1 else pl.self_compose(k)
        Pk, Qk = _product(p, k), _product(q, k)
        for e in (-0.5, 0.0, 0.1, 0.5, 1.0, 2.0):
            exact = max(_pair_delta(Pk, Qk, e), _pair_delta(Qk, Pk, e))
            assert pk.get_delta_for_epsilon(e) >= exact - 1e-12, (seed, k, e)

def test_min_of_two_profiles_is_below_both_and_dominates_a_mechanism_below_it():
    rr = lambda e0: (lambda e: max(0.0, (math.exp(e0) - math.exp(e))/(math.exp(e0) + 1)))
    both = lambda e: min(gdp_delta(1.0, e), rr(2.0)(e))
    pl = profile_pld(both)
    es = np.linspace(0, 3, 61)
    r = np.array([pl.get_delta_for_epsilon(float(e)) for e in es])
    assert np.all(r <= np.array([both(e) for e in es]) + 2e-2)            # the hull, not the bound: below at nodes
    mech = P.from_randomized_response(2/(1 + math.exp(0.5)), 2, value_discretization_interval=1e-4)
    for k in (1, 4):
        a, b = (pl, mech) if k == 1 else (pl.self_compose(k), mech.self_compose(k))
        assert all(a.get_delta_for_epsilon(e) >= b.get_delta_for_epsilon(e) for e in (0.0, 0.3, 1.0, 2.5))

# (d) the PNSGD events through PldAccountant
GAUSS = dict(n=10**4, L=10.0, sigma=60.0, eta=0.1, diameter=1.0, beta=0.5, rho=0.0)

def _best_single_point(ev, E, delta, grid, ds=None):
    "KOV (optimal composition of one (ε1, δ1) point) and basic composition, best over a grid of ε1 (δ1s: ds)."
    kov, basic = math.inf, math.inf
    for e1, d1 in zip(grid, ds if ds is not None else map(ev.delta, grid)):
        if E*d1 < delta:
            kov = min(kov, optimal_composition_epsilon(e1, d1, count=E, delta_total=delta))
            basic = min(basic, E*e1)
    return kov, basic

def test_pnsgd_events_compose_monotonically_and_beat_single_point_routes():
    ev = sp.ShuffledPNSGDEvent(**GAUSS)
    grid = np.linspace(0.01, 3.0, 120)
    ds, prev = [ev.delta(e1) for e1 in grid], 0.0
    for E in (1, 2, 5, 20):
        lo, up = sp.PldAccountant().compose(ev, count=E).get_epsilon_bounds(1e-5)
        kov, basic = _best_single_point(ev, E, 1e-5, grid, ds)
        assert 0 <= lo <= up and up >= prev
        assert up <= kov*(1 + 1e-6) and kov <= basic*(1 + 1e-12)
        prev = up
    assert up < 0.1*kov                                                 # and by a wide margin at 20 epochs
    # a single run: the PLD's ε is the profile's own ε, up to the interpolation between grid points
    assert ev.epsilon(1e-5) <= sp.PldAccountant().compose(ev).get_epsilon(1e-5) <= ev.epsilon(1e-5)*(1 + 1e-3)

ON = dict(i=1, L=1.0, eta=0.05, alpha=2.0, C1=1.0, C2=1.0, beta=1.0, rho=0.0, n=10**4)

@pytest.mark.parametrize('ev', [
    sp.ShuffledLaplacePNSGDEvent(n=1000, L=1.0, v=1.0, eta=0.05, a=0.0, b=1.0, beta=1.0, rho=0.0),
    sp.RandomlyStoppedPNSGDEvent(n=10**6, L=1.0, sigma=2.0, eta=0.05, diameter=1.0, beta=1.0, rho=0.0),
    sp.OnlineGaussianPNSGDEvent(**ON, diameter=1.0), sp.OnlineLaplacePNSGDEvent(**ON, a=0.0, b=1.0)],
    ids=['laplace', 'randomly_stopped', 'online_gaussian', 'online_laplace'])
def test_other_profile_events(ev):
    pair = sp.pld_of(ev, 1e-3)                                          # once: some δ̂ are slow
    eps = [pair.epsilon_bounds(1e-5)[1], pair.self_compose(3).epsilon_bounds(1e-5)[1]]
    basic = [E*ev.epsilon(1e-5/E) for E in (1, 3)]
    assert 0 <= eps[0] <= eps[1]
    assert eps[0] >= ev.epsilon(1e-5)*(1 - 1e-9)                        # one run: never below the profile itself
    assert eps[1] <= basic[1]*(1 + 1e-3)

def test_calibrate_and_rdp_refusal():
    make = lambda s: sp.ShuffledPNSGDEvent(**{**GAUSS, 'sigma': s})
    s = calibrate(make, 1.0, 1e-5, make_accountant=lambda: sp.PldAccountant(value_discretization_interval=1e-2
            ), bracket=(1.0, 60.0), rtol=1e-2)
    assert sp.PldAccountant(value_discretization_interval=1e-2).compose(make(s)).get_epsilon(1e-5) <= 1.0
    assert sp.PldAccountant(value_discretization_interval=1e-2).compose(make(s/1.05)).get_epsilon(1e-5) > 1.0
    with pytest.raises(sp.UnsupportedEventError, match='PldAccountant'):
        sp.RdpAccountant().compose(make(s))
    assert sp.PldAccountant().supports(make(s))

# (e) bad inputs
@pytest.mark.parametrize('kw, msg', [
    (dict(delta_fn=0.5), 'delta_fn'),
    (dict(value_discretization_interval=0.0), 'value_discretization_interval'),
    (dict(value_discretization_interval=2.0), 'value_discretization_interval'),
    (dict(epsilon_max=0.0), 'epsilon_max'), (dict(epsilon_max=101.0), 'epsilon_max'),
    (dict(epsilon_max=math.nan), 'epsilon_max'),
    (dict(tail_delta=0.0), 'tail_delta'), (dict(tail_delta=1.0), 'tail_delta'),
    (dict(max_points=0), 'max_points'), (dict(max_points=2.5), 'max_points'),
    (dict(delta_fn=lambda e: math.nan), r'delta_fn\(0.0\)'),
    (dict(delta_fn=lambda e: -1e-3), r'delta_fn\(0.0\)'),
    (dict(delta_fn=lambda e: 'x'), r'delta_fn\(0.0\)')])
def test_bad_inputs(kw, msg):
    calls = []
    def f(e):
        calls.append(e); return gdp_delta(1.0, e)
    kw = {'delta_fn': f, **kw}
    with pytest.raises(ValueError, match=msg):
        profile_pld(**kw)
    if kw['delta_fn'] is f: assert not calls                            # refused before any work

def test_too_large_a_support_is_refused_with_an_alternative():
    with pytest.raises(ResourceLimitError, match='instead'):
        profile_pld(lambda e: 0.5, value_discretization_interval=1e-7, epsilon_max=100.0)

def test_values_above_one_and_constant_profiles():
    pl = profile_pld(lambda e: 2.0)                                    # read as 1: no privacy
    assert pl.get_delta_for_epsilon(5.0) == pytest.approx(1.0, abs=1e-12)
    pl = profile_pld(lambda e: 0.0)                                    # perfect privacy
    assert pl.get_delta_for_epsilon(0.0) <= 1e-15 and pl.get_epsilon_for_delta(1e-10) == 0.0

@dataclasses.dataclass(frozen=True)
class _Counted(sp.ProfileEvent):
    "A user's own profile event (1-GDP), with the `pld_max_points` hook; counts its δ̂ calls."
    calls: list = dataclasses.field(default_factory=list, compare=False)
    pld_max_points = 50
    def delta(self, epsilon):
        self.calls.append(epsilon); return gdp_delta(1.0, epsilon)

def test_any_profile_event_subclass_and_the_points_hook():
    ev = _Counted()
    acc = sp.PldAccountant(value_discretization_interval=1e-3).compose(ev, count=4)
    assert len(ev.calls) <= 51 + 40                                    # the grid and the ε_max search
    up = acc.get_epsilon(1e-6)
    assert up >= P.from_gaussian_mechanism(0.5, value_discretization_interval=1e-3,
                                           pessimistic_estimate=False).get_epsilon_for_delta(1e-6)   # 4 runs: μ = 2
    assert gdp_epsilon(2.0, 1e-6) <= up <= gdp_epsilon(2.0, 1e-6)*1.03              # 50 points: within 3%

def test_profile_events_compose_with_other_events():
    "A profile event inside dp_accounting's trees, beside a symmetric (Gaussian) and an asymmetric (shuffle) PLD."
    import dp_accounting
    ev = sp.ShuffledPNSGDEvent(**GAUSS)
    parts = [dp_accounting.GaussianDpEvent(5.0), ev, sp.ShuffleGaussianEvent(1000, 4.0)]
    both = sp.PldAccountant(value_discretization_interval=1e-3).compose(
            dp_accounting.ComposedDpEvent(parts)).get_epsilon(1e-6)
    alone = [sp.PldAccountant(value_discretization_interval=1e-3).compose(p).get_epsilon(1e-6) for p in parts]
    assert max(alone) <= both <= sum(sp.PldAccountant(value_discretization_interval=1e-3).compose(
            p).get_epsilon(1e-6/3) for p in parts)
    nested = sp.PldAccountant(value_discretization_interval=1e-3).compose(
            dp_accounting.SelfComposedDpEvent(ev, 3)).get_epsilon(1e-6)
    assert nested == sp.PldAccountant(value_discretization_interval=1e-3).compose(ev, count=3).get_epsilon(1e-6)
