"Cross-checks of shuffle_privacy.mechanisms.blogs.repaired: RDP accounting against dp_accounting, exact GDP, calibration, the step itself, bad input."
import math
import numpy as np
import pytest

from shuffle_privacy.core import DEFAULT_ORDERS
from shuffle_privacy.mechanisms.blogs.repaired import (repaired_blogs_step, repaired_epsilon,
                                                      repaired_noise_multiplier, RepairedBlogsStepEvent)
from shuffle_privacy.accounting.events import rdp_of
from shuffle_privacy.accounting.conversions import gdp_epsilon

def test_rdp_formula():
    np.testing.assert_allclose(5 * rdp_of(RepairedBlogsStepEvent(2.0), np.array([2, 10.5])), [5 * 2 / 8, 5 * 10.5 / 8],
                               rtol=1e-15)

@pytest.mark.parametrize('sigma,k', [(0.5, 1), (1.0, 5), (2.0, 100), (0.1, 5)])
def test_epsilon_against_dp_accounting(sigma, k):
    "Ours may only be tighter than dp_accounting's RDP accountant (a finer order search, the same conversion)."
    import dp_accounting
    from dp_accounting import rdp
    orders = [1 + x for x in np.geomspace(1e-3, 1e3, 200)]
    acc = rdp.RdpAccountant(orders)
    acc.compose(dp_accounting.GaussianDpEvent(sigma), k)
    ref = acc.get_epsilon(1e-5)
    ours = repaired_epsilon(sigma, count=k, delta=1e-5)
    assert gdp_epsilon(math.sqrt(k) / sigma, 1e-5) <= ours <= ref * (1 + 1e-6)

@pytest.mark.parametrize('sigma,k', [(0.5, 1), (1.0, 5), (3.0, 50)])
def test_epsilon_above_exact_gdp(sigma, k):
    "k Gaussian steps are exactly mu-GDP with mu = sqrt(k)/sigma; RDP must not beat the exact value."
    exact = gdp_epsilon(math.sqrt(k) / sigma, 1e-5)
    assert exact <= repaired_epsilon(sigma, count=k, delta=1e-5) <= 1.2 * exact + 0.05

@pytest.mark.parametrize('target', [0.5, 1.0, 10.0, 1000.0])
def test_calibration(target):
    s = repaired_noise_multiplier(target, count=5, delta=1e-5)
    assert repaired_epsilon(s, count=5, delta=1e-5) <= target
    assert repaired_epsilon(s * (1 - 1e-4), count=5, delta=1e-5) > target * (1 - 1e-3)

def test_step_clips_globally_and_adds_calibrated_noise():
    rng = np.random.default_rng(0)
    grads = [np.full((20, 5), 3.0), np.full(4, -3.0)]
    outs = np.array([np.concatenate([o.ravel() for o in repaired_blogs_step(grads, [5, 4], clip=1.0,
                                                                            noise_multiplier=0.25, rng=rng)]) for _ in range(3000)])
    # mean of each tensor's entries: clipped values (global norm 1), noise std 0.5
    g = np.concatenate([x.ravel() for x in grads]); gc = g / np.linalg.norm(g)
    np.testing.assert_allclose(outs.mean(0)[:100].mean(), gc[:100].mean(), atol=0.01)
    np.testing.assert_allclose(outs[:, :100].std(), 0.5, rtol=0.03)
    # tiny gradients are not scaled up
    small = [np.full(4, 1e-3)]
    m = np.mean([repaired_blogs_step(small, [2], clip=1.0, noise_multiplier=1e-9, rng=rng)[0] for _ in range(10)],
                axis=0)
    np.testing.assert_allclose(m, small[0], rtol=1e-5)

@pytest.mark.parametrize('call,msg', [
    (lambda: RepairedBlogsStepEvent(0.0), r'noise_multiplier must be in \(0, inf\)'),
    (lambda: repaired_epsilon(1.0, count=0, delta=1e-5), r'count must be an integer in \[1, inf\)'),
    (lambda: repaired_epsilon(1.0, count=1, delta=0.0), r'delta must be in \(0, 1\)'),
    (lambda: repaired_noise_multiplier(-1.0, count=1, delta=1e-5), r'target_epsilon must be in \(0, inf\)'),
    (lambda: repaired_blogs_step([np.ones(3)], [1, 1], clip=1.0, noise_multiplier=1.0, rng=0),
     'one entry per gradient tensor'),
    (lambda: repaired_blogs_step([np.ones(3)], [1], clip=0.0, noise_multiplier=1.0, rng=0),
     r'clip must be in \(0, inf\)'),
])
def test_bad_input(call, msg):
    with pytest.raises(ValueError, match=msg): call()

def test_old_positional_calls_fail_loudly():
    with pytest.raises(TypeError): repaired_epsilon(1.0, 5, 1e-5)
    with pytest.raises(TypeError): repaired_noise_multiplier(1.0, 5, 1e-5)
