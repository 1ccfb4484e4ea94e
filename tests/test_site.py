"""Browser test of the offline documentation site (`python3 dev.py docs` builds it into `_build/site/`).

Opens every page in headless Chromium (Debian's `/usr/bin/chromium`, driven by Playwright) from a local http
server and checks: no console errors, MathJax typeset the math on the theory pages, every image loaded, every
sidebar link resolves. Saves screenshots of the home page and of a theory page into `_build/site/_screenshots/`.

Run with `.venv/bin/python -m pytest tests/test_site.py -m browser`. Without a built site the test skips, unless
the environment sets CI or REQUIRE_SITE, in which case it fails.
"""
import functools, http.server, os, shutil, threading, urllib.error, urllib.request
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT/'_build'/'site'
SHOTS = SITE/'_screenshots'
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--disable-dev-shm-usage']

def _require():
    if (SITE/'index.html').exists(): return
    msg = f'documentation site not built ({SITE}/index.html missing): run `python3 dev.py docs` first'
    if os.environ.get('CI') or os.environ.get('REQUIRE_SITE'): pytest.fail(msg)
    pytest.skip(msg)

class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass

@pytest.fixture(scope='module')
def server():
    _require()
    httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(_Quiet, directory=str(SITE)))
    th = threading.Thread(target=httpd.serve_forever, daemon=True)
    th.start()
    yield f'http://127.0.0.1:{httpd.server_address[1]}/'
    httpd.shutdown(); httpd.server_close()

@pytest.fixture(scope='module')
def browser():
    _require()
    if not Path(CHROMIUM).exists():
        msg = f'{CHROMIUM} missing: apt-get install -y chromium'
        if os.environ.get('CI') or os.environ.get('REQUIRE_SITE'): pytest.fail(msg)
        pytest.skip(msg)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()

def _open(browser, url, **kw):
    "Load `url` in a fresh page; return (page, console errors, failed requests)."
    page = browser.new_page(viewport=dict(width=1280, height=900), **kw)
    errors, failed = [], []
    page.on('console', lambda m: errors.append(f'{m.type}: {m.text}') if m.type == 'error' else None)
    page.on('pageerror', lambda e: errors.append(f'pageerror: {e}'))
    page.on('requestfailed', lambda r: failed.append(f'{r.url} ({r.failure})'))
    # offline means offline: every request goes to the local server (or is a data:/blob: URL)
    page.on('request', lambda r: failed.append(f'network request off the site: {r.url}')
            if urlparse(r.url).scheme in ('http', 'https') and urlparse(r.url).hostname != '127.0.0.1' else None)
    resp = page.goto(url, wait_until='load')
    assert resp is not None and resp.status == 200, f'{url}: HTTP {resp and resp.status}'
    return page, errors, failed

def _wait_mathjax(page):
    "Wait until MathJax (if the page loads it) has finished its initial typesetting."
    if not page.locator('script[src*="mathjax"]').count(): return
    page.wait_for_function('() => window.MathJax && window.MathJax.startup && window.MathJax.startup.promise', timeout=20_000)
    page.evaluate('async () => { await window.MathJax.startup.promise; }')

def _sidebar_links(page):
    return page.eval_on_selector_all('.sidebar-tree a.reference', 'els => els.map(e => e.href)')

@pytest.fixture(scope='module')
def pages(server, browser):
    "Every page reachable from the sidebar of the home page (the home page first)."
    page, _, _ = _open(browser, server)
    links = _sidebar_links(page)
    page.close()
    urls = [server] + [u.split('#')[0] for u in links]
    return list(dict.fromkeys(urls))

def test_sidebar_lists_every_notebook(pages, server):
    stems = sorted(p.stem for p in (ROOT/'nbs').glob('*.ipynb') if p.stem != 'index' and not p.name.startswith(('_', '.')))
    linked = {Path(urlparse(u).path).stem for u in pages}
    missing = [s for s in stems if s not in linked]
    assert not missing, f'notebooks missing from the sidebar: {missing}'
    assert len(pages) >= len(stems) + 1

def test_sidebar_links_resolve(pages):
    for u in pages:
        with urllib.request.urlopen(u) as r: assert r.status == 200, u

