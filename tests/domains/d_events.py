"""Domains of `shuffle_privacy.accounting.events`, `.rdp` and `.calibrate` (see tests/contract_spec.py)."""
import math
import numpy as np
from hypothesis import strategies as st
import dp_accounting
from contract_spec import Domain, log_uniform, ints, probability, orders

M = 'shuffle_privacy.accounting.events.'
events = st.one_of(
    log_uniform(1e-3, 1e6).map(dp_accounting.GaussianDpEvent),
    log_uniform(1e-3, 1e6).map(dp_accounting.LaplaceDpEvent),
    st.tuples(probability(1e-12, 1.0), ints(2, 10**6)).map(lambda t: dp_accounting.RandomizedResponseDpEvent(*t)),
    st.tuples(probability(1e-12, 1.0), log_uniform(1e-2, 1e4)).map(
        lambda t: dp_accounting.PoissonSampledDpEvent(t[0], dp_accounting.GaussianDpEvent(t[1]))),
    st.tuples(ints(1, 10**9), log_uniform(0.05, 1e4)).map(
        lambda t: dp_accounting.SampledWithoutReplacementDpEvent(t[0], max(1, t[0]//7),
                                                                 dp_accounting.GaussianDpEvent(t[1]))),
)

def _integer_gaussian(o): return np.asarray(o, float)/2.0

DOMAINS = {
    M + 'check_orders': Domain(st.fixed_dictionaries(dict(orders=orders(1 + 1e-12, 1e12))), kind='finite',
                               invalid=(dict(orders=[1.0]), dict(orders=[[2.0, 3.0]]), dict(orders=[])), nan_params=()),
    M + 'monotone_envelope': Domain(st.integers(1, 8).flatmap(lambda k: st.fixed_dictionaries(dict(
        orders=st.lists(log_uniform(1.0001, 1e6), min_size=k, max_size=k).map(np.array),
        rdp=st.lists(log_uniform(1e-300, 1e300), min_size=k,
                     max_size=k).map(np.array)))), kind='nonneg', nan_params=()),
    M + 'rdp_of': Domain(st.fixed_dictionaries(dict(event=events, orders=orders(1 + 1e-9, 1e5))), kind='rdp',
                         invalid=(dict(event=dp_accounting.GaussianDpEvent(1.0), orders=[0.5]),
                                  dict(event=dp_accounting.GaussianDpEvent(1.0), orders=[math.nan]),
                                  dict(event=object(), orders=[2.0])), nan_params=()),
    M + 'rdp_from_integer_orders': Domain(st.fixed_dictionaries(dict(
        orders=orders(1 + 1e-9, 1e4), curve=st.just(_integer_gaussian), max_order=ints(2, 3000))), kind='nonneg',
        invalid=(dict(orders=[2.0], curve=_integer_gaussian, max_order=1),), nan_params=()),
    M + 'wbk_subsampled_rdp': Domain(st.fixed_dictionaries(dict(
        orders=st.lists(ints(2, 2000), min_size=1, max_size=5).map(lambda v: np.array(sorted(v))),
        inner=st.just(_integer_gaussian), sampling_rate=probability(1e-300, 1.0))), kind='rdp',
        invalid=(dict(orders=[2], inner=_integer_gaussian, sampling_rate=1.5),
                 dict(orders=[1.5], inner=_integer_gaussian, sampling_rate=0.5))),
    M + 'poisson_gaussian_rdp': Domain(st.fixed_dictionaries(dict(
        orders=orders(1 + 1e-9, 1e5), sampling_probability=probability(1e-300, 1.0),
        noise_multiplier=log_uniform(1e-3, 1e8))), kind='rdp',
        invalid=(dict(orders=[2.0], sampling_probability=-0.1, noise_multiplier=1.0),
                 dict(orders=[2.0], sampling_probability=0.1, noise_multiplier=0.0))),
    'shuffle_privacy.accounting.rdp.adaptive_orders': Domain(st.fixed_dictionaries(dict(top=ints(64, 2**20))),
                                                            kind='finite', invalid=(dict(top=10),)),
}

def _gauss(s): return dp_accounting.GaussianDpEvent(s)

def _check_calibrated(result, kw):
    from shuffle_privacy.accounting.rdp import RdpAccountant
    assert RdpAccountant().compose(_gauss(result)).get_epsilon(kw['target_delta']) <= kw['target_epsilon']

DOMAINS['shuffle_privacy.accounting.calibrate.calibrate'] = Domain(
    st.fixed_dictionaries(dict(make_event=st.just(_gauss), target_epsilon=log_uniform(1e-2, 1e3),
                               target_delta=probability(1e-30, 0.5))),
    kind='nonneg', check=_check_calibrated, max_examples=10,
    invalid=(dict(make_event=_gauss, target_epsilon=0.0, target_delta=1e-6),
             dict(make_event=_gauss, target_epsilon=1.0, target_delta=1.5),
             dict(make_event=_gauss, target_epsilon=1.0, target_delta=1e-6, bracket=(3.0, 1.0))))
from dp_accounting import NeighboringRelation as _NR
DOMAINS[M + 'check_relation'] = Domain(
    st.fixed_dictionaries(dict(neighboring_relation=st.sampled_from([_NR.REPLACE_ONE, _NR.ADD_OR_REMOVE_ONE]))),
    kind='object', check=lambda r, kw: r == kw['neighboring_relation'], nan_params=(),
    invalid=(dict(neighboring_relation=_NR.REPLACE_SPECIAL),))
DOMAINS[M + 'check_budget'] = Domain(
    st.fixed_dictionaries(dict(memory_budget=ints(2**20, 2**40))), kind='finite',
    check=lambda r, kw: r == kw['memory_budget'], invalid=(dict(memory_budget=10), dict(memory_budget=2**70)))
DOMAINS[M + 'check_target_delta'] = Domain(
    st.fixed_dictionaries(dict(target_delta=probability(1e-300, 1.0))), kind='probability',
    check=lambda r, kw: r == kw['target_delta'], max_examples=10,
    invalid=(dict(target_delta=0.0), dict(target_delta=1.5), dict(target_delta=-1e-9)))
EXEMPT = {
    M + 'patch': 'a class decorator (fastcore-style @patch); tested in notebook 02 and by tests/test_accountants.py',
    M + 'check_number': 'wraps a core validator passed as a callable; exercised by every accountant target in '
                        'tests/test_accountants.py (huge integers raise ValueError)',
    M + 'missing_message': 'returns a message string for an event nobody registered; tested through the accountants',
    M + 'poisson_inner_message': 'returns a message string; tests/test_accountants.py checks it names '
                                 'ShuffledCheckInEvent',
    M + 'find_unsupported': 'walks an event tree over a registry callable; tested in notebook 02 and by '
                            'tests/test_accountants.py (both accountants accept and refuse the same events)',
}
