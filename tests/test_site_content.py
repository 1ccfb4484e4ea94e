"""The built site (`python3 dev.py docs` -> `_build/site/`) against the committed notebooks, without a browser.

- every text output of a shown cell in a committed notebook appears on its page (no test-size re-execution);
- every internal link of every page resolves, anchors included;
- every page's navigation links to the home page, the API reference and the index of names;
- the API reference lists every name of `shuffle_privacy.__all__`;
- no page shows `fastcore.test` imports; each page shows its notebook's whole `>` summary.

Run: `.venv/bin/python -m pytest tests/test_site_content.py -m site` after `python3 dev.py docs`. Without a built
site the tests skip, unless CI or REQUIRE_SITE is set (then they fail).
"""
import html, json, os, re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

pytestmark = pytest.mark.site

ROOT = Path(__file__).resolve().parents[1]
SITE, NBS = ROOT/'_build'/'site', ROOT/'nbs'
NOTEBOOKS = sorted(p for p in NBS.glob('*.ipynb') if not p.name.startswith(('_', '.')))

@pytest.fixture(scope='module', autouse=True)
def _require():
    if (SITE/'index.html').exists(): return
    msg = f'documentation site not built ({SITE}/index.html missing): run `python3 dev.py docs` first'
    if os.environ.get('CI') or os.environ.get('REQUIRE_SITE'): pytest.fail(msg)
    pytest.skip(msg)

class _Text(HTMLParser):
    "The text of the page's <article> (what a reader sees), and every id, href and blockquote."
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth, self.parts, self.ids, self.hrefs, self.quotes, self._q = 0, [], set(), [], [], None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ('id', 'name'):
            if a.get(k): self.ids.add(a[k])
        if tag == 'a' and a.get('href') is not None: self.hrefs.append(a['href'])
        if tag == 'article' or self.depth: self.depth += tag not in ('br', 'img', 'hr', 'input', 'meta', 'link', 'wbr')
        if tag == 'blockquote' and self.depth and self._q is None: self._q = len(self.parts)
    def handle_endtag(self, tag):
        if self.depth and tag not in ('br', 'img', 'hr', 'input', 'meta', 'link', 'wbr'): self.depth -= 1
        if tag == 'blockquote' and self._q is not None: self.quotes.append(norm(''.join(self.parts[self._q:]))); self._q = None
    def handle_data(self, d):
        if self.depth: self.parts.append(d)

def parse(path:Path)->_Text:
    p = _Text(); p.feed(path.read_text(encoding='utf-8', errors='replace')); return p

_ANSI = re.compile(r'\x1b\[[0-9;]*[A-Za-z]')
def norm(t:str)->str: return ' '.join(_ANSI.sub('', t).replace('\u00a0', ' ').split())

def directives(src:str)->dict:
    res = {}
    for line in src.splitlines():
        m = re.match(r'^\s*#\|\s*([\w-]+)\s*:?\s*(.*?)\s*$', line)
        if not m: break
        res[m.group(1)] = m.group(2) or 'true'
    return res

RICH = ('image/', 'text/html', 'text/markdown', 'text/latex', 'application/vnd.jupyter.widget')

def shown_texts(nb:dict)->list:
    "(cell index, text) for the text outputs a reader must find on the page: streams, and plain-only results."
    res = []
    for i, c in enumerate(nb['cells']):
        if c['cell_type'] != 'code': continue
        src = ''.join(c['source'])
        d = directives(src)
        if d.keys() & {'hide', 'export', 'exporti'} or d.get('include') == 'false' or d.get('output') == 'false': continue
        if re.match(r'\s*(#\|.*\n)*\s*show_doc\(', src): continue
        for o in c.get('outputs', []):
            if o['output_type'] == 'stream':
                t = '\n'.join(l.rstrip('\r').rsplit('\r', 1)[-1] for l in ''.join(o['text']).split('\n'))
            elif o['output_type'] in ('execute_result', 'display_data'):
                data = o.get('data', {})
                if any(k.startswith(RICH) for k in data) or 'text/plain' not in data: continue
                t = ''.join(data['text/plain'])
            else: continue
            if norm(t): res.append((i, norm(t)))
    return res

def missing_outputs(nb:dict, page_text:str)->list:
    return [(i, t[:200]) for i, t in shown_texts(nb) if t not in page_text]

