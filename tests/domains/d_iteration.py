"""Domains of `shuffle_privacy.mechanisms.iteration.bounds` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.mechanisms.iteration.bounds.'
_eps = st.one_of(st.just(0.0), log_uniform(1e-12, 1e4))
_pos = log_uniform(1e-50, 1e50)                       # L, diameter, sigma, v, C1: any positive scale
_frac = st.one_of(st.just(0.0), st.just(1.0), st.floats(0.0, 1.0))
_n = ints(1, 10**15)

def _smooth(draw_rho_frac=_frac, draw_eta_frac=st.one_of(st.just(1.0), log_uniform(1e-12, 1.0))):
    "beta > 0, 0 <= rho <= beta, 0 < eta <= 2/(beta + rho)."
    return st.tuples(log_uniform(1e-50, 1e50), draw_rho_frac, draw_eta_frac).map(
        lambda t: dict(beta=t[0], rho=t[1]*t[0], eta=min(t[2]*2/(t[0] + t[1]*t[0]), 2/(t[0] + t[1]*t[0]))))

def _nondegenerate(kw):
    "The schedules need M > 0 (not eta = 1/beta = 1/rho)."
    b, r, e = kw['beta'], kw['rho'], kw['eta']
    return 1 - 2*e*b*r/(b + r) > 1e-12

def _contraction(draw=probability(1e-300, 1.0)):
    "B as a float, or as a Contraction carrying 1 - B exactly (also 1 - B below the double range)."
    from shuffle_privacy.mechanisms.iteration.bounds import Contraction
    return st.one_of(st.just(0.0), draw, draw.map(lambda c: Contraction(1.0 - c, c)))

def _constants_ok(r, kw):
    A, B = r
    assert 0 <= A <= 1 and abs(B.B + B.one_minus_B - 1) <= 1e-12, r

def _star_ok(r, kw):
    "delta* = (1 - e^{-c})/c in (0, 1], c = C1 e^{epsilon/2} (x2 for Gaussian): 0 only where 1/c underflows."
    assert 0 <= r <= 1 and (r > 0 or math.log(kw['C1']) + kw['epsilon']/2 > 740), r

_BETA = dict(eta=0.1, beta=1.0, rho=0.5)
_lap_sched = lambda: st.tuples(_smooth().filter(_nondegenerate), log_uniform(1e-50, 1e50), st.one_of(
    st.just(1.0), log_uniform(1.0, 1e50)), st.floats(-1e10, 1e10), log_uniform(1e-20, 1e20)).map(
    lambda t: dict(t[0], C1=t[1], C2=t[2], a=t[3], b=t[3] + t[4])).filter(lambda kw: kw['b'] > kw['a'])
_gau_sched = lambda: st.tuples(_smooth().filter(_nondegenerate), log_uniform(1e-50, 1e50),
                               st.one_of(st.just(0.0), log_uniform(1e-50, 1e50)), log_uniform(1e-20, 1e20)).map(
    lambda t: dict(t[0], C1=t[1], C2=t[2], diameter=t[3]))

DOMAINS = {
    M + 'theta': Domain(
        st.fixed_dictionaries(dict(gamma=st.one_of(st.just(1.0), log_uniform(1.0, 1e300)),
                                   r=st.one_of(st.just(0.0), log_uniform(1e-300, 1e300),
                                               st.lists(log_uniform(1e-300, 1e300), min_size=1, max_size=5)))),
        kind='probability', invalid=(dict(gamma=0.5, r=1.0), dict(gamma=2.0, r=-1.0), dict(gamma=2.0, r=[1.0, -1.0]))),
    M + 'contraction_factor': Domain(
        _smooth(), kind='probability',
        invalid=(dict(eta=0.0, beta=1.0, rho=0.5), dict(eta=0.1, beta=0.0, rho=0.0), dict(eta=0.1, beta=1.0, rho=2.0),
                 dict(eta=2.0, beta=1.0, rho=0.5))),
    M + 'gaussian_constants': Domain(
        st.tuples(_smooth(), _eps, _pos, _pos, _pos).map(lambda t: dict(t[0], epsilon=t[1], L=t[2], sigma=t[3],
                                                                         diameter=t[4])),
        kind='probability', check=_constants_ok,
        invalid=(dict(epsilon=-1.0, L=1.0, sigma=1.0, diameter=1.0, **_BETA), dict(epsilon=1.0, L=0.0, sigma=1.0,
                                                                                   diameter=1.0,
                 **_BETA), dict(epsilon=1.0, L=1.0, sigma=0.0, diameter=1.0, **_BETA),
                 dict(epsilon=1.0, L=1.0, sigma=1.0, diameter=-1.0, **_BETA))),
    M + 'laplace_constants': Domain(
        st.tuples(_smooth(), _eps, _pos, _pos, st.floats(-1e50, 1e50), _pos).map(
            lambda t: dict(t[0], epsilon=t[1], L=t[2], v=t[3], a=t[4], b=t[4] + t[5]*max(1.0, abs(t[4])))).filter(
            lambda kw: kw['b'] > kw['a']),
        kind='probability', check=_constants_ok,
        invalid=(dict(epsilon=1.0, L=1.0, v=1.0, a=1.0, b=1.0, **_BETA), dict(epsilon=1.0, L=1.0, v=0.0, a=0.0, b=1.0,
                                                                              **_BETA),
                 dict(epsilon=-1.0, L=1.0, v=1.0, a=0.0, b=1.0, **_BETA))),
    M + 'shuffled_delta': Domain(
        st.fixed_dictionaries(dict(A=_frac, B=_contraction(), n=_n)), kind='delta', nan_params=('A',),
        invalid=(dict(A=1.5, B=0.5, n=3), dict(A=0.5, B=1.5, n=3), dict(A=0.5, B=0.5, n=0), dict(A=0.5, B=0.5, n=2.5))),
    M + 'entry_delta': Domain(
        st.fixed_dictionaries(dict(A=_frac, B=_contraction(), n=_n, f=st.floats(0.0, 1.0))).map(
            lambda kw: dict(A=kw['A'], B=kw['B'], n=kw['n'], i=max(1, int(kw['f']*kw['n'])))), kind='delta',
        nan_params=('A',), invalid=(dict(A=0.5, B=0.5, n=3, i=4), dict(A=0.5, B=0.5, n=3, i=0))),
    M + 'randomly_stopped_delta': Domain(
        st.fixed_dictionaries(dict(A=_frac, B=_contraction(), n=_n, f=st.one_of(st.none(), st.floats(0.0, 1.0)))).map(
            lambda kw: dict(A=kw['A'], B=kw['B'], n=kw['n'],
                            i=None if kw['f'] is None else max(1, int(kw['f']*kw['n'])))), kind='delta',
        nan_params=('A',), invalid=(dict(A=0.5, B=0.5, n=3, i=4), dict(A=-0.5, B=0.5, n=3))),
    M + 'shuffled_delta_mc': Domain(
        st.fixed_dictionaries(dict(A=_frac, B=_contraction(), n=ints(1, 10**12), f=st.floats(0.0, 1.0),
                                   n_perm=ints(2, 200), rng=st.one_of(st.none(), ints(0, 2**31)))).map(
            lambda kw: dict({k: v for k, v in kw.items() if k != 'f'}, i=max(1, int(kw['f']*kw['n'])))),
        kind='probability', nan_params=('A',), max_examples=15,
        invalid=(dict(A=0.5, B=0.5, n=3, i=4), dict(A=0.5, B=0.5, n=3, n_perm=1), dict(A=0.5, B=0.5, n=3, rng='x'))),
    M + 'lemma8_leading': Domain(
        st.fixed_dictionaries(dict(epsilon=_eps, c=_pos, sigma=st.one_of(_pos, st.lists(_pos, min_size=1,
                                                                                        max_size=4)))),
        kind='nonneg', invalid=(dict(epsilon=-1.0, c=1.0, sigma=1.0), dict(epsilon=1.0, c=0.0, sigma=1.0),
                                dict(epsilon=1.0, c=1.0, sigma=[1.0, 0.0]))),
    M + 'lemma8_remainder': Domain(
        st.fixed_dictionaries(dict(epsilon=_eps, c=_pos, sigma=st.one_of(_pos, st.lists(_pos, min_size=1,
                                                                                        max_size=4)))),
        kind='finite', invalid=(dict(epsilon=-1.0, c=1.0, sigma=1.0), dict(epsilon=1.0, c=1.0, sigma=-1.0))),
    M + 'lambertw_exp': Domain(
        st.fixed_dictionaries(dict(y=st.one_of(st.floats(-1e300, 1e300), st.lists(st.floats(-1e300, 1e300),
                                                                                    min_size=1, max_size=5)))),
        kind='nonneg', nan_params=(), invalid=(dict(y=math.nan), dict(y=[0.0, math.nan])),
        check=lambda r, kw: np.testing.assert_array_less(-1e-300, np.asarray(r) + 1e-300)),
    M + 'laplace_scale_schedule': Domain(
        st.tuples(_lap_sched(), st.one_of(_n, st.lists(_n, min_size=1, max_size=4))).map(lambda t: dict(t[0], n=t[1])),
        kind='nonneg', nan_params=('C1', 'C2', 'a', 'b'),
        invalid=(dict(n=10, C1=1.0, C2=0.0, a=0.0, b=1.0, eta=1.0, beta=1.0, rho=1.0),
                 dict(n=10, C1=100.0, C2=0.0, a=0.0, b=1.0, **_BETA), dict(n=10, C1=1.0, C2=1.0, a=1.0, b=0.0, **_BETA),
                 dict(n=0, C1=1.0, C2=1.0, a=0.0, b=1.0, **_BETA))),
    M + 'gaussian_sigma_schedule': Domain(
        st.tuples(_gau_sched(), st.one_of(_n, st.lists(_n, min_size=1, max_size=4))).map(lambda t: dict(t[0], n=t[1])),
        kind='nonneg', nan_params=('C1', 'C2', 'diameter'),
        invalid=(dict(n=10, C1=0.0, C2=1.0, diameter=1.0, **_BETA), dict(n=10, C1=1.0, C2=-1.0, diameter=1.0, **_BETA),
                 dict(n=10, C1=1.0, C2=1.0, diameter=1.0, eta=1.0, beta=1.0, rho=1.0))),
    M + 'laplace_delta_star': Domain(
        st.fixed_dictionaries(dict(C1=log_uniform(1e-300, 1e300), epsilon=_eps)), kind='delta', check=_star_ok,
        invalid=(dict(C1=0.0, epsilon=1.0), dict(C1=1.0, epsilon=-1.0))),
    M + 'gaussian_delta_star': Domain(
        st.fixed_dictionaries(dict(C1=log_uniform(1e-300, 1e300), epsilon=_eps)), kind='delta', check=_star_ok,
        invalid=(dict(C1=-2.0, epsilon=1.0), dict(C1=1.0, epsilon=-1.0))),
    M + 'laplace_schedule_delta': Domain(
        st.tuples(_lap_sched(), st.one_of(_n, st.lists(_n, min_size=1, max_size=4)), _eps, _pos,
                  st.sampled_from(['shuffled', 'stopped'])).map(
            lambda t: dict(t[0], n=t[1], epsilon=t[2], L=t[3], kind=t[4])),
        kind='delta', nan_params=('epsilon', 'L', 'C1', 'C2', 'a', 'b'),
        invalid=(dict(n=10, epsilon=1.0, L=1.0, C1=1.0, C2=1.0, a=0.0, b=1.0, kind='x', **_BETA),
                 dict(n=10, epsilon=-1.0, L=1.0, C1=1.0, C2=1.0, a=0.0, b=1.0, **_BETA),
                 dict(n=10, epsilon=1.0, L=0.0, C1=1.0, C2=1.0, a=0.0, b=1.0, **_BETA))),
    M + 'gaussian_schedule_delta': Domain(
        st.tuples(_gau_sched(), st.one_of(_n, st.lists(_n, min_size=1, max_size=4)), _eps, _pos,
                  st.sampled_from(['shuffled', 'stopped'])).map(
            lambda t: dict(t[0], n=t[1], epsilon=t[2], L=t[3], kind=t[4])),
        kind='delta', nan_params=('epsilon', 'L', 'C1', 'C2', 'diameter'),
        invalid=(dict(n=10, epsilon=1.0, L=1.0, C1=1.0, C2=1.0, diameter=1.0, kind='x', **_BETA),
                 dict(n=10, epsilon=1.0, L=-1.0, C1=1.0, C2=1.0, diameter=1.0, **_BETA))),
}

def _online(kind):
    "Online PNSGD: entry i, decay alpha > 1, n >= i (exact product, up to 1e5 factors) or None (the limit)."
    geom = (st.tuples(st.floats(-1e10, 1e10), log_uniform(1e-20, 1e20)).map(lambda t: dict(a=t[0], b=t[0] + t[1]))
            .filter(lambda g: g['b'] > g['a'])
            if kind == 'laplace' else log_uniform(1e-20, 1e20).map(lambda d: dict(diameter=d)))
    return st.tuples(_smooth().filter(_nondegenerate), geom, ints(1, 10**4), _eps, log_uniform(1e-10, 1e10),
                     log_uniform(1.0 + 1e-3, 10.0), log_uniform(1e-20, 1e20), st.one_of(st.just(1.0), st.just(0.0),
                     log_uniform(1e-20, 1e20)), st.one_of(st.none(), ints(0, 10**5))).map(
        lambda t: dict(t[0], **t[1], i=t[2], epsilon=t[3], L=t[4], alpha=t[5], C1=t[6], C2=t[7],
                       n=None if t[8] is None else t[2] + t[8])).filter(
        lambda kw: kind != 'laplace' or kw['i']**kw['alpha']/kw['C1'] + kw['C2'] > 1 + 1e-12)

def _interval_ok(r, kw):
    if kw['n'] is None:
        lo, up = r
        assert 0 <= lo <= up <= 1, r

_OG = dict(epsilon=1.0, i=1, L=1.0, alpha=1.5, C1=1.0, C2=1.0, **_BETA)
DOMAINS[M + 'online_laplace_delta'] = Domain(
    _online('laplace'), kind='delta', check=_interval_ok, max_examples=10,
    nan_params=('epsilon', 'L', 'alpha', 'C1', 'C2', 'a', 'b'),
    invalid=(dict(_OG, a=0.0, b=1.0, alpha=1.0), dict(_OG, a=0.0, b=1.0, C2=0.0, C1=10.0),
             dict(_OG, a=0.0, b=1.0, i=5, n=3), dict(_OG, a=1.0, b=0.0)))
DOMAINS[M + 'online_gaussian_delta'] = Domain(
    _online('gaussian'), kind='delta', check=_interval_ok, max_examples=10, quick=2,
    nan_params=('epsilon', 'L', 'alpha', 'C1', 'C2', 'diameter'),
    invalid=(dict(_OG, diameter=1.0, alpha=0.5), dict(_OG, diameter=0.0), dict(_OG, diameter=1.0, i=0),
             dict(_OG, diameter=1.0, exact_terms=-1)))

EXEMPT = {
    M + 'online_params': 'validation shared by online_gaussian_delta and online_laplace_delta, whose domains drive it',
    M + 'online_integral': 'quadrature kernel of the online bounds (takes online_params output); driven by their domains',
    M + 'Contraction': 'a NamedTuple (B, 1 - B); validated by the functions that take it',
}
