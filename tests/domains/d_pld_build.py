"""Domains of `shuffle_privacy.accounting.pld_build` (see tests/contract_spec.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform

M = 'shuffle_privacy.accounting.pld_build.'

def _ordered(r, kw):
    lo, up = r
    assert np.all(np.asarray(lo) <= np.asarray(up)) and np.all(np.asarray(up) > 0)

def _pmf_ok(r, kw):
    p, i0, pinf = r
    assert (p >= 0).all() and 0 <= pinf <= 1 and abs(p.sum() + pinf - 1) < 1e-6

def _pair_ok(pair, kw):
    lo, up = pair.delta_bounds(0.5)
    assert 0 <= lo <= up <= 1

_mu_eps = st.fixed_dictionaries(dict(mu=log_uniform(1e-3, 20.0), epsilon=st.one_of(st.just(0.0), log_uniform(1e-6, 1e3))))
_bad_mu = (dict(mu=0.0, epsilon=1.0), dict(mu=-1.0, epsilon=1.0), dict(mu=1.0, epsilon=float('nan')))
DOMAINS = {
    M + 'check_interval': Domain(st.fixed_dictionaries(dict(d=log_uniform(1e-7, 1.0))), kind='finite',
                                 check=lambda r, kw: r == kw['d'], invalid=(dict(d=0.0), dict(d=2.0), dict(d=1e-9))),
    M + 'gaussian_log_delta_bounds': Domain(_mu_eps, kind='any', max_examples=10, invalid=_bad_mu,
                                            check=lambda r, kw: np.all(np.asarray(r[0]) <= np.asarray(r[1]))),
    M + 'gaussian_delta_bounds': Domain(_mu_eps, kind='delta', check=_ordered, max_examples=10, invalid=_bad_mu,
                                        nan_params=('mu', 'epsilon')),
    M + 'gaussian_upper_pmf': Domain(st.fixed_dictionaries(dict(mu=log_uniform(0.05, 5.0), d=log_uniform(1e-3, 1e-2))),
                                     kind='any', check=_pmf_ok, max_examples=5, nan_params=('mu', 'd'),
                                     invalid=(dict(mu=0.0, d=1e-3), dict(mu=1.0, d=0.0))),
    M + 'gaussian_lower_pmf': Domain(st.fixed_dictionaries(dict(mu=log_uniform(0.05, 5.0), d=log_uniform(1e-3, 1e-2))),
                                     kind='any', check=_pmf_ok, max_examples=5, nan_params=('mu', 'd'),
                                     invalid=(dict(mu=0.0, d=1e-3), dict(mu=1.0, d=0.0))),
    M + 'gaussian_pair': Domain(st.fixed_dictionaries(dict(sigma=log_uniform(0.2, 20.0), d=log_uniform(1e-3, 1e-2))),
                                kind='object', check=_pair_ok, max_examples=4, nan_params=('sigma', 'd'),
                                invalid=(dict(sigma=-1.0, d=1e-3), dict(sigma=1.0, d=2.0))),
    M + 'dominate': Domain(st.fixed_dictionaries(dict(masses=st.just(np.array([0.5, 0.5])), eta=log_uniform(1e-12, 1e-3),
                                                      upper=st.booleans())), kind='nonneg', nan_params=('eta',),
                           invalid=(dict(masses=np.array([1.0]), eta=-1.0, upper=True),)),
}
EXEMPT = {
    M + 'check_grid_size': 'a size guard on numbers its callers validated (span, d); tested in tests/test_pld.py',
    M + 'FineInterval': 'a float subclass marking a grid the adaptive accountant checked; see check_interval',
    M + 'GridRangeError': 'an exception (a ValueError) raised by check_interval; tested in test_pld_refinement.py',
    M + 'gamma': "Higham's γ_n, a float-error constant of the proofs (kernel, tested in notebook 04a)",
    M + 'fft_eta': 'the FFT error constant of assumption A1 (kernel; tested against an 80-bit DFT in notebook 04a)',
    M + 'rounded_pmf': 'array kernel: rounds (loss, mass) arrays onto a grid; its callers validate; tested in 04a',
    M + 'spread_pmf': 'array kernel: spreads (loss, mass) arrays onto a grid; its callers validate; tested in 04a',
    M + 'contract_pmf': 'array kernel: contracts (loss, mass) arrays onto a grid; its callers validate; tested in 04a',
    M + 'Factor': 'a record (PMF, grid index, mass at +inf, count); exercised by test_pld_certified.py',
    M + 'log_mgf': 'kernel on a Factor (log-sum-exp); tested in notebook 04a',
    M + 'tilt': 'kernel on a Factor; tested through Tilted against an exact mpmath convolution',
    M + 'saddle': 'bisection kernel on Factors (only tightness depends on it); tested in notebook 04a',
    M + 'spectrum_power': 'binary powering of an array; tested in notebook 04a',
    M + 'Tilted': 'class; certified ends tested against exact mpmath convolutions (tests/test_pld_certified.py)',
    M + 'PldPair': 'class; its bounds are tested against exact Gaussian composition (tests/test_pld_certified.py)',
    M + 'pair_from_pmfs': 'builds a PldPair from PMF arrays whose dominance the caller proves; tested via gaussian_pair',
    M + 'U': 'a constant', M + 'KAPPA_FFT': 'a constant', M + 'K_ERFCX': 'a constant', M + 'GL_K': 'a constant',
    M + 'GL_C': 'a constant',
}
