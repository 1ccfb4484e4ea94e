"""Domains of `shuffle_privacy.mechanisms.shuffled_ldp.cheu` (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, pair_ok, log_uniform, ints

M = 'shuffle_privacy.mechanisms.shuffled_ldp.cheu.'
_p = st.one_of(log_uniform(1e-3, 1.0), st.just(1.0))
_x = st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20)

DOMAINS = {
    M + 'cheu_randomizer': Domain(st.fixed_dictionaries(
        dict(x=_x, k=ints(1, 50), r=ints(0, 50), p=_p, rng=ints(0, 2**31))), kind='probability',
        invalid=(dict(x=[1.5], k=3, r=1, p=0.5), dict(x=[0.5], k=0, r=1, p=0.5), dict(x=[0.5], k=3, r=-1, p=0.5),
                 dict(x=[0.5], k=3, r=1, p=0.0), dict(x=[0.5], k=3, r=1, p=1.5))),
    M + 'cheu_count': Domain(st.fixed_dictionaries(
        dict(x=_x, k=ints(1, 10**6), r=ints(0, 10**9), p=_p, rng=ints(0, 2**31))), kind='nonneg',
        invalid=(dict(x=[-0.1], k=3, r=1, p=0.5), dict(x=[0.5], k=3, r=1, p=0.0))),
    M + 'cheu_analyzer': Domain(st.fixed_dictionaries(
        dict(count=st.just(0), n=ints(1, 10**12), k=ints(1, 10**6), r=ints(0, 10**9), p=log_uniform(1e-6, 0.999))),
        kind='finite',
        invalid=(dict(count=-1, n=5, k=2, r=1, p=0.3), dict(count=100, n=5, k=2, r=1, p=0.3),
                 dict(count=1, n=5, k=2, r=1, p=1.0), dict(count=1, n=0, k=2, r=1, p=0.3))),
    M + 'cheu_pair': Domain(st.fixed_dictionaries(
        dict(n=ints(1, 2000), k=ints(1, 20), r=ints(0, 20), p=log_uniform(1e-2, 1.0),
             value_discretization_interval=log_uniform(1e-3, 0.1))),
        kind="object", check=pair_ok, max_examples=5,
        invalid=(dict(n=0, k=3, r=1, p=0.5), dict(n=10, k=0, r=1, p=0.5), dict(n=10, k=3, r=1, p=0.0),
                 dict(n=10, k=3, r=1, p=0.5, value_discretization_interval=2.0), dict(n=10**10, k=3, r=1, p=0.5))),
    M + 'cheu_claim_rows': Domain(st.fixed_dictionaries(
        dict(value_discretization_interval=st.just(1e-3),
             claims=st.fixed_dictionaries(dict(n=ints(1, 60), k=ints(1, 5), r=ints(0, 5), p=log_uniform(0.05, 1.0),
                                               epsilon=log_uniform(0.1, 5.0), delta=log_uniform(1e-9, 0.5))).map(
            lambda c: [c]))), kind="any", max_examples=3,
        invalid=(dict(claims=[dict(n=10, k=3, r=1, p=0.5, epsilon=0.0, delta=1e-6)]),
                 dict(claims=[dict(n=10, k=3, r=1, p=0.5, epsilon=1.0, delta=0.0)]))),
    M + 'cheu_error_std': Domain(st.fixed_dictionaries(
        dict(n=ints(1, 10**12), k=ints(1, 10**6), r=ints(0, 10**9), p=log_uniform(1e-300, 0.999999))),
        kind='nonneg',
        invalid=(dict(n=0, k=2, r=1, p=0.3), dict(n=5, k=2, r=1, p=1.0), dict(n=5, k=0, r=1, p=0.3))),
    M + 'cheu_min_p': Domain(st.fixed_dictionaries(
        dict(epsilon=log_uniform(0.3, 5.0), delta=log_uniform(1e-8, 0.1), n=ints(1, 40), k=ints(1, 3), r=ints(0, 3),
             value_discretization_interval=st.just(1e-2))),
        kind='probability', max_examples=2,
        invalid=(dict(epsilon=0.0, delta=1e-6, n=10, k=2, r=1), dict(epsilon=1.0, delta=0.0, n=10, k=2, r=1),
                 dict(epsilon=1.0, delta=1e-6, n=0, k=2, r=1))),
}

EXEMPT = {
    M + 'CheuSumEvent': 'an event (a dataclass); validation, PLD, accountant and the lower end tested in '
                        'tests/test_cheu.py and tests/test_lower_end.py',
}
