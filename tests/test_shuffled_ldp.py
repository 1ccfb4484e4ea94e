"""Issue 11 item 7 (second half): the certified PLDs of shuffled ε0-LDP randomizers against independent references."""
import math
import mpmath   # a dependency of dp_accounting, and of the tests (pyproject's dev extra)
import numpy as np
import pytest
from scipy import stats
import shuffle_privacy as sp
from shuffle_privacy.core import ResourceLimitError
from shuffle_privacy.accounting.pld import PldAccountant, pld_of
from shuffle_privacy.mechanisms.shuffled_ldp.pld import (
    clone_pair_pld, clones_closed_form_epsilon, rr_pair_pld, rr_clone_probability, blanket_delta,
    blanket_epsilon, ShuffledLDPEvent, ShuffledBinaryRREvent, _log_binom_half,
    rr_worst_case_delta, rr_worst_case_epsilon)
from shuffle_privacy.studies.shuffled_ldp_league import shuffled_ldp_league

def clones_pair_pmfs(n, e0, p):
    "The clones pair (P, Q) enumerated outcome by outcome: dicts (x, y) -> probability."
    r = math.exp(e0)/(math.exp(e0) + 1); P, Q = {}, {}
    for c in range(n):
        pc = math.comb(n - 1, c)*p**c*(1 - p)**(n - 1 - c)
        for a in range(c + 1):
            pa = math.comb(c, a)/2**c
            for dl, pd in ((1, r), (0, 1 - r)):
                P[(a + dl, c - a + 1 - dl)] = P.get((a + dl, c - a + 1 - dl), 0.0) + pc*pa*pd
                Q[(a + 1 - dl, c - a + dl)] = Q.get((a + 1 - dl, c - a + dl), 0.0) + pc*pa*pd
    return P, Q

def hockey(P, Q, eps):
    "max over both directions of sum_x (P(x) - e^eps Q(x))_+."
    keys = set(P) | set(Q)
    h = lambda A, B: sum(max(0.0, A.get(k, 0.0) - math.exp(eps)*B.get(k, 0.0)) for k in keys)
    return max(h(P, Q), h(Q, P))

@pytest.mark.parametrize('n', [1, 2, 3, 6])
@pytest.mark.parametrize('e0', [0.3, 1.5, 5.0])
@pytest.mark.parametrize('strong', [False, True])
def test_clones_pld_against_enumeration(n, e0, strong):
    p = 2/(math.exp(e0) + 1) if strong else math.exp(-e0)
    pair = clone_pair_pld(n, e0, clone_probability=p if strong else None)
    P, Q = clones_pair_pmfs(n, e0, p)
    for eps in (0.0, 0.05, 0.3, 1.0, 0.9*e0):
        ex = hockey(P, Q, eps)
        lo, up = pair.delta_bounds(eps)
        assert lo <= ex + 1e-12 and ex <= up + 1e-12, (eps, lo, ex, up)
        assert up - lo < 0.01                                    # the grid (1e-4) keeps the interval narrow

@pytest.mark.parametrize('n,e0,strong', [(200, 1.0, False), (1000, 0.5, False), (1000, 3.0, True),
                                          pytest.param(3000, 2.0, False, marks=pytest.mark.slow)])
def test_clones_pld_against_direct_sum(n, e0, strong):
    "Moderate n: δ(ε) = Σ_{c,u} Pr[C=c] (P_c(u) - e^ε Q_c(u))_+ over the whole grid, from scipy's pmfs."
    p = 2/(math.exp(e0) + 1) if strong else math.exp(-e0)
    r = math.exp(e0)/(math.exp(e0) + 1)
    c = np.arange(n)[:, None]; u = np.arange(n + 1)[None, :]
    B, Bm = stats.binom.pmf(u, c, 0.5), stats.binom.pmf(u - 1, c, 0.5)
    w = stats.binom.pmf(c, n - 1, p)
    P, Q = w*(r*Bm + (1 - r)*B), w*((1 - r)*Bm + r*B)
    pair = clone_pair_pld(n, e0, clone_probability=p if strong else None)
    for eps in (0.0, 0.05, 0.2, 0.6):
        ex = float(np.maximum(P - math.exp(eps)*Q, 0).sum())
        lo, up = pair.delta_bounds(eps)
        assert lo <= ex*(1 + 1e-9) + 1e-14 and ex <= up*(1 + 1e-9) + 1e-14, (eps, lo, ex, up)

