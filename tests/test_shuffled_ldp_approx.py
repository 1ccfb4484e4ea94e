"""Shuffled (ε0, δ0)-LDP randomizers (`ShuffledLDPEvent(..., local_delta=δ0)`): the certified PLD against independent
references: exact enumeration of shuffled approximate-LDP randomizers, the pure case, and FMT21 Theorem 3.8 as
reconstructed in notebook 19 (recomputed here from its formula, not from the library)."""
import itertools, math
import numpy as np
import pytest
import shuffle_privacy as sp
from shuffle_privacy.accounting.events import UnsupportedEventError
from shuffle_privacy.accounting.pld import PldAccountant, pld_of
from shuffle_privacy.accounting.rdp import RdpAccountant
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
from shuffle_privacy.mechanisms.shuffled_ldp.pld import ShuffledLDPEvent, randomizer_pld

EPS = (0.0, 0.05, 0.2, 0.5, 1.0)

# ---------- independent references ----------

from helpers_enum import shuffled_law             # exact law of the sorted reports (shared with other tests)

def hockey(P, Q, eps):
    "H_{e^eps}(P || Q) of two dicts."
    return sum(max(0.0, w - math.exp(eps)*Q.get(k, 0.0)) for k, w in P.items())

def ldp_delta(rows, e0):
    "The smallest δ0 with which the randomizer `rows` is (e0, δ0)-LDP (max over ordered pairs of inputs)."
    return max(np.maximum(a - math.exp(e0)*b, 0).sum() for a in rows for b in rows)

def random_approx_randomizer(k_in, k_out, e0, d0, rng):
    "An e0-LDP part (per-output weights times e^s, s in [0, e0/2]) mixed, with weight d0, with a revealing part."
    a = rng.uniform(0.1, 1.0, k_out)*np.exp(e0/2*rng.uniform(0, 1, (k_in, k_out)))
    a /= a.sum(1, keepdims=True)
    return np.hstack([(1 - d0)*a, d0*np.eye(k_in)])

def kov_randomizer(e0, d0):
    "Kairouz et al.'s extremal (e0, d0) pair on a binary input: outcomes (reveal 0, y0, y1, reveal 1)."
    r = math.exp(e0)/(math.exp(e0) + 1)
    return np.array([[d0, (1 - d0)*r, (1 - d0)*(1 - r), 0.0], [0.0, (1 - d0)*(1 - r), (1 - d0)*r, d0]])

def fmt21_thm31_printed(delta, n, e0):
    "FMT21 Theorem 3.1 as printed (OpenDP's form); e0 outside its condition."
    if n < 2 or e0 > math.log(n/(16*math.log(2/delta))): return e0
    a = 8*math.sqrt(math.exp(e0)*math.log(4/delta)/n) + 8*math.exp(e0)/n
    return min(e0, math.log1p((math.exp(e0) - 1)/(math.exp(e0) + 1)*a))

def fmt21_thm38(delta, n, e0, d0):
    "FMT21 Theorem 3.8 as reconstructed in notebook 19: (ε, δ + (e^ε + 1)(1 + e^-ε0/2) n δ0)."
    eps = fmt21_thm31_printed(delta, n, e0)
    return eps, delta + (math.exp(eps) + 1)*(1 + math.exp(-e0)/2)*n*d0

# ---------- the pure case, monotonicity ----------

@pytest.mark.parametrize('n, e0', [(1, 1.0), (50, 0.5),
                                   pytest.param(2000, 2.0, marks=pytest.mark.slow), pytest.param(200, 9.0, marks=pytest.mark.slow)])
def test_zero_local_delta_is_the_pure_result(n, e0):
    a, b = randomizer_pld(n, e0, local_delta=0.0), randomizer_pld(n, e0)
    c = pld_of(ShuffledLDPEvent(n, e0, local_delta=0), 1e-4)
    for eps in EPS:
        assert a.delta_bounds(eps) == b.delta_bounds(eps) == c.delta_bounds(eps)

