"""The adaptive grid's stop rule (notebook 05: `_shrinks`, `_next_grid`, `DELTA_FLOOR`).

The accountant refines the grid while the interval is wider than `rtol`, and stops as soon as a refinement does not
move it as discretisation error would: the width must shrink by √f (f the grid factor) or by half when both ends
bound the mechanism; only the upper end can tighten when the lower end bounds a dominating pair. Refinements are
counted by wrapping the pair builder `pld_of` that `PldAccountant` calls (one call per event per grid), not by time.
"""
import math
import pytest
from dp_accounting import dp_event as E, NeighboringRelation
from shuffle_privacy.accounting import pld as pld_mod
from shuffle_privacy.accounting.pld import PldAccountant, PldPair, DELTA_FLOOR, pld_of as _real_pld_of
from shuffle_privacy.accounting.pld_build import GridRangeError, check_interval
import shuffle_privacy as sp

REPLACE = NeighboringRelation.REPLACE_ONE

class _Grids(list):
    "A list that can carry a substitute pair builder."

def _two_pairs(p_up, p_lo, certified):
    "A builder whose ends bound different randomized responses (3 outputs): a gap that no grid closes."
    def build(d):
        a, b = (_real_pld_of(E.RandomizedResponseDpEvent(p, 3), d) for p in (p_up, p_lo))
        return PldPair(factors=(a.factors[0], b.factors[1]), lower_certified=certified)
    return build

@pytest.fixture
def grids(monkeypatch):
    "The grids of every pair the accountant builds (cleared by each test after `compose`); `.build` substitutes one."
    seen, real = _Grids(), pld_mod.pld_of
    def counting(event, d, *, neighboring_relation=REPLACE):
        seen.append(float(d))
        return seen.build(d) if getattr(seen, 'build', None) else real(event, d,
                                                                        neighboring_relation=neighboring_relation)
    counting.registries = real.registries                # the accountant checks support through it
    monkeypatch.setattr(pld_mod, 'pld_of', counting)
    return seen

@pytest.mark.parametrize('certified', [False, True])
@pytest.mark.parametrize('query', ['delta', pytest.param('epsilon', marks=pytest.mark.slow)])
def test_a_gap_that_cannot_close_stops_within_two_refinements(grids, certified, query):
    "Ends from noise 0.5 and 0.53: about 7% apart on every grid; at most two refinements, then stop."
    grids.build = _two_pairs(0.5, 0.53, certified)
    acc = PldAccountant(rtol=0.01).compose(E.RandomizedResponseDpEvent(0.5, 3))
    grids.clear()
    lo, up = acc.get_epsilon_bounds(1e-3) if query == 'epsilon' else acc.get_delta_bounds(0.5)
    assert 1 <= len(grids) <= 2, grids                    # it tried a finer grid, and gave up
    assert all(b < a for a, b in zip([1e-4] + grids, grids))
    assert (lo > 0) == certified                          # an uncertified lower end is reported as 0
    assert up > 0

def test_a_far_gap_does_not_refine(grids):
    "Ends far apart: the grid aimed at 1% is beyond the memory budget; no refinement at all."
    grids.build = _two_pairs(0.5, 0.9, False)
    acc = PldAccountant(rtol=0.01, memory_budget=2**26).compose(E.RandomizedResponseDpEvent(0.5, 3))
    grids.clear()
    assert acc.get_epsilon_bounds(1e-3)[0] == 0.0 and grids == []

@pytest.mark.parametrize('query', ['delta', pytest.param('epsilon', marks=pytest.mark.slow)])
def test_a_gap_that_can_close_refines_to_the_tolerance(grids, query, rtol=1e-5):
    "Randomized response (certified): the width on the 1e-4 grid is about 7e-5 relative; it reaches rtol = 1e-5."
    acc = PldAccountant(rtol=rtol).compose(E.RandomizedResponseDpEvent(0.5, 3))
    grids.clear()
    lo, up = acc.get_epsilon_bounds(1e-3) if query == 'epsilon' else acc.get_delta_bounds(0.5)
    assert 1 <= len(grids) <= 6 and up - lo <= rtol*up, (grids, lo, up)

