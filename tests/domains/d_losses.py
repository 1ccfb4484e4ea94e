"""Domains of `shuffle_privacy.algorithms.losses` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints
from shuffle_privacy.algorithms.losses import Ball, Interval, SquaredLoss, LogisticLoss

M = 'shuffle_privacy.algorithms.losses.'
_loss = st.sampled_from([SquaredLoss(), LogisticLoss()])

def _data(max_n=20, max_d=4, scale=log_uniform(1e-50, 1e50)):
    "X (n, d) and y (n,) with entries over many magnitudes (zeros included)."
    def build(t):
        n, d, seed, s, zero = t
        r = np.random.default_rng(seed)
        X = np.zeros((n, d)) if zero else r.standard_normal((n, d))*s
        return dict(X=X, y=np.where(r.random(n) < 0.5, 1.0, -1.0)*s)
    return st.tuples(ints(1, max_n), ints(1, max_d), ints(0, 2**31), scale, st.booleans()).map(build)

DOMAINS = {
    M + 'lipschitz_constants': Domain(
        st.tuples(_data(), _loss, log_uniform(1e-20, 1e20)).map(lambda t: dict(t[0], loss=t[1], K=Ball(t[2]))),
        kind='nonneg', check=lambda r, kw: all(math.isfinite(v) for v in r) or (_ for _ in ()).throw(AssertionError(r)),
        invalid=(dict(loss=SquaredLoss(), X=[[math.nan]], y=[1.0], K=Ball()),
                 dict(loss=SquaredLoss(), X=[[1.0]], y=[1.0, 2.0], K=Ball()),
                 dict(loss=SquaredLoss(), X=[[1.0]], y=[1.0], K=Interval()),
                 dict(loss='squared', X=[[1.0]], y=[1.0], K=Ball()))),}
