"""Balls-into-bins (notebook 19a): the certified pair against brute-force enumeration of the whole protocol, mpmath,
the authors' published parameters, monotonicity in the fake balls, and the accountants."""
import itertools, math
from fractions import Fraction
import numpy as np
import pytest
from scipy import stats
from shuffle_privacy.mechanisms.shuffled_ldp.multi_message import (balls_into_bins_pair, lwy22_bad_event_delta,
                                                                   lwy22_mu, BallsIntoBinsEvent, bc20_fake_probability,
                                                                   uniform_fake_balls_pair, BallsIntoBinsUniformEvent)
from shuffle_privacy.accounting.pld import PldAccountant
from helpers_enum import uniform_output
from shuffle_privacy.accounting.rdp import RdpAccountant
from shuffle_privacy.accounting.calibrate import calibrate


def _protocol_output(values, bins, p):
    """Exact law (Fractions) of the bin counts when user i puts a real ball in bin values[i] and a fake ball in each bin
    with probability p, independently: enumerated over every user's coin vector (no reduction used)."""
    out = {}
    coins = list(itertools.product((0, 1), repeat=bins))
    w = {c: math.prod(p if x else 1 - p for x in c) for c in coins}
    for choice in itertools.product(coins, repeat=len(values)):
        h = [0]*bins
        pr = Fraction(1)
        for v, c in zip(values, choice):
            h[v] += 1
            for j, x in enumerate(c): h[j] += x
            pr *= w[c]
        out[tuple(h)] = out.get(tuple(h), 0) + pr
    return out


def _hockey(P, Q, eps):
    "max over both directions of Σ (P - e^ε Q)_+ (exact masses, the e^ε product in floats)."
    keys = set(P) | set(Q)
    f = lambda A, B: sum(max(float(A.get(k, 0)) - math.exp(eps)*float(B.get(k, 0)), 0.0) for k in keys)
    return max(f(P, Q), f(Q, P))


@pytest.mark.parametrize('n,bins,p', [(2, 3, Fraction(3, 10)), (3, 2, Fraction(1, 4)), (3, 3, Fraction(1, 2)),
                                      (3, 2, Fraction(9, 10))])
def test_every_neighbouring_pair_against_enumeration(n, bins, p):
    """All datasets in [bins]^n and every one-user change: the worst δ(ε) lies in the certified interval, and every
    pair that moves a ball has the same δ (the reduction's claim that all neighbouring pairs are alike)."""
    pair = balls_into_bins_pair(n, float(p), value_discretization_interval=1e-3)
    laws = {x: _protocol_output(x, bins, p) for x in itertools.product(range(bins), repeat=n)}
    for eps in (0.0, 0.3, 1.0, 2.5):
        ds = []
        for x in laws:
            for v in range(bins):
                if v != x[0]: ds.append(_hockey(laws[x], laws[(v,) + x[1:]], eps))
        worst = max(ds)
        assert max(ds) - min(ds) <= 1e-12
        lo, up = pair.delta_bounds(eps)
        assert lo <= worst + 1e-12 and worst <= up + 1e-15, (eps, lo, worst, up)


def _mp_delta(eps, n, p, width=40):
    "δ(ε) of (N_j + 1, N_k) against (N_j, N_k + 1) in 50-digit mpmath over the window holding all but ~e^-width^2/2."
    import mpmath
    mpmath.mp.dps = 50
    mu, sd = n*p, math.sqrt(n*p*(1 - p))
    zs = range(max(0, int(mu - width*sd)), min(n, int(mu + width*sd)) + 1)
    B = {z: mpmath.binomial(n, z)*mpmath.mpf(p)**z*(1 - mpmath.mpf(p))**(n - z) for z in range(-1, n + 2)
         if 0 <= z <= n}
    b = lambda z: B.get(z, mpmath.mpf(0))
    E, tot = mpmath.e**eps, mpmath.mpf(0)
    for cj in [z + 1 for z in zs]:
        for ck in zs:
            P, Q = b(cj - 1)*b(ck), b(cj)*b(ck - 1)
            if P > E*Q: tot += P - E*Q
    return float(tot)


@pytest.mark.parametrize('n,p', [(60, 0.1), pytest.param(400, 0.05, marks=pytest.mark.slow)])
def test_interval_contains_mpmath(n, p):
    pair = balls_into_bins_pair(n, p, value_discretization_interval=1e-4)
    for eps in (0.2, 1.0, 2.0):
        ex = _mp_delta(eps, n, p)
        lo, up = pair.delta_bounds(eps)
        assert lo <= ex*(1 + 1e-12) + 1e-300 and ex <= up, (eps, lo, ex, up)
        assert up - lo <= 2e-3*up + 1e-30


