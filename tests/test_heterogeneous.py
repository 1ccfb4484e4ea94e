"""Shuffled randomizers with heterogeneous local levels (groups of users, each group at its own ε): the certified
pair `heterogeneous_pld` and `krr_blanket_pair_pld(..., others=...)` against independent references — every
neighbouring pair of the shuffled multiset enumerated at n <= 6, and a float evaluation of the blanket formula
E_T[H_{e^ε}(victim + T uniform reports)] with T Poisson-binomial — the homogeneous reduction, monotonicity
properties, the accountant event and bad inputs."""
import functools, itertools, math, warnings
import numpy as np
import pytest
from scipy import stats
from helpers_enum import krr_rows, shuffled_law_rows, poisson_binomial_pmf, hockey, shuffled_law
from shuffle_privacy.accounting.pld import PldAccountant
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers
from helpers_enum import table
from shuffle_privacy.mechanisms.shuffled_ldp.randomizers import krr_blanket_pair_pld, blanket_pair_pld
from shuffle_privacy.mechanisms.shuffled_ldp.heterogeneous import heterogeneous_pld, HeterogeneousShuffledLDPEvent

def heterogeneous_krr_pld(sizes, levels, k, **kw):
    "heterogeneous_pld for k-RR on [k] (binary RR at k = 2)."
    return heterogeneous_pld(sizes, levels, randomizers.k_rr(k), **kw)

D = 1e-4                                              # the loss grid used throughout

# ---------- independent references ----------
def gamma_of(k, e):
    "Blanket mass of k-RR at level e: with probability γ = k/(e^e+k-1) the report is uniform on [k]."
    return k/(math.exp(e) + k - 1)

@functools.lru_cache(maxsize=4096)
def _ab_law(k, T):
    "(a, b, law of (a, b)): counts of two fixed values among T+1 uniform reports on [k] (a grid, 0 off a+b <= T+1)."
    m = T + 1
    if k == 2:                                        # b = m - a: one dimension
        a = np.arange(m + 1); return a, m - a, stats.binom.pmf(a, m, 0.5)
    a = np.arange(m + 1)[:, None]; b = np.arange(m + 1)[None, :]
    pa = stats.binom.pmf(np.arange(m + 1), m, 1/k)[:, None]
    pb = stats.binom.pmf(b, np.maximum(m - a, 0), 1/(k - 1))
    return a, b, pa*pb*(a + b <= m)

def blanket_terms(eps, k, e_v, T):
    """(δ_T, P_x(L > ε)) of the victim's report (level e_v, input x or x') shuffled with T uniform reports.
    Derivation: with c the counts of the T+1 reports and M(c) their law when all T+1 are uniform,
    P_x(c) = Σ_y R_x(y) Mult(c - e_y; T) = M(c) k/(T+1) Σ_y R_x(y) c_y = M(c) (γ + (1-γ) k a/(T+1)), a = c_x.
    So the ratio depends on (a, b) = (c_x, c_x') only, and under M, a ~ Bin(T+1, 1/k), b | a ~ Bin(T+1-a, 1/(k-1))."""
    g = gamma_of(k, e_v); Ee = math.exp(eps); m = T + 1
    a, b, w = _ab_law(k, T)
    px, py = g + (1 - g)*k*a/m, g + (1 - g)*k*b/m
    z = px - Ee*py
    return float(np.sum(w*np.maximum(z, 0))), float(np.sum(w*px*(z > 0)))

def blanket_ref(eps, k, e_v, others):
    """(δ, P_x(L > ε)) of the blanket formula: E_T[δ_T] with T the Poisson-binomial number of the others
    (tuple of (count, level)) in the blanket (symmetric in x, x' by relabelling, so one order suffices)."""
    f = poisson_binomial_pmf([gamma_of(k, e) for c, e in others for _ in range(c)])
    d = pl = 0.0
    for T, w in enumerate(f):
        if w < 1e-300: continue
        x, y = blanket_terms(eps, k, e_v, T); d += w*x; pl += w*y
    return d, pl

def lead_others(sizes, levels):
    "The construction under test: all users except one user of the smallest level (the largest γ)."
    j = min(range(len(levels)), key=lambda g: levels[g])
    return tuple((c - (g == j), e) for g, (c, e) in enumerate(zip(sizes, levels)) if c - (g == j) > 0)

