"Tests of shuffle_privacy.algorithms.sco: gradients and prox oracles vs independent references, envelope properties, convergence, privacy budgets."
import math
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import optimize

from shuffle_privacy.algorithms.sco import (AbsoluteLoss, HingeLoss, LogisticLoss, MoreauEnvelope, Regularized,
                                            SquaredLoss,
                                 _private_mean_grad, clip_rows, make_problem, pagd, pan_private_acsa, pgd, pgd_privacy,
                                 pgd_round_budget, pgd_rounds, phased, psgd, psgd_batch, smoothed_pagd,
                                 smoothing_beta, pagd_batch)
from shuffle_privacy.algorithms.losses import Ball

def project_ball(theta, R): return Ball(R)(theta)   # the one projection type of the package

def _data(seed, n=8, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)); X /= np.linalg.norm(X, axis=1)[:, None]
    X *= rng.random((n, 1))**0.3
    return X, np.sign(rng.normal(size=n)), rng

LOSSES = [LogisticLoss(2.0), SquaredLoss(2.0, 1.0), HingeLoss(2.0), AbsoluteLoss(2.0), Regularized(SquaredLoss(2.0, 1.0), 0.3),
          Regularized(HingeLoss(2.0), 0.2)]

@pytest.mark.parametrize('loss', LOSSES, ids=lambda l: type(l).__name__)
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=25, deadline=None)
def test_gradient_fd_and_lipschitz(loss, seed):
    X, y, rng = _data(seed)
    th = project_ball(rng.normal(size=3), 2.0)
    G = loss.grad(th, X, y)
    assert np.all(np.linalg.norm(G, axis=1) <= loss.L*(1 + 1e-12))
    h = 1e-6
    fd = np.stack([(loss.value(th + h*e, X, y) - loss.value(th - h*e, X, y))/(2*h) for e in np.eye(3)], 1)
    # non-smooth losses: skip rows at a kink (finite differences straddle it)
    ok = np.all(np.abs(fd - G) < 1e-4, axis=1)
    assert ok.mean() >= (1.0 if loss.smooth else 0.75)

@pytest.mark.parametrize('loss', [HingeLoss(2.0), AbsoluteLoss(2.0), Regularized(AbsoluteLoss(2.0), 0.5)],
                         ids=lambda l: type(l).__name__)
@pytest.mark.parametrize('t', [0.05, 0.7, 5.0])
def test_prox_is_the_minimiser(loss, t):
    X, y, rng = _data(3, n=5)
    V = rng.normal(size=(5, 3))
    P = loss.prox(V, X, y, t)
    for i in range(5):
        obj = lambda u: t*loss.value(u, X[i:i+1], y[i:i+1])[0] + 0.5*np.sum((u - V[i])**2)
        ref = optimize.minimize(obj, V[i], method='Nelder-Mead', options=dict(xatol=1e-10, fatol=1e-12,
                                                                              maxiter=20000)).x
        assert obj(P[i]) <= obj(ref) + 1e-9

@pytest.mark.parametrize('base', [HingeLoss(2.0), AbsoluteLoss(2.0)], ids=lambda l: type(l).__name__)
@pytest.mark.parametrize('beta', [0.5, 4.0, 50.0])
def test_moreau_envelope_lemma_4_6(base, beta):
    X, y, rng = _data(4, n=20)
    env = MoreauEnvelope(base, beta)
    for _ in range(10):
        th = project_ball(rng.normal(size=3), 2.0); th2 = project_ball(rng.normal(size=3), 2.0)
        f, fb = base.value(th, X, y), env.value(th, X, y)
        assert np.all(fb <= f + 1e-12) and np.all(f <= fb + base.L**2/(2*beta) + 1e-12)        # item 3
        g1, g2 = env.grad(th, X, y), env.grad(th2, X, y)
        assert np.all(np.linalg.norm(g1, axis=1) <= base.L + 1e-9)                               # L-Lipschitz
        assert np.all(np.linalg.norm(g1 - g2, axis=1) <= beta*np.linalg.norm(th - th2) + 1e-9)  # beta-smooth
        fb2 = env.value(th2, X, y)                                                               # convexity
        assert np.all(fb2 >= fb + (g1 @ (th2 - th)) - 1e-9)

