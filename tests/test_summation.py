"Tests of shuffle_privacy.mechanisms.summation.protocols: parameter rules, Monte Carlo unbiasedness and variance, the two shufflers, privacy vs mpmath."
import math
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from shuffle_privacy.mechanisms.summation.protocols import (count_pmf, gaussian_sigma, p1d_count, p1d_epsilon,
                                                            p1d_params, p1d_robust_epsilon,
                                       p1d_sum, p1d_variance, pvec_params, pvec_sum, pvec_variance, pvec_variance_bound,
                                       two_sample_chi2)

mp.mp.dps = 60

# ---- Lemma 3.1 parameters -------------------------------------------------------------------------------------

@pytest.mark.parametrize('n,eps,delta', [(1, 1.0, 0.25), (2, 0.5, 1e-3), (99, 2.0, 1e-6), (100, 15.0, 0.49),
                                         (10**6, 1.0, 1e-9), (12345, 0.1, 1e-12)])
def test_p1d_params_match_mpmath(n, eps, delta):
    g, b, p = p1d_params(n, eps, delta)
    assert g*g >= n and (g - 1)**2 < n
    bound = 180*mp.mpf(g)**2*mp.log(2/mp.mpf(delta))/(mp.mpf(eps)**2*n)
    assert b > bound and b - 1 <= bound
    assert abs(p - float(90*mp.mpf(g)**2*mp.log(2/mp.mpf(delta))/(b*mp.mpf(eps)**2*n))) <= 1e-14*p
    assert 0 < p < 0.5

@given(st.integers(1, 10**12), st.floats(1e-3, 15), st.floats(1e-12, 0.4999))
@settings(max_examples=200, deadline=None)
def test_p1d_params_properties(n, eps, delta):
    g, b, p = p1d_params(n, eps, delta)
    assert g*g >= n > (g - 1)**2
    assert b >= 1 and 0 < p < 0.5
    # b is the smallest integer strictly above the bound: b - 1 gives p >= 1/2
    assert 90*g*g*math.log(2/delta)/((b - 1)*eps*eps*n) >= 0.5 - 1e-12 if b > 1 else True

@pytest.mark.parametrize('args,msg', [((0, 1.0, 0.1), 'n must be an integer'), ((2.5, 1.0, 0.1),
                                                                                'n must be an integer'),
                                      ((5, 0.0, 0.1), 'epsilon must be in (0, 15]'), ((5, -1.0, 0.1),
                                                                                      'epsilon must be in'),
                                      ((5, 16.0, 0.1), 'epsilon must be in (0, 15]'), ((5, 1.0, 0.0),
                                                                                       'delta must be in (0, 0.5)'),
                                      ((5, 1.0, 0.5), 'delta must be in (0, 0.5)'), ((5, 1.0, float('nan')),
                                                                                     'delta must be'),
                                      ((5, 'a', 0.1), 'epsilon must be')])
def test_p1d_params_bad_input(args, msg):
    with pytest.raises(ValueError, match=msg.replace('(', r'\(').replace(')', r'\)').replace('[', r'\[').replace(']', r'\]')):
        p1d_params(*args)

# ---- Lemma 3.1 privacy, checked exactly with mpmath -----------------------------------------------------------

def mp_hockey_shift(m, p, k, eps):
    "H_{e^eps}(Bin(m,p) || Bin(m,p)+k) exactly in mpmath (k may be negative)."
    p = mp.mpf(p); q = 1 - p
    pmf = lambda z: mp.binomial(m, z)*p**z*q**(m - z) if 0 <= z <= m else mp.mpf(0)
    e = mp.e**mp.mpf(eps)
    return mp.fsum(max(mp.mpf(0), pmf(z) - e*pmf(z - k)) for z in range(min(0, k), m + max(0, k) + 1))

@pytest.mark.parametrize('n,eps,delta', [(4, 2.0, 0.1), (9, 1.0, 0.2), (16, 3.0, 0.05)])
def test_lemma_3_1_holds_exactly(n, eps, delta):
    "The worst-case neighbours shift the count by g; the lemma's eps (1 + 2/g) must give hockey-stick <= delta both ways."
    g, b, p = p1d_params(n, eps, delta)
    e_lemma = p1d_epsilon(eps, g, Delta=1.0)
    for k in (g, -g):
        assert mp_hockey_shift(b*n, p, k, e_lemma) <= delta

def test_p1d_epsilon_and_robust():
    assert p1d_epsilon(1.0, 4, Delta=2.0, dx=1.0) == pytest.approx(1.0)
    assert p1d_robust_epsilon(0.5, 1/3, g=4, Delta=1.0) == pytest.approx(1.5*1.5)
    with pytest.raises(ValueError, match='epsilon must be in'): p1d_robust_epsilon(2.0, 0.5, g=4, Delta=1.0)
    with pytest.raises(ValueError, match='g must be an integer'): p1d_robust_epsilon(0.5, 0.5, g=2, Delta=1.0)
    with pytest.raises(ValueError, match='dx must be in'): p1d_epsilon(1.0, 4, Delta=1.0, dx=2.0)

