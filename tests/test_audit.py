"Cross-checks of shuffle_privacy.audit: Clopper–Pearson against independent computations, limits, Monte Carlo coverage, bad input."
import math
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from shuffle_privacy.audit import audit, clopper_pearson, epsilon_lower_bound

mp.mp.dps = 50

def mp_binom_sf(k, n, p):
    "P[Bin(n, p) >= k] at 50 digits."
    p = mp.mpf(p)
    return mp.fsum(mp.binomial(n, j) * p**j * (1 - p)**(n - j) for j in range(k, n + 1))

@pytest.mark.parametrize('k,n', [(1, 10), (3, 10), (9, 10), (50, 100), (1, 1000), (999, 1000), (123, 1000)])
def test_clopper_pearson_solves_the_binomial_tail_equations(k, n):
    "The lower bound solves P[Bin(n,p) >= k] = alpha, the upper one P[Bin(n,p) <= k] = alpha (independent of scipy.beta)."
    lo, hi = clopper_pearson(k, n, 0.05)
    assert abs(mp_binom_sf(k, n, lo) - mp.mpf('0.05')) < 1e-10
    assert abs((1 - mp_binom_sf(k + 1, n, hi)) - mp.mpf('0.05')) < 1e-10

def test_clopper_pearson_edges_closed_form():
    for n in (1, 7, 1000, 10**6):
        assert clopper_pearson(n, n, 0.05)[0] == pytest.approx(0.05**(1 / n), rel=1e-12)
        assert clopper_pearson(0, n, 0.05)[1] == pytest.approx(1 - 0.05**(1 / n), rel=1e-9)
        assert clopper_pearson(0, n, 0.05)[0] == 0.0 and clopper_pearson(n, n, 0.05)[1] == 1.0

def test_matches_scipy_binomtest_interval():
    "scipy's exact binomtest CI at confidence 1-2*alpha equals our pair of one-sided bounds."
    for k, n in [(3, 20), (17, 40), (500, 1000)]:
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.9, method='exact')
        lo, hi = clopper_pearson(k, n, 0.05)
        assert lo == pytest.approx(ci.low, rel=1e-10) and hi == pytest.approx(ci.high, rel=1e-10)

def test_perfect_detector_closed_form():
    for n, a in [(1000, 0.05), (1000, 0.025), (10**5, 0.05)]:
        q = a**(1 / n)
        assert epsilon_lower_bound(n, 0, trials=n, alpha=a) == pytest.approx(math.log(q / (1 - q)), rel=1e-9)
    assert 5.75 < epsilon_lower_bound(1000, 0, trials=1000) < 5.85

def test_epsilon_lower_bound_independent_formula():
    "Recompute the bound from scipy.beta quantiles directly (naive, both expressions) at moderate counts."
    for tp, fp, n, d in [(900, 100, 1000, 0.0), (700, 200, 1000, 1e-3), (60, 5, 100, 0.0), (400, 390, 1000, 0.0)]:
        p1 = stats.beta.ppf(0.05, tp, n - tp + 1); p0 = stats.beta.isf(0.05, fp + 1, n - fp)
        ref = max(0.0, math.log((p1 - d) / p0), math.log((1 - p0 - d) / (1 - p1)))
        assert epsilon_lower_bound(tp, fp, trials=n, delta=d) == pytest.approx(ref, rel=1e-10, abs=1e-12)

def test_chance_level_is_about_zero():
    rng = np.random.default_rng(0)
    vals = [epsilon_lower_bound(rng.binomial(1000, .3), rng.binomial(1000, .3), trials=1000) for _ in range(200)]
    assert max(vals) < 0.2 and np.mean(np.array(vals) == 0) > 0.8

def test_disjoint_supports_certify_ceiling_for_any_delta_below_one():
    "Counterexample mechanism: outputs with disjoint supports; the certificate is the trial-limited maximum for every delta."
    r = audit(lambda g: g.integers(0, 10), lambda g: g.integers(10, 20), detect=lambda y: y < 10, trials=1000, rng=0)
    assert (r.tp, r.fp) == (1000, 0) and r.epsilon == pytest.approx(epsilon_lower_bound(1000, 0, trials=1000))
    for d in (1e-5, 0.1, 0.5):
        assert epsilon_lower_bound(1000, 0, trials=1000, delta=d) > epsilon_lower_bound(1000, 0, trials=1000,
                                                                                        delta=0.9) > 3

@settings(max_examples=60, deadline=None)
@given(st.integers(1, 500), st.data())
def test_monotone_in_counts(n, data):
    tp = data.draw(st.integers(0, n)); fp = data.draw(st.integers(0, n))
    e = epsilon_lower_bound(tp, fp, trials=n)
    assert e >= 0 and math.isfinite(e)
    if tp < n: assert epsilon_lower_bound(tp + 1, fp, trials=n) >= e - 1e-12
    if fp > 0: assert epsilon_lower_bound(tp, fp - 1, trials=n) >= e - 1e-12

def test_coverage_on_randomized_response():
    "Monte Carlo: on eps-DP randomized response the certified bound exceeds the true eps in < 2*alpha of the runs."
    eps, n, runs = 1.0, 300, 400
    p = math.exp(eps) / (1 + math.exp(eps))
    rng = np.random.default_rng(1)
    over = sum(epsilon_lower_bound(rng.binomial(n, p), rng.binomial(n, 1 - p), trials=n) > eps for _ in range(runs))
    assert over / runs <= 0.1

