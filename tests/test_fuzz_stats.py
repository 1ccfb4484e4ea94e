"""The fuzz statistics page (issue 12): `tools/fuzz_stats.py` counts what `test_contract.py` asserts, and the
committed `nbs/fuzz_stats.json` covers every declared domain (rerun `python3 dev.py fuzz` after adding one)."""
import json, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/'tools'))
import fuzz_stats
from test_contract import DOMAINS, PUBLIC, _first_example
from contract_spec import Domain, check_result
from hypothesis import strategies as st

def test_fuzz_one_counts_valid_answers_violations_and_rejections():
    good = Domain(st.fixed_dictionaries(dict(x=st.floats(0.0, 1.0))), kind='probability', invalid=(dict(x=-1.0),))
    def f(x):
        if not 0 <= x <= 1: raise ValueError('x must be in [0, 1]')
        return x
    c = fuzz_stats.fuzz_one(f, good, 10, check_result, _first_example)
    assert (c['valid'], c['violations'], c['bad'], c['bad_rejected']) == (c['calls'], 0, 4, 4)   # invalid + nan/±inf
    c = fuzz_stats.fuzz_one(lambda x: 2.0 + x, good, 10, check_result, _first_example)       # δ outside [0, 1]
    assert c['violations'] == c['calls'] > 0 and c['bad_rejected'] == 0 and c['examples_of_violations']

def test_committed_statistics_cover_every_declared_domain_and_are_clean():
    stats = json.loads((ROOT/'nbs'/'fuzz_stats.json').read_text(encoding='utf-8'))
    want = {n for n, d in DOMAINS.items() if not d.slow}
    assert set(stats['functions']) == want, ('nbs/fuzz_stats.json is stale: run `python3 dev.py fuzz`; missing '
                                             f'{sorted(want - set(stats["functions"]))[:5]}, extra '
                                             f'{sorted(set(stats["functions"]) - want)[:5]}')
    t = stats['totals']
    assert t['violations'] == 0 and t['bad'] == t['bad_rejected'] and t['valid'] + t['refused'] == t['calls']