def test_claim_A8_robust_exact():
    "Claim A.8: with only gamma n honest users the noise is Bin(gamma b n, p); eps/gamma (1 + 2/g) is still valid."
    n, eps, delta, gamma = 12, 1.0, 0.2, 0.5
    g, b, p = p1d_params(n, eps, delta, g=4)
    e = p1d_robust_epsilon(eps, gamma, g=g, Delta=1.0)
    for k in (g, -g):
        assert mp_hockey_shift(int(gamma*n)*b, p, k, e) <= delta

# ---- P1D: unbiasedness, variance, the two shufflers -------------------------------------------------------------

def test_p1d_unbiased_and_variance():
    rng = np.random.default_rng(11)
    x = rng.random(50)*3
    g, b, p = p1d_params(50, 2.0, 0.01)
    R = 20000
    est = np.array([p1d_sum(x, g, b=b, p=p, Delta=3.0, rng=rng) for _ in range(R)])
    v = p1d_variance(50, g, b=b, p=p, Delta=3.0, x=x)
    assert abs(est.mean() - x.sum()) < 4.5*math.sqrt(v/R)
    # variance of the sample variance ~ 2 v^2 / R for near-Gaussian errors: 5 sigma tolerance
    assert abs(est.var() - v) < 5*v*math.sqrt(2/R)
    assert v <= 9*(0.25 + 90*math.log(2/0.01)/4)

def test_count_pmf_is_a_distribution_with_right_mean():
    x = np.array([0.1, 0.5, 0.99]); g, b, p = 5, 7, 0.3
    pmf = count_pmf(x, g, b=b, p=p, Delta=1.0)
    assert abs(pmf.sum() - 1) < 1e-12
    assert abs(np.arange(len(pmf)) @ pmf - (x.sum()*g + b*3*p)) < 1e-10

def test_two_shufflers_same_distribution():
    rng = np.random.default_rng(5)
    x = rng.random(6); g, b, p = 3, 5, 0.35
    R = 3000
    slow = np.array([p1d_count(x, g, b=b, p=p, Delta=1.0, rng=rng, method='messages') for _ in range(R)])
    fast = np.array([p1d_count(x, g, b=b, p=p, Delta=1.0, rng=rng, method='fast') for _ in range(R)])
    assert two_sample_chi2(slow, fast) > 1e-3
    pmf = count_pmf(x, g, b=b, p=p, Delta=1.0)
    for s in (slow, fast):  # each against the exact pmf
        obs = np.bincount(s, minlength=len(pmf)); keep = pmf*R > 5
        exp_ = pmf[keep]*R; exp_ *= obs[keep].sum()/exp_.sum()
        assert stats.chisquare(obs[keep], exp_)[1] > 1e-3

def test_two_sample_test_has_power():
    rng = np.random.default_rng(6)
    a = rng.binomial(40, 0.3, 3000); b = rng.binomial(40, 0.33, 3000)
    assert two_sample_chi2(a, b) < 1e-4
    assert two_sample_chi2(a, rng.binomial(40, 0.3, 3000)) > 1e-3

def test_messages_are_shuffled_uniformly():
    "Positions of the ones after the shuffle are uniform (the message-level simulation really permutes)."
    from shuffle_privacy.mechanisms.summation.protocols import p1d_randomizer, shuffle_messages
    rng = np.random.default_rng(7)
    pos = []
    for _ in range(2000):
        bits = np.concatenate([p1d_randomizer(xi, 2, b=3, p=0.3, Delta=1.0, rng=rng) for xi in (0.0, 1.0)])
        pos.extend(np.flatnonzero(shuffle_messages(bits, rng)))
    cnt = np.bincount(pos, minlength=10)
    assert stats.chisquare(cnt)[1] > 1e-3

# ---- PVEC -----------------------------------------------------------------------------------------------------

def _unit_rows(rng, n, d, scale=1.0):
    X = rng.normal(size=(n, d)); return scale*X/np.linalg.norm(X, axis=1)[:, None]*rng.random((n, 1))

