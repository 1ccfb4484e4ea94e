"""Issue 12: every misbehaviour the fuzz run and the numerical review reported, as a regression test."""
import math, signal, warnings
import numpy as np
import pytest
from fractions import Fraction
from shuffle_privacy.accounting.conversions import optimal_composition_delta, rdp_to_delta, advanced_composition
from shuffle_privacy.mechanisms.shuffle_gaussian.rdp import shuffle_gaussian_rdp
from shuffle_privacy.mechanisms.shuffle_gaussian.subsampled import subsampled_shuffle_gaussian_rdp, checkin_rdp_exact
from shuffle_privacy.mechanisms.iteration.bounds import lemma8_remainder, laplace_constants
from shuffle_privacy.mechanisms.iteration.schedules import shuffled_epsilon
from shuffle_privacy.mechanisms.summation.protocols import p1d_params, pvec_variance_bound, p1d_sum, pvec_sum
from shuffle_privacy.mechanisms.summation.exact import p1d_exact_delta, p1d_exact_epsilon, p1d_min_b
from shuffle_privacy.mechanisms.blogs.published import blogs_block_sizes
from shuffle_privacy.audit import epsilon_lower_bound, audit

@pytest.fixture
def deadline():
    "Fail a call that runs longer than 20 s (a hang) instead of blocking the suite."
    def handler(*_): raise TimeoutError('hang: more than 20 s')
    old = signal.signal(signal.SIGALRM, handler); signal.alarm(20)
    yield
    signal.alarm(0); signal.signal(signal.SIGALRM, old)

def test_optimal_composition_delta_stays_in_unit_interval():
    assert optimal_composition_delta(1e-10, 0.9999999, count=30000, epsilon_total=1.0) <= 1.0

def test_optimal_composition_delta_huge_k_fits_in_memory(deadline):
    assert optimal_composition_delta(0.1, 0, count=10**9, epsilon_total=1.0) == 1.0
    d = optimal_composition_delta(1e-4, 0, count=10**9, epsilon_total=10.0)
    assert 0 <= d <= 1

def test_optimal_composition_window_matches_full_sum(monkeypatch):
    import shuffle_privacy.accounting.conversions as c
    a = c.optimal_composition_delta(0.01, 1e-9, count=500_000, epsilon_total=40.0)
    monkeypatch.setattr(c, '_KOV_MAX_TERMS', 10**9)
    b = c.optimal_composition_delta(0.01, 1e-9, count=500_000, epsilon_total=40.0)
    assert a >= b and a == pytest.approx(b, rel=1e-12)

def test_rdp_to_delta_huge_epsilon_is_zero_not_nan():
    d, _ = rdp_to_delta([2, 3], [0.1, 0.2], 1e308)
    assert d == 0.0

@pytest.mark.parametrize('sigma', [1e-300, 1e-155, 1e-12, 1e150, 1e155, 1e300])
def test_shuffle_gaussian_rdp_extreme_sigma(sigma):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        r = shuffle_gaussian_rdp([2, 3, 50], 10, sigma)
    assert not np.isnan(r).any() and np.all(r > 0)
    if sigma >= 1e150: assert np.all(np.isfinite(r))

def test_shuffle_gaussian_rdp_tiny_sigma_is_corollary1_to_an_ulp():
    o = np.array([2, 7, 40]); s = 1e-11; n = 1000
    r = shuffle_gaussian_rdp(o, n, s)
    lower = o/(2*s*s) - math.log(n)      # all λ units on one coordinate
    assert np.all(r >= lower) and np.all((r - lower)/r <= 4.5e-16)   # within two ulps of the exact value

def test_lemma8_remainder_finite_where_the_product_underflows():
    assert math.isfinite(lemma8_remainder(1.0, c=0.01, sigma=0.5))

