#!/usr/bin/env python3
"""Build the documentation of shuffle_privacy (called by `python3 dev.py docs`).

Steps:

1. **Execute** every notebook of `nbs/` from scratch with nbclient (the venv's ipykernel, cwd `nbs/`, inline
   matplotlib backend, so every figure and table is regenerated) into `_build/executed/`. The committed notebooks
   are never rewritten. Cells flagged with a `tst_flags` flag (`#| slow`) run too unless `--skip-slow`.
   Any error stops the build with the notebook and the cell named.
2. **Process** the executed notebooks with nbdev's own documentation processors (`FilterDefaults`: show_doc cells
   for exported symbols, hidden and exported cells removed, directives stripped, frontmatter, links) into
   `_build/processed/`. Two changes: the docs of a cell defining several symbols come in source order, and a cell
   that cannot be re-run on its own for show_doc (imports mixed with code) is reported instead of stopping the build.
3. **Render**:
   - with Quarto on PATH, nbdev's standard path, `nbdev-docs`, renders `_docs/`;
   - always (unless `--no-sphinx`), an offline Sphinx + myst-nb + furo site in `_build/site/`: the sidebar is grouped
     by the sections of `nbs/sidebar.yml`, search is Sphinx's own, math is typeset by a MathJax 3 shipped in a
     PyPI package (`sphinx-mathjax-offline`). The build fails if any page loads a script or stylesheet from the
     network.
4. **README.md** is generated from the committed `nbs/index.ipynb` (processed the same way, outputs as committed).

Unchanged notebooks (same bytes, same package sources) are not re-executed: their executed copies in
`_build/executed/` are reused (keys in `_build/cache/`). `python3 dev.py docs NOTEBOOK...` re-executes only the
named notebooks. Each executed notebook is reported with its name and seconds as it finishes.

Options: `--skip-slow`, `--no-execute` (use the committed outputs), `--no-sphinx`, `--readme-only`,
`--check-readme` (exit 1 if README.md is stale), `--timeout SECONDS` (per cell), `--workers N`.
"""
import argparse, copy, html, json, os, re, shutil, subprocess, sys, time
from concurrent.futures import ProcessPoolExecutor
from html.parser import HTMLParser
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT/'nbs'
BUILD = ROOT/'_build'
EXEC, PROC, SRC, SITE = BUILD/'executed', BUILD/'processed', BUILD/'sphinx_src', BUILD/'site'
README = ROOT/'README.md'
KERNEL = 'shuffle-privacy-venv'
SKIP_TAG = 'skip-execution'   # nbclient's default `skip_cells_with_tag`
WIDGET_VIEW = 'application/vnd.jupyter.widget-view+json'
INLINE = 'module://matplotlib_inline.backend_inline'

def log(*a): print(*a, flush=True)
class BuildError(Exception): pass

# ---------------------------------------------------------------------------------------------------------------
# notebooks and their order

def _num_key(p:Path):
    "Sort key: `index` first, then by the leading number, then by name."
    m = re.match(r'(\d+)', p.stem)
    return (0 if p.stem == 'index' else 1, int(m.group(1)) if m else 10**9, p.name)

def notebooks():
    "Every notebook in `nbs/` (not `_`- or `.`-prefixed), index first, then in numeric order."
    return sorted((p for p in NBS.glob('*.ipynb') if not p.name.startswith(('_', '.'))), key=_num_key)