def test_projection_and_clipping():
    assert isinstance(make_problem('least_squares', d=2, n_eval=10).loss,
                      __import__('shuffle_privacy').algorithms.losses.Loss)
    with pytest.raises(ValueError, match='SquaredLoss needs R'): psgd(SquaredLoss(), np.ones((4, 2)), y=np.ones(4),
                                                                      epsilon=1.0, delta=1e-3)
    with pytest.raises(ValueError, match='loss must be'): pagd('squared', np.ones((4, 2)), y=np.ones(4), epsilon=1.0,
                                                               delta=1e-3)
    assert np.allclose(project_ball([3.0, 4.0], 1.0), [0.6, 0.8])
    assert np.allclose(project_ball([0.3, 0.4], 1.0), [0.3, 0.4])
    G = clip_rows(np.array([[3.0, 4.0], [0.1, 0.0]]), 1.0)
    assert np.allclose(np.linalg.norm(G, axis=1), [1.0, 0.1])

@pytest.mark.parametrize('kind', ['least_squares', 'logistic', 'absolute', 'hinge'])
def test_problem_excess_vs_monte_carlo(kind):
    P = make_problem(kind, d=4, R=3.0, n_eval=50_000, seed=1)
    assert P.excess(P.theta_star) == pytest.approx(0.0, abs=1e-12)
    rng = np.random.default_rng(2)
    for _ in range(3):
        th = project_ball(P.theta_star + 0.5*rng.normal(size=4), 3.0)
        X, y = P.sample(300_000, rng)
        diff = P.loss.value(th, X, y) - P.loss.value(P.theta_star, X, y)
        assert P.excess(th) >= 0
        assert abs(diff.mean() - P.excess(th)) < 5*diff.std()/math.sqrt(len(diff)) + 3e-3*max(P.excess(th), 0.01)

def test_private_gradient_unbiased():
    P = make_problem('least_squares', d=3)
    X, y = P.sample(400, np.random.default_rng(0))
    th = np.array([0.2, -0.1, 0.3]); rng = np.random.default_rng(1)
    true = P.loss.grad(th, X, y).mean(0)
    est = np.array([_private_mean_grad(P.loss, th, X, y, 5.0, 1e-3, rng) for _ in range(1500)])
    se = est.std(0)/math.sqrt(len(est))
    assert np.all(np.abs(est.mean(0) - true) < 4.5*se)

@pytest.fixture(scope='module')
def ls():
    P = make_problem('least_squares', d=3, R=1.0, n_eval=1000)
    X, y = P.sample(300_000, np.random.default_rng(11))
    return P, X, y

def test_psgd_converges(ls):
    P, X, y = ls
    e0 = P.excess(np.zeros(3))
    r_small = psgd(P.loss, X[:30_000], y=y[:30_000], epsilon=15.0, delta=1e-3, rng=np.random.default_rng(1))
    r_big = psgd(P.loss, X, y=y, epsilon=15.0, delta=1e-3, rng=np.random.default_rng(1))
    assert r_big.T == len(X)//r_big.batch and r_big.batch == psgd_batch(len(X), 3, epsilon=15.0, delta=1e-3, L=P.loss.L)
    assert P.excess(r_big.theta) < 0.1*e0 and P.excess(r_big.theta) < P.excess(r_small.theta)

def test_pagd_and_pan_private_converge(ls):
    P, X, y = ls
    e0 = P.excess(np.zeros(3))
    assert P.excess(pagd(P.loss, X, y=y, epsilon=15.0, delta=1e-3, rng=np.random.default_rng(2)).theta) < 0.02*e0
    r = pan_private_acsa(P.loss, X, y=y, epsilon=0.9, delta=1e-6, rng=np.random.default_rng(3))
    assert r.info['zeta'] == pytest.approx(math.sqrt(8*P.loss.L**2*math.log(2/1e-6))/(r.batch*0.9))
    assert P.excess(r.theta) < 0.02*e0

