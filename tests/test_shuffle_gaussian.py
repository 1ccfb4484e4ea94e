"""Cross-checks of shuffle_privacy.mechanisms.shuffle_gaussian.rdp (Theorem 1 of Liew & Takahashi) against independent
60-digit mpmath references: the direct multinomial sum over compositions, the partition sum, and the
generating-function coefficient computed by exact-order polynomial powering in mpmath."""
import itertools, math
from collections import Counter
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shuffle_privacy.mechanisms.shuffle_gaussian.rdp import (integer_partitions, shuffle_gaussian_log_excess,
                                                             shuffle_gaussian_rdp,
                                              shuffle_gaussian_rdp_curve, shuffle_gaussian_rdp_partitions,
                                              shuffle_gaussian_rdp_upper_bound)

mp.mp.dps = 60
RTOL = 1e-9

def mp_direct(order, n, sigma):
    "Eq. (1) literally: sum over all compositions k_1+...+k_n = order (small n and order only)."
    c = 1/(2*mp.mpf(sigma)**2)
    tot = mp.mpf(0)
    for ks in itertools.product(range(order + 1), repeat=n):
        if sum(ks) != order: continue
        multi = mp.factorial(order)/mp.fprod(mp.factorial(k) for k in ks)
        tot += multi*mp.exp(c*sum(k*k for k in ks))
    return mp.log(mp.exp(-order*c)/mp.mpf(n)**order*tot)/(order - 1)

def mp_partitions(order, n, sigma):
    "The partition form of Eq. (1) in mpmath (partitions with more than n parts excluded)."
    c = 1/(2*mp.mpf(sigma)**2)
    tot = mp.mpf(0)
    for p in integer_partitions(order):
        l = len(p)
        if l > n: continue
        arr = mp.fprod(mp.mpf(n - i) for i in range(l))/mp.fprod(mp.factorial(k) for k in Counter(p).values())
        tot += arr*mp.factorial(order)/mp.fprod(mp.factorial(k) for k in p)*mp.exp(c*sum(k*k for k in p))
    return mp.log(mp.exp(-order*c)/mp.mpf(n)**order*tot)/(order - 1)

def mp_series_all(max_order, n, sigma):
    "eps(λ) for λ=2..max_order from λ!/n^λ [x^λ] (sum_k e^{k^2 c} x^k/k!)^n e^{-λc}, by binary powering in mpmath."
    c = 1/(2*mp.mpf(sigma)**2)
    L = max_order
    a = [mp.exp(c*k*k)/mp.factorial(k) for k in range(L + 1)]
    def mul(p, q): return [mp.fsum(p[i]*q[m - i] for i in range(m + 1)) for m in range(L + 1)]
    res, base, e = None, a, n
    while e:
        if e & 1: res = base if res is None else mul(res, base)
        e >>= 1
        if e: base = mul(base, base)
    out = {}
    for lam in range(2, L + 1):
        q = res[lam]*mp.factorial(lam)/mp.mpf(n)**lam*mp.exp(-lam*c)
        out[lam] = mp.log(q)/(lam - 1)
    return out

def assert_rel(got, ref, rtol=RTOL, what=''):
    ref = float(ref)
    assert abs(got - ref) <= rtol*abs(ref), (what, got, ref, abs(got/ref - 1))

@pytest.mark.parametrize('n', [1, 2, 3, 4])
@pytest.mark.parametrize('sigma', [0.6, 1.0, 4.0])
def test_matches_direct_multinomial_sum(n, sigma):
    orders = list(range(2, 10 if n <= 3 else 8))
    got = shuffle_gaussian_rdp(orders, n, sigma)
    for lam, g in zip(orders, got):
        assert_rel(g, mp_direct(lam, n, sigma), what=(lam, n, sigma))

@pytest.mark.parametrize('n,sigma,L', [(2, 0.5, 40), (3, 1.0, 40), (7, 2.0, 40), (50, 0.7, 48), (50, 9.48, 48),
                                       (1000, 3.0, 48), (60000, 9.48, 48), (10**6, 9.48, 30), (10**6, 0.5, 30),
                                       (60000, 1.0, 160)])
def test_matches_mpmath_generating_function(n, sigma, L):
    ref = mp_series_all(L, n, sigma)
    got = shuffle_gaussian_rdp(np.arange(2, L + 1), n, sigma)
    for lam, g in zip(range(2, L + 1), got):
        assert_rel(g, ref[lam], what=(lam, n, sigma))

