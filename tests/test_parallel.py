"""Parallel composition (`accounting.parallel`, notebook 06a) and shuffled groups (`mechanisms.shuffled_ldp.groups`,
notebook 19a), against references computed another way: closed-form Gaussian profiles in mpmath, dp_accounting's
own RDP curves and PLDs, and exact enumeration of shuffled binary randomized response."""
import math
import numpy as np
import pytest
import dp_accounting
from dp_accounting import NeighboringRelation as NR
from dp_accounting.rdp import RdpAccountant as DpRdp
from hypothesis import given, settings, strategies as st
import mpmath as mp
import shuffle_privacy as sp
from shuffle_privacy.accounting.parallel import ParallelDpEvent, flat_children, parallel_pair, upper_profile
from shuffle_privacy.accounting.pld import pld_of
from shuffle_privacy.mechanisms.shuffled_ldp.groups import shuffled_ldp_groups, monotone_violations

G = dp_accounting.GaussianDpEvent

def gauss_delta(sigma, eps):
    "Exact δ(ε) of the Gaussian mechanism of sensitivity 1, in mpmath."
    with mp.workdps(40):
        s, e = mp.mpf(sigma), mp.mpf(eps)
        return float(mp.ncdf(1/(2*s) - e*s) - mp.exp(e)*mp.ncdf(-1/(2*s) - e*s))

def gauss_epsilon(sigma, delta):
    "Exact ε(δ) of the Gaussian mechanism, by bisection on the mpmath profile."
    lo, hi = 0.0, 200.0
    for _ in range(200):
        mid = (lo + hi)/2
        lo, hi = (mid, hi) if gauss_delta(sigma, mid) > delta else (lo, mid)
    return hi

def dp_curve(event, orders, rel=NR.REPLACE_ONE):
    "dp_accounting's own Rényi curve (its private field, read in a test only)."
    return np.array(DpRdp(orders=list(orders), neighboring_relation=rel).compose(event)._rdp)

# ---- the event

def test_validation_names_the_parameter():
    with pytest.raises(ValueError, match='events'): ParallelDpEvent([])
    with pytest.raises(TypeError, match=r'events\[1\]'): ParallelDpEvent([G(1.0), 'gauss'])
    with pytest.raises(TypeError, match='events'): ParallelDpEvent(G(1.0))
    with pytest.raises(TypeError, match='events'): ParallelDpEvent('abc')
    with pytest.raises(TypeError, match='events'): ParallelDpEvent(None)
    with pytest.raises(ValueError, match='pairs'): parallel_pair([])
    with pytest.raises(TypeError, match='pairs'): parallel_pair([1.0])

def test_event_is_a_dp_event_and_nests():
    e = ParallelDpEvent([G(1.0), G(2.0)])
    assert isinstance(e, dp_accounting.DpEvent) and e.events == (G(1.0), G(2.0))
    assert hash(e) == hash(ParallelDpEvent((G(1.0), G(2.0))))
    assert sp.ParallelDpEvent is ParallelDpEvent
    tree = dp_accounting.SelfComposedDpEvent(dp_accounting.ComposedDpEvent([e, G(3.0)]), 2)
    o = np.array([2.0, 5.0])
    np.testing.assert_allclose(sp.rdp_of(tree, o), 2*(o/2 + o/18), rtol=1e-12)

def test_flat_children():
    a, b, c = G(1.0), G(2.0), dp_accounting.LaplaceDpEvent(1.0)
    assert flat_children(ParallelDpEvent([a, ParallelDpEvent([b, ParallelDpEvent([a, c])]), b])) == (a, b, c)

# ---- RDP: the maximum, order by order

ORDERS = np.array([1.25, 2.0, 3.5, 8.0, 64.0, 512.0])

def test_rdp_is_the_max_of_dp_accountings_curves():
    kids = [G(1.3), dp_accounting.LaplaceDpEvent(0.7), dp_accounting.RandomizedResponseDpEvent(0.4, 5),
            dp_accounting.SelfComposedDpEvent(G(3.0), 4)]
    ref = np.max([dp_curve(k, ORDERS) for k in kids], axis=0)
    np.testing.assert_allclose(sp.rdp_of(ParallelDpEvent(kids), ORDERS), ref, rtol=1e-9)

