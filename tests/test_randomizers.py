"""Issue 21: randomizer descriptors — β and p against brute-force TV of explicit tables, validation, stored
β of Wang et al.'s code, and the variation-ratio pair PLD against exact enumeration."""
import itertools, json, math
from pathlib import Path
import numpy as np
import pytest
from scipy import stats
import shuffle_privacy as sp
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R

DATA = Path(__file__).parent/'data'/'wang_reference.json'

def params(rows):
    "(max ratio, max TV) over pairs of rows of an explicit table."
    rows = [np.asarray(r, float) for r in rows]
    p = max(float(np.max(a/b)) for a, b in itertools.permutations(rows, 2))
    return p, max(0.5*float(np.abs(a - b).sum()) for a, b in itertools.combinations(rows, 2))

def norm(rows): return [np.asarray(r, float)/np.sum(r) for r in rows]

@pytest.mark.parametrize('e0', [0.3, 1.0, 3.0, 9.0])
def test_beta_and_ratio_against_tables(e0):
    E = math.exp(e0)
    cases = [(R.k_rr(5), norm([[E if y == x else 1 for y in range(5)] for x in range(5)])),
             (R.binary_rr(), norm([[E, 1], [1, E]])), (R.local_hash(4),
                                                       norm([[E if y == x else 1 for y in range(4)] for x in range(2)]))]
    S = list(itertools.combinations(range(6), 2))
    cases.append((R.subset_selection(6, 2), norm([[E if x in s else 1 for s in S] for x in range(6)])))
    from scipy.linalg import hadamard
    H = hadamard(16)[1:]
    cases.append((R.hadamard_response(16, 8), norm(np.where(H > 0, E, 1.0))))
    cases.append((R.hadamard_response(12, 3, disjoint=True),
                  norm([[E if 3*x <= y < 3*x + 3 else 1 for y in range(12)] for x in range(4)])))
    for opt in (False, True):
        a, b = (0.5, 1/(E + 1)) if opt else (1/(1 + math.exp(-e0/2)), 1/(math.exp(e0/2) + 1))
        V = list(itertools.product([0, 1], repeat=3))
        rows = [[np.prod([(a if j == x else b) if v[j] else 1 - (a if j == x else b) for j in range(3)]) for v in V] for x in range(3)]
        cases.append((R.optimized_unary_encoding() if opt else R.unary_encoding(), rows))
    for rz, rows in cases:
        p, tv = params(rows)
        v = rz.variation_ratio(e0)
        assert math.isclose(v.beta, tv, rel_tol=1e-12), (rz, v.beta, tv)
        assert p <= v.p*(1 + 1e-12) and v.p == v.q == E
        if rz.uniform_pairs():          # every pair has the same TV
            tvs = [0.5*float(np.abs(np.asarray(a) - np.asarray(b)).sum()) for a, b in itertools.combinations(rows, 2)]
            assert max(tvs) - min(tvs) < 1e-12, rz

@pytest.mark.parametrize('e0', [0.5, 2.0])
def test_laplace_and_piecewise_by_quadrature(e0):
    from scipy import integrate
    b = 1/e0
    tv = 0.5*integrate.quad(lambda y: abs(math.exp(-abs(y)/b) - math.exp(-abs(y - 1)/b))/(2*b), -60, 61, points=[0, 1],
                            epsabs=1e-14, limit=200)[0]
    assert math.isclose(R.laplace().variation_ratio(e0).beta, tv, rel_tol=1e-9)
    # piecewise (Wang et al. ICDE 2019): density p on [l(t), r(t)], p/e^ε0 elsewhere on [-C, C]; t = ±1 bands disjoint
    h = math.exp(e0/2); C = (h + 1)/(h - 1); hi = h*(h - 1)/(2*(h + 1)); lo = hi/math.exp(e0)
    dens = lambda t: (lambda y: hi if (C + 1)/2*t - (C - 1)/2 <= y <= (C + 1)/2*t + (C - 1)/2 else lo)
    assert math.isclose(2*C*lo + (C - 1)*(hi - lo), 1.0, rel_tol=1e-12)      # a density
    tv = 0.5*integrate.quad(lambda y: abs(dens(1)(y) - dens(-1)(y)), -C, C, points=[-1, 1], limit=200)[0]
    assert math.isclose(R.piecewise().variation_ratio(e0).beta, tv, rel_tol=1e-8)

