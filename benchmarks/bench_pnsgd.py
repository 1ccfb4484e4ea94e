"""PNSGD: R independent runs batched in one call (arrays of shape (R, d)) against R separate calls, for the
Figure 1 problem (n = 1000, d = 2); ported to the harness by `bench`.

Run: python3 dev.py bench pnsgd
"""
from harness import compare
from shuffle_privacy.algorithms.pnsgd import Ball, SquaredLoss, LogisticLoss, make_data, pnsgd

def run():
    rows = []
    for kind, loss in (('linear', SquaredLoss()), ('logistic', LogisticLoss())):
        X, y, _ = make_data(kind, n=1000, rng=0)
        R = 20
        kw = dict(eta=1e-3, scale=0.5, K=Ball(), epochs=2, progress=False)
        rows.append(compare(f'pnsgd {kind}, {R} runs batched, n = 1000, 2 epochs',
                            lambda: pnsgd(loss, X, y, runs=R, rng=0, **kw),
                            lambda: [pnsgd(loss, X, y, runs=1, rng=r, **kw) for r in range(R)], repeats=5, number=1,
                            baseline_name=f'{R} separate calls (loop)'))
    return rows

if __name__ == '__main__':
    for r in run(): print(r)
