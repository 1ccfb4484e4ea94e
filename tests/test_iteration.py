"""Cross-checks of shuffle_privacy.mechanisms.iteration.bounds against independent 50-digit mpmath computations written straight from
the papers' formulas (Sordello, Bu, Dong (and Su), *Privacy Amplification via Iteration for Shuffled and Online
PNSGD*), hypothesis property tests and bad-input tests."""
import itertools, math
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, assume, strategies as st

from shuffle_privacy.mechanisms.iteration.bounds import (
    Contraction, theta, contraction_factor, gaussian_constants, laplace_constants, shuffled_delta, entry_delta,
    randomly_stopped_delta, shuffled_delta_mc, lemma8_leading, lemma8_remainder, lambertw_exp,
    laplace_scale_schedule, gaussian_sigma_schedule, laplace_delta_star, gaussian_delta_star,
    laplace_schedule_delta, gaussian_schedule_delta, online_laplace_delta, online_gaussian_delta)

mp.mp.dps = 50

# ---- independent references (mpmath, from the papers' formulas) --------------------------------------------

def mQ(x): return mp.erfc(mp.mpf(x)/mp.sqrt(2))/2
def mPhi(x): return mp.erfc(-mp.mpf(x)/mp.sqrt(2))/2

def m_theta(eps, r):
    "Eq. (1.3) with gamma = e^eps: Q(log(gamma)/r - r/2) - gamma Q(log(gamma)/r + r/2)."
    eps, r = mp.mpf(eps), mp.mpf(r)
    if r == 0: return mp.mpf(0)
    return mQ(eps/r - r/2) - mp.e**eps*mQ(eps/r + r/2)

def m_one_minus_theta(eps, r):
    "1 - theta written as Phi(eps/r - r/2) + e^eps Q(eps/r + r/2) (1 - Q(x) = Phi(x)), no cancellation."
    eps, r = mp.mpf(eps), mp.mpf(r)
    return mPhi(eps/r - r/2) + mp.e**eps*mQ(eps/r + r/2)

def m_M(eta, beta, rho):
    eta, beta, rho = map(mp.mpf, (eta, beta, rho))
    return mp.sqrt(1 - 2*eta*beta*rho/(beta + rho))

def m_gauss_AB(eps, L, sigma, eta, D, beta, rho):
    M = m_M(eta, beta, rho)
    return m_theta(eps, 2*mp.mpf(L)/sigma), m_theta(eps, M*D/(mp.mpf(eta)*sigma))

def m_lap_AB(eps, L, v, eta, a, b, beta, rho):
    M = m_M(eta, beta, rho); eps, L, v, eta = map(mp.mpf, (eps, L, v, eta))
    pos = lambda x: x if x > 0 else mp.mpf(0)
    return pos(1 - mp.e**(eps/2 - L/v)), pos(1 - mp.e**(eps/2 - M*(mp.mpf(b) - a)/(2*eta*v)))

def m_shuffled_sum(A, B, n):
    "Theorem 2 as the average over positions (1/n) sum_j A B^(n-j), summed term by term."
    return mp.fsum(A*B**(n - j) for j in range(1, n + 1))/n

def rel(a, b):
    "Relative error of the double a against the reference b; 0 when both are below the double range (underflow)."
    b = mp.mpf(b)
    if abs(b) < mp.mpf('1e-300') and abs(a) < 1e-300: return 0
    return abs(mp.mpf(a) - b)/abs(b) if b != 0 else abs(mp.mpf(a))

# ---- theta, constants ---------------------------------------------------------------------------------------

@pytest.mark.parametrize('eps', [0.0, 1e-6, 0.1, 1.0, 3.0, 10.0])
@pytest.mark.parametrize('r', [1e-3, 0.03, 0.3, 1.0, 2.5, 7.0, 20.0, 60.0])
def test_theta_matches_mpmath(eps, r):
    ref = m_theta(eps, r)
    if ref < mp.mpf('1e-300'): return        # below the double range (theta underflows); covered by log tests
    assert rel(theta(math.exp(eps), r), ref) < 1e-12, (eps, r)

