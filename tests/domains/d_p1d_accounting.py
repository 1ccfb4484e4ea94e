"""Domains of `shuffle_privacy.mechanisms.p1d_accounting` (see tests/contract_spec.py); more are pending."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

def _pair_ok(pair, kw):
    for e in (0.0, 1.0):
        lo, up = pair.delta_bounds(e)
        assert 0 <= lo <= up <= 1

DOMAINS = {
    'shuffle_privacy.mechanisms.p1d_accounting.p1d_pld': Domain(st.fixed_dictionaries(dict(
        m=ints(1, 10**7), p=probability(1e-3, 0.999), g=ints(1, 100),
        value_discretization_interval=log_uniform(1e-4, 1e-2))), kind='object', check=_pair_ok, max_examples=8,
        invalid=(dict(m=0, p=0.5, g=1), dict(m=10, p=1.5, g=1), dict(m=10, p=0.5, g=0))),
}
EXEMPT = {}