def read_json(p): return json.loads(Path(p).read_text(encoding='utf-8'))
def write_json(p, d):
    Path(p).parent.mkdir(parents=True, exist_ok=True)
    Path(p).write_text(json.dumps(d, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
def src_of(cell): return ''.join(cell.get('source', ''))

# ---------------------------------------------------------------------------------------------------------------
# 1. execution

def ensure_kernel():
    "A kernelspec in the venv that runs *this* interpreter (so a user-level `python3` kernel cannot shadow it)."
    d = Path(sys.prefix)/'share'/'jupyter'/'kernels'/KERNEL
    spec = dict(argv=[sys.executable, '-m', 'ipykernel_launcher', '-f', '{connection_file}'],
                display_name='Python 3 (shuffle_privacy .venv)', language='python', metadata={'debugger': False})
    if not (d/'kernel.json').exists() or read_json(d/'kernel.json') != spec: write_json(d/'kernel.json', spec)

def _skipped_cells(path:Path, skip_flags):
    "Indices of the code cells nbdev-test would not evaluate (`eval: false`, `skip_exec`, and `skip_flags`)."
    from nbdev.process import NBProcessor
    from nbdev.test import _skip_cell
    nb = NBProcessor(path, rm_directives=False).nb
    skip = _skip_cell(nb, skip_flags)
    return {i for i, c in enumerate(nb.cells) if c.cell_type == 'code' and skip(c)}

def _execute_one(args):
    "Execute notebook `src` into `dst` (in a worker process); return (name, seconds, error message or None)."
    src, dst, skip_flags, timeout = args
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
    t0 = time.time()
    os.environ['MPLBACKEND'] = INLINE        # figures as PNG outputs, not Agg (which draws nothing)
    os.environ.pop('IN_TEST', None)          # docs run the full-size computations
    nb = nbformat.read(src, as_version=4)
    skip = _skipped_cells(Path(src), skip_flags)
    added = []
    for i in skip:
        tags = nb.cells[i].metadata.setdefault('tags', [])
        if SKIP_TAG not in tags: tags.append(SKIP_TAG); added.append(i)
    client = NotebookClient(nb, kernel_name=KERNEL, timeout=timeout, allow_errors=False, record_timing=False,
                            resources={'metadata': {'path': str(NBS)}},
                            extra_arguments=['--IPKernelApp.log_level=ERROR'])   # no 'running over TCP' chatter
    err = None
    try: client.execute()
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as e:
        idx = next((i for i, c in enumerate(nb.cells) if c.cell_type == 'code'
                    and any(o.get('output_type') == 'error' for o in c.get('outputs', []))), None)
        where = f'cell {idx}:\n{nb.cells[idx].source}' if idx is not None else '(cell unknown)'
        err = f'{Path(src).name}: {type(e).__name__} in {where}\n' + re.sub(r'\x1b\[[0-9;]*m', '', str(e))
    except Exception as e: err = f'{Path(src).name}: {type(e).__name__}: {e}'
    for i in added:
        nb.cells[i].metadata['tags'].remove(SKIP_TAG)
        if not nb.cells[i].metadata['tags']: del nb.cells[i].metadata['tags']
    if err is None:
        Path(dst).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, dst)
    return Path(src).name, time.time() - t0, err

def _stage_nbs_dir(dst:Path):
    "Copy `nbs/` without its notebooks into `dst` (the Quarto configuration and assets travel with them)."
    if dst.exists(): shutil.rmtree(dst)
    shutil.copytree(NBS, dst, ignore=shutil.ignore_patterns('*.ipynb', '.ipynb_checkpoints', '__pycache__'))

CACHE = BUILD/'cache'

def _exec_key(p:Path, flags)->str:
    "Cache key of an executed notebook: its bytes, the package's sources and the skip flags."
    import hashlib
    h = hashlib.sha256(p.read_bytes())
    for f in sorted((ROOT/'shuffle_privacy').rglob('*.py')): h.update(f.name.encode()); h.update(f.read_bytes())
    h.update(' '.join(flags).encode())
    return h.hexdigest()

def execute_all(nbs, skip_slow:bool, timeout:int, workers:int, only=None):
    "Execute the notebooks whose source or package changed since their last run (and all of `only`, if given)."
    from nbdev.config import get_config
    from concurrent.futures import wait, FIRST_COMPLETED
    ensure_kernel()
    EXEC.mkdir(parents=True, exist_ok=True)
    for f in NBS.iterdir():   # configuration and assets travel with the notebooks
        if f.suffix != '.ipynb' and not f.name.startswith(('.', '__')):
            if f.is_dir(): shutil.copytree(f, EXEC/f.name, dirs_exist_ok=True)
            else: shutil.copy2(f, EXEC/f.name)
    flags = get_config().tst_flags.split() if skip_slow else []
    keys = {p.name: _exec_key(p, flags) for p in nbs}
    def fresh(p): return (EXEC/p.name).exists() and (CACHE/(p.name + '.sha256')).exists() \
        and (CACHE/(p.name + '.sha256')).read_text() == keys[p.name]
    todo = []
    for p in nbs:
        if only is not None and p.name not in only:
            if not (EXEC/p.name).exists(): shutil.copy2(p, EXEC/p.name); log(f'  {p.name:40s}   (committed outputs)')
        elif only is None and fresh(p): log(f'  {p.name:40s}   cached (unchanged)')
        else: todo.append(p)
    jobs = [(str(p), str(EXEC/p.name), flags, timeout) for p in todo]
    log(f'executing {len(jobs)} of {len(nbs)} notebooks ({workers} workers, cwd {NBS}'
        + (f', skipping cells flagged {flags}' if flags else ', slow cells included') + ')')
    errors, t0 = [], time.time()
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context('spawn')) as ex:
        futs = {ex.submit(_execute_one, j): Path(j[0]).name for j in jobs}
        pending, k, started = set(futs), 0, {}
        while pending:
            done, pending = wait(pending, timeout=10, return_when=FIRST_COMPLETED)
            now = time.time()
            for f in pending:
                if f.running(): started.setdefault(f, now)
            if not done:   # a heartbeat, so that the build is never silent for long
                log('    running: ' + ', '.join(f'{futs[f]} ({now-started[f]:.0f}s)' for f in pending if f in started))
                continue
            fut = done.pop(); pending |= done; k += 1
            name, secs, err = fut.result()
            log(f'  [{k}/{len(jobs)}] {name:40s} {secs:6.1f}s  {"FAILED" if err else "ok"}'
                f'  (elapsed {time.time()-t0:.0f}s)')
            if err: errors.append(err)
            else: CACHE.mkdir(parents=True, exist_ok=True); (CACHE/(name + '.sha256')).write_text(keys[name])
    if errors:
        for e in errors: log(f'\nERROR executing {e}')
        raise BuildError(f'{len(errors)} notebook(s) failed to execute: ' + ', '.join(e.split(':')[0] for e in errors))

