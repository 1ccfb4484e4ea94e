"""Tests of shuffle_privacy.mechanisms.iteration.schedules: the hypergeometric closed form against 40-digit mpmath quadrature, calibration
(certified rounding, inverse of the accountant), the Lambert-W inverse of delta*, and bad input."""
import math
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shuffle_privacy.mechanisms.iteration.bounds import (gaussian_constants, laplace_constants, shuffled_delta, gaussian_delta_star,
                                       laplace_delta_star, gaussian_schedule_delta, laplace_schedule_delta)
from shuffle_privacy.mechanisms.iteration.schedules import (laplace_online_log_integral, calibrate_gaussian_sigma, calibrate_laplace_scale,
                                       gaussian_schedule_C1, laplace_schedule_C1, delta_star_c_closed_form, fit_rate)

def mquad_tail(g, T, alpha=1.5):
    "integral_T^inf g(t) dt by tanh-sinh after t = s^(1/(1-alpha)), on pieces [S 2^-(j+1), S 2^-j] of (0, S = T^(1-alpha)]."
    a = mp.mpf(alpha); S = mp.mpf(T)**(1 - a)
    h = lambda s: g(s**(1/(1 - a)))*s**(a/(1 - a))/(a - 1)
    return mp.quad(h, [0] + [S/mp.mpf(2)**j for j in range(24, -1, -1)])

@pytest.mark.parametrize('T,eps,alpha,C1,C2', [(100, 1.0, 1.5, 100, 100), (101, 1.0, 1.5, 100, 100),
                                               (5, 0.0, 2.0, 10, 3), (50, 2.0, 1.2, 1e3, 10), (1, 0.5, 3.0, 1, 2)])
def test_laplace_online_closed_form_matches_mpmath(T, eps, alpha, C1, C2):
    with mp.workdps(40):
        k = mp.mpf(C1)*mp.e**(mp.mpf(eps)/2)
        g = lambda x: mp.log1p(-k/(x**mp.mpf(alpha) + mp.mpf(C1)*C2))   # log(1 - y), without losing tiny y
        ref = mquad_tail(g, T, alpha)
        got = laplace_online_log_integral(T, epsilon=eps, alpha=alpha, C1=C1, C2=C2)
        assert abs(got - ref) <= 1e-11*abs(ref)

def test_calibrate_gaussian_sigma_is_certified_and_tight():
    kw = dict(L=1, eta=0.1, diameter=1, beta=0.5, rho=0)
    for delta, n in [(1e-5, 10**4), (1e-3, 10), (1e-9, 10**8)]:
        s = calibrate_gaussian_sigma(1.0, delta=delta, n=n, **kw)
        assert shuffled_delta(*gaussian_constants(1.0, sigma=s, **kw), n) <= delta
        assert shuffled_delta(*gaussian_constants(1.0, sigma=s*(1 - 1e-9), **kw), n) > delta

def test_calibrate_laplace_scale_is_certified_and_tight():
    kw = dict(L=1, eta=0.1, a=0, b=1, beta=0.5, rho=0)
    for delta, n in [(1e-5, 10**4), (0.2, 3)]:
        v = calibrate_laplace_scale(0.5, delta=delta, n=n, **kw)
        assert shuffled_delta(*laplace_constants(0.5, v=v, **kw), n) <= delta
        assert shuffled_delta(*laplace_constants(0.5, v=v*(1 - 1e-9), **kw), n) > delta

@given(d=st.floats(1e-12, 0.999), eps=st.floats(0, 5))
@settings(max_examples=60, deadline=None)
def test_schedule_C1_inverts_delta_star(d, eps):
    C1g, C1l = gaussian_schedule_C1(eps, d), laplace_schedule_C1(eps, d)
    assert gaussian_delta_star(C1g, eps) <= d and laplace_delta_star(C1l, eps) <= d
    assert gaussian_delta_star(C1g*(1 - 1e-10), eps) > d*(1 - 1e-12)

@pytest.mark.parametrize('d', [0.9, 0.5, 1e-2, 1e-6, 1e-14])
def test_delta_star_inverse_matches_mpmath_root(d):
    with mp.workdps(50):
        ref = mp.findroot(lambda c: (1 - mp.e**(-c))/c - d, 1/mp.mpf(d) if d < 0.5 else 1)
        assert abs(delta_star_c_closed_form(d) - ref) <= 1e-12*ref
        assert abs(gaussian_schedule_C1(0.0, d) - ref/2) <= 1e-12*ref

def test_schedule_C1_at_finite_n_meets_the_target():
    gs = dict(L=10, C2=100, eta=0.1, diameter=1, beta=0.5, rho=0)
    C1 = gaussian_schedule_C1(1.0, 1e-5, n=10**6, **gs)
    assert gaussian_schedule_delta(10**6, epsilon=1.0, C1=C1, **gs) <= 1e-5 < gaussian_schedule_delta(10**6, epsilon=1.0, C1=C1*(1 - 1e-9), **gs)
    ls = dict(L=10, C2=2, eta=0.1, a=0, b=1, beta=0.5, rho=0)
    C1 = laplace_schedule_C1(1.0, 1e-4, n=10**5, **ls)
    assert laplace_schedule_delta(10**5, epsilon=1.0, C1=C1, **ls) <= 1e-4

