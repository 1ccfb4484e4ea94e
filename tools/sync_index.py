#!/usr/bin/env python3
"""Regenerate the notebook table of `nbs/index.ipynb` (and so of README.md) from the notebooks themselves.

Each row is a notebook of `nbs/` in numeric order: its name, the module it exports (`#| default_exp`) and its title.
`python3 tools/sync_index.py` rewrites the table; `--check` exits 1 if it is stale (tests/test_layout.py runs it).
"""
import json, re, sys
from pathlib import Path

NBS = Path(__file__).resolve().parents[1]/'nbs'
HEAD = '| notebook | module | what it gives |\n|---|---|---|\n'

def nb_key(p): 
    m = re.match(r'(\d+)([a-z]?)_', p.stem)
    return (int(m.group(1)), m.group(2)) if m else (10**9, p.stem)

def row(p:Path)->str:
    "One table row: `name` | `module` | title."
    cells = json.loads(p.read_text())['cells']
    title = ''.join(cells[0]['source']).splitlines()[0].lstrip('# ').strip()
    exp = next((m.group(1) for c in cells if c['cell_type'] == 'code'
                for m in [re.search(r'^#\|\s*default_exp\s+(\S+)', ''.join(c['source']), re.M)] if m), None)
    mod = '`shuffle_privacy`' if exp == '__init__' else f'`{exp}`' if exp else ''
    return f'| `{p.stem}` | {mod} | {title} |\n'

def table()->str:
    return HEAD + ''.join(row(p) for p in sorted(NBS.glob('[0-9]*.ipynb'), key=nb_key))

def sync(check=False)->bool:
    "Rewrite (or check) the table in index.ipynb; True if it was up to date."
    p = NBS/'index.ipynb'; nb = json.loads(p.read_text())
    for c in nb['cells']:
        s = ''.join(c['source'])
        if HEAD in s:
            new = re.sub(re.escape(HEAD) + r'(?:\|.*\|\n?)*', lambda m: table(), s)
            if new == s: return True
            if not check:
                c['source'] = new.splitlines(keepends=True)
                p.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
            return False
    raise SystemExit('index.ipynb has no notebook table (header: ' + HEAD.splitlines()[0] + ')')

if __name__ == '__main__':
    ok = sync(check='--check' in sys.argv)
    if '--check' in sys.argv and not ok: sys.exit('nbs/index.ipynb notebook table is stale: python3 tools/sync_index.py')
