#!/usr/bin/env python3
"""Fits the chance to win each game shows on how beginner games end, and measures it on games it
was not fitted on. Reads the lines `examples/calibration.rs` prints:

    cargo run --release --no-default-features --example calibration -- GAME 200 > GAME.txt
    python3 scripts/calibration.py GAME.txt...

A line `game seed action chance result` gives the evaluation's chance: the fit is Platt's scaling,
logistic(a * logit(chance) + b), a game's `Searched::CALIBRATION`. A line with more numbers
gives what the evaluation weighs (Leipzig's `features`): the fit is a logistic regression on
them, the game's evaluation weights (the constant first).

Fits on half the games (seeds in alternate fours: each four plays all of Leipzig's four scenarios),
measures on the others (log loss, Brier score, and the chance
shown against how often the first seat won, by tenths), then fits on all of them: the constants
to write in the game's `ai.rs`.
"""
import math
import sys

# The evaluations before their fit, as weights on the same inputs: Leipzig's was
# (VP + strength / 3) / 6, its strength counted in tens.
BEFORE = {"leipzig": [0.0, 1 / 6, 10 / 18, 0.0, 0.0, 0.0, 0.0]}


def logit(p):
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def sigmoid(z):
    z = min(max(z, -40.0), 40.0)
    return 1 / (1 + math.exp(-z))


def solve(m, v):
    """m x = v by Gaussian elimination with partial pivoting."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[p][c]) < 1e-12:
            return [0.0] * n
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                for k in range(c, n + 1):
                    a[r][k] -= f * a[c][k]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit(rows):
    """Newton's method on the log loss of logistic(w . (1, x...)), targets 0, 0.5 or 1, with a
    touch of ridge so that a feature that never varies stays at 0."""
    n = len(rows[0][0]) + 1
    w = [0.0] * n
    for _ in range(100):
        g = [0.0] * n
        h = [[1e-3 if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in rows:
            z = [1.0] + x
            p = sigmoid(sum(wi * zi for wi, zi in zip(w, z)))
            q = p * (1 - p)
            for i in range(n):
                g[i] += (p - y) * z[i]
                for j in range(n):
                    h[i][j] += q * z[i] * z[j]
        d = solve(h, g)
        step = max(max(abs(x) for x in d), 1.0)
        w = [wi - di / step for wi, di in zip(w, d)]
        if max(abs(x) for x in d) < 1e-7:
            break
    return w


def chance(w, x):
    return sigmoid(w[0] + sum(wi * xi for wi, xi in zip(w[1:], x)))


def scores(rows, w):
    ll = br = 0.0
    for x, y in rows:
        p = min(max(chance(w, x), 1e-6), 1 - 1e-6)
        ll -= y * math.log(p) + (1 - y) * math.log(1 - p)
        br += (p - y) ** 2
    return ll / len(rows), br / len(rows)


def tenths(rows, w):
    bins = [[0, 0.0, 0.0] for _ in range(10)]
    for x, y in rows:
        p = chance(w, x)
        k = min(int(p * 10), 9)
        bins[k][0] += 1
        bins[k][1] += p
        bins[k][2] += y
    return " ".join(f"{100 * s / n:.0f}→{100 * w / n:.0f}%({n})" for n, s, w in bins if n)


def main():
    games = {}
    for path in sys.argv[1:]:
        for line in open(path):
            game, seed, _, *numbers, result = line.split()
            x = [float(v) for v in numbers]
            if len(x) == 1:
                x = [logit(x[0])]
            games.setdefault(game, []).append((int(seed), x, float(result)))
    for game, all_rows in games.items():
        train = [(x, y) for s, x, y in all_rows if s // 4 % 2 == 0]
        test = [(x, y) for s, x, y in all_rows if s // 4 % 2 == 1]
        before = BEFORE.get(game, [0.0, 1.0]) if len(all_rows[0][1]) > 1 else [0.0, 1.0]
        w = fit(train)
        ends = {s: y for s, _, y in all_rows}
        won = sum(ends.values()) / len(ends)
        print(f"{game}: {len(ends)} games, {len(all_rows)} positions, the first seat won {100 * won:.0f}%")
        print("  held-out games, as the evaluation says (log loss, Brier): %.3f %.3f" % scores(test, before))
        print("  held-out games, fitted on the others:                    %.3f %.3f" % scores(test, w))
        print("  shown → won, by tenths, as the evaluation says:", tenths(test, before))
        print("  shown → won, by tenths, fitted:                 ", tenths(test, w))
        w = fit([(x, y) for _, x, y in all_rows])
        print("  fitted on all: " + ", ".join(f"{v:.4f}" for v in w))


if __name__ == "__main__":
    main()
