"""The fuzz statistics page (issue 12): `tools/fuzz_stats.py` counts what `test_contract.py` asserts, the committed
`nbs/fuzz_stats.json` covers every declared domain, and notebook 08_contract reads the fields the tool writes."""
import json, re, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/'tools'))
import fuzz_stats
from test_contract import DOMAINS, _first_example
from contract_spec import Domain, check_result
from hypothesis import strategies as st

STATS = ROOT/'nbs'/'fuzz_stats.json'

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
    stats = json.loads(STATS.read_text(encoding='utf-8'))
    want, have = {n for n, d in DOMAINS.items() if not d.slow}, set(stats['functions'])
    missing, extra = sorted(want - have), sorted(have - want)
    # a few new functions: a partial run fuzzes only those and drops entries no longer declared (seconds, not minutes)
    cmd = f"python3 dev.py fuzz {' '.join(missing)}" if 0 < len(missing) <= 5 else 'python3 dev.py fuzz'
    assert not missing and not extra, (f'nbs/fuzz_stats.json is stale: run `{cmd}`, then `python3 dev.py run '
                                       f'08_contract`; {len(missing)} missing {missing[:5]}, {len(extra)} extra {extra[:5]}')
    t = stats['totals']
    assert t == {k: sum(c[k] for c in stats['functions'].values()) for k in fuzz_stats.FIELDS}
    assert t['violations'] == 0 and t['bad'] == t['bad_rejected'] and t['valid'] + t['refused'] == t['calls'], (
        'nbs/fuzz_stats.json records contract violations: `python3 dev.py fuzz` lists them; fix, then rerun it')

def _notebook_code(name):
    nb = json.loads((ROOT/'nbs'/name).read_text(encoding='utf-8'))
    return '\n'.join(''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'code')

def test_tool_writes_what_notebook_08_reads_and_a_partial_run_merges(tmp_path):
    "A partial run (one cheap function, one draw) into a copy of the committed file: same format, entries kept."
    out = tmp_path/'fuzz_stats.json'
    committed = json.loads(STATS.read_text(encoding='utf-8'))
    out.write_text(json.dumps(committed), encoding='utf-8')
    name = 'shuffle_privacy.accounting.pld_build.check_interval'
    assert fuzz_stats.main([name, '--examples', '1', '--jobs', '1', '--out', str(out)]) == 0
    fresh = json.loads(out.read_text(encoding='utf-8'))
    kept = {n for n in committed['functions'] if n in DOMAINS and not DOMAINS[n].slow} | {name}   # stale ones dropped
    assert fresh['functions'][name]['calls'] == 1 and set(fresh['functions']) == kept
    assert set(fresh) == set(committed) and set(fresh['totals']) == set(committed['totals']) == set(fuzz_stats.FIELDS)
    assert all(set(c) == set(fresh['functions'][name]) for c in committed['functions'].values())
    code = _notebook_code('08_contract.ipynb')
    top, tot = set(re.findall(r"stats\[['\"](\w+)['\"]\]", code)), set(re.findall(r"\bt\[['\"](\w+)['\"]\]", code))
    per = set(re.findall(r"['\"](\w+)['\"]", re.search(r"for k in \(([^)]*)\)", code).group(1)))
    assert top and tot and per, 'notebook 08_contract no longer reads the statistics as this test expects'
    assert top <= set(fresh), f'08_contract reads {sorted(top - set(fresh))}, which tools/fuzz_stats.py does not write'
    assert tot <= set(fresh['totals']) and per <= set(fresh['functions'][name]), (tot, per)

def test_partial_run_rejects_an_undeclared_name(tmp_path):
    with pytest.raises(SystemExit, match='no declared domain'):
        fuzz_stats.main(['shuffle_privacy.no_such_function', '--out', str(tmp_path/'x.json')])
