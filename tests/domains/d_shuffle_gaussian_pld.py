"""Domains of `shuffle_privacy.mechanisms.shuffle_gaussian.pld` (see tests/contract_spec.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints

M = 'shuffle_privacy.mechanisms.shuffle_gaussian.pld.'

def _ordered(r, kw):
    lo, up = r
    assert np.all(np.asarray(lo) <= np.asarray(up))

def _pair_ok(pair, kw):
    lo, up = pair.delta_bounds(0.0)
    assert 0 <= lo <= up <= 1

DOMAINS = {
    M + 'shuffle_gaussian_delta_bounds': Domain(st.fixed_dictionaries(dict(
        num_users=ints(1, 10**9), noise_multiplier=log_uniform(0.05, 1e4),
        epsilon=st.one_of(log_uniform(1e-12, 50.0), st.just(0.0)))), kind='delta', check=_ordered, max_examples=8,
        invalid=(dict(num_users=0, noise_multiplier=3.0, epsilon=0.1), dict(num_users=10, noise_multiplier=0.04,
                                                                            epsilon=0.1),
                 dict(num_users=10, noise_multiplier=3.0, epsilon=-1.0))),
    M + 'shuffle_gaussian_pld': Domain(st.fixed_dictionaries(dict(
        num_users=ints(1, 10**9), noise_multiplier=log_uniform(0.05, 1e4),
        value_discretization_interval=log_uniform(1e-5, 1e-2))), kind='object', check=_pair_ok, max_examples=5,
        nan_params=('noise_multiplier',),
        invalid=(dict(num_users=0, noise_multiplier=3.0), dict(num_users=10, noise_multiplier=3.0,
                                                               value_discretization_interval=2.0))),
}
DOMAINS.update({
    M + 'shuffle_gaussian_log_delta_bounds': Domain(st.fixed_dictionaries(dict(
        num_users=st.one_of(st.just(1), ints(2, 10**4)), noise_multiplier=log_uniform(0.5, 1e3),
        epsilon=st.one_of(log_uniform(1e-12, 1e3), st.just(0.0)))), kind='any', check=_ordered, max_examples=6,
        invalid=(dict(num_users=0, noise_multiplier=3.0, epsilon=0.1), dict(num_users=1, noise_multiplier=3.0,
                                                                          epsilon=-1.0))),
    M + 'check_shuffle_gaussian': Domain(
        st.fixed_dictionaries(dict(num_users=ints(1, 10**12), noise_multiplier=log_uniform(0.05, 1e4))), kind='any',
        invalid=(dict(num_users=0, noise_multiplier=1.0), dict(num_users=5, noise_multiplier=0.04))),
})
EXEMPT = {
    M + 'gaussian_delta': 'array kernel: exact Gaussian δ(ε) (no validation, for speed); its callers validate, and '
                          'tests/test_shuffle_gaussian_pld.py checks it against mpmath through n = 1',
    M + 'loss_floor': 'the loss floor of the shuffle Gaussian PLDs as a function of the largest loss (a kernel)',
    M + 'sum_law': 'returns the cached law object of S_n for one end; driven by shuffle_gaussian_pld and '
                   'shuffle_gaussian_delta_bounds, whose domains cover (n, sigma); tested in tests/test_shuffle_gaussian_pld.py',
    M + 'sum_laws': 'the cached law objects of S_n for several nearby n (check-in buckets); driven by shuffled_checkin_pld, '
                    'whose domain covers (n, sigma); tested in notebook 12 and tests/test_subsampled_checkin_pld.py',
    M + 'gaussian_pld_pair': "dp_accounting's (sampled) Gaussian PLD pair with a size check; driven by the PLD builders",
}
