"Logic of benchmarks/harness.py with trivial functions: row format, interleaving order, files. No timing asserted."
import json, math, sys
from pathlib import Path
import pytest
sys.path.insert(0, str(Path(__file__).resolve().parents[1]/'benchmarks'))
import harness

def test_interleaved_order_and_warmup():
    calls = []
    harness.interleaved_times(lambda: calls.append('A'), lambda: calls.append('B'), repeats=3, number=2, warmup=1)
    assert calls == ['A', 'B'] + ['A', 'A', 'B', 'B']*3

def test_compare_row_uses_per_repetition_ratios():
    # a fake clock advancing 1 per candidate call and 2 per baseline call: every ratio is exactly 0.5
    t = [0.0]
    clock = lambda: t[0]
    def a(): t[0] += 1
    def b(): t[0] += 2
    r = harness.compare('x', a, b, repeats=5, number=3, baseline_name='base', clock=clock)
    assert set(harness.ROW_KEYS) <= set(r)
    assert r['name'] == 'x' and r['baseline'] == 'base' and r['status'] == 'ok'
    assert (r['ratio_lo'], r['ratio_median'], r['ratio_hi']) == (0.5, 0.5, 0.5)
    assert (r['candidate_s'], r['baseline_s'], r['repeats'], r['number']) == (1.0, 2.0, 5, 3)

def test_peak_memory_sees_an_allocation():
    import numpy as np
    mb, out = harness.peak_memory(lambda: np.ones(2**20))  # 8 MB
    assert out.shape == (2**20,) and 7.5 < mb < 64

def test_failing_and_old_style_scripts_become_rows(tmp_path, monkeypatch):
    (tmp_path/'bench_bad.py').write_text('def run():\n    raise RuntimeError("boom")\n')
    (tmp_path/'bench_old.py').write_text('def main(): pass\n')
    (tmp_path/'bench_ok.py').write_text('from harness import row\n'
                                        'def run():\n    return [row("t", "b", 2.0, 1.5, 3.0, "n")]\n')
    monkeypatch.setattr(harness, 'HERE', tmp_path)
    monkeypatch.syspath_prepend(str(Path(harness.__file__).parent))
    monkeypatch.setattr(harness, 'plot_ratios', lambda rows, path: Path(path).write_text('png'))
    rows = harness.run_all(out_dir=tmp_path)
    by = {r['script']: r for r in rows}
    assert by['bench_bad']['status'] == 'error' and 'boom' in by['bench_bad']['notes']
    assert by['bench_old']['status'] == 'skipped'
    assert by['bench_ok']['ratio_median'] == 2.0
    md = (tmp_path/'RESULTS.md').read_text()
    assert '| bench_ok | t | b | 2 [1.5–3] |' in md and '**ERROR**' in md
    js = json.loads((tmp_path/'results.json').read_text())
    assert len(js['rows']) == 3 and js['rows'][0]['peak_mb'] is None
    # a named run keeps the other scripts' rows from the previous results.json
    rows2 = harness.run_all(['ok'], out_dir=tmp_path)
    assert sorted(r['script'] for r in rows2) == ['bench_bad', 'bench_ok', 'bench_old']
    with pytest.raises(SystemExit): harness.discover(['nope'])

def test_fit_slope():
    import scaling
    assert math.isclose(scaling.fit_slope([1, 10, 100], [2, 20, 200]), 1.0)
    assert math.isnan(scaling.fit_slope([1], [1]))

def test_targets_parsed_and_reported():
    ok = harness.row('a', 'b', 0.5, 0.4, 0.6, 'issue 14 target <= 2')
    bad = harness.row('c', 'd', 3.0, 2.5, 3.5, 'x', target=2.0)
    plain = harness.row('e', 'f', 1.0, 1.0, 1.0, 'no target here')
    assert (harness.target_of(ok), harness.target_of(bad), harness.target_of(plain)) == (2.0, 2.0, None)
    md = harness.markdown([ok, bad, plain], {'date': 'today'})
    assert '1 of 2 met' in md and '≤ 2 met' in md and '≤ 2 **NOT met**' in md

def test_absolute_timing_rows_are_moved_out_of_the_ratio():
    r = harness._normalise(dict(name='x', baseline='(absolute)', ratio_median=0.7, ratio_lo=0.6, ratio_hi=0.9,
                                notes='seconds'))
    assert r['candidate_s'] == 0.7 and math.isnan(r['ratio_median']) and 'absolute time' in r['notes']
    r2 = harness._normalise(dict(name='y', baseline='dp_accounting', ratio_median=0.5, ratio_lo=0.4, ratio_hi=0.6,
                                 notes=''))
    assert r2['ratio_median'] == 0.5

def test_named_rerun_keeps_targets(tmp_path, monkeypatch):
    (tmp_path/'bench_a.py').write_text('from harness import row\n'
                                       'def run():\n    return [row("a", "b", 1.0, 1.0, 1.0, "target <= 2")]\n')
    (tmp_path/'bench_c.py').write_text('from harness import row\n'
                                       'def run():\n    return [row("c", "d", 1.0, 1.0, 1.0, "")]\n')
    monkeypatch.setattr(harness, 'HERE', tmp_path)
    monkeypatch.setattr(harness, 'plot_ratios', lambda rows, path: Path(path).write_text('png'))
    harness.run_all(out_dir=tmp_path)
    harness.run_all(['c'], out_dir=tmp_path)
    md = (tmp_path/'RESULTS.md').read_text()
    assert '1 of 1 met' in md and 'nan' not in md

def test_nan_target_from_results_json_falls_back_to_the_notes():
    "results.json stores a missing target as NaN; the notes' 'target <= x' must still be read (was '≤ nan')."
    r = harness.row('a', 'b', 0.5, 0.4, 0.6, 'issue 14 target <= 2')
    r['target'] = float('nan')
    assert harness.target_of(r) == 2.0
