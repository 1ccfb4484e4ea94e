"""Issue 11 item 6: the exact PLD of P1D, against the exact profile and against composition computed directly."""
import math
import pytest
import shuffle_privacy as sp
from shuffle_privacy.mechanisms.summation.exact import P1DEvent, PVECEvent, p1d_pld, p1d_exact_delta
from shuffle_privacy.accounting.pld import PldAccountant, pld_of

@pytest.mark.parametrize('m,p,g', [(200, 0.5, 3), pytest.param(1000, 0.3, 10, marks=pytest.mark.slow),
                                   pytest.param(5000, 0.5, 40, marks=pytest.mark.slow)])
def test_interval_contains_exact_profile(m, p, g):
    pair = p1d_pld(m, p, g=g, value_discretization_interval=1e-4)
    for e in (0.0, 0.1, 0.5, 1.5):
        ex = p1d_exact_delta(e, m=m, p=p, g=g)
        lo, up = pair.delta_bounds(e)
        assert lo <= ex*(1 + 1e-9) + 1e-15 and ex <= up*(1 + 1e-9) + 1e-15

@pytest.mark.parametrize('m,p,g', [(300, 0.5, 4), pytest.param(200, 0.4, 6, marks=pytest.mark.slow)])
def test_two_rounds_against_enumeration(m, p, g):
    "Two rounds: δ = max over the shift's sign of Σ_{z1,z2} (P(z1)P(z2) - e^ε P(z1∓g)P(z2∓g))_+, enumerated exactly."
    import numpy as np
    from scipy import stats
    z = np.arange(-g, m + g + 1)
    P = stats.binom.pmf(z, m, p)
    pair = p1d_pld(m, p, g=g, value_discretization_interval=1e-4).self_compose(2)
    for e in (0.2, 1.0):
        ex = 0.0
        for sh in (g, -g):
            Q = stats.binom.pmf(z - sh, m, p)
            ex = max(ex, float(np.maximum(np.outer(P, P) - math.exp(e)*np.outer(Q, Q), 0).sum()))
        lo, up = pair.delta_bounds(e)
        assert lo <= ex*(1 + 1e-9) + 1e-14 and ex <= up*(1 + 1e-9) + 1e-14
        assert ex >= p1d_exact_delta(e, m=2*m, p=p, g=2*g)*(1 - 1e-9)    # the summed counts are a post-processing

def test_pvec_is_composition_of_coordinates():
    a = PldAccountant().compose(PVECEvent(num_users=100, coordinates=5, g=10, b=20, p=0.5)).get_epsilon(1e-6)
    b = PldAccountant().compose(P1DEvent(num_users=100, g=10, b=20, p=0.5), 5).get_epsilon(1e-6)
    assert a == pytest.approx(b, rel=1e-9)

def test_events_validate():
    with pytest.raises(ValueError, match='p'): P1DEvent(num_users=10, g=1, b=1, p=1.5)
    with pytest.raises(ValueError, match='coordinates'): PVECEvent(num_users=10, coordinates=0, g=1, b=1, p=0.5)
    with pytest.raises(sp.UnsupportedEventError, match='PldAccountant'):
        sp.RdpAccountant().compose(P1DEvent(num_users=10, g=1, b=1, p=0.5))
