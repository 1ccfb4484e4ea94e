"""Domains of `shuffle_privacy.mechanisms.iteration.multi_epoch` (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.mechanisms.iteration.multi_epoch.'
fd = st.fixed_dictionaries

def _kw(eps_lo=0.0, max_count=10**4):
    epsilon = log_uniform(1e-12, 10.0) if eps_lo > 0 else st.one_of(log_uniform(1e-12, 10.0), st.just(0.0))
    return fd(dict(epsilon=epsilon, delta=st.one_of(st.just(0.0), probability(1e-300, 1e-3)), count=ints(1, max_count),
                   delta_total=probability(1e-300, 0.5)))

_bad = (dict(epsilon=1.0, delta=1e-6, count=0, delta_total=1e-5), dict(epsilon=-1.0, delta=1e-6, count=5,
                                                                       delta_total=1e-5),
        dict(epsilon=1.0, delta=1e-6, count=5, delta_total=0.0))
DOMAINS = {
    M + 'exact_epsilon': Domain(_kw(max_count=2000), kind='epsilon', max_examples=10, invalid=_bad),
    M + 'rdp_epsilon': Domain(_kw(), kind='epsilon', invalid=_bad),
    M + 'advanced_epsilon': Domain(_kw(), kind='epsilon', invalid=_bad),
    # paper 001's formula ε + log δ/(α-1) needs one order (<= 1e6) where it is >= 0: ε >= 7e-4 covers δ >= 1e-300
    M + 'paper_rdp_epsilon': Domain(fd(dict(epsilon=log_uniform(1e-3, 10.0), delta=probability(1e-300, 1e-3),
                                            count=ints(1, 10**4), delta_total=probability(1e-300, 0.5))),
                                    kind='any', max_examples=10, invalid=_bad),
}
EXEMPT = {
    M + 'pld_epsilon': 'wraps dp_accounting PLD (slow, discretisation-bound); tested in tests/test_composition.py',
    M + 'compare_routes': 'a table of the routes above (each has its own domain); tested in tests/test_composition.py',
}
