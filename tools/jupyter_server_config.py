# Jupyter server configuration passed by `python3 dev.py lab` (`--config`): saving a notebook from JupyterLab runs
# nbdev's own pre-save hook, `nbdev.clean.clean_jupyter` (what `nbdev-install-hooks` installs user-wide), so the
# saved file is already what `nbdev-clean` would write (pyproject.toml sets `jupyter_hooks = true`); then its figures
# are stored as palette PNGs (tools/slim_png.py), as `dev.py run` stores them.
import os

import importlib.util
_spec = importlib.util.spec_from_file_location('slim_png', os.path.join(os.path.dirname(__file__), 'slim_png.py'))
slim_png = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(slim_png)

def nbdev_clean_jupyter(model, path, contents_manager=None, **kwargs):
    try: from nbdev.clean import clean_jupyter
    except ModuleNotFoundError: return
    root = getattr(contents_manager, 'root_dir', '') or ''
    clean_jupyter(path=os.path.join(root, path), model=model, **kwargs)
    if model.get('type') == 'notebook' and model.get('content'):   # figures as palette PNGs, as `dev.py run` does
        slim_png.slim_cells(model['content'].get('cells', []))

c.ContentsManager.pre_save_hook = nbdev_clean_jupyter  # noqa: F821 (`c` is the config object Jupyter provides)
c.ServerApp.ip = '127.0.0.1'                            # noqa: F821 this machine only, unless --ip says otherwise
