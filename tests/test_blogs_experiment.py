"Checks of shuffle_privacy.experiments.blogs: per-example clipped gradients against explicit per-example gradients, finite differences, the methods."
import math
import numpy as np
import pytest
from sklearn.datasets import load_digits

from shuffle_privacy.experiments.blogs import mlp_grads, mlp_init, mlp_logits, private_gradient, train

X, Y = load_digits(return_X_y=True); X = X / 16.0

def loss(P, Xb, yb):
    z = mlp_logits(P, Xb); z = z - z.max(1, keepdims=True)
    return float(np.mean(np.log(np.exp(z).sum(1)) - z[np.arange(len(yb)), yb]))

def test_mean_gradient_matches_finite_differences():
    P = mlp_init(rng=1); Xb, yb = X[:30], Y[:30]
    g = mlp_grads(P, Xb, y=yb)
    rng = np.random.default_rng(0)
    for k in range(4):
        for _ in range(5):
            i = tuple(rng.integers(s) for s in P[k].shape)
            old = P[k][i]; h = 1e-6
            P[k][i] = old + h; lp = loss(P, Xb, yb); P[k][i] = old - h; lm = loss(P, Xb, yb); P[k][i] = old
            assert g[k][i] == pytest.approx((lp - lm) / (2 * h), abs=1e-7)

@pytest.mark.parametrize('C', [0.05, 0.5, 100.0])
def test_per_example_clipped_sum(C):
    P = mlp_init(rng=2); n = 25
    per = [mlp_grads(P, X[i:i + 1], y=Y[i:i + 1]) for i in range(n)]
    norms = [math.sqrt(sum(float(np.sum(g * g)) for g in gs)) for gs in per]
    ref = [sum(gs[k] * min(1.0, C / nn) for gs, nn in zip(per, norms)) for k in range(4)]
    for a, b in zip(mlp_grads(P, X[:n], y=Y[:n], per_example_clip=C), ref): np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-14)

def test_methods_and_privacy_bookkeeping():
    r = train('dpsgd', X[:200], ytr=Y[:200], Xte=X[200:400], yte=Y[200:400], target_epsilon=5.0, epochs=2, batch=50)
    assert r['epsilon'] <= 5.0 and r['steps'] == 8 and 0 <= r['accuracy'] <= 1
    r = train('blogs', X[:200], ytr=Y[:200], Xte=X[200:400], yte=Y[200:400], target_epsilon=1000.0, epochs=1, batch=50)
    assert len(r['block_sizes']) == 4 and r['claimed_epsilon'] > 0
    with pytest.raises(ValueError, match='method must be one of'):
        private_gradient('nope', mlp_init(rng=0), X=X[:5], y=Y[:5], clip=1.0, rng=np.random.default_rng(0))
