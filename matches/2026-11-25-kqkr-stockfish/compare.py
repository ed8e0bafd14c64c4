#!/usr/bin/env python3
"""The tests of PLAN.txt: per position, each OM cell against cell (a).

    python3 compare.py a-alphabeta b-engine c-fitted

Game length (51 for a game the K+Q side did not win): Welch's two-sided t-test (p from
Student's t with Welch-Satterthwaite df). Saved positions: Fisher's exact two-sided test.
Standard library only.
"""
import csv
import math
import sys


def games(folder):
    out = {}
    with open(f"{folder}/games.csv") as f:
        for r in csv.DictReader(f):
            won = r["outcome"] in ("conversion", "mate")
            length = int(r["length"]) if won else 51
            out.setdefault(int(r["position"]), []).append((length, not won))
    return out


def t_sf(t, df):
    """Two-sided p of Student's t (regularised incomplete beta, continued fraction)."""
    x = df / (df + t * t)
    a, b = df / 2.0, 0.5

    def betacf(a, b, x):
        qab, qap, qam = a + b, a + 1, a - 1
        c, d = 1.0, 1 - qab * x / qap
        d = 1 / d if abs(d) > 1e-300 else 1e300
        h = d
        for m in range(1, 300):
            m2 = 2 * m
            aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            d = 1 / d if abs(d) > 1e-300 else 1e300
            c = 1 + aa / c if abs(c) > 1e-300 else 1e300
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            d = 1 / d if abs(d) > 1e-300 else 1e300
            c = 1 + aa / c if abs(c) > 1e-300 else 1e300
            h *= d * c
        return h

    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log(1 - x)) / a
    return min(1.0, front * betacf(a, b, x))


def welch(x, y):
    mx, my = sum(x) / len(x), sum(y) / len(y)
    vx = sum((v - mx) ** 2 for v in x) / (len(x) - 1)
    vy = sum((v - my) ** 2 for v in y) / (len(y) - 1)
    se2 = vx / len(x) + vy / len(y)
    if se2 == 0:
        return my - mx, float("nan"), float("nan"), 1.0 if mx == my else 0.0
    t = (my - mx) / math.sqrt(se2)
    df = se2 ** 2 / ((vx / len(x)) ** 2 / (len(x) - 1) + (vy / len(y)) ** 2 / (len(y) - 1))
    return my - mx, t, df, t_sf(t, df)


def fisher(a, b, c, d):
    """Two-sided Fisher exact p for [[a, b], [c, d]]."""
    n1, n2, k = a + b, c + d, a + c
    n = n1 + n2

    def pr(x):
        return math.comb(n1, x) * math.comb(n2, k - x) / math.comb(n, k)

    p0 = pr(a)
    lo, hi = max(0, k - n2), min(k, n1)
    return min(1.0, sum(pr(x) for x in range(lo, hi + 1) if pr(x) <= p0 * (1 + 1e-9)))


def main():
    base, *cells = sys.argv[1:]
    a = games(base)
    print(f"base: {base}")
    for cell in cells:
        b = games(cell)
        for pos in sorted(a):
            la = [g[0] for g in a[pos]]
            lb = [g[0] for g in b[pos]]
            sa = sum(g[1] for g in a[pos])
            sb = sum(g[1] for g in b[pos])
            diff, t, df, p = welch(la, lb)
            pf = fisher(sb, len(lb) - sb, sa, len(la) - sa)
            print(
                f"{cell} position {pos}: length {sum(lb) / len(lb):.2f} vs {sum(la) / len(la):.2f}"
                f" (diff {diff:+.2f}, Welch t {t:.2f}, df {df:.1f}, p {p:.4f});"
                f" saved {sb}/{len(lb)} vs {sa}/{len(la)} (Fisher p {pf:.4f})"
            )


if __name__ == "__main__":
    main()