def test_rdp_two_gaussians_is_the_smaller_sigma():
    np.testing.assert_allclose(sp.rdp_of(ParallelDpEvent([G(2.0), G(0.8)]), ORDERS), ORDERS/(2*0.8**2), rtol=1e-12)

def test_rdp_nested_parallel_and_composed():
    inner = ParallelDpEvent([G(4.0), dp_accounting.ComposedDpEvent([G(2.0), G(2.0)])])
    ev = ParallelDpEvent([inner, dp_accounting.LaplaceDpEvent(2.0)])
    ref = np.maximum.reduce([ORDERS/32, 2*ORDERS/8, dp_curve(dp_accounting.LaplaceDpEvent(2.0), ORDERS)])
    np.testing.assert_allclose(sp.rdp_of(ev, ORDERS), ref, rtol=1e-9)

def test_rdp_add_remove():
    kids = [dp_accounting.PoissonSampledDpEvent(0.01, G(1.0)), dp_accounting.PoissonSampledDpEvent(0.03, G(1.5))]
    o = np.array([2.0, 3.0, 8.0, 32.0])     # integer orders: there both are exact (between them, chords above)
    ref = np.max([dp_curve(k, o, NR.ADD_OR_REMOVE_ONE) for k in kids], axis=0)
    got = sp.rdp_of(ParallelDpEvent(kids), o, neighboring_relation=NR.ADD_OR_REMOVE_ONE)
    np.testing.assert_allclose(got, ref, rtol=1e-9)

@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(0.2, 20.0), min_size=1, max_size=4))
def test_rdp_property_max_and_monotone(sigmas):
    r = sp.rdp_of(ParallelDpEvent([G(s) for s in sigmas]), ORDERS)
    np.testing.assert_allclose(r, ORDERS/(2*min(sigmas)**2), rtol=1e-12)
    assert np.all(np.diff(r) >= 0)

def test_rdp_accountant_equals_worst_child():
    a = sp.RdpAccountant().compose(ParallelDpEvent([G(3.0), G(1.1), G(2.0)]), 7).get_epsilon(1e-6)
    b = sp.RdpAccountant().compose(G(1.1), 7).get_epsilon(1e-6)
    assert a == pytest.approx(b, rel=1e-12)

# ---- PLD: certified interval

def test_two_gaussians_epsilon_is_the_smaller_sigma():
    lo, up = sp.PldAccountant(value_discretization_interval=1e-3).compose(
        ParallelDpEvent([G(1.0), G(2.0)])).get_epsilon_bounds(1e-6)
    ex = gauss_epsilon(1.0, 1e-6)
    assert lo <= ex <= up <= ex*1.001, (lo, ex, up)

def test_upper_dominates_every_child_delta():
    pair = pld_of(ParallelDpEvent([G(0.7), G(1.5), dp_accounting.LaplaceDpEvent(2.0)]), 1e-2)
    for e in (0.0, 0.3, 1.0, 2.5, 5.0):
        lap = max(0.0, 1 - math.exp((e - 0.5)/2))             # Laplace b=2: δ(ε) = 1 - e^{(ε - 1/b)/2} for ε < 1/b
        ref = max(gauss_delta(0.7, e), gauss_delta(1.5, e), lap)
        lo, up = pair.delta_bounds(e)
        assert up >= ref, (e, up, ref)
        assert up <= gauss_delta(0.7, e - 2e-2) + 1e-10, (e, up)  # tight: within two grid steps of the worst child

def test_lower_end_is_certified_and_below():
    pair = pld_of(ParallelDpEvent([G(1.0), G(2.0)]), 1e-3)
    assert pair.lower_certified
    for e in (0.0, 1.0, 3.0):
        assert pair.delta_bounds(e)[0] <= gauss_delta(1.0, e)

def test_lower_not_certified_when_no_child_is():
    "Children whose lower ends bound only a dominating pair (collision's corner pair; the generic pair is cheap too)."
    col = sp.randomizers.collision(2, 9)
    ev = ParallelDpEvent([sp.ShuffledLDPEvent(n, 1.0, randomizer=col) for n in (100, 500)])
    assert not pld_of(ev, 1e-3).lower_certified
    assert sp.PldAccountant(value_discretization_interval=1e-3).compose(ev).get_epsilon_bounds(1e-6)[0] == 0.0

