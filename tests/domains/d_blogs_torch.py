"""Domains of `shuffle_privacy.mechanisms.blogs.torch` (see tests/contract_spec.py)."""
M = 'shuffle_privacy.mechanisms.blogs.torch.'
DOMAINS = {}
EXEMPT = {
    M + 'torch_block_shuffle': 'torch tensor version of block_shuffle (declared there); tested in tests/test_blogs_experiment.py',
    M + 'torch_clip_gradient': 'torch tensor version of clip_gradient (declared there); tested in tests/test_blogs_experiment.py',
}
