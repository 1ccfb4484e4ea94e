"""Domains of `shuffle_privacy.mechanisms.shuffled_ldp.randomizers` (see tests/contract_spec.py)."""
import math
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.mechanisms.shuffled_ldp.randomizers.'
_e0 = log_uniform(1e-3, 700.0)
_d = log_uniform(1e-4, 1e-1)

def _pair_ok(pair, kw, certified=False):
    "δ and ε intervals in range, and the flag: only k-RR's pair (one actual pair as lower end) is certified."
    for e in (0.0, 0.5, 2.0):
        lo, up = pair.delta_bounds(e)
        assert 0.0 <= lo <= up <= 1.0, (e, lo, up)
    assert pair.lower_certified is certified
    lo, up = pair.epsilon_bounds(1e-6)
    assert 0.0 <= lo <= up, (lo, up)

def _pair_ok_certified(pair, kw): _pair_ok(pair, kw, certified=True)

def _vr_ok(r, kw):
    "A descriptor's (p, β, q) at a few ε0: p = q = e^ε0, 0 < β <= tanh(ε0/2)."
    for e0 in (1e-3, 1.0, 8.0, 700.0):
        p, b, q = r.variation_ratio(e0)
        assert p == q == math.exp(e0) and 0.0 < b <= math.tanh(e0/2), (e0, p, b, q)

def _vr_kw(draw_p=log_uniform(1.0 + 1e-6, 2980.0)):
    "(p, β, q) with β in (0, (p-1)/(p+1)] and q >= p (valid for the pair)."
    return st.tuples(draw_p, st.floats(1e-6, 1.0)).map(
        lambda t: dict(p=t[0], beta=t[1]*(t[0] - 1)/(t[0] + 1), q=t[0]))

_none = st.fixed_dictionaries({})