@pytest.mark.parametrize('n', [5, 12, 60000, 10**6])
def test_matches_mpmath_partition_sum(n):
    orders = [2, 3, 6, 11, 15]
    got = shuffle_gaussian_rdp(orders, n, 2.5)
    for lam, g in zip(orders, got):
        assert_rel(g, mp_partitions(lam, n, 2.5), what=(lam, n))

def test_both_algorithms_agree_where_both_apply():
    for n, sigma in [(64, 0.4), (300, 2.0), (5000, 9.48)]:
        L = 64
        a = shuffle_gaussian_log_excess(np.arange(2, L + 1), n, sigma=sigma, method='miller')
        b = shuffle_gaussian_log_excess(np.arange(2, L + 1), n, sigma=sigma, method='powering')
        np.testing.assert_allclose(a, b, rtol=1e-12)

def test_partition_reference_implementation_small_n():
    # Algorithm 1 must drop partitions with more parts than n; at small n it is accurate to float64 rounding
    for n in [1, 2, 3, 5, 9]:
        for lam in [2, 4, 9, 14]:
            assert_rel(shuffle_gaussian_rdp_partitions(lam, n, 1.1), mp_partitions(lam, n, 1.1), rtol=1e-11,
                       what=(lam, n))

def test_partition_algorithm_against_mpmath_at_table1_setting():
    # at n=60000 the partition form cancels: still within 1e-6 relative at λ=20, the series within 1e-9
    ref = mp_partitions(20, 60000, 9.48)
    assert_rel(shuffle_gaussian_rdp_partitions(20, 60000, 9.48), ref, rtol=1e-6)
    assert_rel(float(shuffle_gaussian_rdp(20, 60000, 9.48)), ref)

def test_n1_is_the_gaussian():
    o = np.arange(2, 200)
    np.testing.assert_allclose(shuffle_gaussian_rdp(o, 1, 3.0), o/18.0,
                               rtol=3e-16); assert np.all(shuffle_gaussian_rdp(o, 1, 3.0) >= o/18.0)
    assert shuffle_gaussian_rdp_partitions(7, 1, 3.0) == pytest.approx(7/18, rel=1e-13)

def test_shape_is_preserved():
    assert shuffle_gaussian_rdp(5, 10, 1.0).shape == ()
    assert shuffle_gaussian_rdp([[2, 3], [4, 5]], 10, 1.0).shape == (2, 2)

def test_large_orders_finite_and_below_corollary1():
    o = np.arange(2, 1025)
    for n, sigma in [(60000, 9.48), (60000, 0.5), (100, 1.0), (2, 5.0)]:
        v = shuffle_gaussian_rdp(o, n, sigma)
        assert np.all(np.isfinite(v)) and np.all(v > 0)
        assert np.all(v <= shuffle_gaussian_rdp_upper_bound(o, sigma)*(1 + 1e-12))

@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 10**6), sigma=st.floats(0.3, 50.0))
def test_rdp_properties(n, sigma):
    o = np.arange(2, 41)
    v = shuffle_gaussian_rdp(o, n, sigma)
    assert np.all(v > 0)
    # RDP of any pair is non-decreasing in the order; (λ-1)ε(λ) is convex in λ
    assert np.all(np.diff(v) >= -1e-12*v[1:])
    assert np.all(np.diff((o - 1)*v, 2) >= -1e-9*((o - 1)*v)[2:])
    assert np.all(v <= o/(2*sigma**2)*(1 + 1e-12))

def test_curve_export():
    o, v = shuffle_gaussian_rdp_curve(1000, 2.0, max_order=30, count=4)
    np.testing.assert_array_equal(o, np.arange(2, 31))
    np.testing.assert_allclose(v, 4*shuffle_gaussian_rdp(o, 1000, 2.0), rtol=0)