def brute_delta(sizes, levels, k, epss, rows_fn=None):
    """Exact δ(ε) of the shuffled multiset, maximised over EVERY neighbouring pair (replace-one, both orders): each
    victim, each pair of values x != x', each assignment of the others' values. Returns {victim level: [δ per ε]}.
    rows_fn(e): the explicit rows of another randomizer at level e (then k is their number of inputs)."""
    lv = [g for g, c in enumerate(sizes) for _ in range(c)]
    rows = [krr_rows(k, e) if rows_fn is None else rows_fn(e) for e in levels]
    k = len(rows[0])
    memo = {}
    def law(users):                                   # users: ((group, value), ...); the law depends on the multiset
        key = tuple(sorted(users))
        if key not in memo: memo[key] = shuffled_law_rows([rows[g][x] for g, x in key])
        return memo[key]
    out = {}
    for i, gi in enumerate(lv):
        oth = lv[:i] + lv[i + 1:]
        best = out.setdefault(levels[gi], [0.0]*len(epss))
        for x, x2 in itertools.combinations(range(k), 2):
            for vals in itertools.product(range(k), repeat=len(oth)):
                rest = tuple(zip(oth, vals))
                P, Q = law(((gi, x),) + rest), law(((gi, x2),) + rest)
                for j, eps in enumerate(epss):
                    best[j] = max(best[j], hockey(P, Q, eps))   # hockey: max of both orders
    return out

# ---------- the references themselves ----------
@pytest.mark.parametrize('k,e_v,T', [(2, 1.0, 0), (2, 0.5, 3), (3, 1.5, 4), (4, 3.0, 3)])
def test_blanket_terms_against_enumeration(k, e_v, T):
    "The closed form of δ_T agrees with the enumerated law of the victim's report plus T uniform reports."
    R = krr_rows(k, e_v) + [[1/k]*k]                  # row k: a uniform report
    P, Q = shuffled_law(R, (0,) + (k,)*T), shuffled_law(R, (1,) + (k,)*T)
    for eps in (0.0, 0.2, 0.7, 2.0):
        ex = sum(max(0.0, w - math.exp(eps)*Q.get(h, 0.0)) for h, w in P.items())
        assert blanket_terms(eps, k, e_v, T)[0] == pytest.approx(ex, rel=1e-10, abs=1e-15)

def test_poisson_binomial_against_enumeration():
    ps = [0.1, 0.5, 0.5, 0.9, 0.3]
    ex = [0.0]*6
    for bits in itertools.product((0, 1), repeat=5):
        ex[sum(bits)] += math.prod(p if b else 1 - p for p, b in zip(ps, bits))
    assert poisson_binomial_pmf(ps) == pytest.approx(ex, abs=1e-15)

def _fast_first(params, m=1):
    "The first m parameter sets run by default; the rest are marked slow (the suite's time budget)."
    slow = lambda p: pytest.param(*p, marks=pytest.mark.slow) if isinstance(p, tuple) else \
        pytest.param(p, marks=pytest.mark.slow)
    return [p if i < m else slow(p) for i, p in enumerate(params)]

BRUTE = [((1, 1, 1), (0.5, 1.5, 3.0), 2), ((2, 1, 1), (0.5, 1.5, 3.0), 3), ((2, 3), (3.0, 0.5), 2),
         ((1, 2, 2), (1.5, 0.5, 3.0), 3), ((2, 2), (0.5, 1.5), 3), ((3, 3), (0.5, 3.0), 2),
         ((2, 2, 2), (0.5, 1.5, 3.0), 3)]
EPSS = (0.0, 0.1, 0.5, 1.0, 2.0)

@pytest.mark.parametrize('sizes,levels,k', _fast_first(BRUTE, 3))
def test_blanket_reference_covers_every_pair(sizes, levels, k):
    """The argument, checked numerically on the references: each victim's exact worst δ is below the blanket formula
    at her own level with her true others, which is below the construction (victim at the largest level, others =
    all but one user of the smallest level)."""
    brute = brute_delta(sizes, levels, k, EPSS)
    top = max(levels); oth = lead_others(sizes, levels)
    for g, e_v in enumerate(levels):
        true_oth = tuple((c - (h == g), e) for h, (c, e) in enumerate(zip(sizes, levels)))
        for j, eps in enumerate(EPSS):
            own, lead = blanket_ref(eps, k, e_v, true_oth)[0], blanket_ref(eps, k, top, oth)[0]
            assert brute[e_v][j] <= own*(1 + 1e-9) + 1e-12, (e_v, eps, brute[e_v][j], own)
            assert own <= lead*(1 + 1e-9) + 1e-12, (e_v, eps, own, lead)

