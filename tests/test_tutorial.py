"""Independent checks of the tutorial's shuffled k-RR (`mechanisms.shuffled_ldp.k_rr`, notebook 50):
exact enumeration of the shuffled histogram at small n, mpmath sums of the clones pair, properties, bad inputs."""
import itertools, math
import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats
import shuffle_privacy as sp
from shuffle_privacy.core import ResourceLimitError
from shuffle_privacy.mechanisms.shuffled_ldp.k_rr import (ShuffledKRREvent, binomial_window, clones_log_moment,
                                                          krr_clone_probability, krr_clones_pair)

def histogram_law(data, k, e0):
    "Law of the count vector of shuffled k-RR on `data`, by convolution over users."
    a, b = math.exp(e0)/(math.exp(e0) + k - 1), 1/(math.exp(e0) + k - 1)
    dist = {tuple([0]*k): 1.0}
    for x in data:
        new = {}
        for cnt, pr in dist.items():
            for y in range(k):
                c2 = list(cnt); c2[y] += 1; c2 = tuple(c2)
                new[c2] = new.get(c2, 0.0) + pr*(a if y == x else b)
        dist = new
    return dist

def worst_exact(n, k, e0, epsilons, alphas=()):
    "Worst over neighbouring datasets (first user 0 vs 1, others any multiset), both directions: δ(ε) and D_α."
    dl, rn = np.zeros(len(epsilons)), np.zeros(len(alphas))
    for others in itertools.combinations_with_replacement(range(k), n - 1):
        P, Q = histogram_law((0,) + others, k, e0), histogram_law((1,) + others, k, e0)
        for A, B in ((P, Q), (Q, P)):
            pa, pb = np.array([A[h] for h in A]), np.array([B[h] for h in A])
            dl = np.maximum(dl, [np.maximum(pa - math.exp(e)*pb, 0).sum() for e in epsilons])
            rn = np.maximum(rn, [math.log((pa**al*pb**(1 - al)).sum())/(al - 1) for al in alphas])
    return dl, rn

@pytest.mark.parametrize('n', [1, 2, 3, 5, 8])
@pytest.mark.parametrize('k', [2, 3, 4])
@pytest.mark.parametrize('e0', [0.4, 1.5, 3.0])
def test_certified_upper_above_exact_worst_delta(n, k, e0):
    grid = np.linspace(0.0, e0 + 0.2, 12)
    ex, rn = worst_exact(n, k, e0, grid, alphas=(2.0, 6.0))
    pair = krr_clones_pair(n, e0, value_discretization_interval=1e-3)
    ups = np.array([pair.delta_bounds(e)[1] for e in grid])
    assert np.all(ex <= ups), (ex, ups)
    assert ex[0] > 0 and np.all(ups[grid >= e0 + 2e-3] == 0.0)       # nothing at ε > ε0: ε0-LDP
    rdp = sp.rdp_of(ShuffledKRREvent(n, e0, num_buckets=k), np.array([2.0, 6.0]))
    assert np.all(rn <= rdp + 1e-12), (rn, rdp)

def clones_pair_delta_mp(n, e0, e):
    "Exact δ(ε) of the clones pair itself, all atoms summed in mpmath (no truncation)."
    mpmath.mp.dps = 40
    p, r = 2/(mpmath.e**e0 + 1), 1/(1 + mpmath.e**(-e0))
    tot = mpmath.mpf(0)
    for c in range(n):
        pc = mpmath.binomial(n - 1, c)*p**c*(1 - p)**(n - 1 - c)
        B = lambda j: mpmath.binomial(c, j)/mpmath.mpf(2)**c if 0 <= j <= c else 0
        for u in range(c + 2):
            P = pc*(r*B(u - 1) + (1 - r)*B(u)); Q = pc*(r*B(u) + (1 - r)*B(u - 1))
            tot += max(P - mpmath.e**e*Q, 0)
    return float(tot)

@pytest.mark.parametrize('n,e0', [(1, 1.0), (10, 0.5), (40, 2.0), (60, 5.0)])
def test_pair_brackets_the_clones_pair_exactly(n, e0):
    pair = krr_clones_pair(n, e0, value_discretization_interval=1e-4)
    for e in (0.0, 0.2*e0, 0.6*e0):
        lo, up = pair.delta_bounds(e)
        ex = clones_pair_delta_mp(n, e0, e)
        assert lo <= ex <= up and up - lo <= 2e-3 + 1e-3*ex, (e, lo, ex, up)

@pytest.mark.parametrize('n,e0', [(30, 1.0), pytest.param(200, 3.0, marks=pytest.mark.slow)])
def test_log_moment_against_mpmath(n, e0):
    mpmath.mp.dps = 40
    p, r = 2/(mpmath.e**e0 + 1), 1/(1 + mpmath.e**(-e0))
    for al in (2, 7):
        tot = mpmath.mpf(0)
        for c in range(n):
            pc = mpmath.binomial(n - 1, c)*p**c*(1 - p)**(n - 1 - c)
            B = lambda j: mpmath.binomial(c, j)/mpmath.mpf(2)**c if 0 <= j <= c else 0
            for u in range(c + 2):
                P = r*B(u - 1) + (1 - r)*B(u); Q = r*B(u) + (1 - r)*B(u - 1)
                tot += pc*P**al*Q**(1 - al)
        got = clones_log_moment([float(al)], n, e0)[0]
        assert float(mpmath.log(tot)) <= got <= float(mpmath.log(tot)) + 1e-9, (al, got, float(mpmath.log(tot)))