def _math_problems(page):
    "Math nodes MathJax left untypeset, and MathJax's own error nodes."
    raw = page.eval_on_selector_all('.math', 'els => els.filter(e => !e.querySelector("mjx-container")).length')
    return raw, page.locator('mjx-merror').count()

@pytest.fixture(scope='module')
def reports(pages, browser):
    "Visit every sidebar page once: console errors and failed or off-site requests, untypeset math, broken images."
    res = {}
    for u in pages:
        page, errors, failed = _open(browser, u)
        _wait_mathjax(page)
        page.wait_for_load_state('networkidle')
        raw, merr = _math_problems(page)
        if raw: errors.append(f'{raw} math elements left untypeset')
        if merr: errors.append(f'{merr} MathJax errors')
        imgs = page.eval_on_selector_all('img', 'els => els.filter(e => !(e.complete && e.naturalWidth > 0)).map(e => e.src)')
        n_img = page.locator('img').count()
        res[u] = dict(errors=errors + failed, broken_images=imgs, n_images=n_img, n_math=page.locator('mjx-container').count())
        page.close()
    return res

def test_pages_load_without_console_errors(reports):
    "Every sidebar page loads with no console error and no failed request; wherever there is math, it is typeset."
    problems = {u: r['errors'] for u, r in reports.items() if r['errors']}
    assert not problems, f'console errors or failed requests: {problems}'

def test_images_load(reports):
    broken = {u: r['broken_images'] for u, r in reports.items() if r['broken_images']}
    assert not broken, f'images that did not load: {broken}'
    assert sum(r['n_images'] for r in reports.values()) > 0, 'no figure anywhere on the site'

def _theory_stems():
    "Notebooks whose markdown has LaTeX (`$...$`): their pages must show typeset math."
    import json
    res = []
    for p in sorted((ROOT/'nbs').glob('*.ipynb')):
        if p.name.startswith(('_', '.')): continue
        cells = json.loads(p.read_text(encoding='utf-8'))['cells']
        if any(c['cell_type'] == 'markdown' and '$' in ''.join(c['source']) for c in cells): res.append(p.stem)
    return res

def test_math_is_typeset_on_theory_pages(reports):
    theory = _theory_stems()
    assert 'index' in theory and '00_core' in theory     # both carry LaTeX
    by_stem = {}
    for u, r in reports.items():
        stem = Path(urlparse(u).path).stem or 'index'
        by_stem[stem] = max(by_stem.get(stem, 0), r['n_math'])
    missing = [s for s in theory if by_stem.get(s, 0) == 0]
    assert not missing, f'pages with LaTeX in their notebook but no MathJax output (mjx-container): {missing}'

def test_api_docs_present(server, browser):
    "show_doc output: a signature block and the docstring for an exported function."
    page, _, _ = _open(browser, urljoin(server, '00_core.html'))
    assert page.locator('#check_real').count() == 1
    txt = page.inner_text('article')
    page.close()
    assert 'def check_real(' in txt and 'naming' in txt

def test_search_works_offline(server, browser):
    page, errors, _ = _open(browser, urljoin(server, 'search.html?q=logsumexp'))
    page.wait_for_selector('#search-results li', timeout=20_000)
    hits = page.eval_on_selector_all('#search-results li a', 'els => els.map(e => e.href)')
    page.close()
    assert any('00_core' in h for h in hits), hits
    assert not errors, errors

def test_screenshots(server, browser):
    SHOTS.mkdir(exist_ok=True)
    for name, path in [('home', ''), ('core', '00_core.html')]:
        page, _, _ = _open(browser, urljoin(server, path))
        _wait_mathjax(page)
        page.wait_for_timeout(300)
        out = SHOTS/f'{name}.png'
        page.screenshot(path=str(out), full_page=False)
        if name == 'core':   # a second shot further down, where the figure is
            img = page.locator('article img').first
            if img.count():
                img.scroll_into_view_if_needed()
                page.wait_for_timeout(200)
                page.screenshot(path=str(SHOTS/'core_figure.png'))
        page.close()
        assert out.stat().st_size > 10_000, f'{out} looks empty'

