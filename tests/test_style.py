"""The notebook style of CONTRIBUTING.md, measured: small exported cells (fastcore's model), code lines of at most 120
characters, and docments on every parameter of every public function and method."""
import dataclasses, importlib, inspect, json, pkgutil, re
from pathlib import Path
import pytest
from fastcore.docments import docments
import shuffle_privacy

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT/'nbs'
MAX_CELL, P90_CELL = 45, 25      # non-blank, non-directive lines of one exported cell: hard cap, and the 90th percentile

def code_sources(p):
    return [''.join(c['source']) for c in json.loads(p.read_text())['cells'] if c['cell_type'] == 'code']

def cell_size(src):
    "Non-blank lines of a cell that are not `#|` directives."
    return sum(1 for l in src.splitlines() if l.strip() and not l.startswith('#|'))

def exported_cells():
    "(notebook stem, cell index among code cells, size) of every exported code cell."
    return [(p.stem, i, cell_size(s)) for p in sorted(NBS.glob('*.ipynb')) for i, s in enumerate(code_sources(p))
            if re.search(r'^#\|\s*export', s, re.M)]

def test_exported_cells_are_small():
    cells = exported_cells()
    big = [f'{nb} code cell {i}: {n} lines' for nb, i, n in cells if n > MAX_CELL]
    assert not big, f'exported cells over {MAX_CELL} lines (split them, an example after each definition):\n' + '\n'.join(big)
    sizes = sorted(n for *_, n in cells)
    p90 = sizes[int(0.9*len(sizes))]
    assert p90 <= P90_CELL, f'90th percentile of exported cell sizes is {p90} lines (at most {P90_CELL})'

def test_code_lines_at_most_120():
    long = [f'{p.stem}: {l[:60]}...' for p in sorted(NBS.glob('*.ipynb')) for s in code_sources(p)
            for l in s.splitlines() if len(l) > 120]
    assert not long, f'{len(long)} code lines over 120 characters:\n' + '\n'.join(long)

def public_callables():
    "(qualified name, function) of every public function and public method defined in the package."
    for m in pkgutil.walk_packages(shuffle_privacy.__path__, 'shuffle_privacy.'):
        if m.name.endswith('_modidx'): continue
        mod = importlib.import_module(m.name)
        for n in getattr(mod, '__all__', []):
            o = getattr(mod, n, None)
            if getattr(o, '__module__', None) != mod.__name__: continue
            if inspect.isfunction(o): yield f'{mod.__name__}.{n}', o
            elif inspect.isclass(o):
                yield f'{mod.__name__}.{n}', o
                for k, v in vars(o).items():
                    if not k.startswith('_') and inspect.isfunction(v): yield f'{mod.__name__}.{n}.{k}', v

def namedtuple_undocumented(cls):
    "Fields of a NamedTuple class without a trailing comment (docments reads only `__init__`, which it lacks)."
    lines, _ = inspect.getsourcelines(cls)
    return [l.split(':')[0].strip() for l in lines[1:] if re.match(r'\s+\w+\s*:', l) and '#' not in l]

def undocumented(f):
    "Parameters of `f` (bar self, cls, *args, **kwargs) without a docments comment."
    if inspect.isclass(f) and issubclass(f, tuple) and hasattr(f, '_fields'): return namedtuple_undocumented(f)
    try: sig = inspect.signature(f)
    except (TypeError, ValueError): return []
    ps = [k for k, p in sig.parameters.items() if k not in ('self', 'cls')
          and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if not ps: return []
    d = {}
    for c in (reversed(f.__mro__) if inspect.isclass(f) else (f,)):   # a dataclass inherits its bases' field comments
        if c is object or (c is not f and not dataclasses.is_dataclass(c)): continue
        d.update({k: v for k, v in docments(c, full=False).items() if v})
    return [k for k in ps if not d.get(k)]

def test_public_parameters_have_docments():
    bad = {q: m for q, f in public_callables() if (m := undocumented(f))}
    assert not bad, f'{len(bad)} public callables with undocumented parameters:\n' + '\n'.join(
        f'{q}: {", ".join(m)}' for q, m in sorted(bad.items()))
