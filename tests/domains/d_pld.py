"""Domains of `shuffle_privacy.accounting.pld` (see tests/contract_spec.py)."""
import dp_accounting
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

def _check_pair(pair, kw):
    for e in (0.0, 0.5, 3.0):
        lo, up = pair.delta_bounds(e)
        assert 0.0 <= lo <= up <= 1.0, (e, lo, up)

events = st.one_of(log_uniform(0.05, 1e3).map(dp_accounting.GaussianDpEvent),
                   log_uniform(0.05, 1e3).map(dp_accounting.LaplaceDpEvent),
                   st.tuples(probability(1e-3, 1.0), ints(2,
                                                          1000)).map(lambda t: dp_accounting.RandomizedResponseDpEvent(*t)))
DOMAINS = {
    'shuffle_privacy.accounting.pld.pld_of': Domain(
        st.fixed_dictionaries(dict(event=events, value_discretization_interval=log_uniform(1e-3, 1e-2))),
        kind='object', check=_check_pair, max_examples=5, nan_params=(),
        invalid=(dict(event=dp_accounting.GaussianDpEvent(-1.0), value_discretization_interval=1e-3),
                 dict(event=object(), value_discretization_interval=1e-3))),
}
M = 'shuffle_privacy.accounting.pld.'
# check_interval and FineInterval moved to accounting.pld_build (re-exported here): see d_pld_build.py
EXEMPT = {M + 'non_private': 'a predicate on event trees (True/False); tests/test_accountants.py composes each case'}
def _gauss_pair(z):
    from shuffle_privacy.accounting.pld import pld_of
    return pld_of(dp_accounting.GaussianDpEvent(z), 1e-3)
DOMAINS[M + 'composed_points'] = Domain(
    st.fixed_dictionaries(dict(pair=log_uniform(0.2, 100.0).map(_gauss_pair), count=ints(1, 10**12))),
    kind='nonneg', max_examples=5, nan_params=(), check=lambda r, kw: r >= 1)
