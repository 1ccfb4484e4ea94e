"""Committed notebook outputs carry no blemishes: progress bars, temporary paths, numpy scalar reprs where a number
was meant, or `__main__.` in signatures.

One test per notebook; a failure lists every offending cell (index, execution count, output type) and the match,
so that the notebook's owner knows what to re-execute or reformat. Fix: print numbers with format specs or
`float()`, iterate with `shuffle_privacy.core.progress` (silent when not interactive), show paths relative to the
repository, and define classes in the exported module rather than in `__main__`.
"""
import json, re
from pathlib import Path
import pytest

NBS = Path(__file__).resolve().parents[1]/'nbs'
NOTEBOOKS = sorted(NBS.glob('*.ipynb'))

# (name, regex) pairs; each regex is searched in every text of every output
BLEMISHES = [
    ('progress bar', re.compile(r'\d+(?:\.\d+)?\s*(?:it/s|s/it)\]|\|[ ]*[█▏▎▍▌▋▊▉]+[█▏▎▍▌▋▊▉ ]*\||FloatProgress\(|IntProgress\(')),
    ('tqdm', re.compile(r'\btqdm\b.*(?:Warning|TqdmExperimentalWarning)|\d+%\|')),
    ('temporary path', re.compile(r'/tmp/|/var/folders/|\\AppData\\Local\\Temp\\|/private/var/')),
    ('numpy scalar repr', re.compile(r'\bnp\.(?:float|int|uint|bool|complex|str)(?:_|\d+)?\(')),
    ('numpy array repr of a number', re.compile(r'\barray\(\[?\s*[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|inf|nan)\s*\]?'
                                                r'(?:, dtype=\w+)?\)')),
    ('__main__ in output', re.compile(r'__main__\.')),
]

def output_texts(out:dict):
    "Every text an output carries (stream text, error traceback, and each text-like mime type)."
    if out.get('output_type') == 'stream': yield 'stream', ''.join(out.get('text', ''))
    elif out.get('output_type') == 'error': yield 'error', '\n'.join(out.get('traceback', []))
    for mime, v in (out.get('data') or {}).items():
        if mime.startswith('text/') or mime.endswith('json'):
            yield mime, v if isinstance(v, str) else ''.join(v) if isinstance(v, list) else json.dumps(v)

def blemishes(nb:dict)->list:
    "A list of `(cell index, execution count, where, blemish name, matched text)` for a notebook."
    found = []
    for i, cell in enumerate(nb.get('cells', [])):
        for out in cell.get('outputs', []):
            for where, text in output_texts(out):
                for name, rx in BLEMISHES:
                    for m in rx.finditer(text):
                        line = text[text.rfind('\n', 0, m.start())+1:text.find('\n', m.end()) % (len(text)+1)]
                        hit = (i, cell.get('execution_count'), where, name, line.strip()[:160])
                        if hit not in found: found.append(hit)
    return found

def test_detector_finds_each_blemish():
    outs = [{'output_type': 'stream', 'text': '100%|██████████| 50/50 [00:01<00:00, 35.2it/s]\n'},
            {'output_type': 'stream', 'text': 'saved to /tmp/tmpab12/fig.png\n'},
            {'output_type': 'execute_result', 'data': {'text/plain': 'np.float64(0.25)'}},
            {'output_type': 'execute_result', 'data': {'text/plain': 'array(0.25)'}},
            {'output_type': 'display_data', 'data': {'text/markdown': '> Ball (center:__main__.Ball)'}}]
    names = {b[3] for b in blemishes({'cells': [{'outputs': [o]} for o in outs]})}
    assert {'progress bar', 'temporary path', 'numpy scalar repr', 'numpy array repr of a number',
            '__main__ in output'} <= names
    clean = [{'output_type': 'stream', 'text': 'epsilon = 1.750\narray([[1, 2], [3, 4]])\n'}]
    assert blemishes({'cells': [{'outputs': clean}]}) == []

@pytest.mark.parametrize('path', NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_committed_outputs_have_no_blemishes(path):
    found = blemishes(json.loads(path.read_text()))
    assert not found, f'{path.name}: {len(found)} blemished outputs (re-execute or reformat these cells):\n' + \
        '\n'.join(f'  cell {i} [exec {c}] {w}: {n}: {t!r}' for i, c, w, n, t in found)

_CONTROL = re.compile(r'[\x00-\x08\x0b-\x1f]')

def control_characters(nb:dict)->list:
    "Cells whose source holds a control character: a LaTeX command eaten by a JSON escape (`\\beta` -> backspace + 'eta')."
    return [(i, repr(m.group(0) + ''.join(c['source'])[m.end():m.end() + 12]))
            for i, c in enumerate(nb['cells']) for m in [_CONTROL.search(''.join(c['source']))] if m]

def test_control_character_detector():
    assert control_characters({'cells': [{'source': ['$u(\x08eta)$']}, {'source': ['$u(\\beta)$']}]}) == [(0, repr('\x08eta)$'))]

@pytest.mark.parametrize('path', NOTEBOOKS, ids=lambda p: p.name)
def test_sources_have_no_control_characters(path):
    bad = control_characters(json.loads(path.read_text(encoding='utf-8')))
    assert not bad, f'{path.name}: control characters in cell sources (write \\\\beta, not \\beta, in JSON): {bad}'

def _slim_png():
    import importlib.util
    spec = importlib.util.spec_from_file_location('slim_png', NBS.parent/'tools'/'slim_png.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

def test_slim_png_shrinks_a_figure_and_is_idempotent():
    "A matplotlib figure becomes a palette PNG of fewer bytes, and slimming it again changes nothing."
    import base64, io
    import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot(range(10), [x*x for x in range(10)]); ax.fill_between(range(10), 0, 5, alpha=.3)
    buf = io.BytesIO(); fig.savefig(buf, format='png'); plt.close(fig)
    b64 = base64.b64encode(buf.getvalue()).decode()
    slim = _slim_png()
    s = slim.slim(b64)
    assert s is not None and len(s) < len(b64) and slim.slim(s) is None
    from PIL import Image
    assert Image.open(io.BytesIO(base64.b64decode(s))).size == Image.open(io.BytesIO(buf.getvalue())).size

def test_committed_figures_are_slim():
    "Every PNG output is a palette PNG: `dev.py run`, `dev.py sync` and saving from `dev.py lab` store them so."
    slim = _slim_png()
    stale = {p.name: n for p in NOTEBOOKS if (n := slim.slim_notebook(p, check=True))}
    assert not stale, f'figures not slimmed (run `python3 dev.py sync` or `python3 tools/slim_png.py`): {stale}'