@pytest.mark.parametrize('d0s', [(0.0, 1e-10, 1e-4),
                                 pytest.param((0.0, 1e-13, 1e-11, 1e-9, 1e-7, 1e-4), marks=pytest.mark.slow)])
def test_above_pure_and_increasing_in_local_delta(d0s):
    n, e0 = 1000, 1.5
    pairs = [randomizer_pld(n, e0, local_delta=d0) for d0 in d0s]
    for eps in EPS + (1.5, 3.0):
        ups = [p.delta_bounds(eps)[1] for p in pairs]
        assert all(x <= y for x, y in zip(ups, ups[1:])), (eps, ups)
        assert all(y >= d0 for y, d0 in zip(ups, d0s))          # the victim alone reveals with probability δ0
    es = [p.epsilon_bounds(1e-6)[1] for p in pairs]
    assert all(x <= y for x, y in zip(es, es[1:])), es
    assert es[-1] == math.inf            # δ0 = 1e-4 > 1e-6: some (ε0, δ0)-LDP randomizer reveals with probability δ0
    assert pairs[-1].epsilon_bounds(1e-3)[1] <= e0               # and it is (ε0, δ0)-DP

# ---------- enumeration of actual (ε0, δ0)-LDP mechanisms ----------

@pytest.mark.parametrize('seed, e0, d0', [(0, 0.5, 0.01), (1, 1.0, 0.05),
                                          pytest.param(2, 2.0, 0.001, marks=pytest.mark.slow),
                                          pytest.param(3, 1.0, 0.2, marks=pytest.mark.slow)])
def test_random_approx_randomizers_below_the_bound(seed, e0, d0):
    rng = np.random.default_rng(seed)
    rows = random_approx_randomizer(3, 3, e0, d0, rng)
    assert ldp_delta(rows, e0) <= d0 + 1e-15
    n = 4
    up = randomizer_pld(n, e0, local_delta=d0, value_discretization_interval=1e-3)
    for others in itertools.combinations_with_replacement(range(3), n - 1):
        for a, b in itertools.permutations(range(3), 2):
            P, Q = shuffled_law(rows, (a,) + others), shuffled_law(rows, (b,) + others)
            for eps in (0.0, 0.3*e0, 0.7*e0, e0):
                assert hockey(P, Q, eps) <= up.delta_bounds(eps)[1], (others, a, b, eps)

@pytest.mark.parametrize('n, e0, d0', [(5, 0.5, 1e-3), pytest.param(1, 2.0, 0.1, marks=pytest.mark.slow),
                                       pytest.param(2, 2.0, 0.1, marks=pytest.mark.slow)])
def test_extremal_randomizer_below_and_tight_at_e0(n, e0, d0):
    rows = kov_randomizer(e0, d0)
    assert abs(ldp_delta(rows, e0) - d0) < 1e-15
    up = randomizer_pld(n, e0, local_delta=d0, value_discretization_interval=1e-3)
    for m in range(n):                                           # m of the other n - 1 users hold a 1
        others = (1,)*m + (0,)*(n - 1 - m)
        P, Q = shuffled_law(rows, (0,) + others), shuffled_law(rows, (1,) + others)
        for eps in (0.0, 0.1, 0.5*e0, e0):
            assert max(hockey(P, Q, eps), hockey(Q, P, eps)) <= up.delta_bounds(eps)[1]
    assert d0 <= up.delta_bounds(e0)[1] <= d0*(1 + 1e-6)          # exactly δ0 at ε0: reveal, nothing else

def strong_branch(n, e0, d0, eps):
    "The Theorem's stronger-clone bound, recomputed: δ0 + (1 - δ0) δ_S(ε; ε0') + (1 + e^ε) τ' (notebook 19)."
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import generic_pair_pld
    e0s = e0 - math.log1p(-d0)
    tau2 = 1 - (1 - 2*math.exp(-e0)*d0)**(n - 1)
    ds = generic_pair_pld(n, e0s*(1 + 1e-15), value_discretization_interval=1e-3).delta_bounds(eps)[1]
    return d0 + (1 - d0)*ds + (1 + math.exp(eps))*tau2

