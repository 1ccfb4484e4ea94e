"""Checks of shuffle_privacy.algorithms.pnsgd: projections (properties and a numerical reference), trainer reproducibility,
convergence to known optima, the noise distributions, the orders, and bad inputs."""
import math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays
from scipy import optimize, stats

from shuffle_privacy.algorithms.pnsgd import make_data, pnsgd, minimize_risk, figure1
from shuffle_privacy.algorithms.losses import Ball, Interval, SquaredLoss, LogisticLoss, lipschitz_constants

vec = arrays(np.float64, 3, elements=st.floats(-1e3, 1e3))
radius = st.floats(1e-3, 1e3)


@settings(max_examples=200, deadline=None)
@given(vec, vec, radius)
def test_ball_projection_properties(u, w, r):
    K = Ball(r)
    pu, pw = K(u), K(w)
    assert K.contains(pu) and K.contains(pw)
    np.testing.assert_allclose(K(pu), pu, rtol=1e-12, atol=1e-12)  # idempotent
    assert np.linalg.norm(pu - pw) <= np.linalg.norm(u - w) * (1 + 1e-12) + 1e-12  # non-expansive
    if np.linalg.norm(u) <= r: np.testing.assert_array_equal(pu, u)  # identity on K
    # variational inequality characterising the projection: <u - Pu, z - Pu> <= 0 for all z in K
    for z in (K(w), np.zeros(3), K(-u)):
        assert np.dot(u - pu, z - pu) <= 1e-9 * (1 + np.linalg.norm(u) ** 2)


@settings(max_examples=200, deadline=None)
@given(vec, vec, st.floats(-10, 10), st.floats(1e-3, 10))
def test_interval_projection_properties(u, w, a, length):
    K = Interval(a, a + length)
    pu, pw = K(u), K(w)
    assert K.contains(pu)
    np.testing.assert_array_equal(K(pu), pu)
    assert np.linalg.norm(pu - pw) <= np.linalg.norm(u - w) + 1e-12


def test_ball_projection_matches_numerical_minimisation():
    rng = np.random.default_rng(0)
    c = np.array([0.5, -1.0])
    K = Ball(1.5, center=c)
    for _ in range(20):
        w = rng.normal(scale=4, size=2)
        res = optimize.minimize(lambda z: np.sum((z - w) ** 2), x0=c, method='SLSQP',
                                constraints=[{'type': 'ineq', 'fun': lambda z: 1.5 ** 2 - np.sum((z - c) ** 2)}],
                                options=dict(ftol=1e-14, maxiter=500))
        np.testing.assert_allclose(K(w), res.x, atol=1e-6)


def test_reproducible_and_seed_sensitive():
    X, y, _ = make_data('logistic', n=300, rng=1)
    for order in ('shuffle', 'random_stop', 'sequential'):
        for noise in ('gaussian', 'laplace'):
            kw = dict(eta=1e-2, scale=0.5, K=Ball(), noise=noise, order=order, epochs=2, runs=3)
            a = pnsgd(LogisticLoss(), X, y, rng=5, **kw)
            b = pnsgd(LogisticLoss(), X, y, rng=np.random.default_rng(5), **kw)
            c = pnsgd(LogisticLoss(), X, y, rng=6, **kw)
            np.testing.assert_array_equal(a.path, b.path)
            np.testing.assert_array_equal(a.steps, b.steps)
            assert not np.array_equal(a.path[-1], c.path[-1])


def test_runs_are_independent_chains():
    "Run r of a batched call is not a copy of another run: shuffled orders and noises differ across chains."
    X, y, _ = make_data('linear', n=200, rng=3)
    res = pnsgd(SquaredLoss(), X, y, eta=1e-2, scale=0.5, K=Ball(), runs=5, rng=0)
    assert len({tuple(np.round(w, 12)) for w in res.w}) == 5


def test_chunking_does_not_change_the_result():
    X, y, _ = make_data('linear', n=100, rng=3)
    kw = dict(eta=1e-2, scale=0.5, K=Ball(), runs=2, epochs=2, order='sequential')
    # chunk sizes that divide the draw differently give the same numbers only if the noise stream is consumed
    # in the same order: Generator.standard_normal fills C-order, so (t, runs, d) blocks concatenate exactly
    a = pnsgd(SquaredLoss(), X, y, rng=0, chunk=100, **kw)
    b = pnsgd(SquaredLoss(), X, y, rng=0, chunk=7, **kw)
    np.testing.assert_allclose(a.path, b.path, rtol=0, atol=1e-14)


