"""The exact blanket pair of the two-class structured randomizers (notebook 18, `blanket_pair_pld`) against
references built from explicit randomizer tables: Balle et al.'s Theorem 3.1 in mpmath, and the exact δ of every
neighbouring dataset by enumeration."""
import itertools, math
import mpmath as mp
import numpy as np
import pytest
from scipy.linalg import hadamard
from shuffle_privacy.core import ResourceLimitError
from shuffle_privacy.mechanisms.shuffled_ldp.randomizers import (blanket_pair_pld, subset_selection, hadamard_response,
    unary_encoding, optimized_unary_encoding, local_hash, k_rr, laplace, vr_pair_pld)
from shuffle_privacy.mechanisms.shuffled_ldp.pld import fmt21_pair_pld
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R

def _norm(T): T = np.asarray(T, float); return T/T.sum(1, keepdims=True)

def ss_table(d, k, e0):
    return _norm([[math.exp(e0) if x in s else 1.0 for s in itertools.combinations(range(d), k)] for x in range(d)])

def hr_table(K, e0):
    return _norm(np.where(hadamard(K)[1:] > 0, math.exp(e0), 1.0))

def ue_table(d, e0, optimized):
    "Rows over all 2^d bit vectors: bit x set w.p. a, every other bit w.p. b."
    a, b = (0.5, 1/(math.exp(e0) + 1)) if optimized else (1/(1 + math.exp(-e0/2)), 1/(1 + math.exp(e0/2)))
    V = np.array(list(itertools.product([0, 1], repeat=d)))
    return np.array([np.prod(np.where(np.arange(d) == x, np.where(V, a, 1 - a), np.where(V, b, 1 - b)), 1)
                     for x in range(d)])

def lh_table(m, l, e0):
    "Local hashing of m inputs: a uniformly random function [m] -> [l] (public), then l-ary RR of its value."
    F = list(itertools.product(range(l), repeat=m))
    return _norm([[(math.exp(e0) if f[x] == y else 1.0) for f in F for y in range(l)] for x in range(m)])

def ue_floor(d, e0, optimized):
    "The unary encodings' blanket γω: the all-zero vector's law times the smaller of the two ratios of bit x."
    a, b = (0.5, 1/(math.exp(e0) + 1)) if optimized else (1/(1 + math.exp(-e0/2)), 1/(1 + math.exp(e0/2)))
    V = np.array(list(itertools.product([0, 1], repeat=d)))
    return np.prod(np.where(V, b, 1 - b), 1)*min(a/b, (1 - a)/(1 - b))

CASES = {   # name: (descriptor, table, ε0)
    'ss': (subset_selection(4, 2), ss_table(4, 2, 1.0), 1.0),
    'hr': (hadamard_response(8, 4), hr_table(8, 1.5), 1.5),
    'ue': (unary_encoding(), ue_table(3, 2.0, False), 2.0, ue_floor(3, 2.0, False)),
    'oue': (optimized_unary_encoding(), ue_table(3, 1.2, True), 1.2, ue_floor(3, 1.2, True)),
    'lh': (local_hash(2), lh_table(3, 2, 0.8), 0.8),
}

def balle_delta_mp(eps, n, R, x, xp, floor=None):
    "Balle et al. 2019, Theorem 3.1, with blanket γω = floor (default: R's smallest entry): (1/(nγ)) E[(Σ Z_j)_+]."
    mp.mp.dps = 40
    R = [[mp.mpf(float(v)) for v in row] for row in R]
    K = len(R[0])
    fl = [min(min(row) for row in R)]*K if floor is None else [mp.mpf(float(v)) for v in floor]
    assert all(R[i][y] >= fl[y]*(1 - mp.mpf(10)**-12) for i in range(len(R)) for y in range(K))
    gamma = sum(fl); Ee = mp.e**mp.mpf(eps)
    vals = {}
    for y in range(K):      # Z = L_ε(W) = (R(x)(W) - e^ε R(x')(W))/ω(W), W ~ ω, probability γω(y); grouped by value
        v = (R[x][y] - Ee*R[xp][y])*gamma/fl[y]
        key = mp.nstr(v, 25); vals.setdefault(key, [v, mp.mpf(0)])[1] += fl[y]
    cats = list(vals.values()) + [[mp.mpf(0), 1 - gamma]]
    tot = mp.mpf(0)
    for cnt in itertools.product(range(n + 1), repeat=len(cats) - 1):
        if sum(cnt) > n: continue
        s = sum(c*v for c, (v, _) in zip(cnt, cats))
        if s <= 0: continue
        full = list(cnt) + [n - sum(cnt)]
        w = mp.factorial(n)
        for c, (_, p) in zip(full, cats): w *= p**c/mp.factorial(c)
        tot += w*s
    return float(tot/(n*gamma))

@pytest.mark.parametrize('name,n', [('ss', 5), ('hr', 4), ('lh', 4), ('ue', 4), ('oue', 4)])
def test_brackets_balle_formula(name, n):
    "Ours is Balle et al.'s δ: their formula, evaluated from the explicit table, lies in the certified interval."
    rz, R, e0, *floor = CASES[name]
    pr = blanket_pair_pld(n, rz, e0, value_discretization_interval=1e-5)
    for eps in (0.05, 0.3, 0.7):
        ref = balle_delta_mp(eps, n, R, 0, 1, *floor)
        lo, up = pr.delta_bounds(eps)
        assert lo <= ref*(1 + 1e-9) + 1e-15 and ref <= up*(1 + 1e-9) + 1e-15, (eps, lo, ref, up)
        assert up - lo <= 0.02*ref + 1e-9

from helpers_enum import shuffled_law as _shuffled_law

