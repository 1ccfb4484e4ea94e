#!/usr/bin/env python3
"""Store the notebooks' PNG figures as 256-colour palette PNGs: the same picture at about a quarter of the bytes.

Matplotlib draws a figure with a few dozen colours plus their anti-aliasing shades, and writes it as 32-bit RGBA.
Quantizing to an adaptive 256-colour palette (no dithering) leaves the picture visually unchanged (line plots,
bands, text) and cuts the committed figures from 2.6 MiB to about 0.7 MiB. A figure is replaced only if the palette
version is smaller; an image already in palette mode is left alone, so running this twice changes nothing.

`python3 dev.py run` and `python3 dev.py sync` apply it, and so does saving from `python3 dev.py lab`
(tools/jupyter_server_config.py); `python3 tools/slim_png.py [NOTEBOOK...]` does it by hand (default: every
notebook in nbs/), and `--check` exits 1 if a figure is not slim (tests/test_notebook_outputs.py runs the check).
"""
import base64, io, sys
from pathlib import Path

NBS = Path(__file__).resolve().parents[1]/'nbs'

def slim(b64:str)->str|None:
    "The base64 PNG `b64` as a palette PNG, or None if it is one already or quantizing would not shrink it."
    from PIL import Image                               # Pillow comes with matplotlib (the dev and docs extras)
    raw = base64.b64decode(b64)
    im = Image.open(io.BytesIO(raw))
    if im.mode == 'P': return None
    q = im.convert('RGBA').quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO(); q.save(out, format='PNG', optimize=True)
    if len(out.getvalue()) >= len(raw): return None
    return base64.b64encode(out.getvalue()).decode() + ('\n' if b64.endswith('\n') else '')

def slim_cells(cells)->int:
    "Slim every PNG output of these notebook cells in place; returns how many were replaced."
    n = 0
    for c in cells:
        for o in c.get('outputs', []):
            data = o.get('data', {})
            v = data.get('image/png')
            if v is None: continue
            s = slim(''.join(v) if isinstance(v, list) else v)
            if s is not None: data['image/png'] = s; n += 1
    return n

def slim_notebook(path:Path, check=False)->int:
    "Slim (or, with `check`, count without writing) the PNG outputs of one notebook file."
    from fastcore.nbio import read_nb, write_nb        # nbdev's reader and writer: the file stays nbdev-clean
    nb = read_nb(path)
    n = slim_cells(nb.cells)
    if n and not check: write_nb(nb, path)
    return n

def main(argv)->int:
    check = '--check' in argv
    paths = [Path(a) for a in argv if a != '--check'] or sorted(NBS.glob('*.ipynb'))
    stale = {p.name: n for p in paths if (n := slim_notebook(p, check))}
    for name, n in stale.items(): print(f'{name}: {n} figure(s) {"not slim" if check else "slimmed"}')
    return 1 if check and stale else 0

if __name__ == '__main__': sys.exit(main(sys.argv[1:]))
