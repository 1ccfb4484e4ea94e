# Jupyter server configuration passed by `python3 dev.py lab` (`--config`): saving a notebook from JupyterLab runs
# nbdev's own pre-save hook, `nbdev.clean.clean_jupyter` (what `nbdev-install-hooks` installs user-wide), so the
# saved file is already what `nbdev-clean` would write (pyproject.toml sets `jupyter_hooks = true`).
import os

def nbdev_clean_jupyter(model, path, contents_manager=None, **kwargs):
    try: from nbdev.clean import clean_jupyter
    except ModuleNotFoundError: return
    root = getattr(contents_manager, 'root_dir', '') or ''
    clean_jupyter(path=os.path.join(root, path), model=model, **kwargs)

c.ContentsManager.pre_save_hook = nbdev_clean_jupyter  # noqa: F821 (`c` is the config object Jupyter provides)
c.ServerApp.ip = '127.0.0.1'                            # noqa: F821 this machine only, unless --ip says otherwise
