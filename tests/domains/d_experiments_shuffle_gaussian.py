"""Domains of `shuffle_privacy.experiments.shuffle_gaussian` (Table 1 of paper 004; see tests/contract_spec.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.experiments.shuffle_gaussian.'
DOMAINS = {
    M + 'clones_epsilon': Domain(
        st.fixed_dictionaries(dict(epsilon0=log_uniform(1e-10, 1e10), n=ints(1, 10**15), delta=probability(1e-300, 0.5))),
        kind='epsilon', nan_params=('epsilon0', 'delta'),
        invalid=(dict(epsilon0=0.0, n=10, delta=1e-5), dict(epsilon0=1.0, n=0, delta=1e-5), dict(epsilon0=1.0, n=10, delta=0.0))),
    M + 'gaussian_ldp_eps0': Domain(
        st.fixed_dictionaries(dict(delta0=probability(1e-300, 0.5), sigma=log_uniform(1e-10, 1e10),
                                   sensitivity=log_uniform(1e-5, 1e5),
                                   calibration=st.sampled_from(['classic', 'analytic']))),
        kind='epsilon',
        invalid=(dict(delta0=0.0, sigma=1.0), dict(delta0=0.1, sigma=0.0), dict(delta0=0.1, sigma=1.0,
                                                                                calibration='x'))),
    M + 'clones_gaussian_epsilon': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**12), sigma=log_uniform(1e-3, 1e10), delta_total=probability(1e-200, 0.5),
                                   count=ints(1, 100), grid=st.just(20))),
        kind='epsilon', max_examples=10,
        invalid=(dict(n=0, sigma=1.0, delta_total=1e-5), dict(n=10, sigma=1.0, delta_total=0.0),
                 dict(n=10, sigma=1.0, delta_total=1e-5, count=0))),
    M + 'checkin_min_participants': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**12), probability=probability(1e-20, 1.0), beta=probability(1e-300, 0.5))),
        kind='any',
        invalid=(dict(n=0, probability=0.1, beta=0.1), dict(n=10, probability=0.0, beta=0.1), dict(n=10, probability=0.1, beta=0.0))),
    M + 'checkin_clones_round': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**9), probability=probability(1e-6, 1.0), sigma=log_uniform(1e-2, 1e6),
                                   delta=probability(1e-100, 0.5), grid=st.just(20))),
        kind='nonneg', max_examples=10,
        invalid=(dict(n=0, probability=0.1, sigma=1.0, delta=1e-5), dict(n=10, probability=0.1, sigma=0.0,
                                                                         delta=1e-5))),
    M + 'baseline_checkin_epsilon': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**9), probability=probability(1e-6, 1.0), sigma=log_uniform(1e-2, 1e6),
                                   count=ints(1, 10**4), delta_total=probability(1e-100, 0.5), n_split=st.just(3),
                                   grid=st.just(10))),
        kind='epsilon', max_examples=6, slow=True,
        invalid=(dict(n=10, probability=0.1, sigma=1.0, count=0, delta_total=1e-5),
                 dict(n=10, probability=0.1, sigma=1.0, count=3, delta_total=0.0))),
    M + 'generic_checkin_epsilon': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 10**9), probability=probability(1e-6, 1.0), sigma=log_uniform(1e-2, 1e6),
                                   count=ints(1, 10**4), delta_total=probability(1e-100, 0.5), n_split=st.just(3),
                                   grid=st.just(10), max_order=st.just(32))),
        kind='epsilon', max_examples=6, slow=True,
        invalid=(dict(n=10, probability=0.1, sigma=1.0, count=0, delta_total=1e-5),
                 dict(n=10, probability=0.1, sigma=1.0, count=3, delta_total=0.0))),
}
EXEMPT = {
    M + 'load_mnist': 'reads local files (I/O); tested in tests/test_shuffle_gaussian_experiments.py',
    M + 'train_shuffled_checkin': 'training loop; tested in tests/test_shuffle_gaussian_experiments.py',
}