def test_converges_to_known_optimum_interpolation():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 3)); th = np.array([0.2, -0.5, 0.4])
    res = pnsgd(SquaredLoss(), X, X @ th, eta=0.02, scale=0.0, K=Ball(), epochs=30, runs=2, rng=1)
    np.testing.assert_allclose(res.w, np.broadcast_to(th, (2, 3)), atol=1e-10)


def test_converges_to_erm_minimiser_on_the_ball():
    "Noisy shuffled PNSGD with a small step ends near the ERM minimiser over K computed by full gradient descent."
    X, y, _ = make_data('logistic', n=1000, rng=4)
    K = Ball(1.0)
    w_star = minimize_risk(LogisticLoss(), X, y=y, K=K)
    # cross-check the deterministic minimiser with scipy's constrained optimiser
    f = lambda w: LogisticLoss().risk(w, X, y)[0]
    ref = optimize.minimize(f, x0=np.zeros(2), method='SLSQP',
                            constraints=[{'type': 'ineq', 'fun': lambda z: 1 - z @ z}], options=dict(ftol=1e-14))
    np.testing.assert_allclose(w_star, ref.x, atol=1e-5)
    res = pnsgd(LogisticLoss(), X, y, eta=2e-3, scale=0.5, K=K, epochs=30, runs=20, rng=2)
    assert np.linalg.norm(res.w.mean(0) - w_star) < 0.02
    assert np.all(LogisticLoss().risk(res.w, X, y) - f(w_star) < 2e-3)


def test_noise_distributions_one_step():
    "With a zero gradient one step is -eta Z: Kolmogorov-Smirnov against N(0, (eta sigma)^2) and Laplace(0, eta v)."
    class Zero:
        def grad(self, w, x, y): return np.zeros_like(w)
    X, y = np.zeros((1, 1)), np.zeros(1)
    g = pnsgd(Zero(), X, y, eta=0.3, scale=2.0, K=Interval(-1e9, 1e9), runs=20000, rng=0)
    assert stats.kstest(g.w[:, 0], 'norm', args=(0, 0.6)).pvalue > 1e-3
    lap = pnsgd(Zero(), X, y, eta=0.3, scale=2.0, K=Interval(-1e9, 1e9), runs=20000, rng=0, noise='laplace')
    assert stats.kstest(lap.w[:, 0], 'laplace', args=(0, 0.6)).pvalue > 1e-3
    assert stats.kstest(lap.w[:, 0], 'norm', args=(0, 0.6 * math.sqrt(2))).pvalue < 1e-6  # the test can fail


def test_per_step_schedule_is_applied_per_position():
    "A schedule with noise only at step j perturbs exactly from step j on; shape (epochs, n) selects the epoch."
    class Zero:
        def grad(self, w, x, y): return np.zeros_like(w)
    X, y = np.zeros((10, 1)), np.zeros(10)
    s = np.zeros((3, 10)); s[1, 4] = 1.0
    res = pnsgd(Zero(), X, y, eta=1.0, scale=s, K=Interval(-1e9, 1e9), epochs=3, runs=4, rng=0)
    assert np.all(res.path[1] == 0) and np.all(res.path[2] != 0) and np.array_equal(res.path[2], res.path[3])


def test_random_stop_uniform_steps():
    X, y, _ = make_data('linear', n=20, rng=0)
    res = pnsgd(SquaredLoss(), X, y, eta=1e-3, scale=0.1, K=Ball(), order='random_stop', epochs=1, runs=20000, rng=1)
    counts = np.bincount(res.steps.ravel(), minlength=21)[1:]
    assert counts.sum() == 20000 and stats.chisquare(counts).pvalue > 1e-3


def test_random_stop_equals_truncated_sequential_run():
    "A randomly stopped chain with T steps equals the sequential run on the first T points with the same noise."
    X, y, _ = make_data('linear', n=50, rng=0)
    res = pnsgd(SquaredLoss(), X, y, eta=1e-2, scale=0.0, K=Ball(), order='random_stop', runs=6, rng=3)
    for r in range(6):
        T = res.steps[0, r]
        ref = pnsgd(SquaredLoss(), X[:T], y[:T], eta=1e-2, scale=0.0, K=Ball(), order='sequential')
        np.testing.assert_allclose(res.w[r], ref.w[0], atol=1e-15)


