"""Domains of `shuffle_privacy.studies.shuffle_gaussian_soundness` (see tests/contract_spec.py).

Quadrature and Monte Carlo: the quick run keeps sizes small. The reverse-direction quadrature is declared on
σ in [0.5, 1e6], n <= 1e4 to keep the run short; at n = 1e6, σ = 1e20 it once returned 3e13, and is now capped by
the Gaussian RDP λ/(2σ²) (1e-40 at λ = 2 there; tests/test_contract_regressions.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, orders

M = 'shuffle_privacy.studies.shuffle_gaussian_soundness.'
iorders = lambda hi=16: st.lists(ints(2, hi), min_size=1, max_size=4).map(lambda v: np.array(sorted(v)))
pair = st.tuples(log_uniform(1e-3, 1e3), log_uniform(1e-3, 1e3))

DOMAINS = {
    M + 'shuffle_gaussian_rdp_reverse': Domain(
        st.fixed_dictionaries(dict(orders=orders(1.0 + 1e-6, 16.0, 4), n=ints(1, 10**4), sigma=log_uniform(0.5, 1e6))),
        kind='rdp', max_examples=10,
        invalid=(dict(orders=[1.0], n=3, sigma=1.0), dict(orders=[2.0], n=0, sigma=1.0),
                 dict(orders=[2.0], n=3, sigma=0.0))),
    M + 'shuffle_gaussian_rdp_both_directions': Domain(
        st.fixed_dictionaries(dict(orders=iorders(), n=ints(1, 10**4), sigma=log_uniform(0.5, 1e6))),
        kind='rdp', max_examples=10,
        invalid=(dict(orders=[1], n=3, sigma=1.0), dict(orders=[2], n=0, sigma=1.0))),
    M + 'shuffled_gaussian_renyi_grid2': Domain(
        st.fixed_dictionaries(dict(D=st.just([0.0, 0.0]), D_prime=st.just([1.0, 0.0]), sigma=log_uniform(0.3, 1e20),
                                   orders=orders(1.0 + 1e-3, 8.0, 3), points=st.just(101))),
        kind='nonneg', max_examples=8, nan_params=('sigma',),
        invalid=(dict(D=[0.0], D_prime=[1.0], sigma=1.0, orders=[2.0]),
                 dict(D=[0.0, 0.0], D_prime=[1.0, 0.0], sigma=0.0, orders=[2.0]))),
    M + 'shuffled_gaussian_renyi_mc': Domain(
        st.fixed_dictionaries(dict(D=st.just([0.0, 0.0, 0.0]), D_prime=st.just([1.0, 0.0, 0.0]),
                                   sigma=log_uniform(0.5, 1e20), order=log_uniform(1.01, 4.0), samples=st.just(2000),
                                   rng=st.one_of(st.none(), st.integers(0, 2**31)))),
        kind='any', max_examples=8, nan_params=('sigma', 'order'),
        check=lambda r, kw: None,
        invalid=(dict(D=[0.0], D_prime=[1.0, 0.0], sigma=1.0, order=2.0),
                 dict(D=[0.0], D_prime=[1.0], sigma=1.0, order=2.0, rng='x'))),
    M + 'conjecture1_scan': Domain(
        st.fixed_dictionaries(dict(ns=st.just([1, 2, 5, 40]), sigma=log_uniform(0.3, 1e20), max_order=ints(2, 24))),
        kind='any', max_examples=8,
        invalid=(dict(ns=[5, 2], sigma=1.0), dict(ns=[1, 2], sigma=1.0, max_order=1))),
}
EXEMPT = {}