@pytest.mark.parametrize('eps', [0.0, 0.5, 1.0, 5.0])
@pytest.mark.parametrize('sigma', [0.3, 0.5, 0.6, 1.0, 3.0, 30.0, 1e3])
def test_gaussian_constants_match_mpmath(eps, sigma):
    kw = dict(L=10, eta=0.1, diameter=1, beta=0.5, rho=0.2)
    A, B = gaussian_constants(eps, sigma=sigma, **kw)
    mA, mB = m_gauss_AB(eps, 10, sigma, 0.1, 1, 0.5, 0.2)
    assert rel(A, mA) < 1e-12
    assert rel(B.B, mB) < 1e-12 or abs(B.B - float(mB)) < 1e-16
    m1B = m_one_minus_theta(eps, m_M(0.1, 0.5, 0.2)/(mp.mpf('0.1')*sigma))
    assert rel(B.one_minus_B, m1B) < 1e-12, (B, m1B)     # 1 - B to full relative accuracy, even at 1e-16

def test_one_minus_B_within_1e12_of_one():
    "B within 1e-12 (and 1e-30) of 1: 1-B carried from the tails keeps 12 digits."
    mp.mp.dps = 80
    try:
        for sigma in (0.65, 0.5, 0.45):
            A, B = gaussian_constants(1.0, L=10, sigma=sigma, eta=0.1, diameter=1, beta=0.5, rho=0)
            ref = 1 - m_theta(1.0, 1/(mp.mpf('0.1')*sigma))
            assert ref < mp.mpf('1e-12')
            assert rel(B.one_minus_B, ref) < 1e-12
    finally:
        mp.mp.dps = 50

@pytest.mark.parametrize('v', [0.01, 0.05, 0.2, 1.0, 5.0, 30.0])
@pytest.mark.parametrize('eps', [0.0, 1.0, 4.0])
def test_laplace_constants_match_mpmath(v, eps):
    A, B = laplace_constants(eps, L=10, v=v, eta=0.1, a=0, b=1, beta=0.5, rho=0.1)
    with mp.workdps(150):         # 1 - B down to 1e-43 needs 43 + 15 digits
        mA, mB = m_lap_AB(eps, 10, v, 0.1, 0, 1, 0.5, 0.1)
        assert rel(A, mA) < 1e-13 or abs(A - float(mA)) < 1e-300
        assert abs(B.B - float(mB)) < 1e-15
        assert rel(B.one_minus_B, 1 - mB) < 1e-13

def test_contraction_factor_matches_mpmath():
    for eta, beta, rho in [(0.1, 0.5, 0.0), (0.5, 1.0, 1.0), (0.3, 2.0, 0.5), (1.9, 1.0, 0.05)]:
        assert rel(contraction_factor(eta, beta, rho), m_M(eta, beta, rho)) < 1e-14

# ---- delta bounds -------------------------------------------------------------------------------------------

@pytest.mark.parametrize('n', [1, 2, 3, 10, 100, 1000])
@pytest.mark.parametrize('sigma', [0.8, 2.0, 10.0])
def test_shuffled_delta_matches_sum_over_positions(n, sigma):
    A, B = gaussian_constants(1.0, L=1, sigma=sigma, eta=0.1, diameter=1, beta=0.5, rho=0)
    mA, mB = m_gauss_AB(1.0, 1, sigma, 0.1, 1, 0.5, 0)
    assert rel(shuffled_delta(A, B, n), m_shuffled_sum(mA, mB, n)) < 1e-12

@pytest.mark.parametrize('n', [10, 10**3, 10**6, 10**9, 10**12])
@pytest.mark.parametrize('one_minus_B', [1e-14, 1e-12, 1e-9, 1e-4, 0.3])
def test_shuffled_delta_large_n_no_overflow(n, one_minus_B):
    mp.mp.dps = 60
    try:
        c = mp.mpf(one_minus_B)
        ref = mp.mpf('0.7')*(1 - (1 - c)**n)/(n*c)
        got = shuffled_delta(0.7, Contraction(1 - one_minus_B, one_minus_B), n)
        assert math.isfinite(got) and rel(got, ref) < 1e-11
    finally:
        mp.mp.dps = 50

def test_entry_and_randomly_stopped_match_mpmath():
    A, B = gaussian_constants(0.5, L=1, sigma=1.3, eta=0.1, diameter=1, beta=0.5, rho=0)
    mA, mB = m_gauss_AB(0.5, 1, 1.3, 0.1, 1, 0.5, 0)
    n = 40
    for i in (1, 7, 40):
        assert rel(entry_delta(A, B, n, i=i), mA*mB**(n - i)) < 1e-12
        # randomly stopped at T ~ U{1..n}: (1/n) sum_{T=i}^{n} A B^(T-i)
        ref = mp.fsum(mA*mB**(T - i) for T in range(i, n + 1))/n
        assert rel(randomly_stopped_delta(A, B, n, i=i), ref) < 1e-12
    assert rel(randomly_stopped_delta(A, B, n), min(1, mA/(n*(1 - mB)))) < 1e-12
    assert rel(randomly_stopped_delta(A, B, 10**5), min(1, mA/(10**5*(1 - mB)))) < 1e-12

