"""Speed of shuffle_privacy.pnsgd: R independent runs batched in one call (arrays of shape (R, d)) against R separate
calls, for the Figure 1 problem (n = 1000, d = 2). Prints a table of times and the ratio measured in this run."""
import time
import numpy as np
from shuffle_privacy.pnsgd import Ball, SquaredLoss, LogisticLoss, make_data, pnsgd


def best_of(f, repeat=3):
    ts = []
    for _ in range(repeat):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)


def main():
    rows = []
    for kind, loss in (('linear', SquaredLoss()), ('logistic', LogisticLoss())):
        X, y, _ = make_data(kind, n=1000, rng=0)
        for R in (1, 10, 100):
            kw = dict(eta=1e-3, scale=0.5, K=Ball(), epochs=2, progress=False)
            batched = best_of(lambda: pnsgd(loss, X, y, runs=R, rng=0, **kw))
            separate = best_of(lambda: [pnsgd(loss, X, y, runs=1, rng=r, **kw) for r in range(R)], repeat=1 if R == 100 else 3)
            rows.append((kind, R, batched, separate, separate / batched))
    print(f"{'loss':10s} {'runs':>5s} {'batched [s]':>12s} {'separate [s]':>13s} {'ratio':>7s} {'us/step':>8s}")
    for kind, R, b, s, r in rows:
        print(f'{kind:10s} {R:5d} {b:12.3f} {s:13.3f} {r:7.1f} {1e6 * b / 2000:8.1f}')


if __name__ == '__main__':
    main()
