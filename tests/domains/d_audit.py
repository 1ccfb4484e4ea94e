"""Domains of `shuffle_privacy.audit` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

M = 'shuffle_privacy.audit.'
_n = ints(1, 10**15)
_alpha = probability(1e-300, 0.5)

def _kn(kw):
    "k in [0, n] from a fraction."
    kw = dict(kw); kw['k'] = int(min(kw['n'], max(0, round(kw.pop('u')*kw['n'])))); return kw

def _cp_check(r, kw):
    lo, hi = r
    assert 0.0 <= lo <= kw['k']/kw['n'] <= hi <= 1.0, (r, kw)

def _counts(kw):
    kw = dict(kw); t = kw['trials']
    kw['tp'] = int(min(t, round(kw.pop('u1')*t))); kw['fp'] = int(min(t, round(kw.pop('u0')*t))); return kw

DOMAINS = {
    M + 'clopper_pearson': Domain(
        st.fixed_dictionaries(dict(u=st.floats(0.0, 1.0), n=_n, alpha=_alpha)).map(_kn), kind='probability',
        check=_cp_check,
        invalid=(dict(k=-1, n=10), dict(k=11, n=10), dict(k=1, n=0), dict(k=1, n=10, alpha=1.0),
                 dict(k=1.5, n=10))),
    M + 'epsilon_lower_bound': Domain(
        st.fixed_dictionaries(dict(u1=st.floats(0.0, 1.0), u0=st.floats(0.0, 1.0), trials=_n,
                                   delta=st.one_of(st.just(0.0), probability(1e-300, 0.99)), alpha=_alpha,
                                   one_sided=st.booleans())).map(_counts), kind='epsilon',
        check=lambda r, kw: math.isfinite(r),
        invalid=(dict(tp=5, fp=1, trials=3), dict(tp=1, fp=1, trials=10, delta=1.0),
                 dict(tp=1, fp=1, trials=10, joint_confidence=1.0), dict(tp=1, fp=1, trials=10, alpha=0.0))),
    M + 'audit': Domain(
        st.fixed_dictionaries(dict(trials=ints(1, 5000), rng=ints(0, 2**31), delta=st.one_of(st.just(0.0),
                                   probability(1e-300, 0.99)), joint_confidence=probability(1e-3, 0.999)))
        .map(lambda kw: dict(kw, sample_first=lambda g, t: g.random(t) < 0.9, sample_second=lambda g,
                             t: g.random(t) < 0.1,
                             detect=lambda o: o, batch=True)),
        kind='any', check=lambda r, kw: 0.0 <= r.epsilon < math.inf and 0 <= r.fp <= r.trials,
        nan_params=('delta', 'joint_confidence'),
        invalid=(dict(sample_first=lambda g: 1, sample_second=lambda g: 0, detect=bool, trials=0),
                 dict(sample_first=lambda g: 1, sample_second=lambda g: 0, detect=bool, rng='x'))),
    M + 'best_threshold': Domain(
        st.fixed_dictionaries(dict(n=ints(1, 2000), seed=ints(0, 2**31), shift=log_uniform(1e-10, 1e10),
                                   scale=log_uniform(1e-100, 1e100), delta=st.one_of(st.just(0.0), probability(1e-300, 0.99)),
                                   joint_confidence=probability(1e-3, 0.999)))
        .map(lambda kw: (lambda g: dict(scores_first=(g.normal(size=kw['n']) + kw['shift'])*kw['scale'],
                                        scores_second=g.normal(size=kw['n'])*kw['scale'], delta=kw['delta'],
                                        joint_confidence=kw['joint_confidence']))(np.random.default_rng(kw['seed']))),
        kind='finite', nan_params=('delta', 'joint_confidence'),
        invalid=(dict(scores_first=[1.0], scores_second=[1.0, 2.0]), dict(scores_first=[], scores_second=[]),
                 dict(scores_first=[1.0], scores_second=[0.0], delta=1.0), dict(scores_first=[np.nan],
                                                                                scores_second=[0.0]))),
}

EXEMPT = {
    M + 'AuditResult': 'a dataclass of results built by audit',
}