def test_theorem2_exact_enumeration_and_monte_carlo():
    A, B = gaussian_constants(1.0, L=1, sigma=1.0, eta=0.1, diameter=1, beta=0.5, rho=0)
    for n in (2, 4, 6):
        for i in range(1, n + 1):
            exact = np.mean([A*B.B**(n - (p.index(i - 1) + 1)) for p in itertools.permutations(range(n))])
            assert abs(exact - shuffled_delta(A, B, n)) < 1e-14
    m, se = shuffled_delta_mc(A, B, 7, i=3, n_perm=3000, rng=0)
    assert abs(m - shuffled_delta(A, B, 7)) < 5*se

# ---- Lemma 8 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize('sigma', [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.5])
@pytest.mark.parametrize('eps,c', [(0.0, 1.0), (1.0, 1.0), (2.0, 3.0)])
def test_lemma8_remainder_matches_mpmath(sigma, eps, c):
    mp.mp.dps = 60
    try:
        s = mp.mpf(sigma)
        one_m = m_one_minus_theta(eps, mp.mpf(c)/s)
        ref = one_m*mp.sqrt(2*mp.pi)*mp.e**(-mp.mpf(eps)/2)*mp.e**(mp.mpf(c)**2/(8*s*s)) - 4*s/c
        got = lemma8_remainder(eps, c=c, sigma=sigma)
        # the bracket is ~4 sigma/c and evaluated in doubles, so allow 1e-15 of it as absolute error
        assert abs(mp.mpf(got) - ref) <= 1e-10*abs(ref) + 4e-15*4*sigma/c, (got, ref)
        lead = lemma8_leading(eps, c=c, sigma=sigma)
        if sigma <= 0.01: assert rel(lead, one_m) < 20*(sigma/c)**2 + 1e-12
    finally:
        mp.mp.dps = 50

def test_lemma8_remainder_is_cubic():
    sig = np.logspace(-7, -1, 13)
    rem = lemma8_remainder(1.0, c=1.0, sigma=sig)
    slope = np.polyfit(np.log(sig), np.log(-rem), 1)[0]
    assert abs(slope - 3) < 0.01

# ---- schedules and limits -----------------------------------------------------------------------------------

@pytest.mark.parametrize('y', [-5.0, 0.0, 0.99, 1.0, 3.0, 50.0, 700.0, 5000.0])
def test_lambertw_exp_matches_mpmath(y):
    assert rel(lambertw_exp(y), mp.lambertw(mp.e**y)) < 1e-14

@pytest.mark.parametrize('n', [1, 10, 1000, 10**6, 10**12])
def test_schedules_match_mpmath(n):
    M = m_M(0.1, 0.5, 0.2)
    v = laplace_scale_schedule(n, C1=1e3, C2=2, eta=0.1, a=0, b=1, beta=0.5, rho=0.2)
    assert rel(v, M*1/(2*mp.mpf('0.1')*mp.log(mp.mpf(n)/1000 + 2))) < 1e-13
    s = gaussian_sigma_schedule(n, C1=1e3, C2=100, eta=0.1, diameter=2, beta=0.5, rho=0.2)
    x = mp.mpf(n)**2/(2*mp.mpf(1000)**2*mp.pi) + 100
    assert rel(s, M*2/(2*mp.mpf('0.1')*mp.sqrt(mp.lambertw(x)))) < 1e-13

@pytest.mark.parametrize('C1', [1e-3, 0.5, 10.0, 1e5])
@pytest.mark.parametrize('eps', [0.0, 1.0, 5.0])
def test_delta_stars_match_mpmath(C1, eps):
    c = mp.mpf(C1)*mp.e**(mp.mpf(eps)/2)
    assert rel(laplace_delta_star(C1, eps), (1 - mp.e**(-c))/c) < 1e-14
    assert rel(gaussian_delta_star(C1, eps), (1 - mp.e**(-2*c))/(2*c)) < 1e-14

