"""Domains of `shuffle_privacy.mechanisms.blogs.published` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.mechanisms.blogs.published.'
_clip = log_uniform(1e-100, 1e100)

def _group(kw):
    "block_size in [1, d] from a fraction."
    kw = dict(kw); kw['block_size'] = int(min(kw['d'], max(1, round(kw.pop('u')*kw['d'])))); return kw

def _groups(lst):
    return [d for d, _ in lst], [int(min(d, max(1, round(u*d)))) for d, u in lst]

_dims_blocks = st.lists(st.tuples(ints(1, 10**12), st.floats(0.0, 1.0)), min_size=1, max_size=6).map(_groups)

def _is_permutation(r, kw):
    x = np.asarray(kw['x'])
    assert r.shape == x.shape
    if x.size % kw['block_size'] == 0: np.testing.assert_array_equal(np.sort(r, axis=None), np.sort(x, axis=None))

def _clipped(r, kw):
    n = float(np.linalg.norm(np.asarray(r, float).ravel()/max(np.abs(r).max(initial=0.0), 1e-300))) \
        * max(np.abs(r).max(initial=0.0), 1e-300)
    assert n <= kw['clip']*(1 + 1e-9), (n, kw['clip'])

DOMAINS = {
    M + 'block_shuffle': Domain(
        st.fixed_dictionaries(dict(x=st.lists(st.floats(-1e300, 1e300), min_size=0, max_size=60).map(np.array),
                                   block_size=ints(1, 100), rng=ints(0, 2**31))), kind='any', check=_is_permutation,
        invalid=(dict(x=np.ones(4), block_size=0), dict(x=np.ones(4), block_size=2, rng='seed'),
                 dict(x=np.ones(4), block_size=2, out=np.ones(3)))),
    M + 'clip_gradient': Domain(
        st.fixed_dictionaries(dict(g=st.lists(st.floats(-1e300, 1e300), min_size=1, max_size=30).map(np.array),
                                   clip=_clip)), kind='finite', check=_clipped,
        invalid=(dict(g=np.ones(3), clip=0.0), dict(g=np.ones(3), clip=-1.0))),
    M + 'blogs_epsilons': Domain(
        st.fixed_dictionaries(dict(d=ints(1, 10**12), u=st.floats(0.0, 1.0), clip=_clip)).map(_group), kind='epsilon',
        invalid=(dict(d=0, block_size=1, clip=1.0), dict(d=4, block_size=5, clip=1.0), dict(d=4, block_size=2, clip=0.0))),
    M + 'blogs_group_epsilon': Domain(
        st.fixed_dictionaries(dict(d=ints(1, 10**12), u=st.floats(0.0, 1.0), clip=_clip)).map(_group), kind='epsilon',
        invalid=(dict(d=4, block_size=0, clip=1.0),)),
    M + 'blogs_step_epsilon': Domain(
        st.fixed_dictionaries(dict(db=_dims_blocks, clip=_clip)).map(
            lambda kw: dict(dims=kw['db'][0], block_sizes=kw['db'][1], clip=kw['clip'])), kind='epsilon',
        invalid=(dict(dims=[], block_sizes=[], clip=1.0), dict(dims=[4, 5], block_sizes=[1], clip=1.0),
                 dict(dims=[4], block_sizes=[9], clip=1.0))),
    M + 'blogs_compose': Domain(
        st.fixed_dictionaries(dict(epsilon_step=st.one_of(st.just(0.0), log_uniform(1e-300, 1e300)), count=ints(1, 10**12),
                                   delta=probability(1e-300, 0.99))), kind='epsilon',
        invalid=(dict(epsilon_step=-1.0, count=1, delta=1e-5), dict(epsilon_step=1.0, count=0, delta=1e-5),
                 dict(epsilon_step=1.0, count=1, delta=1.0))),
    M + 'blogs_total_epsilon': Domain(
        st.fixed_dictionaries(dict(db=_dims_blocks, clip=_clip, count=ints(1, 10**12), delta=probability(1e-300, 0.99)))
        .map(lambda kw: dict(dims=kw['db'][0], block_sizes=kw['db'][1], clip=kw['clip'], count=kw['count'],
                             delta=kw['delta'])), kind='epsilon',
        invalid=(dict(dims=[4], block_sizes=[2], clip=1.0, count=0, delta=1e-5),)),
    M + 'blogs_block_sizes': Domain(
        st.fixed_dictionaries(dict(dims=st.lists(ints(1, 10**9), min_size=1, max_size=4),
                                   target_epsilon=log_uniform(1e-3, 1e6),
                                   delta=probability(1e-300, 0.99), count=ints(1, 1000), clip=log_uniform(1e-3, 1e3),
                                   warn=st.just(False))).filter(lambda kw: kw['target_epsilon']/kw['count'] > 2e-6), kind='nonneg',
        check=lambda r, kw: all(1 <= b <= max(d, 1) for b, d in zip(r, kw['dims'])) and len(r) == len(kw['dims']),
        invalid=(dict(dims=[10], target_epsilon=1e-9, delta=1e-5, count=10, clip=1.0),
                 dict(dims=[10], target_epsilon=1.0, delta=0.0, count=10, clip=1.0),
                 dict(dims=[0], target_epsilon=1.0, delta=1e-5, count=10, clip=1.0))),
}

EXEMPT = {
    M + 'BlogsTargetExceeded': 'a warning class',
    M + 'DPShuffleGenerator': 'a class wrapping a model (the paper\'s generator); tested in tests/test_blogs.py',
}
