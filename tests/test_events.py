"""Issue 10: events, rdp_of, RdpAccountant and calibrate, checked against dp_accounting and independent references."""
import dataclasses, math, subprocess, sys
import numpy as np
import pytest
import mpmath
from hypothesis import given, settings, strategies as st
import dp_accounting
from dp_accounting import (GaussianDpEvent, LaplaceDpEvent, RandomizedResponseDpEvent, SelfComposedDpEvent,
                           ComposedDpEvent, PoissonSampledDpEvent, SampledWithoutReplacementDpEvent, NoOpDpEvent,
                           NeighboringRelation as NR)
from dp_accounting.rdp import RdpAccountant as DpRdp
import shuffle_privacy as sp
from shuffle_privacy.accounting.events import (rdp_of, rdp_from_integer_orders, poisson_gaussian_rdp,
                                               wbk_subsampled_rdp, Event, ProfileEvent)
from shuffle_privacy.accounting.rdp import RdpAccountant, adaptive_orders
from shuffle_privacy.accounting.calibrate import calibrate
from shuffle_privacy.mechanisms.shuffle_gaussian.rdp import shuffle_gaussian_rdp

def dp_curve(event, orders, rel=NR.REPLACE_ONE):
    acc = DpRdp(orders=list(map(float, orders)), neighboring_relation=rel)
    return np.array(acc.compose(event)._rdp)

orders_st = st.lists(st.floats(1.01, 500.0), min_size=1, max_size=8).map(lambda v: np.array(sorted(v)))

@settings(max_examples=40)
@given(orders_st, st.floats(0.05, 100.0))
def test_gaussian_and_laplace_match_dp_accounting(o, z):
    np.testing.assert_allclose(rdp_of(GaussianDpEvent(z), o), dp_curve(GaussianDpEvent(z), o), rtol=1e-10)
    ours, theirs = rdp_of(LaplaceDpEvent(z), o), dp_curve(LaplaceDpEvent(z), o)
    np.testing.assert_allclose(ours, theirs, rtol=1e-7, atol=1e-300)

@pytest.mark.parametrize('p,k', [(0.1, 2), (0.5, 3), (0.9, 10), (1e-6, 2), (0.999, 100)])
def test_randomized_response_exact_vs_mpmath(p, k):
    mpmath.mp.dps = 40
    for a in [1.5, 2.0, 7.0, 40.0]:
        u, v = mpmath.mpf(1) - p + mpmath.mpf(p)/k, mpmath.mpf(p)/k
        ref = mpmath.log(u**a*v**(1 - a) + v**a*u**(1 - a) + (1 - u - v))/(a - 1)
        got = rdp_of(RandomizedResponseDpEvent(p, k), [a])[0]
        assert abs(got - float(ref)) <= 1e-9*float(ref) + 1e-15

def test_rr_matches_dp_accounting():
    o = np.array([1.5, 2, 10, 100])
    for p, k in [(0.3, 4), (0.8, 2)]:
        np.testing.assert_allclose(rdp_of(RandomizedResponseDpEvent(p, k), o), dp_curve(RandomizedResponseDpEvent(p, k), o),
                                   rtol=1e-8)

def test_chords_are_upper_bounds_for_a_real_order_curve():
    "Laplace's curve is known at every real order: the chords from its integer values must lie above it."
    o = np.linspace(1.05, 30, 200)
    for b in [0.3, 1.0, 5.0]:
        exact = rdp_of(LaplaceDpEvent(b), o)
        chords = rdp_from_integer_orders(o, lambda j: rdp_of(LaplaceDpEvent(b), j), max_order=30)
        assert np.all(chords >= exact*(1 - 1e-12))

def test_wbk_general_bound_vs_dp_accounting_gaussian_form():
    "dp_accounting uses WBK's forward-difference form for a Gaussian inside (tighter); the general Theorem 9 bound is"
    "never below it, equal at order 2, and within a small factor."
    o = np.array([2, 3, 5, 17, 100])
    for n, m, z in [(1000, 10, 1.0), (60000, 600, 3.0), (50, 49, 0.8)]:
        ev = SampledWithoutReplacementDpEvent(n, m, GaussianDpEvent(z))
        ours, theirs = rdp_of(ev, o), dp_curve(ev, o)
        inner = o/(2*z*z)     # the min with the unsampled curve (sound by joint convexity) can beat dp_accounting
        assert np.all(ours >= np.minimum(theirs, inner)*(1 - 1e-9))
        assert ours[0] == pytest.approx(min(theirs[0], inner[0]), rel=1e-9)
        assert np.all(ours <= 1.5*theirs)

def test_poisson_add_remove_formula_matches_dp_accounting():
    o = np.arange(2, 40)
    for q, z in [(0.01, 1.0), (0.2, 2.0), (1.0, 3.0)]:
        ev = PoissonSampledDpEvent(q, GaussianDpEvent(z))
        np.testing.assert_allclose(poisson_gaussian_rdp(o, q, z), dp_curve(ev, o, NR.ADD_OR_REMOVE_ONE), rtol=1e-8)

