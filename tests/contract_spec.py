"""The reliability contract (issue 12) as data: each public function declares its valid domain here.

Every module's domains live in `tests/domains/d_<area>.py`, which defines two dicts:

- `DOMAINS = {'shuffle_privacy.x.y.func': Domain(valid=..., ...)}`;
- `EXEMPT = {'shuffle_privacy.x.y.Name': 'reason'}` for classes, plotting and training loops,
  which are checked by their own tests.

`tests/test_contract.py` walks every module's `__all__` and fails on any public name that is in neither dict,
so that a new function cannot slip past the contract.
"""
import math, numbers
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Callable
import numpy as np
from hypothesis import strategies as st

__all__ = ['Domain', 'log_uniform', 'orders', 'probability', 'ints', 'KINDS', 'check_result']

def log_uniform(lo: float, hi: float) -> st.SearchStrategy:
    "Floats spread evenly in log space over [lo, hi] (both > 0), endpoints included."
    a, b = math.log(lo), math.log(hi)
    return st.one_of(st.just(float(lo)), st.just(float(hi)),
                     st.floats(a, b).map(lambda t: float(min(max(math.exp(t), lo), hi))))

def ints(lo: int, hi: int) -> st.SearchStrategy:
    "Integers in [lo, hi], spread in log space when the range is wide."
    if hi <= 4 * max(lo, 1): return st.integers(lo, hi)
    return st.one_of(st.integers(lo, min(hi, lo + 8)),
                     log_uniform(max(lo, 1), hi).map(lambda x: int(min(max(round(x), lo), hi))))

def probability(lo: float = 1e-300, hi: float = 1.0) -> st.SearchStrategy:
    "Probabilities in [lo, hi], spread in log space."
    return log_uniform(lo, hi)

def orders(lo: float = 1.0 + 1e-6, hi: float = 1e4, max_size: int = 6) -> st.SearchStrategy:
    "A sorted 1-d array of RDP orders in (1, hi]."
    return st.lists(log_uniform(lo, hi), min_size=1, max_size=max_size).map(lambda v: np.array(sorted(v)))

# What a result must satisfy, by kind. Every kind also forbids NaN anywhere in the result.
KINDS = ('any', 'epsilon', 'delta', 'rdp', 'probability', 'finite', 'nonneg', 'object')

@dataclass
class Domain:
    "The valid domain of one public function, and what its result must satisfy."
    valid: st.SearchStrategy            # draws a dict of keyword arguments (use st.fixed_dictionaries)
    kind: str = 'any'                   # one of KINDS, checked on every numeric leaf of the result
    invalid: tuple = ()                 # dicts of keyword arguments that must raise ValueError before any work
    nan_params: tuple = None            # float parameters that must reject NaN and inf (None: every float kwarg)
    check: Callable[[Any, dict], None] = None  # extra property: check(result, kwargs) asserts
    max_examples: int = 25              # full budget (`dev.py fuzz`, `-m slow`)
    quick: int = 4                      # draws in the default run (at most max_examples); lower for a costly study
    slow: bool = False                  # True: only in the slow run (-m slow)
    rdp_orders_kw: str = 'orders'       # for kind 'rdp': the keyword that holds the orders

def _leaves(x):
    "Every numeric leaf of a result (numbers, arrays, tuples, lists, dicts, dataclasses)."
    if isinstance(x, (bool, np.bool_)) or x is None or isinstance(x, str): return
    if isinstance(x, numbers.Number): yield float(x) if not isinstance(x, numbers.Integral) else x; return
    if isinstance(x, np.ndarray):
        if x.dtype.kind in 'fiuc': yield from np.asarray(x, float).ravel().tolist()
        return
    if isinstance(x, dict): x = list(x.values())
    elif is_dataclass(x) and not isinstance(x, type): x = [getattr(x, f.name) for f in fields(x)]
    if isinstance(x, (tuple, list)):
        for v in x: yield from _leaves(v)

def pair_ok(pair, kwargs: dict, epsilons=(0.0, 0.5, 2.0)):
    "A `PldPair` result: at each ε its δ interval is ordered, in [0, 1], and the upper end does not rise with ε."
    prev = 1.0
    for e in epsilons:
        lo, up = pair.delta_bounds(e)
        assert 0.0 <= lo <= up <= prev + 1e-15, (e, lo, up)
        prev = up

def check_result(kind: str, result, kwargs: dict, rdp_orders_kw='orders'):
    "Assert the contract on `result` for a call with `kwargs`."
    assert result is not None or kind in ('any', 'object'), 'returned None'
    vals = list(_leaves(result))
    for v in vals: assert not (isinstance(v, float) and math.isnan(v)), f'NaN in result {result!r}'
    if kind == 'delta' or kind == 'probability':
        for v in vals: assert 0.0 <= v <= 1.0, f'{kind} {v!r} outside [0, 1]'
    elif kind in ('epsilon', 'nonneg'):
        for v in vals: assert v >= 0.0, f'{kind} {v!r} negative'
    elif kind == 'finite':
        for v in vals: assert math.isfinite(v), f'non-finite {v!r}'
    elif kind == 'rdp':
        r = np.atleast_1d(np.asarray(result, float))
        assert (r >= 0).all(), f'negative RDP {r}'
        o = np.atleast_1d(np.asarray(kwargs[rdp_orders_kw], float))
        if o.shape == r.shape and o.size > 1:
            idx = np.argsort(o); rs = r[idx]
            assert (np.diff(rs) >= -1e-12 * np.maximum(1.0, np.abs(rs[1:]))).all(), f'RDP falls with the order: {rs}'