def copy_committed(nbs):
    "`--no-execute`: take the notebooks with their committed outputs."
    _stage_nbs_dir(EXEC)
    if CACHE.exists(): shutil.rmtree(CACHE)   # the executed copies are gone: so are their cache keys
    for p in nbs: shutil.copy2(p, EXEC/p.name)

# ---------------------------------------------------------------------------------------------------------------
# 2. nbdev's documentation processors

def _filters():
    """nbdev's documented `FilterDefaults` (the processors `nbdev-docs` runs), with one `nbdev.process.Processor` of our
    own added to its list (overriding `base_procs`, the documented way); no nbdev processor is subclassed."""
    from nbdev.processors import FilterDefaults
    from nbdev.process import Processor
    class show_docs_in_source_order(Processor):
        "nbdev adds the show_doc cells of a cell defining several symbols in reverse order: put them in source order."
        def end(self):
            cells, i = self.nb.cells, 0
            while i < len(cells):
                j = i + 1
                while j < len(cells) and _SHOW_DOC.match(getattr(cells[j], 'source', '') or ''): j += 1
                if j - i > 2:                       # a definition cell followed by several show_doc cells
                    src = cells[i].source or ''
                    def pos(c):
                        nm = _SHOW_DOC.match(c.source).group(1).split('.')[-1]
                        m = re.search(rf'^(?:\s*(?:async\s+)?def|\s*class)\s+{re.escape(nm)}\b|^{re.escape(nm)}\s*=', src, re.M)
                        return m.start() if m else len(src)
                    cells[i + 1:j] = sorted(cells[i + 1:j], key=pos)
                i = j
    class Filters(FilterDefaults):
        def base_procs(self):   # right after nbdev's add_show_docs, while the definition cells are still there
            procs = list(super().base_procs())
            k = next(i for i, p in enumerate(procs) if p.__name__ == 'add_show_docs')
            return procs[:k + 1] + [show_docs_in_source_order] + procs[k + 1:]
    return Filters

_SHOW_DOC = re.compile(r'show_doc\(([\w.]+)\)')

def _process_one(args):
    "nbdev's documentation processors on one executed notebook, as `nbdev-docs` runs them (in a worker process)."
    src, dst = args
    os.chdir(ROOT)                               # nbdev's get_config() looks for pyproject.toml from the cwd
    import warnings
    from fastcore.nbio import read_nb, write_nb
    # nbdev warns (with the whole cell) about cells mixing imports and code; a failing one stops the build below
    warnings.filterwarnings('ignore', message='Found cells containing imports and other code')
    os.environ['IN_TEST'] = '1'                  # as nbdev-docs: show_doc re-runs cells at test size
    try:
        nb = read_nb(src)
        _filters()()(nb)                         # FilterDefaults.__call__: nb_proc(nb).process()
        write_nb(nb, dst)
    except Exception as e: return f'{Path(src).name}: {type(e).__name__}: {e}'
    finally: os.environ.pop('IN_TEST', None)

def process_all(srcs, dst_dir:Path, workers:int):
    "Run nbdev's `FilterDefaults` processors (as `nbdev-docs`/`nbdev-proc-nbs` do) on each notebook."
    if dst_dir.exists(): shutil.rmtree(dst_dir)
    dst_dir.mkdir(parents=True)
    jobs = [(str(p), str(dst_dir/Path(p).name)) for p in srcs]
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context('spawn')) as ex:
        errs = [e for e in ex.map(_process_one, jobs) if e]
    if errs: raise BuildError('nbdev processing failed:\n' + '\n'.join(errs))

# ---------------------------------------------------------------------------------------------------------------
# from nbdev's processed notebooks (meant for Quarto) to notebooks myst-nb renders

_re_qopt = re.compile(r'^\s*#\|\s*([\w-]+)\s*:?\s*(.*?)\s*$')
_re_source_link = re.compile(r'^\[source\]\(([^)]*)\)(\{[^}]*\})?\s*$', re.M)
_re_doclink = re.compile(r'\[`([^`\]]+)`\]\(/([\w./-]+?)\.html(#[\w.-]*)?\)')

def split_options(source:str):
    "Split the leading Quarto `#| key: value` lines off a code cell: (options dict, remaining source)."
    lines, opts = source.splitlines(True), {}
    i = 0
    while i < len(lines):
        m = _re_qopt.match(lines[i])
        if not m: break
        opts[m.group(1)] = m.group(2).strip('"\'') or 'true'
        i += 1
    return opts, ''.join(lines[i:])

def _frontmatter(cell):
    "The YAML frontmatter dict of a raw cell written by nbdev's FrontmatterProc, else None."
    import yaml
    s = src_of(cell).strip()
    if cell['cell_type'] != 'raw' or not s.startswith('---'): return None
    try: d = yaml.safe_load(s.strip('-\n'))
    except yaml.YAMLError: return None
    return d if isinstance(d, dict) else None

