"""Public functions whose domain is not declared yet (issue 12, in progress).

Each entry is a debt: move it to its module's `d_<module>.py` with a real `Domain` and delete it here.
`tests/test_contract.py::test_pending_list_only_shrinks` keeps this list from growing."""

PENDING = [
]

EXEMPT = {name: 'domain not yet declared (issue 12, in progress)' for name in PENDING}