def test_missing_outputs_detector():
    nb = {'cells': [{'cell_type': 'code', 'source': ['print(x)'], 'outputs': [
              {'output_type': 'stream', 'name': 'stdout', 'text': ['after 1000 rounds:  0.808\n']}]},
          {'cell_type': 'code', 'source': ['#| hide\nprint(y)'], 'outputs': [
              {'output_type': 'stream', 'name': 'stdout', 'text': ['hidden\n']}]}]}
    assert missing_outputs(nb, 'page: after 1000 rounds: 0.808 more') == []
    assert missing_outputs(nb, 'page: after 100 rounds: 0.611') == [(0, 'after 1000 rounds: 0.808')]

@pytest.mark.parametrize('path', NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_page_outputs_equal_committed_outputs(path):
    "The page shows the committed notebook's text outputs (the full run), not a re-execution's."
    page = SITE/f'{path.stem}.html'
    assert page.exists(), f'no page for {path.name}'
    text = norm(''.join(parse(page).parts))
    bad = missing_outputs(json.loads(path.read_text(encoding='utf-8')), text)
    assert not bad, f'{page.name}: committed outputs not on the page (cell, text): {bad[:5]}'

def _pages(): return sorted(SITE.glob('*.html'))

def test_internal_links_resolve():
    "Every relative link of every page leads to an existing file and, with an anchor, to an element with that id."
    ids, bad, n = {}, [], 0
    for f in _pages():
        for href in parse(f).hrefs:
            u = urlparse(href)
            if u.scheme or u.netloc or href.startswith(('mailto:', 'javascript:')): continue
            target = (f.parent/unquote(u.path)).resolve() if u.path else f
            if target.is_dir(): target = target/'index.html'
            n += 1
            if not target.exists(): bad.append(f'{f.name}: {href} (no file)'); continue
            if u.fragment and target.suffix == '.html':
                if target not in ids: ids[target] = parse(target).ids
                if unquote(u.fragment) not in ids[target]: bad.append(f'{f.name}: {href} (no id)')
    assert n > 100, f'only {n} internal links: is this the site?'
    assert not bad, f'{len(bad)} broken internal links:\n' + '\n'.join(bad[:40])

def test_every_page_links_home_api_and_index():
    for f in [SITE/f'{p.stem}.html' for p in NOTEBOOKS]:
        hrefs = {urlparse(h).path for h in parse(f).hrefs}
        for need in ('index.html', 'api_reference.html', 'genindex.html')[f.name == 'index.html':]:
            assert need in hrefs, f'{f.name} has no link to {need}'

def test_api_reference_lists_every_public_name():
    import shuffle_privacy as sp
    p = parse(SITE/'api_reference.html')
    text = norm(''.join(p.parts))
    missing = [n for n in sp.__all__ if n not in text]
    assert not missing, f'not on the API reference page: {missing}'
    linked = [h for h in p.hrefs if re.match(r'^\d+[a-z]*_\w+\.html#', h)]
    assert len(linked) >= 0.8*len(sp.__all__), f'only {len(linked)} of {len(sp.__all__)} names link to their docs'

def test_no_fastcore_test_imports_on_pages():
    bad = [f.name for f in _pages() if 'from fastcore.test import' in ''.join(parse(f).parts)]
    assert not bad, f'pages showing `from fastcore.test import`: {bad}'

def _summary(nb:dict)->str:
    "The `>` summary under the notebook's title, as plain words."
    md = next((''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'markdown'), '')
    lines = [l[1:].strip() for l in md.splitlines() if l.startswith('>')]
    return norm(re.sub(r'[`*_]|\[([^\]]*)\]\([^)]*\)', r'\1', ' '.join(lines)))

@pytest.mark.parametrize('path', NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_summary_shown_whole(path):
    summary = _summary(json.loads(path.read_text(encoding='utf-8')))
    if not summary: pytest.skip('no > summary')
    tail = ' '.join(w for w in summary.split() if '$' not in w and '\\' not in w)[-40:]
    quotes = parse(SITE/f'{path.stem}.html').quotes
    assert quotes and tail in re.sub(r'[`*_]', '', quotes[0]), f'summary cut: wanted ...{tail!r}, got {quotes[:1]}'