def _title_cell(fm):
    s = f"# {fm.get('title', '')}\n"
    if fm.get('description'): s += f"\n> {fm['description']}\n"
    return dict(cell_type='markdown', metadata={}, source=s)

def page_map(proc_dir:Path):
    "Map nbdev's page names (the frontmatter's `output-file` stem, e.g. `core`) to notebook stems (`00_core`)."
    res = {}
    for p in proc_dir.glob('*.ipynb'):
        for c in read_json(p)['cells']:
            fm = _frontmatter(c)
            if fm and fm.get('output-file'): res[Path(fm['output-file']).stem] = p.stem; break
        res.setdefault(p.stem, p.stem)
    return res

def _relink(md:str, pages:dict):
    "nbdev's doc links point to `/core.html#sym` (Quarto page names); point them at the Sphinx pages."
    def f(m):
        name, page, anchor = m.group(1), m.group(2), m.group(3) or ''
        if page not in pages: return f'`{name}`'
        return f'<a href="{pages[page]}.html{html.escape(anchor)}"><code>{html.escape(name)}</code></a>'
    return _re_doclink.sub(f, md)

def _showdoc_md(md:str, pages:dict):
    "show_doc's markdown, for the static site: drop the source link when it does not lead anywhere (myst_heading_anchors gives the heading the id `sym`)."
    md = _re_source_link.sub(lambda m: m.group(0) if m.group(1).startswith(('http://', 'https://')) else '', md)
    md = md.strip()
    if md.startswith('---'): md = md[3:].lstrip()          # a leading rule would read as YAML frontmatter
    return _relink(md, pages)

def _strip_tags(x): return html.unescape(re.sub(r'<[^>]*>', '', str(x))).replace('\u2007', ' ')

def _widget_text(m:dict, state:dict)->str:
    "One line of text standing for a leaf widget in its final state (progress bars drawn as tqdm draws them)."
    name, st = m.get('model_name', ''), m.get('state', {})
    desc = _strip_tags(st.get('description', ''))
    if name in ('HTMLModel', 'HTMLMathModel', 'LabelModel'): return (desc + ' ' if desc else '') + _strip_tags(st.get('value', ''))
    if 'Progress' in name:
        lo, hi, v = st.get('min', 0) or 0, st.get('max', 100) or 100, st.get('value', 0) or 0
        n = max(0, min(10, round(10 * (v - lo) / (hi - lo)))) if hi > lo else 0
        return (desc + ' ' if desc else '') + '|' + '█' * n + ' ' * (10 - n) + '|'
    if name == 'ButtonModel': return f'[{desc}]'
    if name.endswith(('StyleModel', 'LayoutModel')) or name == 'OutputModel': return ''
    if 'value' in st:
        v = st['value']
        labels = st.get('_options_labels')
        if labels and isinstance(st.get('index'), int) and 0 <= st['index'] < len(labels): v = labels[st['index']]
        return f'{desc}: {v}' if desc else str(v)
    return ''

def _widget_outputs(mid:str, state:dict, depth:int=0)->list:
    "Static outputs for the widget `mid` from the saved widget state: text for controls, Output widgets' own outputs."
    m = state.get(mid)
    if m is None or depth > 20: return []
    name, st = m.get('model_name', ''), m.get('state', {})
    if name == 'OutputModel': return copy.deepcopy(st.get('outputs', []))
    kids = [str(k).removeprefix('IPY_MODEL_') for k in st.get('children', []) or []]
    if kids:
        if name == 'HBoxModel' and all(state.get(k, {}).get('model_name') != 'OutputModel' for k in kids):
            line = ' '.join(t for t in (_widget_text(state.get(k, {}), state) for k in kids) if t.strip())
            return [_text_out(line)] if line.strip() else []
        return [o for k in kids for o in _widget_outputs(k, state, depth + 1)]
    t = _widget_text(m, state)
    return [_text_out(t)] if t.strip() else []

def _text_out(t): return dict(output_type='stream', name='stdout', text=t.rstrip('\n') + '\n')

def _merge_streams(outs):
    res = []
    for o in outs:
        if res and o.get('output_type') == 'stream' and res[-1].get('output_type') == 'stream' and res[-1].get('name') == o.get('name'):
            res[-1] = dict(res[-1], text=''.join(res[-1]['text']) + ''.join(o['text']))
        else: res.append(o)
    return res

def widget_state(nb:dict)->dict:
    return ((nb.get('metadata', {}).get('widgets') or {}).get('application/vnd.jupyter.widget-state+json') or {}).get('state') or {}

