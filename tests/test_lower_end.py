"""The lower end of every registered PLD against the mechanism itself.

For each event type with a `pld_of` registration, in one or two small settings: the upper end of
`get_epsilon_bounds(δ)` / `get_delta_bounds(ε)` is >= the mechanism's exact worst case, and, where the pair says
`lower_certified`, the lower end is <= the exact δ(ε) / ε(δ) of an *actual* neighbouring pair of the mechanism
(so <= its worst case). Where `lower_certified` is False, the accountant reports 0 as the lower end (the pair's own
lower end bounds a dominating pair only) and its adaptive grid stops refining after at most two steps.

The references never go through the PLD code: closed forms and one-dimensional integrals in mpmath, and
brute-force enumeration over neighbouring datasets at tiny n. An ε interval is checked through the exact profile:
lo <= ε(δ) iff lo = 0 or δ_exact(lo) >= δ, and up >= ε(δ) iff δ_exact(up) <= δ (δ_exact is continuous)."""
import dataclasses, itertools, math
import mpmath as mp
import pytest
from dp_accounting import dp_event as E, NeighboringRelation
import shuffle_privacy as sp
from shuffle_privacy.accounting import pld as pld_mod
from shuffle_privacy.accounting.pld import pld_of, PldAccountant
from shuffle_privacy.accounting.events import ProfileEvent
from shuffle_privacy.mechanisms.shuffled_ldp.pld import rr_worst_case_epsilon, rr_worst_case_delta
from shuffle_privacy.mechanisms.shuffled_ldp.k_rr import ShuffledKRREvent
from shuffle_privacy.mechanisms.shuffled_ldp.cheu import CheuSumEvent

MP_DPS = 30
REPLACE, ADD = NeighboringRelation.REPLACE_ONE, NeighboringRelation.ADD_OR_REMOVE_ONE
SLACK = 1e-12            # relative error of the references (30-digit mpmath, or exact enumeration in mpf)

# ---------------------------------------------------------------- references (no PLD code below this line)
def gauss_delta(mu, eps):
    "δ(ε) of the Gaussian mechanism N(μ, 1) against N(0, 1): Φ(μ/2 - ε/μ) - e^ε Φ(-μ/2 - ε/μ) (Balle-Wang 2018)."
    mu, eps = mp.mpf(mu), mp.mpf(eps)
    return mp.ncdf(mu/2 - eps/mu) - mp.e**eps*mp.ncdf(-mu/2 - eps/mu)

def laplace_delta(b, eps):
    "δ(ε) of Lap(0, b) against Lap(1, b): {p > e^ε q} = (-∞, x*), x* = (1 - bε)/2, by the Laplace CDF."
    b, eps = mp.mpf(b), mp.mpf(eps)
    if eps >= 1/b: return mp.mpf(0)
    F = lambda x, loc: mp.e**((x - loc)/b)/2 if x < loc else 1 - mp.e**(-(x - loc)/b)/2
    x = (1 - b*eps)/2
    return F(x, 0) - mp.e**eps*F(x, 1)

def hockey(P, Q, eps):
    "H_ε(P || Q) = Σ_o (P(o) - e^ε Q(o))_+ of two finite laws (dicts outcome -> mass)."
    g = mp.e**mp.mpf(eps)
    return mp.fsum(max(m - g*Q.get(o, 0), 0) for o, m in P.items())

def both(P, Q, eps): return max(hockey(P, Q, eps), hockey(Q, P, eps))

def binom(m, p):
    "Bin(m, p) as a dict, in mpf."
    p = mp.mpf(p)
    return {z: mp.binomial(m, z)*p**z*(1 - p)**(m - z) for z in range(m + 1)}

def conv(A, B):
    "The law of the sum (tuples are added coordinate by coordinate) of two independent finite laws."
    out = {}
    for (a, x), (b, y) in itertools.product(A.items(), B.items()):
        k = tuple(i + j for i, j in zip(a, b)) if isinstance(a, tuple) else a + b
        out[k] = out.get(k, 0) + x*y
    return out

