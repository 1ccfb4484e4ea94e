"""Enumeration helpers shared by tests (exact laws in Fractions, no code of the package): import from here, not from
another test module."""
import itertools, math
from fractions import Fraction

def uniform_output(values, bins, s):
    """Exact law (Fractions) of the bin counts when user i puts a real ball in bin values[i] and floor(s) fake balls,
    one more with probability s - floor(s), each into a uniformly random bin (the authors' code): enumerated."""
    k0, f = math.floor(s), s - math.floor(s)
    per = []                                          # one user's fake-ball outcomes: (count vector, probability)
    for k, pk in ((k0, 1 - f), (k0 + 1, f)):
        if pk == 0: continue
        for seq in itertools.product(range(bins), repeat=k):
            h = [0]*bins
            for j in seq: h[j] += 1
            per.append((h, pk/Fraction(bins)**k))
    out = {}
    for choice in itertools.product(per, repeat=len(values)):
        h = [0]*bins; pr = Fraction(1)
        for v, (c, pc) in zip(values, choice):
            h[v] += 1; pr *= pc
            for j in range(bins): h[j] += c[j]
        out[tuple(h)] = out.get(tuple(h), 0) + pr
    return out

def shuffled_law(R, xs):
    "Exact law of the sorted reports (the shuffled multiset) of users with inputs xs under randomizer rows R."
    law = {(): 1.0}
    for x in xs:
        new = {}
        for h, w in law.items():
            for y in range(len(R[x])):
                key = tuple(sorted(h + (y,))); new[key] = new.get(key, 0.0) + w*R[x][y]
        law = new
    return law