# ---------- (a) brute force of the mechanism ----------
@pytest.mark.parametrize('sizes,levels,k', _fast_first(BRUTE, 3))
def test_upper_end_dominates_every_neighbouring_pair(sizes, levels, k):
    "heterogeneous_krr_pld's upper δ is above the exact δ of every neighbouring pair of the shuffled multiset."
    brute = brute_delta(sizes, levels, k, EPSS)
    pr = heterogeneous_krr_pld(sizes, levels, k, value_discretization_interval=D)
    for j, eps in enumerate(EPSS):
        ex = max(v[j] for v in brute.values())
        up = pr.delta_bounds(eps)[1]
        assert ex <= up + 1e-12, (eps, ex, up)

@pytest.mark.parametrize('sizes,levels,k', _fast_first(BRUTE[1:5]))
def test_victim_level_pair_covers_its_users(sizes, levels, k):
    """victim_epsilon=e (the pair of one level's users): above the exact δ of every neighbouring pair whose victim is
    at level e, and it brackets the blanket formula at e with the true others (all users but one at e)."""
    epss = (0.0, 0.5, 1.0)
    brute = brute_delta(sizes, levels, k, epss)
    for g, e_v in enumerate(levels):
        pr = heterogeneous_krr_pld(sizes, levels, k, victim_epsilon=e_v, value_discretization_interval=D)
        true_oth = tuple((c - (h == g), e) for h, (c, e) in enumerate(zip(sizes, levels)) if c - (h == g) > 0)
        for j, eps in enumerate(epss):
            lo, up = pr.delta_bounds(eps)
            ref = blanket_ref(eps, k, e_v, true_oth)[0]
            assert brute[e_v][j] <= up + 1e-12, (e_v, eps, brute[e_v][j], up)
            assert lo - 1e-9 <= ref <= up + 1e-9, (e_v, eps, lo, ref, up)

@pytest.mark.slow
def test_every_user_pair_is_above_each_level_pair():
    "The default pair (every user) dominates the pair of each level's users (within the grid)."
    sizes, levels, k = (20, 30, 50), (0.5, 1.5, 3.0), 3
    allp = heterogeneous_krr_pld(sizes, levels, k, value_discretization_interval=D)
    for e_v in levels:
        one = heterogeneous_krr_pld(sizes, levels, k, victim_epsilon=e_v, value_discretization_interval=D)
        for eps in (0.1, 0.5):
            assert one.delta_bounds(eps + 3*D)[1] <= allp.delta_bounds(eps)[1] + 1e-12, (e_v, eps)

@pytest.mark.parametrize('rz', _fast_first([randomizers.subset_selection(4, 2), randomizers.local_hash(2),
                                             randomizers.hadamard_response(8, 4)]))
def test_blanket_family_dominates_every_neighbouring_pair(rz):
    """Subset selection, local hashing (every hash function, output (h, y)) and Hadamard response (rows 1..7 of H_8):
    heterogeneous_pld's upper δ is above the exact δ of every neighbouring pair at two levels."""
    sizes, levels = (1, 2), (0.5, 2.0)
    brute = brute_delta(sizes, levels, None, EPSS, rows_fn=lambda e: table(rz, e))
    pr = heterogeneous_pld(sizes, levels, rz, value_discretization_interval=D)
    for j, eps in enumerate(EPSS):
        ex = max(v[j] for v in brute.values())
        assert ex <= pr.delta_bounds(eps)[1] + 1e-12, (rz, eps, ex, pr.delta_bounds(eps)[1])

@pytest.mark.slow
def test_blanket_family_one_level_is_homogeneous():
    "One level through others= is the homogeneous pair (within the grouping of T; notebook 19d checks it too)."
    rz = randomizers.subset_selection(10, 3)
    a = blanket_pair_pld(200, rz, 1.0, value_discretization_interval=D)
    b = blanket_pair_pld(200, rz, 1.0, others=((199, 1.0),), value_discretization_interval=D)
    for eps in (0.05, 0.2):
        assert b.delta_bounds(eps)[1] == pytest.approx(a.delta_bounds(eps)[1], rel=2e-3), eps