def test_composed_parallel_contains_the_exact_composition():
    k = 10
    lo, up = sp.PldAccountant(value_discretization_interval=1e-3).compose(
        ParallelDpEvent([G(2.0), G(1.0)]), k).get_epsilon_bounds(1e-6)
    ex = gauss_epsilon(1/math.sqrt(k), 1e-6)
    assert lo <= ex <= up <= ex*1.002, (lo, ex, up)

def test_nested_pld_matches_flat():
    flat = ParallelDpEvent([G(1.0), G(2.0), G(3.0)])
    nested = ParallelDpEvent([ParallelDpEvent([G(3.0), G(1.0)]), G(2.0), G(1.0)])
    a = pld_of(flat, 1e-2).epsilon_bounds(1e-6); b = pld_of(nested, 1e-2).epsilon_bounds(1e-6)
    assert a == pytest.approx(b, rel=1e-12)

def test_identical_children_use_the_child_pair():
    a = pld_of(ParallelDpEvent([G(1.0), G(1.0)]), 1e-3).epsilon_bounds(1e-6)
    assert a == pld_of(G(1.0), 1e-3).epsilon_bounds(1e-6)

def test_add_remove_against_dp_accounting():
    kids = [dp_accounting.PoissonSampledDpEvent(0.01, G(1.0)), dp_accounting.PoissonSampledDpEvent(0.02, G(1.0))]
    acc = sp.PldAccountant(NR.ADD_OR_REMOVE_ONE, value_discretization_interval=1e-2).compose(ParallelDpEvent(kids), 5)
    up = acc.get_epsilon(1e-6)
    ref = [dp_accounting.pld.PLDAccountant(NR.ADD_OR_REMOVE_ONE, value_discretization_interval=1e-3).compose(k, 5)
           .get_epsilon(1e-6) for k in kids]
    assert max(ref)*(1 - 1e-3) <= up <= max(ref)*1.05, (up, ref)

def test_non_private_child_and_unsupported_child():
    assert sp.PldAccountant().compose(ParallelDpEvent([G(1.0), dp_accounting.NonPrivateDpEvent()])
                                     ).get_epsilon(1e-6) == math.inf
    bad = ParallelDpEvent([G(1.0), dp_accounting.PoissonSampledDpEvent(0.1, dp_accounting.LaplaceDpEvent(1.0))])
    for acc in (sp.RdpAccountant(), sp.PldAccountant()):
        assert not acc.supports(bad)
        with pytest.raises(sp.UnsupportedEventError, match='LaplaceDpEvent'): acc.compose(bad)

def test_upper_profile_above_the_exact_gaussian():
    f = upper_profile(pld_of(G(1.0), 1e-3))
    for e in (0.0, 1.0, 4.0, 7.0):
        assert gauss_delta(1.0, e) <= f(e) <= gauss_delta(1.0, e - 1e-3) + 1e-15

def test_calibrate_rdp_and_pld():
    make = lambda s: ParallelDpEvent([G(2*s), G(s)])
    a = sp.calibrate(make, 1.0, 1e-6, rtol=1e-6)
    b = sp.calibrate(G, 1.0, 1e-6, rtol=1e-6)
    assert a == pytest.approx(b, rel=1e-5)
    c = sp.calibrate(make, 1.0, 1e-6, rtol=1e-3, bracket=(3.0, 6.0),
                     make_accountant=lambda: sp.PldAccountant(value_discretization_interval=1e-2))
    ex = 4.2247     # exact σ for (1, 1e-6), checked below by the mpmath profile
    assert gauss_delta(ex - 1e-4, 1.0) > 1e-6 > gauss_delta(ex + 1e-4, 1.0)
    assert ex*(1 - 1e-4) <= c <= ex*1.01, c

# ---- shuffled groups

def rr_exact_delta(n, e0, eps):
    "Worst-case δ(ε) of n shuffled binary RR reports (user 1: 0 vs 1), by enumeration over the others' ones."
    p = math.exp(e0)/(math.exp(e0) + 1)
    best = 0.0
    for k in range(n):                     # k of the other n-1 users hold a 1
        others = np.array([1.0])
        for prob in [p]*k + [1 - p]*(n - 1 - k):       # the law of the others' reported ones
            others = np.convolve(others, [1 - prob, prob])
        P = np.convolve(others, [1 - p, p]); Q = np.convolve(others, [p, 1 - p])   # user 1 holds 1 / holds 0
        best = max(best, float(np.sum(np.maximum(P - math.exp(eps)*Q, 0))), float(np.sum(np.maximum(Q - math.exp(eps)*P, 0))))
    return best

