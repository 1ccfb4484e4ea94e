"""Benchmark of PVEC: the fast path (count of ones drawn exactly) at n = 10^6, d = 100, and its speed ratio against
the message-level simulation (every labelled bit generated and shuffled) at sizes where both run.

Run: .venv/bin/python benchmarks/bench_summation.py
"""
import time
import numpy as np
from shuffle_privacy.summation import pvec_params, pvec_sum

def timeit(f, repeat=3):
    best = np.inf
    for _ in range(repeat):
        t = time.perf_counter(); f(); best = min(best, time.perf_counter() - t)
    return best

def rows(rng, n, d):
    X = rng.normal(size=(n, d)); return X/np.linalg.norm(X, axis=1)[:, None]

def main():
    rng = np.random.default_rng(0)
    print('PVEC fast path, eps = 1, delta = 1e-6, Delta2 = 1')
    print(f'{"n":>9} {"d":>4} {"g":>6} {"b":>10} {"bits/user":>12} {"seconds":>9}')
    for n, d in [(10**4, 100), (10**5, 100), (10**6, 100)]:
        X = rows(rng, n, d); prm = pvec_params(n, d, 1.0, 1e-6, 1.0)
        t = timeit(lambda: pvec_sum(X, 1.0, 1e-6, 1.0, rng), repeat=1 if n == 10**6 else 3)
        print(f'{n:>9} {d:>4} {prm.g:>6} {prm.b:>10} {d*(prm.g + prm.b):>12.3g} {t:>9.3f}')
    print('\nmessage level vs fast path (eps = 15, delta = 0.4: few noise bits so the messages fit in memory)')
    print(f'{"n":>6} {"d":>3} {"messages":>10} {"t_messages":>11} {"t_fast":>9} {"ratio":>9}')
    for n, d in [(10, 2), (50, 5), (200, 10)]:
        X = rows(rng, n, d); prm = pvec_params(n, d, 15.0, 0.4, 1.0)
        ts = timeit(lambda: pvec_sum(X, 15.0, 0.4, 1.0, rng, method='messages'))
        tf = timeit(lambda: pvec_sum(X, 15.0, 0.4, 1.0, rng, method='fast'))
        print(f'{n:>6} {d:>3} {n*d*(prm.g + prm.b):>10} {ts:>11.4f} {tf:>9.5f} {ts/tf:>9.0f}x')

if __name__ == '__main__':
    main()
