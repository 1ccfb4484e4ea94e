"""Domains of `shuffle_privacy.accounting.profile_pld` (see tests/contract_spec.py)."""
import math
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability
from shuffle_privacy.accounting.conversions import gdp_delta

def _rr(e0): return lambda e: max(0.0, (math.exp(e0) - math.exp(e))/(math.exp(e0) + 1))

# profile bounds: μ-GDP, randomized response (pure DP: δ = 0 from ε0 on), their minimum (not convex), constants
_profiles = st.one_of(
    log_uniform(1e-3, 30.0).map(lambda mu: (lambda e: gdp_delta(mu, e))),
    log_uniform(1e-3, 50.0).map(_rr),
    st.tuples(log_uniform(0.1, 10.0), log_uniform(0.1, 10.0)).map(
        lambda t: (lambda e: min(gdp_delta(t[0], e), _rr(t[1])(e)))),
    st.floats(0.0, 2.0).map(lambda c: (lambda e: c)))

def _check(pld, kw, rel=0.0):
    "δ in [0, 1] and non-increasing; at ε = 0 (always a grid point) the PLD is at most the bound: the hull is below."
    v = [float(pld.get_delta_for_epsilon(e)) for e in (0.0, 0.37, 2.0, 7.0)]
    assert all(0.0 <= x <= 1.0 + 1e-12 for x in v) and all(a >= b - 1e-12 for a, b in zip(v, v[1:])), v
    assert v[0] <= min(1.0, kw['delta_fn'](0.0))*(1 + rel) + 1e-12, (v[0], kw['delta_fn'](0.0))

class _Upper:
    "A PldPair read through its certified upper δ, so that `_check` applies to both functions."
    def __init__(self, pair): self.pair = pair
    def get_delta_for_epsilon(self, e): return self.pair.delta_bounds(e)[1]

def _check_pair(pair, kw):
    assert pair.lower_certified is False
    # the certified upper end adds its float-error margin (notebook 04a): about 1e-10 relative on the default grid,
    # up to ~1e-5 for a two-point grid over [0, 100] (max_points=1), whose atoms sit at ±100
    _check(_Upper(pair), kw, rel=1e-4)

_ARGS = st.fixed_dictionaries(dict(delta_fn=_profiles, value_discretization_interval=log_uniform(1e-3, 1e-1)),
                              optional=dict(epsilon_max=log_uniform(0.01, 100.0), tail_delta=probability(1e-15, 0.5),
                                            max_points=ints(1, 400)))
_INVALID = (dict(delta_fn=0.5), dict(delta_fn=abs, value_discretization_interval=0.0),
            dict(delta_fn=abs, epsilon_max=0.0), dict(delta_fn=abs, epsilon_max=1e3),
            dict(delta_fn=abs, tail_delta=1.0), dict(delta_fn=abs, max_points=0),
            dict(delta_fn=lambda e: math.nan), dict(delta_fn=lambda e: -0.5))
DOMAINS = {
    'shuffle_privacy.accounting.profile_pld.profile_pld': Domain(_ARGS, kind='object', check=_check, max_examples=12,
                                                                  invalid=_INVALID),
    'shuffle_privacy.accounting.profile_pld.profile_pair': Domain(_ARGS, kind='object', check=_check_pair,
                                                                   max_examples=12, invalid=_INVALID),
}
EXEMPT = {}