def test_lemma8_remainder_against_mpmath():
    import mpmath as mp
    mp.mp.dps = 50
    for eps, c, s in [(1.0, 0.01, 0.5), (1.0, 1.0, 0.5), (0.1, 2.0, 0.3), (3.0, 1.0, 2.0)]:
        u, w = mp.mpf(c)/(2*s), mp.mpf(eps)*s/c
        R = lambda x: mp.sqrt(mp.pi/2)*mp.erfc(x/mp.sqrt(2))*mp.exp(x*x/2)
        ref = mp.exp(-w*w/2)*(R(u - w) + R(u + w)) - 4*mp.mpf(s)/c
        assert lemma8_remainder(eps, c=c, sigma=s) == pytest.approx(float(ref), rel=1e-12, abs=1e-14)

@pytest.mark.parametrize('dp', [5e-324, 1e-310])
def test_advanced_composition_subnormal_delta_prime(dp):
    e, d = advanced_composition(0.1, 0.0, count=10, delta_prime=dp)
    assert math.isfinite(e) and 0 <= d <= 1

def test_advanced_composition_large_eps_no_overflow():
    e, d = advanced_composition(710.0, 0.0, count=10, delta_prime=1e-6)
    assert e == math.inf and 0 <= d <= 1

@pytest.mark.parametrize('sigma', [0.03, 0.01, 0.001])
def test_checkin_small_sigma_no_overflow(sigma):
    r = checkin_rdp_exact([2, 3, 10], 100, probability=0.1, sigma=sigma)
    assert np.all(np.isfinite(r)) and np.all(np.diff(r) >= 0)

def test_subsampled_curve_non_decreasing_in_order():
    o = np.arange(2, 600)
    for m, n, s in [(300, 6000, 1.0), (50, 100, 0.7), (1000, 100000, 3.0)]:
        assert np.all(np.diff(subsampled_shuffle_gaussian_rdp(o, m, num_users=n, sigma=s)) >= 0)

def test_laplace_constants_B_through_expm1():
    A, B = laplace_constants(0.0, L=1.0, v=1e15, eta=0.1, a=0.0, b=1.0, beta=1.0, rho=0.0)
    # log(1-B) = -M(b-a)/(2 eta v) with M = 1 here (rho = 0): B = -expm1(-1/(2*0.1*1e15))
    assert B.B == pytest.approx(-math.expm1(-1/(2*0.1*1e15)), rel=1e-14)

def test_shuffled_epsilon_atol_zero_terminates(deadline):
    kw = dict(noise='gaussian', n=1000, L=1.0, eta=0.05, beta=1.0, rho=0.0, sigma=2.0, diameter=1.0)
    assert shuffled_epsilon(1e-3, atol=0, **kw) == pytest.approx(shuffled_epsilon(1e-3, **kw), rel=1e-9)

def test_p1d_params_tiny_eps_is_a_clear_error():
    with pytest.raises(ValueError, match='eps'): p1d_params(101, 1e-300, 1e-9)

@pytest.mark.parametrize('kw', [dict(d=-1, epsilon=1.0, delta=1e-6, Delta2=1.0), dict(d=10, epsilon=math.nan,
                                                                                      delta=1e-6, Delta2=1.0),
                                dict(d=10, epsilon=1.0, delta=1e-6, Delta2=-1.0)])
def test_pvec_variance_bound_validates(kw):
    with pytest.raises(ValueError): pvec_variance_bound(**kw)

def test_pvec_variance_bound_tiny_eps_is_inf_not_error():
    assert pvec_variance_bound(10, 1e-300, delta=1e-6, Delta2=1.0) == math.inf

def _exact_p1d_delta(eps, m, p, g):
    from math import comb
    p = Fraction(p); E = Fraction(math.exp(eps))
    P = [comb(m, z)*p**z*(1 - p)**(m - z) for z in range(m + 1)]
    return max(sum(max(Fraction(0), P[z] - E*(P[z - k] if 0 <= z - k <= m else 0)) for z in range(m + 1)) for k in (g, -g))

