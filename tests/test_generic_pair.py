"""The generic pair (`generic_pair_pld`, the default of `ShuffledLDPEvent(n, ε0)`): the stronger clone for blanket
mass γ >= γ* and the corner cover for γ < γ*, against the exact corner pair at sampled γ, against every randomizer
the library has, and against brute-force enumeration over random ε0-LDP randomizers at n = 3, 4."""
import itertools, math
import numpy as np
import pytest
from helpers_enum import shuffled_law
from shuffle_privacy.mechanisms.shuffled_ldp import pld as P
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
from shuffle_privacy.mechanisms.shuffled_ldp.pld import generic_pair_pld, randomizer_pld, fmt21_pair_pld

def gamma_star(e0): return 2/(math.exp(e0) + 1)

def sampled_gammas(e0, per_piece):
    "γ at both ends and inside every piece of the cover of [e^-ε0, γ*]."
    out = []
    for lo, hi in P._cover(e0):
        out += [math.exp(lo + t*(hi - lo)) for t in np.linspace(0, 1, per_piece)]
    return out

def check_pieces(n, e0, per_piece, epsilons, which=slice(None)):
    "Each piece's upper δ is >= the lower end of the exact corner pair at every sampled γ of that piece."
    grid = np.asarray(epsilons, float)
    for lo, hi in P._cover(e0)[which]:
        piece = P._piece_delta(n, e0, lo, hi, 1e-4, grid)
        for g in np.exp(np.linspace(lo, hi, per_piece)):
            exact = corner_lower(n, e0, float(g), epsilons)
            assert np.all(piece >= exact), (n, e0, lo, hi, g, piece, exact)

def corner_lower(n, e0, g, epsilons):
    g = max(g, math.exp(-e0))                                    # the bottom end, to rounding
    pair = R.corner_blanket_pair_pld(n, e0, g)
    return np.array([pair.delta_bounds(e)[0] for e in epsilons])

def test_pieces_dominate_the_exact_corner_pair():
    check_pieces(30, 1.0, 2, [0.0, 0.1, 0.3], which=slice(None, None, 6))     # the first and the last piece

@pytest.mark.slow
@pytest.mark.parametrize('n,e0', [(300, 2.0), (2000, 4.0), (10**4, 0.5)])
def test_pieces_dominate_the_exact_corner_pair_slow(n, e0):
    check_pieces(n, e0, 3, [0.0, 0.05*e0, 0.2*e0, 0.5*e0])

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
    check_generic_dominates(20, e0, [0.0, 0.2], sampled_gammas(e0, 2)[1::12])

@pytest.mark.slow
@pytest.mark.parametrize('n,e0', [(200, 2.0), (1000, 4.0), (300, 6.0)])
def test_generic_dominates_every_randomizer_slow(n, e0):
    check_generic_dominates(n, e0, [0.0, 0.05*e0, 0.2*e0, 0.4*e0], sampled_gammas(e0, 2))

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

@pytest.mark.slow
def test_default_is_the_tighter_of_generic_and_fmt21():
    n, e0 = 2000, 2.0
    a = randomizer_pld(n, e0).epsilon_bounds(1e-6)[1]
    g = generic_pair_pld(n, e0).epsilon_bounds(1e-6)[1]
    f = fmt21_pair_pld(n, e0).epsilon_bounds(1e-6)[1]
    strong = P.clone_pair_pld(n, e0, clone_probability=gamma_star(e0)).epsilon_bounds(1e-6)[1]
    assert a == min(g, f) and strong <= g <= 1.01*strong < f
    assert not randomizer_pld(n, e0).lower_certified

def test_fallback_near_eight():
    "Where the cover does not fit below ε0' = 8 the default is FMT21's pair."
    assert randomizer_pld(100, 7.999).epsilon_bounds(1e-6) == fmt21_pair_pld(100, 7.999).epsilon_bounds(1e-6)
    with pytest.raises(ValueError, match='local_epsilon'): generic_pair_pld(100, 8.0)

def test_default_small():
    "The fast sibling: at n = 20 the default is the generic pair, below FMT21's and above the stronger clone's."
    n, e0 = 20, 1.0
    a = randomizer_pld(n, e0).epsilon_bounds(1e-3)[1]
    strong = P.clone_pair_pld(n, e0, clone_probability=gamma_star(e0)).epsilon_bounds(1e-3)[1]
    assert strong <= a <= min(1.01*strong, fmt21_pair_pld(n, e0).epsilon_bounds(1e-3)[1])
