#!/usr/bin/env python3
"""`python3 dev.py fuzz`: drive every public function over its declared domain (tests/domains/) and write the fuzz
statistics that `nbs/08_contract.ipynb` shows: calls, valid answers, refusals for size, contract violations, and how
many bad inputs raised a ValueError. The same domains and checks as `tests/test_contract.py`, counted instead of
asserted, at each domain's full budget (`Domain.max_examples`; the default pytest run draws fewer).

  python3 dev.py fuzz                        every declared domain, in parallel (about 1-2 minutes on two cores)
  python3 dev.py fuzz NAME [NAME ...]        only these functions (full dotted names, or any part of them), merged
                                             into the existing file: entries no longer declared are dropped
Options: `--examples N` (valid calls per function instead of each domain's budget), `--slow` (include the slow
domains), `--jobs N` (worker processes; default: up to 2), `--out PATH`."""
import argparse, json, os, sys, time, warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/'tests'))
OUT = ROOT/'nbs'/'fuzz_stats.json'

def bad_inputs(d, first_example):
    "The declared invalid inputs, and each float parameter of one valid input replaced by NaN, inf and -inf."
    out = [dict(kw) for kw in d.invalid]
    kw = first_example(d.valid)
    keys = d.nan_params if d.nan_params is not None else [k for k, v in kw.items() if isinstance(v, float)]
    for k in keys:
        for bad in (float('nan'), float('inf'), -float('inf')): out.append({**kw, k: bad})
    return out

def fuzz_one(f, d, examples, check_result, first_example):
    "Counts for one function: valid calls by outcome, and bad inputs by whether they raised a ValueError."
    from hypothesis import given, settings, HealthCheck
    from shuffle_privacy.core import ResourceLimitError
    c = dict(calls=0, valid=0, refused=0, violations=0, bad=0, bad_rejected=0, examples_of_violations=[])
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True)
    @given(d.valid)
    def prop(kw):
        c['calls'] += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                r = f(**kw)
            check_result(d.kind, r, kw, d.rdp_orders_kw)
            if d.check is not None: d.check(r, kw)
            c['valid'] += 1
        except ResourceLimitError: c['refused'] += 1
        except Exception as e:
            c['violations'] += 1
            if len(c['examples_of_violations']) < 3:
                c['examples_of_violations'].append(f'{type(e).__name__}: {e}'[:200])
    prop()
    for kw in bad_inputs(d, first_example):
        c['bad'] += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                f(**kw)
        except ValueError: c['bad_rejected'] += 1
        except Exception: pass
    return c

FIELDS = ('calls', 'valid', 'refused', 'violations', 'bad', 'bad_rejected')   # per function, summed in `totals`

def _fuzz_named(job):
    "Worker: fuzz one declared function by name; returns (name, counts with the seconds it took)."
    name, examples = job
    import test_contract as tc
    from contract_spec import check_result
    t, d = time.time(), tc.DOMAINS[name]
    row = fuzz_one(tc.PUBLIC[name], d, examples or d.max_examples, check_result, tc._first_example)
    row['seconds'] = round(time.time() - t, 3)
    return name, row

def select(names, patterns):
    "The declared names matching any pattern (a full dotted name, or a substring of one); all of them if none."
    if not patterns: return list(names)
    out = [n for n in names if any(p == n or p in n for p in patterns)]
    unknown = [p for p in patterns if not any(p == n or p in n for n in names)]
    if unknown: raise SystemExit(f'fuzz_stats: no declared domain matches {unknown} (see tests/domains/)')
    return out

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('names', nargs='*', help='only these functions, merged into the existing --out file')
    ap.add_argument('--examples', type=int, default=None)
    ap.add_argument('--slow', action='store_true')
    ap.add_argument('--jobs', type=int, default=min(os.cpu_count() or 1, 2))
    ap.add_argument('--out', default=str(OUT))
    a = ap.parse_args(argv)
    import test_contract as tc
    out = Path(a.out)
    declared = sorted(n for n, d in tc.DOMAINS.items() if a.slow or not d.slow)
    names = select(declared, a.names)
    rows = {}
    if a.names and out.exists():     # a partial run: keep the other entries that are still declared
        rows = {k: v for k, v in json.loads(out.read_text(encoding='utf-8'))['functions'].items() if k in declared}
    t0, jobs = time.time(), [(n, a.examples) for n in names]
    if a.jobs > 1 and len(jobs) > 1:
        import multiprocessing as mp
        # fork: the workers inherit the imported package and domains (spawn would import them once more per worker);
        # the slowest functions first, so that no worker is left with a long one at the end
        ctx = mp.get_context('fork' if 'fork' in mp.get_all_start_methods() else None)
        jobs.sort(key=lambda j: -_previous_seconds(out, j[0]))
        with ctx.Pool(a.jobs, maxtasksperchild=None) as pool:
            for i, (name, row) in enumerate(pool.imap_unordered(_fuzz_named, jobs, chunksize=1), 1):
                rows[name] = _log(i, len(jobs), name, row)
    else:
        for i, job in enumerate(jobs, 1):
            name, row = _fuzz_named(job); rows[name] = _log(i, len(jobs), name, row)
    rows = dict(sorted(rows.items()))
    tot = {k: sum(r[k] for r in rows.values()) for k in FIELDS}
    import shuffle_privacy
    res = dict(version=shuffle_privacy.__version__, date=time.strftime('%Y-%m-%d'),
               examples=a.examples or "each domain's full budget",
               functions_fuzzed=len(rows), public_functions=len(tc.PUBLIC), exempt=len(tc.EXEMPT),
               slow_domains_skipped=sum(1 for d in tc.DOMAINS.values() if d.slow) if not a.slow else 0,
               totals=tot, seconds=round(sum(r['seconds'] for r in rows.values()), 1),   # summed over functions
               functions=rows)
    out.write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print(f'wrote {out} ({len(names)} of {len(rows)} functions fuzzed now): {tot} in {time.time() - t0:.0f}s wall; '
          f'then re-execute the notebook that shows it: python3 dev.py run 08_contract')
    return 1 if tot['violations'] or tot['bad'] != tot['bad_rejected'] else 0

def _previous_seconds(out, name, _cache={}):
    "How long `name` took in the committed statistics (0 if new): the order in which the workers take the work."
    if out not in _cache:
        try: _cache[out] = json.loads(out.read_text(encoding='utf-8'))['functions']
        except (OSError, ValueError, KeyError): _cache[out] = {}
    return _cache[out].get(name, {}).get('seconds', 0.0)

def _log(i, n, name, row):
    print(f'[{i}/{n}] {name}: {row["valid"]}/{row["calls"]} valid, {row["violations"]} violations '
          f'({row["seconds"]:.1f}s)', flush=True)
    return row

if __name__ == '__main__': sys.exit(main())