def _clean_outputs(outs, state:dict):
    """Static rendering of outputs: nothing that needs a kernel, a widget manager or the network. A widget is drawn
    from its final saved state (a finished tqdm bar at 100%, an `interact`'s printed output and figures); without a
    saved state, its text/plain fallback is shown."""
    res = []
    for o in outs:
        o = copy.deepcopy(o)
        d = o.get('data')
        if d is not None:
            view = d.pop(WIDGET_VIEW, None)
            d.pop('application/vnd.jupyter.widget-state+json', None)
            if view and view.get('model_id') in state:
                res += _widget_outputs(view['model_id'], state); continue
            if not d: continue
        if o.get('output_type') == 'stream': o['text'] = _carriage_returns(''.join(o.get('text', '')))
        if d is not None:   # show_doc re-runs the cells in a fresh shell, so classes defined there read `__main__.X`
            for k in ('text/markdown', 'text/html', 'text/plain'):
                if k in d: d[k] = _MAIN.sub('', d[k] if isinstance(d[k], str) else ''.join(d[k]))
        res.append(o)
    return _merge_streams(res)

_MAIN = re.compile(r'\b__main__\.')

def _carriage_returns(t:str)->str:
    "What a terminal shows: on each line only the text after the last carriage return (text progress bars)."
    return '\n'.join(line.rstrip('\r').rsplit('\r', 1)[-1] for line in t.split('\n'))

def to_myst_nb(nb:dict, pages:dict, stem:str):
    "Turn one of nbdev's processed notebooks into one myst-nb renders faithfully and offline."
    cells, state = [], widget_state(nb)
    for c in nb['cells']:
        fm = _frontmatter(c)
        if fm is not None:
            cells.append(_title_cell(fm)); continue
        if c['cell_type'] == 'markdown':
            cells.append(dict(cell_type='markdown', metadata={}, source=_relink(src_of(c), pages),
                              **({'attachments': c['attachments']} if c.get('attachments') else {})))
            continue
        if c['cell_type'] != 'code': continue
        opts, code = split_options(src_of(c))
        outs = _clean_outputs(c.get('outputs', []), state)
        if opts.get('include') == 'false': continue
        if re.match(r'\s*show_doc\s*\(', code):                    # API documentation: markdown, in the page
            md = next((''.join(o['data']['text/markdown']) for o in outs
                       if o.get('data', {}).get('text/markdown')), None)
            if md:
                sym = re.match(r'\s*show_doc\s*\(\s*([\w.]+)', code)
                # an index entry per documented symbol: fills Sphinx's general index (genindex) and its search
                idx = f'```{{index}} single: {sym.group(1)}; {stem}\n```\n\n' if sym else ''
                cells.append(dict(cell_type='markdown', metadata={}, source=idx + _showdoc_md(md, pages)))
            continue
        tags = []
        if opts.get('echo') == 'false' or not code.strip(): tags.append('remove-input')
        if opts.get('output') == 'false': tags.append('remove-output')
        if opts.get('code-fold') in ('true', 'show'): tags.append('hide-input')
        if not code.strip() and not outs: continue
        for o in outs:                                             # `#| output: asis` markdown stays markdown
            if o.get('data', {}).get('text/markdown') is not None and isinstance(o['data']['text/markdown'], list):
                o['data']['text/markdown'] = ''.join(o['data']['text/markdown'])
        cells.append(dict(cell_type='code', metadata={'tags': tags} if tags else {}, source=code,
                          outputs=outs, execution_count=None))
    meta = {'kernelspec': {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'},
            'language_info': {'name': 'python'}}
    return dict(nbformat=4, nbformat_minor=5, metadata=meta, cells=cells)

# ---------------------------------------------------------------------------------------------------------------
# sidebar: one source of truth, nbs/sidebar.yml

def sidebar_sections(stems):
    "[(caption or None, [stems])] from `nbs/sidebar.yml`; notebooks it does not list come last, in numeric order."
    import yaml
    y = NBS/'sidebar.yml'
    contents = (yaml.safe_load(y.read_text()) or {}).get('website', {}).get('sidebar', {}).get('contents', []) if y.exists() else []
    avail, seen, res = set(stems), set(), []
    def names(items):
        out = []
        for it in items or []:
            if isinstance(it, dict):
                if 'section' in it or 'contents' in it: out += names(it.get('contents'))
                if it.get('href'): out += names([it['href']])
            elif isinstance(it, str):
                s = Path(it).stem
                if s in avail and s not in seen and s != 'index': seen.add(s); out.append(s)
                elif s not in avail: log(f'  note: nbs/sidebar.yml lists {it}, which does not exist')
        return out
    loose = []
    for it in contents:
        if isinstance(it, dict) and 'section' in it:
            if loose: res.append((None, loose)); loose = []
            ns = names([it])
            if ns: res.append((str(it['section']), ns))
        else: loose += names([it])
    if loose: res.append((None, loose))
    rest = [s for s in stems if s not in seen and s != 'index']
    if rest: res.append(('More notebooks', rest))
    return res

def _toctree_cell(caption, entries):
    cap = f':caption: {caption}\n' if caption else ''
    body = '\n'.join(entries)
    return dict(cell_type='markdown', metadata={}, source=f'```{{toctree}}\n:hidden:\n:maxdepth: 1\n{cap}\n{body}\n```\n')

CONF = '''# generated by tools/build_docs.py
project = {title!r}
html_title = {title!r}
author = {author!r}
extensions = ['myst_nb', 'sphinx-mathjax-offline']
nb_execution_mode = 'off'                 # the notebooks were executed by tools/build_docs.py
nb_ipywidgets_js = {{}}                     # no widget manager from a CDN: widgets show their static fallback
nb_render_markdown_format = 'myst'
nb_output_stderr = 'show'
nb_merge_streams = True
myst_enable_extensions = ['dollarmath', 'amsmath', 'colon_fence', 'deflist', 'attrs_inline']
myst_dmath_double_inline = True
myst_heading_anchors = 3
suppress_warnings = ['mystnb.unknown_mime_type', 'myst.header', 'misc.highlighting_failure']
html_theme = 'furo'
html_static_path = ['_static']
html_css_files = ['extra.css']
html_js_files = ['extra.js']
html_favicon = '_static/favicon.svg'    # else browsers ask for /favicon.ico and log a 404
copyright = author
html_show_sourcelink = False
html_last_updated_fmt = None
exclude_patterns = ['_build', '**.ipynb_checkpoints']

def setup(app):
    # the offline MathJax extension only copies files after the build: safe for parallel reading, it just does not say so
    ext = app.extensions.get('sphinx-mathjax-offline')
    if ext is not None: ext.parallel_read_safe = ext.parallel_write_safe = True
'''

EXTRA_CSS = '''/* generated by tools/build_docs.py */
.cell_output .output.text_plain, .cell_output pre { max-height: 40em; overflow: auto; }
mjx-container[display="true"] { overflow-x: auto; overflow-y: hidden; max-width: 100%; }
/* wide tables scroll inside the page instead of being cut off */
.cell_output table, article table.docutils { display: block; max-width: 100%; overflow-x: auto; }
/* figures fit the page and open full-size on click (extra.js) */
.cell_output img { max-width: 100%; height: auto; cursor: zoom-in; }
'''

EXTRA_JS = '''// generated by tools/build_docs.py: a figure opens at full size on click
document.addEventListener('click', function (e) {
  var img = e.target.closest ? e.target.closest('.cell_output img') : null;
  if (img && !img.closest('a')) { window.location.href = img.currentSrc || img.src; }
});
'''

def _ids(nb, stem):
    "nbformat 4.5 wants an id on every cell."
    for i, c in enumerate(nb['cells']): c['id'] = f'{re.sub(r"[^A-Za-z0-9_-]", "-", stem)[:40]}-{i}'
    return nb

FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2962ff"/>'
           '<text x="8" y="12" font-size="10" text-anchor="middle" fill="#fff" font-family="sans-serif">&#949;</text></svg>\n')

