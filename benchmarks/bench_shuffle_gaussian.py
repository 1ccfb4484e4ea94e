"""Benchmark of Theorem 1 (shuffle Gaussian RDP): the generating-function evaluation against the paper's
Algorithm 1 (integer partitions), speed and accuracy measured in the same run against 60-digit mpmath.

Run: .venv/bin/python benchmarks/bench_shuffle_gaussian.py
"""
import math, time
from collections import Counter
import mpmath as mp
import numpy as np
from shuffle_privacy.shuffle_gaussian import integer_partitions, shuffle_gaussian_rdp, shuffle_gaussian_rdp_partitions

mp.mp.dps = 60

def best_time(f, repeat=3):
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter(); r = f(); ts.append(time.perf_counter() - t0)
    return min(ts), r

def mp_partitions(order, n, sigma):
    c = 1/(2*mp.mpf(sigma)**2); tot = mp.mpf(0)
    for p in integer_partitions(order):
        if len(p) > n: continue
        arr = mp.fprod(mp.mpf(n - i) for i in range(len(p)))/mp.fprod(mp.factorial(k) for k in Counter(p).values())
        tot += arr*mp.factorial(order)/mp.fprod(mp.factorial(k) for k in p)*mp.exp(c*sum(k*k for k in p))
    return mp.log(mp.exp(-order*c)/mp.mpf(n)**order*tot)/(order - 1)

def main():
    n, sigma = 60000, 9.48
    rows = []
    # 1. the whole curve 2..1024 at n=60000
    t_all, v = best_time(lambda: shuffle_gaussian_rdp(np.arange(2, 1025), n, sigma))
    rows.append(('series, all orders 2..1024, n=60000', t_all, 'target < 1 s', 'PASS' if t_all < 1 else 'FAIL'))
    # also the small-n branch (binary powering) for information
    t_pow, _ = best_time(lambda: shuffle_gaussian_rdp(np.arange(2, 1025), 100, sigma), repeat=1)
    rows.append(('series, all orders 2..1024, n=100 (powering branch)', t_pow, 'info', ''))
    # 2. λ = 40: series (single order and whole curve) vs partitions
    lam = 40
    t_part, v_part = best_time(lambda: shuffle_gaussian_rdp_partitions(lam, n, sigma), repeat=1)
    t_one, v_one = best_time(lambda: float(shuffle_gaussian_rdp(lam, n, sigma)), repeat=5)
    t_curve, _ = best_time(lambda: shuffle_gaussian_rdp(np.arange(2, lam + 1), n, sigma), repeat=5)
    rows.append((f'partitions (Algorithm 1), λ={lam}', t_part, '', ''))
    rows.append((f'series, λ={lam}', t_one, f'speed-up x{t_part/t_one:,.0f} (target >= 100)', 'PASS' if t_part/t_one >= 100 else 'FAIL'))
    rows.append((f'series, all orders 2..{lam}', t_curve, f'speed-up x{t_part/t_curve:,.0f} for 39 orders vs 1', ''))
    print(f'{"what":58s} {"time":>10s}  note')
    for what, t, note, ok in rows: print(f'{what:58s} {t*1e3:8.2f}ms  {note} {ok}')
    # 3. accuracy against 60-digit mpmath at λ = 20, 30, 40 (the partition sum in mpmath is the reference)
    print(f'\naccuracy against 60-digit mpmath, n={n}, sigma={sigma}')
    print(f'{"λ":>4s} {"reference ε(λ)":>22s} {"rel.err series":>15s} {"rel.err partitions":>19s} {"ratio":>8s}')
    for lam in [10, 20, 30, 40]:
        ref = float(mp_partitions(lam, n, sigma))
        es = abs(float(shuffle_gaussian_rdp(lam, n, sigma))/ref - 1)
        ep = abs(shuffle_gaussian_rdp_partitions(lam, n, sigma)/ref - 1)
        print(f'{lam:4d} {ref:22.15e} {es:15.2e} {ep:19.2e} {ep/max(es, 1e-17):8.1e}'
              f'  {"series more accurate" if es < ep else "PARTITIONS MORE ACCURATE"}')

if __name__ == '__main__':
    main()