@pytest.mark.parametrize('call,msg', [
    (lambda: shuffle_gaussian_rdp([2.5], 10, 1.0), 'orders must contain only integers'),
    (lambda: shuffle_gaussian_rdp([1], 10, 1.0), 'orders must lie in [2, inf)'),
    (lambda: shuffle_gaussian_rdp([2], 0, 1.0), 'n must be an integer in [1, inf)'),
    (lambda: shuffle_gaussian_rdp([2], 2.5, 1.0), 'n must be an integer'),
    (lambda: shuffle_gaussian_rdp([2], 10, 0.0), 'sigma must be in (0, inf)'),
    (lambda: shuffle_gaussian_rdp([2], 10, -1.0), 'sigma must be in (0, inf)'),
    (lambda: shuffle_gaussian_rdp([], 10, 1.0), 'orders must not be empty'),
    (lambda: shuffle_gaussian_rdp([np.nan], 10, 1.0), 'orders must contain only finite'),
    (lambda: shuffle_gaussian_rdp_partitions(1, 10, 1.0), 'order must be an integer in [2, inf)'),
    (lambda: shuffle_gaussian_rdp_partitions(2.5, 10, 1.0), 'order must be an integer'),
    (lambda: shuffle_gaussian_rdp_partitions(3, 0, 1.0), 'n must be an integer in [1, inf)'),
    (lambda: shuffle_gaussian_rdp_partitions(3, 10, 0.0), 'sigma must be in (0, inf)'),
    (lambda: shuffle_gaussian_rdp_upper_bound([2], -1.0), 'sigma must be in (0, inf)'),
    (lambda: shuffle_gaussian_log_excess([2], 10, sigma=1.0, method='fft'), 'method must be'),
    (lambda: shuffle_gaussian_rdp_curve(10, 1.0, max_order=1), 'max_order must be an integer in [2, inf)'),
    (lambda: shuffle_gaussian_rdp_curve(10, 1.0, count=0), 'count must be an integer in [1, inf)'),
    (lambda: list(integer_partitions(0)), 'm must be an integer in [1, inf)'),
])
def test_bad_inputs_raise_value_error(call, msg):
    with pytest.raises(ValueError, match=None) as e: call()
    assert msg in str(e.value), str(e.value)

def _direct_n3_log_q(order, sigma):
    "log(1 + S(λ)) at n = 3 by the direct multinomial sum over all (k1, k2, k3) with k1 + k2 + k3 = λ, in log space."
    from scipy.special import gammaln, logsumexp
    c = 1/(2*sigma**2)
    k1, k2 = np.meshgrid(np.arange(order + 1), np.arange(order + 1), indexing='ij')
    k3 = order - k1 - k2
    ok = k3 >= 0
    k1, k2, k3 = k1[ok].astype(float), k2[ok].astype(float), k3[ok].astype(float)
    t = -gammaln(k1 + 1) - gammaln(k2 + 1) - gammaln(k3 + 1) + c*(k1*k1 + k2*k2 + k3*k3)
    return gammaln(order + 1.0) - order*math.log(3) - order*c + logsumexp(t)

def _sequential_log_q(max_order, n, sigma):
    "log(1 + S(λ)), λ = 0..max_order, by n - 1 plain products A·A·…·A (no powering, no excess split), log space."
    from scipy.special import gammaln, logsumexp
    c, k = 1/(2*sigma**2), np.arange(max_order + 1, dtype=float)
    a = c*k*(k - 1) - gammaln(k + 1)
    f = a.copy()
    for _ in range(n - 1):
        f = np.array([logsumexp(a[:m + 1] + f[m::-1]) for m in range(max_order + 1)])
    return gammaln(k + 1) - k*math.log(n) + f

@pytest.mark.parametrize('sigma', [1.0, pytest.param(3.0, marks=pytest.mark.slow)])
def test_n_below_large_orders_matches_direct_sum(sigma):
    # n = 3 < λ up to 4096 (the powering branch: one square and one product), against the direct multinomial sum
    orders = [700, 1500, 4096]
    got = shuffle_gaussian_rdp(orders, 3, sigma)
    for lam, g in zip(orders, got):
        assert_rel(g, _direct_n3_log_q(lam, sigma)/(lam - 1), rtol=1e-10, what=(lam, sigma))

@pytest.mark.parametrize('n,sigma', [(10, 2.0), (23, 0.8)])
def test_n_below_orders_matches_sequential_products(n, sigma):
    # n < λ up to 600 (several squares and products in the powering), against n - 1 sequential series products
    L = 600
    ref = _sequential_log_q(L, n, sigma)
    o = np.array([2, 25, 150, 599, 600])
    np.testing.assert_allclose(shuffle_gaussian_rdp(o, n, sigma), ref[o]/(o - 1), rtol=1e-10)
