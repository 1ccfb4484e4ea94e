"""Domains of `shuffle_privacy.experiments.blogs` (see tests/contract_spec.py); needs torch for the torch_* names."""
from hypothesis import strategies as st
from contract_spec import Domain, ints

M = 'shuffle_privacy.experiments.blogs.'
DOMAINS = {
    M + 'mlp_init': Domain(st.fixed_dictionaries(dict(rng=st.one_of(st.none(), ints(0, 2**31)))), kind='finite',
                           invalid=(dict(rng='seed'), dict(sizes=(64, 0, 10)))),
}
EXEMPT = {
    M + 'mlp_logits': 'part of the training loop of notebook 44; tested in tests/test_blogs_experiment.py',
    M + 'mlp_grads': 'part of the training loop; gradients checked by finite differences in tests/test_blogs_experiment.py',
    M + 'accuracy': 'part of the training loop of notebook 44',
    M + 'Adam': 'an optimiser class of the training loop',
    M + 'private_gradient': 'one step of the training loop (dispatch on method)',
    M + 'train': 'a training loop',
}
