"""Domains of `shuffle_privacy.mechanisms.shuffle_gaussian.subsampled` (see tests/contract_spec.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.mechanisms.shuffle_gaussian.subsampled.'
iorders = lambda hi=32: st.lists(ints(2, hi), min_size=1, max_size=5).map(lambda v: np.array(sorted(v)))

def _wor(draw_m=ints(1, 10**6)):
    "sample_size m and num_users n >= m, n up to 1e12 (sampling rates down to 1e-12)."
    return st.tuples(draw_m, log_uniform(1.0, 1e6)).map(lambda t: dict(sample_size=t[0], num_users=int(t[0]*t[1])))

DOMAINS = {
    M + 'subsampled_shuffle_gaussian_rdp': Domain(
        st.tuples(_wor(), iorders(), log_uniform(1e-150, 1e150)).map(lambda t: dict(t[0], orders=t[1], sigma=t[2])),
        kind='rdp',
        invalid=(dict(orders=[2], sample_size=0, num_users=10, sigma=1.0),
                 dict(orders=[2], sample_size=10, num_users=5, sigma=1.0),
                 dict(orders=[1], sample_size=1, num_users=5, sigma=1.0),
                 dict(orders=[2], sample_size=1, num_users=5, sigma=0.0))),
    M + 'checkin_rdp_exact': Domain(
        st.fixed_dictionaries(dict(orders=iorders(16), num_users=ints(1, 10**5), probability=probability(1e-20, 1.0),
                                   sigma=log_uniform(1e-100, 1e100))),
        kind='rdp', max_examples=15,
        invalid=(dict(orders=[2], num_users=0, probability=0.1, sigma=1.0),
                 dict(orders=[2], num_users=10, probability=0.0, sigma=1.0),
                 dict(orders=[2], num_users=10, probability=1.5, sigma=1.0),
                 dict(orders=[2], num_users=10, probability=0.1, sigma=1.0, tail=0.0))),
    M + 'checkin_rdp_chernoff': Domain(
        st.fixed_dictionaries(dict(orders=iorders(16), num_users=ints(1, 10**5), probability=probability(1e-20, 1.0),
                                   sigma=log_uniform(1e-100, 1e100))),
        kind='rdp', max_examples=15,
        invalid=(dict(orders=[2], num_users=0, probability=0.1, sigma=1.0),
                 dict(orders=[2], num_users=10, probability=0.0, sigma=1.0),
                 dict(orders=[2], num_users=10, probability=0.1, sigma=1.0, deltas=[1.0]))),
}

EXEMPT = {
    M + 'ssg_rdp_from_sg_rdp': "Theorem 2's map applied to a precomputed ε^SG table; driven by "
                               'subsampled_shuffle_gaussian_rdp and checkin_rdp_exact, whose domains cover it',
    M + 'SubsampledShuffleGaussianEvent': 'event class: validated in __post_init__, tested in tests/test_events.py',
    M + 'ShuffledCheckInEvent': 'event class: validated in __post_init__, tested in tests/test_events.py',
}
