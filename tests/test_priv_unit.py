"""PrivUnit (Bhowmick et al. 2018) as a shuffled-LDP randomizer: the cap mass against mpmath quadrature and Monte
Carlo, the blanket mass and β against numeric integrals over a discretised sphere, the certified event interval
(lower end one actual pair, checked by enumeration) below the generic pair, and bad inputs."""
import itertools, math
import mpmath
import numpy as np
import pytest
import shuffle_privacy as sp
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R
from shuffle_privacy.mechanisms.shuffled_ldp.pld import randomizer_pld, generic_pair_pld

CASES = [(2, 0.5, 1.0), (3, 0.3, 2.0), (5, 0.0, 1.5), (20, 0.8, 4.0), (200, 1.0, 0.5), (1000, 0.5, 8.0)]

def cap_mass_quad(t, d):
    "σ({v: <v, u> >= t}) on S^{d-1}: the law of <V, u> has density ∝ (1 - s²)^{(d-3)/2} on [-1, 1] (mpmath)."
    mpmath.mp.dps = 30
    f = lambda s: (1 - s*s)**(mpmath.mpf(d - 3)/2)
    return float(mpmath.quad(f, [t, 1])/mpmath.quad(f, [-1, 0, 1]))

@pytest.mark.parametrize('d,c,e0', CASES)
def test_cap_mass_against_quadrature(d, c, e0):
    "The threshold t of cap_threshold gives the cap mass C = 1/(1 + e^{cε0}) the closed forms use."
    t = R.priv_unit(d, cap_share=c).cap_threshold(e0)
    assert 0.0 <= t <= 1.0
    assert cap_mass_quad(t, d) == pytest.approx(1/(1 + math.exp(c*e0)), rel=1e-9, abs=1e-15)

def test_cap_mass_monte_carlo_d3():
    "Uniform points on S²: the fraction in the cap is C within 5 standard errors."
    rng = np.random.default_rng(21)
    v = rng.standard_normal((400_000, 3)); v /= np.linalg.norm(v, axis=1, keepdims=True)
    for c, e0 in ((0.5, 1.0), (0.7, 3.0)):
        C = 1/(1 + math.exp(c*e0)); t = R.priv_unit(3, cap_share=c).cap_threshold(e0)
        frac = float(np.mean(v[:, 0] >= t))
        assert abs(frac - C) <= 5*math.sqrt(C*(1 - C)/len(v))

def circle(d_theta_in, t, p0, N=20000):
    "PrivUnit on the circle (d = 2) from its definition: output grid, densities w.r.t. σ of inputs at given angles."
    th = (np.arange(N) + 0.5)*2*np.pi/N
    def dens(a):
        inside = np.cos(th - a) >= t; C = float(np.mean(inside))    # the cap's σ-mass, read off the grid
        return np.where(inside, p0/C, (1 - p0)/(1 - C))
    return th, np.array([dens(a) for a in d_theta_in])

@pytest.mark.parametrize('c,e0', [(0.5, 1.0), (0.2, 2.5), (0.9, 4.0)])
def test_blanket_and_beta_on_the_circle(c, e0):
    "d = 2: inf over 360 inputs of the density, integrated, is γ; TV of antipodal inputs is β, others smaller."
    pu = R.priv_unit(2, cap_share=c)
    t, p0 = pu.cap_threshold(e0), pu.cap_probability(e0)
    ins = np.arange(360)*2*np.pi/360
    _, dens = circle(ins, t, p0)
    assert float(np.mean(dens.min(0))) == pytest.approx(pu.blanket_gamma(e0), rel=2e-3)
    tv = lambda i, j: 0.5*float(np.mean(np.abs(dens[i] - dens[j])))
    beta = pu.variation_ratio(e0).beta
    assert tv(0, 180) == pytest.approx(beta, rel=2e-3)
    for j in (10, 45, 90, 150):                            # smaller angles: overlapping caps, smaller TV
        assert tv(0, j) <= beta*(1 + 2e-3)
    assert float(np.max(dens.max(0)/dens.min(0))) == pytest.approx(math.exp(e0), rel=2e-3)   # ε0-LDP, tight

