"""Domains of `shuffle_privacy.algorithms.pnsgd` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability
from shuffle_privacy.algorithms.losses import Ball, Interval, SquaredLoss, LogisticLoss

M = 'shuffle_privacy.algorithms.pnsgd.'
from domains.d_losses import _data, _loss      # the same data and losses as the losses module's domains

def _smooth():
    "beta > 0, 0 <= rho <= beta, 0 < eta <= 2/(beta + rho)."
    return st.tuples(log_uniform(1e-50, 1e50), st.one_of(st.just(0.0), st.floats(0.0, 1.0)),
                     st.one_of(st.just(1.0), log_uniform(1e-12, 1.0))).map(
        lambda t: dict(beta=t[0], rho=t[1]*t[0], eta=t[2]*2/(t[0] + t[1]*t[0])))

def _sigmas_ok(r, kw):
    assert r.shape == (kw['n'],) and np.all(np.isfinite(r)) and np.all(r > 0), r
    assert np.all(np.diff(r) <= 1e-12*r[:-1]), 'sigma_j must not grow with j'

def _minimize_ok(r, kw):
    assert r.shape == (kw['X'].shape[1],) and np.all(np.isfinite(r))
    assert np.linalg.norm(r) <= kw['K'].radius*(1 + 1e-9)

def _pnsgd_delta():
    def build(t):
        sm, epsilon, n, L, scale, noise, order, r, a, w = t
        K = Ball(r) if noise == 'gaussian' and a is None else Interval(a or 0.0, (a or 0.0) + w)
        return dict(sm, epsilon=epsilon, n=n, L=L, scale=scale, noise=noise, order=order, K=K)
    return st.tuples(_smooth(), st.one_of(st.just(0.0), log_uniform(1e-12, 1e4)), ints(1, 10**15),
                     log_uniform(1e-20, 1e20), log_uniform(1e-20, 1e20), st.sampled_from(['gaussian', 'laplace']),
                     st.sampled_from(['shuffle', 'random_stop', 'random_stop_simple', 'sequential']),
                     log_uniform(1e-20, 1e20), st.one_of(st.none(), st.floats(-1e6, 1e6)),
                     log_uniform(1e-10, 1e10)).map(build)

_PD = dict(n=10, L=1.0, scale=1.0, eta=0.1, beta=1.0)
DOMAINS = {
    M + 'make_data': Domain(
        st.fixed_dictionaries(dict(kind=st.sampled_from(['linear', 'logistic']),   # n*d > 1e8: ResourceLimitError
                                   n=st.one_of(ints(1, 10**5), ints(10**9, 10**12)),
                                   theta=st.one_of(st.none(), st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=5)),
                                   label_noise=st.one_of(st.just(0.0), log_uniform(1e-100, 1e100)),
                                   rng=st.one_of(st.none(), ints(0, 2**31)))),
        kind='finite', max_examples=15,
        invalid=(dict(kind='x'), dict(kind='linear', n=0), dict(kind='linear', label_noise=-1.0),
                 dict(kind='linear', rng='seed'), dict(kind='linear', theta=[[1.0]]))),
    M + 'online_gaussian_sigmas': Domain(
        st.tuples(_smooth().filter(lambda kw: 1 - 2*kw['eta']*kw['beta']*kw['rho']/(kw['beta'] + kw['rho']) > 1e-12),
                  ints(1, 10**4), log_uniform(1.0 + 1e-6, 1e3), log_uniform(1e-300, 1e100),   # sigma < 1.8e308
                  st.one_of(st.just(0.0), log_uniform(1e-300, 1e300)), log_uniform(1e-20, 1e20)).map(
            lambda t: dict(t[0], n=t[1], alpha=t[2], C1=t[3], C2=t[4], diameter=t[5])),
        kind='finite', check=_sigmas_ok, max_examples=15,
        invalid=(dict(n=0, alpha=2.0, C1=1.0, C2=1.0, eta=0.1, diameter=1.0, beta=1.0),
                 dict(n=5, alpha=1.0, C1=1.0, C2=1.0, eta=0.1, diameter=1.0, beta=1.0),
                 dict(n=5, alpha=2.0, C1=1.0, C2=-1.0, eta=0.1, diameter=1.0, beta=1.0),
                 dict(n=5, alpha=2.0, C1=1.0, C2=1.0, eta=5.0, diameter=1.0, beta=1.0))),
    M + 'pnsgd_delta': Domain(
        _pnsgd_delta(), kind='delta', nan_params=('epsilon', 'L', 'scale', 'eta', 'beta'),
        invalid=(dict(epsilon=1.0, K=Ball(), noise='x', **_PD), dict(epsilon=1.0, K=Ball(), order='x', **_PD),
                 dict(epsilon=1.0, K=Ball(), noise='laplace', **_PD), dict(epsilon=-1.0, K=Ball(), **_PD),
                 dict(epsilon=1.0, K=Ball(), **{**_PD, 'n': 0}), dict(epsilon=1.0, K='ball', **_PD))),
    M + 'minimize_risk': Domain(
        st.tuples(_data(scale=log_uniform(1e-3, 1e3)), _loss, log_uniform(1e-3, 1e3), ints(1, 200)).map(
            lambda t: dict(t[0], loss=t[1], K=Ball(t[2]), iters=t[3])),
        kind='finite', check=_minimize_ok, max_examples=15,
        invalid=(dict(loss=SquaredLoss(), X=[[math.nan]], y=[1.0], K=Ball()),
                 dict(loss=SquaredLoss(), X=[[1.0]], y=[1.0], K=Ball(), iters=0),
                 dict(loss=SquaredLoss(), X=[[1.0]], y=[1.0], K=Interval()),
                 dict(loss=None, X=[[1.0]], y=[1.0], K=Ball()))),
}

EXEMPT = {
    M + 'pnsgd': 'a training loop (projected noisy SGD, vectorised over runs); tested in tests/test_pnsgd.py',
    M + 'figure1': 'runs the Figure 1 experiment (data, optimum and two trainings) for plotting; tests/test_pnsgd.py',
}
