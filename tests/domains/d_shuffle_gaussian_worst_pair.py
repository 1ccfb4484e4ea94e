"""Domains of `shuffle_privacy.studies.shuffle_gaussian_worst_pair` (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints

M = 'shuffle_privacy.studies.shuffle_gaussian_worst_pair.'
_unit = st.floats(0.0, 1.0)
_pair = lambda n: st.tuples(st.lists(_unit, min_size=n, max_size=n), _unit).map(
    lambda t: dict(x=t[0], x_prime=[t[1]] + t[0][1:]))

DOMAINS = {
    M + 'pair_delta': Domain(st.tuples(st.integers(1, 2).flatmap(_pair), st.fixed_dictionaries(dict(
        noise_multiplier=log_uniform(0.05, 1e3), epsilon=st.one_of(log_uniform(1e-12, 50.0), st.just(0.0)),
        points=st.just(60)))).map(lambda t: t[0] | t[1]), kind='delta', max_examples=10,
        invalid=(dict(x=[0.0], x_prime=[1.0], noise_multiplier=0.0, epsilon=0.1),
                 dict(x=[0.0], x_prime=[1.0], noise_multiplier=1.0, epsilon=-0.1),
                 dict(x=[0, 0], x_prime=[1, 1], noise_multiplier=1.0, epsilon=0.1))),
    M + 'pair_delta_mc': Domain(st.tuples(st.integers(1, 4).flatmap(_pair), st.fixed_dictionaries(dict(
        noise_multiplier=log_uniform(0.05, 1e3), epsilon=st.one_of(log_uniform(1e-12, 50.0), st.just(0.0)),
        samples=st.just(200), rng=st.just(0)))).map(lambda t: t[0] | t[1]), kind='any', max_examples=10,
        invalid=(dict(x=[0.0], x_prime=[1.0], noise_multiplier=1.0, epsilon=0.1, samples=10),
                 dict(x=[0.0]*8, x_prime=[1.0] + [0.0]*7, noise_multiplier=1.0, epsilon=0.1))),
    M + 'worst_pair_search': Domain(st.fixed_dictionaries(dict(
        n=st.integers(1, 2), noise_multiplier=log_uniform(0.05, 1e3), epsilons=st.just([0.0, 1.0]),
        grid=st.just(2), points=st.just(40))), kind='any', max_examples=4,
        invalid=(dict(n=4, noise_multiplier=1.0, epsilons=[0.1]),
                 dict(n=2, noise_multiplier=1.0, epsilons=[0.1], grid=1))),
}
EXEMPT = {}
