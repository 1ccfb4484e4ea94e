"""Domains of `shuffle_privacy.mechanisms.shuffled_ldp.groups` (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints

M = 'shuffle_privacy.mechanisms.shuffled_ldp.groups.'

def _check_event(ev, kw):
    "Always the smallest group's event (notebook 19a's proposition)."
    from shuffle_privacy.mechanisms.shuffled_ldp.pld import ShuffledLDPEvent
    assert isinstance(ev, ShuffledLDPEvent) and ev.num_users == min(kw['group_sizes']), (ev, kw)

DOMAINS = {
    M + 'shuffled_ldp_groups': Domain(
        st.fixed_dictionaries(dict(group_sizes=st.lists(ints(1, 20_000), min_size=1, max_size=3),
                                   local_epsilon=log_uniform(0.1, 8.0))),
        kind='object', check=_check_event, max_examples=4, nan_params=('local_epsilon',),
        invalid=(dict(group_sizes=[], local_epsilon=1.0), dict(group_sizes=[0], local_epsilon=1.0),
                 dict(group_sizes=[10], local_epsilon=-1.0), dict(group_sizes=[10, 20], local_epsilon=0.0))),
    M + 'monotone_violations': Domain(
        st.fixed_dictionaries(dict(group_sizes=st.lists(ints(1, 20_000), min_size=2, max_size=3, unique=True).map(sorted),
                                   local_epsilon=log_uniform(0.1, 4.0))),
        kind='object', max_examples=3, quick=1, nan_params=(),   # each draw builds generic pairs (seconds)
        check=lambda r, kw: isinstance(r, list) and all(v[2] > v[3] for v in r),
        invalid=(dict(group_sizes=[20, 10], local_epsilon=1.0), dict(group_sizes=[10, 20], local_epsilon=0.0),
                 dict(group_sizes=[10, 20], local_epsilon=1.0, max_points=0))),
}
EXEMPT = {}
