"""Domains of `shuffle_privacy.mechanisms.shuffle_gaussian.subsampled_pld` (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints

M = 'shuffle_privacy.mechanisms.shuffle_gaussian.subsampled_pld.'

def _pair_ok(pair, kw):
    for e in (0.0, 0.5):
        lo, up = pair.delta_bounds(e)
        assert 0 <= lo <= up <= 1

def _ssg(t):
    n, frac, s, d = t
    return dict(num_users=n, sample_size=max(1, min(n, round(n*frac))), noise_multiplier=s,
                value_discretization_interval=d)

DOMAINS = {
    M + 'subsampled_shuffle_gaussian_pld': Domain(
        st.tuples(ints(1, 10**9), log_uniform(1e-9, 1.0), log_uniform(0.05, 1e4), log_uniform(1e-5, 1e-2)).map(_ssg),
        kind='object', check=_pair_ok, max_examples=5, nan_params=('noise_multiplier',),
        invalid=(dict(num_users=0, sample_size=1, noise_multiplier=3.0),
                 dict(num_users=10, sample_size=11, noise_multiplier=3.0),
                 dict(num_users=10, sample_size=5, noise_multiplier=0.04),
                 dict(num_users=10, sample_size=5, noise_multiplier=3.0, value_discretization_interval=2.0))),
    M + 'shuffled_checkin_pld': Domain(st.fixed_dictionaries(dict(
        num_users=ints(1, 10**9), probability=log_uniform(1e-12, 1.0), noise_multiplier=log_uniform(0.05, 1e4),
        value_discretization_interval=log_uniform(1e-5, 1e-2), max_buckets=ints(1, 4))),
        kind='object', check=_pair_ok, max_examples=5, quick=2, nan_params=('noise_multiplier', 'probability'),
        invalid=(dict(num_users=0, probability=0.5, noise_multiplier=3.0),
                 dict(num_users=10, probability=0.0, noise_multiplier=3.0),
                 dict(num_users=10, probability=0.5, noise_multiplier=0.04),
                 dict(num_users=10, probability=0.5, noise_multiplier=3.0, max_buckets=0))),
}
EXEMPT = {}
