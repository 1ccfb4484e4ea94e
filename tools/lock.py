#!/usr/bin/env python3
"""requirements-lock.txt: the pinned environment of `python3 dev.py` (the package with its `dev` and `docs` extras,
which pull in `experiments`; `torch` is left out).

- `python3 tools/lock.py --check` (CI, offline): every requirement that pyproject.toml declares for the core
  install and for the `experiments`, `dev` and `docs` extras is pinned in the lock at a version it allows, and the
  lock pins nothing twice.
- `.venv/bin/python tools/lock.py --update` re-resolves with pip (`pip install --dry-run --report`, the package
  index's ordinary client), keeping every current pin that still satisfies pyproject.toml, and rewrites the lock.

The bare `pip install shuffle_privacy` needs only numpy, scipy and dp-accounting (and their own dependencies).
"""
import json, re, subprocess, sys, tempfile, tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT/'requirements-lock.txt'
EXTRAS = ['experiments', 'dev', 'docs']

def canon(name:str)->str: return re.sub(r'[-_.]+', '-', name).lower()

def declared():
    "Every requirement of the core install and of EXTRAS (self-references to other extras expanded), as strings."
    p = tomllib.loads((ROOT/'pyproject.toml').read_text())['project']
    name, reqs = canon(p['name']), list(p['dependencies'])
    for e in EXTRAS: reqs += p['optional-dependencies'].get(e, [])
    return [r for r in reqs if canon(re.split(r'[\[<>=!~; ]', r, maxsplit=1)[0]) != name]

def pins(text:str)->dict:
    res = {}
    for line in text.splitlines():
        line = line.split('#')[0].strip()
        if not line: continue
        m = re.fullmatch(r'([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)', line)
        if not m: raise SystemExit(f'requirements-lock.txt: not an exact pin: {line!r}')
        if canon(m.group(1)) in res: raise SystemExit(f'requirements-lock.txt: {m.group(1)} pinned twice')
        res[canon(m.group(1))] = m.group(2)
    return res

def check()->int:
    from packaging.requirements import Requirement
    locked, bad = pins(LOCK.read_text()), []
    for r in map(Requirement, declared()):
        v = locked.get(canon(r.name))
        if v is None: bad.append(f'{r}: not in the lock')
        elif not r.specifier.contains(v, prereleases=True): bad.append(f'{r}: the lock pins {v}')
    if bad:
        print('requirements-lock.txt does not satisfy pyproject.toml:\n  ' + '\n  '.join(bad)
              + '\nrun `.venv/bin/python tools/lock.py --update` and commit the lock'); return 1
    print(f'requirements-lock.txt satisfies pyproject.toml ({len(locked)} pins, {len(declared())} requirements)')
    return 0

def update()->int:
    with tempfile.TemporaryDirectory() as d:
        cons = Path(d)/'constraints.txt'
        cons.write_text(LOCK.read_text())      # keep current pins where they still fit
        cmd = [sys.executable, '-m', 'pip', 'install', '--dry-run', '--ignore-installed', '--quiet', '--report',
               str(Path(d)/'r.json'), *declared()]
        r = subprocess.run(cmd + ['-c', str(cons)])
        if r.returncode: r = subprocess.run(cmd)   # a declared bound moved past a pin: resolve afresh
        if r.returncode: return r.returncode
        inst = json.loads((Path(d)/'r.json').read_text())['install']
    lines = sorted(f"{i['metadata']['name']}=={i['metadata']['version']}" for i in inst)
    LOCK.write_text('\n'.join(lines) + '\n'); print(f'wrote {LOCK.name} ({len(lines)} pins)')
    return check()

if __name__ == '__main__':
    sys.exit(update() if '--update' in sys.argv else check())
