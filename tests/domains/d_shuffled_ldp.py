"""Domains of `shuffle_privacy.mechanisms.shuffled_ldp.pld` (see tests/contract_spec.py)."""
import math
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.mechanisms.shuffled_ldp.pld.'
_e0 = log_uniform(1e-3, 700.0)
_e0_blanket = log_uniform(1e-3, 50.0)
_eps = st.one_of(st.just(0.0), log_uniform(1e-9, 1e3))
_d = log_uniform(1e-4, 1e-1)

def _pair_ok(pair, kw):
    for e in (0.0, 0.5, 2.0):
        lo, up = pair.delta_bounds(e)
        assert 0.0 <= lo <= up <= 1.0, (e, lo, up)
    lo, up = pair.epsilon_bounds(1e-6)
    assert 0.0 <= lo <= up, (lo, up)

def _rz(name):
    from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
    return {None: None, 'generic': R.generic(), 'binary_rr': R.binary_rr(), 'k_rr': R.k_rr(5), 'laplace': R.laplace(),
            'subset': R.subset_selection(10, 3)}[name]

def _blanket_eps_ok(r, kw):
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import blanket_delta
    assert r <= kw['local_epsilon']
    extra = {k: kw[k] for k in ('k', 'bound', 'mechanism') if k in kw}
    assert r == kw['local_epsilon'] or blanket_delta(r, n=kw['n'], local_epsilon=kw['local_epsilon'],
                                                     **extra) <= kw['delta']

