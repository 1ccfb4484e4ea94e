"""The exact blanket of shuffled Laplace (notebook 18): Balle et al.'s formula at Laplace's own law, the worst-pair
lemma, and the certified evaluation (Tilted.hinge), against independent references (closed forms, quadrature,
a sorted-sum evaluation, Monte Carlo) and against the library's other bounds."""
import json, math, pathlib
import numpy as np
import pytest
from scipy import integrate
from shuffle_privacy.accounting.pld_build import Factor, Tilted
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
from shuffle_privacy.mechanisms.shuffled_ldp.pld import ShuffledLDPEvent, randomizer_pld
from shuffle_privacy.accounting.pld import PldAccountant

def v_law_fine(e0, alpha, k=200_000):
    "V = f0 - α f1 of one blanket draw (pair (0, 1)): atoms and a midpoint rule on each middle (independent code)."
    t = math.exp(-e0/2)
    L = (np.arange(k) + 0.5)/k*e0
    w = np.exp(-L/2)/4*(e0/k)
    w *= (1 - t)/2/w.sum()                            # each middle half has mass (1 - e^{-ε0/2})/2
    vals = np.concatenate([[math.exp(e0) - alpha, 1 - alpha*math.exp(e0)], np.exp(L) - alpha, 1 - alpha*np.exp(L)])
    return vals, np.concatenate([[t/2, t/2], w, w])

def pos_part_of_sum2(vals, probs):
    "E(V1 + V2)_+ for i.i.d. V1, V2 of a discrete law, by sorting and suffix sums (exact for that law)."
    o = np.argsort(vals); v, p = vals[o], probs[o]
    sp, spv = np.r_[np.cumsum(p[::-1])[::-1], 0.0], np.r_[np.cumsum((p*v)[::-1])[::-1], 0.0]
    j = np.searchsorted(v, -v, 'right')               # partners with v2 > -v1
    return float((p*(spv[j] + v*sp[j])).sum())

@pytest.mark.parametrize('e0', [0.5, 2.0, 8.0])
def test_one_user_is_the_laplace_pair(e0):
    "n = 1: Balle's formula is the exact hockey-stick of Laplace(0) against Laplace(1): 1 - e^{(ε - ε0)/2}."
    for eps in (0.0, 0.3*e0, 0.9*e0):
        ex = -math.expm1((eps - e0)/2)
        assert ex <= R.laplace_blanket_delta(eps, 1, e0) <= ex*(1 + 1e-6) + 1e-15

@pytest.mark.parametrize('e0, eps', [(1.0, 0.1), (4.0, 1.0), (8.0, 5.0)])
def test_two_users_against_a_sorted_sum(e0, eps):
    g, al = math.exp(-e0/2), math.exp(eps)
    vals, probs = v_law_fine(e0, al)
    e1 = float((probs*np.maximum(vals, 0)).sum())
    ref = (2*g*(1 - g)*e1 + g*g*pos_part_of_sum2(vals, probs))/2
    up = R.laplace_blanket_delta(eps, 2, e0)
    assert ref*(1 - 1e-4) <= up <= ref*(1 + 1e-3), (ref, up)

def test_monte_carlo_at_moderate_n():
    n, e0, eps, N = 20, 2.0, 0.3, 400_000
    rng = np.random.default_rng(0); g = math.exp(-e0/2)
    vals, probs = v_law_fine(e0, math.exp(eps), k=20_000)
    draws = rng.choice(vals, size=(N, n), p=probs/probs.sum())*(rng.random((N, n)) < g)
    s = np.maximum(draws.sum(1), 0)/n
    mc, se = s.mean(), s.std()/math.sqrt(N)
    up = R.laplace_blanket_delta(eps, n, e0)
    assert mc - 5*se <= up <= mc + 5*se + 2e-3*mc, (mc, se, up)

def test_worst_pair_lemma_numerically():
    "V_{x0,x1} <=_cx V_{0,1} (stop-loss transforms) on random pairs, α >= 0, by a fine quadrature grid in y."
    rng = np.random.default_rng(1)
    for _ in range(8):
        e0 = float(rng.choice([0.5, 2.0, 6.0])); al = float(np.exp(rng.uniform(-3, 3))); x0, x1 = rng.uniform(0, 1, 2)
        y = np.linspace(0.5 - 40/e0, 0.5 + 40/e0, 200_001); w = np.exp(-e0*np.abs(y - 0.5)); w /= w.sum()
        f = lambda x: np.exp(e0*(np.abs(y - 0.5) + 0.5 - np.abs(y - x)))
        V, V01 = f(x0) - al*f(x1), f(0.0) - al*f(1.0)
        for t in np.linspace(V01.min(), V01.max(), 40):
            assert (w*np.maximum(V - t, 0)).sum() <= (w*np.maximum(V01 - t, 0)).sum() + 1e-7*(1 + abs(t) + (w*np.abs(V01)).sum()), (x0, x1, al, t)