def test_gaussian_audit_below_truth():
    from scipy.optimize import brentq
    from shuffle_privacy.core import log_norm_sf_diff
    mu, delta = 2.0, 1e-5
    f = lambda e: log_norm_sf_diff(e/mu - mu/2, e/mu + mu/2, e) - math.log(delta)
    true = brentq(f, 0, 50)
    r = audit(lambda g, n: g.normal(0, 1/mu, n), lambda g, n: g.normal(1, 1/mu, n), detect=lambda y: y < 0.5 - 1.5/mu,
              trials=20000, rng=2, delta=delta, batch=True)
    assert 0 < r.epsilon < true

@pytest.mark.parametrize('args,msg', [((5, 0, 4), 'tp must be an integer in [0, 4]'), ((0, -1, 4),
                                                                                       'fp must be an integer'),
                                      ((0, 0, 0), 'trials must be an integer in [1, inf)'), ((1.5, 0, 4), 'tp must be an integer')])
def test_bad_counts(args, msg):
    with pytest.raises(ValueError, match=msg.replace('[', r'\[').replace(')', r'\)')): epsilon_lower_bound(*args[:2], trials=args[2])

def test_bad_delta_alpha():
    with pytest.raises(ValueError, match='delta must be in'): epsilon_lower_bound(1, 0, trials=4, delta=1.0)
    with pytest.raises(ValueError, match='delta must be in'): epsilon_lower_bound(1, 0, trials=4, delta=-0.1)
    with pytest.raises(ValueError, match='alpha must be in'): epsilon_lower_bound(1, 0, trials=4, alpha=0.0)
    with pytest.raises(ValueError, match='alpha must be in'): clopper_pearson(1, 4, alpha=1.0)

@pytest.mark.parametrize('n', [10**9, 10**12, 10**15])
def test_clopper_pearson_large_n_against_poisson(n):
    "scipy.stats.beta.ppf is wrong by 2x to 1e4x at huge n (k=1000); our bounds must match the Poisson limit and stay conservative."
    from scipy import special
    k, a = 1000, 0.05
    lo, hi = clopper_pearson(k, n, a)
    # Bin(n, lam/n) -> Poisson(lam) with O(k/n) error: P[Poisson(lam) >= k] = P[Gamma(k) <= lam]
    assert lo * n == pytest.approx(special.gammaincinv(k, a), rel=1e-5)
    assert hi * n == pytest.approx(special.gammainccinv(k + 1, a), rel=1e-5)
    # conservative: the true tail at the returned bound is at most alpha (forward betainc is accurate here)
    assert special.betainc(k, n - k + 1, lo) <= a * (1 + 1e-12)
    assert special.betaincc(k + 1, n - k, hi) <= a * (1 + 1e-12)
    ref = math.log(special.gammaincinv(1000, a) / -math.log(a))    # p0 upper for fp = 0 is -log(a)/n + O(1/n^2)
    assert epsilon_lower_bound(1000, 0, trials=n) == pytest.approx(ref, rel=1e-5)


# --- issue 14 item 4: Clopper–Pearson through the inverse beta, checked against the definition ---
from scipy import special as _sp
from shuffle_privacy.audit import _log_beta_bisect, best_threshold, _epsilon_lower_bounds

@pytest.mark.parametrize('k,n', [(1, 10), (5, 1000), (500, 1000), (999, 1000), (1000, 10**9), (1000, 10**12),
                                 (10**6, 10**12), (3, 10**15)])
@pytest.mark.parametrize('alpha', [0.05, 1e-6, 1e-100])
def test_clopper_pearson_inverse_beta_is_conservative_and_matches_old_search(k, n, alpha):
    lo, hi = clopper_pearson(k, n, alpha)
    # the definition: Pr[Bin(n, lo) >= k] = I_lo(k, n-k+1) <= alpha, Pr[Bin(n, hi) <= k] = 1 - I_hi(k+1, n-k) <= alpha
    assert _sp.betainc(k, n - k + 1, lo) <= alpha
    if k < n: assert _sp.betaincc(k + 1, n - k, hi) <= alpha
    old_lo = math.exp(_log_beta_bisect(k, n - k + 1, alpha, upper=False, side='lo'))
    old_hi = 1.0 if k == n else math.exp(_log_beta_bisect(k + 1, n - k, alpha, upper=True, side='hi'))
    assert abs(lo - old_lo) <= 1e-11*old_lo and abs(hi - old_hi) <= 1e-11*old_hi

def test_best_threshold_matches_brute_force():
    g = np.random.default_rng(0)
    a, b = g.normal(2.0, 1.0, 300), g.normal(0.0, 1.0, 300)
    t, e = best_threshold(a, b, delta=1e-6, joint_confidence=0.95)
    brute = max(epsilon_lower_bound(int((a >= c).sum()), int((b >= c).sum()), trials=300, delta=1e-6,
                                    joint_confidence=0.95)
                for c in np.unique(np.concatenate([a, b])))
    assert e == pytest.approx(brute, rel=1e-12) and e > 0

def test_audit_rng_accepts_none_int_generator():
    f = lambda g, t: g.random(t) < 0.9; s = lambda g, t: g.random(t) < 0.1
    r1 = audit(f, s, detect=lambda o: o, trials=100, rng=5, batch=True); r2 = audit(f, s, detect=lambda o: o,
                                                                                    trials=100, rng=5, batch=True)
    assert (r1.tp, r1.fp) == (r2.tp, r2.fp)
    audit(f, s, detect=lambda o: o, trials=10, rng=None, batch=True); audit(f, s, detect=lambda o: o, trials=10,
                                                                            rng=np.random.default_rng(1), batch=True)
    with pytest.raises(ValueError, match='rng'): audit(f, s, detect=lambda o: o, trials=10, rng='x', batch=True)