# code blocks, outputs and tables; an element that overflows counts once (a table inside its scrolling wrapper too)
_BLOCKS_JS = """() => {
  const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  const els = [...document.querySelectorAll('article pre, article table')]
      .filter(e => !e.closest('.toctree-wrapper') && e.offsetParent !== null);
  return els.map(e => {
    const box = scrolls(e) ? e : (scrolls(e.parentElement) ? e.parentElement : e);
    return {over: box.scrollWidth > box.clientWidth + 1, scroll: scrolls(box), tag: e.tagName,
            text: e.innerText.slice(0, 60)};
  });
}"""

@pytest.fixture(scope='module')
def blocks_at_1400(pages, browser):
    "For every sidebar page at a 1400 px wide window: each block's overflow and whether it scrolls."
    res = {}
    for u in pages:
        page = browser.new_page(viewport=dict(width=1400, height=900))
        page.goto(u, wait_until='load')
        res[u] = page.evaluate(_BLOCKS_JS)
        page.close()
    return res

def test_no_block_is_clipped(blocks_at_1400):
    "Every code block, output or table wider than its box scrolls sideways: none clips text without a scrollbar."
    cut = {u: [b['text'] for b in bs if b['over'] and not b['scroll']] for u, bs in blocks_at_1400.items()}
    cut = {u: v for u, v in cut.items() if v}
    assert not cut, f'blocks cut off without a scrollbar: {cut}'

def test_at_most_a_tenth_of_blocks_scroll_at_1400px(blocks_at_1400):
    "At 1400 px the content column uses the width: at most 10% of code blocks, outputs and tables need sideways scroll."
    n = sum(len(bs) for bs in blocks_at_1400.values())
    over = {u: sum(b['over'] for b in bs) for u, bs in blocks_at_1400.items()}
    assert n > 200, f'only {n} blocks on the site'
    frac = sum(over.values())/n
    worst = sorted(((v, Path(urlparse(u).path).name) for u, v in over.items() if v), reverse=True)[:8]
    assert frac <= 0.10, f'{frac:.1%} of {n} blocks scroll sideways at 1400 px; most on: {worst}'

def test_content_column_uses_wide_screens(server, browser):
    page = browser.new_page(viewport=dict(width=1400, height=900))
    page.goto(urljoin(server, '00_core.html'), wait_until='load')
    w = page.evaluate('() => document.querySelector("article").getBoundingClientRect().width')
    page.close()
    assert w >= 850, f'the content column is {w:.0f} px wide at 1400 px'

def test_signatures_show_their_parameter_comments(server, browser):
    "show_doc signatures wrap rather than cut their parameter comments at the right edge."
    page = browser.new_page(viewport=dict(width=1400, height=900))
    page.goto(urljoin(server, '00_core.html'), wait_until='load')
    res = page.evaluate("""() => [...document.querySelectorAll('article section > div.highlight-python pre')]
        .map(e => e.scrollWidth <= e.clientWidth + 1)""")
    page.close()
    assert res and all(res), f'{res.count(False)} of {len(res)} signatures overflow'

def test_general_index_lists_the_api(server, browser):
    "genindex is filled from the exported functions (one index entry per show_doc)."
    page, _, _ = _open(browser, urljoin(server, 'genindex.html'))
    txt = page.inner_text('article')
    page.close()
    assert 'check_real' in txt and 'logsumexp' in txt, txt[:500]

def test_explorer_page_shows_a_static_figure(server, browser):
    "The widget explorer (notebook 40) shows a figure on the static site, not only the widget's text fallback."
    page, _, _ = _open(browser, urljoin(server, '40_iteration_figures.html'))
    page.wait_for_load_state('networkidle')
    n = page.eval_on_selector_all('article img', 'els => els.filter(e => e.complete && e.naturalWidth > 0).length')
    page.close()
    assert n > 0, '40_iteration_figures.html has no loaded figure'

def test_no_blemish_in_rendered_pages():
    "The rendered pages carry no `__main__.` in signatures, no numpy reprs and no temporary paths (issue 13 item 3)."
    _require()
    import re
    bad = {}
    for f in sorted(SITE.glob('*.html')):
        txt = re.sub(r'<[^>]+>', '', f.read_text(encoding='utf-8', errors='replace'))   # the text, as the reader sees it
        hits = [m.group(0) for m in re.finditer(r'__main__\.\w+|np\.float64\(|/tmp/[\w./-]+', txt)]
        if hits: bad[f.name] = sorted(set(hits))[:5]
    assert not bad, f'blemishes on rendered pages: {bad}'
