"""Table 1 of Liew & Takahashi (the 'Ours' row exactly, the 'Clones' row within 3%), the clones bound and the
Gaussian's LDP calibrations against independent evaluations, the MNIST reader on synthetic IDX files, the trainer."""
import gzip, math, os
import mpmath as mp
import numpy as np
import pytest

from shuffle_privacy.accounting.conversions import gdp_delta
from shuffle_privacy.mechanisms.shuffle_gaussian.rdp import shuffle_gaussian_epsilon, shuffle_gaussian_rdp
from shuffle_privacy.experiments.shuffle_gaussian import (clones_epsilon, clones_gaussian_epsilon, gaussian_ldp_eps0,
                                                          load_mnist, train_shuffled_checkin, checkin_min_participants,
                                                          checkin_clones_round, baseline_checkin_epsilon,
                                                          generic_checkin_epsilon)

N, SIGMA = 60000, 9.48

def test_table1_ours_row_exactly():
    import warnings
    from shuffle_privacy.accounting.conversions import rdp_to_dp
    o = np.arange(2, 31)
    r = shuffle_gaussian_rdp(o, N, SIGMA)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        got = [round(rdp_to_dp(o, T*r, 1/N)[0], 5) for T in range(1, 8)]
    assert got == [0.22820, 0.22820, 0.22821, 0.22821, 0.22821, 0.22822, 0.22822]

def test_table1_ours_row_by_mpmath_lemma2():
    # Lemma 2 evaluated independently in mpmath on the (mpmath-verified) RDP values
    mp.mp.dps = 30
    o = np.arange(2, 31); r = shuffle_gaussian_rdp(o, N, SIGMA)
    vals = [mp.mpf(float(ri)) + (mp.log(N) + (lam - 1)*mp.log(1 - mp.mpf(1)/lam) - mp.log(lam))/(lam - 1) for lam,
            ri in zip(o, r)]
    assert round(float(min(vals)), 5) == 0.22820

def test_table1_clones_row_within_3_percent():
    paper = [0.18623, 0.38461, 0.59516, 0.79355, 1.02241, 1.22689, 1.43138]
    for T, p in enumerate(paper, 1):
        assert abs(clones_gaussian_epsilon(N, SIGMA, delta_total=1/N, count=T, grid=300)/p - 1) < 0.03

def test_clones_formula_by_hand():
    e0, n, d = 1.2, 10000, 1e-6
    ref = math.log(1 + (math.exp(e0) - 1)/(math.exp(e0) + 1)*(8*math.sqrt(math.exp(e0)*math.log(4/d))/math.sqrt(n) + 8*math.exp(e0)/n))
    assert clones_epsilon(e0, n, d) == pytest.approx(ref, rel=1e-14)
    assert clones_epsilon(20.0, n, d) == math.inf

def test_gaussian_calibrations():
    # the paper's σ = 9.48 is the classical (1, 1/n) calibration with sensitivity 2
    assert gaussian_ldp_eps0(1/N, SIGMA, sensitivity=2.0, calibration='classic') == pytest.approx(1.0, abs=1e-3)
    e0 = gaussian_ldp_eps0(1e-8, SIGMA, sensitivity=2.0, calibration='analytic')
    assert float(gdp_delta(2/SIGMA, e0)) == pytest.approx(1e-8, rel=1e-8)
    assert e0 < gaussian_ldp_eps0(1e-8, SIGMA, sensitivity=2.0, calibration='classic')

def test_large_order_epsilon_far_below_cap():
    assert shuffle_gaussian_epsilon(N, SIGMA, 1/N) < 0.0015

def test_load_mnist_reads_idx(tmp_path):
    imgs = np.arange(2*4, dtype=np.uint8).reshape(2, 4)
    labs = np.array([3, 7], dtype=np.uint8)
    def write(name, magic, arr, dims, gz=False):
        data = magic.to_bytes(4, 'big') + b''.join(int(d).to_bytes(4, 'big') for d in dims) + arr.tobytes()
        p = tmp_path/(name + ('.gz' if gz else ''))
        with (gzip.open if gz else open)(p, 'wb') as f: f.write(data)
    write('train-images-idx3-ubyte', 2051, imgs, (2, 2, 2), gz=True)
    write('train-labels-idx1-ubyte', 2049, labs, (2,))
    write('t10k-images-idx3-ubyte', 2051, imgs, (2, 2, 2))
    write('t10k-labels-idx1-ubyte', 2049, labs, (2,), gz=True)
    xtr, ytr, xte, yte = load_mnist(str(tmp_path))
    np.testing.assert_allclose(xtr, imgs/255.0); np.testing.assert_array_equal(yte, [3, 7])
    with pytest.raises(FileNotFoundError): load_mnist(str(tmp_path/'nope'))

