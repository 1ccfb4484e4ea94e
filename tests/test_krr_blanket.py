"""Shuffled k-RR: the exact blanket pair (notebook 18) against independent references, and the lower bound that
refutes Wang et al.'s structured k-RR numbers."""
import itertools, json, math, pathlib
import mpmath as mp
import numpy as np
import pytest
import shuffle_privacy as sp
from shuffle_privacy.mechanisms.shuffled_ldp.randomizers import (krr_blanket_pair_pld, krr_dataset_delta, k_rr,
                                                                 krr_pair_pld, vr_pair_pld)
from shuffle_privacy.mechanisms.shuffled_ldp.pld import fmt21_pair_pld

def balle_delta_mp(eps, n, k, e0):
    "Balle et al. 2019, Theorem 3.1, for k-RR: (1/(nγ)) E[(Σ Z_j)_+] by exact multinomial enumeration in mpmath."
    mp.mp.dps = 40
    E, Ee = mp.e**e0, mp.e**eps
    g = k/(E + k - 1)
    vals = [g*(E - Ee), g*(1 - Ee*E), g*(1 - Ee)]
    prs = [g/k, g/k, g*(k - 2)/k, 1 - g]
    tot = mp.mpf(0)
    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c in range(n + 1 - a - b):
                s = vals[0]*a + vals[1]*b + vals[2]*c
                if s <= 0: continue
                z = n - a - b - c
                w = mp.factorial(n)/(mp.factorial(a)*mp.factorial(b)*mp.factorial(c)*mp.factorial(z))
                tot += w*prs[0]**a*prs[1]**b*prs[2]**c*prs[3]**z*s
    return float(tot/(n*g))

@pytest.mark.parametrize('n,k,e0', [(6, 3, 1.0), (9, 5, 2.0), (12, 4, 0.5)])
def test_blanket_pair_brackets_balle_formula(n, k, e0):
    pr = krr_blanket_pair_pld(n, k, e0, value_discretization_interval=1e-5)
    for eps in (0.05, 0.3, 0.8):
        ref = balle_delta_mp(eps, n, k, e0)
        lo, up = pr.delta_bounds(eps)
        assert lo <= ref*(1 + 1e-12) + 1e-15 and ref <= up*(1 + 1e-12) + 1e-15, (eps, lo, ref, up)
        assert up - lo <= 0.02*ref + 1e-9                     # tight: the pair is computed, not bounded loosely

from helpers_enum import shuffled_law as _shuffled_law

@pytest.mark.parametrize('k,e0', [(3, 1.0), (4, 2.5)])
def test_blanket_upper_end_dominates_every_dataset(k, e0):
    "The blanket's upper δ is above the exact δ of every neighbouring pair of shuffled k-RR at n = 4."
    E = math.exp(e0); Z = E + k - 1
    R = [[E/Z if y == x else 1/Z for y in range(k)] for x in range(k)]
    n = 4
    pr = krr_blanket_pair_pld(n, k, e0, value_discretization_interval=1e-4)
    for others in itertools.combinations_with_replacement(range(k), n - 1):
        P, Q = _shuffled_law(R, (0,) + others), _shuffled_law(R, (1,) + others)
        for eps in (0.0, 0.4, 1.0):
            ex = sum(max(0.0, w - math.exp(eps)*Q.get(h, 0.0)) for h, w in P.items())
            assert ex <= pr.delta_bounds(eps)[1]*(1 + 1e-9) + 1e-15

@pytest.mark.parametrize('n,k,e0', [(100, 3, 2.0), (10**4, 50, 0.5),
                                    pytest.param(10**4, 10, 6.0, marks=pytest.mark.slow)])
def test_blanket_is_tighter_than_the_other_certified_pairs(n, k, e0):
    b = krr_blanket_pair_pld(n, k, e0).epsilon_bounds(1e-6)[1]
    assert b <= fmt21_pair_pld(n, e0).epsilon_bounds(1e-6)[1] + 1e-9
    assert b <= vr_pair_pld(n, *k_rr(k).variation_ratio(e0), flag='revealed').epsilon_bounds(1e-6)[1] + 1e-9

def test_blanket_non_increasing_in_n():
    es = [krr_blanket_pair_pld(n, 5, 1.0).epsilon_bounds(1e-6)[1] for n in (50, 51, 200)]
    assert all(a >= b - 2e-4 for a, b in zip(es, es[1:])), es     # more users: a post-processing (grid slack 2d)

def test_event_uses_the_blanket_pair():
    acc = sp.PldAccountant(value_discretization_interval=1e-4)
    acc.compose(sp.ShuffledLDPEvent(200, 2.0, randomizer=sp.randomizers.k_rr(10)))
    e = acc.get_epsilon(1e-6)
    lo, up = krr_blanket_pair_pld(200, 10, 2.0).epsilon_bounds(1e-6)
    assert e <= up + 1e-9 and e >= 0.98*lo

