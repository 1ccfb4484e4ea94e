"""Issue 13 item 1: the notebooks' kernel (the venv's python3) imports the package and ipywidgets."""
import json
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