def test_trainer_is_reproducible_and_learns_without_noise():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 5)); y = (X[:, 0] > 0).astype(int)
    a1 = train_shuffled_checkin(X, y, x_test=X, y_test=y, probability=0.5, sigma=0.0, rounds=50, lr=1.0,
                                eval_every=50, rng=1)
    a2 = train_shuffled_checkin(X, y, x_test=X, y_test=y, probability=0.5, sigma=0.0, rounds=50, lr=1.0,
                                eval_every=50, rng=1)
    assert a1[1][-1] == a2[1][-1] and a1[1][-1] > 0.9

# ---- the two baselines of Figure 1b ([39], reconstructed) ----

def _binom_cdf_mp(n, p, k):
    "Pr[Bin(n, p) <= k] by direct summation at 50 digits."
    mp.mp.dps = 50
    p = mp.mpf(p)
    return sum(mp.binomial(n, j)*p**j*(1 - p)**(n - j) for j in range(0, k + 1)) if k >= 0 else mp.mpf(0)

@pytest.mark.parametrize('n,g,beta', [(200, 0.3, 1e-3), (1000, 0.1, 1e-6), (5000, 0.05, 1e-9), (50, 0.9, 0.2)])
def test_min_participants_against_mpmath(n, g, beta):
    m, tail = checkin_min_participants(n, g, beta)
    exact = _binom_cdf_mp(n - 1, g, m - 2)              # Pr[1 + Bin(n-1, γ) < m]
    assert exact <= beta and float(exact) == pytest.approx(tail, rel=1e-9, abs=1e-300)
    assert m == n or _binom_cdf_mp(n - 1, g, m - 1) > beta   # m + 1 would exceed the budget

def test_clones_round_properties():
    e, d = checkin_clones_round(60000, 0.1, sigma=5.0, delta=1e-7, sensitivity=1.0)
    assert d <= 1e-7 and 0 < e < math.inf
    ea, _ = checkin_clones_round(60000, 0.1, sigma=5.0, delta=1e-7, sensitivity=1.0, amplify=True)
    assert ea == pytest.approx(math.log1p(0.1*math.expm1(e)), rel=1e-14)   # closed form of the add/remove amplification
    # monotone: more noise, more users, or more δ give a smaller ε
    assert checkin_clones_round(60000, 0.1, sigma=6.0, delta=1e-7, sensitivity=1.0)[0] < e
    assert checkin_clones_round(120000, 0.1, sigma=5.0, delta=1e-7, sensitivity=1.0)[0] < e
    assert checkin_clones_round(60000, 0.1, sigma=5.0, delta=1e-5, sensitivity=1.0)[0] < e
    # the clones condition fails for few users: no guarantee rather than a wrong one
    assert checkin_clones_round(1437, 0.3, sigma=2.0, delta=1e-6, sensitivity=1.0)[0] == math.inf

def test_baseline_composition_against_closed_forms():
    n, g, s, dt = 60000, 0.1, 5.0, 1/60000
    T = np.array([1, 10, 100, 1000])
    b = baseline_checkin_epsilon(n, g, sigma=s, count=T, delta_total=dt, sensitivity=1.0, n_split=8, grid=100)
    assert np.all(np.diff(b) > 0)
    # the per-round δ grid is geomspace(δ_t 1e-6, δ_t/2, 8); at T = 1 its largest point gives an upper bound
    assert b[0] <= checkin_clones_round(n, g, sigma=s, delta=dt/2, sensitivity=1.0, grid=100)[0] + 1e-12
    # at any T, advanced composition by hand for one split in the grid bounds the result
    for Ti, bi in zip(T, b):
        d_r = [d for d in np.geomspace(dt*1e-6, dt/2, 8) if d*Ti < dt][-1]
        e, d = checkin_clones_round(n, g, sigma=s, delta=d_r, sensitivity=1.0, grid=100)
        slack = dt - Ti*d
        adv = math.sqrt(2*Ti*math.log(1/slack))*e + Ti*e*math.expm1(e)
        assert bi <= min(adv, Ti*e)*(1 + 1e-9)