def write_sphinx_src(proc_dir:Path, stems):
    from nbdev.config import get_config
    cfg = get_config()
    if SRC.exists(): shutil.rmtree(SRC)
    (SRC/'_static').mkdir(parents=True)
    pages = page_map(proc_dir)
    for s in stems:
        nb = to_myst_nb(read_json(proc_dir/f'{s}.ipynb'), pages, s)
        if s == 'index':   # the home page heads the sidebar too (`self`), then the sections of nbs/sidebar.yml
            nb['cells'].append(_toctree_cell(None, ['Home <self>']))
            for cap, entries in sidebar_sections(stems): nb['cells'].append(_toctree_cell(cap, entries))
        write_json(SRC/f'{s}.ipynb', _ids(nb, s))
    if 'index' not in stems:     # a home page is needed all the same
        cells = [dict(cell_type='markdown', metadata={}, source=f'# {cfg.title}\n')]
        cells += [_toctree_cell(c, e) for c, e in sidebar_sections(stems)]
        write_json(SRC/'index.ipynb', _ids(dict(nbformat=4, nbformat_minor=5, metadata={}, cells=cells), 'index'))
    for f in NBS.rglob('*'):     # images referenced from markdown cells, with their relative paths
        rel = f.relative_to(NBS)
        if f.is_file() and f.suffix.lower() in ('.png', '.jpg', '.jpeg', '.gif', '.svg', '.webp') \
           and not any(q.startswith(('.', '_')) for q in rel.parts[:-1]):
            (SRC/rel).parent.mkdir(parents=True, exist_ok=True); shutil.copy2(f, SRC/rel)
    author = cfg.get('author') or 'shuffle_privacy developers'
    (SRC/'conf.py').write_text(CONF.format(title=str(cfg.title), author=str(author)))
    (SRC/'_static'/'extra.css').write_text(EXTRA_CSS)
    (SRC/'_static'/'extra.js').write_text(EXTRA_JS)
    (SRC/'_static'/'favicon.svg').write_text(FAVICON)

def run_sphinx(workers:int):
    if SITE.exists(): shutil.rmtree(SITE)
    cmd = [sys.executable, '-m', 'sphinx', '-b', 'html', '-q', '-j', str(workers), '-d', str(BUILD/'doctrees'), str(SRC), str(SITE)]
    log('+ ' + ' '.join(cmd))
    r = subprocess.run(cmd, cwd=ROOT)
    if r.returncode: raise BuildError(f'sphinx-build failed ({r.returncode})')
    patch_searchtools(SITE)

