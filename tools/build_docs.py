#!/usr/bin/env python3
"""Build the documentation site of shuffle_privacy (`python3 dev.py docs`) from the committed notebooks.

Nothing is executed: every page shows its committed notebook's outputs, the full-size run that `python3 dev.py run`
made. (CI checks that the notebooks run with nbdev-test, and that pages' text outputs equal the committed ones.)
1. Process each notebook with nbdev's public documentation processors (`process`; not `exec_show_docs`, which re-runs
   cells at test size); the show_doc cells nbdev adds are rendered by `nbdev.showdoc.show_doc` on the installed
   package's objects. Cells that only import fastcore.test, or only test private names, stay out of the site.
2. Write myst-nb notebooks (`nb_execution_mode = 'off'`) with the sidebar of `site_nav.sections()`, an API reference
   page, the index of names, and notebook names linked; 3. render with Sphinx + furo into `_build/site/`, offline
   (MathJax from sphinx-mathjax-offline; the build fails if a page loads from the network).
4. README.md is generated from `nbs/index.ipynb` the same way (`--readme-only`; `--check-readme` only compares).
"""
import argparse, ast, copy, html, json, os, re, shutil, subprocess, sys, time
from importlib import import_module
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import site_nav

ROOT = Path(__file__).resolve().parents[1]
NBS, BUILD, README = ROOT/'nbs', ROOT/'_build', ROOT/'README.md'
SRC, SITE = BUILD/'sphinx_src', BUILD/'site'
_t0 = time.time()
def log(*a): print(f'[{time.time()-_t0:5.1f}s]', *a, flush=True)
class BuildError(Exception): pass

