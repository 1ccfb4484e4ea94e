#!/usr/bin/env python3
"""The README commands of shuffle_privacy: `python3 dev.py test`, `python3 dev.py docs` and `python3 dev.py lab`.

Each works by itself on a fresh machine with only Python >= 3.11 (pip and venv): it creates `.venv`
in the repository when it is missing, installs the pinned dependencies from `requirements-lock.txt`
(reinstalling when that file changes), installs the package in editable mode, and then does its job.
"""
import hashlib, os, subprocess, sys, venv
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

def env():
    "Environment for tools run from the venv."
    e = dict(os.environ)
    e['PATH'] = f"{BIN}{os.pathsep}{e.get('PATH', '')}"
    e['VIRTUAL_ENV'] = str(VENV)
    e.setdefault('MPLBACKEND', 'Agg')
    e.setdefault('PYTHONHASHSEED', '0')
    return e

def cmd_test(extra):
    "Run `nbdev-test` on every notebook, then pytest on `tests/`."
    ensure_venv()
    run(BIN/'nbdev-test', '--n-workers', str(min(os.cpu_count() or 1, 2)), '--do-print', env=env())
    workers = str(min(os.cpu_count() or 1, 4))      # pytest-xdist: the suite is CPU-bound and its tests independent
    r = subprocess.run([str(BIN/'python'), '-m', 'pytest', 'tests', '-q', '-n', workers, '-m', 'not browser and not slow',
                        *extra], cwd=ROOT, env=env())
    # pytest exits 5 when it collects no test: that is a failure for us too
    sys.exit(r.returncode)

def cmd_docs(extra):
    "Execute every notebook from scratch, render the documentation site, and print where to open it."
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

def cmd_run(extra):
    "Re-execute the named notebooks in place at full size (their committed outputs), then nbdev-clean them."
    ensure_venv()
    run(BIN/'python', ROOT/'tools'/'run_notebooks.py', *extra, env=env())

def cmd_lab(extra):
    "Open JupyterLab on the notebooks, from the same .venv (extra arguments go to `jupyter lab`)."
    ensure_venv()
    root = ['--allow-root'] if hasattr(os, 'geteuid') and os.geteuid() == 0 else []   # containers often run as root
    r = subprocess.run([str(BIN/'jupyter'), 'lab', '--notebook-dir', str(ROOT/'nbs'), *root, *extra], cwd=ROOT, env=env())
    sys.exit(r.returncode)

def main(argv):
    cmds = dict(test=cmd_test, docs=cmd_docs, lab=cmd_lab, venv=lambda extra: ensure_venv())
    cmds['bench'] = cmd_bench
    cmds['fuzz'] = cmd_fuzz
    cmds['run'] = cmd_run
    if len(argv) < 2 or argv[1] not in cmds:
        print(__doc__)
        print('usage: python3 dev.py {test|docs|lab|run|bench|fuzz|venv} [extra args]')
        return 2
    cmds[argv[1]](argv[2:])
    return 0

if __name__ == '__main__': sys.exit(main(sys.argv))