def test_unary_encoding_refused():
    "A unary encoding's blanket law moves with the level: others= and heterogeneous_pld refuse it, naming why."
    with pytest.raises(ValueError, match='others'):
        blanket_pair_pld(10, randomizers.unary_encoding(), 1.0, others=((9, 1.0),))
    with pytest.raises(ValueError, match='randomizer'):
        heterogeneous_pld((5, 5), (1.0, 2.0), randomizers.unary_encoding())

def _mean_T(blocks):
    T, lw, _ = blocks
    return float(np.sum(T*np.exp(lw))/np.sum(np.exp(lw)))

@pytest.mark.parametrize('og', [tuple((300, float(g)) for g in np.geomspace(0.2, 0.6, 10**4)),   # rounded levels
                                tuple((333_333_333_333, g) for g in (0.4, 0.3, 0.2)),            # n near 1e12
                                ((10**9, 0.5), (5, 0.9), (10**7, 0.1))])                          # cdf bins, B > 1
def test_blanket_count_stand_ins_bracket_the_true_count(og):
    """The others' ω count as convolved (on a lattice of B, and with the levels rounded past the caps): the upper
    end's stand-ins are never above the true count on average, the lower end's never below."""
    from shuffle_privacy.mechanisms.shuffled_ldp.randomizers import _pb_blocks
    true = 1 + sum(c*g for c, g in og)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')                   # the rounding's warning (checked below)
        up, lo = _pb_blocks(og, 2e-3, True), _pb_blocks(og, 2e-3, False)
    assert _mean_T(up) <= true <= _mean_T(lo), (_mean_T(up), true, _mean_T(lo))
    assert _mean_T(lo) - _mean_T(up) <= 0.02*true          # rounded onto 128 levels here: steps of 0.9% in γ
    assert 0 <= up[2] < 1e-15

def test_rounding_warns_once():
    from shuffle_privacy.mechanisms.shuffled_ldp.randomizers import _pb_blocks
    og = tuple((300, float(g)) for g in np.geomspace(0.2, 0.6, 10**4))
    with pytest.warns(UserWarning, match='rounded') as rec:
        _pb_blocks(og, 2e-3, True); _pb_blocks(og, 2e-3, False)
    assert len(rec) == 1

def test_small_grid_refused_before_work():
    "A loss grid too fine for the largest level is refused at once (ResourceLimitError), not after minutes."
    from shuffle_privacy.core import ResourceLimitError
    with pytest.raises(ResourceLimitError, match='value_discretization_interval'):
        heterogeneous_krr_pld((10, 10), (1.0, 8.0), 2, value_discretization_interval=1e-7)

# ---------- (b) the blanket formula with Poisson-binomial T ----------
# Tolerance of the upper end: the pessimistic loss grid moves each loss up by < D, which raises δ(ε) by at most about
# D·P_x(L > ε - D) (dδ/dε = -e^ε P_{x'}(L > ε) >= -P_x(L > ε)); we allow 2D·P_x(L > ε - 2D). The blocks of
# consecutive T and u (rel_block = 2e-3) add a relative error well below 1e-3 (measured <= 3e-4 against the
# homogeneous pair where the grid term is small), and the tails it drops are put at loss >= ε0 (<= 1e-12 here).
HET = [(30, 2, 1.5, ((19, 0.5), (10, 1.5))), (60, 3, 3.0, ((20, 0.5), (20, 1.5), (19, 3.0))),
       (120, 4, 2.0, ((60, 1.0), (59, 2.0))), (200, 2, 0.5, ((100, 3.0), (99, 0.5))),
       (150, 3, 1.0, ((100, 0.3), (30, 1.0), (19, 6.0)))]

@pytest.mark.parametrize('n,k,e_v,others', _fast_first(HET, 1))
def test_others_pair_brackets_the_blanket_formula(n, k, e_v, others):
    "krr_blanket_pair_pld(n, k, e_v, others=...) brackets the float blanket formula, and its upper end is tight."
    pr = krr_blanket_pair_pld(n, k, e_v, others=others, value_discretization_interval=D)
    for eps in (0.0, 0.05, 0.2, 0.5, 1.0):
        ref = blanket_ref(eps, k, e_v, others)[0]
        lo, up = pr.delta_bounds(eps)
        assert lo - 1e-9 <= ref <= up + 1e-9, (eps, lo, ref, up)
        tol = 2*D*blanket_ref(max(eps - 2*D, 0.0), k, e_v, others)[1] + 1e-3*ref + 1e-12
        assert up - ref <= tol, (eps, ref, up, tol)

