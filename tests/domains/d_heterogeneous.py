"""Domains of `shuffle_privacy.mechanisms.shuffled_ldp.heterogeneous` (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints

M = 'shuffle_privacy.mechanisms.shuffled_ldp.heterogeneous.'

def _pair_ok(pair, kw):
    "δ and ε intervals in range; the lower end bounds the pair only."
    for e in (0.0, 0.5, 2.0):
        lo, up = pair.delta_bounds(e)
        assert 0.0 <= lo <= up <= 1.0, (e, lo, up)
    assert pair.lower_certified is False
    lo, up = pair.epsilon_bounds(1e-6)
    assert 0.0 <= lo <= up, (lo, up)

def _levels_ok(r, kw):
    "Merged (users, level) pairs, increasing levels, the users summing to the input's."
    assert [e for _, e in r] == sorted({float(e) for e in kw['local_epsilons']}), (r, kw)
    assert sum(c for c, _ in r) == sum(kw['group_sizes']), (r, kw)

_groups = st.integers(1, 3).flatmap(lambda m: st.fixed_dictionaries(dict(
    group_sizes=st.lists(ints(1, 50_000), min_size=m, max_size=m),
    local_epsilons=st.lists(log_uniform(1e-3, 8.0), min_size=m, max_size=m))))

DOMAINS = {
    M + 'check_levels': Domain(_groups, kind='object', check=_levels_ok, nan_params=(),
        invalid=(dict(group_sizes=[], local_epsilons=[]), dict(group_sizes=[10, 5], local_epsilons=[1.0]),
                 dict(group_sizes=[0], local_epsilons=[1.0]), dict(group_sizes=[10], local_epsilons=[8.5]),
                 dict(group_sizes=[10], local_epsilons=[0.0]))),
    M + 'heterogeneous_krr_pld': Domain(st.tuples(_groups, ints(2, 100)).map(lambda t: dict(t[0], k=t[1])),
        kind='object', check=_pair_ok, max_examples=6, quick=2, nan_params=(),
        invalid=(dict(group_sizes=[10], local_epsilons=[1.0], k=1),
                 dict(group_sizes=[10, 5], local_epsilons=[1.0, 2.0], k=3, victim_epsilon=3.0),
                 dict(group_sizes=[10], local_epsilons=[1.0], k=3, value_discretization_interval=0.0))),
}

EXEMPT = {
    M + 'HeterogeneousShuffledLDPEvent': 'an event (a dataclass); validation, PLD and accountant tested in '
                                         'tests/test_heterogeneous.py and notebook 19d',
    M + 'MAX_LEVELS': 'a constant (the cap check_levels enforces)',
}