def brute_dataset_delta(n, k, e0, eps):
    E = math.exp(e0); Z = E + k - 1
    R = [[E/Z if y == x else 1/Z for y in range(k)] for x in range(k)]
    P, Q = _shuffled_law(R, (0,) + (2,)*(n - 1)), _shuffled_law(R, (1,) + (2,)*(n - 1))
    return sum(max(0.0, w - math.exp(eps)*Q.get(h, 0.0)) for h, w in P.items())

@pytest.mark.parametrize('n,k,e0,eps', [(5, 4, 2.0, 0.7), (6, 3, 1.0, 0.2), (5, 6, 3.0, 2.0), (7, 5, 0.5, 0.05)])
def test_dataset_delta_is_exact_lower_bound(n, k, e0, eps):
    ref, lb = brute_dataset_delta(n, k, e0, eps), krr_dataset_delta(eps, n, k, e0)
    assert ref*(1 - 1e-8) - 1e-15 <= lb <= ref

def test_dataset_delta_below_blanket_upper():
    for n, e0 in ((300, 1.0), (400, 4.0)):
        pr = krr_blanket_pair_pld(n, 10, e0)
        for eps in (0.1, 0.5, 1.5):
            assert krr_dataset_delta(eps, n, 10, e0) <= pr.delta_bounds(eps)[1]

def test_wang_krr_numbers_refuted():
    "Every stored k-RR row of Wang et al. at n = 1000 claims a δ below the exact δ of one neighbouring pair."
    path = pathlib.Path(__file__).parents[1]/'nbs'/'data'/'wang_vldb24_reference.json'
    rows = [r for r in json.loads(path.read_text())['rows'] if r['randomizer'] == 'k_rr' and r['n'] == 1000]
    assert len(rows) == 10
    for r in rows:
        assert krr_dataset_delta(r['eps_ub'], 1000, r['options']['k'], r['local_epsilon']) > r['delta']

@pytest.mark.parametrize('kw,name', [(dict(n=0), 'n'), (dict(k=1), 'k'), (dict(local_epsilon=9.0), 'local_epsilon'),
                                     (dict(local_epsilon=0.0), 'local_epsilon'), (dict(rel_block=0.0), 'rel_block'),
                                     (dict(n=10**13), 'n'), (dict(value_discretization_interval=0.0), 'value')])
def test_blanket_bad_inputs(kw, name):
    args = dict(n=10, k=3, local_epsilon=1.0) | kw
    with pytest.raises(ValueError, match=name):
        krr_blanket_pair_pld(**args)

@pytest.mark.parametrize('kw,name', [(dict(n=1), 'n'), (dict(k=2), 'k'), (dict(epsilon=-1.0), 'epsilon'),
                                     (dict(local_epsilon=51.0), 'local_epsilon'), (dict(n=10**8), 'n')])
def test_dataset_delta_bad_inputs(kw, name):
    args = dict(epsilon=0.1, n=10, k=3, local_epsilon=1.0) | kw
    with pytest.raises(ValueError, match=name):
        krr_dataset_delta(**args)

def test_epsilon_bounds_tight_near_the_top_of_the_support():
    "ε(δ) close to ε0: the first tilt is no longer placed at the top of the support (it gave upper 7.997 here)."
    lo, up = krr_blanket_pair_pld(10**4, 10, 8.0).epsilon_bounds(1e-8)
    assert up - lo <= 3e-4 and up < 7.3, (lo, up)

def test_epsilon_bounds_refuses_delta_zero():
    with pytest.raises(ValueError, match='delta'):
        krr_blanket_pair_pld(10, 3, 1.0).epsilon_bounds(0.0)

@pytest.mark.parametrize('n,k,e0', [(8, 3, 1.0), (300, 10, 2.0), pytest.param(2000, 4, 0.7, marks=pytest.mark.slow)])
def test_pair_lower_end_is_below_one_actual_pair(n, k, e0):
    "krr_pair_pld's lower end is the (a, b) view of one actual pair: below that pair's exact δ."
    pr = krr_pair_pld(n, k, e0)
    assert pr.lower_certified
    for eps in (0.02, 0.1, 0.4):
        lo, up = pr.delta_bounds(eps)
        ex = krr_dataset_delta(eps, n, k, e0)
        assert lo <= ex*(1 + 1e-12) + 1e-300 and ex <= up*(1 + 1e-9) + 1e-15, (eps, lo, ex, up)
    lo, up = pr.epsilon_bounds(1e-6)
    assert 0 < lo <= up

def test_pair_upper_end_is_the_blanket():
    a, b = krr_pair_pld(200, 5, 1.5), krr_blanket_pair_pld(200, 5, 1.5)
    for eps in (0.05, 0.3):
        assert math.isclose(a.delta_bounds(eps)[1], b.delta_bounds(eps)[1], rel_tol=1e-9)

@pytest.mark.parametrize('kw,name', [(dict(n=1), 'n'), (dict(k=2), 'k'), (dict(local_epsilon=8.5), 'local_epsilon')])
def test_pair_bad_inputs(kw, name):
    with pytest.raises(ValueError, match=name):
        krr_pair_pld(**(dict(n=10, k=3, local_epsilon=1.0) | kw))