@pytest.mark.parametrize('n,e_v,others,rels', [
    pytest.param(3000, 1.0, ((1500, 0.3), (1499, 1.0)), (0.2,), marks=pytest.mark.slow),
    pytest.param(3000, 1.0, ((1500, 0.3), (1499, 1.0)), (2e-3, 0.05), marks=pytest.mark.slow),
    pytest.param(20000, 2.0, ((10000, 0.5), (5000, 1.0), (4999, 2.0)), (2e-3, 0.05, 0.2), marks=pytest.mark.slow)])
def test_others_pair_brackets_at_large_n(n, e_v, others, rels):
    """Binary RR at large n, where the others' blanket count is convolved in steps B > 1 (B = 11 and 44 at n = 3000
    with rel_block 0.05 and 0.2): both ends still bracket the formula; at the default rel_block the upper end is
    tight."""
    refs = {eps: blanket_ref(eps, 2, e_v, others) for eps in (0.0, 0.05, 0.1)}
    for rel in rels:
        pr = krr_blanket_pair_pld(n, 2, e_v, others=others, rel_block=rel, value_discretization_interval=D)
        for eps, (ref, _) in refs.items():
            lo, up = pr.delta_bounds(eps)
            assert lo - 1e-12 <= ref <= up + 1e-12, (rel, eps, lo, ref, up)
            if rel == 2e-3:
                tol = 2*D*blanket_ref(eps - 2*D, 2, e_v, others)[1] if eps else 2*D*refs[0.0][1]
                assert up - ref <= tol + 1e-3*ref + 1e-12, (eps, ref, up, tol)

@pytest.mark.parametrize('sizes,levels,k', _fast_first([((20, 30, 50), (0.5, 1.5, 3.0), 3), ((100, 40), (2.0, 0.7), 2),
                                                         ((10, 60, 30), (4.0, 1.0, 0.3), 5)]))
def test_heterogeneous_pair_is_the_construction(sizes, levels, k):
    "heterogeneous_krr_pld is the blanket formula at the largest level with all but one user of the smallest level."
    pr = heterogeneous_krr_pld(sizes, levels, k, value_discretization_interval=D)
    top, oth = max(levels), lead_others(sizes, levels)
    for eps in (0.0, 0.1, 0.4, 1.0):
        ref, pl = blanket_ref(eps, k, top, oth)
        lo, up = pr.delta_bounds(eps)
        assert lo - 1e-9 <= ref <= up + 1e-9, (eps, lo, ref, up)
        assert up - ref <= 2*D*blanket_ref(max(eps - 2*D, 0.0), k, top, oth)[1] + 1e-3*ref + 1e-12, (eps, ref, up)

# ---------- (c) the homogeneous reduction ----------
@pytest.mark.parametrize('n,k,e0', _fast_first([(1, 3, 1.0), (10, 2, 1.0), (50, 4, 8.0), (200, 3, 2.0),
                                                 (500, 10, 0.5)], 2))
def test_one_group_is_the_homogeneous_pair(n, k, e0):
    a = heterogeneous_krr_pld((n,), (e0,), k, value_discretization_interval=D)
    b = krr_blanket_pair_pld(n, k, e0, value_discretization_interval=D)
    c = krr_blanket_pair_pld(n, k, e0, others=((n - 1, e0),) if n > 1 else (), value_discretization_interval=D)
    for eps in (0.0, 0.05, 0.5):
        for x in (a, c):
            assert x.delta_bounds(eps) == pytest.approx(b.delta_bounds(eps), rel=1e-9, abs=1e-15), eps   # slacks