@pytest.mark.parametrize('n', [10, 1000, 10**5, 10**8, 10**12])
def test_schedule_deltas_match_mpmath(n):
    "Theorem 2 with v(n) and sigma(n) plugged into (1.4)/(1.5), evaluated in mpmath from the schedule's noise level."
    lap = dict(L=10, beta=0.5, rho=0, eta=0.1, a=0, b=1, C1=1e5, C2=2)
    v = 1/(2*mp.mpf('0.1')*mp.log(mp.mpf(n)/mp.mpf(10)**5 + 2))
    mA, mB = m_lap_AB(1, 10, v, '0.1', 0, 1, '0.5', 0)
    ref = mA*(1 - mB**n)/(n*(1 - mB))
    assert rel(laplace_schedule_delta(n, epsilon=1, **lap), ref) < 1e-11
    gau = dict(L=10, beta=0.5, rho=0, eta=0.1, diameter=1, C1=1e5, C2=100)
    x = mp.mpf(n)**2/(2*mp.mpf(10)**10*mp.pi) + 100
    sig = 1/(2*mp.mpf('0.1')*mp.sqrt(mp.lambertw(x)))
    mA = m_theta(1, 20/sig)
    m1B = m_one_minus_theta(1, 1/(mp.mpf('0.1')*sig))
    ref = mA*(1 - (1 - m1B)**n)/(n*m1B)
    assert rel(gaussian_schedule_delta(n, epsilon=1, **gau), ref) < 1e-11

def test_schedule_deltas_converge_to_delta_star():
    lap = dict(L=10, beta=0.5, rho=0, eta=0.1, a=0, b=1, C1=1e5, C2=2)
    gap = [abs(laplace_schedule_delta(n, epsilon=1, **lap) - laplace_delta_star(1e5, 1)) for n in (1e8, 1e10, 1e12)]
    assert gap[0] > gap[1] > gap[2] and gap[2] < 1e-10
    gau = dict(L=10, beta=0.5, rho=0, eta=0.1, diameter=1, C1=1e5, C2=100)
    ns = [10**k for k in (20, 40, 80)]
    gg = [abs(gaussian_schedule_delta(n, epsilon=1, **gau) - gaussian_delta_star(1e5, 1)) for n in ns]
    assert gg[0] > gg[1] > gg[2]
    # O(1/log n): doubling log n should roughly halve the gap
    assert 0.3 < gg[2]/gg[1] < 0.7

# ---- online -------------------------------------------------------------------------------------------------

ON = dict(L=10, beta=0.5, rho=0, eta=0.01, alpha=1.5, i=100, C1=100, C2=100)

def m_online_lap_terms(eps, i, n, L, eta, alpha, C1, C2, a, b, beta, rho):
    "A_i and the B_t of (6.1) from v_j of (6.2) plugged into (1.5) (not the simplified form)."
    M = m_M(eta, beta, rho)
    v = lambda j: M*(mp.mpf(b) - a)/(2*mp.mpf(eta)*mp.log(mp.mpf(j)**mp.mpf(alpha)/C1 + C2))
    A = m_lap_AB(eps, L, v(i), eta, a, b, beta, rho)[0]
    Bs = [m_lap_AB(eps, L, v(t), eta, a, b, beta, rho)[1] for t in range(i + 1, n + 1)]
    return A, Bs

def m_online_gauss_terms(eps, i, n, L, eta, alpha, C1, C2, D, beta, rho):
    M = m_M(eta, beta, rho)
    sig = lambda j: M*D/(2*mp.mpf(eta)*mp.sqrt(mp.lambertw(mp.mpf(j)**(2*mp.mpf(alpha))/(2*mp.pi*mp.mpf(C1)**2) + C2)))
    A = m_theta(eps, 2*mp.mpf(L)/sig(i))
    Bs = [m_theta(eps, M*D/(mp.mpf(eta)*sig(t))) for t in range(i + 1, n + 1)]
    return A, Bs

@pytest.mark.parametrize('n', [100, 101, 150, 600])
def test_online_laplace_finite_n_matches_mpmath(n):
    A, Bs = m_online_lap_terms(1, 100, n, 10, '0.01', '1.5', 100, 100, 0, 1, '0.5', 0)
    ref = A*mp.fprod(Bs)
    assert rel(online_laplace_delta(1.0, a=0, b=1, n=n, **ON), ref) < 1e-12

