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

# ---------- explicit tables of the structured randomizers (shared by test_onepair*.py) ----------
import numpy as np
from scipy.linalg import hadamard
from shuffle_privacy.mechanisms.shuffled_ldp import randomizers as R

def _norm(T): T = np.asarray(T, float); return (T/T.sum(1, keepdims=True)).tolist()

def table(rz, e0):
    "Explicit rows R[x][y] of a small instance (inputs 0, 1, 2 at least; Hadamard: rows 1, 2, 3 of H_8)."
    E = math.exp(e0)
    if isinstance(rz, R.KRR): return _norm(np.eye(rz.k)*(E - 1) + 1)
    if isinstance(rz, R.SubsetSelection):
        S = list(itertools.combinations(range(rz.d), rz.k))
        return _norm([[E if x in s else 1.0 for s in S] for x in range(rz.d)])
    if isinstance(rz, R.HadamardResponse): return _norm(np.where(hadamard(rz.K)[1:] > 0, E, 1.0))
    if isinstance(rz, R.UnaryEncoding):
        a, b = (0.5, 1/(E + 1)) if rz.optimized else (1/(1 + math.exp(-e0/2)), 1/(1 + math.exp(e0/2)))
        V = list(itertools.product([0, 1], repeat=3))
        return [[math.prod((a if v[i] else 1 - a) if i == x else (b if v[i] else 1 - b) for i in range(3)) for v in V]
                for x in range(3)]
    if isinstance(rz, R.LocalHash):                   # domain {0, 1, 2}, every hash function, output (h, y)
        H = list(itertools.product(range(rz.l), repeat=3))
        return _norm([[E if h[x] == y else 1.0 for h in H for y in range(rz.l)] for x in range(3)])
    raise ValueError(rz)

def hockey(P, Q, eps):
    d = lambda A, B: sum(max(0.0, w - math.exp(eps)*B.get(h, 0.0)) for h, w in A.items())
    return max(d(P, Q), d(Q, P))

# ---------- per-user rows (heterogeneous users; shared by test_heterogeneous.py) ----------
import numpy as np
def krr_rows(k, e0):
    "Rows R[x][y] of k-RR at level e0 on [k] (floats): e^e0/(e^e0+k-1) on the diagonal, 1/(e^e0+k-1) elsewhere."
    E = math.exp(e0); Z = E + k - 1
    return [[E/Z if y == x else 1/Z for y in range(k)] for x in range(k)]

def shuffled_law_rows(rows):
    "Exact law (floats) of the output counts (the shuffled multiset) when user i reports y with probability rows[i][y]."
    m = len(rows[0]) if rows else 0
    law = {(0,)*m: 1.0}
    for r in rows:
        new = {}
        for h, w in law.items():
            for y, p in enumerate(r):
                if p == 0: continue
                key = h[:y] + (h[y] + 1,) + h[y + 1:]; new[key] = new.get(key, 0.0) + w*p
        law = new
    return law

def poisson_binomial_pmf(ps):
    "pmf of the number of successes of independent Bernoulli(p) trials, p in ps: the O(n^2) recursion (floats)."
    f = np.ones(1)
    for p in ps:
        f = np.append(f*(1 - p), 0.0) + np.append(0.0, f*p)   # f_new[t] = f[t](1-p) + f[t-1] p
    return f.tolist()