@pytest.mark.parametrize('eps,m,p,g', [(0.5, 40, 0.5, 3), (1.0, 200, 0.3, 10), (0.1, 500, 0.5, 2), (2.0, 30, 0.5, 20),
                                       (0.0, 100, 0.5, 1), (0.05, 1000, 0.5, 1)])
def test_p1d_exact_delta_is_rounded_up(eps, m, p, g):
    ex = float(_exact_p1d_delta(eps, m, p, g))
    got = p1d_exact_delta(eps, m=m, p=p, g=g)
    assert ex <= got <= min(1.0, ex*(1 + 1e-9) + 1e-300)

def test_p1d_exact_delta_at_most_one():
    assert p1d_exact_delta(0.1, m=3, p=0.5, g=100) <= 1.0

def test_p1d_exact_epsilon_tiny_tol_terminates(deadline):
    a = p1d_exact_epsilon(1e-6, m=1000, p=0.5, g=5, tol=1e-20)
    assert p1d_exact_delta(a, m=1000, p=0.5, g=5) <= 1e-6

def test_p1d_min_b_tiny_delta_terminates(deadline):
    b = p1d_min_b(1000, 1.0, 1e-300, g=32)
    assert b >= 1

def test_blogs_block_sizes_subnormal_delta_returns_sizes():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        r = blogs_block_sizes([100, 1000], 1.0, delta=5e-324, count=10, clip=1.0)
    assert r is not None and len(r) == 2

def test_rng_accepts_none_int_generator_and_a_seed_reproduces():
    "Contract item 5: rng= takes None, an int seed or a Generator; a seed and a Generator of that seed draw alike."
    x, X = np.linspace(0, 1, 20), np.full((20, 3), 0.1)
    s = [p1d_sum(x, 5, b=4, p=0.5, Delta=1.0, rng=r) for r in (None, 3, np.random.default_rng(3), 3)]
    v = [pvec_sum(X, 1.0, delta=1e-6, Delta2=1.0, rng=r) for r in (None, 3, np.random.default_rng(3), 3)]
    assert all(math.isfinite(t) for t in s) and all(a.shape == (3,) and np.isfinite(a).all() for a in v)
    assert s[1] == s[2] == s[3] and all(np.array_equal(v[1], a) for a in v[2:])
    g = np.random.default_rng(3); p1d_sum(x, 5, b=4, p=0.5, Delta=1.0,
                                          rng=g)          # a Generator is used, not reseeded
    assert not np.array_equal(np.random.default_rng(3).random(4), g.random(4))
    with pytest.raises((ValueError, TypeError), match='rng'): p1d_sum(x, 5, b=4, p=0.5, Delta=1.0, rng='x')

def test_audit_joint_confidence():
    assert epsilon_lower_bound(1000, 0, trials=1000) == pytest.approx(5.809, abs=1e-3)              # 90.25% joint
    assert epsilon_lower_bound(1000, 0, trials=1000, joint_confidence=0.95) == pytest.approx(5.604, abs=1e-3)
    r = audit(lambda g: 1, lambda g: 0, detect=lambda o: o == 1, trials=200, rng=0, joint_confidence=0.95)
    assert r.joint_confidence == pytest.approx(0.95) and '95.00%' in repr(r)

# --- domains declared for shuffle_privacy.mechanisms.iteration.bounds (tests/domains/d_iteration.py) ---

def test_delta_star_large_eps_no_overflow():
    "math.exp(eps/2) overflowed (OverflowError) for eps > ~1420; delta* = 1/c there, c = C1 e^{eps/2}."
    from shuffle_privacy.mechanisms.iteration.bounds import laplace_delta_star, gaussian_delta_star
    assert gaussian_delta_star(1e-300, 1e4) == 0.0 and laplace_delta_star(1e-300, 1e4) == 0.0
    assert laplace_delta_star(1e-300, 1400.0) == pytest.approx(math.exp(-(math.log(1e-300) + 700)), rel=1e-12)
    assert gaussian_delta_star(1e300, 0.0) == pytest.approx(0.5e-300, rel=1e-12)

