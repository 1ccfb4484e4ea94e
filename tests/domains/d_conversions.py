"""Domains of `shuffle_privacy.accounting.conversions` (see tests/contract_spec.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability, orders

M = 'shuffle_privacy.accounting.conversions.'
fd = st.fixed_dictionaries

def _curve(draw_orders):
    "(orders, rdp) with RDP values spread over 20+ orders of magnitude, non-decreasing in the order."
    return draw_orders.flatmap(lambda o: st.lists(log_uniform(1e-12, 1e10), min_size=len(o), max_size=len(o))
                               .map(lambda r: dict(orders=o, rdp=np.sort(np.array(r)))))

def _with(base, **extra):
    return st.tuples(base, fd(extra)).map(lambda t: {**t[0], **t[1]})

curve = _curve(orders(1.0 + 1e-6, 1e4, 8))
epsilon = log_uniform(1e-12, 1e12)
eps_mech = log_uniform(1e-12, 1e3)
mu = log_uniform(1e-12, 1e6)
alpha = st.one_of(probability(1e-300, 1.0), st.just(0.0))

def _rdp_fn(o): return 0.5*np.asarray(o, float)   # a Gaussian mechanism with σ = 1

DOMAINS = {
    M + 'rdp_to_dp': Domain(_with(curve, delta=probability(1e-300, 1 - 1e-12)), kind='any',
                            invalid=(dict(orders=[2, 3], rdp=[0.1, 0.2], delta=0.0),
                                     dict(orders=[0.5, 3], rdp=[0.1, 0.2], delta=1e-5),
                                     dict(orders=[2, 3], rdp=[-0.1, 0.2], delta=1e-5))),
    M + 'mironov_rdp_to_dp': Domain(_with(curve, delta=probability(1e-300, 1 - 1e-12)), kind='any',
                                    invalid=(dict(orders=[2, 3], rdp=[0.1, 0.2], delta=1.5),)),
    M + 'rdp_to_delta': Domain(_with(curve, epsilon=st.one_of(epsilon, st.just(0.0), st.just(1e308))), kind='any',
                               check=lambda r, kw: _in01(r[0]),
                               invalid=(dict(orders=[2, 3], rdp=[0.1, 0.2], epsilon=-1.0),)),
    M + 'rdp_to_dp_growing': Domain(fd(dict(rdp_fn=st.just(_rdp_fn), delta=probability(1e-300, 0.5))),
                                    kind='any', max_examples=10,
                                    invalid=(dict(rdp_fn=_rdp_fn, delta=0.0),
                                             dict(rdp_fn=_rdp_fn, delta=1e-5, max_order=1))),
    M + 'gdp_log_delta': Domain(fd(dict(mu=mu, epsilon=epsilon)), kind='any', check=lambda r, kw: _le0(r),
                                invalid=(dict(mu=0.0, epsilon=1.0), dict(mu=1.0, epsilon=-1.0))),
    M + 'gdp_delta': Domain(fd(dict(mu=mu, epsilon=epsilon)), kind='delta',
                            invalid=(dict(mu=-1.0, epsilon=1.0), dict(mu=1.0, epsilon=-1.0))),
    M + 'gdp_epsilon': Domain(fd(dict(mu=log_uniform(1e-12, 1e3), delta=probability(1e-300, 1 - 1e-12))),
                              kind='epsilon', invalid=(dict(mu=1.0, delta=0.0), dict(mu=0.0, delta=1e-5))),
    M + 'gdp_compose': Domain(fd(dict(mu=mu, count=ints(1, 10**12))), kind='nonneg',
                              invalid=(dict(mu=0.0, count=1), dict(mu=1.0, count=0))),
    M + 'dp_tradeoff': Domain(fd(dict(epsilon=epsilon, delta=probability(1e-300, 1.0), alpha=alpha)),
                              kind='probability',
                              nan_params=('epsilon', 'delta'), invalid=(dict(epsilon=1.0, delta=0.1, alpha=1.5),)),
    M + 'gdp_tradeoff': Domain(fd(dict(mu=mu, alpha=alpha)), kind='probability', nan_params=('mu',),
                               invalid=(dict(mu=1.0, alpha=-0.1), dict(mu=-1.0, alpha=0.1))),
    M + 'pure_dp_to_rdp': Domain(st.tuples(eps_mech, orders(1.0 + 1e-6, 1e6, 6)).map(lambda t: dict(epsilon=t[0], orders=t[1])),
                                 kind='rdp', nan_params=('epsilon',), invalid=(dict(epsilon=-1.0, orders=[2.0]),)),
    M + 'basic_composition': Domain(fd(dict(epsilon=eps_mech, delta=probability(1e-300, 1.0), count=ints(1, 10**12))),
                                    kind='any', check=lambda r, kw: _in01(r[1]),
                                    invalid=(dict(epsilon=1.0, delta=1e-5, count=0), dict(epsilon=-1.0, delta=1e-5, count=1))),
    M + 'advanced_composition': Domain(fd(dict(epsilon=eps_mech, delta=probability(1e-300, 1.0), count=ints(1, 10**12),
                                               delta_prime=probability(5e-324, 1 - 1e-12))),
                                       kind='epsilon', check=lambda r, kw: _in01(r[1]),
                                       invalid=(dict(epsilon=1.0, delta=1e-5, count=10, delta_prime=0.0),)),
    M + 'heterogeneous_advanced_composition': Domain(
        fd(dict(epsilon=st.lists(eps_mech, min_size=1, max_size=6).map(np.array), delta=probability(1e-300, 1e-3),
                delta_prime=probability(1e-300, 1 - 1e-12))), kind='epsilon', nan_params=('delta', 'delta_prime'),
        check=lambda r, kw: _in01(r[1]), invalid=(dict(epsilon=[1.0], delta=1e-5, delta_prime=0.0),)),
    M + 'cjmp_composition': Domain(
        fd(dict(epsilon=st.lists(eps_mech, min_size=1, max_size=6).map(np.array), delta=probability(1e-300, 1e-3),
                delta_prime=probability(1e-300, 1 - 1e-12))), kind='epsilon', nan_params=('delta', 'delta_prime'),
        check=lambda r, kw: _in01(r[1]), invalid=(dict(epsilon=[1.0], delta=1e-5, delta_prime=1.0),)),
    M + 'optimal_composition_delta': Domain(fd(dict(epsilon=log_uniform(1e-12, 30.0), delta=probability(1e-300, 1.0),
                                                    count=ints(1,
                                                               10**9), epsilon_total=epsilon)), kind='delta', max_examples=15,
                                            invalid=(dict(epsilon=0.1, delta=0.0, count=0, epsilon_total=1.0),)),
    M + 'optimal_composition_epsilon': Domain(fd(dict(epsilon=log_uniform(1e-12, 10.0), delta=probability(1e-300, 1e-3),
                                                      count=ints(1, 10**5), delta_total=probability(1e-300, 1 - 1e-12))),
                                              kind='epsilon', max_examples=10,
                                              invalid=(dict(epsilon=0.1, delta=0.0, count=10, delta_total=0.0),)),
    M + 'composed_dp_tradeoff': Domain(fd(dict(epsilon=log_uniform(1e-12, 30.0), delta=probability(1e-300, 1.0),
                                               count=ints(1, 2000), alpha=alpha)), kind='probability', max_examples=10,
                                       nan_params=('epsilon', 'delta'),
                                       invalid=(dict(epsilon=0.1, delta=0.0, count=0, alpha=0.5),)),
}
EXEMPT = {
    M + 'GDP_RTOL': 'a constant (the certified relative accuracy of gdp_delta)',
    M + 'OrderGridWarning': 'a warning class',
    M + 'UnsoundConversionWarning': 'a warning class',
    M + 'paper001_dp_to_rdp': 'reproduces a published formula that may be negative (documented as unsound); '
                              'tested in tests/test_conversions.py',
}

def _in01(x): assert 0.0 <= x <= 1.0, x
def _le0(x): assert np.all(np.asarray(x) <= 0.0), x
