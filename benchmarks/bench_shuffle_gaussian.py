"""Theorem 1 (shuffle Gaussian RDP) against the paper's Algorithm 1 (integer partitions) and the n >= order path
(ported to the harness by `bench`).

Run: python3 dev.py bench shuffle_gaussian
"""
import numpy as np
from harness import compare
from shuffle_privacy.mechanisms.shuffle_gaussian import shuffle_gaussian_rdp, shuffle_gaussian_rdp_partitions

def run():
    n, sigma = 60000, 9.48
    rows = []
    for lam in (20, 40):
        rows.append(compare(f'shuffle_gaussian_rdp, λ = {lam}, n = {n}', lambda: shuffle_gaussian_rdp(lam, n, sigma),
                            lambda: shuffle_gaussian_rdp_partitions(lam, n, sigma), repeats=5,
                            baseline_name="paper's Algorithm 1 (partitions)",
                            notes='issue 4 target <= 0.01' if lam == 40 else 'issue 4 sets its target at λ = 40'))
    orders = np.arange(2, 1025)
    rows.append(compare('Theorem 1, n = 100 < order, orders 2..1024', lambda: shuffle_gaussian_rdp(orders, 100, sigma),
                        lambda: shuffle_gaussian_rdp(orders, n, sigma), repeats=5, number=1,
                        baseline_name='same, n = 60000 >= order', notes='issue 14 target <= 3'))
    return rows

if __name__ == '__main__':
    for r in run(): print(r)