def test_lipschitz_constants_bound_gradients():
    X, y, _ = make_data('linear', n=200, rng=0)
    K = Ball(1.0)
    rng = np.random.default_rng(1)
    W = K(rng.normal(size=(200, 2)) * 2)
    for loss in (SquaredLoss(), LogisticLoss()):
        yy = y if isinstance(loss, SquaredLoss) else np.sign(y)
        L, beta = lipschitz_constants(loss, X, y=yy, K=K)
        g = loss.grad(W, X, yy)
        assert np.max(np.linalg.norm(g, axis=1)) <= L * (1 + 1e-12)


def test_figure1_claims_small():
    "The qualitative claims of Figure 1 (shuffled: lower loss, smaller spread) on a reduced run."
    o = figure1('linear', epochs=8, runs=20, rng=11, progress=False)
    assert np.median(o['shuffle'][1:], 1).mean() < np.median(o['random_stop'][1:], 1).mean()
    assert np.std(o['shuffle'][1:], 1).mean() < np.std(o['random_stop'][1:], 1).mean()


@pytest.mark.parametrize('call, msg', [
    (lambda X, y: Ball(-1.0), 'radius must be in (0, inf)'),
    (lambda X, y: Interval(2, 1), 'b must be in (2, inf)'),
    (lambda X, y: pnsgd(SquaredLoss(), X, y, eta=-1, scale=1, K=Ball()), 'eta must be in (0, inf)'),
    (lambda X, y: pnsgd(SquaredLoss(), X, y, eta=1, scale=-1, K=Ball()), 'scale must be in [0, inf)'),
    (lambda X, y: pnsgd(SquaredLoss(), X, y, eta=1, scale=np.full(10, -1.), K=Ball()), 'scale must lie in [0, inf)'),
    (lambda X, y: pnsgd(SquaredLoss(), X, y, eta=1, scale=np.ones(3), K=Ball()), 'scale must be a number or an array'),
    (lambda X, y: pnsgd(SquaredLoss(), X, y, eta=1, scale=1, K=Ball(), epochs=0),
     'epochs must be an integer in [1, inf)'),
    (lambda X, y: pnsgd(SquaredLoss(), X, y, eta=1, scale=1, K=Ball(), runs=0), 'runs must be an integer in [1, inf)'),
    (lambda X, y: pnsgd(SquaredLoss(), X, y, eta=1, scale=1, K=Ball(), noise='cauchy'),
     "noise must be 'gaussian' or 'laplace'"),
    (lambda X, y: pnsgd(SquaredLoss(), X, y, eta=1, scale=1, K=Ball(), order='cyclic'), 'order must be one of'),
    (lambda X, y: pnsgd(SquaredLoss(), X, y, eta=1, scale=1, K=None), 'K must be a projection'),
    (lambda X, y: pnsgd(SquaredLoss(), X, y[:5], eta=1, scale=1, K=Ball()), 'y must have length n = 10'),
    (lambda X, y: pnsgd(SquaredLoss(), X[:, 0], y, eta=1, scale=1, K=Ball()), 'X must have 2 dimension(s)'),
    (lambda X, y: pnsgd(SquaredLoss(), X * np.nan, y, eta=1, scale=1, K=Ball()), 'X must contain only finite'),
    (lambda X, y: make_data('linear', n=0), 'n must be an integer in [1, inf)'),
    (lambda X, y: make_data('linear', label_noise=-1), 'label_noise must be in [0, inf)'),
])
def test_bad_inputs(call, msg):
    X, y = np.ones((10, 2)), np.ones(10)
    with pytest.raises(ValueError, match=None) as e: call(X, y)
    assert msg in str(e.value), str(e.value)