@given(N=st.integers(1, 10**7), p=st.floats(1e-6, 0.999), t=st.floats(5.0, 300.0))
@settings(max_examples=60, deadline=None)
def test_binomial_window_certified_against_logsf(N, p, t):
    lo, hi, lg = binomial_window(N, p, log_tail=-t)
    X = stats.binom(N, p)
    exact = np.logaddexp(X.logsf(hi) if hi < N else -np.inf, X.logcdf(lo - 1) if lo > 0 else -np.inf)
    assert exact <= lg + 1e-9 and lg <= math.log(2) - t + 1e-9
    assert 0 <= lo <= max(math.floor(N*p), 0) + 1 and min(math.ceil(N*p), N) - 1 <= hi <= N

def test_binomial_window_far_tail_is_narrow():
    lo, hi, lg = binomial_window(10**6, 0.3, log_tail=-1000.0)    # scipy's isf gives N here
    assert stats.binom(10**6, 0.3).isf(1e-300) == 10**6 and hi < 340_000 and lo > 260_000

@given(n=st.integers(1, 300), e0=st.floats(0.05, 8.0))
@settings(max_examples=15, deadline=None)
def test_delta_non_increasing_and_composition_monotone(n, e0):
    pair = krr_clones_pair(n, e0, value_discretization_interval=1e-3)
    ups = [pair.delta_bounds(e)[1] for e in np.linspace(0, e0 + 0.1, 9)]
    assert all(0 <= b <= a <= 1 for a, b in zip(ups, ups[1:])), ups
    comp = [pair.self_compose(m).delta_bounds(0.5)[1] for m in (1, 2, 5)]
    assert comp[0] <= comp[1] + 1e-15 and comp[1] <= comp[2] + 1e-15, comp

def test_accountants_and_calibrate():
    ev = ShuffledKRREvent(500, 1.5, num_buckets=4)
    e = [sp.PldAccountant(value_discretization_interval=1e-3).compose(ev, m).get_epsilon(1e-6) for m in (1, 3, 9)]
    assert e[0] <= e[1] <= e[2] and e[2] <= sp.RdpAccountant().compose(ev, 9).get_epsilon(1e-6)
    rho = sp.rdp_of(ev, np.array([1.5, 2.0, 4.0, 16.0, 64.0, 200.0]))
    assert np.all(np.diff(rho) >= -1e-12) and rho[-1] <= 1.5
    e0 = sp.calibrate(lambda x: ShuffledKRREvent(500, x), 1.0, 1e-6, bracket=(0.1, 8.0), rtol=1e-3,
                      make_accountant=lambda: sp.PldAccountant(value_discretization_interval=1e-3))
    acc = lambda x: sp.PldAccountant(value_discretization_interval=1e-3).compose(ShuffledKRREvent(500, x))
    assert acc(e0).get_epsilon(1e-6) <= 1.0 < acc(e0*1.01).get_epsilon(1e-6)

def test_clone_probability():
    assert krr_clone_probability(math.log(3)) == pytest.approx(0.5)
    assert 0 < krr_clone_probability(700.0) < 1e-300

@pytest.mark.parametrize('call,word', [
    (lambda: ShuffledKRREvent(0, 1.0), 'num_users'), (lambda: ShuffledKRREvent(10, -1.0), 'local_epsilon'),
    (lambda: ShuffledKRREvent(10, 1.0, num_buckets=1), 'num_buckets'),
    (lambda: ShuffledKRREvent(10**400, 1.0), 'num_users'), (lambda: ShuffledKRREvent(10, math.nan), 'local_epsilon'),
    (lambda: ShuffledKRREvent(10, np.array([1.0, 2.0])), 'local_epsilon'),
    (lambda: krr_clones_pair(0, 1.0), 'n'), (lambda: krr_clones_pair(10, 701.0), 'local_epsilon'),
    (lambda: krr_clones_pair(10, 1.0, value_discretization_interval=0.0), 'value_discretization_interval'),
    (lambda: krr_clones_pair(10, 1.0, log_tail=0.5), 'log_tail'),
    (lambda: clones_log_moment([1.0], 10, 1.0), 'alphas'),
    (lambda: clones_log_moment([2.0], 10, math.inf), 'local_epsilon'),
    (lambda: binomial_window(10, 0.5, log_tail=math.nan), 'log_tail'),
    (lambda: binomial_window(-1, 0.5, log_tail=-3.0), 'N'),
    (lambda: krr_clone_probability(0.0), 'local_epsilon')])
def test_bad_inputs(call, word):
    with pytest.raises((ValueError, TypeError), match=word):
        call()

def test_positional_beyond_two_fails_and_resource_limit():
    with pytest.raises(TypeError): ShuffledKRREvent(10, 1.0, 3)
    with pytest.raises(ResourceLimitError, match='atoms'):
        krr_clones_pair(10**6, 1.0, value_discretization_interval=1e-4)
