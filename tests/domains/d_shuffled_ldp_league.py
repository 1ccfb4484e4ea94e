"""Domains of `shuffle_privacy.studies.shuffled_ldp_league` (see tests/contract_spec.py)."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability

L = 'shuffle_privacy.studies.shuffled_ldp_league.'
_e0_blanket = log_uniform(1e-3, 50.0)
_d = log_uniform(1e-4, 1e-1)

DOMAINS = {
    L + 'shuffled_ldp_league': Domain(st.fixed_dictionaries(
        dict(n=ints(2, 500), local_epsilon=_e0_blanket, delta=probability(1e-12, 0.5),
             value_discretization_interval=_d)),
        kind='epsilon', max_examples=6, quick=1,      # a study over functions fuzzed on their own
        invalid=(dict(n=1, local_epsilon=1.0), dict(n=10, local_epsilon=0.0),
                 dict(n=10, local_epsilon=1.0, delta=0.0))),
}

EXEMPT = {
    L + 'load_wang_reference': 'reads a file (its path is the input); tested in tests/test_shuffled_ldp_frontier.py',
    L + 'wang_randomizer': 'maps a stored data row (a dict) to a descriptor; tested in tests/test_shuffled_ldp_frontier.py',
    L + 'randomizer_league_row': 'takes a stored data row (a dict); exercised by nbs/47a and tests/test_shuffled_ldp_frontier.py',
}