def test_reproduces_published_mu():
    """The authors' output file result/fe,aol01,n=100000,B=16777216,C=1.000000,...out (github.com/hkustDB/SDPFE)
    prints mu = 97.9614 for epsilon = 1, delta = 1/n^2, n = 1e5; their bisection's step is 0.1 in mu."""
    assert lwy22_mu(1.0, 1e-10, n=10**5) == pytest.approx(97.9614, abs=0.11)


@pytest.mark.parametrize('n', [10**3, 10**4])
def test_published_bound_is_above_certified(n):
    "At the authors' mu for (1, 1/n^2): the criterion's δ and the target are both >= the certified upper end."
    mu = lwy22_mu(1.0, 1/n**2, n=n)
    up = balls_into_bins_pair(n, mu/n).delta_bounds(1.0)[1]
    assert up <= lwy22_bad_event_delta(1.0, n=n, mu=mu) <= 1/n**2


def test_monotone_in_fake_balls_exact():
    "Exact enumeration (the reduced pair in floats): δ(ε) falls as p grows, n = 30."
    def ex(p, eps=0.5, n=30):
        B = stats.binom(n, p).pmf; c = np.arange(n + 2)
        return float(np.maximum(np.outer(B(c - 1), B(c)) - math.exp(eps)*np.outer(B(c), B(c - 1)), 0).sum())
    ds = [ex(p) for p in (0.05, 0.1, 0.2, 0.3, 0.5)]
    assert all(a > b for a, b in zip(ds, ds[1:]))


def test_monotone_in_fake_balls_certified():
    "Certified ends: the lower end of ε(δ) at mu is above the upper end at 2 mu."
    n = 10**4
    prev = None
    for mu in (10.0, 20.0, 40.0):
        lo, up = balls_into_bins_pair(n, mu/n).epsilon_bounds(1e-8)
        if prev is not None: assert up < prev
        prev = lo


def test_delta_non_increasing_in_epsilon():
    pair = balls_into_bins_pair(500, 0.05, value_discretization_interval=1e-3)
    ups = [pair.delta_bounds(e)[1] for e in np.linspace(0, 3, 7)]
    assert all(a >= b for a, b in zip(ups, ups[1:]))


def test_large_n_is_finite_and_near_poisson_limit():
    "n = 1e9 and 1e7 at the same mu: both finite, and close (the counts tend to Poisson(mu))."
    a = BallsIntoBinsEvent(10**9, 100.0).epsilon(1e-10)
    b = BallsIntoBinsEvent(10**7, 100.0).epsilon(1e-10)
    assert math.isfinite(a) and a == pytest.approx(b, rel=1e-3)


def test_accountants_and_calibrate():
    ev = BallsIntoBinsEvent(10**3, 40.0)
    one = PldAccountant(value_discretization_interval=1e-4).compose(ev).get_epsilon(1e-8)
    assert one == pytest.approx(ev.epsilon(1e-8), rel=1e-6)
    four = PldAccountant(value_discretization_interval=1e-3).compose(ev, 4).get_epsilon(1e-8)
    assert one < four <= 4*one
    with pytest.raises(ValueError, match='PldAccountant'): RdpAccountant().compose(ev)


@pytest.mark.parametrize('d,rtol', [(1e-3, 2e-2), pytest.param(1e-4, 1e-4, marks=pytest.mark.slow)])
def test_calibrate_recovers_mu(d, rtol):
    "calibrate finds back the mu whose certified ε it is given (to the grid's and the search's precision)."
    acc = lambda: PldAccountant(value_discretization_interval=d)
    target = acc().compose(BallsIntoBinsEvent(10**3, 40.0)).get_epsilon(1e-6)
    mu = calibrate(lambda m: BallsIntoBinsEvent(10**3, m), target, 1e-6, bracket=(10.0, 160.0), rtol=rtol,
                   make_accountant=acc)
    assert mu == pytest.approx(40.0, rel=5*rtol + 1e-3)


def test_bad_inputs_name_the_parameter():
    with pytest.raises(ValueError, match='n'): balls_into_bins_pair(0, 0.1)
    with pytest.raises(ValueError, match='p'): balls_into_bins_pair(10, 0.0)
    with pytest.raises(ValueError, match='value_discretization_interval'):
        balls_into_bins_pair(10, 0.1, value_discretization_interval=2.0)
    with pytest.raises(ValueError, match='log_tail'): balls_into_bins_pair(10, 0.1, log_tail=0.0)
    with pytest.raises(ValueError, match='mu'): lwy22_bad_event_delta(1.0, n=10, mu=10.0)
    with pytest.raises(ValueError, match='epsilon'): lwy22_mu(0.0, 1e-6, n=100)
    with pytest.raises(ValueError, match='delta'): lwy22_mu(1.0, 0.0, n=100)
    with pytest.raises(ValueError, match='fake_balls_per_bin'): BallsIntoBinsEvent(10, 0.0)
    with pytest.raises(ValueError, match='fake_balls_per_bin'): BallsIntoBinsEvent(10, 10.0)
    with pytest.raises(ValueError, match='num_users'): BallsIntoBinsEvent(0, 1.0)


