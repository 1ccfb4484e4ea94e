"""Domains of `shuffle_privacy.algorithms.sco` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.algorithms.sco.'
_pos = log_uniform(1e-100, 1e100)
_eps = log_uniform(1e-300, 1e300)
_delta = probability(1e-300, 0.999999)
_vec = lambda d: st.lists(st.one_of(st.just(0.0), _pos, _pos.map(lambda x: -x)), min_size=d, max_size=d)

def _ball_ok(r, kw):
    nrm = np.linalg.norm(r, axis=-1)
    assert np.all(nrm <= kw['R']*(1 + 1e-12)), (nrm, kw['R'])

def _clip_ok(r, kw):
    assert np.all(np.linalg.norm(r, axis=1) <= kw['L']*(1 + 1e-12))

def _int_in(lo_kw):
    def check(r, kw):
        assert isinstance(r, int) and 1 <= r <= kw[lo_kw], r
    return check

def _problem_ok(r, kw):
    assert r.excess(r.theta_star) == 0.0 or abs(r.excess(r.theta_star)) < 1e-9, r.excess(r.theta_star)
    e0 = r.excess(np.zeros(r.d))
    assert math.isfinite(e0) and e0 >= -1e-12, e0

def _rows(t):
    d, rows, scale = t
    return np.array(rows, float).reshape(-1, d)

DOMAINS = {
    M + 'clip_rows': Domain(
        st.integers(1, 6).flatmap(lambda d: st.fixed_dictionaries(dict(
            G=st.lists(_vec(d), min_size=1, max_size=4).map(np.array), L=st.one_of(st.just(0.0), _pos)))),
        kind='finite', check=_clip_ok, nan_params=('L',),
        invalid=(dict(G=[[1.0]], L=-1.0), dict(G=[1.0, 2.0], L=1.0), dict(G=[[math.inf]], L=1.0))),
    M + 'psgd_batch': Domain(          # exact constants: PVEC's variance bound needs epsilon <= 15, delta < 1/2
        st.fixed_dictionaries(dict(n=ints(1, 10**15), d=ints(1, 10**6), epsilon=_eps, delta=_delta, L=_pos,
                                   exact_constants=st.booleans())).filter(
            lambda kw: not kw['exact_constants'] or (kw['delta'] < 0.5 and kw['epsilon'] <= 15)),
        kind='nonneg', check=_int_in('n'),
        invalid=(dict(n=0, d=1, epsilon=1.0, delta=1e-6, L=1.0), dict(n=5, d=1, epsilon=0.0, delta=1e-6, L=1.0),
                 dict(n=5, d=1, epsilon=1.0, delta=0.6, L=1.0), dict(n=5, d=1, epsilon=16.0, delta=1e-6, L=1.0),
                 dict(n=5, d=1, epsilon=1.0, delta=1.0, L=1.0), dict(n=5, d=1, epsilon=1.0, delta=1e-6, L=0.0))),
    M + 'pagd_batch': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**15), d=ints(1, 10**6), V=log_uniform(1e-300, 1e300),
                                   beta=log_uniform(1e-300, 1e300), D=log_uniform(1e-300, 1e300))),
        kind='nonneg', check=_int_in('n'),
        invalid=(dict(n=0, d=1, V=1.0, beta=1.0, D=1.0), dict(n=5, d=1, V=0.0, beta=1.0, D=1.0),
                 dict(n=5, d=1, V=1.0, beta=1.0, D=-1.0))),
    M + 'smoothing_beta': Domain(      # the answer must be a double: L^(5/3) n^(2/3)/(D V^(1/3)) < 1.8e308
        st.fixed_dictionaries(dict(n=ints(1, 10**15), V=log_uniform(1e-300, 1e300), L=log_uniform(1e-300, 1e300),
                                   D=log_uniform(1e-300, 1e300))).filter(
            lambda kw: 5/3*math.log(kw['L']) + 2/3*math.log(kw['n']) - math.log(kw['D']) - math.log(kw['V'])/3 < 709),
        kind='nonneg', check=lambda r, kw: math.isfinite(r) or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(n=0, V=1.0, L=1.0, D=1.0), dict(n=5, V=1.0, L=0.0, D=1.0),
                 dict(n=5, V=1e-300, L=1e300, D=1e-300))),
    M + 'pgd_rounds': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**15), d=ints(1, 10**6), epsilon=_eps, delta=_delta, L=_pos,
                                   exact_constants=st.booleans())),
        kind='nonneg', check=_int_in('n'),
        invalid=(dict(n=0, d=1, epsilon=1.0, delta=1e-6), dict(n=5, d=0, epsilon=1.0, delta=1e-6),
                 dict(n=5, d=1, epsilon=1.0, delta=0.0), dict(n=5, d=1, epsilon=1.0, delta=1e-6, L=-1.0))),
    M + 'pgd_round_budget': Domain(
        st.fixed_dictionaries(dict(epsilon=_eps, delta=_delta, T=ints(1, 10**15))), kind='nonneg',
        check=lambda r, kw: (r[0] > 0 and 0 < r[1] < kw['delta']) or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(epsilon=0.0, delta=1e-6, T=3), dict(epsilon=1.0, delta=1.0, T=3), dict(epsilon=1.0, delta=1e-6, T=0))),
    M + 'pgd_privacy': Domain(
        st.fixed_dictionaries(dict(epsilon=_eps, delta=_delta, T=ints(1, 10**15))), kind='nonneg',
        check=lambda r, kw: r[1] <= 1 or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(epsilon=-1.0, delta=1e-6, T=3), dict(epsilon=1.0, delta=1e-6, T=1.5))),
    M + 'make_problem': Domain(
        st.fixed_dictionaries(dict(kind=st.sampled_from(['least_squares', 'logistic', 'absolute', 'hinge']),
                                   d=ints(1, 50), R=log_uniform(1e-3, 1e100), n_eval=ints(1, 2000),
                                   seed=ints(0, 2**31))).filter(lambda kw: kw['kind'] != 'hinge' or kw['R'] >= 1/0.9),
        kind='object', check=_problem_ok, max_examples=15,
        invalid=(dict(kind='x'), dict(kind='logistic', d=0), dict(kind='logistic', R=0.0),
                 dict(kind='logistic', n_eval=0), dict(kind='hinge', R=1.0), dict(kind='logistic', seed=-1))),
    M + 'make_ridge_problem': Domain(
        st.fixed_dictionaries(dict(kind=st.sampled_from(['least_squares', 'logistic', 'absolute', 'hinge']),
                                   lam=log_uniform(1e-6, 1e6), d=ints(1, 3), R=log_uniform(1e-3, 1e3),
                                   n_eval=ints(1, 300), seed=ints(0, 2**31))).filter(
            lambda kw: kw['kind'] != 'hinge' or kw['R'] >= 1/0.9),
        kind='object', check=_problem_ok, max_examples=8,
        invalid=(dict(kind='logistic', lam=0.0), dict(kind='logistic', lam=-1.0), dict(kind='x', lam=1.0))),
}

EXEMPT = {
    M + 'psgd': 'a training loop (Algorithm 3); convergence and privacy budget in tests/test_sco.py',
    M + 'pagd': 'a training loop (Algorithm 4); convergence in tests/test_sco.py',
    M + 'smoothed_pagd': 'a training loop (Theorem 4.7: pagd on the Moreau envelope); tests/test_sco.py',
    M + 'phased': 'a training loop (Theorem 4.8: phases of pagd/pgd); tests/test_sco.py',
    M + 'pgd': 'a training loop (Algorithm 5); convergence and budget in tests/test_sco.py',
    M + 'pan_private_acsa': 'a training loop (Algorithm 6); convergence in tests/test_sco.py',
}
