"""Domains of `shuffle_privacy.core` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability, orders

M = 'shuffle_privacy.core.'
_mag = log_uniform(1e-300, 1e300)
_real = st.one_of(st.just(0.0), _mag, _mag.map(lambda x: -x))
_ext = st.one_of(_real, st.just(math.inf), st.just(-math.inf))           # +-inf are meaningful log-values
_nonpos = st.one_of(st.just(0.0), st.just(-math.inf), _mag.map(lambda x: -x))
_nonneg = st.one_of(st.just(0.0), st.just(math.inf), _mag)
arr = lambda s: st.one_of(s, st.lists(s, min_size=1, max_size=6))

def _no_nan(r, kw):
    assert not np.isnan(np.asarray(r, float)).any(), r

def _le0(r, kw):
    assert np.all(np.asarray(r) <= 0), r

def _finite_or(lo, hi):
    "Sorted (lo, x, hi) with lo <= x <= hi, spanning many magnitudes."
    return st.lists(_real, min_size=3, max_size=3).map(sorted)

def _threshold(kw):
    "A monotone predicate x >= t."
    t = kw.pop('t'); kw['pred'] = lambda x: x >= t; kw['_t'] = t
    return kw

def _search_ok(r, kw):
    pass

def _monotone_search():
    def build(t):
        lo, th, hi = t[0]
        integer = t[1]
        if integer: lo, th, hi = (int(max(min(v, 1e15), -1e15)) for v in (lo, th, hi))
        return dict(pred=(lambda x, th=th: x >= th), lo=lo, hi=hi, integer=integer)
    return st.tuples(_finite_or(0, 0), st.booleans()).map(build)

def _monotone_ok(r, kw):
    assert kw['lo'] <= r <= kw['hi'] and kw['pred'](r), r

def _expand_bracket():
    def build(t):
        lo_limit, start, th, hi_limit = sorted(t[0])
        if t[1]: hi_limit = float(math.ceil(hi_limit))    # integer points: one of them, ceil(th), must be <= hi_limit
        return dict(pred=(lambda x, th=th: x >= th), start=start, lo_limit=lo_limit, hi_limit=hi_limit,
                    integer=t[1], factor=t[2])
    return st.tuples(st.lists(log_uniform(1e-100, 1e100), min_size=4, max_size=4), st.booleans(),
                     log_uniform(1.1, 1e3)).map(build)   # steps ~ log(range)/log(factor): no cap, by design

def _bracket_ok(r, kw):
    lo, hi = r
    assert kw['pred'](hi) and (lo is None or not kw['pred'](lo)), r

DOMAINS = {
    M + 'check_real': Domain(
        st.lists(_real, min_size=3, max_size=3).map(sorted).map(lambda v: dict(name='x', lo=v[0], x=v[1], hi=v[2])),
        kind='finite', check=lambda r, kw: None if r == kw['x'] else (_ for _ in ()).throw(AssertionError(r)),
        nan_params=('x',), invalid=(dict(name='x', x=2.0, hi=1.0), dict(name='x', x=0.0, lo=0.0, lo_open=True),
                                    dict(name='x', x='1'), dict(name='x', x=True), dict(name='x', x=math.inf, hi=1.0))),
    M + 'check_positive': Domain(st.fixed_dictionaries(dict(name=st.just('x'), x=_mag)), kind='nonneg',
                                 invalid=(dict(name='x', x=0.0), dict(name='x', x=-1.0), dict(name='x', x=None))),
    M + 'check_nonnegative': Domain(st.fixed_dictionaries(dict(name=st.just('x'), x=st.one_of(st.just(0.0), _mag))),
                                    kind='nonneg', invalid=(dict(name='x', x=-1e-300), dict(name='x', x='a'))),
    M + 'check_probability': Domain(
        st.one_of(st.fixed_dictionaries(dict(name=st.just('p'), x=probability(1e-300, 0.999999))),
                  st.fixed_dictionaries(dict(name=st.just('p'), x=st.one_of(st.just(0.0), st.just(1.0),
                                                                             probability()), closed=st.just(True)))),
        kind='probability', nan_params=('x',),
        invalid=(dict(name='p', x=0.0), dict(name='p', x=1.0), dict(name='p', x=1.5, closed=True))),
    M + 'check_int': Domain(
        st.tuples(st.integers(-10**18, 10**18), st.booleans()).map(
            lambda t: dict(name='n', x=float(t[0]) if t[1] and abs(t[0]) < 2**53 else t[0], lo=-10**18, hi=10**18)),
        kind='any', nan_params=('x',),
        check=lambda r, kw: isinstance(r, int) or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(name='n', x=1.5), dict(name='n', x=True), dict(name='n', x='3'), dict(name='n', x=0, lo=1),
                 dict(name='n', x=5, hi=4))),
    M + 'check_array': Domain(
        st.fixed_dictionaries(dict(name=st.just('a'), x=st.lists(_real, min_size=1, max_size=8))), kind='finite',
        nan_params=(), invalid=(dict(name='a', x=[1.0, math.nan]), dict(name='a', x=[math.inf]), dict(name='a', x=[]),
                                dict(name='a', x=[-1.0], lo=0), dict(name='a', x=[1.5], integer=True),
                                dict(name='a', x=['a']), dict(name='a', x=[[1.0]], ndim=1))),
    M + 'check_same_length': Domain(
        st.integers(1, 20).map(lambda n: dict(a=list(range(n)), b=np.zeros(n))), kind='nonneg',
        check=lambda r, kw: r == len(kw['a']) or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(a=[1, 2], b=[1]),)),
    M + 'in_test': Domain(st.just({}), kind='any'),
    M + 'as_rng': Domain(
        st.fixed_dictionaries(dict(rng=st.one_of(st.none(), ints(0, 2**63), st.just(np.random.default_rng(1)),
                                                 st.just(np.random.SeedSequence(2))))), kind='object',
        check=lambda r, kw: isinstance(r, np.random.Generator) or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(rng=-1), dict(rng='seed'), dict(rng=1.5), dict(rng=True))),
    M + 'logsumexp': Domain(
        st.one_of(st.fixed_dictionaries(dict(a=st.lists(_ext, min_size=1, max_size=8))),
                  st.integers(1, 8).flatmap(lambda n: st.fixed_dictionaries(dict(
                      a=st.lists(_ext, min_size=n, max_size=n), b=st.lists(st.one_of(st.just(0.0), _mag), min_size=n,
                                                                              max_size=n))))),
        kind='any', check=_no_nan, nan_params=(),
        invalid=(dict(a=[0.0, math.nan]), dict(a=[0.0], b=[-1.0]), dict(a=[0.0], b=[math.nan]))),
    M + 'log1mexp': Domain(st.fixed_dictionaries(dict(x=arr(_nonpos))), kind='any', check=lambda r, kw: _le0(r, kw),
                           nan_params=(), invalid=(dict(x=1e-300), dict(x=math.nan), dict(x=[-1.0, math.nan]),
                                                   dict(x=math.inf))),
    M + 'logdiffexp': Domain(
        st.tuples(_ext, _ext).map(sorted).map(lambda v: dict(a=v[1], b=v[0])).filter(
            lambda kw: not (kw['a'] == kw['b'] == math.inf)),
        kind='any', check=_no_nan, nan_params=(),
        invalid=(dict(a=0.0, b=1.0), dict(a=math.nan, b=0.0), dict(a=0.0, b=math.nan), dict(a=math.inf, b=math.inf))),
    M + 'log_expm1': Domain(st.fixed_dictionaries(dict(x=arr(_nonneg))), kind='any', check=_no_nan, nan_params=(),
                            invalid=(dict(x=-1e-300), dict(x=math.nan), dict(x=[1.0, math.nan]))),
    M + 'norm_sf': Domain(st.fixed_dictionaries(dict(x=arr(_ext))), kind='probability', nan_params=(),
                          invalid=(dict(x=math.nan), dict(x=[0.0, math.nan]))),
    M + 'norm_cdf': Domain(st.fixed_dictionaries(dict(x=arr(_ext))), kind='probability', nan_params=(),
                           invalid=(dict(x=math.nan),)),
    M + 'log_norm_sf': Domain(st.fixed_dictionaries(dict(x=arr(_ext))), kind='any', check=_le0, nan_params=(),
                              invalid=(dict(x=math.nan), dict(x=[0.0, math.nan]))),
    M + 'log_norm_cdf': Domain(st.fixed_dictionaries(dict(x=arr(_ext))), kind='any', check=_le0, nan_params=(),
                               invalid=(dict(x=math.nan),)),
    M + 'log_norm_sf_diff': Domain(      # Q(a) >= e^c Q(b) holds for a <= b and c <= 0
        st.tuples(_ext, _ext, _nonpos).map(lambda t: dict(a=min(t[0], t[1]), b=max(t[0], t[1]), c=t[2])),
        kind='any', check=_le0, nan_params=(),
        invalid=(dict(a=1.0, b=0.0), dict(a=0.0, b=1.0, c=2.0), dict(a=math.nan, b=1.0), dict(a=0.0, b=math.nan),
                 dict(a=0.0, b=1.0, c=math.nan))),
    M + 'monotone_search': Domain(
        _monotone_search(), kind='any', check=_monotone_ok, nan_params=('lo', 'hi'),
        invalid=(dict(pred=lambda x: x >= 5, lo=0.0, hi=1.0), dict(pred=lambda x: True, lo=1.0, hi=0.0),
                 dict(pred=lambda x: True, lo=0, hi=1, integer=True, max_iter=0),
                 dict(pred=lambda x: True, lo=0.0, hi=1.0, rtol=-1.0))),
    M + 'expand_bracket': Domain(
        _expand_bracket(), kind='any', check=_bracket_ok, nan_params=('start', 'lo_limit', 'hi_limit', 'factor'),
        invalid=(dict(pred=lambda x: x >= 10, start=1.0, lo_limit=0.5, hi_limit=2.0),
                 dict(pred=lambda x: True, start=1.0, lo_limit=0.0, hi_limit=2.0),
                 dict(pred=lambda x: True, start=1.0, lo_limit=0.5, hi_limit=2.0, factor=1.0))),
}
EXEMPT = {M+'optional_import': 'imports a module by name (no numeric answer); examples in nbs/00_core.ipynb',
          M+'progress': 'an iteration wrapper for display (no numeric answer); its examples are in nbs/00_core.ipynb'}