def mixture_delta(P, Q, sigma, eps):
    "H_ε(P || Q) for mixtures P, Q of N(m, σ²) (lists of (weight, mean)) whose log-ratio is monotone in x."
    s, g = mp.mpf(sigma), mp.e**mp.mpf(eps)
    dens = lambda M, x: mp.fsum(w*mp.npdf(x, m, s) for w, m in M)
    cdf = lambda M, x: mp.fsum(w*mp.ncdf((x - m)/s) for w, m in M)
    h = lambda x: mp.log(dens(P, x)) - mp.log(dens(Q, x)) - mp.mpf(eps)
    a, b = -40*s - 3, 40*s + 3
    ha, hb = h(a), h(b)
    if ha > 0 and hb > 0: return mp.mpf(1) - g                       # never happens in the settings below
    if ha <= 0 and hb <= 0: return mp.mpf(0)                         # no x where P > e^ε Q (within ±40σ)
    for _ in range(200):                                             # bisection on the sign change
        c = (a + b)/2
        if (h(c) > 0) == (ha > 0): a = c
        else: b = c
    x = (a + b)/2
    if ha > 0: return cdf(P, x) - g*cdf(Q, x)                        # P > e^ε Q on (-∞, x)
    W = lambda M: mp.fsum(w for w, _ in M)                           # float weights such as 0.2 + 0.8 != 1
    return (W(P) - cdf(P, x)) - g*(W(Q) - cdf(Q, x))                 # on (x, ∞)

def shuffle_gaussian2_deltas(sigma, eps):
    "(forward, reverse) δ(ε) of Theorem 1's pair at n = 2: D = (1, 0) against (0, 0), the outputs shuffled."
    # P/Q = (Y1 + Y2)/2 with Y = e^{sZ - s²/2}, s = 1/σ, Z ~ N(0, 1) under Q: given Z1, a Black-Scholes call/put
    s, g = 1/mp.mpf(sigma), mp.e**mp.mpf(eps)
    Y = lambda z: mp.e**(s*z - s*s/2)
    def call(z):                                                     # E[(Y1/2 + Y2/2 - e^ε)_+ | Z1 = z]
        K = g - Y(z)/2
        if K <= 0: return mp.mpf(1)/2 - K
        d1 = (-mp.log(2*K) + s*s/2)/s
        return (mp.ncdf(d1) - 2*K*mp.ncdf(d1 - s))/2
    def put(z):                                                      # E[(1 - e^ε (Y1 + Y2)/2)_+ | Z1 = z]
        K, b = 1 - g*Y(z)/2, g/2
        if K <= 0: return mp.mpf(0)
        d1 = (-mp.log(K/b) + s*s/2)/s
        return b*((K/b)*mp.ncdf(-(d1 - s)) - mp.ncdf(-d1))
    zc = lambda c: (mp.log(c) + s*s/2)/s                             # Y(z) = c: where the integrands have a kink
    with mp.workdps(15):                                             # about 1e-14 relative: inside SLACK
        fwd = mp.quad(lambda z: mp.npdf(z)*call(z), [-mp.inf, zc(2*g), mp.inf])
        rev = mp.quad(lambda z: mp.npdf(z)*put(z), [-mp.inf, zc(2/g), mp.inf])
    return fwd, rev

def rr_brute_delta(n, e0, eps):
    "Shuffled binary RR: max over the other users' number m of ones, user's bit 0 vs 1, both directions."
    q = 1/(mp.e**mp.mpf(e0) + 1)                                     # the probability of flipping a bit
    best = mp.mpf(0)
    for m in range(n):
        t = conv(binom(m, 1 - q), binom(n - 1 - m, q))
        best = max(best, both(conv(t, {0: q, 1: 1 - q}), conv(t, {0: 1 - q, 1: q}), eps))
    return best

def krr_brute_delta(n, e0, k, eps):
    "Shuffled k-RR: max over the others' values (multisets) of the histograms' δ, user's value 0 vs 1."
    g = mp.e**mp.mpf(e0); den = g + k - 1
    report = lambda v: {tuple(int(j == i) for j in range(k)): (g if i == v else 1)/den for i in range(k)}
    best = mp.mpf(0)
    for others in itertools.combinations_with_replacement(range(k), n - 1):
        t = {tuple([0]*k): mp.mpf(1)}
        for v in others: t = conv(t, report(v))
        best = max(best, both(conv(t, report(0)), conv(t, report(1)), eps))
    return best

