"""Issue 11 item 3: is Theorem 1's pair the worst for the shuffle Gaussian? Independent references and the full scan."""
import itertools, math
import numpy as np
import pytest
from scipy import integrate, special, stats
from shuffle_privacy.studies.shuffle_gaussian_worst_pair import pair_delta, pair_delta_mc, worst_pair_search

def _density(y, x, s):
    "p_X(y) written out directly as the average over permutations of a product of normal pdfs (no log space)."
    c = 1/(s*math.sqrt(2*math.pi))
    perms = list(itertools.permutations(range(len(x))))
    return sum(math.prod(c*math.exp(-0.5*((y[i] - x[p[i]])/s)**2) for i in range(len(x))) for p in perms)/len(perms)

@pytest.mark.parametrize('x,xp,s,e', [((0.0, 0.3), (0.8, 0.3), 1.0, 0.3), ((0.0, 0.0), (1.0, 0.0), 0.7, 1.0),
                                      pytest.param((0.2, 1.0), (0.6, 1.0), 1.5, 0.0, marks=pytest.mark.slow)])
def test_quadrature_against_scipy_dblquad(x, xp, s, e):
    f = lambda b, a: max(_density((a, b), x, s) - math.exp(e)*_density((a, b), xp, s), 0.0)
    L = 9*s
    ref, _ = integrate.dblquad(f, -L, 1 + L, -L, 1 + L, epsabs=1e-9, epsrel=1e-7)
    assert pair_delta(x, xp, noise_multiplier=s, epsilon=e, points=800) == pytest.approx(ref, rel=2e-4, abs=1e-7)

def test_gaussian_at_n1():
    for s in (0.3, 1.0, 4.0):
        for e in (0.0, 0.7, 2.0):
            mu = 1/s
            ex = special.ndtr(mu/2 - e/mu) - math.exp(e)*special.ndtr(-mu/2 - e/mu)
            assert pair_delta([0.0], [1.0], noise_multiplier=s, epsilon=e, points=4000) == pytest.approx(ex, rel=1e-5, abs=1e-12)

def test_identical_pair_gives_zero_and_monotone():
    assert pair_delta([0.2, 0.4], [0.2, 0.4], noise_multiplier=1.0, epsilon=0.0) == pytest.approx(0.0, abs=1e-12)
    d = pair_delta([0.0, 0.5, 1.0], [1.0, 0.5, 1.0], noise_multiplier=1.0, epsilon=np.linspace(0, 3, 7), points=40)
    assert np.all(np.diff(d) <= 1e-15)

def test_mc_agrees_with_quadrature_at_n3():
    est, se = pair_delta_mc([0.0, 0.2, 0.9], [0.7, 0.2, 0.9], noise_multiplier=0.8, epsilon=0.4, samples=200_000, rng=3)
    q = pair_delta([0.0, 0.2, 0.9], [0.7, 0.2, 0.9], noise_multiplier=0.8, epsilon=0.4, points=120)
    assert abs(est - q) < 5*se + 2e-3

def test_mc_reproducible():
    assert pair_delta_mc([0, 0, 0, 0], [1, 0, 0, 0], noise_multiplier=1.0, epsilon=0.5, samples=1000, rng=5) == \
        pair_delta_mc([0, 0, 0, 0], [1, 0, 0, 0], noise_multiplier=1.0, epsilon=0.5, samples=1000, rng=5)

@pytest.mark.parametrize('bad', [dict(x=[0, 0], x_prime=[1, 1]), dict(x=[0, 1.5], x_prime=[1, 1.5]),
                                 dict(x=[0, 0], x_prime=[1, 0], noise_multiplier=0.0),
                                 dict(x=[0, 0], x_prime=[1, 0], epsilon=-1.0),
                                 dict(x=[0, 0, 0, 0], x_prime=[1, 0, 0, 0]),
                                 dict(x=[0, 0], x_prime=[1, 0], epsilon=float('nan'))])
def test_bad_inputs(bad):
    kw = dict(x=[0, 0], x_prime=[1, 0], noise_multiplier=1.0, epsilon=0.1) | bad
    with pytest.raises(ValueError): pair_delta(**kw)

@pytest.mark.slow
@pytest.mark.parametrize('n,grid,pts', [(2, 5, 300), (3, 3, 70)])
@pytest.mark.parametrize('s', [0.5, 1.0, 2.0])
def test_theorem1_pair_is_worst_on_grid(n, grid, pts, s):
    r = worst_pair_search(n, s, [0.0, 0.25, 0.5, 1.0, 2.0, 3.0], grid=grid, points=pts)
    assert np.all(r['worst'] <= r['theorem1']*(1 + 1e-9))
