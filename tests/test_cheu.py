"""Cheu et al.'s real summation (`mechanisms.shuffled_ldp.cheu`): independent references.

Exact rational enumeration of the whole protocol at tiny n (every dataset of rounded inputs, every neighbour),
Monte Carlo of the randomizer's output law against its closed form with a confidence bound, and the analyzer's
unbiasedness. The references never go through the PLD code."""
import itertools, math
from fractions import Fraction as F
import numpy as np
import pytest
from shuffle_privacy.mechanisms.shuffled_ldp.cheu import (cheu_randomizer, cheu_count, cheu_analyzer, cheu_pair,
                                                          CheuSumEvent, cheu_claim_rows)
from shuffle_privacy.accounting.pld import PldAccountant

def count_law(xhats, k, r, p):
    "Exact law of the count of ones (Fractions): a one stays w.p. 1 - p/2, a zero becomes one w.p. p/2."
    q = F(p)/2
    law = {0: F(1)}
    for xh in xhats:
        for j in range(k + r):
            b = 1 - q if j < xh else q
            new = {}
            for s, m in law.items():
                new[s] = new.get(s, 0) + m*(1 - b); new[s + 1] = new.get(s + 1, 0) + m*b
            law = new
    return law

def rounded_mixture(xs, k, r, p):
    "Exact law for real inputs: the mixture over each user's randomized rounding."
    opts = []
    for x in xs:
        lo = math.floor(x*k); fr = F(x)*k - lo
        opts.append([(lo, 1 - fr), (lo + 1, fr)] if fr else [(lo, F(1))])
    law = {}
    for combo in itertools.product(*opts):
        w = math.prod(c[1] for c in combo)
        for s, m in count_law([c[0] for c in combo], k, r, p).items(): law[s] = law.get(s, 0) + w*m
    return law

def hockey(P, Q, eps):
    g = math.exp(eps)
    return float(sum(max(float(m) - g*float(Q.get(s, 0)), 0.0) for s, m in P.items()))

def worst_delta(n, k, r, p, eps, grid):
    "Max over datasets in grid^n and one-user replacements of both orders' δ(ε)."
    best = 0.0
    for xs in itertools.product(grid, repeat=n):
        P = rounded_mixture(xs, k, r, p)
        for v in grid:
            if v == xs[0]: continue
            Q = rounded_mixture((v,) + xs[1:], k, r, p)
            best = max(best, hockey(P, Q, eps), hockey(Q, P, eps))
    return best

@pytest.mark.parametrize('n,k,r,p', [(3, 2, 1, F(1, 2)), (2, 3, 2, F(3, 10))])
def test_pair_brackets_exact_enumeration(n, k, r, p):
    "Both ends against every dataset of inputs on the grid {0, 1/4, 1/2, 1} (random rounding included)."
    grid = (F(0), F(1, 4), F(1, 2), F(1))
    pair = cheu_pair(n, k=k, r=r, p=float(p), value_discretization_interval=1e-3)
    for eps in (0.0, 0.3, 1.0):
        exact = worst_delta(n, k, r, p, eps, grid)
        lo, up = pair.delta_bounds(eps)
        assert lo <= exact*(1 + 1e-9) + 1e-15 and exact <= up*(1 + 1e-9), (eps, lo, exact, up)

def test_lower_end_is_the_c0_pair():
    "The lower end at a fine grid is (within the grid) the δ of the c = 0 pair, the inputs all 0 vs one user at 1."
    n, k, r, p = 3, 2, 1, F(1, 2)
    P = count_law([0]*n, k, r, p); Q = count_law([k] + [0]*(n - 1), k, r, p)
    pair = cheu_pair(n, k=k, r=r, p=float(p), value_discretization_interval=1e-4)
    for eps in (0.2, 0.8):
        ref = max(hockey(P, Q, eps), hockey(Q, P, eps))
        lo, _ = pair.delta_bounds(eps)
        assert lo <= ref*(1 + 1e-9) and lo >= ref - 2e-3, (eps, lo, ref)

def test_randomizer_bit_law_monte_carlo():
    "Each bit is one w.p. 1 - p/2 below x̂ and p/2 above: frequencies within 5 standard errors."
    k, r, p, reps = 5, 3, 0.4, 20000
    y = cheu_randomizer(np.full(reps, 0.6), k=k, r=r, p=p, rng=11)       # x̂ = 3 exactly
    want = np.array([1 - p/2]*3 + [p/2]*5)
    se = np.sqrt(want*(1 - want)/reps)
    assert np.all(np.abs(y.mean(0) - want) <= 5*se)

def test_randomizer_rounding_and_count_agree():
    "x = 0.3, k = 5: x̂ in {1, 2} w.p. 1/2 each; the sum of the bits and cheu_count have the same mean and variance."
    k, r, p, xs = 5, 2, 0.3, np.full(40, 0.3)
    sums = np.array([int(cheu_randomizer(xs, k=k, r=r, p=p, rng=s).sum()) for s in range(800)])
    counts = np.array([cheu_count(xs, k=k, r=r, p=p, rng=10**6 + s) for s in range(800)])
    q = p/2; N = 40*(k + r); mean = q*N + (1 - p)*k*0.3*40
    for a in (sums, counts):
        assert abs(a.mean() - mean) <= 5*a.std()/math.sqrt(len(a))
    assert 0.7 < sums.var()/counts.var() < 1.4

