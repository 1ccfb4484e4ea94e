"""Domains of `shuffle_privacy.mechanisms.shuffle_gaussian.rdp` (see tests/contract_spec.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints

M = 'shuffle_privacy.mechanisms.shuffle_gaussian.rdp.'
iorders = lambda hi=64: st.lists(ints(2, hi), min_size=1, max_size=5).map(lambda v: np.array(sorted(v)))
SIG = log_uniform(1e-150, 1e150)     # 300 orders of magnitude
BAD_ORDERS = (dict(orders=[1], n=5, sigma=1.0), dict(orders=[2.5], n=5, sigma=1.0))

DOMAINS = {
    M + 'shuffle_gaussian_rdp': Domain(
        st.fixed_dictionaries(dict(orders=iorders(), n=ints(1, 10**9), sigma=SIG)), kind='rdp',
        invalid=BAD_ORDERS + (dict(orders=[2], n=0, sigma=1.0), dict(orders=[2], n=5, sigma=0.0),
                              dict(orders=[2], n=5, sigma=-1.0))),
    M + 'shuffle_gaussian_log_excess': Domain(
        st.fixed_dictionaries(dict(orders=iorders(), n=ints(2, 10**9), sigma=log_uniform(1e-2, 1e150))),
        kind='any', invalid=BAD_ORDERS + (dict(orders=[2], n=5, sigma=1.0, method='x'),),
        check=lambda r, kw: None),
    M + 'shuffle_gaussian_rdp_upper_bound': Domain(
        st.fixed_dictionaries(dict(orders=iorders(10**4), sigma=log_uniform(1e-100, 1e150))), kind='rdp',
        invalid=(dict(orders=[1], sigma=1.0), dict(orders=[2], sigma=0.0))),
    M + 'integer_partitions': Domain(st.fixed_dictionaries(dict(m=ints(1, 12))), kind='object',
                                     invalid=(dict(m=0), dict(m=-3))),
    M + 'shuffle_gaussian_rdp_partitions': Domain(
        st.fixed_dictionaries(dict(order=ints(2, 12), n=ints(1, 10**9), sigma=log_uniform(1e-2, 1e150))),
        kind='epsilon', invalid=(dict(order=1, n=5, sigma=1.0), dict(order=3, n=0, sigma=1.0),
                                 dict(order=3, n=5, sigma=0.0))),
    M + 'shuffle_gaussian_rdp_curve': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**9), sigma=SIG, max_order=ints(2, 64), count=ints(1, 10**6))),
        kind='object', check=lambda r, kw: _curve_ok(r),
        invalid=(dict(n=5, sigma=1.0, max_order=1), dict(n=5, sigma=1.0, count=0))),
    M + 'shuffle_gaussian_epsilon': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**6), sigma=log_uniform(1e-2, 1e10),
                                   delta=log_uniform(1e-300, 0.5), count=ints(1, 10**4), max_order=ints(2, 512))),
        kind='epsilon', max_examples=10,
        invalid=(dict(n=5, sigma=1.0, delta=0.0), dict(n=5, sigma=1.0, delta=1.5), dict(n=0, sigma=1.0, delta=1e-5),
                 dict(n=5, sigma=1.0, delta=1e-5, count=0))),
}

def _curve_ok(r):
    o, v = r
    assert not np.isnan(v).any() and (v >= 0).all() and (np.diff(v) >= 0).all()

EXEMPT = {M + 'log_excess_miller_many': 'array kernel of shuffle_gaussian_rdp and checkin_rdp_exact (n >= order '
                                       'asserted); driven by their domains, checked against mpmath in their tests',
          M + 'ShuffleGaussianEvent': 'event class: validated in __post_init__, tested in tests/test_events.py'}
