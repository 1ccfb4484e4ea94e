#!/usr/bin/env python3
"""The developer commands of shuffle_privacy: `python3 dev.py COMMAND [extra args]`.

  test    nbdev-test on every notebook (each executed once, at test size) beside pytest on tests/
  docs    the documentation site in _build/site/ from the committed notebooks (nothing executed; seconds)
  lab     JupyterLab on nbs/ (figures inline; saving a notebook cleans it as nbdev-clean would)
  run     re-execute the named notebooks at full size in place, then clean them: `python3 dev.py run 13 41_table1`
  sync    after editing notebooks: export the package, clean the notebooks, regenerate the notebook table, the
          sidebar and README.md (everything that follows from the notebooks)
  bench   the benchmarks against their baselines (benchmarks/RESULTS.md)
  fuzz    every public function over its declared domain (nbs/fuzz_stats.json)
  venv    only create or update .venv

Each works by itself on a fresh machine with only Python >= 3.11 (pip and venv): it creates `.venv` in the
repository when it is missing, installs the pinned dependencies from `requirements-lock.txt` (reinstalling when that
file or pyproject.toml changes), installs the package in editable mode, and then does its job.
"""
import hashlib, os, subprocess, sys, time, venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT/'.venv'
BIN = VENV/'bin'
LOCK = ROOT/'requirements-lock.txt'
STAMP = VENV/'.lock-sha256'

def run(*args, **kw):
    "Run a command from the repository root, echoing it; exit with its code on failure."
    print('+', ' '.join(map(str, args)), flush=True)
    r = subprocess.run([str(a) for a in args], cwd=kw.pop('cwd', ROOT), **kw)
    if r.returncode: sys.exit(r.returncode)
    return r

def _lock_hash():
    h = hashlib.sha256(LOCK.read_bytes())
    h.update((ROOT/'pyproject.toml').read_bytes())
    return h.hexdigest()