@pytest.mark.parametrize('seed, e0, d0', [(4, 1.0, 0.01), (5, 2.0, 1e-3),
                                          pytest.param(6, 0.5, 0.05, marks=pytest.mark.slow)])
def test_stronger_clone_branch_alone_bounds_every_dataset(seed, e0, d0):
    "The new (stronger-clone) part of the Theorem by itself, against every neighbouring dataset of n = 4 users."
    rng = np.random.default_rng(seed)
    for rows in (random_approx_randomizer(3, 3, e0, d0, rng), random_approx_randomizer(3, 4, e0, d0, rng)):
        k = rows.shape[0]
        assert ldp_delta(rows, e0) <= d0 + 1e-15
        bound = {eps: strong_branch(4, e0, d0, eps) for eps in (0.0, 0.3*e0, 0.7*e0, e0)}
        for others in itertools.combinations_with_replacement(range(k), 3):
            for a, b in itertools.permutations(range(k), 2):
                P, Q = shuffled_law(rows, (a,) + others), shuffled_law(rows, (b,) + others)
                for eps, up in bound.items():
                    assert hockey(P, Q, eps) <= up, (others, a, b, eps)

@pytest.mark.parametrize('n, e0, d0', [(5, 1.0, 1e-3), (6, 2.0, 1e-4)])
def test_stronger_clone_branch_nearly_tight_on_the_extremal_randomizer(n, e0, d0):
    "Kairouz et al.'s extremal pair (binary RR that reveals w.p. δ0): exact δ within 1% of the branch, never above."
    rows, worst = kov_randomizer(e0, d0), 0.0
    for eps in (0.0, 0.1, 0.3*e0, 0.6*e0, e0):
        up = strong_branch(n, e0, d0, eps)
        for m in range(n):                                       # m of the other n - 1 users hold a 1
            others = (1,)*m + (0,)*(n - 1 - m)
            P, Q = shuffled_law(rows, (0,) + others), shuffled_law(rows, (1,) + others)
            worst = max(worst, max(hockey(P, Q, eps), hockey(Q, P, eps))/up)
    assert worst <= 1.0 and (worst > 0.99 if e0 == 2.0 else worst > 0.85), worst

@pytest.mark.parametrize('n, e0, d0', [(10**4, 2.0, 1e-12), pytest.param(10**5, 4.0, 1e-13, marks=pytest.mark.slow)])
def test_stronger_clone_branch_used_when_n_delta0_small(n, e0, d0):
    "n δ0 far below δ: the bound is the pure generic bound at ε0' (stronger clone), well below the clones part."
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import clone_pair_pld, generic_pair_pld
    ours = randomizer_pld(n, e0, local_delta=d0).epsilon_bounds(1e-6)[1]
    strong = generic_pair_pld(n, e0 - math.log1p(-d0)).epsilon_bounds(1e-6)[1]
    clones = clone_pair_pld(n, e0, clone_probability=math.exp(-e0)*(1 - d0)).epsilon_bounds(1e-6)[1]
    assert strong <= ours <= strong + 1e-3 < clones
    for eps in (0.05, 0.1, 0.3):                              # never above the branch, recomputed
        assert randomizer_pld(n, e0, local_delta=d0).delta_bounds(eps + 1e-3)[1] <= strong_branch(n, e0, d0, eps)

# ---------- against the published bound ----------

def _check_against_fmt(n, e0, d0, delta):
    eF, dF = fmt21_thm38(delta, n, e0, d0)
    pair = randomizer_pld(n, e0, local_delta=d0)
    assert pair.delta_bounds(eF)[1] <= dF
    assert pair.epsilon_bounds(dF)[1] <= eF

