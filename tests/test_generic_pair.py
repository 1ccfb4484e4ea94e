"""The generic pair (`generic_pair_pld`, the default of `ShuffledLDPEvent(n, ε0)`): the stronger clone, proven in
notebook 19 for every ε0-LDP randomizer. Checked against the exact corner pair at sampled blanket masses γ (the
library's, and an independent enumeration of both pairs' views), the convex-order step of the proof, every
randomizer the library has, and brute-force enumeration over random ε0-LDP randomizers at n = 3, 4."""
import itertools, math
from math import comb
import numpy as np
import pytest
from helpers_enum import shuffled_law
from shuffle_privacy.mechanisms.shuffled_ldp import pld as P
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
from shuffle_privacy.mechanisms.shuffled_ldp.pld import generic_pair_pld, randomizer_pld, fmt21_pair_pld

def gamma_star(e0): return 2/(math.exp(e0) + 1)

def sampled_gammas(e0, k):
    "k blanket masses spread over [e^-ε0, γ*], both ends included."
    lo, hi = math.exp(-e0), gamma_star(e0)
    return [lo + t*(hi - lo) for t in np.linspace(0, 1, k)]

# ---------- the proof's steps, independently ----------

def corner_views(n, e0, g):
    "Exact law of the corner pair's view (counts of A, B, N) at γ = g <= γ*: Balle et al.'s pair, by multinomials."
    e = math.exp(e0); a = (1/g - 1)/(e - 1); t = max(0.0, 2*a - 1)
    cls = [((a - t), e*g, g), ((a - t), g, e*g), (t, e*g, e*g)]          # ω-mass, ℓ0, ℓ1 of A, B, N
    out = {}
    for c in itertools.product(range(n), repeat=3):
        z = n - 1 - sum(c)
        if z < 0: continue
        w = math.factorial(n - 1)/math.prod(math.factorial(x) for x in (*c, z))
        w *= math.prod((g*m)**x for (m, _, _), x in zip(cls, c))*(1 - g)**z
        for j, (m, l0, l1) in enumerate(cls):
            k = tuple(x + (i == j) for i, x in enumerate(c)); v = out.setdefault(k, [0.0, 0.0])
            v[0] += w*m*l0; v[1] += w*m*l1
    return np.array(list(out.values())).T

def clone_views(n, e0):
    "Exact law of the stronger-clone pair (A + Δ, C − A + 1 − Δ), C ~ Bin(n−1, γ*), A ~ Bin(C, 1/2), Δ ~ Bern(r)."
    e = math.exp(e0); gs = gamma_star(e0); out = {}
    for C in range(n):
        for A in range(C + 1):
            w = comb(n - 1, C)*gs**C*(1 - gs)**(n - 1 - C)*comb(C, A)/2**C
            for b, r in enumerate((e/(e + 1), 1/(e + 1))):
                out.setdefault((A + 1, C - A), [0.0, 0.0])[b] += w*r
                out.setdefault((A, C - A + 1), [0.0, 0.0])[b] += w*(1 - r)
    return np.array(list(out.values())).T

def excess(n, e0, g):
    "Largest H_α(corner) − H_α(clone) over every likelihood-ratio breakpoint α, both directions."
    K, S = corner_views(n, e0, g), clone_views(n, e0)
    lr = np.concatenate([K[0]/K[1], S[0]/S[1]]); al = np.unique(np.concatenate([lr, 1/lr]))
    hs = lambda A, B: np.array([np.maximum(A - x*B, 0).sum() for x in al])
    return max((hs(K[0], K[1]) - hs(S[0], S[1])).max(), (hs(K[1], K[0]) - hs(S[1], S[0])).max())

def test_corner_views_sum_to_one_and_match_the_clone_at_gamma_star():
    for e0 in (0.5, 3.0):
        K = corner_views(4, e0, gamma_star(e0)); S = clone_views(4, e0)
        assert abs(K.sum(1) - 1).max() < 1e-12 and abs(S.sum(1) - 1).max() < 1e-12
        k0, s0 = np.sort(K[0][K[0] > 0]), np.sort(S[0])
        assert len(k0) == len(s0) and abs(k0 - s0).max() < 1e-12        # the corner pair at γ* is the stronger clone

@pytest.mark.parametrize('e0', [0.3, 1.0, 3.0, 8.0])
def test_corner_pairs_below_the_stronger_clone(e0):
    "The Theorem of notebook 19, by exact enumeration at small n and every γ in a grid below γ*."
    for n in (2, 3, 6):
        for g in sampled_gammas(e0, 9)[:-1]:
            assert excess(n, e0, max(g, math.exp(-e0)*(1 + 1e-12))) <= 1e-13, (n, e0, g)

@pytest.mark.slow
@pytest.mark.parametrize('e0', [0.5, 2.0, 5.0])
def test_corner_pairs_below_the_stronger_clone_slow(e0):
    for g in sampled_gammas(e0, 12)[1:-1]:
        assert excess(20, e0, g) <= 1e-13, (e0, g)

