"""Domains of `shuffle_privacy.core` (see tests/contract_spec.py)."""
import numpy as np
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, probability, orders

M = 'shuffle_privacy.core.'
DOMAINS = {}
EXEMPT = {M+'optional_import': 'imports a module by name (no numeric answer); examples in nbs/00_core.ipynb',
          M+'progress': 'an iteration wrapper for display (no numeric answer); its examples are in nbs/00_core.ipynb'}