@pytest.mark.parametrize('n, e0, d0, delta', [(10**4, 1.0, 1e-10, 1e-6),
                                              pytest.param(10**4, 0.2, 1e-11, 1e-6, marks=pytest.mark.slow),
                                              pytest.param(3000, 0.05, 1e-9, 1e-5, marks=pytest.mark.slow)])
def test_not_looser_than_fmt21_thm38(n, e0, d0, delta):
    _check_against_fmt(n, e0, d0, delta)

@pytest.mark.slow
@pytest.mark.parametrize('n', [10**3, 10**5, 10**6])
@pytest.mark.parametrize('e0', [0.1, 1.0, 3.0])
@pytest.mark.parametrize('rel', [1e-3, 0.1, 1.0])               # n δ0 as a fraction of δ
def test_not_looser_than_fmt21_thm38_grid(n, e0, rel):
    delta = 1e-6
    _check_against_fmt(n, e0, rel*delta/n, delta)

def test_never_above_the_theorem():
    "The PLD's δ is at most the Theorem's bound, recomputed here (TV slack and local bound by their formulas)."
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import clone_pair_pld
    n, e0, d0 = 2000, 1.0, 1e-7
    up = randomizer_pld(n, e0, local_delta=d0)
    cl = clone_pair_pld(n, e0, clone_probability=math.exp(-e0)*(1 - d0))
    tau = 1 - (1 - math.exp(-e0)*d0)**(n - 1)
    h = 3e-4                       # profile_pld's grid step here (4000 points on [0, ε0] with d = 1e-4 gives 3d)
    for eps in (0.0, 0.05, 0.2, 0.5, 0.9):
        e = max(0.0, eps - h)      # between grid points the value at the one below is used: at most the bound at ε - h
        clones = d0 + (1 - d0)*cl.delta_bounds(e)[1] + (1 + math.exp(e))*tau
        local = d0 + (1 - d0)*(1 - math.exp(e - e0))/(1 + math.exp(-e0))
        assert up.delta_bounds(eps)[1] <= min(clones, local)*(1 + 1e-9) + 1e-15, eps

# ---------- composition, accountants, bad input ----------

def test_composes_in_pld_accountant_and_rdp_refuses():
    ev = sp.ShuffledLDPEvent(5000, 1.0, local_delta=1e-12)
    acc = PldAccountant(value_discretization_interval=1e-4).compose(ev, 5)
    pure = PldAccountant(value_discretization_interval=1e-4).compose(sp.ShuffledLDPEvent(5000, 1.0), 5)
    lo, up = acc.get_epsilon_bounds(1e-6)
    assert lo == 0.0 and pure.get_epsilon(1e-6) <= up < 1.0
    with pytest.raises(UnsupportedEventError, match='ShuffledLDPEvent'):
        RdpAccountant().compose(ev)

@pytest.mark.parametrize('bad', [-1e-12, 1.0, 1.5, math.nan, math.inf, True, '0.1', None])
def test_bad_local_delta_names_it(bad):
    with pytest.raises(ValueError, match='local_delta'):
        ShuffledLDPEvent(100, 1.0, local_delta=bad)
    with pytest.raises(ValueError, match='local_delta'):
        randomizer_pld(100, 1.0, local_delta=bad)

@pytest.mark.parametrize('rz', [R.binary_rr(), R.k_rr(4), R.laplace()])
def test_local_delta_only_for_the_generic_class(rz):
    with pytest.raises(ValueError, match='local_delta'):
        ShuffledLDPEvent(100, 1.0, randomizer=rz, local_delta=1e-9)
    assert ShuffledLDPEvent(100, 1.0, randomizer=R.generic(), local_delta=1e-9).local_delta == 1e-9
    with pytest.raises(TypeError):                               # keyword-only, like randomizer
        ShuffledLDPEvent(100, 1.0, None, 1e-9)
