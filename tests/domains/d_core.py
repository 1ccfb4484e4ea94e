"""Domains of `shuffle_privacy.core` (see tests/contract_spec.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability, orders

M = 'shuffle_privacy.core.'
DOMAINS = {
    M + 'log1mexp': Domain(st.fixed_dictionaries(dict(x=log_uniform(1e-300, 1e300).map(lambda v: -v))), kind='any',
                           invalid=(dict(x=1.0),)),
    M + 'norm_sf': Domain(st.fixed_dictionaries(dict(x=st.floats(-1e300, 1e300))), kind='probability'),
}
EXEMPT = {}