def test_analyzer_unbiased():
    rng = np.random.default_rng(5); xs = rng.random(100)
    est = np.array([cheu_analyzer(cheu_count(xs, k=10, r=10, p=0.2, rng=s), n=100, k=10, r=10, p=0.2)
                    for s in range(600)])
    assert abs(est.mean() - xs.sum()) <= 5*est.std()/math.sqrt(len(est))

@pytest.mark.slow
def test_event_monotone_and_composes():
    a = CheuSumEvent(40, 3, extra_bits=3, probability=0.3)
    b = CheuSumEvent(40, 3, extra_bits=3, probability=0.6)
    assert b.epsilon(1e-6) < a.epsilon(1e-6)
    assert a.delta(0.5) >= a.delta(1.0) >= a.delta(2.0)
    lo, up = PldAccountant(value_discretization_interval=1e-3).compose(a, 3).get_epsilon_bounds(1e-6)
    assert lo <= up and up > a.epsilon(1e-6)

def test_claim_rows_verdicts():
    rows = cheu_claim_rows([dict(n=30, k=3, r=3, p=0.5, epsilon=5.0, delta=0.5),
                            dict(n=30, k=3, r=3, p=0.05, epsilon=0.1, delta=1e-9)],
                           value_discretization_interval=1e-3)
    assert [w['verdict'] for w in rows] == ['holds', 'fails']
    for w in rows: assert w['delta_lower'] <= w['delta_upper'] and w['epsilon_lower'] <= w['epsilon_upper']

def test_bad_inputs():
    with pytest.raises(ValueError, match='p'): cheu_pair(10, k=2, r=1, p=0.0)
    with pytest.raises(ValueError, match='k'): cheu_count([0.5], k=0, r=1, p=0.3)
    with pytest.raises(ValueError, match='count'): cheu_analyzer(-1, n=3, k=2, r=1, p=0.3)
    with pytest.raises(ValueError, match='probability'): CheuSumEvent(3, 2, extra_bits=1, probability=0.0)

def test_revealed_coins_blanket_recursion_against_mpmath():
    "The three-term recursion for Bin(a, q) + Bin(b, 1/2) (the upper end's blanket) against sums in 40-digit mpmath."
    import mpmath as mp
    from shuffle_privacy.mechanisms.shuffled_ldp.cheu import _blanket
    a, q, b, k = 4000, 0.05, 3000, 4
    lo, hi, tail, lo_w, hi_w, lb, eb, m = _blanket(a, q, b, k)
    assert m == a + b and lo_w > 0 and hi_w < a*q + b*(1 - q) - 1      # the recursion's branch, not a fallback
    mp.mp.dps = 30
    def exact(s):
        return mp.fsum(mp.binomial(a, j)*mp.mpf(q)**j*(1 - mp.mpf(q))**(a - j)*mp.binomial(b, s - j)/mp.mpf(2)**b
                       for j in range(max(0, s - b), min(a, s, 600) + 1))   # j > 600: below 1e-80 of the sum (Chernoff)
    for s in (lo_w, lo_w + 7, (lo_w + hi_w)//2, hi_w):
        got = lb[s - lo_w]
        assert abs(got - float(mp.log(exact(s)))) <= eb*(1 + 1e-6), (s, got)

def test_error_std_is_attained_at_half_fractions():
    "Inputs with fractional part 1/2 attain the bound: Monte Carlo variance within 12% (3000 runs)."
    from shuffle_privacy.mechanisms.shuffled_ldp.cheu import cheu_error_std
    n, k, r, p = 60, 5, 3, 0.3
    xs = np.full(n, 0.5/k + 2/k)                                   # x k = 2.5
    est = np.array([cheu_analyzer(cheu_count(xs, k=k, r=r, p=p, rng=s), n=n, k=k, r=r, p=p) for s in range(3000)])
    assert abs(est.var()/cheu_error_std(n, k=k, r=r, p=p)**2 - 1) < 0.12

def test_min_p_is_the_threshold_of_the_certified_bound():
    from shuffle_privacy.mechanisms.shuffled_ldp.cheu import cheu_min_p
    n, k, r, d = 300, 5, 5, 1e-3
    pm = cheu_min_p(1.0, 1e-5, n=n, k=k, r=r, value_discretization_interval=d)
    assert 0 < pm < 1
    assert cheu_pair(n, k=k, r=r, p=pm, value_discretization_interval=d).epsilon_bounds(1e-5)[1] <= 1.0
    assert cheu_pair(n, k=k, r=r, p=pm/1.01, value_discretization_interval=d).epsilon_bounds(1e-5)[1] > 1.0
