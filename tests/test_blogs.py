"Cross-checks of shuffle_privacy.mechanisms.blogs.published: shuffle against the published pseudocode, accountant formulas at 50 digits, Algorithm 2 edge cases, torch path, bad input."
import math, warnings
import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from shuffle_privacy.mechanisms.blogs.published import (BlogsTargetExceeded, DPShuffleGenerator, block_shuffle,
                                                        blogs_block_sizes,
                                   blogs_epsilons, blogs_group_epsilon, blogs_step_epsilon, blogs_total_epsilon,
                                   clip_gradient, blogs_compose)

mp.mp.dps = 50

def reference_shuffle(x, b, rng):
    "The published Algorithm 3 `shuffle`, transcribed line by line (pad all, view, randperm, index, trim)."
    flat = np.asarray(x).reshape(-1); n = flat.size; m = -(-n // b)
    if n % b: flat = np.concatenate([flat, np.zeros(b - n % b, dtype=flat.dtype)])
    return flat.reshape(m, -1)[rng.permutation(m)].reshape(-1)[:n].reshape(np.shape(x))

@settings(max_examples=80, deadline=None)
@given(st.integers(1, 300), st.integers(1, 320), st.integers(0, 2**32 - 1))
def test_block_shuffle_equals_published_pseudocode(n, b, seed):
    x = np.random.default_rng(seed).normal(size=n).astype(np.float32)
    np.testing.assert_array_equal(block_shuffle(x, b, rng=np.random.default_rng(seed)),
                                  reference_shuffle(x, b, np.random.default_rng(seed)))

@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_permutation_and_multiset_when_block_divides(m, b, seed):
    x = np.random.default_rng(seed).normal(size=(m, b))     # d = m*b, b divides d
    y = block_shuffle(x, b, rng=seed)
    np.testing.assert_array_equal(np.sort(y, axis=None), np.sort(x, axis=None))
    assert sorted(map(tuple, y.reshape(m, b))) == sorted(map(tuple, x.reshape(m, b)))
    assert np.linalg.norm(y) == pytest.approx(np.linalg.norm(x), rel=1e-12)

def test_block_permutation_is_uniform():
    "All 3! block orders appear with frequency 1/6 (chi-square, fixed seed)."
    x = np.arange(6.)
    counts = {}
    rng = np.random.default_rng(0)
    for _ in range(6000):
        k = tuple(block_shuffle(x, 2, rng=rng)); counts[k] = counts.get(k, 0) + 1
    assert len(counts) == 6
    from scipy.stats import chisquare
    assert chisquare(list(counts.values())).pvalue > 1e-3

def test_padding_is_not_a_permutation():
    x = np.arange(1., 11.)
    ys = [block_shuffle(x, 4, rng=s) for s in range(300)]
    not_perm = np.mean([not np.array_equal(np.sort(y), x) for y in ys])
    assert 0.55 < not_perm < 0.78            # padded block not last: probability 2/3
    assert any((y == 0).sum() == 2 for y in ys)

def test_block_shuffle_keeps_dtype_shape_and_out():
    x = np.random.default_rng(0).normal(size=(7, 9)).astype(np.float32)
    out = np.empty_like(x)
    y = block_shuffle(x, 9, rng=0, out=out)
    assert y is out and y.dtype == np.float32 and y.shape == (7, 9)
    with pytest.raises(ValueError, match='out must have shape'): block_shuffle(x, 9, rng=0, out=np.empty(63, np.float32))

def mp_eps(d, b, C):
    d, b, C = mp.mpf(d), mp.mpf(b), mp.mpf(C)
    e1 = 2 * mp.log(1 + d * (mp.exp(2 * C / mp.sqrt(d)) - 1))
    e2 = 2 * mp.log(1 + (b / d) * (mp.exp(2 * C * mp.sqrt(b / d)) - 1))
    return e1, e2

@pytest.mark.parametrize('d,b,C', [(1, 1, 1.0), (100, 1, 1.0), (100, 37, 0.3), (10**6, 1, 1.0), (10**8, 12345, 1.0),
                                   (10**9, 1, 1e-3), (50, 50, 5.0), (7, 3, 1e-6),
                                   (10, 3, 1e3), (10, 3, 1e8), (10**6, 10, 1e6), (10**15, 1, 1e10), (10**15, 1, 30.0)])
def test_eqs_1_2_against_mpmath(d, b, C):
    e1, e2 = blogs_epsilons(d, b, C)
    r1, r2 = mp_eps(d, b, C)
    assert e1 == pytest.approx(float(r1), rel=1e-13) and e2 == pytest.approx(float(r2), rel=1e-13)
    assert blogs_group_epsilon(d, b, C) == min(e1, e2)

def test_eq3_against_mpmath():
    dims, bs, C, T, delta = [1000, 20, 3], [10, 1, 2], 1.0, 250, 1e-6
    step = mp.fsum(min(mp_eps(d, b, C)) for d, b in zip(dims, bs))
    ref = mp.sqrt(2 * T * mp.log(1 / mp.mpf(delta))) * step + T * step * (mp.exp(step) - 1)
    assert blogs_step_epsilon(dims, bs, C) == pytest.approx(float(step), rel=1e-13)
    assert blogs_total_epsilon(dims, bs, clip=C, count=T, delta=delta) == pytest.approx(float(ref), rel=1e-13)

def test_eq3_overflows_to_inf_not_an_exception():
    "A per-step epsilon above ~709 makes eq. (3) exceed the float range: the bound is +inf (conservative), not OverflowError."
    assert blogs_compose(800.0, 3, 1e-5) == math.inf
    assert blogs_compose(700.0, 3,
                         1e-5) == pytest.approx(float(mp.sqrt(6 * mp.log(1e5)) * 700 + 3 * 700 * mp.expm1(700)),
                                                rel=1e-13)

def test_hand_values():
    assert blogs_group_epsilon(1, 1, 1.0) == pytest.approx(4.0, rel=1e-14)         # 2 log(e^2)
    assert blogs_group_epsilon(4, 4, 0.25) == pytest.approx(1.0, rel=1e-14)        # 4C at b = d
    assert blogs_total_epsilon([1], [1], clip=0.25, count=1, delta=math.exp(-0.5)) == pytest.approx(1 + (math.e - 1), rel=1e-14)

def brute_algorithm2(dims, target, delta, steps, C):
    "Independent transcription of Algorithm 2 with a brute-force inner search."
    def inner(t): return [max([b for b in range(1, d) if blogs_group_epsilon(d, b, C) <= t], default=1) for d in dims]
    low, high, best, bd = 0.0, target / steps, None, math.inf
    while high - low > 1e-6:
        mid = (low + high) / 2; bs = inner(mid); e = blogs_total_epsilon(dims, bs, clip=C, count=steps, delta=delta)
        if abs(e - target) < bd: best, bd = bs, abs(e - target)
        if e > target: high = mid
        else: low = mid
    return best

@pytest.mark.parametrize('dims,target,steps', [([50, 7, 300], 5.0, 10), ([200], 1.0, 3), ([2, 90, 33], 30.0, 20),
                                               ([120, 120], 0.4, 1)])
def test_algorithm2_against_brute_force(dims, target, steps):
    assert blogs_block_sizes(dims, target, delta=1e-5, count=steps, clip=1.0, warn=False) == brute_algorithm2(dims, target, 1e-5, steps, 1.0)

def test_algorithm2_edge_cases():
    assert blogs_block_sizes([1], 100.0, delta=1e-5, count=1, clip=1.0,
                             warn=False) == [1]            # d = 1: loop never runs
    assert blogs_block_sizes([2], 1e6, delta=1e-5, count=1, clip=1.0,
                             warn=False) == [1]              # b = d never chosen
    big = blogs_block_sizes([1000], 1e9, delta=1e-5, count=1, clip=1.0, warn=False)
    assert big == [999]                                                               # huge budget: d - 1, not d
    with pytest.warns(BlogsTargetExceeded):                                           # default b = 1 above target
        assert blogs_block_sizes([2, 5], 1.0, delta=1e-5, count=1, clip=1.0) == [1, 1]
    with pytest.raises(ValueError, match='target_epsilon/count must exceed 1e-6'):     # published code returns None
        blogs_block_sizes([10], 1e-3, delta=1e-5, count=1000, clip=1.0)

def test_algorithm2_may_exceed_target_and_warns():
    found = False
    for target in np.linspace(0.5, 5, 10):
        bs = blogs_block_sizes([50], float(target), delta=1e-5, count=10, clip=1.0, warn=False)
        if blogs_total_epsilon([50], bs, clip=1.0, count=10, delta=1e-5) > target:
            found = True
            with pytest.warns(BlogsTargetExceeded): blogs_block_sizes([50], float(target), delta=1e-5, count=10,
                                                                      clip=1.0)
    assert found

def test_clip_gradient():
    g = np.array([3., 4.])
    np.testing.assert_allclose(clip_gradient(g, 1.0), [0.6, 0.8])
    np.testing.assert_array_equal(clip_gradient(g, 5.0), g)
    assert clip_gradient(np.zeros(4, np.float32), 1.0).dtype == np.float32

def test_generator_numpy_step():
    rng = np.random.default_rng(0)
    grads = [rng.normal(size=(30, 20)), rng.normal(size=20)]
    gen = DPShuffleGenerator([600, 20], 200.0, delta=1e-5, count=10, clip_value=1.0, rng=0)
    out, eps, delta = gen.generate(grads)
    assert eps == pytest.approx(blogs_total_epsilon([600, 20], gen.optimal_block_sizes, clip=1.0, count=10,
                                                    delta=1e-5)) and delta == 1e-5
    for g, o, b in zip(grads, out, gen.optimal_block_sizes):
        assert o.shape == g.shape
        if g.size % b == 0: np.testing.assert_allclose(np.sort(o, None), np.sort(clip_gradient(g, 1.0), None))
    with pytest.raises(ValueError, match='one tensor per group'): gen.generate(grads[:1])

@pytest.mark.parametrize('call,msg', [
    (lambda: block_shuffle(np.ones(3), 0, rng=0), r'block_size must be an integer in \[1, inf\)'),
    (lambda: blogs_group_epsilon(0, 1, 1.0), r'd must be an integer in \[1, inf\)'),
    (lambda: blogs_group_epsilon(5, 6, 1.0), r'block_size must be an integer in \[1, 5\]'),
    (lambda: blogs_group_epsilon(5, 2, -1.0), r'clip must be in \(0, inf\)'),
    (lambda: blogs_total_epsilon([5], [2], clip=1.0, count=0, delta=1e-5), r'count must be an integer in \[1, inf\)'),
    (lambda: blogs_total_epsilon([5], [2], clip=1.0, count=3, delta=1.5), r'delta must be in \(0, 1\)'),
    (lambda: blogs_total_epsilon([5, 4], [2], clip=1.0, count=3, delta=1e-5), 'one entry per group'),
    (lambda: blogs_block_sizes([], 1.0, delta=1e-5, count=3, clip=1.0), 'dims must be a non-empty list'),
    (lambda: blogs_block_sizes(5, 1.0, delta=1e-5, count=3, clip=1.0), 'dims must be a non-empty list'),
    (lambda: blogs_block_sizes([5], 0.0, delta=1e-5, count=3, clip=1.0), r'target_epsilon must be in \(0, inf\)'),
    (lambda: blogs_block_sizes([5], 1.0, delta=1e-5, count=3, clip=float('nan')), 'clip must be a finite real number'),
    (lambda: clip_gradient(np.ones(2), 0), r'clip must be in \(0, inf\)'),
])
def test_bad_input(call, msg):
    with pytest.raises(ValueError, match=msg): call()

def test_torch_path_matches_published_semantics():
    torch = pytest.importorskip('torch')
    from shuffle_privacy.mechanisms.blogs.torch import torch_block_shuffle, torch_clip_gradient
    for n, b in [(12, 3), (10, 4), (1, 1), (7, 9)]:
        x = torch.arange(1., n + 1)
        y = torch_block_shuffle(x, b, torch.Generator().manual_seed(0))
        # same output as the numpy path for the same block permutation
        m = -(-n // b); perm = torch.randperm(m, generator=torch.Generator().manual_seed(0)).numpy()
        flat = np.concatenate([x.numpy(), np.zeros((-n) % b, np.float32)])
        np.testing.assert_array_equal(y.numpy(), flat.reshape(m, b)[perm].reshape(-1)[:n])
    g = torch.tensor([3., 4.])
    assert torch.allclose(torch_clip_gradient(g, 1.0), torch.tensor([0.6, 0.8]))

def test_torch_generator_hook_on_model_parameters():
    torch = pytest.importorskip('torch')
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.ReLU(), torch.nn.Linear(8, 4))
    loss = model(torch.randn(32, 16)).pow(2).mean(); loss.backward()
    before = [p.grad.detach().clone() for p in model.parameters()]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', BlogsTargetExceeded)
        gen = DPShuffleGenerator(model.parameters(), 1e4, delta=1e-5, count=5, clip_value=0.5,
                                 torch_generator=torch.Generator().manual_seed(1))
    assert gen.dims == [128, 8, 32, 4]
    eps = gen.step_(model.parameters())
    assert eps == pytest.approx(blogs_total_epsilon(gen.dims, gen.optimal_block_sizes, clip=0.5, count=5, delta=1e-5))
    for g0, p, b in zip(before, model.parameters(), gen.optimal_block_sizes):
        clipped = g0 * min(1.0, 0.5 / float(g0.norm()))
        if g0.numel() % b == 0:
            assert torch.allclose(torch.sort(p.grad.reshape(-1)).values, torch.sort(clipped.reshape(-1)).values)

def test_eq3_is_advanced_composition_and_valid():
    "Eq. (3) equals Dwork-Rothblum-Vadhan advanced composition (conversions) and its delta is >= the exact KOV optimum."
    from shuffle_privacy.mechanisms.blogs.published import blogs_compose
    from shuffle_privacy.accounting.conversions import advanced_composition, optimal_composition_delta
    for eps, T in [(0.01, 100), (0.2, 50), (1.0, 5)]:
        e3 = blogs_compose(eps, T, 1e-5)
        assert e3 == pytest.approx(advanced_composition(eps, 0.0, count=T, delta_prime=1e-5)[0], rel=1e-12)
        assert optimal_composition_delta(eps, 0.0, count=T, epsilon_total=e3) <= 1e-5


def test_blogs_block_sizes_all_infinite_returns_smallest_blocks_with_warning():
    from shuffle_privacy.mechanisms.blogs.published import blogs_block_sizes, BlogsTargetExceeded
    with pytest.warns(BlogsTargetExceeded):
        assert blogs_block_sizes([1], 0.001, delta=1e-300, count=1, clip=1000.0) == [1]
