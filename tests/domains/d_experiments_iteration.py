"""Domains of `shuffle_privacy.experiments.iteration` (see tests/contract_spec.py): plotting only."""
M = 'shuffle_privacy.experiments.iteration.'
DOMAINS = {}
EXEMPT = {
    M + 'plot_iteration_explorer': 'draws one figure (no numeric answer); the accountants it calls are declared',
    M + 'iteration_explorer': 'an ipywidgets explorer around plot_iteration_explorer (no numeric answer)',
}