def p1d_delta(m, p, g, eps, coordinates=1):
    "P1D: Bin(m, p) against Bin(m, p) + g (an actual neighbouring pair), `coordinates` independent copies."
    A = binom(m, p); B = {z + g: v for z, v in A.items()}
    if coordinates > 1:
        lift = lambda L: {(z,): v for z, v in L.items()}
        A1, B1 = lift(A), lift(B); A, B = A1, B1
        for _ in range(coordinates - 1):
            A = {a + b: x*y for (a, x), (b, y) in itertools.product(A.items(), A1.items())}
            B = {a + b: x*y for (a, x), (b, y) in itertools.product(B.items(), B1.items())}
    return both(A, B, eps)

# ---------------------------------------------------------------- the checks
def check_interval(lo, up, exact, *, certified, what):
    "lo <= exact <= up (δ intervals); `exact` in mpf."
    assert up >= exact*(1 - SLACK), (what, 'upper end below the exact value', up, float(exact))
    if certified: assert lo <= exact*(1 + SLACK), (what, 'lower end above the exact value', lo, float(exact))
    else: assert lo == 0.0, (what, 'an uncertified lower end must be reported as 0', lo)

def check_eps_interval(lo, up, delta, delta_at, *, certified, what):
    "lo <= ε(δ) <= up through the exact profile `delta_at` (see the module docstring)."
    if math.isfinite(up): assert delta_at(up) <= delta*(1 + SLACK), (what, 'upper ε end below ε(δ)', up)
    if certified: assert lo == 0.0 or delta_at(lo) >= delta*(1 - SLACK), (what, 'lower ε end above ε(δ)', lo)
    else: assert lo == 0.0, (what, 'an uncertified lower end must be reported as 0', lo)

def check_event(event, delta_at, *, epsilons, deltas, d=1e-3, relation=REPLACE, certified=True):
    "The registered pair's flag, then the fixed-grid accountant's intervals against the exact profile `delta_at`."
    pair = pld_of(event, d, neighboring_relation=relation)
    assert pair.lower_certified is certified, (type(event).__name__, pair.lower_certified)
    acc = PldAccountant(relation, d).compose(event)
    for e in epsilons:
        check_interval(*acc.get_delta_bounds(e), delta_at(e), certified=certified, what=(event, e))
    for x in deltas:
        check_eps_interval(*acc.get_epsilon_bounds(x), x, delta_at, certified=certified, what=(event, x))

# ---- dp_accounting's events
@pytest.mark.parametrize('relation', [REPLACE, ADD])
@pytest.mark.parametrize('sigma', [0.8, 3.0])
def test_gaussian(relation, sigma):
    "GaussianDpEvent (sensitivity 1 under both relations): the closed form."
    check_event(E.GaussianDpEvent(sigma), lambda e: gauss_delta(1/sigma, e), epsilons=[0.0, 0.5, 2.0],
                deltas=[1e-3, 1e-8], relation=relation)

@pytest.mark.parametrize('relation', [REPLACE, ADD])
def test_gaussian_compositions(relation):
    "SelfComposedDpEvent and ComposedDpEvent of Gaussians: one Gaussian with μ² = Σ 1/σ_i²."
    check_event(E.SelfComposedDpEvent(E.GaussianDpEvent(4.0), 10), lambda e: gauss_delta(mp.sqrt(10)/4, e),
                epsilons=[0.3, 1.5], deltas=[1e-6], relation=relation)
    check_event(E.ComposedDpEvent([E.GaussianDpEvent(2.0), E.GaussianDpEvent(3.0)]),
                lambda e: gauss_delta(mp.sqrt(mp.mpf(1)/4 + mp.mpf(1)/9), e), epsilons=[0.3, 1.5],
                deltas=[1e-6], relation=relation)

@pytest.mark.parametrize('relation', [REPLACE, ADD])
@pytest.mark.parametrize('b', [0.7, 2.0])
def test_laplace(relation, b):
    "LaplaceDpEvent: δ(ε) from the Laplace CDF at the crossing point."
    check_event(E.LaplaceDpEvent(b), lambda e: laplace_delta(b, e), epsilons=[0.0, 0.2, 0.9/b],
                deltas=[1e-2, 0.1], relation=relation)