def test_shuffled_delta_mc_huge_n_refused_and_rng_checked():
    "rng.permutation(n) per draw asked for 7 TiB at n = 1e12 (MemoryError); rng='x' raised TypeError."
    from shuffle_privacy.core import ResourceLimitError
    from shuffle_privacy.mechanisms.iteration.bounds import shuffled_delta_mc
    with pytest.raises(ResourceLimitError, match='instead'): shuffled_delta_mc(0.5, 0.5, 10**12, n_perm=2)
    with pytest.raises(ValueError, match='rng'): shuffled_delta_mc(0.5, 0.5, 3, rng='x')

def test_lambertw_exp_rejects_nan():
    from shuffle_privacy.mechanisms.iteration.bounds import lambertw_exp
    with pytest.raises(ValueError, match='y'): lambertw_exp(math.nan)
    with pytest.raises(ValueError, match='y'): lambertw_exp([0.0, math.nan])
    assert lambertw_exp(-math.inf) == 0.0 and lambertw_exp(math.inf) == math.inf

def test_online_delta_limit_huge_eps_no_overflow():
    "The tail integrand e^{log(1-B) - log tau} overflowed (OverflowError) when e^{eps/2} C1 passes e^709."
    from shuffle_privacy.mechanisms.iteration.bounds import online_gaussian_delta, online_laplace_delta
    kw = dict(i=1, epsilon=1e4, L=1e-10, alpha=1.001, C1=1e-20, C2=1.0, beta=1e-50, rho=0.0, eta=2e50)
    lo, up = online_gaussian_delta(diameter=1e-20, **kw)
    assert 0 <= lo <= up <= 1
    lo, up = online_laplace_delta(a=0.0, b=1e-20, **kw)
    assert 0 <= lo <= up <= 1

def test_online_delta_limit_large_C1_in_unit_interval():
    "The certified limit interval came out as (1.58, 1.0): quad returned a positive integral of log B <= 0 (the tail"
    " integrand grows like s^(-alpha/(alpha-1)) down to the saturation point); now split at decades of s."
    from shuffle_privacy.mechanisms.iteration.bounds import online_laplace_delta, online_gaussian_delta
    kw = dict(i=1, L=1e-10, eta=2e50, alpha=10.0, C1=1e20, C2=math.e, beta=1e-50, rho=0.0)
    lo, up = online_laplace_delta(0.0, a=0.0, b=1e-20, **kw)
    exact = online_laplace_delta(0.0, a=0.0, b=1e-20, n=10**4, **kw)     # the product falls with n: limit <= exact
    assert 0 <= lo <= exact and lo <= up <= 1 and up/exact < 1.3
    lo, up = online_gaussian_delta(0.0, diameter=1e-20, exact_terms=100, **kw)
    exact = online_gaussian_delta(0.0, diameter=1e-20, n=10**4, **kw)
    assert 0 <= lo <= exact and lo <= up <= 1

# --- domains declared for shuffle_privacy.core (tests/domains/d_core.py) ---

@pytest.mark.parametrize('f, kw', [('log1mexp', dict(x=math.nan)), ('log_expm1', dict(x=math.nan)),
                                   ('norm_sf', dict(x=math.nan)), ('norm_cdf', dict(x=[0.0, math.nan])),
                                   ('log_norm_sf', dict(x=math.nan)), ('log_norm_cdf', dict(x=math.nan)),
                                   ('logdiffexp', dict(a=0.0, b=math.nan)),
                                   ('logdiffexp', dict(a=math.inf, b=math.inf)),
                                   ('logsumexp', dict(a=[0.0, math.nan])), ('logsumexp', dict(a=[0.0], b=[math.nan])),
                                   ('log_norm_sf_diff', dict(a=0.0, b=1.0, c=math.nan))])