def test_fit_rate_recovers_known_power_and_log_rates():
    n = np.logspace(2, 8, 20)
    assert abs(fit_rate(n, 3/n)[0] + 1) < 1e-12
    s, r2 = fit_rate(n, 1/(2*np.log(n) + 5))
    assert r2 > 1 - 1e-12

@pytest.mark.parametrize('call,match', [
    (lambda: laplace_online_log_integral(0.5, epsilon=1, alpha=1.5, C1=100, C2=100), 'T must'),
    (lambda: laplace_online_log_integral(10, epsilon=1, alpha=1.0, C1=100, C2=100), 'alpha'),
    (lambda: laplace_online_log_integral(10, epsilon=1, alpha=1.5, C1=0, C2=100), 'C1'),
    (lambda: laplace_online_log_integral(1, epsilon=1, alpha=1.5, C1=100, C2=0), 'C2 too small'),
    (lambda: calibrate_gaussian_sigma(1.0, delta=1.0, n=10, L=1, eta=0.1, diameter=1, beta=0.5, rho=0), 'delta'),
    (lambda: calibrate_gaussian_sigma(1.0, delta=0.1, n=0, L=1, eta=0.1, diameter=1, beta=0.5, rho=0), 'n must'),
    (lambda: calibrate_gaussian_sigma(-1.0, delta=0.1, n=5, L=1, eta=0.1, diameter=1, beta=0.5, rho=0), 'eps'),
    (lambda: calibrate_laplace_scale(1.0, delta=0.1, n=5, L=1, eta=0.1, a=1, b=0, beta=0.5, rho=0), 'b must'),
    (lambda: gaussian_schedule_C1(1.0, 0.0), 'delta'), (lambda: laplace_schedule_C1(-1.0, 0.5), 'eps'),
    (lambda: gaussian_schedule_C1(1.0, 3e-6, n=10**6, L=10, C2=100, eta=0.1, diameter=1, beta=0.5, rho=0), 'not reachable'),
    (lambda: delta_star_c_closed_form(1.5), 'delta_star'),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match): call()

def test_online_schedule_C1_certified():
    from shuffle_privacy.mechanisms.iteration.schedules import online_schedule_C1
    from shuffle_privacy.mechanisms.iteration.bounds import online_laplace_delta
    onl = dict(i=100, L=10, eta=0.01, alpha=1.5, C2=100, beta=0.5, rho=0, a=0, b=1)
    C1 = online_schedule_C1(1.0, 1e-6, noise='laplace', **onl)
    assert online_laplace_delta(1.0, C1=C1, **onl)[1] <= 1e-6 < online_laplace_delta(1.0, C1=C1*(1 - 1e-7), **onl)[1]
    C1n = online_schedule_C1(1.0, 1e-6, noise='laplace', n=5000, **onl)
    assert online_laplace_delta(1.0, C1=C1n, n=5000, **onl) <= 1e-6 and C1n > C1
    with pytest.raises(ValueError, match='noise must be'): online_schedule_C1(1.0, 1e-6, noise='x', **onl)

def test_shuffled_epsilon_certified_and_inverse_of_sigma_calibration():
    from shuffle_privacy.mechanisms.iteration.schedules import shuffled_epsilon
    kw = dict(n=10**4, L=1, eta=0.1, beta=0.5, rho=0)
    e = shuffled_epsilon(1e-5, noise='gaussian', sigma=3.0, diameter=1, **kw)
    g = lambda eps: shuffled_delta(*gaussian_constants(eps, L=1, sigma=3.0, eta=0.1, diameter=1, beta=0.5, rho=0), 10**4)
    assert g(e) <= 1e-5 < g(e - 1e-9)
    el = shuffled_epsilon(1e-3, noise='laplace', v=0.2, a=0, b=1, **kw)
    gl = lambda eps: shuffled_delta(*laplace_constants(eps, L=1, v=0.2, eta=0.1, a=0, b=1, beta=0.5, rho=0), 10**4)
    assert gl(el) <= 1e-3 < gl(el - 1e-9)
    assert shuffled_epsilon(0.999, noise='gaussian', sigma=50.0, diameter=1, **kw) == 0.0
    with pytest.raises(ValueError, match='noise must be'): shuffled_epsilon(1e-5, noise='x', **kw)


@pytest.mark.parametrize('d', [1e-300, 1e-250, 1e-200])
def test_schedule_C1_tiny_delta(d):
    "The geometric bisection took sqrt(lo*hi), which overflows to inf for brackets near 1e300 (ValueError blaming C1 = inf)."
    from shuffle_privacy.mechanisms.iteration.bounds import gaussian_delta_star, laplace_delta_star
    for f, star in ((gaussian_schedule_C1, gaussian_delta_star), (laplace_schedule_C1, laplace_delta_star)):
        C1 = f(1.0, d)
        assert math.isfinite(C1) and star(C1, 1.0) <= d < star(C1*(1 - 1e-12), 1.0)