def test_phased_strongly_convex(ls):
    P, X, y = ls
    r = phased(P.loss, X, y=y, epsilon=15.0, delta=1e-3, rng=np.random.default_rng(4), lam=1/3)
    assert r.info['phases'] == math.ceil(math.log(math.log(len(X))))
    assert P.excess(r.theta) < 0.02*P.excess(np.zeros(3))

def test_smoothed_pagd_nonsmooth():
    P = make_problem('absolute', d=3, R=1.0, n_eval=20_000)
    X, y = P.sample(200_000, np.random.default_rng(5))
    r = smoothed_pagd(P.loss, X, y=y, epsilon=15.0, delta=1e-3, rng=np.random.default_rng(6))
    assert P.excess(r.theta) < 0.05*P.excess(np.zeros(3))
    Ph = make_problem('hinge', d=3, R=3.0, n_eval=20_000)
    X, y = Ph.sample(200_000, np.random.default_rng(7))
    r = smoothed_pagd(Ph.loss, X, y=y, epsilon=15.0, delta=1e-3, rng=np.random.default_rng(8))
    assert Ph.excess(r.theta) < 0.5*Ph.excess(np.zeros(3))

def test_pgd_converges_and_budget(ls):
    P, X, y = ls
    r = pgd(P.loss, X[:30_000], y=y[:30_000], epsilon=15.0, delta=1e-3, rng=np.random.default_rng(9))
    assert r.T == pgd_rounds(30_000, 3, epsilon=15.0, delta=1e-3, L=P.loss.L) and r.T > 50
    assert P.excess(r.theta) < 0.5*P.excess(np.zeros(3))
    e0, d0 = pgd_round_budget(15.0, 1e-3, r.T)
    assert r.info['eps0'] == e0 and d0 == pytest.approx(1e-3/(r.T + 1))

@pytest.mark.parametrize('eps,delta', [(1.0, 1e-6), (0.5, 1e-9), (15.0, 1e-3)])
@pytest.mark.parametrize('T', [1, 10, 1000, 10**5])
def test_pgd_advanced_composition_total(eps, delta, T):
    e_tot, d_tot = pgd_privacy(eps, delta, T)
    # independent evaluation of Dwork-Rothblum-Vadhan
    e0 = eps/(2*math.sqrt(2*T*math.log(1/delta))); dp = delta/(T + 1)
    ref = math.sqrt(2*T*math.log(1/dp))*e0 + T*e0*math.expm1(e0)
    assert e_tot == pytest.approx(ref, rel=1e-12) and d_tot == pytest.approx(delta, rel=1e-12)
    if eps <= 1: assert e_tot <= eps

def test_pgd_budget_can_exceed_eps_for_large_eps():
    "Found while restoring Lemma B.6: at eps = 15 the second-order term makes the composed eps exceed 15 for small T."
    e_tot, _ = pgd_privacy(15.0, 1e-3, 1)
    assert e_tot > 15.0

def test_bad_inputs():
    P = make_problem('least_squares', d=2)
    X, y = P.sample(100, np.random.default_rng(0)); rng = np.random.default_rng(1)
    with pytest.raises(ValueError, match='epsilon must be in'): psgd(P.loss, X, y=y, epsilon=0.0, delta=1e-3, rng=rng)
    with pytest.raises(ValueError, match='delta must be in'): pagd(P.loss, X, y=y, epsilon=1.0, delta=0.6, rng=rng)
    with pytest.raises(ValueError, match='b must be an integer'): psgd(P.loss, X, y=y, epsilon=1.0, delta=1e-3,
                                                                       rng=rng, b=1000)
    with pytest.raises(ValueError, match='smooth loss'): pagd(HingeLoss(1.0), X, y=np.sign(y), epsilon=1.0,
                                                              delta=1e-3, rng=rng)
    with pytest.raises(ValueError, match='epsilon must be in'): pan_private_acsa(P.loss, X, y=y, epsilon=1.5,
                                                                                 delta=1e-3, rng=rng)
    with pytest.raises(ValueError, match='lam must be in'): phased(P.loss, X, y=y, epsilon=1.0, delta=1e-3, rng=rng)
    with pytest.raises(ValueError, match='kind must be'): make_problem('svm')
    with pytest.raises(ValueError, match='R must be in'): LogisticLoss(-1.0)
    with pytest.raises(ValueError, match='X must have 2 dimension'): psgd(P.loss, X[0], y=y, epsilon=1.0, delta=1e-3,
                                                                          rng=rng)