def test_generic_with_everyone_checking_in_equals_multi_epoch_rdp_route():
    # γ = 1: m = n, no binomial tail, Theorem 2 is the identity: the route is composition.rdp_epsilon exactly
    from shuffle_privacy.mechanisms.iteration.multi_epoch import rdp_epsilon
    n, s, dt = 20000, 5.0, 1e-5
    for T in (1, 7, 50):
        got = generic_checkin_epsilon(n, 1.0, sigma=s, count=T, delta_total=dt, sensitivity=1.0, n_split=1, grid=100)[0]
        e, p = checkin_clones_round(n, 1.0, sigma=s, delta=dt*1e-6, sensitivity=1.0, grid=100)
        ref = rdp_epsilon(e, p, count=T, delta_total=dt, orders=np.arange(2, 257))
        assert got == pytest.approx(ref, rel=1e-12)

def test_generic_ordering_and_monotonicity_at_paper_scale():
    n, g, s, dt = 60000, 0.1, 5.0, 1/60000
    T = np.array([10, 100, 1000])
    gen = generic_checkin_epsilon(n, g, sigma=s, count=T, delta_total=dt, sensitivity=1.0, n_split=8, grid=100)
    base = baseline_checkin_epsilon(n, g, sigma=s, count=T, delta_total=dt, sensitivity=1.0, n_split=8, grid=100)
    assert np.all(np.diff(gen) > 0) and np.all(gen < base)
    # a lower check-in rate amplifies more
    assert generic_checkin_epsilon(n, 0.05, sigma=s, count=100, delta_total=dt, sensitivity=1.0, n_split=8,
                                   grid=100)[0] < gen[1]

@pytest.mark.parametrize('call,msg', [
    (lambda: checkin_min_participants(0, 0.1, 1e-3), 'n must be an integer in [1, inf)'),
    (lambda: checkin_min_participants(10, 1.5, 1e-3), 'probability must be in [0, 1]'),
    (lambda: checkin_min_participants(10, 0.0, 1e-3), 'probability must be in (0, 1]'),
    (lambda: checkin_min_participants(10, 0.1, 1.0), 'beta must be in (0, 1)'),
    (lambda: checkin_clones_round(100, 0.1, sigma=-1.0, delta=1e-3), 'sigma must be in (0, inf)'),
    (lambda: checkin_clones_round(100, 0.1, sigma=1.0, delta=0.0), 'delta must be in (0, 1)'),
    (lambda: baseline_checkin_epsilon(100, 0.1, sigma=1.0, count=[0, 3], delta_total=1e-3), 'count'),
    (lambda: baseline_checkin_epsilon(100, 0.1, sigma=1.0, count=3, delta_total=1.0), 'delta_total must be in (0, 1)'),
    (lambda: baseline_checkin_epsilon(100, 0.1, sigma=1.0, count=3, delta_total=1e-3, n_split=0),
     'n_split must be an integer in [1, inf)'),
    (lambda: generic_checkin_epsilon(100, 0.1, sigma=1.0, count=3, delta_total=1e-3, max_order=1),
     'max_order must be an integer in [2, inf)'),
    (lambda: generic_checkin_epsilon(100, 0.1, sigma=1.0, count=2.5, delta_total=1e-3), 'count'),
])
def test_bad_inputs_baselines(call, msg):
    with pytest.raises(ValueError) as e: call()
    assert msg in str(e.value), str(e.value)

@pytest.mark.parametrize('call,msg', [
    (lambda: clones_epsilon(-1.0, 100, 1e-5), 'epsilon0 must be in (0, inf)'),
    (lambda: clones_epsilon(1.0, 0, 1e-5), 'n must be an integer in [1, inf)'),
    (lambda: gaussian_ldp_eps0(1e-5, 1.0, calibration='fft'), "calibration must be 'classic' or 'analytic'"),
    (lambda: gaussian_ldp_eps0(0.0, 1.0), 'delta0 must be in (0, 1)'),
    (lambda: clones_gaussian_epsilon(100, 1.0, delta_total=2.0), 'delta_total must be in (0, 1)'),
    (lambda: clones_gaussian_epsilon(100, 1.0, delta_total=0.01, count=0), 'count must be an integer in [1, inf)'),
])
def test_bad_inputs(call, msg):
    with pytest.raises(ValueError) as e: call()
    assert msg in str(e.value), str(e.value)