@pytest.mark.slow
def test_gaussian_refines_to_the_tolerance(grids):
    "The Gaussian at σ = 3 (certified): 1e-4 is too coarse for rtol = 2e-5; one or two refinements reach it."
    acc = PldAccountant(rtol=2e-5).compose(E.GaussianDpEvent(3.0))
    grids.clear()
    lo, up = acc.get_epsilon_bounds(1e-6)
    assert 1 <= len(grids) <= 2 and up - lo <= 2e-5*up, (grids, lo, up)

def test_delta_floor_stops_before_refining(grids):
    "δ(4) of the Gaussian at σ = 3 is about 3e-34: the interval is 40% wide, but below DELTA_FLOOR; no refinement."
    acc = PldAccountant(rtol=0.01).compose(E.GaussianDpEvent(3.0))
    grids.clear()
    lo, up = acc.get_delta_bounds(4.0)
    assert up <= DELTA_FLOOR and up - lo > 0.01*up and grids == []

def test_shrinks_rule():
    "`_shrinks` directly: √f or one half for certified ends; the upper end's move for uncertified ones."
    s = pld_mod._shrinks
    assert s(True, 0.01, 0.01, (1.0, 1.2), (1.0, 1.02))           # width 0.2 -> 0.02 <= 0.5*0.2
    assert not s(True, 0.01, 0.01, (1.0, 1.2), (1.0, 1.15))       # 0.15 > max(0.1, 0.5)*0.2
    assert s(True, 0.01, 0.64, (1.0, 1.2), (1.0, 1.16))           # √0.64 = 0.8: 0.16 <= 0.8*0.2
    assert not s(False, 0.01, 0.1, (1.0, 1.2), (1.0, 1.199))      # upper moved 0.001 <= 0.5*0.01*1.2
    assert s(False, 0.01, 0.1, (1.0, 1.2), (1.0, 1.1))
    assert s(True, 0.01, 0.1, (0.0, math.inf), (0.0, 5.0))        # an infinite width: keep going

def _refusing(exc):
    "A builder that answers on the first grid and raises `exc` on any finer one (the accountant's refinement)."
    def build(d):
        if d < 1e-4: raise exc
        return _real_pld_of(E.RandomizedResponseDpEvent(0.5, 3), d)
    return build

@pytest.mark.parametrize('exc', [sp.ResourceLimitError('too many points'),
                                 GridRangeError('value_discretization_interval must be in [1e-07, 1]')])
def test_a_grid_refusal_stops_refining(grids, exc):
    "An event that refuses the finer grid (size, or range): the interval of the coarser grid is returned."
    grids.build = _refusing(exc)
    acc = PldAccountant(rtol=1e-6).compose(E.RandomizedResponseDpEvent(0.5, 3))
    grids.clear()
    lo, up = acc.get_delta_bounds(0.5)
    assert len(grids) == 1 and grids[0] < 1e-4 and 0 < lo <= up    # one finer grid tried, refused, kept the first

def test_a_bug_in_a_pld_builder_propagates(grids):
    "A plain ValueError inside pld_of on the finer grid is a bug, not a refusal: it reaches the caller."
    grids.build = _refusing(ValueError('a bug: index out of range'))
    acc = PldAccountant(rtol=1e-6).compose(E.RandomizedResponseDpEvent(0.5, 3))
    with pytest.raises(ValueError, match='a bug') as info: acc.get_delta_bounds(0.5)
    assert not isinstance(info.value, (sp.ResourceLimitError, GridRangeError))

def test_grid_range_error_is_a_value_error():
    "check_interval's range refusal: a GridRangeError, still a ValueError for callers that catch that."
    with pytest.raises(GridRangeError, match=r'\[1e-07, 1\]'): check_interval(1e-9)
    assert issubclass(GridRangeError, ValueError)


def test_refinement_stops_when_a_finer_query_exceeds_the_fft_budget():
    "A query whose finer-grid tilt needs too large an FFT keeps the coarser interval instead of raising."
    acc = sp.PldAccountant().compose(sp.ShuffleGaussianEvent(1, 6.051), 1000)
    lo, up = acc.get_delta_bounds(6.0)                       # raised ResourceLimitError from the refinement before
    assert 0.0 <= lo <= up <= 1.0