@pytest.mark.parametrize('name,n', [('ss', 4), ('hr', 3), ('ue', 3), ('oue', 3), ('lh', 3)])
def test_upper_end_dominates_every_dataset(name, n):
    "The upper δ is above the exact δ of every neighbouring pair of datasets of the shuffled randomizer."
    rz, R, e0, *_ = CASES[name]
    pr = blanket_pair_pld(n, rz, e0, value_discretization_interval=1e-4)
    ups = {eps: pr.delta_bounds(eps)[1] for eps in (0.0, 0.3, 0.8)}
    worst = 0.0
    for others in itertools.combinations_with_replacement(range(len(R)), n - 1):
        for x, xp in itertools.permutations(range(len(R)), 2):
            P, Q = _shuffled_law(R, (x,) + others), _shuffled_law(R, (xp,) + others)
            for eps, up in ups.items():
                ex = sum(max(0.0, w - math.exp(eps)*Q[h]) for h, w in P.items())
                assert ex <= up*(1 + 1e-9) + 1e-15, (others, x, xp, eps, ex, up)
                worst = max(worst, ex/up if up > 0 else 0.0)
    assert worst > 0.3          # and not vacuous: some dataset comes close

@pytest.mark.parametrize('n,rz,e0', [(200, subset_selection(10, 3), 2.0), (300, optimized_unary_encoding(), 0.5),
                                     pytest.param(3000, hadamard_response(64, 32), 1.0, marks=pytest.mark.slow),
                                     pytest.param(3000, unary_encoding(), 3.0, marks=pytest.mark.slow),
                                     pytest.param(2000, local_hash(5), 1.5, marks=pytest.mark.slow)])
def test_tighter_than_the_other_certified_pairs(n, rz, e0):
    b = blanket_pair_pld(n, rz, e0).epsilon_bounds(1e-6)[1]
    assert b <= vr_pair_pld(n, *rz.variation_ratio(e0), flag='revealed').epsilon_bounds(1e-6)[1]
    assert b <= fmt21_pair_pld(n, e0).epsilon_bounds(1e-6)[1]

def test_matches_krr_blanket():
    from shuffle_privacy.mechanisms.shuffled_ldp.randomizers import krr_blanket_pair_pld
    gl, gu = blanket_pair_pld(500, k_rr(4), 1.5).epsilon_bounds(1e-6)
    kl, ku = krr_blanket_pair_pld(500, 4, 1.5).epsilon_bounds(1e-6)
    assert gl <= kl + 1e-12 and ku <= gu + 1e-12 and gu <= 1.005*ku

def test_bad_inputs():
    with pytest.raises(ValueError, match='n'): blanket_pair_pld(0, k_rr(3), 1.0)
    with pytest.raises(ValueError, match='local_epsilon'): blanket_pair_pld(10, k_rr(3), 8.5)
    with pytest.raises(ValueError, match='local_epsilon'): blanket_pair_pld(10, k_rr(3), 0.0)
    with pytest.raises(ValueError, match='rel_block'): blanket_pair_pld(10, k_rr(3), 1.0, rel_block=0.9)
    with pytest.raises(ValueError, match='randomizer'): blanket_pair_pld(10, laplace(), 1.0)
    with pytest.raises(ValueError, match='randomizer'): blanket_pair_pld(10, hadamard_response(8, 7), 1.0)
    with pytest.raises(TypeError, match='randomizer'): blanket_pair_pld(10, 'ss', 1.0)
    with pytest.raises(ValueError, match='value_discretization_interval'):
        blanket_pair_pld(10, k_rr(3), 1.0, value_discretization_interval=0.0)
    with pytest.raises(ResourceLimitError, match='rel_block'): blanket_pair_pld(10**12, subset_selection(10, 3), 1.0)


# ---------- Hadamard response with Sylvester rows: output 0 in every set ----------
def _worst_sylvester(n, K, e0, eps):
    "Exact δ(ε) of shuffled Hadamard response (rows 1..K-1 of H_K), maximised over every neighbouring pair."
    import itertools
    from helpers_enum import table, shuffled_law, hockey
    T = table(R.hadamard_response(K, K//2), e0)
    best = 0.0
    for x, x2 in itertools.permutations(range(len(T)), 2):
        for rest in itertools.combinations_with_replacement(range(len(T)), n - 1):
            best = max(best, hockey(shuffled_law(T, (x,) + rest), shuffled_law(T, (x2,) + rest), eps))
    return best

@pytest.mark.parametrize('n,e0', [(2, 2.0), pytest.param(3, 3.0, marks=pytest.mark.slow)])
def test_sylvester_pair_dominates_every_neighbouring_pair(n, e0):
    "The Sylvester blanket pair (notebook 18) is above the exact δ of every neighbouring pair of H_8's rows."
    pr = R.sylvester_blanket_pair_pld(n, 8, e0, value_discretization_interval=1e-5)
    for eps in (0.0, 0.3, 1.0):
        assert _worst_sylvester(n, 8, e0, eps) <= pr.delta_bounds(eps)[1] + 1e-12, eps

@pytest.mark.slow
def test_sylvester_pair_is_tighter_at_large_local_epsilon():
    "At ε0 = 8, K = 128 the common output's blanket matters: the event takes it (n = 1e4, δ = 1e-8: below 6)."
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import randomizer_pld
    up = randomizer_pld(10**4, 8.0, R.hadamard_response(128, 64)).epsilon_bounds(1e-8)[1]
    fam = R.blanket_pair_pld(10**4, R.hadamard_response(128, 64), 8.0).epsilon_bounds(1e-8)[1]
    assert up < 6.0 < fam
