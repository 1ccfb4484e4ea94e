"""Domains of `shuffle_privacy.experiments.shuffle_gaussian_audit` (see tests/contract_spec.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.experiments.shuffle_gaussian_audit.'
DOMAINS = {
    M + 'shuffle_gaussian_log_lr': Domain(
        st.tuples(ints(1, 20), log_uniform(1e-2, 1e20), st.integers(0, 2**31)).map(
            lambda t: dict(y=np.random.default_rng(t[2]).normal(size=(5, t[0])), sigma=t[1])),
        kind='finite', invalid=(dict(y=np.zeros((2, 3)), sigma=0.0), dict(y=np.zeros(3), sigma=1.0))),
    M + 'audit_shuffle_gaussian': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 50), sigma=log_uniform(1e-2, 1e20), trials=ints(10, 200),
                                   delta=probability(1e-300, 0.5), rng=st.one_of(st.none(), st.integers(0, 2**31)))),
        kind='any', max_examples=8,
        invalid=(dict(n=0, sigma=1.0), dict(n=3, sigma=0.0), dict(n=3, sigma=1.0, trials=0),
                 dict(n=3, sigma=1.0, delta=0.0), dict(n=3, sigma=1.0, rng='seed'))),
}
EXEMPT = {M + 'shuffle_gaussian_sampler': 'returns a sampler closure for the audit; covered by audit_shuffle_gaussian'}