@pytest.mark.parametrize('n', [100, 130, 400])
def test_online_gaussian_finite_n_matches_mpmath(n):
    mp.mp.dps = 30
    try:
        A, Bs = m_online_gauss_terms(1, 100, n, 10, '0.01', '1.5', 100, 100, 1, '0.5', 0)
        ref = A*mp.fprod(Bs)
        assert rel(online_gaussian_delta(1.0, diameter=1, n=n, **ON), ref) < 1e-11
    finally:
        mp.mp.dps = 50

def test_online_array_n_equals_scalar_calls():
    ns = [400, 100, 2000]
    arr = online_laplace_delta(1.0, a=0, b=1, n=ns, **ON)
    for k, n in enumerate(ns):
        assert arr[k] == online_laplace_delta(1.0, a=0, b=1, n=n, **ON)

def mquad_tail(g, T, alpha=1.5):
    "integral_T^inf g(t) dt by tanh-sinh after t = s^(1/(1-alpha)), on pieces [S 2^-(j+1), S 2^-j] of (0, S = T^(1-alpha)]."
    a = mp.mpf(alpha); S = mp.mpf(T)**(1 - a)
    h = lambda s: g(s**(1/(1 - a)))*s**(a/(1 - a))/(a - 1)
    return mp.quad(h, [0] + [S/mp.mpf(2)**j for j in range(24, -1, -1)])

def test_online_laplace_limit_interval_matches_mpmath_quadrature():
    with mp.workdps(40):
        eps, i, C1, C2, alpha = 1, 100, 100, 100, mp.mpf('1.5')
        k = C1*mp.e**(mp.mpf(eps)/2)
        g = lambda x: mp.log1p(-k/(x**alpha + C1*C2))          # the integrand of (6.3), log(1 - y) as log1p
        A = m_online_lap_terms(eps, i, i, 10, '0.01', '1.5', C1, C2, 0, 1, '0.5', 0)[0]
        I_lo, I_up = mquad_tail(g, i), mquad_tail(g, i + 1)
        lo, up = online_laplace_delta(1.0, a=0, b=1, **ON)
        ref_lo, ref_up = A*mp.e**I_lo, A*mp.e**I_up
        assert lo <= ref_lo and rel(lo, ref_lo) < 1e-11
        assert up >= ref_up and rel(up, ref_up) < 1e-11
        # the true limit A prod_{t>i} B_t lies inside: exact sum to 5000 plus a bracketed tail
        s = mp.fsum(g(t) for t in range(i + 1, 5001))
        tail_lo, tail_up = mquad_tail(g, 5000), mquad_tail(g, 5001)
        assert lo <= A*mp.e**(s + tail_lo) <= A*mp.e**(s + tail_up) <= up
        lo2, up2 = online_laplace_delta(1.0, a=0, b=1, exact_terms=4900, **ON)
        assert lo2 <= A*mp.e**(s + tail_lo) and A*mp.e**(s + tail_up) <= up2
        assert rel(lo2, A*mp.e**(s + tail_lo)) < 1e-11 and rel(up2, A*mp.e**(s + tail_up)) < 1e-11

def test_online_gaussian_limit_interval_matches_mpmath_quadrature():
    with mp.workdps(30):
        eps, i, C1, C2, alpha = 1, 100, 100, 100, mp.mpf('1.5')
        # the integrand of (6.5), log theta(2 sqrt(W(x^(2 alpha)/(2 pi C1^2) + C2))), with log theta = log1p(-(1 - theta))
        g = lambda x: mp.log1p(-m_one_minus_theta(eps, 2*mp.sqrt(mp.lambertw(x**(2*alpha)/(2*mp.pi*C1**2) + C2))))
        A = m_online_gauss_terms(eps, i, i, 10, '0.01', '1.5', C1, C2, 1, '0.5', 0)[0]
        I_lo, I_up = mquad_tail(g, i), mquad_tail(g, i + 1)
        lo, up = online_gaussian_delta(1.0, diameter=1, **ON)
        assert lo <= A*mp.e**I_lo and rel(lo, A*mp.e**I_lo) < 1e-10
        assert up >= A*mp.e**I_up and rel(up, A*mp.e**I_up) < 1e-10

def test_online_limit_contains_finite_n_tail_behaviour():
    lo, up = online_laplace_delta(1.0, a=0, b=1, **ON)
    lo2, up2 = online_laplace_delta(1.0, a=0, b=1, exact_terms=10**5, **ON)
    d = online_laplace_delta(1.0, a=0, b=1, n=[10**3, 10**5, 10**6], **ON)
    assert lo <= lo2 <= up2 <= up
    assert np.all(np.diff(d) < 0) and d[-1] > lo2          # delta_n decreases to the limit from above