def test_pnsgd_delta_wires_the_accountant():
    from shuffle_privacy.algorithms.pnsgd import pnsgd_delta
    from shuffle_privacy.mechanisms.iteration.bounds import (gaussian_constants, laplace_constants, shuffled_delta,
                                           randomly_stopped_delta, entry_delta)
    A, B = gaussian_constants(0.8, L=2.0, sigma=5.0, eta=0.05, diameter=2.0, beta=1.0, rho=0.1)
    kw = dict(n=500, L=2.0, scale=5.0, eta=0.05, K=Ball(1.0), beta=1.0, rho=0.1)
    assert pnsgd_delta(0.8, **kw) == shuffled_delta(A, B, 500)
    assert pnsgd_delta(0.8, order='random_stop', **kw) == randomly_stopped_delta(A, B, 500, i=1)
    assert pnsgd_delta(0.8, order='random_stop_simple', **kw) == randomly_stopped_delta(A, B, 500)
    assert pnsgd_delta(0.8, order='sequential', **kw) == entry_delta(A, B, 500, i=500) == A
    A, B = laplace_constants(0.8, L=2.0, v=3.0, eta=0.05, a=-1.0, b=2.0, beta=1.0, rho=0.0)
    got = pnsgd_delta(0.8, n=500, L=2.0, scale=3.0, eta=0.05, K=Interval(-1, 2), beta=1.0, noise='laplace')
    assert got == shuffled_delta(A, B, 500)
    # worst case over entries: randomly stopped = shuffled <= A (sequential, last entry); i-free form is looser
    for eps in (0.1, 1.0, 3.0):
        for sigma in (1.0, 3.0, 6.0):
            k2 = {**kw, 'scale': sigma}
            s_, r, r2, q = (pnsgd_delta(eps, order=o, **k2) for o in ('shuffle', 'random_stop', 'random_stop_simple',
                                                                      'sequential'))
            assert abs(s_ - r) <= 1e-15 * r and s_ <= q * (1 + 1e-12) and r2 >= r * (1 - 1e-12)
    with pytest.raises(ValueError, match='K must be an Interval'):
        pnsgd_delta(1.0, noise='laplace', **kw)
    with pytest.raises(ValueError, match='order must be one of'):
        pnsgd_delta(1.0, order='cyclic', **{k: v for k, v in kw.items()})
    with pytest.raises(ValueError, match='eta'):
        pnsgd_delta(1.0, **{**kw, 'eta': -1.0})


def test_online_gaussian_sigmas_matches_formula_in_mpmath():
    "Eq. (6.4) at 50 digits: sigma_j = M D / (2 eta sqrt(W(j^(2 alpha) / (2 pi C1^2) + C2)))."
    import mpmath as mp
    from shuffle_privacy.algorithms.pnsgd import online_gaussian_sigmas
    mp.mp.dps = 50
    kw = dict(alpha=1.5, C1=100.0, C2=100.0, eta=0.01, diameter=1.0, beta=0.5, rho=0.2)
    got = online_gaussian_sigmas(2000, **kw)
    M = mp.sqrt(1 - 2 * mp.mpf(0.01) * mp.mpf(0.5) * mp.mpf(0.2) / (mp.mpf(0.5) + mp.mpf(0.2)))
    for j in (1, 2, 10, 137, 2000):
        x = mp.mpf(j) ** 3 / (2 * mp.pi * mp.mpf(100) ** 2) + 100
        ref = M * 1 / (2 * mp.mpf(0.01) * mp.sqrt(mp.lambertw(x).real))
        assert abs(got[j - 1] - float(ref)) <= 1e-13 * float(ref)
    # C2 = 0 and huge j: no overflow, sigma keeps decreasing
    s = online_gaussian_sigmas(10, **{**kw, 'C2': 0.0, 'alpha': 40.0})
    assert np.all(np.isfinite(s)) and np.all(np.diff(s) < 0)
    with pytest.raises(ValueError, match='alpha must be in'):
        online_gaussian_sigmas(10, **{**kw, 'alpha': 0.5})
    with pytest.raises(ValueError, match='n must be an integer'):
        online_gaussian_sigmas(0, **kw)

def test_pnsgd_delta_interval_box_uses_its_diameter():
    "Gaussian noise on the box [a, b]^d: the diameter is (b - a) sqrt(d), as for the ball that circumscribes it."
    from shuffle_privacy.algorithms.pnsgd import pnsgd_delta
    kw = dict(n=1000, L=0.1, scale=0.5, eta=0.5, beta=1.0)
    box = pnsgd_delta(1.0, K=Interval(0, 1), dim=2, **kw)
    assert box == pnsgd_delta(1.0, K=Ball(math.sqrt(2)/2), **kw) > pnsgd_delta(1.0, K=Interval(0, 1), **kw)
    with pytest.raises(ValueError, match='dim'): pnsgd_delta(1.0, K=Interval(0, 1), dim=0, **kw)
    with pytest.raises(ValueError, match='dim must be 1'):
        pnsgd_delta(1.0, K=Interval(0, 1), dim=2, noise='laplace', **kw)
