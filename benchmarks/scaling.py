"""How the cost of the main accountants grows with n, with the number of orders and with the number of rounds.

Run: python3 dev.py bench --scaling   (or .venv/bin/python benchmarks/scaling.py)
Writes benchmarks/scaling.json and benchmarks/scaling.png: log-log plots of seconds per call with the slope of a
least-squares line fitted in log-log space (slope 1: linear, 0.5: like √n, 0: constant). A series stops early when
one call takes more than `MAX_CALL` seconds, so the whole run stays within a few minutes.
"""
from __future__ import annotations
import json, math, sys, time, warnings
from pathlib import Path
import numpy as np

HERE = Path(__file__).resolve().parent
MAX_CALL = 1.5  # seconds: a series stops after the first point slower than this

def seconds_per_call(fn, repeats=3):
    "Median over `repeats` of the mean time of a batch of calls of `fn` (batch sized to about 0.05 s)."
    t0 = time.perf_counter(); fn(); t1 = time.perf_counter() - t0
    number = int(min(1000, max(1, 0.05/max(t1, 1e-9))))
    if t1 > 1: return t1  # slow: one call is measurement enough
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number): fn()
        ts.append((time.perf_counter() - t0)/number)
    return float(np.median(ts))

def fit_slope(xs, ts):
    "Slope of the least-squares line of log t against log x (NaN with fewer than 2 points)."
    xs, ts = np.asarray(xs, float), np.asarray(ts, float)
    if len(xs) < 2: return math.nan
    return float(np.polyfit(np.log(xs), np.log(ts), 1)[0])

def series(label, make, xs, *, axis, note=''):
    "Time `make(x)()` for each x (stopping after a point slower than MAX_CALL); a dict with the fitted slope."
    got_x, got_t, err = [], [], ''
    for x in xs:
        try: t = seconds_per_call(make(x))
        except Exception as e:
            err = f'{type(e).__name__} at {axis} = {x}: {e}'[:200]; break
        got_x.append(float(x)); got_t.append(t)
        print(f'  {label:55s} {axis}={x:<10g} {t:.3e} s', flush=True)
        if t > MAX_CALL: break
    return dict(label=label, axis=axis, x=got_x, seconds=got_t, slope=fit_slope(got_x, got_t), note=note, error=err)

def _ssg(o, m, gamma, sigma):
    "Theorem 2 at sample size m and rate γ, under either signature (rate γ, or population num_users = m/γ)."
    import inspect
    from shuffle_privacy.mechanisms.shuffle_gaussian.subsampled import subsampled_shuffle_gaussian_rdp as f
    if 'num_users' in inspect.signature(f).parameters: return lambda: f(o, m, int(round(m/gamma)), sigma)
    return lambda: f(o, m, gamma, sigma)

def vs_n():
    from shuffle_privacy.mechanisms.shuffle_gaussian.rdp import shuffle_gaussian_rdp
    from shuffle_privacy.mechanisms.shuffle_gaussian.subsampled import subsampled_shuffle_gaussian_rdp, checkin_rdp_exact
    o = np.arange(2, 65)
    ns = [10, 100, 10**3, 10**4, 10**5, 10**6, 10**7]
    return [
        series('shuffle_gaussian_rdp, orders 2..64', lambda n: lambda: shuffle_gaussian_rdp(o, n, 3.0), ns, axis='n'),
        series('subsampled_shuffle_gaussian_rdp, orders 2..64, γ = 0.01', lambda m: _ssg(o, m, 0.01, 3.0), ns,
               axis='n'),
        series('checkin_rdp_exact, orders 2..64, γ = 0.01', lambda n: lambda: checkin_rdp_exact(o, n, probability=0.01, sigma=3.0),
               [10, 30, 100, 300, 10**3, 3000, 10**4, 3*10**4, 10**5, 10**6], axis='n',
               note='issue 14 target: slope <= 0.5'),
    ] + _pld_sg_series('n', [10, 100, 10**3, 10**4, 10**5, 10**6], lambda n: (n, 100))

def _pld_sg_series(axis, xs, n_count):
    "PldAccountant on ShuffleGaussianEvent (σ = 3), if the shuffle Gaussian PLD is on this checkout; else nothing."
    try:
        import shuffle_privacy as sp
        import shuffle_privacy.mechanisms.shuffle_gaussian.pld  # registers pld_of for ShuffleGaussianEvent
    except ImportError:
        print('  shuffle Gaussian PLD not available: skipped', flush=True); return []
    def make(x):
        n, c = n_count(x)
        return lambda: sp.PldAccountant(value_discretization_interval=1e-3).compose(
                sp.ShuffleGaussianEvent(n, 3.0), c).get_epsilon(1e-6)
    label = ('PldAccountant, ShuffleGaussianEvent σ = 3, count = 100' if axis == 'n'
             else 'PldAccountant, ShuffleGaussianEvent n = 1000, σ = 3')
    return [series(label, make, xs, axis=axis, note='discretization 1e-3')]

def vs_orders():
    from dp_accounting.rdp import rdp_privacy_accountant as rdp_acc
    from shuffle_privacy.mechanisms.shuffle_gaussian.rdp import shuffle_gaussian_rdp
    from shuffle_privacy.accounting.conversions import rdp_to_dp, OrderGridWarning
    warnings.simplefilter('ignore', OrderGridWarning)
    ks = [8, 32, 128, 512, 2048, 4096]
    curve = lambda k: (np.arange(2, k + 2, dtype=float), np.arange(2, k + 2)/(2*9.0))
    return [
        series('shuffle_gaussian_rdp, n = 60000 (n >= order)',
               lambda k: lambda: shuffle_gaussian_rdp(np.arange(2, k + 2), 60000, 9.48), ks, axis='orders'),
        series('shuffle_gaussian_rdp, n = 100 (n < order)',
               lambda k: lambda: shuffle_gaussian_rdp(np.arange(2, k + 2), 100, 9.48), ks, axis='orders'),
        series('rdp_to_dp', lambda k: (lambda o, r: lambda: rdp_to_dp(o, r, 1e-6))(*curve(k)), ks, axis='orders'),
        series('dp_accounting compute_epsilon (baseline)',
               lambda k: (lambda o, r: lambda: rdp_acc.compute_epsilon(o, r, 1e-6))(*curve(k)), ks, axis='orders'),
    ]

