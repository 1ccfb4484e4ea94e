"""Benchmark harness: ratios against a baseline measured in the same run, with interleaved repetitions.

Every benchmark script `benchmarks/bench_*.py` defines `run() -> list[dict]`; each dict is a *row* made by
`compare` (or by `row` for a measurement that is not a timing ratio, e.g. peak memory). `run_all` imports the
scripts, collects their rows (a script that fails gives one row saying so, it does not stop the others) and
`write_results` writes `RESULTS.md`, `results.json` and `ratios.png`.

Why interleaved: timing A for a while and then B for a while lets a change of machine load (another process, CPU
frequency scaling, a warm or cold cache) land on one side only. Alternating A B A B ... and taking the ratio
*per repetition* puts both sides of each ratio under the same conditions; the median of those ratios and its
10th-90th percentile spread are what we report. No test asserts a timing.
"""
from __future__ import annotations
import datetime, importlib.util, json, math, os, platform, re, sys, time, tracemalloc, traceback
from pathlib import Path
import numpy as np

HERE = Path(__file__).resolve().parent
ROW_KEYS = ('name', 'baseline', 'ratio_median', 'ratio_lo', 'ratio_hi', 'notes',
            'candidate_s', 'baseline_s', 'repeats', 'number', 'peak_mb', 'status', 'target')

def row(name, baseline, ratio_median=math.nan, ratio_lo=math.nan, ratio_hi=math.nan, notes='', *,
        candidate_s=math.nan, baseline_s=math.nan, repeats=0, number=0, peak_mb=math.nan, status='ok', target=None):
    "A result row with every key of `ROW_KEYS` (floats as float, NaN where a field does not apply; `target`: max ratio)"
    return dict(target=None if target is None else float(target), name=str(name), baseline=str(baseline),
                ratio_median=float(ratio_median), ratio_lo=float(ratio_lo),
                ratio_hi=float(ratio_hi), notes=str(notes), candidate_s=float(candidate_s),
                baseline_s=float(baseline_s), repeats=int(repeats), number=int(number), peak_mb=float(peak_mb),
                status=str(status))

def _time(fn, number, clock):
    "Seconds per call of `fn` averaged over `number` calls."
    t0 = clock()
    for _ in range(number): fn()
    return (clock() - t0)/number

def auto_number(fn, target=0.05, clock=time.perf_counter, cap=10_000):
    "Calls per repetition so that one repetition of `fn` takes about `target` seconds (at least 1, at most `cap`)."
    t = _time(fn, 1, clock)
    return int(min(cap, max(1, target/max(t, 1e-9))))

def interleaved_times(candidate, baseline, *, repeats=7, number=None, warmup=1, clock=time.perf_counter):
    "Per-repetition times (s per call) of `candidate` and `baseline`, run alternately A B A B ... after a warm-up."
    for _ in range(warmup): candidate(); baseline()
    if number is None: number = min(auto_number(candidate, clock=clock), auto_number(baseline, clock=clock))
    ta, tb = [], []
    for _ in range(repeats):
        ta.append(_time(candidate, number, clock))
        tb.append(_time(baseline, number, clock))
    return np.array(ta), np.array(tb), number

def compare(name, candidate, baseline, *, repeats=7, number=None, baseline_name='baseline', notes='', warmup=1,
            clock=time.perf_counter):
    "Row for the time ratio candidate/baseline (< 1: candidate faster): median and p10-p90 of per-repetition ratios."
    ta, tb, number = interleaved_times(candidate, baseline, repeats=repeats, number=number, warmup=warmup, clock=clock)
    r = ta/np.maximum(tb, 1e-12)
    lo, med, hi = np.percentile(r, [10, 50, 90])
    return row(name, baseline_name, med, lo, hi, notes, candidate_s=np.median(ta), baseline_s=np.median(tb),
               repeats=repeats, number=number)

def peak_memory(fn):
    "(peak traced Python/numpy allocation of one call of `fn` in MB, its result), via tracemalloc."
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        out = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak/2**20, out

def time_once(name, fn, *, repeats=3, notes='', baseline_name='-'):
    "Row with the median absolute time of `fn` (no ratio), for measurements without a baseline."
    fn()
    ts = [_time(fn, 1, time.perf_counter) for _ in range(repeats)]
    return row(name, baseline_name, notes=notes, candidate_s=np.median(ts), repeats=repeats, number=1)

# ------------------------------------------------------------------------------------------------ running all
def discover(names=()):
    "Paths of benchmarks/bench_*.py, or of those whose stem (with or without `bench_`) is in `names`."
    paths = sorted(HERE.glob('bench_*.py'))
    if not names: return paths
    want = {n.removeprefix('bench_').removesuffix('.py') for n in names}
    got = [p for p in paths if p.stem.removeprefix('bench_') in want]
    missing = want - {p.stem.removeprefix('bench_') for p in got}
    if missing: raise SystemExit(f'no benchmark named {sorted(missing)}; have {[p.stem for p in paths]}')
    return got