def test_pvec_params_follow_theorem_3_2():
    prm = pvec_params(1000, 50, epsilon=1.0, delta=1e-5, Delta2=2.0)
    gamma = 1e-5/51
    assert prm.gamma == pytest.approx(gamma) and prm.delta_hat == pytest.approx(gamma)
    assert prm.epsilon_hat == pytest.approx(1.0/(18*math.sqrt(math.log(1/gamma))))
    assert prm.g == max(32, 8, 4)
    assert (prm.g, prm.b, prm.p) == __import__('shuffle_privacy.mechanisms.summation.protocols',
                                               fromlist=['x']).p1d_params(1000, prm.epsilon_hat, gamma, g=prm.g)
    assert pvec_params(3, 50, epsilon=1.0, delta=1e-5, Delta2=2.0).g == 8 and pvec_params(1, 1, epsilon=1.0, delta=1e-5, Delta2=2.0).g == 4

def test_pvec_composition_inequalities_of_the_proof():
    "Sum eps_j^2 <= 9 eps_hat^2 and Lemma 3.3's eps' <= eps for adversarial pairs of rows."
    rng = np.random.default_rng(8)
    for d in (1, 3, 17, 100):
        prm = pvec_params(50, d, epsilon=15.0, delta=0.4, Delta2=1.0)
        for _ in range(50):
            x, xp = _unit_rows(rng, 2, d)
            a = np.abs(x - xp)
            ej = prm.epsilon_hat*(2/prm.g + a/(2*prm.Delta2))
            assert (ej**2).sum() <= 9*prm.epsilon_hat**2*(1 + 1e-12)
            ep = (ej*np.expm1(ej)).sum() + 2*math.sqrt(math.log(1/prm.gamma)*(ej**2).sum())
            assert ep <= prm.epsilon

def test_pvec_unbiased_and_variance():
    rng = np.random.default_rng(9)
    X = _unit_rows(rng, 300, 4, 2.0)
    prm = pvec_params(300, 4, epsilon=1.0, delta=1e-6, Delta2=2.0)
    R = 2000
    errs = np.array([pvec_sum(X, 1.0, delta=1e-6, Delta2=2.0, rng=rng) - X.sum(0) for _ in range(R)])
    V = pvec_variance(prm, X)
    assert np.all(np.abs(errs.mean(0)) < 4.5*np.sqrt(V/4/R))
    assert abs((errs**2).sum(1).mean()/V - 1) < 0.12

def test_pvec_variance_does_not_grow_with_n():
    rng = np.random.default_rng(10)
    bound = pvec_variance_bound(3, 1.0, delta=1e-6, Delta2=1.0)
    out = []
    for n in (50, 20000):
        X = _unit_rows(rng, n, 3)
        e = np.array([pvec_sum(X, 1.0, delta=1e-6, Delta2=1.0, rng=rng) - X.sum(0) for _ in range(600)])
        out.append((e**2).sum(1).mean())
        assert pvec_variance(pvec_params(n, 3, epsilon=1.0, delta=1e-6, Delta2=1.0)) <= bound
    assert out[1] < 1.3*out[0] and out[0] < 1.3*out[1]
    for n in (10**3, 10**6, 10**9, 10**12):
        assert pvec_variance(pvec_params(n, 3, epsilon=1.0, delta=1e-6, Delta2=1.0)) <= bound

def test_pvec_message_level_matches_fast_path():
    rng = np.random.default_rng(12)
    X = _unit_rows(rng, 8, 2)
    prm = pvec_params(8, 2, epsilon=15.0, delta=0.4, Delta2=1.0)
    to_c = lambda o: np.rint((o + 8*1.0)*prm.g/2 + prm.p*prm.b*8).astype(int)
    R = 800
    slow = np.array([to_c(pvec_sum(X, 15.0, delta=0.4, Delta2=1.0, rng=rng, method='messages')) for _ in range(R)])
    fast = np.array([to_c(pvec_sum(X, 15.0, delta=0.4, Delta2=1.0, rng=rng, method='fast')) for _ in range(R)])
    for j in range(2): assert two_sample_chi2(slow[:, j], fast[:, j]) > 1e-3

def test_pvec_bad_input():
    rng = np.random.default_rng(0)
    X = np.array([[0.6, 0.8], [0.1, 0.0]])
    pvec_sum(X, 1.0, delta=1e-3, Delta2=1.0, rng=rng)  # norm exactly 1 is fine
    with pytest.raises(ValueError, match='l2 norm <= Delta2'): pvec_sum(X*1.001, 1.0, delta=1e-3, Delta2=1.0, rng=rng)
    with pytest.raises(ValueError, match='Delta2 must be in'): pvec_sum(X, 1.0, delta=1e-3, Delta2=0.0, rng=rng)
    with pytest.raises(ValueError, match='epsilon must be in'): pvec_sum(X, 0.0, delta=1e-3, Delta2=1.0, rng=rng)
    with pytest.raises(ValueError, match='delta must be in'): pvec_sum(X, 1.0, delta=0.5, Delta2=1.0, rng=rng)
    with pytest.raises(ValueError, match='X must have 2 dimension'): pvec_sum(X[0], 1.0, delta=1e-3, Delta2=1.0,
                                                                              rng=rng)
    with pytest.raises(ValueError, match='X must contain only finite'): pvec_sum(X*np.nan, 1.0, delta=1e-3,
                                                                                 Delta2=1.0, rng=rng)