def test_ridge_problem_closed_form():
    "Least squares + ridge: theta_lam = theta*/(1 + d lam) since Sigma = I/d; the excess is (theta - theta_lam)^T (Sigma + lam I)(theta - theta_lam)/2."
    from shuffle_privacy.algorithms.sco import make_ridge_problem
    d, lam = 3, 0.5
    P = make_problem('least_squares', d=d); Pr = make_ridge_problem('least_squares', lam, d=d)
    tl = P.theta_star/(1 + d*lam)
    assert np.allclose(Pr.theta_star, tl, atol=1e-6)
    th = np.array([0.1, -0.3, 0.2])
    assert Pr.excess(th) == pytest.approx(0.5*(1/d + lam)*np.sum((th - tl)**2), rel=1e-6, abs=1e-10)

def test_phased_radius_schedule_shrinks(ls):
    P, X, y = ls
    r = phased(P.loss, X, y=y, epsilon=15.0, delta=1e-3, rng=np.random.default_rng(12), lam=1/3)
    Ds = r.info['D']
    assert Ds[0] == 2.0 and all(b_ <= a for a, b_ in zip(Ds, Ds[1:])) and Ds[-1] < 1.0
    rp = phased(P.loss, X[:40_000], y=y[:40_000], epsilon=15.0, delta=1e-3, rng=np.random.default_rng(13), lam=1/3,
                inner='pgd')
    assert len(rp.info['D']) == rp.info['phases'] + 1
    assert np.all(np.isfinite(rp.theta)) and np.linalg.norm(rp.theta) <= 1.0 + 1e-12

def test_moreau_needs_prox_and_value_rows():
    with pytest.raises(ValueError, match='prox oracle'): MoreauEnvelope(LogisticLoss(1.0), 2.0)
    X, y, rng = _data(5, n=6)
    P = rng.normal(size=(6, 3))
    for loss in LOSSES:
        ref = np.array([loss.value(P[i], X[i:i+1], y[i:i+1])[0] for i in range(6)])
        assert np.allclose(loss.value_rows(P, X, y), ref, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize('call,msg', [
    (lambda: smoothing_beta(-1, 1.0, L=1.0, D=1.0), 'n must be an integer in'),
    (lambda: smoothing_beta(10, 0.0, L=1.0, D=1.0), 'V must be in'),
    (lambda: pgd_round_budget(1.0, 1e-5, 0), 'T must be an integer in'),
    (lambda: pgd_round_budget(1.0, 2.0, 3), 'delta must be in'),
    (lambda: pgd_round_budget(-1.0, 1e-5, 3), 'epsilon must be in'),
    (lambda: pgd_rounds(0, 10, epsilon=1.0, delta=1e-5), 'n must be an integer in'),
    (lambda: pgd_rounds(100, 10, epsilon=0.0, delta=1e-5), 'epsilon must be in'),
    (lambda: pgd_rounds(100, -1, epsilon=1.0, delta=1e-5, L=1.0, exact_constants=False), 'd must be an integer in'),
    (lambda: pgd_privacy(1.0, 0.0, 3), 'delta must be in'),
    (lambda: psgd_batch(100, 3, epsilon=1.0, delta=1e-5, L=0.0), 'L must be in'),
    (lambda: pagd_batch(100, 3, V=1.0, beta=-1.0, D=1.0), 'beta must be in'),
])
def test_budget_helpers_reject_bad_input(call, msg):
    "These returned complex numbers, negative budgets or raised ZeroDivisionError / 'math domain error' before."
    with pytest.raises(ValueError, match=msg): call()