# ---- properties ---------------------------------------------------------------------------------------------

params = dict(eps=st.floats(0, 8), L=st.floats(0.01, 20), sigma=st.floats(0.05, 200),
              eta=st.floats(1e-3, 1.0), D=st.floats(0.01, 10), n=st.integers(1, 10**12))

@given(**params)
@settings(max_examples=150, deadline=None)
def test_shuffled_gaussian_delta_in_unit_interval_and_below_stopped(eps, L, sigma, eta, D, n):
    A, B = gaussian_constants(eps, L=L, sigma=sigma, eta=eta, diameter=D, beta=0.5, rho=0.1)
    d = shuffled_delta(A, B, n)
    assert 0 <= d <= 1 and 0 <= A <= 1 and 0 <= B.B <= 1
    assert d <= randomly_stopped_delta(A, B, n) * (1 + 1e-14)
    assert d == pytest.approx(randomly_stopped_delta(A, B, n, i=1), rel=4e-16, abs=0)   # same formula, two code paths

@given(eps=st.floats(0, 8), sigma=st.floats(0.05, 100), n=st.integers(1, 10**9), k=st.integers(1, 10**6))
@settings(max_examples=150, deadline=None)
def test_shuffled_delta_monotone_in_n(eps, sigma, n, k):
    A, B = gaussian_constants(eps, L=1, sigma=sigma, eta=0.1, diameter=1, beta=0.5, rho=0)
    assert shuffled_delta(A, B, n + k) <= shuffled_delta(A, B, n) * (1 + 1e-13)

@given(eps=st.floats(0, 8), de=st.floats(1e-3, 3), sigma=st.floats(0.05, 100), ds=st.floats(1e-3, 10),
       n=st.integers(1, 10**9))
@settings(max_examples=150, deadline=None)
def test_shuffled_delta_monotone_in_eps_and_sigma(eps, de, sigma, ds, n):
    kw = dict(L=1, eta=0.1, diameter=1, beta=0.5, rho=0)
    d0 = shuffled_delta(*gaussian_constants(eps, sigma=sigma, **kw), n)
    assert shuffled_delta(*gaussian_constants(eps + de, sigma=sigma, **kw), n) <= d0*(1 + 1e-12) + 1e-300
    assert shuffled_delta(*gaussian_constants(eps, sigma=sigma*(1 + ds), **kw), n) <= d0*(1 + 1e-12) + 1e-300
    lk = dict(L=1, eta=0.1, a=0, b=1, beta=0.5, rho=0)
    l0 = shuffled_delta(*laplace_constants(eps, v=sigma, **lk), n)
    assert 0 <= l0 <= 1
    assert shuffled_delta(*laplace_constants(eps + de, v=sigma, **lk), n) <= l0*(1 + 1e-12) + 1e-300
    assert shuffled_delta(*laplace_constants(eps, v=sigma*(1 + ds), **lk), n) <= l0*(1 + 1e-12) + 1e-300

@given(A=st.floats(0, 1), c=st.floats(0, 1), n=st.integers(1, 10**12), i=st.integers(1, 10**12))
@settings(max_examples=200, deadline=None)
def test_shuffled_vs_randomly_stopped_every_i(A, c, n, i):
    assume(i <= n)
    B = Contraction(1 - c, c)
    sh = shuffled_delta(A, B, n)
    assert sh <= randomly_stopped_delta(A, B, n)*(1 + 1e-14) + 1e-300          # the i-free guarantee
    assert randomly_stopped_delta(A, B, n, i=i) <= sh*(1 + 1e-12) + 1e-300      # shuffled = max_i of the exact form

@given(eps=st.floats(0, 4), C1=st.floats(1, 1e3), C2=st.floats(1, 1e3), alpha=st.floats(1.05, 3), i=st.integers(1, 300))
@settings(max_examples=25, deadline=None)
def test_online_laplace_interval_properties(eps, C1, C2, alpha, i):
    kw = dict(L=10, beta=0.5, rho=0, eta=0.01, alpha=alpha, i=i, C1=C1, C2=C2, a=0, b=1)
    lo, up = online_laplace_delta(eps, **kw)
    assert 0 <= lo <= up <= 1
    d = online_laplace_delta(eps, n=[i, i + 10, i + 1000], **kw)
    assert np.all(np.diff(d) <= 0) and np.all((d >= 0) & (d <= 1))
    assert d[-1] >= lo