@pytest.mark.parametrize('p, k', [(0.5, 3), (0.2, 2)])
def test_randomized_response(p, k):
    "RandomizedResponseDpEvent: enumeration of the k outputs, input 0 against input 1."
    P = {i: (1 - mp.mpf(p))*(i == 0) + mp.mpf(p)/k for i in range(k)}
    Q = {i: (1 - mp.mpf(p))*(i == 1) + mp.mpf(p)/k for i in range(k)}
    check_event(E.RandomizedResponseDpEvent(p, k), lambda e: both(P, Q, e), epsilons=[0.0, 0.5, 1.0],
                deltas=[0.05, 0.2])

def test_poisson_sampled_gaussian_replace_one():
    "Replace-one: one record x = -1 replaced by +1, sampled with probability q (dp_accounting's REPLACE pair)."
    q, s = 0.2, 1.0
    P, Q = [(q, -1), (1 - q, 0)], [(q, 1), (1 - q, 0)]
    check_event(E.PoissonSampledDpEvent(q, E.GaussianDpEvent(s)),
                lambda e: max(mixture_delta(P, Q, s, e), mixture_delta(Q, P, s, e)), epsilons=[0.1, 1.0],
                deltas=[1e-4])

def test_poisson_sampled_gaussian_add_remove():
    "Add/remove: a record of norm 1 present (sampled with probability q) or absent."
    q, s = 0.2, 1.0
    P, Q = [(q, 1), (1 - q, 0)], [(1, 0)]
    check_event(E.PoissonSampledDpEvent(q, E.GaussianDpEvent(s)),
                lambda e: max(mixture_delta(P, Q, s, e), mixture_delta(Q, P, s, e)), epsilons=[0.1, 1.0],
                deltas=[1e-4], relation=ADD)

@pytest.mark.parametrize('relation', [REPLACE, ADD])
def test_no_op(relation):
    "NoOpDpEvent: no loss at all, δ(ε) = 0."
    check_event(E.NoOpDpEvent(), lambda e: mp.mpf(0), epsilons=[0.0, 1.0], deltas=[1e-6], relation=relation)

@pytest.mark.parametrize('relation', [REPLACE, ADD])
def test_non_private(relation):
    "NonPrivateDpEvent: δ = 1 at every ε; it has no PLD (pld_of raises), the accountant records it."
    with pytest.raises(ValueError): pld_of(E.NonPrivateDpEvent(), 1e-3, neighboring_relation=relation)
    acc = PldAccountant(relation, 1e-3).compose(E.NonPrivateDpEvent())
    assert acc.get_delta_bounds(5.0) == (1.0, 1.0) and acc.get_epsilon_bounds(1e-3) == (math.inf, math.inf)

# ---- this package's events with an actual neighbouring pair (lower_certified)
def test_shuffle_gaussian_one_user():
    "ShuffleGaussianEvent(1, σ) is the Gaussian mechanism."
    check_event(sp.ShuffleGaussianEvent(1, 1.5), lambda e: gauss_delta(1/1.5, e), epsilons=[0.1, 1.0],
                deltas=[1e-6])

def test_shuffle_gaussian_two_users():
    "ShuffleGaussianEvent(2, σ): Theorem 1's pair, a one-dimensional mpmath integral of a call/put price."
    check_event(sp.ShuffleGaussianEvent(2, 1.0), lambda e: max(shuffle_gaussian2_deltas(1.0, e)), epsilons=[1.0],
                deltas=[1e-3])

@pytest.mark.slow
def test_shuffle_gaussian_two_users_more():
    "More points of the same, and σ = 0.5."
    for s in (1.0, 0.5):
        check_event(sp.ShuffleGaussianEvent(2, s), lambda e: max(shuffle_gaussian2_deltas(s, e)),
                    epsilons=[0.0, 0.5, 2.0], deltas=[1e-2, 1e-6])

