"""Domains of `shuffle_privacy.mechanisms.shuffled_ldp.multi_message` (see tests/contract_spec.py)."""
import math
from hypothesis import strategies as st
from contract_spec import Domain, pair_ok, log_uniform, ints

M = 'shuffle_privacy.mechanisms.shuffled_ldp.multi_message.'
_p = st.one_of(log_uniform(1e-300, 0.5), log_uniform(1e-16, 0.5).map(lambda q: 1.0 - q))
_eps = st.one_of(st.just(0.0), log_uniform(1e-6, 700.0))

def _n_mu(n_hi, frac):
    "n, and mu = a fraction of n (mu < n), as keyword arguments."
    return ints(1, n_hi).flatmap(lambda n: st.fixed_dictionaries(dict(n=st.just(n), mu=frac.map(lambda f: f*n))))

def _window_ok(r, kw):
    lo, hi, lg = r
    assert 0 <= lo <= hi <= kw['n'] and lg <= 0.0 and not math.isnan(lg), r

def _masses_ok(r, kw):
    lb, eta = r
    assert len(lb) == kw['hi'] - kw['lo'] + 1 and all(x <= 1e-9 for x in lb) and 0 < eta < 1e-6, (lb[:3], eta)

def _window_kw(n_hi):
    return st.tuples(ints(0, n_hi), st.one_of(log_uniform(1e-12, 0.5), st.just(1.0)), st.floats(-700.0, -1.0)).map(
        lambda t: dict(n=t[0], p=t[1], log_tail=t[2]))

def _masses_kw():
    "A window around the mean of Bin(n, p), at most 2000 points."
    return st.tuples(ints(0, 10**12), log_uniform(1e-9, 0.5), ints(0, 1000)).map(lambda t: dict(
        n=t[0], p=t[1], lo=max(0, min(t[0], int(t[0]*t[1])) - t[2]), hi=min(t[0], int(t[0]*t[1]) + t[2])))

DOMAINS = {
    M + 'chernoff_window': Domain(_window_kw(10**12), kind='any', check=_window_ok, max_examples=20,
        invalid=(dict(n=-1, p=0.5, log_tail=-10.0), dict(n=10, p=0.0, log_tail=-10.0),
                 dict(n=10, p=0.5, log_tail=1.0))),
    M + 'certified_log_masses': Domain(_masses_kw(), kind='any', check=_masses_ok, max_examples=15,
        invalid=(dict(n=-1, p=0.5, lo=0, hi=0), dict(n=10, p=1.0, lo=0, hi=5), dict(n=10, p=0.5, lo=6, hi=5),
                 dict(n=10, p=0.5, lo=0, hi=11))),
    M + 'balls_into_bins_pair': Domain(st.fixed_dictionaries(
        dict(n=ints(1, 10**12), p=_p, value_discretization_interval=log_uniform(1e-3, 0.1)),
        optional=dict(log_tail=st.floats(-700.0, -5.0))),
        kind='object', check=pair_ok, max_examples=10,
        invalid=(dict(n=0, p=0.1), dict(n=10, p=0.0), dict(n=10, p=1.0), dict(n=10**13, p=0.1),
                 dict(n=10, p=0.1, value_discretization_interval=2.0), dict(n=10, p=0.1, log_tail=0.0),
                 dict(n=10, p=0.1, log_tail=-800.0))),
    M + 'lwy22_bad_event_delta': Domain(
        st.tuples(_n_mu(10**9, log_uniform(1e-9, 0.999)), _eps).map(lambda t: dict(t[0], epsilon=t[1])),
        kind='delta', max_examples=15,
        invalid=(dict(epsilon=-1.0, n=10, mu=1.0), dict(epsilon=1.0, n=0, mu=1.0), dict(epsilon=1.0, n=10, mu=10.0),
                 dict(epsilon=1.0, n=10, mu=0.0), dict(epsilon=701.0, n=10, mu=1.0))),
    M + 'lwy22_mu': Domain(st.fixed_dictionaries(
        dict(epsilon=log_uniform(1e-2, 10.0), delta=log_uniform(1e-15, 0.5), n=ints(2, 10**6))),
        kind='any', max_examples=8, check=lambda r, kw: r > 0,
        invalid=(dict(epsilon=0.0, delta=1e-6, n=100), dict(epsilon=1.0, delta=0.0, n=100),
                 dict(epsilon=1.0, delta=1e-6, n=1))),
    M + 'bc20_fake_probability': Domain(
        st.tuples(log_uniform(1e-2, 1.0), log_uniform(1e-300, 1.0), log_uniform(1.0, 1e3)).map(
            lambda t: dict(epsilon=t[0], delta=t[1], n=min(math.ceil(100*math.log(2/t[1])/t[0]**2*t[2]), 10**12))),
        kind='probability',
        invalid=(dict(n=100, epsilon=1.0, delta=1e-6), dict(n=10**4, epsilon=0.0, delta=1e-6),
                 dict(n=10**4, epsilon=1.5, delta=1e-6), dict(n=10**4, epsilon=1.0, delta=0.0),
                 dict(n=10**4, epsilon=1.0, delta=1.5))),
    M + 'uniform_fake_balls_pair': Domain(st.fixed_dictionaries(
        dict(n=ints(1, 10**9), s=log_uniform(1e-3, 1e6), b=ints(3, 10**12),
             value_discretization_interval=log_uniform(1e-3, 0.1)),
        optional=dict(log_tail=st.floats(-700.0, -5.0))),
        kind='object', check=pair_ok, max_examples=10,
        invalid=(dict(n=0, s=1.0, b=5), dict(n=10, s=0.0, b=5), dict(n=10, s=1.0, b=2), dict(n=10, s=2e6, b=5),
                 dict(n=10, s=1.0, b=5, value_discretization_interval=2.0), dict(n=10, s=1.0, b=5, log_tail=0.0))),
}

EXEMPT = {
    M + 'BallsIntoBinsEvent': 'an event (a dataclass); validation, PLD, accountants and calibrate tested in '
                              'tests/test_multi_message.py',
    M + 'BallsIntoBinsUniformEvent': 'an event (a dataclass); validation, PLD and accountant tested in '
                                     'tests/test_multi_message.py',
}
