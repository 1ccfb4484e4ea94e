"""Domains of `shuffle_privacy.accounting.parallel` (see tests/contract_spec.py)."""
import dp_accounting
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform

M = 'shuffle_privacy.accounting.parallel.'
_gauss = log_uniform(0.3, 50.0).map(dp_accounting.GaussianDpEvent)
_lap = log_uniform(0.3, 50.0).map(dp_accounting.LaplaceDpEvent)
_kids = st.lists(st.one_of(_gauss, _lap), min_size=1, max_size=3)

def _pairs(events):
    from shuffle_privacy.accounting.pld import pld_of
    return [pld_of(e, 1e-2) for e in events]

def _check_pair(pair, kw):
    "δ in [0, 1], lower <= upper, and the upper end at least every child's upper end (it dominates them)."
    from shuffle_privacy.accounting.parallel import upper_profile
    kids = [upper_profile(p) for p in kw['pairs']]
    for e in (0.0, 0.5, 3.0):
        lo, up = pair.delta_bounds(e)
        assert 0.0 <= lo <= up <= 1.0, (e, lo, up)
        assert all(up >= f(e)*(1 - 1e-9) for f in kids), (e, up, [f(e) for f in kids])

def _check_profile(f, kw):
    v = [f(e) for e in (0.0, 0.3, 1.0, 5.0, 50.0)]
    assert all(0.0 <= x <= 1.0 for x in v) and all(a >= b for a, b in zip(v, v[1:])), v

def _parallel_event():
    from shuffle_privacy.accounting.parallel import ParallelDpEvent
    return ParallelDpEvent

DOMAINS = {
    M + 'parallel_pair': Domain(st.fixed_dictionaries(dict(pairs=_kids.map(_pairs))), kind='object',
                                check=_check_pair, max_examples=5, nan_params=(),
                                invalid=(dict(pairs=[]),)),
    M + 'upper_profile': Domain(st.fixed_dictionaries(dict(pair=_kids.map(lambda k: _pairs(k[:1])[0]))),
                                kind='object', check=_check_profile, max_examples=5, nan_params=()),
    M + 'flat_children': Domain(
        st.fixed_dictionaries(dict(event=_kids.map(lambda k: _parallel_event()(k + [_parallel_event()(k)])))),
        kind='object', max_examples=10, nan_params=(),
        check=lambda r, kw: len(r) == len(set(map(repr, r))) and not any(
            isinstance(e, _parallel_event()) for e in r)),
}
EXEMPT = {M + 'ParallelDpEvent': 'an event (a dataclass); validation, RDP and PLD tested in tests/test_parallel.py'}