def test_log_binom_half_against_mpmath():
    mpmath.mp.dps = 40   # conftest.py restores the precision after the test
    rng = np.random.default_rng(1)
    for c in [1, 3, 15, 16, 17, 100, 12345, 10**6, 3*10**8]:
        a = np.unique(np.clip(np.round(c/2 + rng.normal(0, 3, 20)*math.sqrt(c)/2), 0, c)).astype(np.int64)
        a = np.append(a, [0, c])
        got = _log_binom_half(a, np.full(a.shape, c))
        ref = np.array([float(mpmath.log(mpmath.binomial(c, int(x))) - c*mpmath.log(2)) for x in a])
        assert np.max(np.abs(got - ref)) < 1e-12, c

def rr_direct_delta(eps, n, e0):
    "δ(ε) of the m = 0 pair of shuffled binary RR by two direct sums over the count (both directions)."
    q = 1/(math.exp(e0) + 1)
    k = np.arange(0, n + 1)
    T, Tm = stats.binom.pmf(k, n - 1, q), stats.binom.pmf(k - 1, n - 1, q)
    P, Q = (1 - q)*T + q*Tm, q*T + (1 - q)*Tm
    return max(np.maximum(P - math.exp(eps)*Q, 0).sum(), np.maximum(Q - math.exp(eps)*P, 0).sum())

@pytest.mark.parametrize('n,e0', [(2, 1.0), (50, 0.5), (1000, 2.0), (20000, 1.0), (3000, 6.0)])
def test_rr_pair_against_direct_sums(n, e0):
    pair = rr_pair_pld(n, e0)
    for eps in (0.0, 0.02, 0.1, 0.5, 1.5):
        ex = rr_direct_delta(eps, n, e0)
        lo, up = pair.delta_bounds(eps)
        assert lo <= ex*(1 + 1e-9) + 1e-13 and ex <= up*(1 + 1e-9) + 1e-13, (eps, lo, ex, up)

def rr_delta_for_m(n, e0, m, eps):
    "δ(ε) of shuffled binary RR when m of the n-1 other users hold a one (exact convolution)."
    q = 1/(math.exp(e0) + 1); t = np.array([1.0])
    for i in range(n - 1): t = np.convolve(t, [q, 1 - q] if i < m else [1 - q, q])
    P, Q = np.convolve(t, [1 - q, q]), np.convolve(t, [q, 1 - q])
    return max(np.maximum(P - math.exp(eps)*Q, 0).sum(), np.maximum(Q - math.exp(eps)*P, 0).sum())

@pytest.mark.parametrize('n', [2, pytest.param(3, marks=pytest.mark.slow), 5,
                               pytest.param(9, marks=pytest.mark.slow), 25])
@pytest.mark.parametrize('e0', [0.5, 2.0, 4.0])
def test_stronger_clone_dominates_every_neighbouring_pair_of_rr(n, e0):
    "The p = 2/(e^ε0+1) pair bounds binary RR for every m; the m = 0 pair is not always the worst (found here)."
    up_pair = pld_of(ShuffledBinaryRREvent(n, e0), 1e-4)
    lo_pair = rr_pair_pld(n, e0)
    for eps in (0.0, 0.1, 0.4, 1.0):
        ds = [rr_delta_for_m(n, e0, m, eps) for m in range(n)]
        assert max(ds) <= up_pair.delta_bounds(eps)[1] + 1e-12
        assert lo_pair.delta_bounds(eps)[0] <= ds[0] + 1e-12

@pytest.mark.parametrize('n', [1, 2, 5, 9, 25, 60])
@pytest.mark.parametrize('e0', [0.5, 2.0, 5.0])
def test_rr_worst_case_against_enumeration(n, e0):
    for eps in (0.0, 0.1, 0.4, 1.0, 3.0):
        ex = max(rr_delta_for_m(n, e0, m, eps) for m in range(n))
        got = rr_worst_case_delta(eps, n=n, local_epsilon=e0)
        assert ex - 1e-15 <= got <= ex*(1 + 1e-10) + 1e-13   # the dropped (float) mass is added: ~1e-15

