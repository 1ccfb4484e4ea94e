#!/usr/bin/env python3
"""`python3 dev.py fuzz`: drive every public function over its declared domain (tests/domains/) and write the fuzz
statistics that `nbs/08_contract.ipynb` shows: calls, valid answers, refusals for size, contract violations, and how
many bad inputs raised a ValueError. The same domains and checks as `tests/test_contract.py`, counted instead of
asserted. Options: `--examples N` (valid calls per function; default: each domain's quick CI budget), `--slow` (include the slow domains)."""
import argparse, json, sys, time, warnings
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
            if len(c['examples_of_violations']) < 3: c['examples_of_violations'].append(f'{type(e).__name__}: {e}'[:200])
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

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--examples', type=int, default=None)
    ap.add_argument('--slow', action='store_true')
    ap.add_argument('--out', default=str(OUT))
    a = ap.parse_args(argv)
    import test_contract as tc
    from contract_spec import check_result
    t0, rows = time.time(), {}
    names = sorted(n for n, d in tc.DOMAINS.items() if a.slow or not d.slow)
    for i, name in enumerate(names, 1):
        t = time.time()
        d = tc.DOMAINS[name]
        rows[name] = fuzz_one(tc.PUBLIC[name], d, a.examples or d.max_examples, check_result, tc._first_example)
        rows[name]['seconds'] = round(time.time() - t, 3)
        print(f'[{i}/{len(names)}] {name}: {rows[name]["valid"]}/{rows[name]["calls"]} valid, '
              f'{rows[name]["violations"]} violations ({time.time() - t:.1f}s)', flush=True)
    tot = {k: sum(r[k] for r in rows.values()) for k in ('calls', 'valid', 'refused', 'violations', 'bad', 'bad_rejected')}
    import shuffle_privacy
    res = dict(version=shuffle_privacy.__version__, date=time.strftime('%Y-%m-%d'),
               examples=a.examples or 'each domain\'s quick budget',
               functions_fuzzed=len(rows), public_functions=len(tc.PUBLIC), exempt=len(tc.EXEMPT),
               slow_domains_skipped=sum(1 for d in tc.DOMAINS.values() if d.slow) if not a.slow else 0,
               totals=tot, seconds=round(time.time() - t0, 1), functions=rows)
    Path(a.out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print(f'wrote {a.out}: {tot} in {res["seconds"]}s')
    return 1 if tot['violations'] or tot['bad'] != tot['bad_rejected'] else 0

if __name__ == '__main__': sys.exit(main())