def test_core_log_space_helpers_reject_nan(f, kw):
    "These returned NaN for a NaN input (their range checks were `any(x > 0)`-style, which NaN passes)."
    import shuffle_privacy.core as core
    with pytest.raises(ValueError):
        getattr(core, f)(**kw)

def test_logsumexp_zero_weight_drops_the_term():
    "a = +inf with weight 0 gave inf + log 0 = NaN; a zero weight now removes the term."
    from shuffle_privacy.core import logsumexp
    assert logsumexp([math.inf], b=[0.0]) == -math.inf
    assert logsumexp([math.inf, 0.0], b=[0.0, 1.0]) == 0.0

# --- domains declared for shuffle_privacy.mechanisms.iteration.schedules (tests/domains/d_schedules.py) ---

def test_fit_rate_validates_and_stays_finite():
    "fit_rate took NaN and mixed-sign gaps silently; constant gaps gave R^2 = 0/0 = NaN; 1/gap ~ 1e300 overflowed."
    from shuffle_privacy.mechanisms.iteration.schedules import fit_rate
    with pytest.raises(ValueError, match='gap'): fit_rate([1.0, 2.0], [1.0, math.nan])
    with pytest.raises(ValueError, match='sign'): fit_rate([1.0, 2.0], [1.0, -1.0])
    with pytest.raises(ValueError, match='distinct'): fit_rate([2.0, 2.0], [1.0, 2.0])
    s, r2 = fit_rate([1.0, 10.0, 100.0], [0.5, 0.5, 0.5])
    assert abs(s) < 1e-12 and r2 == 1.0
    s, r2 = fit_rate([1.0, 10.0, 100.0], [1e-300, 1.0, 1e300])
    assert math.isfinite(s) and math.isfinite(r2)

def test_laplace_online_log_integral_edges():
    "math domain error when k/(T^a + K) rounded to 1; OverflowError from T**alpha and from exp(eps/2)."
    from shuffle_privacy.mechanisms.iteration.schedules import laplace_online_log_integral as I
    assert I(1.0, epsilon=50.0, alpha=1.001, C1=1e20, C2=math.exp(25.0)*(1 + 1e-6)) < 0
    r = I(1e300, epsilon=1.0, alpha=2.0, C1=1.0, C2=0.0)            # ~ -e^{1/2} T^{1-alpha}/(alpha-1)
    assert r == pytest.approx(-math.exp(0.5)*1e-300, rel=1e-12, abs=0)   # was 2x: T^{-alpha} underflowed in T q
    assert I(1e160, epsilon=1.0, alpha=2.0, C1=1.0, C2=0.0) == pytest.approx(-math.exp(0.5)*1e-160, rel=1e-12, abs=0)
    r = I(1e100, epsilon=1500.0, alpha=3.0, C1=1e-300, C2=0.0)         # k = C1 e^{750}: exp(750) alone overflows
    assert r == pytest.approx(-math.exp(750 - 300*math.log(10))*1e-200/2, rel=1e-9, abs=0)

def test_delta_star_c_closed_form_near_one():
    "Lambert W at its branch point kept half the digits: d = 1 - 1e-8 gave c 40% off."
    from shuffle_privacy.mechanisms.iteration.schedules import delta_star_c_closed_form
    d = 0.99999999
    c = delta_star_c_closed_form(d)
    assert -math.expm1(-c)/c == pytest.approx(d, rel=1e-15)

def test_schedule_C1_extremes():
    "C1 below the double range (eps = 1e4) bracketed from 0 (ValueError); C1 ~ 1e300 hit the 1e300 search cap."
    from shuffle_privacy.mechanisms.iteration.schedules import gaussian_schedule_C1, laplace_schedule_C1
    assert gaussian_schedule_C1(1e4, 1e-300) == 5e-324
    assert laplace_schedule_C1(1e4, 1e-300) == 5e-324
    assert 1e300 <= laplace_schedule_C1(0.0, 1e-300) < 1.01e300
    c = gaussian_schedule_C1(1808.0, 1e-300)   # the guess c e^{-eps/2} underflowed: 2000 steps of 1.01 from 1e-300
    assert 0 < c < 1e-80

