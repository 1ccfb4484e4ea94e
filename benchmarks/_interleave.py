"""Interleaved timing shared by the benchmarks of helper `proto`: candidate and baseline alternate, ratio per pair."""
import time, tracemalloc
import numpy as np

def ratio_row(name, baseline, f, g, reps=7, notes=''):
    "Time f (candidate) and g (baseline) alternately `reps` times; per-pair ratios t_f/t_g -> median and spread."
    f(); g()                                           # warm-up
    r = []
    for i in range(reps):
        pair = [(f, 0), (g, 1)] if i % 2 == 0 else [(g, 1), (f, 0)]
        t = [0.0, 0.0]
        for h, j in pair:
            s = time.perf_counter(); h(); t[j] = time.perf_counter() - s
        r.append(t[0]/t[1])
    r = np.array(r)
    return dict(name=name, baseline=baseline, ratio_median=float(np.median(r)), ratio_lo=float(r.min()),
                ratio_hi=float(r.max()), notes=notes)

def peak_mib(f):
    "Peak traced memory (MiB) of one call of f."
    tracemalloc.start(); f(); peak = tracemalloc.get_traced_memory()[1]; tracemalloc.stop()
    return peak/2**20