_SUMMARY_CALL = re.compile(r'listItem\.appendChild\(\s*Search\.makeSearchSummary\(data, searchTerms, anchor\),?\s*\);')

def patch_searchtools(site:Path):
    """Sphinx 9's search page throws when a hit is an index entry: its anchor (`{index}`'s empty `<span id=index-N>`)
    has no text, `makeSearchSummary` returns null and `appendChild(null)` raises. Guard the call (a one-line patch of
    the built `searchtools.js`; a no-op once Sphinx guards it itself)."""
    js = site/'_static'/'searchtools.js'
    if not js.exists(): return
    txt = js.read_text(encoding='utf-8')
    new = _SUMMARY_CALL.sub('{ const summary = Search.makeSearchSummary(data, searchTerms, anchor); '
                            'if (summary) listItem.appendChild(summary); }', txt)
    if new != txt: js.write_text(new, encoding='utf-8')

# ---------------------------------------------------------------------------------------------------------------
# checks on the built site

class _Res(HTMLParser):
    "Collect what a page loads: scripts, stylesheets/links, images, frames."
    def __init__(self):
        super().__init__(); self.loads = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for t, k in (('script', 'src'), ('link', 'href'), ('img', 'src'), ('iframe', 'src'), ('source', 'src'),
                     ('embed', 'src'), ('object', 'data'), ('video', 'src'), ('audio', 'src')):
            if tag == t and a.get(k): self.loads.append((tag, a[k]))

_re_remote = re.compile(r'^\s*(https?:)?//', re.I)

def check_offline(site:Path):
    "Fail if any page loads anything from the network (CDN scripts, stylesheets, fonts, images)."
    bad = []
    for f in site.rglob('*.html'):
        p = _Res(); p.feed(f.read_text(encoding='utf-8', errors='replace'))
        bad += [f'{f.relative_to(site)}: <{t}> {u}' for t, u in p.loads if _re_remote.match(u)]
    for f in list(site.rglob('*.css')):   # stylesheets importing remote fonts or css
        txt = f.read_text(encoding='utf-8', errors='replace')
        bad += [f'{f.relative_to(site)}: {m}' for m in re.findall(r'(?:@import\s+(?:url\()?|url\()\s*["\']?((?:https?:)?//[^"\')\s]+)', txt)]
    if bad: raise BuildError('the site loads resources from the network (no CDN allowed):\n  ' + '\n  '.join(sorted(set(bad))[:50]))
    if not (site/'_static'/'mathjax'/'tex-chtml.js').exists(): raise BuildError('offline MathJax missing from the site')
    log(f'offline check: no page loads anything from the network ({sum(1 for _ in site.rglob("*.html"))} pages)')

# ---------------------------------------------------------------------------------------------------------------
# README.md from nbs/index.ipynb

_readme_img_dir = 'README_files'
_README_WARNING = '<!-- WARNING: THIS FILE WAS GENERATED FROM nbs/index.ipynb BY tools/build_docs.py. DO NOT EDIT! -->'

def readme_markdown(proc_nb:dict, write_imgs:bool=True)->str:
    "GitHub markdown for the processed index notebook: hidden cells removed, directives stripped, outputs shown."
    parts, imgs, state = [], 0, widget_state(proc_nb)
    for c in proc_nb['cells']:
        fm = _frontmatter(c)
        if fm is not None:
            parts.append(src_of(_title_cell(fm)).strip()); continue
        if c['cell_type'] == 'markdown':
            md = src_of(c).strip()
            if md.startswith('<!-- WARNING: THIS FILE WAS AUTOGENERATED'): md = _README_WARNING
            parts.append(_relink(md, {})); continue      # nbdev's site-relative doc links mean nothing on GitHub
        if c['cell_type'] != 'code': continue
        opts, code = split_options(src_of(c))
        if opts.get('include') == 'false': continue
        if code.strip() and opts.get('echo') != 'false': parts.append(f'```python\n{code.strip()}\n```')
        if opts.get('output') == 'false': continue
        for o in _clean_outputs(c.get('outputs', []), state):
            if o.get('output_type') == 'stream': parts.append('```\n' + ''.join(o['text']).rstrip() + '\n```')
            elif o.get('output_type') == 'error': parts.append('```\n' + '\n'.join(o.get('traceback', [])) + '\n```')
            else:
                d = o.get('data', {})
                if 'text/markdown' in d: parts.append(_relink(''.join(d['text/markdown']).strip(), {}))
                elif 'image/png' in d:
                    import base64
                    imgs += 1
                    rel = f'{_readme_img_dir}/index_{imgs}.png'
                    if write_imgs:
                        (ROOT/_readme_img_dir).mkdir(exist_ok=True)
                        (ROOT/rel).write_bytes(base64.b64decode(''.join(d['image/png'])))
                    parts.append(f'![]({rel})')
                elif 'text/plain' in d: parts.append('```\n' + ''.join(d['text/plain']).rstrip() + '\n```')
    text = '\n\n'.join(p for p in parts if p)
    return re.sub(r'\n{3,}', '\n\n', text).strip() + '\n'

