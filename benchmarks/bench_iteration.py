"""Benchmarks of the amplification-by-iteration accountant (shuffle_privacy.mechanisms.iteration.bounds); ported to the
harness by `bench` (run(): the online δ against a plain Python loop at n where the loop runs, and the shuffled δ
against the naive numpy formula).

Run: python3 dev.py bench iteration   (the old printout: .venv/bin/python benchmarks/bench_iteration.py [--quick])

1. Online delta = A_i prod_{t=i+1}^n B_t at n = 10^7 (paper parameters: L=10, beta=0.5, rho=0, eps=1, eta=0.01,
   alpha=1.5, i=100, C1=C2=100), vectorised accountant vs a plain Python loop over the same terms (the loop is timed on
   a prefix and extrapolated linearly: it is O(n) with a constant cost per term). Reports the ratio and the agreement.
2. Shuffled delta A(1-B^n)/(n(1-B)) for n from 10 to 10^12, B within 1e-13 of 1: time per call, finiteness, and
   agreement with the naive formula `A*(1-B**n)/(n*(1-B))` (which loses every digit there).
Times are CPU (process) time, best of several repeats, so other load on the machine perturbs them less.
"""
import math, sys, time
import numpy as np
from scipy import special

from harness import compare
from shuffle_privacy.mechanisms.iteration.bounds import (online_laplace_delta, online_gaussian_delta, gaussian_constants,
                                       shuffled_delta, Contraction, contraction_factor)

QUICK = '--quick' in sys.argv
ON = dict(L=10, beta=0.5, rho=0, eta=0.01, alpha=1.5, i=100, C1=100, C2=100)
EPS = 1.0

def cpu_best(f, repeat=3):
    best, out = math.inf, None
    for _ in range(repeat):
        t = time.process_time(); out = f(); best = min(best, time.process_time() - t)
    return best, out

def q(x): return 0.5*math.erfc(x/math.sqrt(2))

def loop_laplace(n):
    "Plain Python: delta = A_i prod B_t with v_j of (6.2) plugged into (1.5), one term at a time."
    M = contraction_factor(ON['eta'], ON['beta'], ON['rho']); i, al, C1, C2 = ON['i'], ON['alpha'], ON['C1'], ON['C2']
    v = lambda j: M*1.0/(2*ON['eta']*math.log(j**al/C1 + C2))
    d = max(0.0, 1 - math.exp(EPS/2 - ON['L']/v(i)))
    for t in range(i + 1, n + 1):
        d *= max(0.0, 1 - math.exp(EPS/2 - M*1.0/(2*ON['eta']*v(t))))
    return d

def loop_gaussian(n):
    "Plain Python: delta = A_i prod B_t with sigma_j of (6.4) plugged into (1.4), theta from math.erfc."
    M = contraction_factor(ON['eta'], ON['beta'], ON['rho']); i, al, C1, C2 = ON['i'], ON['alpha'], ON['C1'], ON['C2']
    sig = lambda j: M*1.0/(2*ON['eta']*math.sqrt(special.lambertw(j**(2*al)/(2*math.pi*C1**2) + C2).real))
    th = lambda r: q(EPS/r - r/2) - math.exp(EPS)*q(EPS/r + r/2)
    d = th(2*ON['L']/sig(i))
    for t in range(i + 1, n + 1):
        d *= th(M*1.0/(ON['eta']*sig(t)))
    return d

def run():
    rows = []
    for name, acc, loop, kw, n in [('Laplace', online_laplace_delta, loop_laplace, dict(a=0, b=1), 10**5),
                                   ('Gaussian', online_gaussian_delta, loop_gaussian, dict(diameter=1), 10**4)]:
        rows.append(compare(f'online_{name.lower()}_delta, n = {n:.0e}', lambda: acc(EPS, n=n, **ON, **kw),
                            lambda: loop(n), repeats=5, number=1, baseline_name='plain Python loop over the terms'))
    A, c = 0.9, 1e-13
    B = Contraction(1 - c, c)
    ns = np.array([10**k for k in range(1, 13)])
    def naive():
        with np.errstate(all='ignore'): return A*(1 - (1 - c)**ns)/(ns*c)
    rows.append(compare('shuffled_delta, 12 sizes n = 10..1e12, 1 - B = 1e-13', lambda: shuffled_delta(A, B, ns), naive,
                        baseline_name='naive numpy A(1-B^n)/(n(1-B)) (loses every digit there)'))
    return rows

def bench_online():
    n = 10**6 if QUICK else 10**7
    prefix = 2*10**5 if QUICK else 10**6
    rows = []
    for name, acc, loop, kw in [('Laplace', online_laplace_delta, loop_laplace, dict(a=0, b=1)),
                                ('Gaussian', online_gaussian_delta, loop_gaussian, dict(diameter=1))]:
        t_acc, d_acc = cpu_best(lambda: acc(EPS, n=n, **ON, **kw), repeat=3)
        pre = prefix if name == 'Laplace' else prefix//10
        t_loop_pre, d_loop_pre = cpu_best(lambda: loop(pre), repeat=1)
        t_loop = t_loop_pre*(n - ON['i'])/(pre - ON['i'])
        d_check = acc(EPS, n=pre, **ON, **kw)
        rows.append((name, n, t_acc, t_loop, t_loop/t_acc, abs(d_check/d_loop_pre - 1), pre))
    print(f'\n1. online delta at n = {n:.0e} (exact product of n - i factors)')
    print(f'{"noise":9s} {"accountant [s]":>15s} {"python loop [s]":>16s} {"ratio":>8s} {"rel. diff vs loop":>18s}')
    for name, n_, ta, tl, r, rd, pre in rows:
        print(f'{name:9s} {ta:15.3f} {tl:16.1f} {r:8.0f} {rd:18.1e}   (loop timed on n = {pre:.0e}, extrapolated)')

def bench_shuffled():
    print('\n2. shuffled delta across n, B = 1 - 1e-13 (exact Contraction) and from gaussian_constants')
    A, c = 0.9, 1e-13
    B = Contraction(1 - c, c)
    print(f'{"n":>8s} {"delta":>24s} {"naive A(1-B^n)/(n(1-B))":>24s} {"us/call":>9s} {"finite":>7s}')
    for k in range(1, 13):
        n = 10**k
        t, d = cpu_best(lambda: [shuffled_delta(A, B, n) for _ in range(200)], repeat=3)
        d = d[0]
        with np.errstate(all='ignore'):
            Bf = 1 - c
            naive = A*(1 - Bf**n)/(n*(1 - Bf))
        exact = A*(-math.expm1(n*math.log1p(-c)))/(n*c)
        assert abs(d/exact - 1) < 1e-12
        print(f'{n:8.0e} {d:24.16e} {naive:24.16e} {1e6*t/200:9.1f} {str(math.isfinite(d)):>7s}')
    ns = np.array([10**k for k in range(1, 13)])
    Ag, Bg = gaussian_constants(1.0, L=10, sigma=0.6, eta=0.1, diameter=1, beta=0.5, rho=0)
    t, d = cpu_best(lambda: shuffled_delta(Ag, Bg, ns), repeat=5)
    print(f'vectorised over the 12 sizes with 1 - B = {Bg.one_minus_B:.3e}: {1e6*t:.1f} us per call, all finite: {np.all(np.isfinite(d))}')

if __name__ == '__main__':
    print(__doc__.split('\n')[0])
    bench_online()
    bench_shuffled()