def _renyi_quad(P, Q, a):
    "D_a(P||Q) for 1-d densities by mpmath quadrature."
    mpmath.mp.dps = 30
    f = lambda y: P(y)**a*Q(y)**(1 - a)
    return float(mpmath.log(mpmath.quad(f, [-mpmath.inf, -5, 0, 5, mpmath.inf]))/(a - 1))

@pytest.mark.parametrize('q,z', [(0.05, 1.0), (0.3, 2.0)])
def test_poisson_replace_one_bounds_a_real_replace_one_pair(q, z):
    "A genuine replace-one pair (record x = +1 replaced by -1, norm bound 1): the bound must be above its divergence."
    phi = lambda m: (lambda y: mpmath.npdf(y, m, z))
    P = lambda y: (1 - q)*phi(0)(y) + q*phi(1)(y)
    Q = lambda y: (1 - q)*phi(0)(y) + q*phi(-1)(y)
    ev = PoissonSampledDpEvent(q, GaussianDpEvent(z))
    for a in [2.0, 4.0, 8.0]:
        assert rdp_of(ev, [a])[0] >= _renyi_quad(P, Q, a)

def test_every_curve_is_non_decreasing_in_the_order():
    o = adaptive_orders(1024)
    evs = [GaussianDpEvent(0.7), LaplaceDpEvent(0.4), RandomizedResponseDpEvent(0.2, 3),
           PoissonSampledDpEvent(0.01, GaussianDpEvent(0.9)), SampledWithoutReplacementDpEvent(100, 7, GaussianDpEvent(1.0)),
           sp.ShuffleGaussianEvent(1000, 0.8), sp.SubsampledShuffleGaussianEvent(5000, 50, 1.0)]
    for ev in evs:
        r = rdp_of(ev, o)
        assert np.all(np.diff(r) >= 0), type(ev).__name__
        assert not np.isnan(r).any()

def test_shuffle_gaussian_event_is_theorem_1():
    o = np.array([2, 3, 50, 700])
    np.testing.assert_allclose(rdp_of(sp.ShuffleGaussianEvent(500, 1.3), o), shuffle_gaussian_rdp(o, 500, 1.3),
                               rtol=1e-12)

def test_events_validate_and_name_the_field():
    for make, field in [(lambda: sp.ShuffleGaussianEvent(0, 1.0), 'num_users'),
                        (lambda: sp.ShuffleGaussianEvent(10, math.nan), 'noise_multiplier'),
                        (lambda: sp.SubsampledShuffleGaussianEvent(10, 11, 1.0), 'sample_size'),
                        (lambda: sp.ShuffledCheckInEvent(10, 1.5, 1.0), 'probability'),
                        (lambda: sp.ShuffledPNSGDEvent(n=10, L=-1.0, sigma=1.0, eta=0.1, diameter=1.0, beta=1.0,
                                                       rho=0.0), 'L')]:
        with pytest.raises(ValueError, match=field): make()

def test_events_nest_in_dp_accounting_trees_and_roundtrip():
    ev = sp.ShuffleGaussianEvent(100, 2.0)
    tree = ComposedDpEvent([SelfComposedDpEvent(ev, 3), GaussianDpEvent(5.0)])
    a = RdpAccountant().compose(tree).get_epsilon(1e-6)
    b = RdpAccountant().compose(ev, 3).compose(GaussianDpEvent(5.0)).get_epsilon(1e-6)
    assert a == pytest.approx(b, rel=1e-12)
    assert ev.to_named_tuple().num_users == 100
    # dp_accounting's own accountant refuses our event with its error type, which ours subclasses
    with pytest.raises(dp_accounting.UnsupportedEventError):
        DpRdp(neighboring_relation=NR.REPLACE_ONE).compose(ev)

def test_a_user_registered_mechanism_plugs_in():
    @dataclasses.dataclass(frozen=True)
    class MyGauss(Event):
        s: float
    with pytest.raises(sp.UnsupportedEventError, match='MyGauss'):
        RdpAccountant().compose(MyGauss(1.0))
    @sp.rdp_of.register
    def _(e: MyGauss, orders): return orders/(2*e.s**2)
    assert RdpAccountant().compose(MyGauss(1.5), 4).get_epsilon(1e-5) == pytest.approx(
        RdpAccountant().compose(GaussianDpEvent(1.5), 4).get_epsilon(1e-5), rel=1e-12)

@settings(max_examples=25)
@given(st.floats(0.3, 50.0), st.integers(1, 2000), st.floats(1e-12, 0.5))
def test_get_delta_inverts_get_epsilon(z, k, d):
    acc = RdpAccountant().compose(GaussianDpEvent(z), k)
    e = acc.get_epsilon(d)
    if e > 0:
        assert acc.get_delta(e) == pytest.approx(d, rel=1e-6)
        assert acc.get_delta(e*1.01) <= d