def _two_class():
    "The randomizers blanket_pair_pld takes, with valid parameters."
    from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
    return st.one_of(
        ints(2, 10**4).map(R.k_rr), ints(2, 10**4).map(R.local_hash),
        ints(2, 10**4).flatmap(lambda d: ints(1, d - 1).map(lambda k: R.subset_selection(d, k))),
        ints(2, 10**4).flatmap(lambda K: ints(1, 2*K//3).map(lambda s: R.hadamard_response(K, s))),
        ints(2, 10**4).flatmap(lambda K: ints(1, K//2).map(lambda s: R.hadamard_response(K, s, disjoint=True))),
        st.sampled_from([R.unary_encoding(), R.optimized_unary_encoding()]))

def _bad_randomizers():
    from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
    return R.k_rr(3), R.laplace(), R.hadamard_response(8, 7)
DOMAINS = {
    M + 'check_local_epsilon': Domain(st.fixed_dictionaries(dict(local_epsilon=_e0)), kind='epsilon',
        invalid=(dict(local_epsilon=0.0), dict(local_epsilon=701.0), dict(local_epsilon=-1.0))),
    **{M + f: Domain(_none, kind='object', check=_vr_ok) for f in
       ('generic', 'binary_rr', 'laplace', 'piecewise', 'unary_encoding', 'optimized_unary_encoding')},
    M + 'k_rr': Domain(st.fixed_dictionaries(dict(k=ints(2, 10**9))), kind='object', check=_vr_ok,
        invalid=(dict(k=1), dict(k=0))),
    M + 'local_hash': Domain(st.fixed_dictionaries(dict(l=ints(2, 10**9))), kind='object', check=_vr_ok,
        invalid=(dict(l=1),)),
    M + 'subset_selection': Domain(ints(2, 10**6).flatmap(lambda d: st.fixed_dictionaries(dict(d=st.just(d), k=ints(1, d - 1)))),
        kind='object', check=_vr_ok, invalid=(dict(d=1, k=1), dict(d=5, k=5), dict(d=5, k=0))),
    M + 'hadamard_response': Domain(ints(2, 10**6).flatmap(lambda K: st.fixed_dictionaries(dict(K=st.just(K), s=ints(1, K - 1)))),
        kind='object', check=_vr_ok, invalid=(dict(K=1, s=1), dict(K=8, s=8), dict(K=8, s=5, disjoint=True))),
    M + 'collision': Domain(ints(1, 10**6).flatmap(lambda s: st.fixed_dictionaries(dict(s=st.just(s), l=ints(s + 1, 10**7)))),
        kind='object', check=_vr_ok, invalid=(dict(s=0, l=3), dict(s=3, l=3))),
    M + 'priv_unit': Domain(st.fixed_dictionaries(dict(d=ints(2, 10**9), cap_share=st.floats(0.0, 1.0))),
        kind='object', check=_vr_ok, invalid=(dict(d=1), dict(d=3, cap_share=1.5), dict(d=3, cap_share=-0.1))),
    M + 'vr_parameters': Domain(_vr_kw(), kind='probability',
        invalid=(dict(p=1.0, beta=0.1, q=2.0), dict(p=2.0, beta=0.5, q=2.0), dict(p=3.0, beta=0.4, q=0.5),
                 dict(p=1e4, beta=0.1, q=1e4))),
    M + 'binom_tail_bound': Domain(ints(0, 10**9).flatmap(lambda N: st.fixed_dictionaries(dict(
        N=st.just(N), pi=st.floats(0.0, 1.0), lo=ints(0, N), hi=st.just(N)))), kind='probability',
        invalid=(dict(N=-1, pi=0.5, lo=0, hi=0), dict(N=10, pi=1.5, lo=0, hi=10), dict(N=10, pi=0.5, lo=5, hi=4))),
    M + 'vr_pair_pld': Domain(st.tuples(_vr_kw(log_uniform(1.01, 1e3)), ints(1, 10**4), _d).map(
        lambda t: dict(t[0], n=t[1], value_discretization_interval=t[2])), kind='object', check=_pair_ok,
        max_examples=8, invalid=(dict(n=0, p=2.0, beta=0.2, q=2.0), dict(n=10, p=2.0, beta=0.2, q=2.0, flag='x'))),
    M + 'krr_blanket_pair_pld': Domain(st.fixed_dictionaries(dict(
        n=ints(1, 10**6), k=ints(2, 10**4), local_epsilon=log_uniform(1e-3, 8.0), value_discretization_interval=_d)),
        kind='object', check=_pair_ok, max_examples=8, quick=2,
        invalid=(dict(n=0, k=3, local_epsilon=1.0), dict(n=10, k=1, local_epsilon=1.0), dict(n=10, k=3, local_epsilon=9.0),
                 dict(n=10, k=3, local_epsilon=1.0, rel_block=0.0))),
    M + 'krr_pair_pld': Domain(st.fixed_dictionaries(dict(
        n=ints(2, 10**6), k=ints(3, 10**4), local_epsilon=log_uniform(1e-3, 8.0), value_discretization_interval=_d)),
        kind='object', check=_pair_ok_certified, max_examples=8, quick=2,
        invalid=(dict(n=1, k=3, local_epsilon=1.0), dict(n=10, k=2, local_epsilon=1.0), dict(n=10, k=3, local_epsilon=9.0))),
    M + 'sylvester_blanket_classes': Domain(st.fixed_dictionaries(dict(
        K=st.sampled_from([4, 8, 128, 2**20]), local_epsilon=log_uniform(1e-3, 50.0))), kind='object',
        check=lambda r, kw: 0 < r[0] <= 1 and 0 < r[1] and 0 <= r[2] and 2*r[1] + r[2] <= 1, nan_params=(),
        invalid=(dict(K=12, local_epsilon=1.0), dict(K=2, local_epsilon=1.0), dict(K=8, local_epsilon=0.0),
                 dict(K=2**1100, local_epsilon=1.0))),
    M + 'sylvester_blanket_pair_pld': Domain(st.fixed_dictionaries(dict(
        n=ints(1, 10**6), K=st.sampled_from([4, 8, 128]), local_epsilon=log_uniform(1e-3, 8.0),
        value_discretization_interval=_d)), kind='object', check=_pair_ok, max_examples=6, quick=2,
        invalid=(dict(n=0, K=8, local_epsilon=1.0), dict(n=10, K=6, local_epsilon=1.0),
                 dict(n=10, K=8, local_epsilon=9.0))),
    M + 'blanket_pair_pld': Domain(st.fixed_dictionaries(dict(
        n=ints(1, 10**6), randomizer=_two_class(), local_epsilon=log_uniform(1e-3, 8.0), value_discretization_interval=_d)),
        kind='object', check=_pair_ok, max_examples=8, quick=2,
        invalid=(dict(n=0, randomizer=_bad_randomizers()[0], local_epsilon=1.0),
                 dict(n=10, randomizer=_bad_randomizers()[1], local_epsilon=1.0),
                 dict(n=10, randomizer=_bad_randomizers()[2], local_epsilon=1.0),
                 dict(n=10, randomizer=_bad_randomizers()[0], local_epsilon=9.0),
                 dict(n=10, randomizer=_bad_randomizers()[0], local_epsilon=1.0, rel_block=0.0))),
    M + 'corner_blanket_pair_pld': Domain(st.tuples(ints(1, 10**6), log_uniform(1e-3, 10.0), st.floats(0.0, 1.0), _d).map(
        lambda t: dict(n=t[0], local_epsilon=t[1], gamma=math.exp(-t[1]) + t[2]*(1 - math.exp(-t[1])),
                       value_discretization_interval=t[3])), kind='object', check=_pair_ok, max_examples=8, quick=2,
        invalid=(dict(n=0, local_epsilon=1.0, gamma=0.5), dict(n=10, local_epsilon=10.5, gamma=0.5),
                 dict(n=10, local_epsilon=1.0, gamma=0.2), dict(n=10, local_epsilon=1.0, gamma=1.5),
                 dict(n=10, local_epsilon=1.0, gamma=0.5, rel_block=0.0))),
    M + 'corner_blanket_upper_pmf': Domain(st.tuples(ints(1, 10**6), log_uniform(1e-3, 10.0), st.floats(0.0, 1.0), _d).map(
        lambda t: dict(n=t[0], local_epsilon=t[1], gamma=math.exp(-t[1]) + t[2]*(1 - math.exp(-t[1])),
                       value_discretization_interval=t[3])), kind='object', max_examples=8, quick=2,
        check=lambda r, kw: all(v >= 0 for v in r.values()) and 1 - 1e-6 <= sum(r.values()) <= 1.01,
        invalid=(dict(n=0, local_epsilon=1.0, gamma=0.5), dict(n=10, local_epsilon=10.5, gamma=0.5),
                 dict(n=10, local_epsilon=1.0, gamma=0.2), dict(n=10, local_epsilon=1.0, gamma=1.5),
                 dict(n=10, local_epsilon=1.0, gamma=0.5, rel_block=0.0))),
    M + 'has_blanket_pair': Domain(st.fixed_dictionaries(dict(randomizer=_two_class())), kind='object',
        check=lambda r, kw: r is True),
    M + 'krr_dataset_delta': Domain(st.fixed_dictionaries(dict(
        epsilon=log_uniform(1e-6, 20.0), n=ints(2, 10**4), k=ints(3, 10**4), local_epsilon=log_uniform(1e-3, 50.0))),
        kind='delta', max_examples=10,
        invalid=(dict(epsilon=-1.0, n=10, k=3, local_epsilon=1.0), dict(epsilon=0.1, n=1, k=3, local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, k=2, local_epsilon=1.0))),
    M + 'vr_delta': Domain(st.tuples(_vr_kw(log_uniform(1.01, 1e3)), ints(1, 10**4), log_uniform(1e-6, 10.0)).map(
        lambda t: dict(t[0], n=t[1], epsilon=t[2])), kind='delta', max_examples=10,
        invalid=(dict(epsilon=-1.0, n=10, p=2.0, beta=0.2, q=2.0), dict(epsilon=0.1, n=10, p=2.0, beta=0.2, q=2.0, flag='x'))),
}

EXEMPT = {
    M + 'P_MAX': 'a constant (the largest p-ratio vr_parameters accepts), not a function',
    M + 'VRParams': 'a NamedTuple of three floats (no validation of its own); produced by variation_ratio',
    M + 'Randomizer': 'the base class; its methods are exercised through every descriptor domain above',
    M + 'LossGrid': 'an accumulator used by vr_pair_pld; tested in nbs/18_randomizers.ipynb and through vr_pair_pld',
    **{M + c: 'a frozen dataclass built by its factory function, whose domain validates it' for c in
       ('Generic', 'KRR', 'Laplace', 'Piecewise', 'SubsetSelection', 'LocalHash', 'HadamardResponse',
        'UnaryEncoding', 'Collision', 'PrivUnit')},
}

def _lower_ok(pair, kw):
    "δ interval in range; certified exactly when this module has a third-value pair for the randomizer."
    for e in (0.0, 0.3):
        lo, up = pair.delta_bounds(e)
        assert 0.0 <= lo <= up <= 1.0, (e, lo, up)

def _with_lower_kw():
    "Two-class randomizers with their blanket pair, and PrivUnit with its corner pair (the pairs randomizer_pld uses)."
    from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
    two = st.tuples(ints(2, 2000), _two_class(), log_uniform(1e-3, 8.0)).map(
        lambda t: dict(pair=R.blanket_pair_pld(t[0], t[1], t[2], value_discretization_interval=1e-3), n=t[0],
                       randomizer=t[1], local_epsilon=t[2]))
    pu = st.tuples(ints(2, 2000), ints(2, 10**4), st.floats(0.0, 1.0), log_uniform(1e-3, 8.0)).map(
        lambda t: (t[0], R.priv_unit(t[1], cap_share=t[2]), t[3])).map(
        lambda t: dict(pair=R.corner_blanket_pair_pld(t[0], t[2], t[1].blanket_gamma(t[2]), value_discretization_interval=1e-3),
                       n=t[0], randomizer=t[1], local_epsilon=t[2]))
    return st.one_of(two, pu)

DOMAINS.update({
    M + 'dataset_delta': Domain(st.fixed_dictionaries(dict(
        epsilon=log_uniform(1e-6, 20.0), n=ints(2, 10**4), randomizer=_two_class(), local_epsilon=log_uniform(1e-3, 8.0))),
        kind='delta', max_examples=10,
        invalid=(dict(epsilon=-1.0, n=10, randomizer=_bad_randomizers()[0], local_epsilon=1.0),
                 dict(epsilon=0.1, n=1, randomizer=_bad_randomizers()[0], local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, randomizer=_bad_randomizers()[1], local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, randomizer=_bad_randomizers()[0], local_epsilon=9.0))),
    M + 'with_dataset_lower': Domain(_with_lower_kw(), kind='object', check=_lower_ok, max_examples=6, quick=2,
        invalid=(dict(pair=None, n=1, randomizer=_bad_randomizers()[0], local_epsilon=1.0),
                 dict(pair=None, n=10, randomizer=_bad_randomizers()[0], local_epsilon=9.0))),
})

def _lap_or_pw():
    from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
    return st.sampled_from([R.laplace(), R.piecewise()])

DOMAINS.update({
    M + 'binned_dataset_delta': Domain(st.fixed_dictionaries(dict(
        epsilon=log_uniform(1e-6, 20.0), n=ints(2, 3000), randomizer=_lap_or_pw(), local_epsilon=log_uniform(1e-3, 8.0))),
        kind='delta', max_examples=10,
        invalid=(dict(epsilon=-1.0, n=10, randomizer=_bad_randomizers()[1], local_epsilon=1.0),
                 dict(epsilon=0.1, n=1, randomizer=_bad_randomizers()[1], local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, randomizer=_bad_randomizers()[0], local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, randomizer=_bad_randomizers()[1], local_epsilon=9.0),
                 dict(epsilon=0.1, n=10, randomizer=_bad_randomizers()[1], local_epsilon=1.0, cuts=[(0.9, 0.1, 0.5)]))),
    M + 'mixed_dataset_delta': Domain(st.fixed_dictionaries(dict(
        epsilon=log_uniform(1e-6, 20.0), n=ints(2, 2000), randomizer=_two_class(), local_epsilon=log_uniform(1e-3, 8.0),
        max_mixture=ints(0, 4))),
        kind='delta', max_examples=8,
        invalid=(dict(epsilon=-1.0, n=10, randomizer=_bad_randomizers()[0], local_epsilon=1.0),
                 dict(epsilon=0.1, n=1, randomizer=_bad_randomizers()[0], local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, randomizer=_bad_randomizers()[1], local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, randomizer=_bad_randomizers()[0], local_epsilon=9.0),
                 dict(epsilon=0.1, n=10, randomizer=_bad_randomizers()[0], local_epsilon=1.0, max_mixture=65))),
})
