"""Domains of `shuffle_privacy.mechanisms.iteration.schedules` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.mechanisms.iteration.schedules.'
_eps = st.one_of(st.just(0.0), log_uniform(1e-12, 1e4))

def _smooth():
    "beta > 0, 0 <= rho <= beta, 0 < eta <= 2/(beta + rho), M > 0."
    return st.tuples(log_uniform(1e-50, 1e50), st.one_of(st.just(0.0), st.floats(0.0, 1.0)),
                     st.one_of(st.just(1.0), log_uniform(1e-12, 1.0))).map(
        lambda t: dict(beta=t[0], rho=t[1]*t[0], eta=t[2]*2/(t[0] + t[1]*t[0]))).filter(
        lambda kw: 1 - 2*kw['eta']*kw['beta']*kw['rho']/(kw['beta'] + kw['rho']) > 1e-12)

def _fit_rate():
    "Sizes n (>= 2 distinct) and gaps of one sign, possibly all equal; optional regressor x > 0."
    def build(t):
        n, g, sign, use_x = t
        n = np.array(sorted(set(n)), float)
        g = sign*np.array((g*len(n))[:len(n)])
        return dict(n=n, gap=g, **({'x': n*3.0} if use_x else {}))
    return st.tuples(st.lists(log_uniform(1.0, 1e15), min_size=2, max_size=8).filter(lambda v: len(set(v)) >= 2),
                     st.lists(log_uniform(1e-300, 1e300), min_size=1, max_size=8), st.sampled_from([1.0, -1.0]),
                     st.booleans()).map(build)

def _lap_integral():
    def build(t):
        T, epsilon, alpha, C1, u = t
        # C2 >= 0 with T^alpha + C1 C2 > C1 e^{epsilon/2}: C2 = e^{epsilon/2} - T^alpha/C1 + u (u > 0), or 0 when that is < 0
        lr = alpha*math.log(T) - math.log(C1)               # log(T^alpha/C1), beyond the double range for large T
        C2 = max(0.0, math.exp(epsilon/2) - (math.exp(lr) if lr < 700 else math.inf))*(1 + u) + u
        return dict(T=T, epsilon=epsilon, alpha=alpha, C1=C1, C2=C2)
    return st.tuples(log_uniform(1.0, 1e300), st.one_of(st.just(0.0), log_uniform(1e-12, 1e3)),
                     log_uniform(1.0 + 1e-3, 10.0), log_uniform(1e-20, 1e20), log_uniform(1e-6, 1e6)).map(build)

def _calibrated(which):
    "check: the returned parameter meets the target (the delta evaluated there is <= delta)."
    def check(r, kw):
        from shuffle_privacy.mechanisms.iteration import bounds as it
        k = {k: v for k, v in kw.items() if k not in ('delta', 'n', 'rtol', 'epsilon')}
        if which == 'sigma': d = it.shuffled_delta(*it.gaussian_constants(kw['epsilon'], sigma=r, **k), kw['n'])
        else: d = it.shuffled_delta(*it.laplace_constants(kw['epsilon'], v=r, **k), kw['n'])
        assert r > 0 and math.isfinite(r) and d <= kw['delta'], (r, d)
    return check

_GEO = dict(eta=0.1, beta=1.0, rho=0.5)
_GAU = lambda: st.tuples(_smooth(), _eps, log_uniform(1e-20, 1e20), log_uniform(1e-20, 1e20), probability(1e-100, 0.99),
                         ints(1, 10**12)).map(lambda t: dict(t[0], epsilon=t[1], L=t[2], diameter=t[3], delta=t[4],
                                                             n=t[5]))

DOMAINS = {
    M + 'fit_rate': Domain(_fit_rate(), kind='finite', nan_params=(),
                           invalid=(dict(n=[1.0, 2.0], gap=[1.0, math.nan]), dict(n=[1.0, 2.0], gap=[1.0, -1.0]),
                                    dict(n=[1.0, 2.0], gap=[1.0, 0.0]), dict(n=[2.0, 2.0], gap=[1.0, 2.0]),
                                    dict(n=[1.0, 2.0, 3.0], gap=[1.0, 2.0]), dict(n=[0.0, 2.0], gap=[1.0, 2.0]))),
    M + 'laplace_online_log_integral': Domain(
        _lap_integral(), kind='finite', check=lambda r, kw: r <= 0 or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(T=0.5, epsilon=1.0, alpha=2.0, C1=1.0, C2=2.0), dict(T=1.0, epsilon=1.0, alpha=1.0, C1=1.0,
                                                                           C2=2.0),
                 dict(T=1.0, epsilon=1.0, alpha=2.0, C1=10.0, C2=0.0), dict(T=1.0, epsilon=-1.0, alpha=2.0, C1=1.0,
                                                                            C2=2.0))),
    M + 'delta_star_c_closed_form': Domain(
        st.fixed_dictionaries(dict(d=probability(1e-300, 1.0 - 1e-16))), kind='finite',
        check=lambda r, kw: math.isclose(-math.expm1(-r)/r, kw['d'], rel_tol=1e-9) or (_ for _ in ()).throw(
            AssertionError((r, -math.expm1(-r)/r))),
        invalid=(dict(d=0.0), dict(d=1.0), dict(d=-0.5))),
    M + 'calibrate_gaussian_sigma': Domain(
        _GAU().filter(lambda kw: kw['L']/kw['delta'] < 1e250), kind='nonneg', check=_calibrated('sigma'),
        max_examples=15,
        invalid=(dict(epsilon=1.0, delta=0.0, n=10, L=1.0, diameter=1.0, **_GEO),
                 dict(epsilon=1.0, delta=1e-6, n=0, L=1.0, diameter=1.0, **_GEO),
                 dict(epsilon=-1.0, delta=1e-6, n=10, L=1.0, diameter=1.0, **_GEO))),
    M + 'calibrate_laplace_scale': Domain(
        st.tuples(_smooth(), _eps, log_uniform(1e-20, 1e20), st.floats(-1e10, 1e10), log_uniform(1e-20, 1e20),
                  probability(1e-100, 0.99), ints(1, 10**12)).map(
            lambda t: dict(t[0], epsilon=t[1], L=t[2], a=t[3], b=t[3] + t[4], delta=t[5], n=t[6])).filter(
            lambda kw: kw['b'] > kw['a'] and kw['L']/kw['delta'] < 1e250),
        kind='nonneg', check=_calibrated('v'), max_examples=15,
        invalid=(dict(epsilon=1.0, delta=1.0, n=10, L=1.0, a=0.0, b=1.0, **_GEO),
                 dict(epsilon=1.0, delta=1e-6, n=10, L=1.0, a=1.0, b=0.0, **_GEO))),
    M + 'shuffled_epsilon': Domain(
        st.one_of(st.tuples(_GAU(), log_uniform(1e-20, 1e20)).map(lambda t: dict(
                      {k: v for k, v in t[0].items() if k != 'epsilon'}, noise='gaussian', sigma=t[1])),
                  st.tuples(_smooth(), log_uniform(1e-20, 1e20), st.floats(-1e10, 1e10), log_uniform(1e-20, 1e20),
                            probability(1e-100, 0.99), ints(1, 10**12), log_uniform(1e-20, 1e20)).map(
                      lambda t: dict(t[0], noise='laplace', L=t[1], a=t[2], b=t[2] + t[3], delta=t[4], n=t[5], v=t[6]))
                  .filter(lambda kw: kw['b'] > kw['a'])),
        kind='epsilon', max_examples=15, nan_params=('delta', 'L'),
        invalid=(dict(delta=1e-6, noise='x', n=10, L=1.0, **_GEO),
                 dict(delta=0.0, noise='gaussian', n=10, L=1.0, sigma=1.0, diameter=1.0, **_GEO),
                 dict(delta=1e-6, noise='gaussian', n=10, L=1.0, sigma=1.0, diameter=1.0, atol=-1.0, **_GEO))),
    M + 'laplace_schedule_C1': Domain(
        st.fixed_dictionaries(dict(delta=probability(1e-300, 0.99), epsilon=_eps)), kind='nonneg',
        check=lambda r, kw: __import__('shuffle_privacy').mechanisms.iteration.bounds.laplace_delta_star(r, kw['epsilon'])
        <= kw['delta'] or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(delta=0.0, epsilon=1.0), dict(delta=0.5, epsilon=-1.0), dict(delta=1.5, epsilon=1.0))),
    M + 'gaussian_schedule_C1': Domain(
        st.fixed_dictionaries(dict(delta=probability(1e-300, 0.99), epsilon=_eps)), kind='nonneg',
        check=lambda r, kw: __import__('shuffle_privacy').mechanisms.iteration.bounds.gaussian_delta_star(r, kw['epsilon'])
        <= kw['delta'] or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(delta=0.0, epsilon=1.0), dict(delta=0.5, epsilon=math.inf))),
}


def _online_C1():
    "Targets that some C1 reaches: delta = the delta at a drawn C1_0 (delta falls as C1 grows), so C1 <= C1_0."
    from shuffle_privacy.mechanisms.iteration.bounds import online_laplace_delta, online_gaussian_delta
    def build(t):
        sm, noise, i, epsilon, L, alpha, C2, C10, n, a, w = t
        geo = dict(a=a, b=a + w) if noise == 'laplace' else dict(diameter=w)
        kw = dict(sm, epsilon=epsilon, i=i, L=L, alpha=alpha, C2=C2, n=None if n is None else i + n, **geo)
        f = online_laplace_delta if noise == 'laplace' else online_gaussian_delta
        d0 = f(C1=C10, **kw)
        d0 = d0[1] if n is None else d0
        return dict(kw, delta=d0, noise=noise, _C10=C10)
    return st.tuples(_smooth(), st.sampled_from(['laplace', 'gaussian']), ints(1, 100), _eps.filter(lambda e: e < 50),
                     log_uniform(1e-6, 1e6), log_uniform(1.0 + 1e-2, 5.0), log_uniform(1.0, 1e6),  # Laplace: C2 >= 1
                     log_uniform(1e-3, 1e6), st.one_of(st.none(), ints(0, 500)), st.floats(-1e3, 1e3),
                     log_uniform(1e-6, 1e6)).map(build).filter(lambda kw: 1e-300 < kw['delta'] < 1).map(
        lambda kw: {k: v for k, v in kw.items() if k != '_C10'})

def _online_C1_ok(r, kw):
    from shuffle_privacy.mechanisms.iteration.bounds import online_laplace_delta, online_gaussian_delta
    f = online_laplace_delta if kw['noise'] == 'laplace' else online_gaussian_delta
    k = {x: v for x, v in kw.items() if x not in ('delta', 'noise', 'rtol')}
    d = f(C1=r, **k)
    d = d[1] if kw['n'] is None else d
    assert r > 0 and math.isfinite(r) and d <= kw['delta'], (r, d, kw['delta'])

_ON = dict(epsilon=1.0, i=1, L=1.0, alpha=1.5, C2=1.0, a=0.0, b=1.0, **_GEO)
DOMAINS[M + 'online_schedule_C1'] = Domain(
    _online_C1(), kind='nonneg', check=_online_C1_ok, max_examples=5,
    nan_params=('delta', 'epsilon', 'L', 'alpha', 'C2'),
    invalid=(dict(_ON, delta=0.0, noise='laplace'), dict(_ON, delta=1e-6, noise='x'),
             dict(_ON, delta=1e-6, noise='laplace', alpha=1.0), dict(_ON, delta=1e-6, noise='laplace', a=2.0)))
