"""The notebooks' kernel (the venv's python3) imports the package and ipywidgets; `python3 dev.py lab` (marker `lab`)
shows figures inline, saves notebooks clean, and runs notebook 40's live explorer (a slider redraws the figure).

Run the Lab tests with `.venv/bin/python -m pytest tests/test_lab.py -m lab` (the slider test needs /usr/bin/chromium)."""
import json, re
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]

def test_every_notebook_names_a_kernel():
    for nb in sorted((ROOT/'nbs').glob('*.ipynb')):
        spec = json.loads(nb.read_text())['metadata'].get('kernelspec', {})
        assert spec.get('name') == 'python3', nb.name

def test_kernel_imports_the_package_and_widgets():
    jc = pytest.importorskip('jupyter_client')
    km, kc = jc.manager.start_new_kernel(kernel_name='python3')
    try:
        msgs = []
        kc.execute_interactive('import shuffle_privacy as sp, ipywidgets; print(sp.RdpAccountant.__name__)',
                               output_hook=msgs.append, timeout=120)
        out = ''.join(m['content'].get('text', '') for m in msgs if m['msg_type'] == 'stream')
        assert 'RdpAccountant' in out
    finally:
        kc.stop_channels(); km.shutdown_kernel(now=True)

def test_missing_torch_names_the_extra(monkeypatch):
    import builtins, numpy as np
    from shuffle_privacy.mechanisms.blogs.torch import torch_clip_gradient
    real = builtins.__import__
    def no_torch(name, *a, **k):
        if name == 'torch' or name.startswith('torch.'): raise ImportError('No module named torch')
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, '__import__', no_torch)
    with pytest.raises(ImportError, match=r'shuffle_privacy\[torch\]'):
        torch_clip_gradient(np.zeros(3), 1.0)

# ---------------------------------------------------------------------------------------------------------------
# JupyterLab as the README starts it: `python3 dev.py lab` (marker `lab`; run by .ci/run)

import os, secrets, shutil, signal, socket, subprocess, sys, time, urllib.request, uuid

ROOT_DIR = ROOT
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')

def _free_port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def _get(url, token, method='GET', body=None):
    req = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={'Authorization': f'token {token}', 'Content-Type': 'application/json'})
    with urllib.request.urlopen(req, timeout=30) as r: return json.loads(r.read() or b'null')

