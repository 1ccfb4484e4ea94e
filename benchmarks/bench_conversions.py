"""RDP → (ε, δ) and GDP conversions against dp_accounting on the same inputs (ported to the harness by `bench`).

Run: python3 dev.py bench conversions   (or .venv/bin/python benchmarks/bench_conversions.py)
"""
import warnings
import numpy as np
from dp_accounting.rdp import rdp_privacy_accountant as rdp_acc
from dp_accounting.pld import privacy_loss_mechanism as plm
from scipy.stats import norm
from harness import compare
from shuffle_privacy.accounting.conversions import rdp_to_dp, rdp_to_delta, gdp_delta, OrderGridWarning

def run():
    warnings.simplefilter('ignore', OrderGridWarning)
    rows = []
    for k, orders in (('8-order', np.array([1.5, 2, 3, 4, 8, 16, 32, 64.])),
                      ('149-order', np.array(rdp_acc.DEFAULT_RDP_ORDERS, float))):
        rdp = orders/(2*3.0**2)
        rows.append(compare(f'rdp_to_dp, {k} curve', lambda: rdp_to_dp(orders, rdp, 1e-6),
                            lambda: rdp_acc.compute_epsilon(orders, rdp, 1e-6),
                            baseline_name='dp_accounting compute_epsilon', notes='issue 14 target <= 2'))
        rows.append(compare(f'rdp_to_delta, {k} curve', lambda: rdp_to_delta(orders, rdp, 1.0),
                            lambda: rdp_acc.compute_delta(orders, rdp, 1.0),
                            baseline_name='dp_accounting compute_delta', notes='issue 14 target <= 2'))
    mu, es = 1.0, np.linspace(0, 8, 10**5)
    closed = lambda: norm.cdf(-es/mu + mu/2) - np.exp(es)*norm.cdf(-es/mu - mu/2)
    rows.append(compare('gdp_delta, 1e5 ε, μ = 1', lambda: gdp_delta(mu, es), closed, repeats=5, number=1,
                        baseline_name='numpy closed form (unstable tails)', notes='issue 14 target <= 10'))
    g = plm.GaussianPrivacyLoss(1.0, sensitivity=1.0)
    es2 = np.linspace(0, 8, 200)
    rows.append(compare('gdp_delta, 200 ε, μ = 1', lambda: gdp_delta(1.0, es2), lambda: g.get_delta_for_epsilon(es2),
                        baseline_name='dp_accounting GaussianPrivacyLoss'))
    return rows

if __name__ == '__main__':
    for r in run(): print(r)