def read_json(p): return json.loads(Path(p).read_text(encoding='utf-8'))
def write_json(p, d): Path(p).write_text(json.dumps(d, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
def src_of(c): s = c.get('source', ''); return s if isinstance(s, str) else ''.join(s)

# -------------------- 1. nbdev's public processors, and two of our own ----------------------------------------------

_re_show_doc = re.compile(r'^\s*show_doc\s*\(\s*([\w.]+)')
_TESTS = {'test_eq', 'test_ne', 'test_close', 'test_fail', 'test_is', 'test_warns', 'test_eq_type', 'test_stdout',
          'test_shuffled', 'test_sig', 'assert_allclose'}
_re_fctest = re.compile(r'^\s*(from\s+fastcore\.test\s+import\s+.*|import\s+fastcore\.test\b.*)$\n?', re.M)

def _private_names(tree):
    return {n for x in ast.walk(tree) for n in [getattr(x, 'id', None) or getattr(x, 'attr', None)]
            if isinstance(n, str) and len(n) > 1 and n.startswith('_') and not n.startswith('__')}

def _only_tests(stmts):
    "Every statement a test: a call of a fastcore.test function, an assert, or a loop of them."
    def ok(s):
        if isinstance(s, ast.Assert): return True
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
            f = s.value.func
            return (getattr(f, 'id', None) or getattr(f, 'attr', None)) in _TESTS
        if isinstance(s, (ast.For, ast.With)): return _only_tests(s.body)
        return False
    return bool(stmts) and all(ok(s) for s in stmts)

def hide_test_only(cell):
    "Site only: drop `fastcore.test` import lines, and cells without output that only test private names."
    if cell.cell_type != 'code' or not cell.source: return
    if _re_fctest.search(cell.source):
        cell.source = _re_fctest.sub('', cell.source)
        if not re.sub(r'^\s*#\|.*$', '', cell.source, flags=re.M).strip() and not cell.get('outputs'): del cell['source']; return
    if cell.get('outputs'): return
    try: tree = ast.parse(re.sub(r'^\s*[%!].*$', '', cell.source, flags=re.M))
    except SyntaxError: return
    if _only_tests(tree.body) and _private_names(tree): del cell['source']

def _show_doc_procs():
    from nbdev.process import Processor
    from nbdev.showdoc import show_doc
    from nbdev.config import get_config
    class render_show_docs(Processor):
        "Give each `show_doc(...)` cell without a committed output the markdown `show_doc` makes for the package's object."
        def begin(self):
            lib, mods = get_config().lib_name, set()
            for c in self.nb.cells:
                d = getattr(c, 'directives_', {}) or {}
                for k in ('default_exp', 'export', 'exports', 'exporti'):
                    if d.get(k): mods.add(d[k].split()[0])
            self.ns = {'show_doc': show_doc, **vars(import_module(lib))}
            for m in sorted(mods): self.ns.update(vars(import_module(f'{lib}.{m}')))
        def cell(self, cell):
            code = re.sub(r'^\s*#\|.*\n', '', cell.source or '', flags=re.M).strip()
            if cell.cell_type != 'code' or not _re_show_doc.match(code): return
            if any('text/markdown' in (o.get('data') or {}) for o in cell.get('outputs', [])): return
            try: md = eval(code, self.ns)._repr_markdown_()
            except Exception as e: raise BuildError(f'{code}: {type(e).__name__}: {e}') from e
            cell.outputs = [dict(output_type='display_data', metadata={}, data={'text/markdown': md})]
    return render_show_docs

def process(path:Path):
    "The notebook at `path` through nbdev's documentation processors (no cell executed); returns the notebook."
    from nbdev.process import NBProcessor
    from fastcore.nbio import nb2dict
    from nbdev.processors import (populate_language, add_show_docs, strip_ansi, hide_line, filter_stream_,
                                  rm_header_dash, clean_show_doc, rm_export, clean_magics, hide_, add_links,
                                  mv_exports, strip_hidden_metadata)
    procs = [populate_language, add_show_docs, strip_ansi, hide_line, filter_stream_, rm_header_dash, clean_show_doc,
             _show_doc_procs(), rm_export, clean_magics, hide_, hide_test_only, add_links, mv_exports, strip_hidden_metadata]
    cwd = os.getcwd(); os.chdir(ROOT)                    # nbdev's get_config() looks for pyproject.toml from the cwd
    try:
        p = NBProcessor(path, procs, rm_directives='quarto'); p.process(); return nb2dict(p.nb)
    except BuildError as e: raise BuildError(f'{path.name}: {e}') from e
    finally: os.chdir(cwd)

# -------------------- 2. myst-nb notebooks --------------------------------------------------------------------------

_re_qopt = re.compile(r'^\s*#\|\s*([\w-]+)\s*:?\s*(.*?)\s*$')
_re_doclink = re.compile(r'\[`([^`\]]+)`\]\(/([\w./-]+?)\.html(#[\w.-]*)?\)')
WIDGET_MIMES = ('application/vnd.jupyter.widget-view+json', 'application/vnd.jupyter.widget-state+json')

def split_options(source:str):
    "Split leading Quarto `#| key: value` lines off a code cell: (options, remaining source)."
    lines, opts = source.splitlines(True), {}
    while lines and (m := _re_qopt.match(lines[0])): opts[m.group(1)] = m.group(2).strip('"\'') or 'true'; lines.pop(0)
    return opts, ''.join(lines)

def relink(md:str, pages:dict, href=lambda s: f'{s}.html', raw_html=True)->str:
    "nbdev's doc links (`/core.html#sym`) to our pages (or plain code where no page), then notebook names linkified."
    def f(m):
        page = pages.get(m.group(2)) if not m.group(1).split('.')[-1].startswith('_') else None   # no docs for privates
        return site_nav.link(m.group(1), href(page) + (m.group(3) or ''), True, raw_html) if page else f'`{m.group(1)}`'
    return site_nav.linkify(_re_doclink.sub(f, md), href, raw_html=raw_html)

def clean_outputs(outs):
    "Outputs as committed, minus widget views (no widget manager offline) and text overwritten by carriage returns."
    res = []
    for o in copy.deepcopy(outs):
        d = o.get('data')
        if d is not None:
            for k in WIDGET_MIMES: d.pop(k, None)
            if not d: continue
            for k, v in d.items():
                if isinstance(v, list) and k.startswith('text/'): d[k] = ''.join(v)
        if o.get('output_type') == 'stream':
            o['text'] = '\n'.join(l.rstrip('\r').rsplit('\r', 1)[-1] for l in ''.join(o.get('text', '')).split('\n'))
        res.append(o)
    return res

def showdoc_md(md:str, name:str, stem:str, pages:dict)->str:
    "show_doc's markdown as a page block: an index entry, nbdev's anchor (`rdpaccountant.compose`), no rule, no dead link."
    md = re.sub(r'^\[source\]\((?!https?:)[^)]*\)(\{[^}]*\})?\s*$', '', md.strip(), flags=re.M).strip()
    md = md[3:].lstrip() if md.startswith('---') else md
    anchor, slug = name.lower(), re.sub(r'[^\w\- ]', '', name.lower()).replace(' ', '-')
    span = f'<span id="{html.escape(anchor)}"></span>\n\n' if anchor != slug else ''
    return f'```{{index}} single: {name}; {stem}\n```\n\n{span}{relink(md, pages)}\n'

def to_myst_nb(nb:dict, pages:dict, stem:str)->dict:
    "One processed notebook as a notebook myst-nb renders offline, without executing it."
    cells = []
    for c in nb['cells']:
        if c['cell_type'] == 'markdown':
            cells.append(dict(cell_type='markdown', metadata={}, source=relink(src_of(c), pages),
                              **({'attachments': c['attachments']} if c.get('attachments') else {})))
        if c['cell_type'] != 'code': continue
        opts, code = split_options(src_of(c))
        outs = clean_outputs(c.get('outputs', []))
        if opts.get('include') == 'false': continue
        if (m := _re_show_doc.match(code)):
            md = next((o['data']['text/markdown'] for o in outs if 'text/markdown' in o.get('data', {})), None)
            if md: cells.append(dict(cell_type='markdown', metadata={}, source=showdoc_md(md, m.group(1), stem, pages)))
            continue
        tags = (['remove-input'] if opts.get('echo') == 'false' or not code.strip() else []) + \
               (['remove-output'] if opts.get('output') == 'false' else []) + \
               (['hide-input'] if opts.get('code-fold') in ('true', 'show') else [])
        if code.strip() or outs:
            cells.append(dict(cell_type='code', metadata={'tags': tags} if tags else {}, source=code, outputs=outs,
                              execution_count=None))
    for i, c in enumerate(cells): c['id'] = f'{stem[:40]}-{i}'
    return dict(nbformat=4, nbformat_minor=5, cells=cells,
                metadata={'kernelspec': {'name': 'python3', 'display_name': 'Python 3', 'language': 'python'},
                          'language_info': {'name': 'python'}})

def toctree(caption, entries):
    return f'```{{toctree}}\n:hidden:\n:maxdepth: 1\n' + (f':caption: {caption}\n' if caption else '') + \
           '\n' + '\n'.join(entries) + '\n```\n'

CONF = '''# generated by tools/build_docs.py
project = html_title = {title!r}
author = copyright = {author!r}
extensions = ['myst_nb', 'sphinx-mathjax-offline']
nb_execution_mode = 'off'                 # pages show the committed notebooks' outputs
nb_ipywidgets_js = {{}}                     # no widget manager from a CDN
nb_output_stderr = 'show'
nb_merge_streams = True
myst_enable_extensions = ['dollarmath', 'amsmath', 'colon_fence', 'deflist', 'attrs_inline']
myst_dmath_double_inline = True
myst_heading_anchors = 3
suppress_warnings = ['mystnb.unknown_mime_type', 'myst.header', 'misc.highlighting_failure']
html_theme = 'furo'
html_static_path = ['_static']
html_css_files = ['styles.css']
html_favicon = '_static/favicon.svg'
html_show_sourcelink = False
smartquotes = False                       # text as the notebooks write it
exclude_patterns = ['_build', '**.ipynb_checkpoints']

def setup(app):   # the offline MathJax extension only copies files after the build: safe in parallel
    ext = app.extensions.get('sphinx-mathjax-offline')
    if ext is not None: ext.parallel_read_safe = ext.parallel_write_safe = True
'''
FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
           'fill="#2962ff"/><text x="8" y="12" font-size="10" text-anchor="middle" fill="#fff">&#949;</text></svg>\n')

def write_sphinx_src(nbs):
    from nbdev.config import get_config
    cfg, pages = get_config(), site_nav.page_map()
    if SRC.exists(): shutil.rmtree(SRC)
    (SRC/'_static').mkdir(parents=True)
    for p in nbs:
        nb = to_myst_nb(process(p), pages, p.stem)
        if p.stem == 'index':
            nb['cells'].append(dict(cell_type='markdown', metadata={}, id='index-toc', source=''.join(
                [toctree(None, ['Home <self>', 'API reference <api_reference>', 'Index of names <genindex>'])]
                + [toctree(sec, stems) for sec, stems in site_nav.sections()])))
        write_json(SRC/f'{p.stem}.ipynb', nb)
    (SRC/'api_reference.md').write_text(site_nav.api_reference(site_nav.doc_url_fn(pages)), encoding='utf-8')
    for f in NBS.rglob('*'):            # images that markdown cells reference by relative path
        rel = f.relative_to(NBS)
        if f.is_file() and f.suffix.lower() in ('.png', '.jpg', '.jpeg', '.gif', '.svg') and \
           not any(q.startswith(('.', '_')) for q in rel.parts[:-1]):
            (SRC/rel).parent.mkdir(parents=True, exist_ok=True); shutil.copy2(f, SRC/rel)
    (SRC/'conf.py').write_text(CONF.format(title=str(cfg.title), author=str(cfg.get('author') or f'{cfg.title} developers')))
    shutil.copy2(NBS/'styles.css', SRC/'_static'/'styles.css')
    (SRC/'_static'/'favicon.svg').write_text(FAVICON)

# -------------------- 3. Sphinx, and the offline check --------------------------------------------------------------

def run_sphinx(workers:int):
    if SITE.exists(): shutil.rmtree(SITE)
    cmd = [sys.executable, '-m', 'sphinx', '-b', 'html', '-q', '-j', str(workers), '-d', str(BUILD/'doctrees'), str(SRC), str(SITE)]
    log('+ ' + ' '.join(cmd)); import sphinx
    if subprocess.run(cmd, cwd=ROOT).returncode: raise BuildError('sphinx-build failed')
    # Sphinx 9.0's search page throws when a hit is an `{index}` entry (its anchor has no text, so makeSearchSummary
    # returns null and appendChild(null) raises). Guard that one call on the Sphinx versions known to have it.
    if sphinx.version_info[:2] == (9, 0) and (js := SITE/'_static'/'searchtools.js').exists():
        old = re.compile(r'listItem\.appendChild\(\s*Search\.makeSearchSummary\(data, searchTerms, anchor\),?\s*\);')
        new = '{ const _s = Search.makeSearchSummary(data, searchTerms, anchor); if (_s) listItem.appendChild(_s); }'
        txt = js.read_text(encoding='utf-8')
        if old.search(txt): js.write_text(old.sub(new, txt), encoding='utf-8')
        else: log('note: searchtools.js has no unguarded makeSearchSummary call any more: drop this patch')

_re_load = re.compile(r'<(?:script|img|iframe|source|embed|video|audio)\b[^>]*\bsrc=["\']((?:https?:)?//[^"\']+)'
                      r'|<link\b[^>]*\bhref=["\']((?:https?:)?//[^"\']+)|url\(\s*["\']?((?:https?:)?//[^"\')\s]+)', re.I)

def check_offline(site:Path):
    "Fail if any page or stylesheet loads anything from the network."
    bad = sorted({f'{f.relative_to(site)}: {next(g for g in m.groups() if g)}' for f in [*site.rglob('*.html'), *site.rglob('*.css')]
                  for m in _re_load.finditer(f.read_text(encoding='utf-8', errors='replace'))})
    if bad: raise BuildError('the site loads resources from the network:\n  ' + '\n  '.join(bad[:50]))
    if not (site/'_static'/'mathjax'/'tex-chtml.js').exists(): raise BuildError('offline MathJax missing from the site')

# -------------------- 4. README.md from nbs/index.ipynb -------------------------------------------------------------

def readme_markdown(nb:dict)->str:
    "GitHub markdown for the processed index notebook: outputs as committed, notebook names linked to nbs/."
    parts, href = [], lambda s: f'nbs/{s}.ipynb'
    for c in nb['cells']:
        if c['cell_type'] == 'markdown': parts.append(relink(src_of(c).strip(), {}, href, False)); continue
        opts, code = split_options(src_of(c))
        if c['cell_type'] != 'code' or opts.get('include') == 'false': continue
        if code.strip() and opts.get('echo') != 'false': parts.append(f'```python\n{code.strip()}\n```')
        for o in [] if opts.get('output') == 'false' else clean_outputs(c.get('outputs', [])):
            d = o.get('data', {})
            if o['output_type'] == 'stream': parts.append('```\n' + o['text'].rstrip() + '\n```')
            elif 'text/markdown' in d: parts.append(relink(d['text/markdown'].strip(), {}, href, False))
            elif 'text/plain' in d: parts.append('```\n' + d['text/plain'].rstrip() + '\n```')
    parts.insert(1, '<!-- WARNING: THIS FILE WAS GENERATED FROM nbs/index.ipynb BY tools/build_docs.py. DO NOT EDIT! -->')
    return re.sub(r'\n{3,}', '\n\n', '\n\n'.join(p for p in parts if p)).strip() + '\n'

def build_readme(check=False)->bool:
    text = readme_markdown(process(NBS/'index.ipynb'))
    cur = README.read_text(encoding='utf-8') if README.exists() else ''
    if cur == text: log('README.md is up to date with nbs/index.ipynb'); return True
    if check:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(cur.splitlines(True), text.splitlines(True), 'README.md', 'nbs/index.ipynb'))
        log('README.md is stale: run `.venv/bin/python tools/build_docs.py --readme-only` and commit it'); return False
    README.write_text(text, encoding='utf-8'); log('wrote README.md'); return True

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--readme-only', action='store_true', help='only regenerate README.md from nbs/index.ipynb')
    ap.add_argument('--check-readme', action='store_true', help='exit 1 if README.md is not up to date')
    ap.add_argument('--no-readme', action='store_true', help='do not regenerate README.md')
    ap.add_argument('--no-execute', action='store_true', help='accepted for compatibility: the build never executes')
    ap.add_argument('--workers', type=int, default=min(os.cpu_count() or 1, 2), help='Sphinx processes')
    a = ap.parse_args(argv)
    os.chdir(ROOT)
    try:
        if a.check_readme: return 0 if build_readme(check=True) else 1
        if a.readme_only: return 0 if build_readme() else 1
        site_nav.main([]); nbs = site_nav.notebooks()           # nbs/sidebar.yml follows the notebooks
        log(f'processing {len(nbs)} committed notebooks (nothing is executed)'); write_sphinx_src(nbs)
        if not a.no_readme: build_readme()
        log('rendering with Sphinx'); run_sphinx(a.workers); check_offline(SITE)
        log(f'documentation site built: open file://{SITE/"index.html"}\n'
            f'  or serve it: .venv/bin/python -m http.server -d {SITE.relative_to(ROOT)} 8000')
        return 0
    except BuildError as e: log(f'DOCS BUILD FAILED: {e}'); return 1

if __name__ == '__main__': sys.exit(main())