def test_beta_on_the_sphere_d3():
    "d = 3 on an equal-area grid (z uniform, by Archimedes): antipodal TV = β, a pair at 60 degrees smaller."
    pu, e0 = R.priv_unit(3, cap_share=0.4), 2.0
    t, p0 = pu.cap_threshold(e0), pu.cap_probability(e0)
    z = (np.arange(1200) + 0.5)/600 - 1; ph = (np.arange(1200) + 0.5)*2*np.pi/1200
    Z, PH = np.meshgrid(z, ph, indexing='ij'); r = np.sqrt(1 - Z**2)
    V = np.stack([r*np.cos(PH), r*np.sin(PH), Z], -1)
    def dens(u):
        inside = V @ np.asarray(u) >= t; C = float(np.mean(inside))
        return np.where(inside, p0/C, (1 - p0)/(1 - C))
    x, x60 = np.array([0, 0, 1.0]), np.array([math.sin(math.pi/3), 0, math.cos(math.pi/3)])
    tv = lambda u, w: 0.5*float(np.mean(np.abs(dens(u) - dens(w))))
    beta = pu.variation_ratio(e0).beta
    assert tv(x, -x) == pytest.approx(beta, rel=3e-3)
    assert tv(x, x60) < beta
    assert float(np.mean(np.minimum(dens(x), dens(-x)))) == pytest.approx(pu.blanket_gamma(e0), rel=3e-3)

def test_closed_forms_ends_and_bounds():
    "β <= tanh(ε0/2), equal only at cap_share = 0 (binary RR's γ too); cap_share = 1: p0 = 1/2."
    for d, c, e0 in CASES:
        pu = R.priv_unit(d, cap_share=c)
        assert 0 < pu.variation_ratio(e0).beta <= math.tanh(e0/2)
        assert pu.tv_is_extremal(e0) == (c == 0.0)
    assert R.priv_unit(7, cap_share=0.0).blanket_gamma(1.7) == pytest.approx(R.binary_rr().blanket_gamma(1.7), rel=1e-14)
    assert R.priv_unit(7, cap_share=1.0).cap_probability(3.0) == 0.5
    assert R.priv_unit(7).blanket_gamma(2.2) == pytest.approx(math.exp(-1.1), rel=1e-14)
    for e0 in (1e-3, 50.0, 700.0):                         # finite at the ends of the ε0 range
        for c in (0.0, 0.5, 1.0):
            pu = R.priv_unit(10, cap_share=c)
            assert 0 < pu.blanket_gamma(e0) <= 1 and 0 < pu.variation_ratio(e0).beta <= 1
            assert 0.0 <= pu.cap_threshold(e0) <= 1.0

def three_class_hist(n, Rv, Rs):
    "Exact law of the class counts (h0, h1) of n reports: the victim's row Rv, n-1 others' row Rs (3 classes)."
    law = np.zeros((n + 1, n + 1)); law[0, 0] = 1.0
    for row in [Rs]*(n - 1) + [Rv]:
        out = row[2]*law
        out[1:, :] += row[0]*law[:-1, :]; out[:, 1:] += row[1]*law[:, :-1]
        law = out
    return law.ravel()

def test_lower_end_against_enumeration():
    "n = 5: the event's certified lower δ is at most the exact δ of the antipodal pair with the others at -x."
    pu, e0, n = R.priv_unit(30, cap_share=0.6), 2.0, 5
    g = pu.blanket_gamma(e0); C = 1/(1 + math.exp(0.6*e0)); p0 = pu.cap_probability(e0)
    Tx, Tm = np.array([p0, g*C, g*(1 - 2*C)]), np.array([g*C, p0, g*(1 - 2*C)])
    P, Q = three_class_hist(n, Tx, Tm), three_class_hist(n, Tm, Tm)
    pr = randomizer_pld(n, e0, pu, value_discretization_interval=1e-3)
    assert pr.lower_certified
    for eps in (0.0, 0.2, 0.8, 1.5):
        ex = max(np.maximum(P - math.exp(eps)*Q, 0).sum(), np.maximum(Q - math.exp(eps)*P, 0).sum())
        lo, up = pr.delta_bounds(eps)
        assert lo <= ex*(1 + 1e-9) <= up + 1e-12
        assert lo >= 0.97*ex - 2e-3                          # within the grid's rounding

@pytest.mark.parametrize('n,e0', [(1000, 1.0), (10**4, 4.0)])
def test_event_interval_below_generic(n, e0):
    "The event's interval is ordered, certified, and its upper end at most the generic (stronger clone) pair's."
    pu = sp.randomizers.priv_unit(1000)
    pr = randomizer_pld(n, e0, pu)
    lo, up = pr.epsilon_bounds(1e-8)
    assert pr.lower_certified and 0 < lo <= up
    assert up <= generic_pair_pld(n, e0).epsilon_bounds(1e-8)[1] + 1e-9