@settings(max_examples=20)
@given(st.floats(0.3, 50.0), st.integers(1, 500))
def test_monotone_in_count_and_delta_non_increasing(z, k):
    a1, a2 = RdpAccountant().compose(GaussianDpEvent(z), k), RdpAccountant().compose(GaussianDpEvent(z), k + 1)
    assert a1.get_epsilon(1e-6) <= a2.get_epsilon(1e-6)
    ds = [a1.get_delta(e) for e in np.linspace(0, 20, 15)]
    assert all(x >= y for x, y in zip(ds, ds[1:])) and all(0 <= x <= 1 for x in ds)

def test_adaptive_orders_never_worse_than_dp_accounting():
    for z, k in [(0.8, 1), (5.0, 100), (100.0, 1), (1000.0, 1), (0.5, 10000)]:
        ours = RdpAccountant().compose(GaussianDpEvent(z), k).get_epsilon(1e-7)
        theirs = DpRdp(neighboring_relation=NR.REPLACE_ONE).compose(GaussianDpEvent(z), k).get_epsilon(1e-7)
        assert ours <= theirs*(1 + 1e-10)

def test_profile_events_are_refused_by_rdp_with_a_pointer():
    ev = sp.ShuffledPNSGDEvent(n=100, L=1.0, sigma=1.0, eta=0.1, diameter=1.0, beta=1.0, rho=0.0)
    with pytest.raises(sp.UnsupportedEventError, match='PldAccountant'):
        RdpAccountant().compose(ev)
    assert not RdpAccountant().supports(ComposedDpEvent([GaussianDpEvent(1.0), ev]))

def test_calibrate_noise_and_rounds_meet_the_target():
    make = lambda s: sp.ShuffleGaussianEvent(2000, s)
    s = calibrate(make, 0.5, 1e-6, rtol=1e-8)
    eps = lambda s: RdpAccountant().compose(make(s)).get_epsilon(1e-6)
    assert eps(s) <= 0.5 < eps(s*(1 - 1e-6))
    k = calibrate(lambda k: SelfComposedDpEvent(sp.ShuffleGaussianEvent(2000, 1.0), k), 1.0, 1e-6, discrete=True)
    e = lambda k: RdpAccountant().compose(sp.ShuffleGaussianEvent(2000, 1.0), k).get_epsilon(1e-6)
    assert e(k) <= 1.0 < e(k + 1)

def test_calibrate_rejects_bad_input_before_work():
    calls = []
    def make(s):
        calls.append(s); return GaussianDpEvent(s)
    for kw in [dict(target_epsilon=0.0, target_delta=1e-6), dict(target_epsilon=1.0, target_delta=0.0),
               dict(target_epsilon=1.0, target_delta=1e-6, bracket=(2.0, 1.0)), dict(target_epsilon=math.nan,
                                                                                     target_delta=1e-6)]:
        with pytest.raises(ValueError): calibrate(make, **kw)
    assert calls == []

@pytest.fixture(scope='module')
def fresh_imports():
    """One fresh interpreter (one start-up, one import of the package, ~1.2 CPU-s saved): the heavy modules loaded
    after `import shuffle_privacy` alone, then after importing every non-experiment module too."""
    import pkgutil
    mods = [m.name for m in pkgutil.walk_packages(sp.__path__, 'shuffle_privacy.')
            if '.experiments' not in m.name and not m.name.endswith('_modidx')]
    code = ('import sys, importlib, shuffle_privacy\n'
            'top = lambda heavy: sorted(heavy & {m.split(".")[0] for m in sys.modules})\n'
            'print(top({"matplotlib", "ipywidgets", "sklearn", "torch", "tqdm"}))\n' +
            ''.join(f'importlib.import_module({m!r})\n' for m in mods) +
            'print(top({"matplotlib", "ipywidgets", "sklearn", "torch"}))')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout
    return out.strip().splitlines()

def test_top_level_import_is_light(fresh_imports):
    assert fresh_imports[0] == '[]'

def test_non_experiment_modules_import_no_plotting_or_torch(fresh_imports):
    assert fresh_imports[1] == '[]'

def test_calibrate_threshold_decides_on_epsilon_not_its_log():
    "One float above the target, log(ε/target) rounds to 0: the search must still treat the point as a miss."
    import math
    from shuffle_privacy.accounting.calibrate import _threshold
    above = math.nextafter(3.0, math.inf)
    eps = lambda x: 3.0 if x >= 2.0 else above if x >= 1.0 else 10.0      # ε falls with the noise x
    x = _threshold(eps, lambda x: eps(x) <= 3.0, 3.0, (4.0, 0.5), rtol=1e-6)
    assert eps(x) <= 3.0 and x >= 2.0