# ---- bad input ----------------------------------------------------------------------------------------------

G = dict(L=10, sigma=1.0, eta=0.1, diameter=1, beta=0.5, rho=0)
LP = dict(L=10, v=1.0, eta=0.1, a=0, b=1, beta=0.5, rho=0)
GS = dict(C1=1e5, C2=100, eta=0.1, diameter=1, beta=0.5, rho=0)
LS = dict(C1=1e5, C2=2, eta=0.1, a=0, b=1, beta=0.5, rho=0)
OL = dict(i=100, L=10, eta=0.01, alpha=1.5, C1=100, C2=100, a=0, b=1, beta=0.5, rho=0)
OG = dict(i=100, L=10, eta=0.01, alpha=1.5, C1=100, C2=100, diameter=1, beta=0.5, rho=0)

@pytest.mark.parametrize('call,match', [
    (lambda: theta(0.9, 1.0), 'gamma'), (lambda: theta(2.0, -0.1), 'r must'), (lambda: theta(float('nan'), 1.), 'gamma'),
    (lambda: gaussian_constants(-0.1, **G), 'eps'), (lambda: gaussian_constants(1, **{**G, 'L': 0}), 'L must'),
    (lambda: gaussian_constants(1, **{**G, 'sigma': 0}), 'sigma'), (lambda: gaussian_constants(1, **{**G, 'eta': 0}), 'eta'),
    (lambda: gaussian_constants(1, **{**G, 'eta': 5}), 'eta'), (lambda: gaussian_constants(1, **{**G, 'diameter': -1}), 'diameter'),
    (lambda: gaussian_constants(1, **{**G, 'beta': 0}), 'beta'), (lambda: gaussian_constants(1, **{**G, 'rho': -1}), 'rho'),
    (lambda: gaussian_constants(1, **{**G, 'rho': 1.0}), 'rho'),
    (lambda: laplace_constants(1, **{**LP, 'v': -1}), 'v must'), (lambda: laplace_constants(1, **{**LP, 'a': 2}), 'b must be > a'),
    (lambda: laplace_constants(float('inf'), **LP), 'eps'),
    (lambda: shuffled_delta(0.5, 0.5, 0), 'n must'), (lambda: shuffled_delta(1.5, 0.5, 3), 'A must'),
    (lambda: shuffled_delta(0.5, 1.5, 3), 'B must'), (lambda: shuffled_delta(0.5, Contraction(0.5, 0.4), 3), 'must equal 1'),
    (lambda: shuffled_delta(0.5, 0.5, 2.5), 'n must'),
    (lambda: entry_delta(0.5, 0.5, 3, i=4), 'i must'), (lambda: randomly_stopped_delta(0.5, 0.5, 3, i=0), 'i must'),
    (lambda: laplace_scale_schedule(0, **LS), 'n must'), (lambda: laplace_scale_schedule(10, **{**LS, 'C1': 0}), 'C1'),
    (lambda: laplace_scale_schedule(10, **{**LS, 'C2': 0.5}), 'C2'), (lambda: laplace_scale_schedule(10, **{**LS, 'eta': -1}), 'eta'),
    (lambda: gaussian_sigma_schedule(0, **GS), 'n must'), (lambda: gaussian_sigma_schedule(10, **{**GS, 'C1': -1}), 'C1'),
    (lambda: gaussian_sigma_schedule(10, **{**GS, 'C2': -1}), 'C2'), (lambda: gaussian_sigma_schedule(10, **{**GS, 'eta': 0}), 'eta'),
    (lambda: gaussian_sigma_schedule(10, **{**GS, 'eta': 2., 'beta': 1., 'rho': 1.}), 'eta'),
    (lambda: laplace_delta_star(0, 1.0), 'C1'), (lambda: laplace_delta_star(1, -1.0), 'eps'),
    (lambda: gaussian_delta_star(-2, 1.0), 'C1'), (lambda: gaussian_delta_star(1, float('nan')), 'eps'),
    (lambda: online_laplace_delta(1.0, **{**OL, 'alpha': 1.0}), 'alpha'), (lambda: online_laplace_delta(1.0, **{**OL, 'C1': 0}), 'C1'),
    (lambda: online_laplace_delta(1.0, **{**OL, 'i': 0}), 'i must'), (lambda: online_laplace_delta(1.0, n=0, **OL), 'n must'),
    (lambda: online_laplace_delta(1.0, n=99, **OL), 'n must be >= i'), (lambda: online_laplace_delta(-1.0, **OL), 'eps'),
    (lambda: online_laplace_delta(1.0, **{**OL, 'eta': 0}), 'eta'), (lambda: online_laplace_delta(1.0, **{**OL, 'C2': 0.0, 'C1': 1e9}), 'C2'),
    (lambda: online_laplace_delta(1.0, exact_terms=-1, **OL), 'exact_terms'),
    (lambda: online_gaussian_delta(1.0, **{**OG, 'alpha': 0.5}), 'alpha'), (lambda: online_gaussian_delta(1.0, **{**OG, 'C1': -1}), 'C1'),
    (lambda: online_gaussian_delta(1.0, n=0, **OG), 'n must'), (lambda: online_gaussian_delta(1.0, **{**OG, 'diameter': 0}), 'diameter'),
    (lambda: online_gaussian_delta(1.0, **{**OG, 'eta': 0}), 'eta'), (lambda: online_gaussian_delta(1.0, **{**OG, 'L': 0}), 'L must'),
    (lambda: gaussian_schedule_delta(10, epsilon=1, L=1, kind='x', **GS), 'kind'),
    (lambda: shuffled_delta_mc(0.5, 0.5, 3, i=5), 'i must'),
])
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match): call()