def test_proposition_exact_delta_falls_with_n():
    "The mechanism-level proposition of 19a, by enumeration: the exact worst case is non-increasing in n."
    for e0 in (0.5, 2.0):
        for eps in (0.0, 0.1, 0.4):
            d = [rr_exact_delta(n, e0, eps) for n in range(1, 26)]
            assert all(b <= a + 1e-15 for a, b in zip(d, d[1:])), (e0, eps, d)

def test_groups_pick_the_smallest():
    assert shuffled_ldp_groups([5000, 1000, 20_000], 1.0) == sp.ShuffledLDPEvent(1000, 1.0)
    assert shuffled_ldp_groups([300], 2.0, randomizer=sp.randomizers.k_rr(4)) == \
        sp.ShuffledLDPEvent(300, 2.0, randomizer=sp.randomizers.k_rr(4))
    assert sp.shuffled_ldp_groups is shuffled_ldp_groups

def test_groups_always_pick_the_smallest_even_where_the_bounds_are_not_monotone():
    "With no floor the bounds' float noise counts as violations; the event is still the smallest group's."
    # 100 and 10,000 (not 1000: its k-RR pair costs 2.5 CPU-s more; notebook 19a shows [1000, 10,000] as well)
    assert monotone_violations([100, 10_000], 1.0, randomizer=sp.randomizers.k_rr(4), floor=1e-300) != []
    assert shuffled_ldp_groups([10_000, 1000], 1.0) == sp.ShuffledLDPEvent(1000, 1.0)
    for old in ('verify', 'floor', 'value_discretization_interval'):         # the check's knobs are gone
        with pytest.raises(TypeError, match=old): shuffled_ldp_groups([1000, 10_000], 1.0, **{old: 1e-3})

def test_groups_bad_inputs():
    with pytest.raises(ValueError, match='group_sizes'): shuffled_ldp_groups([], 1.0)
    with pytest.raises(TypeError, match='group_sizes'): shuffled_ldp_groups(100, 1.0)
    with pytest.raises(ValueError, match=r'group_sizes\[1\]'): shuffled_ldp_groups([10, 0], 1.0)
    with pytest.raises(ValueError, match='local_epsilon'): shuffled_ldp_groups([10, 20], 0.0)
    with pytest.raises(ValueError, match='increasing'): monotone_violations([20, 10], 1.0)

@pytest.mark.slow
def test_binary_rr_bounds_monotone_across_the_switch():
    "The exact profile (n <= 1e4) and the clones pair above it: no violation above the floor."
    for e0 in (0.5, 1.0, 4.0):
        assert monotone_violations([100, 1999, 5000, 9999, 10_000, 10_001], e0, randomizer=sp.randomizers.binary_rr()) == []

def test_generic_bounds_monotone():
    assert monotone_violations([100, 1000, 10_000, 100_000], 1.0) == []

@settings(max_examples=5, deadline=None)
@given(st.lists(st.floats(0.5, 5.0), min_size=2, max_size=3), st.floats(0.0, 3.0))
def test_pld_property_upper_dominates_the_worst_gaussian(sigmas, eps):
    "The upper end is at least the exact δ of the smallest σ, and within a few grid steps of it."
    pair = pld_of(ParallelDpEvent([G(s) for s in sigmas]), 1e-2)
    lo, up = pair.delta_bounds(eps)
    s = min(sigmas)
    assert lo <= gauss_delta(s, eps) <= up <= gauss_delta(s, eps - 3e-2) + 1e-12, (sigmas, eps, lo, up)

def test_parallel_pair_refuses_children_on_different_grids():
    from shuffle_privacy.accounting.parallel import parallel_pair
    from shuffle_privacy.accounting.pld_build import gaussian_pair
    with pytest.raises(ValueError, match='one grid'): parallel_pair([gaussian_pair(1.0, 1e-3), gaussian_pair(2.0, 1e-2)])