def test_wang_code_beta_stored():
    "The β their code (computeUBParameters) used, stored with provenance, equals ours for every held row."
    data = json.loads(DATA.read_text())
    assert 'commit' in data['provenance'] and len(data['rows']) >= 12
    make = {'generic': lambda o: R.generic(), 'k_rr': lambda o: R.k_rr(o['k']), 'laplace': lambda o: R.laplace(),
            'subset_selection': lambda o: R.subset_selection(o['d'],
                                                             o['k']), 'local_hash': lambda o: R.local_hash(o['l']),
            'hadamard_response': lambda o: R.hadamard_response(o['K'],
                                                               o['s']), 'unary_encoding': lambda o: R.unary_encoding(),
            'collision': lambda o: None}
    for r in data['rows']:
        rz = make[r['randomizer']](r['options'])
        if rz is None: continue
        v = rz.variation_ratio(r['local_epsilon'])
        assert math.isclose(v.beta, r['beta'], rel_tol=1e-12) and math.isclose(v.p, r['p'], rel_tol=1e-14), r

@pytest.mark.parametrize('call,name', [
    (lambda: R.k_rr(1), 'k'), (lambda: R.subset_selection(5, 0), 'k'), (lambda: R.subset_selection(5, 5), 'k'),
    (lambda: R.subset_selection(1, 1), 'd'), (lambda: R.local_hash(1), 'l'), (lambda: R.hadamard_response(8, 8), 's'),
    (lambda: R.hadamard_response(1, 1), 'K'), (lambda: R.hadamard_response(8, 5, disjoint=True), 's'),
    (lambda: R.collision(3, 3), 'l'), (lambda: R.collision(0, 3), 's'),
    (lambda: R.generic().variation_ratio(0.0), 'local_epsilon'), (lambda: R.generic().variation_ratio(math.nan),
                                                                  'local_epsilon'),
    (lambda: R.vr_parameters(2.0, 0.5, 2.0), 'beta'), (lambda: R.vr_parameters(0.5, 0.1, 2.0), 'p'),
    (lambda: R.vr_pair_pld(10, 2.0, 0.2, 2.0, flag='x'), 'flag'), (lambda: R.vr_pair_pld(0, 2.0, 0.2, 2.0), 'n'),
    (lambda: R.vr_pair_pld(10, 2.0, 0.2, 2.0, value_discretization_interval=3.0), 'value_discretization_interval'),
    (lambda: R.binom_tail_bound(10, 1.5, lo=0, hi=10), 'pi'),
])
def test_bad_inputs_name_the_parameter(call, name):
    with pytest.raises((ValueError, TypeError), match=name): call()

def test_huge_alphabet_and_epsilon_stay_finite():
    for rz in (R.k_rr(10**9), R.subset_selection(10**6, 3), R.collision(10**6, 10**6 + 1), R.hadamard_response(2**20, 2**19)):
        for e0 in (1e-3, 700.0):
            b = rz.variation_ratio(e0).beta
            assert 0 < b <= math.tanh(e0/2) and math.isfinite(b)

def trinomial_pair(n, p, beta, q, flag):
    al, r, g = R.vr_parameters(p, beta, q)
    M = np.zeros((n, n))
    for i in range(n):
        for j in range(n - i): M[i, j] = stats.multinomial.pmf([i, j, n - 1 - i - j], n - 1, [r, r, 1 - 2*r])
    def law(w):
        out = np.zeros((n + 1, n + 1)); out[1:, :n] += w[0]*M; out[:n, 1:] += w[1]*M
        if flag == 'revealed': return np.concatenate([out.ravel(), (w[2]*M).ravel()])
        out[:n, :n] += w[2]*M; return out.ravel()
    return law([p*al, al, g]), law([al, p*al, g])

