"""Domains of the Laplace blanket functions of `shuffle_privacy.mechanisms.shuffled_ldp.randomizers`."""
from hypothesis import strategies as st
from contract_spec import Domain, log_uniform, ints, pair_ok

M = 'shuffle_privacy.mechanisms.shuffled_ldp.randomizers.'

def _lap_pair_ok(pair, kw):
    "A PldPair in range; its lower end bounds the profile only."
    pair_ok(pair, kw)
    assert pair.lower_certified is False

DOMAINS = {
    M + 'laplace_blanket_delta': Domain(st.fixed_dictionaries(dict(
        epsilon=log_uniform(1e-6, 20.0), n=ints(1, 10**5), local_epsilon=log_uniform(1e-3, 10.0),
        lattice=ints(16, 512))),
        kind='delta', max_examples=12, quick=3,
        invalid=(dict(epsilon=-1.0, n=10, local_epsilon=1.0), dict(epsilon=0.1, n=0, local_epsilon=1.0),
                 dict(epsilon=0.1, n=10, local_epsilon=0.0), dict(epsilon=0.1, n=10, local_epsilon=10.5),
                 dict(epsilon=0.1, n=10, local_epsilon=1.0, lattice=8),
                 dict(epsilon=0.1, n=10, local_epsilon=1.0, lattice=10**5))),
    M + 'laplace_blanket_pair_pld': Domain(st.fixed_dictionaries(dict(
        n=ints(1, 3*10**4), local_epsilon=log_uniform(1e-2, 10.0), value_discretization_interval=log_uniform(1e-4, 1e-2))),
        kind='object', check=_lap_pair_ok, max_examples=6, quick=1,
        invalid=(dict(n=0, local_epsilon=1.0), dict(n=10, local_epsilon=10.5), dict(n=10, local_epsilon=-1.0),
                 dict(n=10, local_epsilon=1.0, value_discretization_interval=2.0))),
}