def test_shuffle_gaussian_two_users_reference():
    "The n = 2 reference itself against Monte Carlo (both directions, 5 standard errors)."
    import numpy as np
    rng = np.random.default_rng(3); s, eps = 1.0, 0.5
    z = rng.standard_normal((2, 400_000)); R = (np.exp(z/s - 0.5/s**2)).mean(0)       # P/Q under Q
    for ref, x in zip(shuffle_gaussian2_deltas(s, eps), (R - math.exp(eps), 1 - math.exp(eps)*R)):
        x = np.maximum(x, 0)
        assert ref > 0 and abs(float(ref) - x.mean()) <= 5*x.std()/math.sqrt(x.size), (float(ref), x.mean())

def test_subsampled_shuffle_gaussian():
    "SubsampledShuffleGaussianEvent(n, 1): the sampled user's value 1 or 0, q = 1/n: (1-q)N(0) + qN(1) vs N(0)."
    n, s = 3, 1.0; q = mp.mpf(1)/n
    P, Q = [(q, 1), (1 - q, 0)], [(1, 0)]
    check_event(sp.SubsampledShuffleGaussianEvent(n, 1, s),
                lambda e: max(mixture_delta(P, Q, s, e), mixture_delta(Q, P, s, e)), epsilons=[0.2, 1.0],
                deltas=[1e-4])

def test_shuffled_checkin_one_user():
    "ShuffledCheckInEvent(1, p, σ): nothing (probability 1 - p, the same on both sides) or N(x, σ²): p δ_G(ε)."
    p, s = 0.3, 1.0
    check_event(sp.ShuffledCheckInEvent(1, p, s), lambda e: p*gauss_delta(1/s, e), epsilons=[0.2, 1.0],
                deltas=[1e-4])

def test_p1d():
    "P1DEvent: Bin(bn, p) against the same shifted by g, enumerated."
    n, g, b, p = 3, 1, 2, 0.5
    check_event(sp.P1DEvent(n, g, b=b, p=p), lambda e: p1d_delta(b*n, p, g, e), epsilons=[0.0, 0.5, 1.5],
                deltas=[0.2, 0.05])

def test_pvec():
    "PVECEvent: every coordinate's count shifts by g (product laws enumerated)."
    n, c, g, b, p = 2, 2, 1, 2, 0.4
    check_event(sp.PVECEvent(n, c, g=g, b=b, p=p), lambda e: p1d_delta(b*n, p, g, e, coordinates=c),
                epsilons=[0.5, 2.0], deltas=[0.2])

# ---- events whose lower end bounds a dominating pair only (lower_certified False)
@pytest.mark.parametrize('n, e0', [(3, 1.0), (6, 2.0)])
def test_shuffled_binary_rr(n, e0):
    "ShuffledBinaryRREvent: brute force over neighbouring datasets; the accountant reports 0 as the lower end."
    check_event(sp.ShuffledBinaryRREvent(n, e0), lambda e: rr_brute_delta(n, e0, e), epsilons=[0.1, 0.5],
                deltas=[1e-2, 1e-4], certified=False)

def test_shuffled_ldp_generic_covers_rr_and_krr():
    "ShuffledLDPEvent (any ε0-LDP randomizer): its upper end covers binary RR and 3-RR, both ε0-LDP."
    n, e0 = 3, 1.0
    worst = lambda e: max(rr_brute_delta(n, e0, e), krr_brute_delta(n, e0, 3, e))
    check_event(sp.ShuffledLDPEvent(n, e0), worst, epsilons=[0.1, 0.5], deltas=[1e-2], certified=False)

@pytest.mark.parametrize('k', [2, 3])
def test_shuffled_krr(k):
    "ShuffledKRREvent (the clones pair, every k): brute force over the histograms at n = 3."
    n, e0 = 3, 1.0
    check_event(ShuffledKRREvent(n, e0, num_buckets=k), lambda e: krr_brute_delta(n, e0, k, e),
                epsilons=[0.1, 0.5], deltas=[1e-2], certified=False)

@pytest.mark.parametrize('k,e0', [(3, 1.0), (4, 2.0)])
def test_shuffled_ldp_krr_both_ends(k, e0):
    "ShuffledLDPEvent with k_rr(k): blanket upper end, one actual pair's lower end (certified), at n = 3 and 4."
    for n in (3, 4):
        check_event(sp.ShuffledLDPEvent(n, e0, randomizer=sp.randomizers.k_rr(k)),
                    lambda e: krr_brute_delta(n, e0, k, e), epsilons=[0.1, 0.5], deltas=[1e-2], certified=True)