DOMAINS = {
    M + 'clone_pair_pld': Domain(st.fixed_dictionaries(
        dict(n=ints(1, 10**4), local_epsilon=_e0, value_discretization_interval=_d),
        optional=dict(clone_probability=probability(1e-300, 1.0), width=st.floats(1.0, 12.0))),
        kind='object', check=_pair_ok, max_examples=10,
        invalid=(dict(n=0, local_epsilon=1.0), dict(n=10, local_epsilon=0.0), dict(n=10, local_epsilon=800.0),
                 dict(n=10, local_epsilon=1.0, clone_probability=1.5), dict(n=10, local_epsilon=1.0, width=0.5),
                 dict(n=10, local_epsilon=1.0, value_discretization_interval=2.0))),
    M + 'clones_closed_form_epsilon': Domain(st.fixed_dictionaries(
        dict(delta=probability(1e-300, 0.99), n=ints(1, 10**12), local_epsilon=_e0,
             form=st.sampled_from(['max', 'printed']))), kind='epsilon',
        check=lambda r, kw: r <= kw['local_epsilon'],
        invalid=(dict(delta=0.0, n=10, local_epsilon=1.0), dict(delta=1e-6, n=0, local_epsilon=1.0),
                 dict(delta=1e-6, n=10, local_epsilon=-1.0), dict(delta=1e-6, n=10, local_epsilon=1.0, form='x'))),
    M + 'rr_clone_probability': Domain(st.fixed_dictionaries(dict(local_epsilon=_e0)), kind='probability',
        invalid=(dict(local_epsilon=0.0), dict(local_epsilon=-2.0))),
    M + 'rr_pair_pld': Domain(st.fixed_dictionaries(
        dict(n=ints(1, 10**7), local_epsilon=_e0, value_discretization_interval=_d)),
        kind='object', check=_pair_ok, max_examples=10,
        invalid=(dict(n=0, local_epsilon=1.0), dict(n=10, local_epsilon=0.0),
                 dict(n=10, local_epsilon=1.0, value_discretization_interval=0.0))),
    M + 'blanket_delta': Domain(st.fixed_dictionaries(
        dict(epsilon=_eps, n=ints(1, 10**9), local_epsilon=_e0_blanket),
        optional=dict(k=ints(2, 10**4), bound=st.sampled_from(['bennett', 'hoeffding']),
                      mechanism=st.sampled_from(['rr', 'laplace']))), kind='delta',
        invalid=(dict(epsilon=-1.0, n=10, local_epsilon=1.0), dict(epsilon=0.1, n=0, local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, local_epsilon=60.0), dict(epsilon=0.1, n=10, local_epsilon=1.0, k=1),
                 dict(epsilon=0.1, n=10, local_epsilon=1.0, bound='x'))),
    M + 'blanket_epsilon': Domain(st.fixed_dictionaries(
        dict(delta=probability(1e-300, 0.99), n=ints(1, 10**9), local_epsilon=_e0_blanket),
        optional=dict(k=ints(2, 10**4), bound=st.sampled_from(['bennett', 'hoeffding']),
                      mechanism=st.sampled_from(['rr', 'laplace']))), kind='epsilon',
        check=_blanket_eps_ok,
        invalid=(dict(delta=0.0, n=10, local_epsilon=1.0), dict(delta=1e-6, n=10, local_epsilon=0.0),
                 dict(delta=1e-6, n=10, local_epsilon=1.0, bound='x'))),
    M + 'rr_worst_case_delta': Domain(st.fixed_dictionaries(
        dict(epsilon=_eps, n=ints(1, 300), local_epsilon=_e0)), kind='delta', max_examples=10,
        invalid=(dict(epsilon=-1.0, n=10, local_epsilon=1.0), dict(epsilon=0.1, n=0, local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, local_epsilon=0.0))),
    M + 'rr_worst_case_epsilon': Domain(st.fixed_dictionaries(
        dict(delta=probability(1e-300, 0.99), n=ints(1, 300), local_epsilon=_e0)), kind='epsilon', max_examples=10,
        check=lambda r, kw: r <= kw['local_epsilon'],
        invalid=(dict(delta=0.0, n=10, local_epsilon=1.0), dict(delta=1e-6, n=0, local_epsilon=1.0))),
    M + 'fmt21_pair_pld': Domain(st.fixed_dictionaries(
        dict(n=ints(1, 10**6), local_epsilon=_e0, value_discretization_interval=_d)),
        kind='object', check=_pair_ok, max_examples=8,
        invalid=(dict(n=0, local_epsilon=1.0), dict(n=10, local_epsilon=0.0),
                 dict(n=10, local_epsilon=1.0, value_discretization_interval=2.0))),
    M + 'generic_pair_pld': Domain(st.fixed_dictionaries(
        dict(n=ints(1, 10**6), local_epsilon=_e0, value_discretization_interval=_d)),
        kind='object', check=_pair_ok, max_examples=8,
        invalid=(dict(n=0, local_epsilon=1.0), dict(n=10, local_epsilon=0.0),
                 dict(n=10, local_epsilon=1.0, value_discretization_interval=2.0))),
    M + 'randomizer_pld': Domain(st.one_of(st.fixed_dictionaries(
        dict(n=ints(1, 600), local_epsilon=log_uniform(1e-2, 20.0), value_discretization_interval=log_uniform(1e-3, 1e-1)),
        optional=dict(randomizer=st.sampled_from([None, 'generic', 'binary_rr', 'k_rr', 'laplace', 'subset']).map(_rz),
                      local_delta=st.just(0.0))),
        st.fixed_dictionaries(                                   # (ε0, δ0)-LDP: the generic class only
        dict(n=ints(1, 600), local_epsilon=log_uniform(1e-2, 20.0), value_discretization_interval=log_uniform(1e-3, 1e-1),
             local_delta=st.one_of(st.just(0.0), log_uniform(1e-15, 0.9))),
        optional=dict(randomizer=st.sampled_from([None, 'generic']).map(_rz)))),
        kind='object', check=_pair_ok, max_examples=8,
        invalid=(dict(n=0, local_epsilon=1.0), dict(n=10, local_epsilon=0.0),
                 dict(n=10, local_epsilon=1.0, value_discretization_interval=2.0),
                 dict(n=10, local_epsilon=1.0, local_delta=1.0), dict(n=10, local_epsilon=1.0, local_delta=-1e-9),
                 dict(n=10, local_epsilon=1.0, local_delta=1e-9, randomizer=_rz('k_rr')))),
}

EXEMPT = {
    M + 'check_loss_span': 'a resource check (ResourceLimitError before allocating) called by the pair builders after they validate ε0 and the grid; exercised through their domains',
    M + 'ShuffledLDPEvent': 'an event (a dataclass); validation and PLD tested in tests/test_shuffled_ldp.py and (local_delta) tests/test_shuffled_ldp_approx.py',
    M + 'ShuffledBinaryRREvent': 'returns ShuffledLDPEvent(n, ε0, randomizer=binary_rr()); tested in tests/test_shuffled_ldp.py',
}