def _normalise(r):
    "A script's dict as a full row; an absolute timing given in the ratio fields (baseline '(absolute)') is moved."
    r = row(**{k: v for k, v in r.items() if k in ROW_KEYS})
    if r['baseline'].strip('()- ').lower() in ('absolute', '') and not math.isfinite(r['candidate_s']):
        t, lo, hi = r['ratio_median'], r['ratio_lo'], r['ratio_hi']
        r.update(candidate_s=t, ratio_median=math.nan, ratio_lo=math.nan, ratio_hi=math.nan, baseline='(absolute)',
                 notes=(r['notes'] + f'; absolute time, range {_fmt_t(lo)}–{_fmt_t(hi)}').strip('; '))
    return r

def run_script(path):
    "(rows, seconds) of one script's `run()`; a failure becomes one row with status 'error' or 'skipped'."
    t0 = time.perf_counter()
    try:
        spec = importlib.util.spec_from_file_location(f'_bench_{path.stem}', path)
        mod = importlib.util.module_from_spec(spec)
        extra = [str(HERE), str(HERE.parent)]  # `from harness import ...` and `from benchmarks.harness import ...`
        sys.path[:0] = extra
        try: spec.loader.exec_module(mod)
        finally:
            for e in extra: sys.path.remove(e)
        if not callable(getattr(mod, 'run', None)):
            return [dict(row(path.stem, '-', notes='no run() function (old-style script, not yet ported)',
                             status='skipped'), script=path.stem)], time.perf_counter() - t0
        rows = [_normalise(r) for r in mod.run()]
        for r in rows: r['script'] = path.stem
        return rows, time.perf_counter() - t0
    except Exception as e:  # reported in the table, not fatal
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        return [dict(row(path.stem, '-', notes=tb[:200], status='error'), script=path.stem)], time.perf_counter() - t0

def machine_info():
    "Facts about the machine and the library versions, for the results header."
    import scipy
    info = dict(date=datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
                python=platform.python_version(), platform=platform.platform(), processor=platform.processor() or '?',
                cpus=os.cpu_count(), numpy=np.__version__, scipy=scipy.__version__)
    for mod in ('dp_accounting', 'prv_accountant', 'shuffle_privacy'):
        try:
            from importlib.metadata import version
            info[mod] = version(mod.replace('_', '-'))
        except Exception: info[mod] = 'not installed'
    return info

def _fmt_t(s):
    if not math.isfinite(s): return '-'
    for unit, f in (('s', 1), ('ms', 1e3), ('µs', 1e6), ('ns', 1e9)):
        if s*f >= 1: return f'{s*f:.3g} {unit}'
    return f'{s*1e9:.3g} ns'

def _fmt_ratio(r):
    if not math.isfinite(r['ratio_median']): return '-'
    return f"{r['ratio_median']:.3g} [{r['ratio_lo']:.3g}–{r['ratio_hi']:.3g}]"

_TARGET = re.compile(r'target:?\s*(?:<=|≤)\s*([0-9.eE+-]+)')

def target_of(r):
    "The row's target ratio: its `target` key, else a 'target <= X' in its notes, else None."
    t = r.get('target')
    if t is not None and not math.isfinite(float(t)): t = None    # results.json stores a missing target as NaN
    if t is None:
        m = _TARGET.search(r.get('notes', ''))
        t = float(m.group(1).rstrip('.')) if m else None
    return None if t is None else float(t)

def _fmt_target(r):
    t = target_of(r)
    if t is None: return ''
    if not math.isfinite(r['ratio_median']): return f'≤ {t:g} ?'
    return f"≤ {t:g} {'met' if r['ratio_median'] <= t else '**NOT met**'}"

