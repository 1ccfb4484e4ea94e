"""Domains of `shuffle_privacy.accounting.rdp` added after notebook 03's split (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, probability

def _same(result, kw):
    assert result == (float(kw['target_epsilon']), float(kw['target_delta'])), (result, kw)

DOMAINS = {
    'shuffle_privacy.accounting.rdp.check_target': Domain(
        st.fixed_dictionaries(dict(target_epsilon=st.one_of(st.just(0.0), log_uniform(1e-12, 1e6)),
                                   target_delta=probability(1e-300, 1.0))),
        kind='nonneg', check=_same, max_examples=10,
        invalid=(dict(target_epsilon=-1.0, target_delta=1e-6), dict(target_epsilon=1.0, target_delta=0.0),
                 dict(target_epsilon=1.0, target_delta=1.5))),
}
EXEMPT = {}