@pytest.mark.parametrize('n,e0', [(300, 1.0), (1000, 2.0), pytest.param(2000, 0.5, marks=pytest.mark.slow),
                                  pytest.param(5000, 1.0, marks=pytest.mark.slow)])
def test_rr_worst_case_between_the_bounds(n, e0):
    w = rr_worst_case_epsilon(1e-6, n=n, local_epsilon=e0)
    assert rr_worst_case_delta(w, n=n, local_epsilon=e0) <= 1e-6
    up = pld_of(ShuffledBinaryRREvent(n, e0), 1e-4).epsilon_bounds(1e-6)[1]
    assert rr_pair_pld(n, e0).epsilon_bounds(1e-6)[0] <= w <= up + 2e-9   # w: bisection to 1e-9 (rounded up)
    assert up <= w*1.01                                  # n <= 1e4: the event's PLD is the exact worst case
    with pytest.raises(ResourceLimitError, match='instead'):
        rr_worst_case_epsilon(1e-6, n=20_000, local_epsilon=e0)

def test_m0_is_not_the_worst_pair():
    ds = [rr_delta_for_m(40, 1.0, m, 0.5) for m in range(40)]
    assert int(np.argmax(ds)) != 0 and max(ds) > 1.01*ds[0]

@pytest.mark.parametrize('n,e0', [(100, 0.5), pytest.param(1000, 1.0, marks=pytest.mark.slow),
                                  pytest.param(10**4, 2.0, marks=pytest.mark.slow), (10**5, 4.0)])
def test_domination_chain(n, e0):
    "rr m=0 pair (lower) <= rr stronger clone (upper) <= generic clones (upper) <= FMT21 closed form."
    rows = shuffled_ldp_league(n, e0, delta=1e-6, value_discretization_interval=1e-4)
    assert rows['rr_pair_lower'] <= rows['rr_strong_upper'] <= rows['clones_upper'] <= rows['fmt21_closed']
    for eps in (0.01, 0.1, 0.5):
        a = rr_pair_pld(n, e0).delta_bounds(eps)[0]
        b = pld_of(ShuffledBinaryRREvent(n, e0), 1e-4).delta_bounds(eps)[1]
        c = pld_of(ShuffledLDPEvent(n, e0), 1e-4).delta_bounds(eps)
        assert a <= b + 2e-9 and b <= c[1] + 2e-9 and c[0] <= c[1]   # 1e-9: the certified margin (η)

@pytest.mark.parametrize('e0', [0.5, 1.0, 2.0, 4.0])
def test_numerical_below_closed_form(e0):
    for n in (10**3, 10**4, 10**5):
        if e0 > math.log(n/(16*math.log(2/1e-6))): continue
        assert clone_pair_pld(n, e0).epsilon_bounds(1e-6)[1] < clones_closed_form_epsilon(1e-6, n=n, local_epsilon=e0)

def test_monotone_in_n_and_eps0():
    ups = [clone_pair_pld(n, 1.0).epsilon_bounds(1e-6)[1] for n in (100, 400, 1600, 6400)]
    assert all(a > b for a, b in zip(ups, ups[1:]))
    ups = [clone_pair_pld(2000, e0).epsilon_bounds(1e-6)[1] for e0 in (0.25, 0.5, 1.0, 2.0, 4.0)]
    assert all(a < b for a, b in zip(ups, ups[1:]))
    ds = [clone_pair_pld(1000, 1.0).delta_bounds(e)[1] for e in (0.0, 0.05, 0.1, 0.2)]
    assert all(a >= b for a, b in zip(ds, ds[1:]))
    cf = [clones_closed_form_epsilon(1e-6, n=n, local_epsilon=1.0) for n in (10**3, 10**4, 10**5)]
    assert cf[0] > cf[1] > cf[2]

def test_quoted_clones_interval():
    "apple/ml-shuffling-amplification's README: n = 1e5, ε0 = 4, δ = 1e-6, eps in [0.16754, 0.17279]."
    lo, up = clone_pair_pld(10**5, 4.0, value_discretization_interval=1e-5).epsilon_bounds(1e-6)
    assert 0.1675385583317841 <= lo <= up <= 0.172790550755978
    assert clones_closed_form_epsilon(1e-6, n=10**5, local_epsilon=4.0) == pytest.approx(0.5378040242374512, rel=1e-12)