def test_shuffled_epsilon_beyond_1e4():
    "eps ~ (2L/sigma)^2/2 can be far above 1e4: the search stopped there with a ValueError on valid input."
    from shuffle_privacy.mechanisms.iteration.schedules import shuffled_epsilon
    e = shuffled_epsilon(1e-100, noise='gaussian', n=1, L=1e20, sigma=1e-20, diameter=1e-20, eta=2e50, beta=1e-50,
                         rho=0.0)
    assert 1e4 < e < math.inf

def test_delta_star_c_closed_form_at_the_branch_point():
    "d = 1 - 4e-16: the Lambert W argument rounded below -1/e and the result was NaN."
    from shuffle_privacy.mechanisms.iteration.schedules import delta_star_c_closed_form
    c = delta_star_c_closed_form(0.9999999999999996)
    assert 0 < c < 1e-14 and -math.expm1(-c)/c == pytest.approx(0.9999999999999996, rel=1e-15)

# --- domains declared for shuffle_privacy.algorithms.sco (tests/domains/d_sco.py) ---

def test_ball_and_clip_rows_validate():
    "Negative radii flipped the sign silently; NaN radii passed through (sco.project_ball, now losses.Ball)."
    from shuffle_privacy.algorithms.losses import Ball
    from shuffle_privacy.algorithms.sco import clip_rows
    with pytest.raises(ValueError, match='radius'): Ball(-1.0)
    with pytest.raises(ValueError, match='radius'): Ball(math.nan)
    with pytest.raises(ValueError, match='L'): clip_rows([[3.0, 4.0]], math.nan)
    with pytest.raises(ValueError, match='G'): clip_rows([3.0, 4.0], 1.0)
    np.testing.assert_allclose(Ball(1.0)([3.0, 4.0]), [0.6, 0.8])

def test_sco_sizes_in_log_space():
    "pagd_batch: beta*D underflowed to 0 (ZeroDivisionError); psgd_batch: ceil(inf) (OverflowError) at subnormal eps;"
    " pgd_rounds: eps**2 overflowed (OverflowError); smoothing_beta: L**(5/3) overflowed (OverflowError)."
    from shuffle_privacy.algorithms.sco import pagd_batch, psgd_batch, pgd_rounds, smoothing_beta
    assert pagd_batch(10, 1, V=1.0, beta=1e-300, D=1e-300) == 10
    assert psgd_batch(10, 1, epsilon=5e-324, delta=0.5, L=1.0, exact_constants=False) == 10
    assert pgd_rounds(10, 1, epsilon=1e300, delta=1e-6, exact_constants=False) == 10
    assert smoothing_beta(10, 1e300, L=1e200, D=1.0) == pytest.approx(1e234, rel=1e-12)   # 10^(1000/3 + 2/3 - 100)
    with pytest.raises(ValueError, match='range'): smoothing_beta(10, 1e-300, L=1e300, D=1e-300)

def test_make_problem_validates_n_eval_and_seed():
    "n_eval = 0 gave a NaN excess (mean of nothing); a negative seed raised numpy's error without the name."
    from shuffle_privacy.algorithms.sco import make_problem
    with pytest.raises(ValueError, match='n_eval'): make_problem('logistic', n_eval=0)
    with pytest.raises(ValueError, match='seed'): make_problem('logistic', seed=-1)

# --- domains declared for shuffle_privacy.algorithms.pnsgd (tests/domains/d_pnsgd.py) ---

