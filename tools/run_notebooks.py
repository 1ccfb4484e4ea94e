#!/usr/bin/env python3
"""Execute notebooks in place at full size (as the site shows them), then clean them: `python3 dev.py run NB...`.

Each notebook runs from scratch in a fresh kernel with `nbs/` as its working directory and matplotlib's inline
backend, so its committed outputs are those of the full run; `#| slow` cells run too. Progress bars are silenced
(`SHUFFLE_PRIVACY_PROGRESS=0`). Afterwards `nbdev-clean` normalises the files. An error names the notebook and cell.
"""
import os, subprocess, sys, time
from pathlib import Path
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT/'nbs'

def resolve(name:str)->Path:
    "A notebook from a path, a file name or a stem (`26_blogs_repaired`)."
    p = Path(name)
    for c in (p, NBS/p.name, NBS/f'{p.name}.ipynb'):
        if c.suffix == '.ipynb' and c.exists(): return c.resolve()
    raise SystemExit(f'no notebook {name!r} in {NBS}')

def run(p:Path, timeout:int=1200):
    "Execute one notebook in place; raise SystemExit naming the failing cell."
    nb = nbformat.read(p, as_version=4)
    os.environ.update(MPLBACKEND='module://matplotlib_inline.backend_inline', SHUFFLE_PRIVACY_PROGRESS='0')
    os.environ.pop('IN_TEST', None)
    t = time.time()
    try: NotebookClient(nb, timeout=timeout, kernel_name='python3', resources={'metadata': {'path': str(NBS)}}).execute()
    except CellExecutionError as e: raise SystemExit(f'{p.name}: {str(e)[:2000]}')
    nbformat.write(nb, p)
    print(f'{p.name}: {time.time() - t:.0f} s', flush=True)

if __name__ == '__main__':
    names = sys.argv[1:]
    if not names: raise SystemExit(__doc__)
    for p in map(resolve, names): run(p)
    subprocess.run([str(Path(sys.executable).parent/'nbdev-clean')], cwd=ROOT, check=True)
