"""Checks of the soundness study (reverse direction of Theorem 1, other pairs) against independent references:
mpmath quadrature of the inner Laplace transform, 2-D grid quadrature, Monte Carlo, the n=1 closed form."""
import math
import mpmath as mp
import numpy as np
import pytest

from shuffle_privacy.mechanisms.shuffle_gaussian.rdp import shuffle_gaussian_rdp
from shuffle_privacy.studies.shuffle_gaussian_soundness import (_log_laplace_excess, _log_laplace_lognormal,
                                                                conjecture1_scan,
                                                        shuffle_gaussian_rdp_both_directions, shuffle_gaussian_rdp_reverse,
                                                        shuffled_gaussian_renyi_grid2, shuffled_gaussian_renyi_mc)

mp.mp.dps = 20

@pytest.mark.parametrize('sigma,s', [(0.5, 1e-7), (0.5, 0.7), pytest.param(0.5, 400.0, marks=pytest.mark.slow),
                                     (9.48, 1e-7), (9.48, 0.7), pytest.param(9.48, 400.0, marks=pytest.mark.slow)])
def test_inner_laplace_transforms_match_mpmath(sigma, s):
    c = 1/(2*mp.mpf(sigma)**2)
    w = lambda z: mp.exp(z/sigma - c)
    ref_phi = mp.log(mp.quad(lambda z: mp.exp(-s*w(z) - z*z/2), mp.linspace(-80, 40, 121))/mp.sqrt(2*mp.pi))
    ref_k = mp.log(mp.quad(lambda z: (mp.exp(-s*(w(z) - 1)) - 1 + s*(w(z) - 1))*mp.exp(-z*z/2), mp.linspace(-80, 40, 121))/mp.sqrt(2*mp.pi))
    assert abs(_log_laplace_lognormal(s, sigma)[0] - float(ref_phi)) <= 1e-11*max(1, abs(float(ref_phi)))
    assert abs(_log_laplace_excess(s, sigma)[0] - float(ref_k)) <= 1e-11*max(1, abs(float(ref_k)))

def test_reverse_n1_is_gaussian():
    np.testing.assert_allclose(shuffle_gaussian_rdp_reverse([2, 2.5, 7], 1, 1.3), np.array([2, 2.5, 7])/(2*1.3**2),
                               rtol=1e-15)

@pytest.mark.parametrize('sigma', [0.7, 1.5, 5.0])
def test_reverse_matches_2d_quadrature_at_n2(sigma):
    o = np.array([2, 3, 6])
    np.testing.assert_allclose(shuffle_gaussian_rdp_reverse(o, 2, sigma),
                               shuffled_gaussian_renyi_grid2([0, 0], [1, 0], sigma=sigma, orders=o,
                                                             points=801), rtol=1e-8)

def test_forward_grid_matches_theorem1_at_n2():
    o = np.array([2, 4])
    np.testing.assert_allclose(shuffled_gaussian_renyi_grid2([1, 0], [0, 0], sigma=1.1, orders=o),
                               shuffle_gaussian_rdp(o, 2, 1.1), rtol=1e-9)

def test_reverse_matches_monte_carlo_n4():
    lam, n, sigma = 3, 4, 1.2
    est, se = shuffled_gaussian_renyi_mc(np.zeros(n), np.r_[1.0, np.zeros(n - 1)], sigma=sigma, order=lam,
                                         samples=200_000, rng=3)
    assert abs(est - float(shuffle_gaussian_rdp_reverse(lam, n, sigma))) < 5*se

def test_reverse_large_n_agrees_with_second_order_expansion():
    # both directions equal binom(λ,2)(e^{2c}-1)/n /(λ-1) to leading order in 1/n
    n, sigma, lam = 10**6, 2.0, 4
    c = 1/(2*sigma**2)
    lead = lam*(lam - 1)/2*math.expm1(2*c)/n/(lam - 1)
    r = float(shuffle_gaussian_rdp_reverse(lam, n, sigma))
    assert abs(r/lead - 1) < 1e-4

def test_reverse_never_exceeds_forward_on_a_grid():
    for n in [2, 7, 500]:
        for sigma in [0.6, 2.0]:
            o = np.array([2, 5, 16])
            assert np.all(shuffle_gaussian_rdp_reverse(o, n, sigma) <= shuffle_gaussian_rdp(o, n, sigma)*(1 + 1e-9))
            np.testing.assert_allclose(shuffle_gaussian_rdp_both_directions(o, n, sigma), shuffle_gaussian_rdp(o, n, sigma), rtol=1e-9)

def test_conjecture1_scan_finds_no_violation():
    orders, logS, bad = conjecture1_scan([1, 2, 3, 5, 8, 40, 41, 1000, 10**5], 1.0, 48)
    assert bad == [] and logS.shape == (9, 47)

@pytest.mark.parametrize('call,msg', [
    (lambda: shuffle_gaussian_rdp_reverse([1.0], 3, 1.0), 'orders must lie in (1, inf)'),
    (lambda: shuffle_gaussian_rdp_reverse([2], 0, 1.0), 'n must be an integer in [1, inf)'),
    (lambda: shuffle_gaussian_rdp_reverse([2], 3, 0.0), 'sigma must be in (0, inf)'),
    (lambda: shuffled_gaussian_renyi_grid2([0, 0, 0], [1, 0, 0], sigma=1.0, orders=[2]), 'exactly 2 scalars'),
    (lambda: shuffled_gaussian_renyi_grid2([0, 0], [1, 0], sigma=-1.0, orders=[2]), 'sigma must be in (0, inf)'),
    (lambda: shuffled_gaussian_renyi_mc([0, 0], [1, 0, 0], sigma=1.0, order=2), 'equal length'),
    (lambda: shuffled_gaussian_renyi_mc([0, 0], [1, 0], sigma=1.0, order=1.0), 'order must lie in (1, inf)'),
    (lambda: shuffled_gaussian_renyi_mc([0, 0], [1, 0], sigma=1.0, order=2, samples=5),
     'samples must be an integer in [100, inf)'),
    (lambda: conjecture1_scan([3, 2], 1.0), 'ns must be strictly increasing'),
    (lambda: conjecture1_scan([0, 2], 1.0), 'ns must be an integer in [1, inf)'),
])
def test_bad_inputs(call, msg):
    with pytest.raises(ValueError) as e: call()
    assert msg in str(e.value), str(e.value)