def ensure_venv():
    "Create `.venv` if missing and install the pinned dependencies when the lock file changed."
    if not (BIN/'python').exists():
        print(f'creating {VENV}', flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    if STAMP.exists() and STAMP.read_text() == _lock_hash(): return
    pip = [BIN/'python', '-m', 'pip', '--disable-pip-version-check']
    run(*pip, 'install', '-q', '--upgrade', 'pip')
    run(*pip, 'install', '-q', '-r', LOCK)
    run(*pip, 'install', '-q', '--no-deps', '-e', ROOT)
    STAMP.write_text(_lock_hash())

def env(headless:bool=True):
    """Environment for tools run from the venv. Headless runs (tests, docs, benchmarks) draw with matplotlib's Agg;
    `lab` and `run` leave the backend to the kernel (inline figures). The venv's kernels come first on JUPYTER_PATH,
    so that a user-level `python3` kernelspec cannot shadow the venv's."""
    e = dict(os.environ)
    e['PATH'] = f"{BIN}{os.pathsep}{e.get('PATH', '')}"
    e['VIRTUAL_ENV'] = str(VENV)
    e['JUPYTER_PATH'] = os.pathsep.join(p for p in (str(VENV/'share'/'jupyter'), e.get('JUPYTER_PATH')) if p)
    e.setdefault('PYTHONHASHSEED', '0')
    if headless: e.setdefault('MPLBACKEND', 'Agg')
    else:
        if e.get('MPLBACKEND', '').lower() == 'agg': del e['MPLBACKEND']   # inherited from a headless shell
        e.pop('IN_TEST', None)
    return e

def cmd_test(extra):
    """Run `nbdev-test` on every notebook and pytest on `tests/`, side by side: both are CPU-bound, and running them
    together keeps both cores busy through each one's slow tail. nbdev-test's log is printed when pytest ends."""
    ensure_venv()
    workers = str(min(os.cpu_count() or 1, 2))
    # four CPU-bound processes share the cores: BLAS threads beyond one per process only spin (20% more CPU time)
    e = env()
    for k in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'): e.setdefault(k, '1')
    log = open(ROOT/'.nbdev-test.log', 'w+')
    print('+ nbdev-test (in the background; its log follows pytest\'s)', flush=True)
    nb = subprocess.Popen([str(BIN/'nbdev-test'), '--n-workers', workers, '--do-print', '--timing'], cwd=ROOT,
                          env=e, stdout=log, stderr=subprocess.STDOUT)
    t = time.time()
    r = subprocess.run([str(BIN/'python'), '-m', 'pytest', 'tests', '-q', '-n', workers,
                        '-m', 'not browser and not site and not lab and not slow', '--durations=15', *extra], cwd=ROOT, env=e)
    print(f'pytest: {time.time()-t:.0f}s; waiting for nbdev-test...', flush=True)
    code = nb.wait()
    log.seek(0); print(log.read(), flush=True); log.close()
    print(f'nbdev-test: {"passed" if code == 0 else "FAILED"}; both done in {time.time()-t:.0f}s', flush=True)
    # pytest exits 5 when it collects no test: that is a failure for us too
    sys.exit(r.returncode or code)

def cmd_docs(extra):
    "Render the documentation site from the committed notebooks (no execution), and print where to open it."
    ensure_venv()
    run(BIN/'python', ROOT/'tools'/'build_docs.py', *extra, env=env())

def cmd_bench(extra):
    "Run benchmarks/bench_*.py (or the named ones); write benchmarks/RESULTS.md, results.json, ratios.png."
    ensure_venv()
    run(BIN/'python', ROOT/'benchmarks'/'harness.py', *extra, env=env())

def cmd_fuzz(extra):
    "Fuzz every public function over its declared domain; write nbs/fuzz_stats.json (shown by nbs/08_contract)."
    ensure_venv()
    run(BIN/'python', ROOT/'tools'/'fuzz_stats.py', *extra, env=env())

def cmd_sync(extra):
    "Export, clean, slim the figures, and regenerate what follows from the notebooks: table, sidebar, README."
    ensure_venv()
    run(BIN/'nbdev-export', env=env()); run(BIN/'nbdev-clean', env=env())
    for tool in ('slim_png.py', 'sync_index.py', 'site_nav.py'): run(BIN/'python', ROOT/'tools'/tool, env=env())
    run(BIN/'python', ROOT/'tools'/'build_docs.py', '--readme-only', env=env())

def cmd_lab(extra):
    """Open JupyterLab on the notebooks, from the same .venv (extra arguments go to `jupyter lab`). The server listens
    on 127.0.0.1 and saves notebooks through nbdev's pre-save hook (tools/jupyter_server_config.py)."""
    ensure_venv()
    root = ['--allow-root'] if hasattr(os, 'geteuid') and os.geteuid() == 0 else []   # containers often run as root
    r = subprocess.run([str(BIN/'jupyter'), 'lab', '--notebook-dir', str(ROOT/'nbs'),
                        f"--config={ROOT/'tools'/'jupyter_server_config.py'}", *root, *extra],
                       cwd=ROOT, env=env(headless=False))
    sys.exit(r.returncode)

def _notebook(name:str)->Path:
    "`13`, `13_shuffle_gaussian_pld`, `nbs/13_shuffle_gaussian_pld.ipynb` -> the notebook's path."
    p = Path(name)
    if p.suffix == '.ipynb' and (ROOT/p).exists(): return ROOT/p
    hits = [q for q in sorted((ROOT/'nbs').glob('*.ipynb')) if q.stem == p.stem or q.stem.split('_')[0] == p.stem]
    if len(hits) != 1: sys.exit(f'dev.py run: {name!r} names {len(hits)} notebooks in nbs/')
    return hits[0]

def cmd_run(extra):
    """Re-execute notebooks at full size (no IN_TEST, inline figures) in place, then clean them with nbdev-clean:
    the outputs the site shows are these. `python3 dev.py run 13 41_table1`."""
    ensure_venv()
    if not extra: sys.exit('usage: python3 dev.py run NOTEBOOK [NOTEBOOK...]  (a number, a stem or a path)')
    for p in map(_notebook, extra):
        t = time.time()
        print(f'running {p.name} at full size...', flush=True)
        run(BIN/'jupyter', 'nbconvert', '--to', 'notebook', '--execute', '--inplace',
            '--ExecutePreprocessor.timeout=-1', '--ExecutePreprocessor.kernel_name=python3', p,
            cwd=ROOT/'nbs', env={**env(headless=False), 'SHUFFLE_PRIVACY_PROGRESS': '0'})   # no progress in outputs
        run(BIN/'nbdev-clean', '--fname', p, env=env())
        run(BIN/'python', ROOT/'tools'/'slim_png.py', p, env=env())     # figures as palette PNGs (a quarter the bytes)
        print(f'{p.name}: executed and cleaned in {time.time()-t:.0f}s', flush=True)

def main(argv):
    cmds = dict(test=cmd_test, docs=cmd_docs, lab=cmd_lab, run=cmd_run, sync=cmd_sync, bench=cmd_bench, fuzz=cmd_fuzz,
                venv=lambda extra: ensure_venv())
    if len(argv) < 2 or argv[1] not in cmds:
        print(__doc__)
        print(f"usage: python3 dev.py {{{'|'.join(cmds)}}} [extra args]")
        return 2
    cmds[argv[1]](argv[2:])
    return 0

if __name__ == '__main__': sys.exit(main(sys.argv))
