"""The contract, enforced: every public function either declares its valid domain in `tests/domains/` or
is exempt with a reason. Valid inputs give valid answers; NaN/inf and the declared bad inputs raise ValueError.

Budgets: the default run draws `Domain.quick` valid inputs per function (4 unless a costly study says fewer) (derandomized, so the same draws every
run) and checks every declared bad input and the NaN/inf substitutions; `pytest -m slow tests/test_contract.py` runs
each domain's full budget (`Domain.max_examples`, as `python3 dev.py fuzz` does), 20x that afresh, and the slow
domains. The properties checked are the same in every run; only the number of random draws changes."""
import importlib, math, pkgutil, warnings
import numpy as np
import pytest
from hypothesis import given, settings, HealthCheck, strategies as st
import shuffle_privacy
from shuffle_privacy.core import ResourceLimitError
from contract_spec import Domain, check_result

def _public_names():
    "Every public name of every module of the package, as 'module.name'."
    out = {}
    for m in pkgutil.walk_packages(shuffle_privacy.__path__, 'shuffle_privacy.'):
        if m.name.endswith('_modidx'): continue
        try: mod = importlib.import_module(m.name)
        except ImportError as e:  # an optional extra is missing: its names are checked where it is installed
            continue
        for n in getattr(mod, '__all__', []):
            obj = getattr(mod, n)
            home = getattr(obj, '__module__', m.name)
            if home != m.name and callable(obj): continue  # a re-export: checked where it is defined
            out[f'{m.name}.{n}'] = obj
    return out

def _declared():
    domains, exempt = {}, {}
    import domains as pkg
    for m in pkgutil.iter_modules(pkg.__path__):
        mod = importlib.import_module(f'domains.{m.name}')
        for k, v in getattr(mod, 'DOMAINS', {}).items():
            assert k not in domains, f'{k} declared twice'
            domains[k] = v
        exempt.update(getattr(mod, 'EXEMPT', {}))
    return domains, exempt

PUBLIC = _public_names()
DOMAINS, EXEMPT = _declared()

def test_every_public_function_declares_a_domain():
    missing = sorted(k for k, v in PUBLIC.items() if k not in DOMAINS and k not in EXEMPT
                     and (callable(v) and not isinstance(v, type) or k in DOMAINS))
    assert not missing, 'public functions with no domain in tests/domains/: ' + ', '.join(missing)

def test_no_stale_declarations():
    stale = sorted(k for k in list(DOMAINS) + list(EXEMPT) if k not in PUBLIC)
    assert not stale, 'declared but not public (renamed or removed?): ' + ', '.join(stale)

def _resolve(name):
    return PUBLIC[name]

def _run_valid(name, d, n, explore=False):
    "Drive `name` over its valid domain: derandomized as the profile says (conftest.py), or afresh if `explore`."
    f = _resolve(name)
    more = dict(derandomize=False) if explore else {}
    @settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck), database=None, **more)
    @given(d.valid)
    def prop(kw):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try: r = f(**kw)
            except ResourceLimitError as e:   # contract item 4: a refusal for size that says what to use instead
                assert 'instead' in str(e), f'{name}(**{kw!r}): ResourceLimitError without an alternative: {e}'
                return
            except ValueError as e:
                raise AssertionError(f'{name}(**{kw!r}) raised ValueError on a valid input: {e}') from e
        check_result(d.kind, r, kw, d.rdp_orders_kw)
        if d.check is not None: d.check(r, kw)
    prop()

def _run_invalid(name, d):
    f = _resolve(name)
    for kw in d.invalid:
        with pytest.raises(ValueError):
            f(**kw)

def _run_nan(name, d):
    "Replace each float parameter of one valid example with NaN and +-inf: each must raise ValueError."
    f = _resolve(name)
    kw = _first_example(d.valid)
    keys = d.nan_params if d.nan_params is not None else [k for k, v in kw.items() if isinstance(v, float)]
    for k in keys:
        for bad in (math.nan, math.inf, -math.inf):
            kw2 = dict(kw); kw2[k] = bad
            with pytest.raises(ValueError):
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    f(**kw2)

def _first_example(strategy):
    """A deterministic example from a strategy: the first one a derandomized run generates. Hypothesis' shrink phase
    (its minimal example) cost about two CPU-minutes over all domains, for no stronger check."""
    from hypothesis import find, Phase
    return find(strategy, lambda _: True, settings=settings(database=None, max_examples=10, derandomize=True,
                                                            phases=[Phase.explicit, Phase.generate]))


quick = [pytest.param(k, marks=[pytest.mark.slow] if d.slow else []) for k, d in sorted(DOMAINS.items())]

@pytest.mark.parametrize('name', quick)
def test_valid_inputs_give_valid_answers(name):
    _run_valid(name, DOMAINS[name], min(DOMAINS[name].quick, DOMAINS[name].max_examples))

@pytest.mark.slow
@pytest.mark.parametrize('name', sorted(DOMAINS))
def test_valid_inputs_full_budget(name):
    _run_valid(name, DOMAINS[name], DOMAINS[name].max_examples)

@pytest.mark.parametrize('name', quick)
def test_bad_inputs_raise_value_error(name):
    d = DOMAINS[name]
    _run_invalid(name, d)
    _run_nan(name, d)

@pytest.mark.slow
@pytest.mark.parametrize('name', sorted(DOMAINS))
def test_valid_inputs_long_run(name):
    _run_valid(name, DOMAINS[name], 20 * DOMAINS[name].max_examples, explore=True)