def vs_rounds():
    import dp_accounting
    import shuffle_privacy as sp
    ev = sp.ShuffleGaussianEvent(num_users=1000, noise_multiplier=3.0)
    counts = [1, 10, 100, 1000, 10**4]
    def rdp_once(c):
        def f(): return sp.RdpAccountant().compose(ev, count=c).get_epsilon(1e-6)
        return f
    def rdp_loop(c):
        def f():
            a = sp.RdpAccountant()
            for _ in range(c): a.compose(ev)
            return a.get_epsilon(1e-6)
        return f
    g = dp_accounting.GaussianDpEvent(3.0)
    out = [series('RdpAccountant, compose(event, count)', rdp_once, counts, axis='rounds'),
           series('RdpAccountant, count separate compose calls', rdp_loop, counts, axis='rounds'),
           series('dp_accounting RdpAccountant, Gaussian, count (baseline)',
                  lambda c: lambda: dp_accounting.rdp.RdpAccountant().compose(g, c).get_epsilon(1e-6), counts,
                  axis='rounds')]
    if getattr(sp, 'PldAccountant', None) is not None:
        out.append(series('PldAccountant, Gaussian σ = 3, count',
                          lambda c: lambda: sp.PldAccountant(value_discretization_interval=1e-3).compose(
                
            g, c).get_epsilon(1e-6), counts, axis='rounds'))
        out.append(series('dp_accounting PLDAccountant, Gaussian σ = 3, count (baseline)',
                          lambda c: lambda: dp_accounting.pld.PLDAccountant(
                              value_discretization_interval=1e-3).compose(g, c).get_epsilon(1e-6),
                          counts, axis='rounds'))
    else: print('  PldAccountant not available: skipped', flush=True)
    out += _pld_sg_series('rounds', counts, lambda c: (1000, c))
    try:
        from prv_accountant import PRVAccountant
        from prv_accountant.privacy_random_variables import GaussianMechanism
        out.append(series('prv_accountant PRVAccountant, Gaussian σ = 3, count (baseline)',
                          lambda c: lambda: PRVAccountant(prvs=[GaussianMechanism(3.0)], max_self_compositions=[c],
                                                          eps_error=0.01, delta_error=1e-9).compute_epsilon(
                                                              1e-6, num_self_compositions=[c]), counts, axis='rounds',
                          note='eps_error 0.01'))
    except ImportError:
        print('  prv_accountant not installed (pip install prv_accountant): skipped', flush=True)
    return out

def plot(res, path):
    "Three log-log panels (n, orders, rounds), each series labelled with its fitted slope."
    import matplotlib; matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, axs = plt.subplots(1, 3, figsize=(15, 6.2))
    for ax, (axis, title) in zip(axs, [('n', 'cost vs n (users)'), ('orders', 'cost vs number of orders'),
                                       ('rounds', 'cost vs rounds (count)')]):
        for s in res[axis]:
            if not s['x']: continue
            ax.loglog(s['x'], s['seconds'], 'o-', ms=4,
                      label=f"{s['label']} (slope {s['slope']:.2f})" if math.isfinite(s['slope']) else s['label'])
        ax.set_xlabel(axis); ax.set_ylabel('seconds per call'); ax.set_title(title)
        ax.legend(fontsize=6.5, loc='upper center', bbox_to_anchor=(0.5, -0.13)); ax.grid(True, which='major', alpha=.3)
    fig.tight_layout(); fig.savefig(path, dpi=110); plt.close(fig)

def main(out_dir=HERE):
    from harness import machine_info
    res = {}
    for axis, f in (('n', vs_n), ('orders', vs_orders), ('rounds', vs_rounds)):
        print(f'--- scaling vs {axis}', flush=True)
        try: res[axis] = f()
        except Exception as e:
            print(f'  failed: {type(e).__name__}: {e}', flush=True)
            res[axis] = [dict(label=f'failed: {type(e).__name__}: {e}'[:200], axis=axis, x=[], seconds=[],
                              slope=math.nan, note='', error=str(e)[:200])]
    clean = lambda v: None if isinstance(v, float) and not math.isfinite(v) else v
    out = dict(machine=machine_info(), max_call_seconds=MAX_CALL,
               series={k: [{kk: clean(vv) for kk, vv in s.items()} for s in v] for k, v in res.items()})
    (Path(out_dir)/'scaling.json').write_text(json.dumps(out, indent=1, ensure_ascii=False) + '\n')
    plot(res, Path(out_dir)/'scaling.png')
    return res

def replot(out_dir=HERE):
    "Redraw scaling.png from the committed scaling.json (no timing)."
    js = json.loads((Path(out_dir)/'scaling.json').read_text())
    res = {k: [{**s, 'slope': math.nan if s['slope'] is None else s['slope']} for s in v]
           for k, v in js['series'].items()}
    plot(res, Path(out_dir)/'scaling.png')

if __name__ == '__main__':
    sys.path.insert(0, str(HERE))
    replot() if '--replot' in sys.argv else main()
