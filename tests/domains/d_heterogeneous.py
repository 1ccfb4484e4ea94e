"""Domains of `shuffle_privacy.mechanisms.shuffled_ldp.heterogeneous` (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, pair_ok, log_uniform, ints
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R

M = 'shuffle_privacy.mechanisms.shuffled_ldp.heterogeneous.'

def _pair_ok(pair, kw):
    "contract_spec.pair_ok, the ε interval ordered, and the flag: the lower end bounds the pair only."
    pair_ok(pair, kw)
    assert pair.lower_certified is False and 0.0 <= pair.epsilon_bounds(1e-6)[0] <= pair.epsilon_bounds(1e-6)[1]

def _levels_ok(r, kw):
    "Merged (users, level) pairs, increasing levels, the users summing to the input's."
    assert [e for _, e in r] == sorted({float(e) for e in kw['local_epsilons']}), (r, kw)
    assert sum(c for c, _ in r) == sum(kw['group_sizes']), (r, kw)

_family = st.sampled_from([R.binary_rr(), R.k_rr(3), R.k_rr(50), R.subset_selection(20, 4),
                           R.hadamard_response(16, 8), R.local_hash(5)])
_groups = st.integers(1, 3).flatmap(lambda m: st.fixed_dictionaries(dict(
    group_sizes=st.lists(ints(1, 50_000), min_size=m, max_size=m),
    local_epsilons=st.lists(log_uniform(1e-3, 8.0), min_size=m, max_size=m))))

DOMAINS = {
    M + 'check_levels': Domain(_groups, kind='object', check=_levels_ok, nan_params=(),
        invalid=(dict(group_sizes=[], local_epsilons=[]), dict(group_sizes=[10, 5], local_epsilons=[1.0]),
                 dict(group_sizes=[0], local_epsilons=[1.0]), dict(group_sizes=[10], local_epsilons=[8.5]),
                 dict(group_sizes=[10], local_epsilons=[0.0]))),
    M + 'heterogeneous_pld': Domain(st.tuples(_groups, _family).map(lambda t: dict(t[0], randomizer=t[1])),
        kind='object', check=_pair_ok, max_examples=6, quick=2, nan_params=(),
        invalid=(dict(group_sizes=[10], local_epsilons=[1.0], randomizer=R.unary_encoding()),
                 dict(group_sizes=[10, 5], local_epsilons=[1.0, 2.0], randomizer=R.k_rr(3), victim_epsilon=3.0),
                 dict(group_sizes=[10], local_epsilons=[1.0], randomizer=R.k_rr(3), value_discretization_interval=0.0))),
    M + 'check_family': Domain(_family.map(lambda r: dict(randomizer=r)), kind='object', nan_params=(),
        check=lambda r, kw: r is kw['randomizer'],
        invalid=(dict(randomizer=R.unary_encoding()), dict(randomizer=R.laplace()), dict(randomizer=R.generic()))),
}

EXEMPT = {
    M + 'HeterogeneousShuffledLDPEvent': 'an event (a dataclass); validation, PLD and accountant tested in '
                                         'tests/test_heterogeneous.py and notebook 19d',
}