def test_accountant_composes_the_pair():
    ev = sp.ShuffledLDPEvent(num_users=5000, local_epsilon=1.0)
    a = PldAccountant(value_discretization_interval=1e-4).compose(ev, 5).get_epsilon_bounds(1e-6)
    b = clone_pair_pld(5000, 1.0).self_compose(5).epsilon_bounds(1e-6)       # FMT21's clones: the default before
    s = clone_pair_pld(5000, 1.0, clone_probability=rr_clone_probability(1.0)).self_compose(5).epsilon_bounds(1e-6)
    assert a[0] == 0.0 and s[1]*(1 - 1e-6) <= a[1] <= min(b[1], 1.01*s[1])     # the generic pair, near the stronger clone
    assert PldAccountant(value_discretization_interval=1e-4).compose(
            sp.ShuffledBinaryRREvent(5000, 1.0), 5).get_epsilon(1e-6) < a[1]

def test_blanket():
    e = blanket_epsilon(1e-6, n=10**4, local_epsilon=1.0)
    assert 0 < e < 1.0 and blanket_delta(e, n=10**4, local_epsilon=1.0) <= 1e-6
    assert blanket_delta(1.0, n=100, local_epsilon=1.0) == 0.0
    for b in ('bennett', 'hoeffding'):    # a published bound must not fall below the exact δ of one pair
        for n, e0 in ((1000, 1.0), (10**4, 2.0), (10**5, 4.0)):
            lo = rr_pair_pld(n, e0).epsilon_bounds(1e-6)[0]
            assert blanket_epsilon(1e-6, n=n, local_epsilon=e0, bound=b) >= lo

def test_blanket_laplace():
    for n, e0 in ((10**3, 1.0), (10**4, 2.0), (10**5, 4.0)):
        for b in ('bennett', 'hoeffding'):
            e = blanket_epsilon(1e-6, n=n, local_epsilon=e0, mechanism='laplace', bound=b)
            assert 0 < e <= e0
            assert e == e0 or blanket_delta(e, n=n, local_epsilon=e0, mechanism='laplace', bound=b) <= 1e-6
    es = [blanket_epsilon(1e-6, n=n, local_epsilon=1.0, mechanism='laplace') for n in (10**3, 10**4, 10**5)]
    assert es[0] > es[1] > es[2]

def test_resource_limit_names_alternative():
    with pytest.raises(ResourceLimitError, match='clones_closed_form_epsilon'):
        clone_pair_pld(10**9, 0.7)

@pytest.mark.parametrize('call', [
    lambda: clone_pair_pld(0, 1.0), lambda: clone_pair_pld(10, 0.0), lambda: clone_pair_pld(10, -1.0),
    lambda: clone_pair_pld(10, math.nan), lambda: clone_pair_pld(10, 1.0, clone_probability=1.5),
    lambda: clone_pair_pld(10, 1.0, value_discretization_interval=0.0), lambda: clone_pair_pld(10, 1.0, width=0.5),
    lambda: clones_closed_form_epsilon(0.0, n=10, local_epsilon=1.0),
    lambda: clones_closed_form_epsilon(1e-6, n=0, local_epsilon=1.0),
    lambda: rr_pair_pld(10, math.inf), lambda: rr_pair_pld(1.5, 1.0), lambda: rr_clone_probability(0.0),
    lambda: blanket_delta(-0.1, n=10, local_epsilon=1.0), lambda: blanket_delta(0.1, n=10, local_epsilon=1.0, k=1),
    lambda: blanket_epsilon(1e-6, n=10, local_epsilon=60.0), lambda: shuffled_ldp_league(1, 1.0),
    lambda: blanket_delta(0.1, n=10, local_epsilon=1.0, mechanism='gaussian'),
    lambda: ShuffledLDPEvent(0, 1.0), lambda: ShuffledBinaryRREvent(10, 0.0),
    lambda: rr_worst_case_delta(-1.0, n=10, local_epsilon=1.0),
    lambda: rr_worst_case_epsilon(0.0, n=10, local_epsilon=1.0),
    lambda: rr_worst_case_epsilon(1e-6, n=0, local_epsilon=1.0)])