def test_balle_formula_at_other_pairs_is_below():
    "The formula at n = 2 for random pairs (x0, x1), evaluated independently, is below the library's (0, 1) bound."
    rng = np.random.default_rng(2); e0, eps, g = 3.0, 0.8, math.exp(-1.5)
    y = np.linspace(0.5 - 40/e0, 0.5 + 40/e0, 200_001); w = np.exp(-e0*np.abs(y - 0.5)); w /= w.sum()
    f = lambda x: np.exp(e0*(np.abs(y - 0.5) + 0.5 - np.abs(y - x)))
    up = R.laplace_blanket_delta(eps, 2, e0)
    for _ in range(6):
        x0, x1 = rng.uniform(0, 1, 2); V = f(x0) - math.exp(eps)*f(x1)
        val = (2*g*(1 - g)*float((w*np.maximum(V, 0)).sum()) + g*g*pos_part_of_sum2(V, w))/2
        assert val <= up*(1 + 1e-4), (x0, x1, val, up)

@pytest.mark.parametrize('n, e0', [(300, 4.0), (1000, 8.0), pytest.param(3000, 2.0, marks=pytest.mark.slow)])
def test_actual_pairs_below_and_corner_above(n, e0):
    for eps in (0.25*e0, 0.5*e0, 0.75*e0):
        up = R.laplace_blanket_delta(eps, n, e0)
        assert R.binned_dataset_delta(eps, n, R.laplace(), e0) <= up
        assert up <= R.corner_blanket_pair_pld(n, e0, math.exp(-e0/2)).delta_bounds(eps)[1]*(1 + 1e-9)

def test_pair_dominates_its_profile_and_event_uses_it():
    pair = R.laplace_blanket_pair_pld(300, 4.0, value_discretization_interval=1e-3)
    for eps in (0.8, 1.2, 1.6, 2.4):
        assert pair.delta_bounds(eps)[1] >= R.laplace_blanket_delta(eps, 300, 4.0)*(1 - 1e-9)
    ev = randomizer_pld(300, 4.0, R.laplace(), value_discretization_interval=1e-3)
    assert ev.lower_certified and ev.epsilon_bounds(1e-8)[1] <= pair.epsilon_bounds(1e-8)[1] + 1e-9

@pytest.mark.slow
def test_event_composes_in_the_accountant():
    acc = PldAccountant(value_discretization_interval=1e-3).compose(ShuffledLDPEvent(300, 4.0, randomizer=R.laplace()), 2)
    assert 0.0 < acc.get_epsilon(1e-6) < 4.0

def test_below_wang_et_al_where_their_laplace_claim_is_not_shown_false():
    "n = 1e4, ε0 = 8, δ = 1e-8: the certified exact blanket is below Wang et al.'s (unproven) Laplace number."
    rows = json.loads((pathlib.Path(__file__).parents[1]/'nbs/data/wang_vldb24_reference.json').read_text())['rows']
    wang = [r['eps_ub'] for r in rows if r['randomizer'] == 'laplace' and r['n'] == 10**4
            and r['local_epsilon'] == 8.0 and r['delta'] == 1e-8][0]
    assert R.laplace_blanket_pair_pld(10**4, 8.0).epsilon_bounds(1e-8)[1] < 0.75*wang

def test_hinge_against_mpmath_convolution():
    import mpmath as mp
    rng = np.random.default_rng(3); p = rng.random(30)**3; p /= p.sum(); i0, d, T = -20, 0.1, 5
    ex = [mp.mpf(1)]
    for _ in range(T):
        ex = [mp.fsum(ex[k - j]*mp.mpf(float(p[j])) for j in range(len(p)) if 0 <= k - j < len(ex))
              for k in range(len(ex) + len(p) - 1)]
    for x in (0.0, 0.4, 1.5):
        exact = mp.fsum(m*((T*i0 + k)*mp.mpf(d) - x) for k, m in enumerate(ex) if (T*i0 + k)*d > x)
        up = Tilted([Factor(p, i0, pinf=0.0, d=d, count=T)], x, upper=True).hinge(x)
        assert exact <= up <= exact*(1 + 1e-9) + 1e-300

def test_bad_inputs_name_the_parameter():
    for kw, name in ((dict(epsilon=-0.1, n=10, local_epsilon=1.0), 'epsilon'),
                     (dict(epsilon=0.1, n=0, local_epsilon=1.0), 'n'),
                     (dict(epsilon=0.1, n=10, local_epsilon=12.0), 'local_epsilon'),
                     (dict(epsilon=0.1, n=10, local_epsilon=1.0, lattice=4), 'lattice')):
        with pytest.raises(ValueError, match=name): R.laplace_blanket_delta(**kw)
    with pytest.raises(R.ResourceLimitError, match='corner_blanket_pair_pld'): R.laplace_blanket_pair_pld(10**9, 1.0)