def test_symmetric_in_mu_and_n_minus_mu():
    "N -> n - N maps the pair with Bin(n, p) to the swapped pair with Bin(n, 1 - p): the certified intervals overlap."
    d = dict(value_discretization_interval=1e-3)
    a, b = balls_into_bins_pair(50, 0.2, **d), balls_into_bins_pair(50, 0.8, **d)
    for e in (0.0, 0.5, 1.5):
        (la, ua), (lb, ub) = a.delta_bounds(e), b.delta_bounds(e)
        assert max(la, lb) <= min(ua, ub)


def test_bc20_probability_and_published_bound():
    "Balcer-Cheu: 1 - p = 50 ln(2/δ)/(ε² n), published (2ε, 2δ); the certified ε(2δ) is below 2ε."
    n, eps, delta = 10**4, 1.0, 1e-6
    p = bc20_fake_probability(n, eps, delta)
    assert n*(1 - p) == pytest.approx(50*math.log(2/delta), rel=1e-9)
    lo, up = balls_into_bins_pair(n, p).epsilon_bounds(2*delta)
    assert 0 < lo <= up < 2*eps
    with pytest.raises(ValueError, match='n'): bc20_fake_probability(100, 1.0, 1e-6)
    with pytest.raises(ValueError, match='epsilon'): bc20_fake_probability(10**4, 1.5, 1e-6)
    with pytest.raises(ValueError, match='delta'): bc20_fake_probability(10**4, 1.0, 0.0)


@pytest.mark.parametrize('n,bins,s', [(2, 3, Fraction(3, 2)), (2, 4, Fraction(1)), (3, 3, Fraction(1, 2))])
def test_uniform_fake_balls_against_enumeration(n, bins, s):
    "Every neighbouring pair of the code's protocol: the worst δ(ε) lies in the certified interval, all pairs alike."
    pair = uniform_fake_balls_pair(n, float(s), b=bins, value_discretization_interval=1e-3)
    laws = {x: uniform_output(x, bins, s) for x in itertools.product(range(bins), repeat=n)}
    for eps in (0.0, 0.4, 1.2):
        ds = [_hockey(laws[x], laws[(v,) + x[1:]], eps) for x in laws for v in range(bins) if v != x[0]]
        assert max(ds) - min(ds) <= 1e-12
        lo, up = pair.delta_bounds(eps)
        assert lo <= max(ds) + 1e-12 and max(ds) <= up + 1e-15, (eps, lo, max(ds), up)


def test_uniform_fake_balls_at_published_parameters():
    "The authors' run (n = 1e5, b = 8685, mu = 97.9614): the code's protocol also meets (1, 1e-10), certified."
    lo, up = uniform_fake_balls_pair(10**5, 8685*97.9614/10**5, b=8685).epsilon_bounds(1e-10)
    assert lo <= up < 1.0
    ev = BallsIntoBinsUniformEvent(10**5, 97.9614, num_bins=8685)
    assert PldAccountant(value_discretization_interval=1e-4).compose(ev).get_epsilon(1e-10) == pytest.approx(up, rel=1e-6)
    with pytest.raises(ValueError, match='num_bins'): BallsIntoBinsUniformEvent(10, 1.0, num_bins=2)
    with pytest.raises(ValueError, match='b'): uniform_fake_balls_pair(10, 1.0, b=2)
    with pytest.raises(ValueError, match='s'): uniform_fake_balls_pair(10, 0.0, b=5)


@pytest.mark.parametrize('n,p', [(200, 0.1), (2000, 0.02)])
def test_at_least_one_bin_alone(n, p):
    """Seeing one of the two bins is a post-processing of seeing both: δ(ε) of the pair is at least that of one
    P1D-style shift (N + 1 against N, or N against N + 1), from notebook 21's exact profile (g = 1)."""
    from shuffle_privacy.mechanisms.summation.exact import binomial_shift_log_delta
    pair = balls_into_bins_pair(n, p)
    for e in (0.1, 0.5, 1.0):
        one = max(math.exp(binomial_shift_log_delta(e, m=n, p=p, k=k)) for k in (1, -1))
        assert pair.delta_bounds(e)[1] >= one*(1 - 1e-9)
        assert pair.delta_bounds(e)[0] >= 0.9*one        # and two bins leak more than one, by a margin here