@pytest.mark.parametrize('kind', ['laplace', 'gaussian'])
def test_online_euler_maclaurin_tail_matches_exact_sum(kind, monkeypatch):
    "For huge n the tail beyond 10^7 factors is summed by Euler-Maclaurin; check it against the exact sum at small scale."
    import shuffle_privacy.mechanisms.iteration.bounds as it
    f, g = (online_laplace_delta, dict(a=0, b=1)) if kind == 'laplace' else (online_gaussian_delta, dict(diameter=1))
    exact = f(1.0, n=[3*10**4, 10**5, 10**6], **ON, **g)
    monkeypatch.setattr(it, '_EXACT_MAX', 2*10**4); monkeypatch.setattr(it, '_EM_START', 10**4)
    em = f(1.0, n=[3*10**4, 10**5, 10**6], **ON, **g)
    np.testing.assert_allclose(em, exact, rtol=1e-11)
    lo, up = f(1.0, **ON, **g)
    big = f(1.0, n=10**18, **ON, **g)
    assert lo <= big <= up and big < f(1.0, n=10**12, **ON, **g)

@given(eps=st.floats(1e-4, 6), r=st.floats(1e-3, 2.0))
@settings(max_examples=120, deadline=None)
def test_theta_small_r_matches_mpmath(eps, r):
    "The cancelling regime (small r, eps > 0), where theta is evaluated by quadrature of a positive integrand."
    ref = m_theta(eps, r)
    if ref < mp.mpf('1e-300'): return
    assert rel(theta(math.exp(eps), r), ref) < 1e-11

@given(eps=st.floats(0, 6), r=st.floats(0, 50), dr=st.floats(1e-3, 5), de=st.floats(1e-3, 2))
@settings(max_examples=150, deadline=None)
def test_theta_in_unit_interval_increasing_in_r_decreasing_in_gamma(eps, r, dr, de):
    t = theta(math.exp(eps), r)
    assert 0 <= t <= 1
    assert theta(math.exp(eps), r + dr) >= t*(1 - 1e-13)
    assert theta(math.exp(eps + de), r) <= t*(1 + 1e-13) + 1e-300


@pytest.mark.parametrize('y', [1e9, 1e11, 1e15, 1e100, 1e154, 1e200, 1e300])
def test_lambertw_exp_huge_argument(y):
    "The Fritsch iteration overflowed to nan from y ~ 1e154; the asymptotic series is exact in floats there."
    assert rel(lambertw_exp(y), mp.lambertw(mp.e**mp.mpf(y))) < 1e-14
    assert lambertw_exp(math.inf) == math.inf

def test_online_laplace_huge_eps_no_overflow():
    "e^{eps/2} overflowed (OverflowError) for eps > 1418; the delta is then 0 (B_t = 0 for small t)."
    on = dict(L=10, beta=0.5, rho=0, eta=0.01, alpha=1.5, i=100, C1=100, C2=100, a=0, b=1)
    assert online_laplace_delta(2000.0, n=200, **on) == 0.0
    assert online_laplace_delta(1.0, n=200, **on) == pytest.approx(0.08767912285621007, rel=1e-12)
