"""Domains of `shuffle_privacy.mechanisms.summation.exact` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.mechanisms.summation.exact.'
_p = st.one_of(log_uniform(1e-300, 0.5), log_uniform(1e-16, 0.5).map(lambda q: 1.0 - q))
_eps = st.one_of(st.just(0.0), log_uniform(1e-15, 1e4))
_m = ints(1, 10**10)                      # window ~50 sd of Bin(m, p): at most a few 1e6 points
_g = ints(1, 10**5)

def _delta_in_range(r, kw):
    assert 0.0 <= r <= 1.0

def _log_delta_ok(r, kw):
    assert r <= 0.0 and not math.isnan(r)

DOMAINS = {
    M + 'binomial_shift_log_delta': Domain(
        st.fixed_dictionaries(dict(m=_m, p=_p, k=st.one_of(_g, _g.map(lambda k: -k), st.just(0)), epsilon=_eps)),
        kind='any', check=_log_delta_ok,
        invalid=(dict(m=0, p=0.5, k=1, epsilon=1.0), dict(m=10, p=0.0, k=1, epsilon=1.0), dict(m=10, p=0.5, k=1, epsilon=-1.0),
                 dict(m=10, p=0.5, k=1.5, epsilon=1.0))),
    M + 'p1d_exact_delta': Domain(
        st.fixed_dictionaries(dict(epsilon=_eps, m=_m, p=_p, g=_g)), kind='delta',
        invalid=(dict(epsilon=-1.0, m=10, p=0.5, g=1), dict(epsilon=1.0, m=0, p=0.5, g=1), dict(epsilon=1.0, m=10, p=1.5, g=1),
                 dict(epsilon=1.0, m=10, p=0.5, g=-1))),
    M + 'p1d_exact_epsilon': Domain(
        st.fixed_dictionaries(dict(delta=probability(1e-300, 0.99), m=_m, p=_p, g=_g,
                                   tol=st.one_of(st.just(1e-20), log_uniform(1e-300, 1.0)))), kind='epsilon',
        check=lambda r, kw: math.isinf(r) or __import__('shuffle_privacy').mechanisms.summation.exact.p1d_exact_delta(r, m=kw['m'], p=kw['p'], g=kw['g']) <= kw['delta'],
        invalid=(dict(delta=0.0, m=10, p=0.5, g=1), dict(delta=1e-6, m=10, p=0.5, g=1, tol=-1.0))),
    M + 'p1d_min_b': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**8), g=ints(1, 100), epsilon=log_uniform(0.1, 20.0),
                                   delta=probability(1e-300, 0.5), p=log_uniform(1e-3, 0.5))), kind='nonneg',
        check=lambda r, kw: isinstance(r, int) and r >= 1,
        invalid=(dict(n=0, g=1, epsilon=1.0, delta=1e-6), dict(n=10, g=1, epsilon=0.0, delta=1e-6),
                 dict(n=10, g=1, epsilon=1.0, delta=1e-6, p=0.7))),
    M + 'p1d_exact_params': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**8), epsilon=log_uniform(0.1, 20.0), delta=probability(1e-300, 0.5))),
        kind='nonneg', invalid=(dict(n=0, epsilon=1.0, delta=1e-6), dict(n=10, epsilon=1.0, delta=1e-6, g=0))),
}

EXEMPT = {
    M + 'ShiftedBinomialProfile': 'a class; its methods back p1d_exact_delta/p1d_exact_epsilon, declared above',
}


def _pair_ok(pair, kw):
    for e in (0.0, 1.0):
        lo, up = pair.delta_bounds(e)
        assert 0 <= lo <= up <= 1

DOMAINS[M + 'p1d_pld'] = Domain(st.fixed_dictionaries(dict(
    m=ints(1, 10**7), p=probability(1e-3, 0.999), g=ints(1, 100),
    value_discretization_interval=log_uniform(1e-4, 1e-2))), kind='object', check=_pair_ok, max_examples=8,
    invalid=(dict(m=0, p=0.5, g=1), dict(m=10, p=1.5, g=1), dict(m=10, p=0.5, g=0)))