def build_readme(check:bool=False)->bool:
    "Write README.md from the committed nbs/index.ipynb; with `check`, only compare. Returns True if up to date."
    src = NBS/'index.ipynb'
    if not src.exists(): log('no nbs/index.ipynb: README.md left alone'); return True
    tmp = BUILD/'readme'
    process_all([src], tmp, 1)
    text = readme_markdown(read_json(tmp/'index.ipynb'), write_imgs=not check)
    cur = README.read_text(encoding='utf-8') if README.exists() else None
    if check:
        if cur == text: log('README.md is up to date with nbs/index.ipynb'); return True
        import difflib
        sys.stdout.writelines(difflib.unified_diff((cur or '').splitlines(True), text.splitlines(True), 'README.md', 'from nbs/index.ipynb'))
        log('README.md is stale: run `.venv/bin/python tools/build_docs.py --readme-only` and commit it')
        return False
    if cur != text: README.write_text(text, encoding='utf-8'); log('wrote README.md')
    else: log('README.md unchanged')
    return True

# ---------------------------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--skip-slow', action='store_true', help='do not run cells flagged with tst_flags (`#| slow`); keep their committed outputs')
    ap.add_argument('--no-execute', action='store_true', help='build from the committed outputs (fast)')
    ap.add_argument('--no-sphinx', action='store_true', help='skip the offline Sphinx site')
    ap.add_argument('--readme-only', action='store_true', help='only regenerate README.md from nbs/index.ipynb')
    ap.add_argument('--check-readme', action='store_true', help='exit 1 if README.md is not up to date')
    ap.add_argument('--no-readme', action='store_true', help='do not regenerate README.md')
    ap.add_argument('--timeout', type=int, default=900, help='seconds per cell')
    ap.add_argument('--workers', type=int, default=min(os.cpu_count() or 1, 2))
    ap.add_argument('notebook', nargs='*', help='re-execute only these notebooks (names or paths in nbs/); '
                    'the others keep their last executed outputs')
    a = ap.parse_args(argv)
    os.chdir(ROOT)
    os.environ.setdefault('JUPYTER_PLATFORM_DIRS', '1')
    t0 = time.time()
    try:
        if a.check_readme: return 0 if build_readme(check=True) else 1
        if a.readme_only: build_readme(); return 0
        nbs = notebooks()
        if not nbs: raise BuildError('no notebooks in nbs/')
        t = time.time()
        if a.no_execute: copy_committed(nbs); log('using the committed outputs (--no-execute)')
        else:
            only = None
            if a.notebook:
                names = {p.name: p for p in nbs}
                only = {Path(n).name if Path(n).suffix else Path(n).name + '.ipynb' for n in a.notebook}
                bad = sorted(only - set(names))
                if bad: raise BuildError(f'no such notebook in nbs/: {", ".join(bad)}')
            execute_all(nbs, a.skip_slow, a.timeout, a.workers, only)
        log(f'execution: {time.time()-t:.1f}s'); t = time.time()
        executed = [EXEC/p.name for p in nbs]
        if shutil.which('quarto'):
            log('quarto found: building the Quarto site with nbdev-docs into _docs/')
            r = subprocess.run([str(Path(sys.executable).parent/'nbdev-docs'), '--path', str(EXEC)], cwd=ROOT)
            if r.returncode: raise BuildError('nbdev-docs failed')
            log(f'Quarto site: open file://{ROOT/"_docs"/"index.html"}')
        else:
            log('note: Quarto is not on PATH, so nbdev\'s own `nbdev-preview` and `nbdev-docs` cannot run here (they '
                'render with Quarto: https://quarto.org/docs/get-started/). This build makes the equivalent offline '
                'site with Sphinx + myst-nb instead, from the same nbdev-processed notebooks.')
        if not a.no_readme: build_readme(); log(f'README: {time.time()-t:.1f}s'); t = time.time()
        if a.no_sphinx: return 0
        process_all(executed, PROC, a.workers)
        log(f'nbdev processors: {time.time()-t:.1f}s'); t = time.time()
        write_sphinx_src(PROC, [p.stem for p in nbs])
        run_sphinx(a.workers)
        check_offline(SITE)
        log(f'sphinx: {time.time()-t:.1f}s; total {time.time()-t0:.1f}s')
        log(f'\ndocumentation site built; open file://{SITE/"index.html"}\n'
            f'or serve it: .venv/bin/python -m http.server -d {SITE.relative_to(ROOT)} 8000  (then http://127.0.0.1:8000/)')
        return 0
    except BuildError as e:
        log(f'\nDOCS BUILD FAILED: {e}')
        return 1

if __name__ == '__main__':
    # run through the importable module, so that worker processes (spawned) find the worker functions by name
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import build_docs
    sys.exit(build_docs.main())