@pytest.mark.parametrize('n', [1, 2, 7, 30])
@pytest.mark.parametrize('rz,e0', [(R.k_rr(3), 1.0), (R.generic(), 2.0), (R.unary_encoding(), 3.0)])
@pytest.mark.parametrize('flag', ['hidden', 'revealed'])
def test_vr_pair_brackets_enumeration(n, rz, e0, flag):
    v = rz.variation_ratio(e0)
    P, Q = trinomial_pair(n, *v, flag)
    pair = R.vr_pair_pld(n, *v, flag=flag)
    assert pair.lower_certified is False
    for eps in (0.0, 0.1, 0.5, 0.9*e0):
        ex = max(np.maximum(P - math.exp(eps)*Q, 0).sum(), np.maximum(Q - math.exp(eps)*P, 0).sum())
        lo, up = pair.delta_bounds(eps)
        assert lo <= ex*(1 + 1e-9) + 1e-15 and ex <= up, (eps, lo, ex, up)
        assert math.isclose(R.vr_delta(eps, n, *v, flag=flag), ex, rel_tol=1e-9, abs_tol=1e-15)

def test_binom_tail_bound_is_an_upper_bound():
    for N, pi, lo, hi in [(100, 0.3, 10, 50), (10**6, 1e-3, 850, 1150), (50, 0.5, 0, 30), (1000, 0.9, 850, 1000)]:
        exact = stats.binom.cdf(lo - 1, N, pi) + stats.binom.sf(hi, N, pi)
        assert exact <= R.binom_tail_bound(N, pi, lo=lo, hi=hi) <= 1.0

def test_top_level_namespace():
    assert sp.randomizers.k_rr(3) == R.k_rr(3)

def test_binomial_terms_accurate_at_a_trillion_trials():
    "The pair's binomial terms (boost) against mpmath-anchored log masses at n = 1e9..1e12 (bdtr was NaN above 2^31)."
    from shuffle_privacy.mechanisms.shuffled_ldp.multi_message import certified_log_masses
    for c in (10**9, 3*10**9, 10**12):
        w = min(int(2*c**0.5), 300_000)
        lo, hi = c//2 - w, c//2 + w//2
        lb, eta = certified_log_masses(c, 0.5, lo + 1, hi)          # an mpmath anchor and an exact-ratio recursion
        ref = math.fsum(np.exp(lb))
        got = float(R._interval_mass(np.array([c]), np.array([lo]), np.array([hi]))[0])
        assert abs(got - ref) <= 1e-12 + 2*eta*ref, (c, got, ref)
        k = c//2 + 7
        assert abs(float(R._logpmf(k, c, 0.5)) - float(lb[k - lo - 1])) <= 1e-11

@pytest.mark.parametrize('n', [10**10, pytest.param(10**12, marks=pytest.mark.slow)])
def test_pair_keeps_its_mass_at_huge_n(n):
    "Above ~3e9 users the pair once lost all its mass (NaN cdfs dropped) and reported ε = 0."
    p, b, q = R.binary_rr().variation_ratio(1.0)
    pr = R.vr_pair_pld(n, p, b, q, flag='revealed', value_discretization_interval=1e-6)
    assert 1.0 <= pr.factors[0][0][0].p.sum() <= 1.0 + 1e-9 + 4*R._pmf_slack(n)   # boost's error, allowed (above)
    lo, up = pr.epsilon_bounds(1e-8)
    assert 0 < lo <= up and up < 0.4*math.sqrt(1e9/n)          # ε ~ 1/sqrt(n): 1.25e-4 at n = 1e9