def markdown(rows, info, durations=None):
    "The RESULTS.md text: header with machine info, then one table row per result."
    out = ['# Benchmark results', '',
           'Generated by `python3 dev.py bench`; do not edit by hand. **ratio** = time of shuffle_privacy / time of '
           'the '
           'baseline in the same run (< 1: shuffle_privacy is faster), median over interleaved repetitions '
           '(A B A B …) with the 10th–90th percentile in brackets. Times are medians per call.', '',
           '| ' + ' | '.join(f'{k}: {v}' for k, v in info.items()) + ' |', '|' + '---|'*len(info), '',
           ]
    tg = [r for r in rows if target_of(r) is not None]
    met = [r for r in tg if math.isfinite(r['ratio_median']) and r['ratio_median'] <= target_of(r)]
    if tg:
        out += [f'**Targets** (a `target <= x` on the median ratio): {len(met)} of {len(tg)} met.'
                + (' Not met: ' + '; '.join(f"{r['name']} ({_fmt_ratio(r)} vs ≤ {target_of(r):g})"
                                            for r in tg if r not in met) + '.' if len(met) < len(tg) else ''), '']
    out += ['| script | benchmark | baseline | ratio median [p10–p90] | target | ours | baseline | peak MB | notes |',
            '|---|---|---|---|---|---|---|---|---|']
    for r in rows:
        note = r['notes'].replace('|', '\\|').replace('\n', ' ')
        if r['status'] != 'ok': note = f"**{r['status'].upper()}**: {note}"
        pk = f"{r['peak_mb']:.3g}" if math.isfinite(r['peak_mb']) else '-'
        out.append(f"| {r.get('script', '')} | {r['name']} | {r['baseline']} | {_fmt_ratio(r)} | {_fmt_target(r)} | "
                   f"{_fmt_t(r['candidate_s'])} | {_fmt_t(r['baseline_s'])} | {pk} | {note} |")
    if durations:
        out += ['', 'Wall time per script: ' + ', '.join(f'{k} {v:.1f} s' for k, v in durations.items()) + '.']
    return '\n'.join(out) + '\n'

def plot_ratios(rows, path):
    "Horizontal log-scale bar chart of median ratios with their spread, written to `path`."
    import matplotlib; matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    rs = [r for r in rows if math.isfinite(r['ratio_median']) and r['ratio_median'] > 0]
    fig, ax = plt.subplots(figsize=(9, 0.32*len(rs) + 1.2))
    y = np.arange(len(rs))
    med = np.array([r['ratio_median'] for r in rs])
    lo, hi = np.array([r['ratio_lo'] for r in rs]), np.array([r['ratio_hi'] for r in rs])
    ax.barh(y, med, color=['tab:green' if m < 1 else 'tab:red' for m in med], alpha=.7)
    ax.errorbar(med, y, xerr=[np.maximum(med - lo, 0), np.maximum(hi - med, 0)], fmt='none', ecolor='k', lw=1)
    ax.axvline(1, color='k', lw=.8)
    ax.set_yticks(y, [f"{r['name']} (vs {r['baseline']})"[:70] for r in rs], fontsize=7)
    ax.set_xscale('log'); ax.invert_yaxis()
    ax.set_xlabel('time ratio shuffle_privacy / baseline (log scale; < 1 is faster)')
    fig.tight_layout(); fig.savefig(path, dpi=110); plt.close(fig)

def write_results(rows, info, durations=None, out_dir=HERE):
    "Write RESULTS.md, results.json and ratios.png into `out_dir`."
    out_dir = Path(out_dir)
    (out_dir/'RESULTS.md').write_text(markdown(rows, info, durations))
    clean = lambda v: None if isinstance(v, float) and not math.isfinite(v) else v
    (out_dir/'results.json').write_text(json.dumps(
        dict(machine=info, durations=durations or {}, rows=[{k: clean(v) for k, v in r.items()} for r in rows]),
        indent=1, ensure_ascii=False) + '\n')
    plot_ratios(rows, out_dir/'ratios.png')

def run_all(names=(), out_dir=HERE):
    "Run the named (or all) benchmark scripts, write the results files, return the rows."
    rows, durations = [], {}
    for p in discover(names):
        print(f'--- {p.stem}', flush=True)
        rs, dt = run_script(p)
        durations[p.stem] = dt
        for r in rs: print(f"  {r['name'][:60]:60s} {_fmt_ratio(r):>24s}  {r['status']}", flush=True)
        rows += rs
    if names and (Path(out_dir)/'results.json').exists():  # keep the other scripts' previous rows
        old = json.loads((Path(out_dir)/'results.json').read_text())
        ran = set(durations)
        keep = [{k: (math.nan if v is None and k != 'target' else v) for k, v in r.items()}
                for r in old['rows'] if r.get('script') not in ran]
        rows = keep + rows
        durations = {**{k: v for k, v in old.get('durations', {}).items() if k not in ran}, **durations}
        rows.sort(key=lambda r: r.get('script', ''))
    write_results(rows, machine_info(), durations, out_dir)
    return rows

def main(argv):
    "`harness.py [names...]`: the named (or all) scripts; `scaling` among the names (or no names) runs scaling.py too."
    names = [a for a in argv if a != 'scaling']
    if names or not argv: run_all(names)
    if 'scaling' in argv or not argv:
        sys.path.insert(0, str(HERE))
        import scaling
        scaling.main()

if __name__ == '__main__':
    main(sys.argv[1:])