@dataclasses.dataclass(frozen=True)
class _GaussianProfile(ProfileEvent):
    "A privacy profile known exactly: the Gaussian mechanism's."
    sigma: float
    def delta(self, epsilon): return float(gauss_delta(1/self.sigma, epsilon))*(1 + 1e-15) + 1e-300

def test_profile_event():
    "ProfileEvent: the PLD bounds the profile (an upper bound on the mechanism); the lower end is reported as 0."
    check_event(_GaussianProfile(2.0), lambda e: gauss_delta(mp.mpf(1)/2, e), epsilons=[0.2, 1.0], deltas=[1e-4],
                certified=False)

def test_rr_worst_case_delta_is_the_brute_force():
    "The project's exact `rr_worst_case_delta` (used below at n = 1000) agrees with this module's enumeration."
    for n, e0, e in ((5, 1.0, 0.2), (8, 2.0, 0.6)):
        assert math.isclose(rr_worst_case_delta(e, n=n, local_epsilon=e0), rr_brute_delta(n, e0, e), rel_tol=1e-9)

def test_rr_pair_lower_end_is_not_the_mechanisms():
    "n = 1000, ε0 = 1, δ = 1e-6: the pair's own lower ε end exceeds the exact worst case; the accountant reports 0."
    n, e0, delta = 1000, 1.0, 1e-6
    exact = lambda e: rr_worst_case_delta(e, n=n, local_epsilon=e0)
    pair = pld_of(sp.ShuffledBinaryRREvent(n, e0), 1e-3)
    lo, up = pair.epsilon_bounds(delta)
    assert not pair.lower_certified and exact(lo) < delta and exact(up) <= delta   # lo > ε(δ): a dominating pair's
    lo, up = PldAccountant(REPLACE, 1e-3).compose(sp.ShuffledBinaryRREvent(n, e0)).get_epsilon_bounds(delta)
    assert lo == 0.0 and exact(up) <= delta

@pytest.mark.slow
def test_rr_thousand_users_issue_setting():
    "The setting of the report, through the adaptive accountant: the exact worst case 0.12661 is inside."
    lo, up = PldAccountant().compose(sp.ShuffledBinaryRREvent(1000, 1.0)).get_epsilon_bounds(1e-6)
    assert lo == 0.0 and rr_worst_case_delta(up, n=1000, local_epsilon=1.0) <= 1e-6
    assert up <= 1.01*rr_worst_case_epsilon(1e-6, n=1000, local_epsilon=1.0)      # and tight

# ---- every registration is covered
@pytest.mark.parametrize('relation', [REPLACE, ADD])
def test_parallel(relation):
    "ParallelDpEvent of Gaussians σ = 2 and 3 on disjoint parts: the worst child's exact profile, the σ = 2 one."
    check_event(sp.ParallelDpEvent([E.GaussianDpEvent(3.0), E.GaussianDpEvent(2.0)]), lambda e: gauss_delta(0.5, e),
                epsilons=[0.0, 0.4, 1.5], deltas=[1e-3, 1e-6], relation=relation)

def bins_pair_delta(n, p, eps):
    "Balls-into-bins: (N_j + 1, N_k) against (N_j, N_k + 1), N ~ Bin(n, p) independent, both orders (symmetric)."
    B = binom(n, p); b = lambda z: B.get(z, mp.mpf(0)); g = mp.e**mp.mpf(eps)
    return mp.fsum(max(b(j - 1)*b(k) - g*b(j)*b(k - 1), 0) for j in range(n + 2) for k in range(n + 2))

def test_balls_into_bins():
    "BallsIntoBinsEvent (n = 30, μ = 6: a fake ball per bin with p = 0.2): the reduced pair summed in mpmath."
    mp.mp.dps = MP_DPS
    check_event(sp.BallsIntoBinsEvent(30, 6.0), lambda e: bins_pair_delta(30, mp.mpf(6)/30, e),
                epsilons=[0.0, 0.5, 1.5], deltas=[1e-2, 1e-4])

