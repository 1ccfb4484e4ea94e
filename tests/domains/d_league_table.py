"""Domains of `shuffle_privacy.studies.league_table` (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.studies.league_table.'
DOMAINS = {
    M + 'mc_epsilon_lower_bound': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 20), sigma=log_uniform(1e-2, 1e20), rounds=ints(1, 3),
                                   delta=probability(1e-300, 0.5), trials=ints(10, 200),
                                   rng=st.one_of(st.none(), st.integers(0, 2**31)))),
        kind='epsilon', max_examples=8,
        invalid=(dict(n=0, sigma=1.0, rounds=1, delta=1e-5), dict(n=3, sigma=0.0, rounds=1, delta=1e-5),
                 dict(n=3, sigma=1.0, rounds=0, delta=1e-5), dict(n=3, sigma=1.0, rounds=1, delta=1e-5, trials=5),
                 dict(n=3, sigma=1.0, rounds=1, delta=1e-5, rng='seed'))),
    M + 'shuffle_gaussian_league': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**6), sigma=log_uniform(2.0, 1e3), rounds=ints(1, 20),
                                   delta=probability(1e-12, 0.1))),
        kind='nonneg', max_examples=5, quick=1,       # a study over functions fuzzed on their own
        invalid=(dict(n=0, sigma=2.0, rounds=1), dict(n=3, sigma=-1.0, rounds=1), dict(n=3, sigma=2.0, rounds=0),
                 dict(n=3, sigma=2.0, rounds=1, delta=0.0))),
}