@pytest.fixture(scope='module')
def lab(tmp_path_factory):
    "The README's `python3 dev.py lab`, on 127.0.0.1 with a token, no browser; yields (base url, token)."
    port, token = _free_port(), secrets.token_hex(16)
    settings = tmp_path_factory.mktemp('lab-settings')
    # every cell in the DOM (no windowing), so that the browser test can find cells by their text
    (settings/'@jupyterlab'/'notebook-extension').mkdir(parents=True)
    (settings/'@jupyterlab'/'notebook-extension'/'tracker.jupyterlab-settings').write_text('{"windowingMode": "none"}')
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(settings), MPLBACKEND='Agg')   # dev.py must drop an inherited Agg
    log = open(tmp_path_factory.mktemp('lab-log')/'lab.log', 'w+')
    proc = subprocess.Popen([shutil.which('python3') or sys.executable, 'dev.py', 'lab', '--no-browser', f'--port={port}',
                             f'--IdentityProvider.token={token}'], cwd=ROOT_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    base = f'http://127.0.0.1:{port}'
    try:
        for _ in range(240):
            if proc.poll() is not None: break
            try: _get(f'{base}/api/status', token); break
            except OSError: time.sleep(0.5)
        else: pass
        if proc.poll() is not None:
            log.seek(0); pytest.fail(f'python3 dev.py lab exited {proc.returncode}:\n{log.read()[-3000:]}')
        yield base, token
    finally:
        os.killpg(proc.pid, signal.SIGTERM)     # the server and its kernels: the group this fixture started
        try: proc.wait(20)
        except subprocess.TimeoutExpired: os.killpg(proc.pid, signal.SIGKILL)

def _execute(base, token, kernel_id, code, timeout=120):
    "Run `code` in the kernel over the server's websocket; return the outputs' data dicts (error -> AssertionError)."
    import websocket
    ws = websocket.create_connection(f"ws{base[4:]}/api/kernels/{kernel_id}/channels?token={token}", timeout=timeout)
    try:
        mid = uuid.uuid4().hex
        ws.send(json.dumps(dict(header=dict(msg_id=mid, username='test', session=uuid.uuid4().hex, msg_type='execute_request',
                                            version='5.3', date=''), parent_header={}, metadata={}, channel='shell', buffers=[],
                                content=dict(code=code, silent=False, store_history=True, user_expressions={},
                                             allow_stdin=False, stop_on_error=True))))
        datas, t0 = [], time.time()
        while time.time() - t0 < timeout:
            m = json.loads(ws.recv())
            if m.get('parent_header', {}).get('msg_id') != mid: continue
            kind = m['header']['msg_type']
            if kind in ('display_data', 'execute_result'): datas.append(m['content']['data'])
            if kind == 'error': raise AssertionError('\n'.join(m['content']['traceback']))
            if kind == 'status' and m['content']['execution_state'] == 'idle': return datas
        raise AssertionError(f'no reply in {timeout}s')
    finally: ws.close()

@pytest.mark.lab
def test_lab_kernel_draws_figures_inline(lab):
    "A kernel started in the README's lab shows a matplotlib figure as an image/png output (no forced Agg)."
    base, token = lab
    k = _get(f'{base}/api/kernels', token, 'POST', {'name': 'python3'})
    try:
        datas = _execute(base, token, k['id'], 'import matplotlib.pyplot as plt\nplt.plot([1, 2]); plt.show()')
        assert any('image/png' in d for d in datas), f'no image/png output: {[list(d) for d in datas]}'
        backend = _execute(base, token, k['id'], 'import matplotlib; matplotlib.get_backend()')
        assert 'inline' in str(backend), backend
    finally: _get(f"{base}/api/kernels/{k['id']}", token, 'DELETE')

@pytest.mark.lab
def test_lab_saves_notebooks_clean(lab):
    "Saving from Lab (the contents API, as Lab's save does) writes what nbdev-clean would: no dirty tree."
    base, token = lab
    name = f'_lab_save_check_{uuid.uuid4().hex[:8]}.ipynb'
    nb = dict(nbformat=4, nbformat_minor=5, metadata=dict(kernelspec=dict(name='python3', display_name='Python 3', language='python'),
                                                          language_info=dict(name='python', version='3.11.7')),
              cells=[dict(cell_type='code', id='abc', execution_count=7, source='1 + 1',
                          metadata=dict(ExecuteTime={'end_time': '2024-01-01'}, scrolled=True),
                          outputs=[dict(output_type='execute_result', execution_count=7, metadata={}, data={'text/plain': '2'})])])
    path = ROOT_DIR/'nbs'/name
    try:
        _get(f'{base}/api/contents/{name}', token, 'PUT', dict(type='notebook', format='json', content=nb))
        saved = path.read_text(encoding='utf-8')
        cell = json.loads(saved)['cells'][0]
        assert cell['execution_count'] is None and 'ExecuteTime' not in cell['metadata'], saved
        subprocess.run([str(ROOT_DIR/'.venv'/'bin'/'nbdev-clean'), '--fname', str(path)], cwd=ROOT_DIR, check=True)
        assert path.read_text(encoding='utf-8') == saved, 'nbdev-clean changed a notebook saved from Lab'
    finally: path.unlink(missing_ok=True)

@pytest.mark.lab
def test_lab_explorer_slider_redraws(lab, tmp_path):
    "Notebook 40's explorer, run in Lab in headless Chromium: moving one slider redraws the figure."
    if not Path(CHROMIUM).exists(): pytest.skip(f'{CHROMIUM} missing: apt-get install -y chromium')
    nb = next(iter(sorted((ROOT_DIR/'nbs').glob('*_iteration_figures.ipynb'))), None)
    assert nb is not None, 'no *_iteration_figures notebook'
    base, token = lab
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'])
        page = b.new_page(viewport=dict(width=1400, height=1000))
        try:
            page.goto(f'{base}/lab/tree/{nb.name}?token={token}', wait_until='domcontentloaded', timeout=120_000)
            page.wait_for_selector('.jp-Notebook .jp-CodeCell', timeout=120_000)
            page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]', timeout=120_000)
            page.wait_for_function('() => [...document.querySelectorAll(".jp-CodeCell .cm-content")]'
                                   '.some(e => /^\\s*iteration_explorer\\(\\)/m.test(e.innerText))', timeout=120_000)
            cells = page.locator('.jp-Notebook .jp-CodeCell')
            texts = [cells.nth(i).locator('.cm-content').inner_text() for i in range(cells.count())]
            todo = [i for i, t in enumerate(texts) if t.lstrip().startswith('#| export')]
            explorer = [i for i, t in enumerate(texts) if re.search(r'^\s*iteration_explorer\(\)', t, re.M)]
            assert explorer, 'no `iteration_explorer()` cell'
            def run(i):
                "Execute cell i and wait until its prompt shows an execution count (not the idle indicator alone)."
                cells.nth(i).locator('.jp-InputPrompt').click()
                page.keyboard.press('Control+Enter')
                page.wait_for_function('el => /\\[\\d+\\]/.test(el.innerText)',
                                       arg=cells.nth(i).locator('.jp-InputPrompt').element_handle(), timeout=120_000)
            for i in todo + explorer[:1]: run(i)    # the exported definitions (cheap), then the explorer cell
            out = cells.nth(explorer[0]).locator('.jp-Cell-outputArea').first
            img = out.locator('img').first
            try: img.wait_for(timeout=60_000)
            except Exception:                    # a keystroke lost to a busy page: run the explorer once more
                run(explorer[0]); img.wait_for(timeout=120_000)
            before = img.get_attribute('src')
            page.screenshot(path=str(tmp_path/'explorer_before.png'))
            handle = out.locator('.widget-slider .noUi-handle').first
            handle.focus()
            for _ in range(5): page.keyboard.press('ArrowRight')
            page.wait_for_function('([el, s]) => el.querySelector("img") && el.querySelector("img").src !== s',
                                   arg=[out.element_handle(), before], timeout=60_000)
            page.screenshot(path=str(tmp_path/'explorer_after.png'))
        except Exception:
            page.screenshot(path=str(tmp_path/'failure.png')); raise
        finally: b.close()