def test_balls_into_bins_uniform():
    "BallsIntoBinsUniformEvent (n = 2, b = 3 bins, s = 3/2 fake balls each): every dataset enumerated exactly."
    from fractions import Fraction
    from helpers_enum import uniform_output                 # the enumeration of the whole protocol, in Fractions
    laws = {x: uniform_output(x, 3, Fraction(3, 2)) for x in itertools.product(range(3), repeat=2)}
    def worst(e):
        P = lambda x: {k: mp.mpf(v.numerator)/v.denominator for k, v in laws[x].items()}
        return max(both(P(x), P((v,) + x[1:]), e) for x in laws for v in range(3) if v != x[0])
    ev = sp.BallsIntoBinsUniformEvent(2, 1.0, num_bins=3)      # s = b μ / n = 3/2
    check_event(ev, worst, epsilons=[0.0, 0.4, 1.2], deltas=[0.3],
                certified=pld_of(ev, 1e-3).lower_certified)

def test_cheu_sum():
    "CheuSumEvent (n = 3, k = 2, r = 1, p = 1/2): every dataset of rounded inputs and every replacement, exactly."
    from fractions import Fraction
    from test_cheu import count_law                     # the law of the count, in Fractions
    laws = {x: count_law(x, 2, 1, Fraction(1, 2))
            for x in itertools.product(range(3), repeat=3)}
    def worst(e):
        P = lambda x: {s: mp.mpf(v.numerator)/v.denominator for s, v in laws[x].items()}
        return max(both(P(x), P((v,) + x[1:]), e) for x in laws for v in range(3) if v != x[0])
    check_event(CheuSumEvent(3, 2, extra_bits=1, probability=0.5), worst, epsilons=[0.0, 0.4, 1.2], deltas=[0.05])


def test_heterogeneous_shuffled_ldp():
    "HeterogeneousShuffledLDPEvent (binary RR, n = 3 at levels 0.5, 2, 2): every neighbouring pair, exactly."
    from shuffle_privacy.mechanisms.shuffled_ldp.heterogeneous import HeterogeneousShuffledLDPEvent
    levels = [mp.mpf(0.5), mp.mpf(2.0), mp.mpf(2.0)]
    def law(xs):                                         # the count of ones among the reports
        out = {0: mp.mpf(1)}
        for x, e in zip(xs, levels):
            r = mp.exp(e)/(mp.exp(e) + 1); p1 = r if x else 1 - r
            new = {}
            for c, w in out.items():
                new[c] = new.get(c, 0) + w*(1 - p1); new[c + 1] = new.get(c + 1, 0) + w*p1
            out = new
        return out
    def worst(e):
        return max(both(law(xs), law(xs[:i] + (1 - xs[i],) + xs[i + 1:]), e)
                   for xs in itertools.product((0, 1), repeat=3) for i in range(3))
    ev = HeterogeneousShuffledLDPEvent((1, 2), (0.5, 2.0), randomizer=sp.randomizers.binary_rr())
    check_event(ev, worst, epsilons=[0.0, 0.4, 1.2], deltas=[0.05], certified=pld_of(ev, 1e-3).lower_certified)

COVERED = {sp.BallsIntoBinsEvent, sp.BallsIntoBinsUniformEvent, sp.ParallelDpEvent, E.GaussianDpEvent, E.LaplaceDpEvent, E.RandomizedResponseDpEvent, E.PoissonSampledDpEvent,
           E.SelfComposedDpEvent, E.ComposedDpEvent, E.NoOpDpEvent, E.NonPrivateDpEvent, sp.ShuffleGaussianEvent,
           sp.SubsampledShuffleGaussianEvent, sp.ShuffledCheckInEvent, sp.P1DEvent, sp.PVECEvent,
           sp.ShuffledLDPEvent, ShuffledKRREvent, ProfileEvent, CheuSumEvent, sp.HeterogeneousShuffledLDPEvent}

def test_every_registration_is_covered():
    "A new `pld_of` registration needs a test in this module (NonPrivateDpEvent raises: it has no PLD)."
    for relation, reg in pld_of.registries.items():
        missing = set(reg.registry) - COVERED - {object}
        assert not missing, (relation, sorted(t.__name__ for t in missing))