def test_bad_inputs(call):
    with pytest.raises(ValueError):
        call()

def test_closed_form_printed_is_below_max_and_is_the_experiments_row():
    "form='printed' is the paper's tanh(eps0/2) form (paper 004's Table 1 clones row); 'max' adds the authors' code form."
    from shuffle_privacy.experiments.shuffle_gaussian import clones_epsilon
    for e0, n, d in ((0.5, 10**4, 1e-6), (1.2, 10**4, 1e-6), (4.0, 10**5, 1e-6)):
        p = clones_closed_form_epsilon(d, n=n, local_epsilon=e0, form='printed')
        ref = math.log1p(math.tanh(e0/2)*(8*math.sqrt(math.exp(e0)*math.log(4/d)/n) + 8*math.exp(e0)/n))
        assert p == pytest.approx(min(e0, ref), rel=1e-14) and p <= clones_closed_form_epsilon(d, n=n, local_epsilon=e0)
        assert clones_epsilon(e0, n, d) == p

def test_margins_at_the_largest_loss_keep_composition_finite_and_certified():
    "The truncation and rounding margins sit at loss eps0, not at infinity: k rounds do not pile up a k*1e-9 floor."
    from scipy import stats
    p = clone_pair_pld(1000, 1.0)
    lo, up = p.self_compose(200).epsilon_bounds(1e-7)
    assert 0 < lo <= up < math.inf
    n, e0 = 4, 1.0                                  # two rounds of binary RR against enumeration of the product pair
    q = 1/(math.exp(e0) + 1); T = stats.binom.pmf(np.arange(n + 1), n - 1, q); Tm = np.r_[0.0, T[:-1]]
    P, Q = (1 - q)*T + q*Tm, q*T + (1 - q)*Tm
    P2, Q2 = np.outer(P, P).ravel(), np.outer(Q, Q).ravel()
    pair = rr_pair_pld(n, e0).self_compose(2)
    for e in (0.0, 0.3, 1.0):
        exact = max(np.maximum(P2 - math.exp(e)*Q2, 0).sum(), np.maximum(Q2 - math.exp(e)*P2, 0).sum())
        dlo, dup = pair.delta_bounds(e)
        assert dlo - 1e-12 <= exact <= dup + 1e-12, (e, dlo, exact, dup)

def test_blanket_profile_is_monotone_and_finds_the_first_crossing():
    """The authors' Bennett bound rises again before eps0 (eps0 = 8, n = 1e5): the profile is its running minimum, and
    blanket_epsilon is the first eps where it reaches delta (was eps0, from a bisection that assumed monotonicity)."""
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import blanket_delta, blanket_epsilon, _blanket_raw
    kw = dict(n=10**5, local_epsilon=8.0)
    es = np.linspace(0.0, 8.0, 801)
    d = np.array([blanket_delta(e, **kw) for e in es])
    assert np.all(np.diff(d) <= 0)
    raw = np.array([_blanket_raw(e, 10**5, 8.0, 'rr', 2, 'bennett') for e in es[:-1]])
    first = es[np.argmax(raw <= 1e-6)]                      # an independent scan of the raw formula
    e = blanket_epsilon(1e-6, **kw)
    assert blanket_delta(e, **kw) <= 1e-6 and abs(e - first) <= 0.011, (e, first)

def test_huge_integers_are_refused_not_overflowed():
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import (blanket_delta, clones_closed_form_epsilon, clone_pair_pld,
                                                         rr_pair_pld)
    for call in (lambda: blanket_delta(0.1, n=10**400, local_epsilon=1.0),
                 lambda: blanket_delta(0.1, n=10, local_epsilon=1.0, k=10**400),
                 lambda: clones_closed_form_epsilon(1e-6, n=10**400, local_epsilon=1.0),
                 lambda: clone_pair_pld(10**400, 1.0), lambda: rr_pair_pld(10**400, 1.0)):
        with pytest.raises(ValueError, match='must be an integer in'): call()

def test_rr_pair_pld_refuses_before_memory_runs_out():
    from shuffle_privacy.core import ResourceLimitError
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import rr_pair_pld
    with pytest.raises(ResourceLimitError, match='instead'): rr_pair_pld(10**14, 1.0)
