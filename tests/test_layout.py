"""The house reads downhill: notebooks import only what lower-numbered notebooks export, modules import only their
own or lower layers, and no module imports another module's `_private` name."""
import ast, json, re
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
NBS, PKG = ROOT/'nbs', ROOT/'shuffle_privacy'
LAYERS = {'core': 0, 'accounting': 1, 'mechanisms': 2, 'algorithms': 3, 'audit': 3, 'studies': 4, 'experiments': 4}

def nb_key(stem):
    "Sort key of a notebook stem: `05a_x` -> (5, 'a')."
    m = re.match(r'(\d+)([a-z]?)_', stem)
    return (int(m.group(1)), m.group(2)) if m else None

def code_cells(p):
    return [''.join(c['source']) for c in json.loads(p.read_text())['cells'] if c['cell_type'] == 'code']

def imported_modules(src):
    "Every `shuffle_privacy...` module a piece of code imports (cell magics and shell lines dropped)."
    src = '\n'.join(l for l in src.splitlines() if not l.lstrip().startswith(('%', '!')))
    try: tree = ast.parse(src)
    except SyntaxError: return set()
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and n.level == 0 and (n.module or '').startswith('shuffle_privacy'):
            out.add(n.module)
            out |= {f'{n.module}.{a.name}' for a in n.names if (PKG/(n.module[16:].replace('.', '/'))/a.name).exists()}
        elif isinstance(n, ast.Import):
            out |= {a.name for a in n.names if a.name.startswith('shuffle_privacy')}
    return out

def exporters():
    "Module -> the notebook stem that exports it."
    out = {}
    for p in NBS.glob('*.ipynb'):
        for s in code_cells(p):
            m = re.search(r'^#\|\s*default_exp\s+(\S+)', s, re.M)
            if m: out['shuffle_privacy' if m.group(1) == '__init__' else f'shuffle_privacy.{m.group(1)}'] = p.stem
    return out

def test_notebooks_import_only_lower_numbered():
    exp, bad = exporters(), []
    for p in sorted(NBS.glob('*.ipynb')):
        k = nb_key(p.stem)
        if k is None: continue                       # index: the README, imports the finished package
        for s in code_cells(p):
            for mod in imported_modules(s):
                owner = exp.get(mod)
                if owner and owner != p.stem and nb_key(owner) >= k: bad.append(f'{p.stem} imports {mod} ({owner})')
    assert not bad, 'notebooks out of dependency order:\n' + '\n'.join(sorted(set(bad)))

def layer(mod):
    parts = mod.split('.')
    return LAYERS.get(parts[1], -1) if len(parts) > 1 else 99

def package_imports():
    for p in sorted(PKG.rglob('*.py')):
        if p.name == '_modidx.py' or p == PKG/'__init__.py': continue
        mod = 'shuffle_privacy.' + '.'.join(p.relative_to(PKG).with_suffix('').parts)
        mod = mod.removesuffix('.__init__')
        for n in ast.walk(ast.parse(p.read_text())):
            if isinstance(n, ast.ImportFrom):
                if n.level:
                    base = mod.split('.')[:len(mod.split('.')) - n.level + (1 if p.name == '__init__.py' else 0)]
                    target = '.'.join(base + ([n.module] if n.module else []))
                else: target = n.module or ''
                if target.startswith('shuffle_privacy'): yield mod, target, [a.name for a in n.names]

def test_modules_import_only_their_layer_or_lower():
    bad = [f'{m} imports {t}' for m, t, _ in package_imports() if layer(t) > layer(m)]
    assert not bad, 'imports up a layer:\n' + '\n'.join(bad)

def test_no_private_names_across_modules():
    bad = [f'{m} imports {n} from {t}' for m, t, names in package_imports() for n in names
           if n.startswith('_') and t != m]
    assert not bad, 'private names imported across modules:\n' + '\n'.join(bad)

def test_plotting_only_in_top_layer():
    heavy = ('matplotlib', 'ipywidgets', 'sklearn', 'torch')
    bad = []
    for p in sorted(PKG.rglob('*.py')):
        mod = '.'.join(('shuffle_privacy',) + p.relative_to(PKG).with_suffix('').parts)
        for n in ast.parse(p.read_text()).body:          # module level only: torch may be imported inside functions
            names = ([a.name for a in n.names] if isinstance(n, ast.Import) else
                     [n.module or ''] if isinstance(n, ast.ImportFrom) else [])
            if any(x.split('.')[0] in heavy for x in names) and layer(mod) < 4: bad.append(f'{mod}: {names}')
    assert not bad, 'heavy optional imports below studies/experiments:\n' + '\n'.join(bad)

@pytest.mark.parametrize('p', sorted(NBS.glob('[0-9]*.ipynb')), ids=lambda p: p.stem)
def test_notebook_opens_with_title_summary_and_default_exp(p):
    cells = json.loads(p.read_text())['cells']
    first = ''.join(cells[0]['source'])
    assert cells[0]['cell_type'] == 'markdown' and first.startswith('# '), f'{p.name}: first cell is not "# Title"'
    assert re.search(r'^> \S', first, re.M), f'{p.name}: no "> summary" line in the first cell'
    exp = [i for i, c in enumerate(cells) if re.search(r'^#\|\s*default_exp', ''.join(c['source']), re.M)]
    assert not exp or exp[0] == 1, f'{p.name}: `#| default_exp` is not the second cell'

def test_index_table_lists_every_notebook():
    import subprocess, sys
    r = subprocess.run([sys.executable, str(ROOT/'tools'/'sync_index.py'), '--check'], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