@pytest.mark.parametrize('n,k,e0,split', _fast_first([(40, 3, 1.0, 13), (300, 2, 2.5, 150)], 0))
def test_groups_at_one_level_are_the_homogeneous_pair(n, k, e0, split):
    "Two groups at the same level are one group (up to the grid and the blocks of T)."
    b = krr_blanket_pair_pld(n, k, e0, value_discretization_interval=D)
    for a in (heterogeneous_krr_pld((split, n - split), (e0, e0), k, value_discretization_interval=D),
              krr_blanket_pair_pld(n, k, e0, others=((split, e0), (n - 1 - split, e0)),
                                   value_discretization_interval=D)):
        for eps in (0.0, 0.1, 0.5):
            (la, ua), (lb, ub) = a.delta_bounds(eps), b.delta_bounds(eps)
            assert abs(ua - ub) <= 2e-3*ub + 1e-12 and abs(la - lb) <= 2e-3*ub + 1e-12, (eps, la, ua, lb, ub)

# ---------- (d) properties ----------
BASE = ((40, 60, 100), (0.5, 1.5, 3.0), 3)

def _up(sizes, levels, k):
    return heterogeneous_krr_pld(sizes, levels, k, value_discretization_interval=D)

@pytest.mark.parametrize('g,extra', _fast_first([(0, 1), (2, 50), (1, 1), (2, 1), (0, 50)], 0))
def test_more_users_never_increase_delta(g, extra):
    "One more user (or 50) in an existing group: δ does not increase (shifting ε by 3D covers the grid)."
    sizes, levels, k = BASE
    old = _up(sizes, levels, k)
    new = _up(tuple(c + extra*(h == g) for h, c in enumerate(sizes)), levels, k)
    for eps in (0.0, 0.3, 0.8):
        assert new.delta_bounds(eps + 3*D)[1] <= old.delta_bounds(eps)[1]*(1 + 1e-3) + 1e-12, eps

@pytest.mark.parametrize('g,to', _fast_first([(0, 4.0), (0, 0.8), (1, 2.0), (2, 3.3), (0, 1.5)]))
def test_raising_a_level_never_decreases_delta(g, to):
    "Raise one group's level (also past the largest, or up to tie the next group): δ does not decrease."
    sizes, levels, k = BASE
    old = _up(sizes, levels, k)
    new = _up(sizes, tuple(to if h == g else e for h, e in enumerate(levels)), k)
    for eps in (0.0, 0.3, 0.8):
        assert old.delta_bounds(eps + 3*D)[1] <= new.delta_bounds(eps)[1]*(1 + 1e-3) + 1e-12, eps

@pytest.mark.slow
def test_delta_non_increasing_in_epsilon():
    "δ(ε) of both ends is non-increasing, and (about) 0 past the largest level; each delta_bounds costs ~0.1 s."
    pr = _up(*BASE)
    ds = [pr.delta_bounds(float(e)) for e in np.linspace(0, 3.2, 9)]
    for i in (0, 1):
        assert all(a[i] >= b[i] for a, b in zip(ds, ds[1:])), ds
    assert ds[-1][1] <= 1e-12                                # past the largest level only the dropped tails remain

@pytest.mark.parametrize('rz,k', _fast_first([(randomizers.k_rr(3), 3), (randomizers.binary_rr(), 2),
                                              (randomizers.k_rr(2), 2)]))
def test_event_is_the_pair_and_get_delta_inverts_get_epsilon(rz, k):
    sizes, levels = (40, 60, 100), (0.5, 1.5, 3.0)
    acc = PldAccountant(value_discretization_interval=D).compose(HeterogeneousShuffledLDPEvent(sizes, levels,
                                                                                                randomizer=rz))
    pr = heterogeneous_krr_pld(sizes, levels, k, value_discretization_interval=D)
    for delta in (1e-6,):
        e = acc.get_epsilon(delta)
        assert e == pytest.approx(pr.epsilon_bounds(delta)[1], abs=1e-9), delta
        assert acc.get_delta(e) <= delta*(1 + 1e-9)                     # ε(δ) is certified: δ(ε(δ)) <= δ
        assert acc.get_delta(max(e - 2*D, 0.0)) >= delta*(1 - 1e-9) or e < 2*D     # and tight within the grid
    for eps in (0.3,):
        assert acc.get_delta(eps) == pytest.approx(pr.delta_bounds(eps)[1], rel=1e-9, abs=1e-15)

def test_binary_rr_event_equals_k_rr_2():
    ev = lambda rz: PldAccountant(value_discretization_interval=D).compose(
        HeterogeneousShuffledLDPEvent((30, 70), (1.0, 2.0), randomizer=rz)).get_epsilon(1e-5)
    assert ev(randomizers.binary_rr()) == ev(randomizers.k_rr(2))

