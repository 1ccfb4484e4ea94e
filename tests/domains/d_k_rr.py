"""Domains of `shuffle_privacy.mechanisms.shuffled_ldp.k_rr` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, pair_ok, log_uniform, ints, orders

M = 'shuffle_privacy.mechanisms.shuffled_ldp.k_rr.'
_e0 = log_uniform(1e-3, 700.0)

def _window_ok(r, kw):
    lo, hi, lg = r
    assert 0 <= lo <= hi <= kw['N'], r
    assert lg <= math.log(2) + kw['log_tail'] + 1e-9 or lg == -math.inf, r

DOMAINS = {
    M + 'binomial_window': Domain(st.fixed_dictionaries(
        dict(N=ints(0, 10**15), p=log_uniform(1e-300, 0.999999), log_tail=st.floats(-1e5, -1e-3))),
        kind='any', check=_window_ok,
        invalid=(dict(N=-1, p=0.5, log_tail=-5.0), dict(N=10, p=0.0, log_tail=-5.0), dict(N=10, p=1.0, log_tail=-5.0),
                 dict(N=10, p=0.5, log_tail=0.0), dict(N=10**16, p=0.5, log_tail=-5.0))),
    M + 'krr_clone_probability': Domain(st.fixed_dictionaries(dict(local_epsilon=_e0)), kind='probability',
        invalid=(dict(local_epsilon=0.0), dict(local_epsilon=-1.0), dict(local_epsilon=701.0))),
    M + 'clones_log_moment': Domain(st.fixed_dictionaries(
        dict(alphas=orders(1.0 + 1e-6, 64.0, 3), n=ints(1, 300), local_epsilon=log_uniform(1e-3, 20.0))),
        kind='finite', max_examples=10,
        check=lambda r, kw: np.all(r <= (kw['alphas'] - 1)*kw['local_epsilon'] + 1e-9),
        invalid=(dict(alphas=np.array([2.0]), n=0, local_epsilon=1.0),
                 dict(alphas=np.array([2.0]), n=10, local_epsilon=0.0))),
    M + 'krr_clones_pair': Domain(st.fixed_dictionaries(
        dict(n=ints(1, 200), local_epsilon=log_uniform(1e-3, 30.0),
             value_discretization_interval=log_uniform(1e-3, 0.1)),
        optional=dict(log_tail=st.floats(-200.0, -5.0))),
        kind='object', check=pair_ok, max_examples=8,
        invalid=(dict(n=0, local_epsilon=1.0), dict(n=10, local_epsilon=0.0), dict(n=10, local_epsilon=800.0),
                 dict(n=10, local_epsilon=1.0, value_discretization_interval=2.0),
                 dict(n=10, local_epsilon=1.0, log_tail=0.0))),
}

EXEMPT = {
    M + 'ShuffledKRREvent': 'an event (a dataclass); validation, RDP and PLD tested in tests/test_tutorial.py',
}
