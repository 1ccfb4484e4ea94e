"""Domains of `shuffle_privacy.mechanisms.summation.protocols` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.mechanisms.summation.protocols.'
_eps = log_uniform(1e-12, 15.0)                     # Lemma 3.1's range 0 < epsilon <= 15
_delta = log_uniform(1e-300, 0.49)                  # 0 < delta < 1/2
_Delta = log_uniform(1e-150, 1e150)                 # input bound
_g = ints(1, 10**6)
_b = ints(1, 10**6)
_p = log_uniform(1e-300, 0.5)
_x = st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20)   # inputs as fractions of Delta

def _scaled(kw):
    "Inputs x in [0, Delta] from fractions."
    kw = dict(kw); kw['x'] = np.asarray(kw.pop('u'))*kw['Delta']; return kw

def _params_ok(kw):
    "p1d_params: valid unless b would pass 2^62 (a clear ValueError), which the strategy avoids."
    n, epsilon, delta = kw['n'], kw['epsilon'], kw['delta']
    return 180*math.ceil(math.sqrt(n))**2*math.log(2/delta)/epsilon/epsilon/n < 2.0**60

def _check_params(r, kw):
    g, b, p = r
    assert g*g >= kw['n'] and b >= 1 and 0 < p <= 0.5

DOMAINS = {
    M + 'p1d_params': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**12), epsilon=log_uniform(1e-3, 15.0),
                                   delta=_delta)).filter(_params_ok),
        kind='nonneg', check=_check_params,
        invalid=(dict(n=0, epsilon=1.0, delta=1e-6), dict(n=10, epsilon=0.0, delta=1e-6), dict(n=10, epsilon=16.0, delta=1e-6),
                 dict(n=10, epsilon=1.0, delta=0.5), dict(n=10, epsilon=1.0, delta=0.0), dict(n=101, epsilon=1e-300, delta=1e-9),
                 dict(n=100, epsilon=1.0, delta=1e-6, g=9))),
    M + 'p1d_epsilon': Domain(
        st.fixed_dictionaries(dict(epsilon=log_uniform(1e-150, 1e150), g=_g, Delta=_Delta)), kind='epsilon',
        invalid=(dict(epsilon=0.0, g=3, Delta=1.0), dict(epsilon=1.0, g=0, Delta=1.0), dict(epsilon=1.0, g=3, Delta=1.0, dx=2.0),
                 dict(epsilon=1.0, g=3, Delta=-1.0))),
    M + 'p1d_encode': Domain(
        st.fixed_dictionaries(dict(u=_x, g=_g, Delta=_Delta, rng=ints(0, 2**31))).map(_scaled), kind='nonneg',
        check=lambda r, kw: np.testing.assert_array_less(r, kw['g'] + 1),
        invalid=(dict(x=[0.5], g=0, Delta=1.0), dict(x=[0.5], g=3, Delta=0.0))),
    M + 'p1d_randomizer': Domain(
        st.fixed_dictionaries(dict(x=st.floats(0.0, 1.0), g=ints(1, 1000), b=ints(1, 1000), p=_p, Delta=st.just(1.0),
                                   rng=ints(0, 2**31))), kind='probability',
        invalid=(dict(x=2.0, g=3, b=3, p=0.5, Delta=1.0), dict(x=0.5, g=0, b=3, p=0.5, Delta=1.0))),
    M + 'shuffle_messages': Domain(
        st.fixed_dictionaries(dict(messages=st.lists(st.integers(0, 1), min_size=1, max_size=50).map(np.array),
                                   rng=ints(0, 2**31))),
        check=lambda r, kw: np.testing.assert_array_equal(np.sort(r), np.sort(kw['messages']))),
    M + 'p1d_analyzer': Domain(
        st.fixed_dictionaries(dict(y=st.lists(st.integers(0, 1), min_size=1, max_size=50), n=ints(1, 10**9), g=_g,
                                   b=_b, p=_p, Delta=_Delta)), kind='finite',
        invalid=(dict(y=[1], n=0, g=3, b=3, p=0.5, Delta=1.0), dict(y=[1], n=1, g=3, b=3, p=0.6, Delta=1.0))),
    M + 'p1d_count': Domain(
        st.fixed_dictionaries(dict(u=_x, g=_g, b=_b, p=_p, Delta=_Delta, rng=ints(0, 2**31))).map(_scaled),
        kind='nonneg', invalid=(dict(x=[0.5], g=3, b=3, p=0.5, Delta=1.0, method='slow'),
                                dict(x=[2.0], g=3, b=3, p=0.5, Delta=1.0))),
    M + 'p1d_sum': Domain(
        st.fixed_dictionaries(dict(u=_x, g=_g, b=_b, p=_p, Delta=_Delta, rng=ints(0, 2**31))).map(_scaled),
        kind='finite', invalid=(dict(x=[0.5], g=3, b=0, p=0.5, Delta=1.0), dict(x=[0.5], g=3, b=3, p=0.0, Delta=1.0))),
    M + 'p1d_variance': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**12), g=_g, b=_b, p=_p, Delta=log_uniform(1e-100, 1e100))),
        kind='nonneg', invalid=(dict(n=0, g=3, b=3, p=0.5, Delta=1.0),)),
    M + 'count_pmf': Domain(
        st.fixed_dictionaries(dict(u=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=5), g=ints(1, 20), b=ints(1, 20),
                                   p=_p, Delta=_Delta)).map(_scaled), kind='probability',
        check=lambda r, kw: np.testing.assert_allclose(r.sum(), 1.0, rtol=1e-9),
        invalid=(dict(x=[0.5], g=0, b=3, p=0.5, Delta=1.0),)),
    M + 'two_sample_chi2': Domain(
        st.fixed_dictionaries(dict(a=st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=50),
                                   b=st.lists(st.integers(-10**6, 10**6), min_size=1,
                                              max_size=50))), kind='probability',
        invalid=(dict(a=[0.5], b=[1]), dict(a=[1], b=[1], min_expected=0.0))),
    M + 'p1d_robust_epsilon': Domain(
        st.fixed_dictionaries(dict(epsilon=log_uniform(1e-200, 1.0), honest_fraction=st.floats(1/3, 1.0), g=ints(3, 10**9),
                                   Delta=_Delta)), kind='epsilon',
        invalid=(dict(epsilon=2.0, honest_fraction=0.5, g=3, Delta=1.0), dict(epsilon=0.5, honest_fraction=0.2, g=3,
                                                                              Delta=1.0),
                 dict(epsilon=0.5, honest_fraction=0.5, g=2, Delta=1.0))),
    M + 'p1d_robust_sum': Domain(
        st.fixed_dictionaries(dict(u=_x, g=_g, b=_b, p=_p, Delta=_Delta, rng=ints(0, 2**31), seed=ints(0, 99)))
        .map(_scaled).map(lambda kw: {**{k: v for k, v in kw.items() if k != 'seed'},
                                      'honest': np.random.default_rng(kw['seed']).random(len(kw['x'])) < 0.7}),
        kind='any', invalid=(dict(x=[0.5], g=3, b=3, p=0.5, Delta=1.0, rng=0, honest=[True, False]),)),
    M + 'pvec_params': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**12), d=ints(1, 10**6), epsilon=log_uniform(0.05, 15.0),
                                   delta=log_uniform(1e-100, 0.49), Delta2=_Delta)), kind='nonneg',
        invalid=(dict(n=1, d=0, epsilon=1.0, delta=1e-6, Delta2=1.0), dict(n=1, d=1, epsilon=1.0, delta=1e-6,
                                                                           Delta2=0.0))),
    M + 'pvec_variance_bound': Domain(
        st.fixed_dictionaries(dict(d=ints(1, 10**12), epsilon=log_uniform(1e-300, 15.0), delta=_delta,
                                   Delta2=log_uniform(1e-100, 1e100))), kind='nonneg',
        invalid=(dict(d=-1, epsilon=1.0, delta=1e-6, Delta2=1.0), dict(d=1, epsilon=1.0, delta=0.6, Delta2=1.0))),
    M + 'pvec_sum': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 30), d=ints(1, 5), epsilon=log_uniform(0.05, 15.0),
                                   delta=log_uniform(1e-100, 0.49), Delta2=_Delta, seed=ints(0, 2**31)))
        .map(lambda kw: dict(X=(lambda R: R/np.maximum(1.0, np.linalg.norm(R, axis=1, keepdims=True))*kw['Delta2'])(
                               np.random.default_rng(kw['seed']).uniform(-1, 1, (kw['n'], kw['d']))),
                             epsilon=kw['epsilon'], delta=kw['delta'], Delta2=kw['Delta2'], rng=kw['seed'])),
        kind='any', check=lambda r, kw: np.testing.assert_equal(np.isnan(r).any(), False),
        invalid=(dict(X=np.ones((2, 2)), epsilon=1.0, delta=1e-6, Delta2=1.0),
                 dict(X=np.zeros((2, 2)), epsilon=1.0, delta=1e-6, Delta2=1.0, method='x'))),
    M + 'gaussian_sigma': Domain(
        st.fixed_dictionaries(dict(epsilon=log_uniform(1e-6, 1e3), delta=log_uniform(1e-300, 0.99),
                                   sensitivity=log_uniform(1e-100, 1e100))), kind='nonneg',
        check=lambda r, kw: (math.isfinite(r) and r > 0) or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(epsilon=0.0, delta=1e-6, sensitivity=1.0), dict(epsilon=1.0, delta=1.0, sensitivity=1.0),
                 dict(epsilon=1.0, delta=1e-6, sensitivity=0.0))),
}

DOMAINS[M + 'ceil_sqrt'] = Domain(st.fixed_dictionaries(dict(n=ints(0, 10**30))), kind='any',
                                  check=lambda r, kw: r*r >= kw['n'] and (r == 0 or (r - 1)**2 < kw['n']),
                                  invalid=(dict(n=-1),))
DOMAINS[M + 'check_epsilon_delta'] = Domain(
    st.fixed_dictionaries(dict(epsilon=log_uniform(1e-300, 15.0), delta=log_uniform(1e-300, 0.4999))), kind='any',
    invalid=(dict(epsilon=0.0, delta=1e-5), dict(epsilon=16.0, delta=1e-5), dict(epsilon=1.0, delta=0.5)))
EXEMPT = {
    M + 'PVECParams': 'a NamedTuple of parameters built by pvec_params',
    M + 'pvec_variance': 'takes a PVECParams (validated when built); tested in tests/test_summation.py',
    M + 'pvec_pair_epsilon': 'takes a PVECParams; the compositions it calls have their own domains',
    M + 'pvec_randomizer': 'takes a PVECParams; tested against pvec_sum in tests/test_summation.py',
    M + 'pvec_analyzer': 'takes a PVECParams; tested against pvec_sum in tests/test_summation.py',
}