def test_event_with_one_level_is_the_homogeneous_event():
    "One group, or two groups at one level: the event is ShuffledLDPEvent(n, ε0, randomizer=k_rr(k))."
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import ShuffledLDPEvent
    eps = lambda ev: PldAccountant(value_discretization_interval=D).compose(ev).get_epsilon(1e-6)
    ref = eps(ShuffledLDPEvent(300, 1.5, randomizer=randomizers.k_rr(4)))
    assert eps(HeterogeneousShuffledLDPEvent((300,), (1.5,), randomizer=randomizers.k_rr(4))) == ref
    assert eps(HeterogeneousShuffledLDPEvent((100, 200), (1.5, 1.5), randomizer=randomizers.k_rr(4))) == ref

# ---------- (e) bad inputs ----------
@pytest.mark.parametrize('sizes,levels,k,name', [
    ((10, 20), (1.0,), 3, 'group_sizes|local_epsilons'), ((10,), (1.0, 2.0), 3, 'group_sizes|local_epsilons'),
    ((), (), 3, 'group_sizes'), ((10, 0), (1.0, 2.0), 3, 'group_sizes'), ((10, -1), (1.0, 2.0), 3, 'group_sizes'),
    ((10, 20), (0.0, 2.0), 3, 'local_epsilons'), ((10, 20), (1.0, 8.5), 3, 'local_epsilons'),
    ((10, 20), (-1.0, 2.0), 3, 'local_epsilons'), ((10, 20), (1.0, math.nan), 3, 'local_epsilons'),
    ((10, 20), (1.0, math.inf), 3, 'local_epsilons'), ((10, 20), (1.0, 2.0), 1, 'k')])
def test_heterogeneous_bad_values(sizes, levels, k, name):
    with pytest.raises(ValueError, match=name):
        heterogeneous_krr_pld(sizes, levels, k)

@pytest.mark.parametrize('v', [1.0, 0.0, 9.0])
def test_victim_epsilon_not_a_level(v):
    with pytest.raises(ValueError, match='victim_epsilon'):
        heterogeneous_krr_pld((10, 20), (0.5, 2.0), 3, victim_epsilon=v)

@pytest.mark.parametrize('sizes,levels,name', [((10, 2.5), (1.0, 2.0), 'group_sizes'),
                                               ((10, True), (1.0, 2.0), 'group_sizes'),
                                               ((10, '3'), (1.0, 2.0), 'group_sizes'),
                                               ((10, 20), (1.0, '2'), 'local_epsilons')])
def test_heterogeneous_bad_types(sizes, levels, name):
    "A size that is not an int (bool is not) or a level that is not a real: TypeError or ValueError, naming it."
    with pytest.raises((TypeError, ValueError), match=name):
        heterogeneous_krr_pld(sizes, levels, 3)

@pytest.mark.parametrize('kw,name', [(dict(randomizer=randomizers.laplace()), 'randomizer'),
                                     (dict(randomizer=randomizers.generic()), 'randomizer'),
                                     (dict(randomizer=randomizers.unary_encoding()), 'randomizer'),
                                     (dict(randomizer='k_rr'), 'randomizer'),
                                     (dict(group_sizes=(10,)), 'group_sizes|local_epsilons'),
                                     (dict(group_sizes=(10, 0)), 'group_sizes'),
                                     (dict(local_epsilons=(1.0, 9.0)), 'local_epsilons')])
def test_event_bad_inputs(kw, name):
    args = dict(group_sizes=(10, 20), local_epsilons=(1.0, 2.0), randomizer=randomizers.k_rr(3)) | kw
    with pytest.raises((ValueError, TypeError), match=name):
        PldAccountant(value_discretization_interval=D).compose(HeterogeneousShuffledLDPEvent(**args)).get_epsilon(1e-6)

@pytest.mark.parametrize('others,name', [(((8, 1.0),), 'others'), (((10, 1.0),), 'others'),
                                         (((4, 1.0), (4, 2.0)), 'others'), (((9, 51.0),), 'others|local_epsilon'),
                                         (((9, 0.0),), 'others|local_epsilon'), (((10, 1.0), (-1, 2.0)), 'others')])
def test_others_bad_inputs(others, name):
    "n = 10: the others' counts must sum to 9, each level in (0, 8]."
    with pytest.raises(ValueError, match=name):
        krr_blanket_pair_pld(10, 3, 1.0, others=others)