@given(st.integers(1, 40), st.integers(1, 6), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_pvec_output_shape_and_finite(n, d, seed):
    rng = np.random.default_rng(seed)
    X = _unit_rows(rng, n, d)
    o = pvec_sum(X, 1.0, delta=1e-4, Delta2=1.0, rng=rng)
    assert o.shape == (d,) and np.all(np.isfinite(o))

def test_gaussian_sigma_matches_exact_condition():
    for eps, delta in [(0.5, 1e-6), (1.0, 1e-5), (4.0, 1e-9)]:
        s = gaussian_sigma(eps, delta, 2.0)
        f = lambda sig: mp.ncdf(2/(2*sig) - eps*sig/2) - mp.e**eps*mp.ncdf(-2/(2*sig) - eps*sig/2)
        assert f(mp.mpf(s)) <= delta*(1 + 1e-9) and f(mp.mpf(s)*(1 - 1e-6)) > delta

def test_gaussian_sigma_conservative_under_cancellation():
    "Small eps with tiny delta: the two Phi terms cancel to 1e-4 or worse; sigma must still meet delta exactly (60-digit mpmath)."
    mp.mp.dps = 60
    for eps, delta in [(0.01, 1e-100), (0.1, 1e-250), (1e-6, 1e-200), (1e-4, 1e-10)]:
        s = gaussian_sigma(eps, delta, 1.0)
        f = lambda sig: mp.ncdf(1/(2*sig) - eps*sig) - mp.e**eps*mp.ncdf(-1/(2*sig) - eps*sig)
        assert f(mp.mpf(s)) <= delta and f(mp.mpf(s)*(1 - 1e-9)) > delta
    mp.mp.dps = 15

def test_robust_sum_dropouts_expectation():
    "With only honest users sending, E[estimate] = sum of honest x - (Delta/g) p b (#dropped)."
    from shuffle_privacy.mechanisms.summation.protocols import p1d_robust_sum
    rng = np.random.default_rng(21)
    x = rng.random(60); g, b, p = p1d_params(60, 2.0, 1e-2)
    honest = np.arange(60) < 40
    est = np.array([p1d_robust_sum(x, g, b=b, p=p, Delta=1.0, rng=rng, honest=honest)[0] for _ in range(4000)])
    expect = x[honest].sum() - p*b*20/g
    v = p1d_variance(40, g, b=b, p=p, Delta=1.0, x=x[honest])
    assert abs(est.mean() - expect) < 4.5*math.sqrt(v/4000)

def test_p1d_helpers_bad_input():
    from shuffle_privacy.mechanisms.summation.protocols import p1d_analyzer, p1d_encode
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match='g must be an integer'): p1d_encode([0.5], 0, Delta=1.0, rng=rng)
    with pytest.raises(ValueError, match='Delta must be in'): p1d_encode([0.5], 3, Delta=-1.0, rng=rng)
    with pytest.raises(ValueError, match='b must be an integer'): p1d_analyzer([1], 1, g=2, b=0, p=0.3, Delta=1.0)
    with pytest.raises(ValueError, match='p must be in'): p1d_variance(3, 2, b=3, p=0.0, Delta=1.0)
    with pytest.raises(ValueError, match='x must lie in'): count_pmf([1.5], 2, b=3, p=0.3, Delta=1.0)
    with pytest.raises(ValueError, match='a must contain only integers'): two_sample_chi2([0.5, 1], [1, 2])
    with pytest.raises(ValueError, match='p must be in'): p1d_sum([0.1], 2, b=3, p=0.6, Delta=1.0, rng=rng)


# --- issue 12 regressions found by the contract domains ---
def test_p1d_robust_sum_checks_the_mask_shape():
    from shuffle_privacy.mechanisms.summation.protocols import p1d_robust_sum
    with pytest.raises(ValueError, match='honest'): p1d_robust_sum([0.5], 3, b=3, p=0.5, Delta=1.0, rng=0,
                                                                   honest=[True, False])

def test_two_sample_chi2_huge_range_and_min_expected():
    from shuffle_privacy.mechanisms.summation.protocols import two_sample_chi2
    a = np.array([0, 10**17, 5, 5, 5, 5] * 5); b = np.array([0, 10**17, 5, 5, 5, 6] * 5)
    assert 0.0 <= two_sample_chi2(a, b) <= 1.0          # bins at observed values: no 1e17-long bincount
    with pytest.raises(ValueError, match='min_expected'): two_sample_chi2(a, b, min_expected=0.0)
