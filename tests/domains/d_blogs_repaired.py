"""Domains of `shuffle_privacy.mechanisms.blogs.repaired` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability, orders

M = 'shuffle_privacy.mechanisms.blogs.repaired.'
_sigma = log_uniform(1e-3, 1e12)

def _grads(kw):
    r = np.random.default_rng(kw['seed']); shapes = kw['shapes']
    return dict(grads=[r.normal(size=s)*kw['scale'] for s in shapes],
                block_sizes=[max(1, min(s, b)) for s, b in zip(shapes, kw['bs'])], clip=kw['clip'],
                noise_multiplier=kw['sigma'], rng=kw['seed'])

DOMAINS = {
    M + 'repaired_blogs_step': Domain(
        st.fixed_dictionaries(dict(shapes=st.lists(ints(1, 50), min_size=1, max_size=3), bs=st.lists(ints(1, 50),
                                   min_size=3, max_size=3), seed=ints(0, 2**31), scale=log_uniform(1e-100, 1e100),
                                   clip=log_uniform(1e-100, 1e100), sigma=log_uniform(1e-100, 1e100))).map(_grads),
        kind='finite', nan_params=('clip', 'noise_multiplier'),
        invalid=(dict(grads=[np.ones(3)], block_sizes=[1], clip=0.0, noise_multiplier=1.0),
                 dict(grads=[np.ones(3)], block_sizes=[1, 2], clip=1.0, noise_multiplier=1.0))),
    M + 'repaired_epsilon': Domain(
        st.fixed_dictionaries(dict(noise_multiplier=_sigma, count=ints(1, 10**9), delta=probability(1e-300, 0.99))),
        kind='epsilon', invalid=(dict(noise_multiplier=0.0, count=1, delta=1e-5),
                                 dict(noise_multiplier=1.0, count=1, delta=1.0))),
    M + 'repaired_noise_multiplier': Domain(
        st.fixed_dictionaries(dict(target_epsilon=log_uniform(1e-3, 1e4), count=ints(1, 10**6),
                                   delta=probability(1e-100, 0.99))), kind='nonneg',
        check=lambda r, kw: math.isfinite(r) and r > 0,
        invalid=(dict(target_epsilon=0.0, count=1, delta=1e-5), dict(target_epsilon=1.0, count=0, delta=1e-5),
                 dict(target_epsilon=1.0, count=1, delta=0.0))),
}

EXEMPT = {
    M + 'RepairedBlogsStepEvent': 'an Event class; validated in __post_init__, its RDP checked in tests/test_events.py',
}