def test_convex_order_step():
    "Given a coin, the coupled W is a mean-preserving contraction of it: E(x + W)_+ <= E(x + coin)_+ for every x."
    rng = np.random.default_rng(5)
    for _ in range(200):
        e = math.exp(rng.uniform(0.01, 8)); al = rng.uniform(1, e); keep = rng.uniform(0, 1)
        coin = np.array([e - al, 1 - al*e]); rj = np.array([e*(1 - al), 0.0]); pr = np.array([(e + 1)/(2*e), (e - 1)/(2*e)])
        assert abs(pr @ rj - coin.mean()) <= 1e-9*max(1, abs(coin).max())
        for x in np.linspace(-2*e, 2*e, 41):
            w = keep*np.maximum(x + coin, 0).mean() + (1 - keep)*(pr @ np.maximum(x + rj, 0))
            assert w <= np.maximum(x + coin, 0).mean() + 1e-9*e

# ---------- the library's pairs ----------

def corner_lower(n, e0, g, epsilons):
    g = max(g, math.exp(-e0)*(1 + 1e-12))                          # the bottom end, to rounding
    pair = R.corner_blanket_pair_pld(n, e0, g)
    return np.array([pair.delta_bounds(e)[0] for e in epsilons])

def check_generic_dominates(n, e0, epsilons, gammas):
    up = generic_pair_pld(n, e0)
    ours = np.array([up.delta_bounds(e)[1] for e in epsilons])
    refs = {'binary RR worst case': [P.rr_worst_case_delta(e, n=n, local_epsilon=e0) for e in epsilons],
            'laplace corner': corner_lower(n, e0, math.exp(-e0/2), epsilons)}
    if n >= 2: refs['4-RR pair'] = [R.krr_pair_pld(n, 4, e0).delta_bounds(e)[0] for e in epsilons]
    for g in gammas: refs[f'corner at γ = {g:.4g}'] = corner_lower(n, e0, g, epsilons)
    for name, ref in refs.items():
        assert np.all(ours >= np.asarray(ref)), (n, e0, name, ours, ref)
    return ours, refs

def test_generic_dominates_every_randomizer():
    e0 = 1.0
    check_generic_dominates(20, e0, [0.0, 0.2], sampled_gammas(e0, 3))

@pytest.mark.slow
@pytest.mark.parametrize('n,e0', [(200, 2.0), (1000, 4.0), (300, 6.0)])
def test_generic_dominates_every_randomizer_slow(n, e0):
    check_generic_dominates(n, e0, [0.0, 0.05*e0, 0.2*e0, 0.4*e0], sampled_gammas(e0, 5))

# ---------- brute force over random ε0-LDP randomizers ----------

def random_randomizer(rng, k, m):
    "A random k-input, m-output randomizer: rows of random weights, some outputs pushed to the extremes."
    A = rng.uniform(0.05, 1, (k, m))*np.exp(rng.uniform(0, 3, (k, m))*(rng.uniform(0, 1, (k, m)) < 0.5))
    return A/A.sum(1, keepdims=True)

def ldp_epsilon(R_):
    return max(math.log(R_[i][y]/R_[j][y]) for i in range(len(R_)) for j in range(len(R_)) for y in range(len(R_[0])))

def worst_delta(R_, n, eps):
    "Exact δ(ε) of the shuffled reports, maximised over neighbouring datasets and both directions."
    k, best = len(R_), 0.0
    for others in itertools.combinations_with_replacement(range(k), n - 1):
        for a, b in itertools.permutations(range(k), 2):
            Pa, Qb = shuffled_law(R_, (a,) + others), shuffled_law(R_, (b,) + others)
            best = max(best, sum(max(0.0, w - math.exp(eps)*Qb.get(h, 0.0)) for h, w in Pa.items()))
    return best

def check_brute(seed, n, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        R_ = random_randomizer(rng, 3, 4)
        e0 = ldp_epsilon(R_)
        if e0 >= 7.9: continue
        up = generic_pair_pld(n, e0, value_discretization_interval=1e-3)
        for eps in (0.0, 0.2*e0, 0.5*e0):
            assert worst_delta(R_, n, eps) <= up.delta_bounds(eps)[1], (seed, n, e0, eps)

def test_brute_force_random_randomizers():
    check_brute(0, 3, 2)

@pytest.mark.slow
@pytest.mark.parametrize('seed,n', [(1, 3), (2, 4), (3, 4)])
def test_brute_force_random_randomizers_slow(seed, n):
    check_brute(seed, n, 4)

# ---------- the default ----------

def test_default_is_the_generic_pair_and_below_fmt21():
    for n, e0 in ((20, 1.0), (2000, 2.0)):
        a = randomizer_pld(n, e0).epsilon_bounds(1e-6)[1]
        assert a == generic_pair_pld(n, e0).epsilon_bounds(1e-6)[1] <= fmt21_pair_pld(n, e0).epsilon_bounds(1e-6)[1]
        assert not randomizer_pld(n, e0).lower_certified

def test_stronger_clone_above_eight_and_bad_input():
    assert generic_pair_pld(10**5, 8.0).epsilon_bounds(1e-8)[1] < 1.6                    # FMT21's pair: 7.79
    assert generic_pair_pld(10**5, 9.0).epsilon_bounds(1e-8)[1] < 9.0
    for kw, name in ((dict(n=0, local_epsilon=1.0), 'n'), (dict(n=10, local_epsilon=0.0), 'local_epsilon'),
                     (dict(n=10, local_epsilon=1.0, value_discretization_interval=2.0), 'value_discretization')):
        with pytest.raises(ValueError, match=name): generic_pair_pld(**kw)