def test_online_gaussian_sigmas_large_C1_and_memory():
    "W(x) underflowed to 0 for x < 1e-308 (sigma = inf, though finite); n = 1e12 steps went to a MemoryError."
    from shuffle_privacy.core import ResourceLimitError
    from shuffle_privacy.algorithms.pnsgd import online_gaussian_sigmas
    s = online_gaussian_sigmas(1, alpha=1.000001, C1=1e300, C2=0.0, eta=2e50, diameter=1e-20, beta=1e-50)
    assert s[0] == pytest.approx(1e-20/(2*2e50)*math.sqrt(2*math.pi)*1e300, rel=1e-9)
    with pytest.raises(ResourceLimitError, match='instead'):
        online_gaussian_sigmas(10**12, alpha=2.0, C1=1.0, C2=1.0, eta=0.1, diameter=1.0, beta=1.0)

def test_pnsgd_helpers_validate():
    "lipschitz_constants/minimize_risk took NaN data silently; minimize_risk on X = 0 gave 0/0 = NaN; make_data drew"
    " the data before rejecting a bad kind, and asked for n*d numbers however many."
    from shuffle_privacy.core import ResourceLimitError
    from shuffle_privacy.algorithms.pnsgd import minimize_risk, make_data
    from shuffle_privacy.algorithms.losses import lipschitz_constants, SquaredLoss, Ball
    with pytest.raises(ValueError, match='X'): lipschitz_constants(SquaredLoss(), [[math.nan]], y=[1.0], K=Ball())
    with pytest.raises(ValueError, match='X'): minimize_risk(SquaredLoss(), [[math.nan]], y=[1.0], K=Ball())
    np.testing.assert_array_equal(minimize_risk(SquaredLoss(), np.zeros((3, 2)), y=np.ones(3), K=Ball()), [0.0, 0.0])
    with pytest.raises(ValueError, match='kind'): make_data('x', n=10**12)
    with pytest.raises(ResourceLimitError, match='instead'): make_data('linear', n=10**12)

def test_online_schedule_C1_reaches_a_reachable_target():
    "The calibration through the online limit: the returned C1 meets the target (the limit was wrong at large C1)."
    from shuffle_privacy.mechanisms.iteration.bounds import online_laplace_delta
    from shuffle_privacy.mechanisms.iteration.schedules import online_schedule_C1
    kw = dict(epsilon=1.0, i=10, L=1.0, eta=0.1, alpha=1.5, C2=1.0, a=0.0, b=1.0, beta=1.0, rho=0.5)
    target = online_laplace_delta(C1=1.0, **kw)[1]
    C1 = online_schedule_C1(delta=target, noise='laplace', **kw)
    assert C1 <= 1.0 + 1e-8 and online_laplace_delta(C1=C1, **kw)[1] <= target

def test_online_limit_upper_end_non_increasing_at_large_epsilon():
    "quad returned (-inf, inf) for the tail integral at eps ~ 35: inf error and inf rounding slack gave delta = 1."
    from shuffle_privacy.mechanisms.iteration.bounds import online_gaussian_delta, online_laplace_delta
    g = dict(i=1, L=1.0, eta=0.1, alpha=1.5, C1=1e3, C2=100.0, beta=0.5, rho=0.0)
    for f, kw in ((online_gaussian_delta, dict(g, diameter=1.0)), (online_laplace_delta, dict(g, a=0.0, b=1.0))):
        ups = [f(e, n=None, **kw)[1] for e in np.linspace(0.0, 300.0, 31)]   # 10 apart: 30 and 40 bracket the bug
        assert all(0.0 <= u <= 1.0 for u in ups) and all(b <= a for a, b in zip(ups, ups[1:])), ups

def test_reverse_direction_capped_at_huge_sigma():
    "shuffle_gaussian_rdp_reverse returned 3e13 at n = 1e6, sigma = 1e20 (quadrature); the Gaussian RDP caps it."
    from shuffle_privacy.studies.shuffle_gaussian_soundness import shuffle_gaussian_rdp_reverse
    o = np.array([2.0, 4.0, 16.0])
    r = shuffle_gaussian_rdp_reverse(o, 10**6, 1e20)
    assert np.all(np.isfinite(r)) and np.all(r <= o/(2*1e40)*(1 + 1e-12)) and np.all(np.diff(r) >= 0)