@pytest.mark.slow
def test_event_through_the_accountant():
    "sp.ShuffledLDPEvent with sp.randomizers.priv_unit composes in PldAccountant (about 5 s: its grid refinement)."
    pu, n, e0 = sp.randomizers.priv_unit(1000), 1000, 1.0
    up = randomizer_pld(n, e0, pu).epsilon_bounds(1e-8)[1]
    acc = sp.PldAccountant().compose(sp.ShuffledLDPEvent(n, e0, randomizer=pu))
    assert acc.get_epsilon(1e-8) == pytest.approx(up, rel=2e-3)

def test_merged_view_is_below_the_exact_one(monkeypatch):
    "Above _MAX_PU_CELLS the merged view serves: a post-processing, so its δ is at most the exact view's."
    pu, e0, n = R.priv_unit(50), 1.5, 3000
    up = R.corner_blanket_pair_pld(n, e0, pu.blanket_gamma(e0))
    full = R.with_dataset_lower(up, n, pu, e0)
    monkeypatch.setattr(R, '_MAX_PU_CELLS', n + 1)             # the (h0, h1) cells do not fit, one h0 row does
    merged = R.with_dataset_lower(up, n, pu, e0)
    assert merged.lower_certified
    for eps in (0.05, 0.2):
        assert 0 < merged.delta_bounds(eps)[0] <= full.delta_bounds(eps)[0]
    monkeypatch.setattr(R, '_MAX_PU_CELLS', 0)             # not even the merged one fits: the lower end stays
    assert R.with_dataset_lower(up, n, pu, e0).lower_certified is False

@pytest.mark.parametrize('kw,name', [(dict(d=1), 'd'), (dict(d=2.5), 'd'), (dict(d=10**10), 'd'),
                                     (dict(d=3, cap_share=1.5), 'cap_share'), (dict(d=3, cap_share=-0.1), 'cap_share'),
                                     (dict(d=3, cap_share=float('nan')), 'cap_share')])
def test_bad_inputs(kw, name):
    with pytest.raises(ValueError, match=name):
        R.priv_unit(kw.pop('d'), **kw)

def test_bad_epsilon():
    for e in (0.0, -1.0, 701.0):
        with pytest.raises(ValueError, match='local_epsilon'): R.priv_unit(3).cap_threshold(e)
        with pytest.raises(ValueError, match='local_epsilon'): R.priv_unit(3).variation_ratio(e)

@pytest.mark.parametrize('d', [1000, 10**6])
@pytest.mark.parametrize('ec', [16.0, 30.0, 40.0, 300.0])
def test_cap_threshold_keeps_c_accurate_at_large_cap_epsilon(d, ec):
    "t from cap_threshold gives the cap mass 1/(1 + e^{cε0}) to 1e-9 relative (mpmath), also where 1 - 2C rounds to 1."
    import mpmath as mp
    mp.mp.dps = 60
    t = R.priv_unit(d, cap_share=1.0).cap_threshold(ec)
    C = mp.betainc(mp.mpf(d - 1)/2, 0.5, 0, 1 - mp.mpf(t)**2, regularized=True)/2
    assert abs(float(C*(1 + mp.e**ec)) - 1) < 1e-9

@pytest.mark.parametrize('e0', [1e-6, 1e-5])
def test_tiny_local_epsilon_through_randomizer_pld(e0):
    "p = e^ε0 rounds: the variation-ratio bound on β allows it (was a ValueError for ε0 <= 1e-5)."
    for rz in (None, R.priv_unit(7), R.laplace()):
        lo, up = randomizer_pld(1000, e0, rz).epsilon_bounds(1e-6)
        assert 0.0 <= lo <= up < 1e-3

def test_with_dataset_lower_refuses_a_huge_loss_grid():
    "A pair on a grid of 1e-7 at ε0 = 8: the lower end's loss grid (1.6e8 points) is refused before any work."
    from shuffle_privacy.accounting.pld_build import pair_from_pmfs
    pair = pair_from_pmfs([(np.ones(1), 0, 0.0)], [(np.ones(1), 0, 0.0)], d=1e-7)   # any pair on that grid
    with pytest.raises(R.ResourceLimitError, match='value_discretization_interval'):
        R.with_dataset_lower(pair, 5, R.laplace(), 8.0)
