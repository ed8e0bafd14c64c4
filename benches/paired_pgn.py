#!/usr/bin/env python3
"""Paired comparison of two arms of a match played by `benches/match.py` (issue 38's
time-odds matches: `OM_Mode=auto` against `OM_Mode=off`, the same openings and opponent).

Each PGN holds one arm: engine 1 (named by `--engine`, as in the White/Black headers) against
the same opponent. `match.py` plays round r with opening (r - 1) // 2, engine 1 White in odd
rounds, so the unit is an opening: engine 1's points in its two games. Only openings that
both arms finished are paired. Prints each arm's wins, draws and losses and its score with
Elo ± 95 % (normal approximation on the per-game scores) over the paired games, and over all
its finished games where those differ; then the difference B − A in percentage points with its
95 % interval, Student's paired t, the two-sided p and the one-sided p for "B > A".

    python3 benches/paired_pgn.py --engine target/release/nosce \\
        --a o1-off.pgn --b o1-auto.pgn [--info-log o1-auto-info.log]

With `--info-log` (the file `match.py --info-log` wrote for arm B) it also counts
`OM_Mode=auto`'s decisions: the moves it played as α-β, those on which the clocks gave it
the resources to speculate, and of those the ones on which its fit had also earned its
weight, so that it speculated.

Standard library only (no SciPy on the session machines): the t distribution's tail comes
from the regularised incomplete beta function by its continued fraction (Lentz's method).
"""

import argparse
import math
import sys

import chess.pgn


def betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < eps:
            break
    return h


def betainc(a, b, x):
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lnfront = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
               + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lnfront) * betacf(a, b, x) / a
    return 1.0 - math.exp(lnfront) * betacf(b, a, 1.0 - x) / b


def t_sf(t, df):
    """P(T > t) for Student's t with df degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1.0 - tail


def t_quantile(p, df):
    """The t value with P(T > t) = p (bisection; p in (0, 0.5])."""
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_sf(mid, df) > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def points_by_opening(path, engine):
    """({opening index: [engine's points in its games on that opening]} for the openings whose
    two games finished, [engine's points in every finished game]) from one arm's PGN."""
    out = {}
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError as e:
        sys.exit(f"paired_pgn.py: cannot read {path}: {e}")
    with f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            h = game.headers
            try:
                rnd = int(h.get("Round", ""))
            except ValueError:
                sys.exit(f"paired_pgn.py: {path}: a game without a numeric Round header")
            res = h.get("Result", "*")
            if res not in ("1-0", "0-1", "1/2-1/2"):
                continue
            if h.get("White") == engine:
                pts = {"1-0": 1.0, "0-1": 0.0}.get(res, 0.5)
            elif h.get("Black") == engine:
                pts = {"1-0": 0.0, "0-1": 1.0}.get(res, 0.5)
            else:
                sys.exit(f"paired_pgn.py: {path} round {rnd}: '{engine}' plays neither side")
            out.setdefault((rnd - 1) // 2, []).append(pts)
    every = [p for v in out.values() for p in v]
    return {k: v for k, v in out.items() if len(v) == 2}, every


def fmt_p(p):
    return f"{p:.3g}" if p < 0.995 else f"{p:.4f}"


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def wdl(games):
    """'+W =D -L' of a list of per-game points."""
    w = sum(1 for g in games if g == 1.0)
    d = sum(1 for g in games if g == 0.5)
    return f"+{w} ={d} -{len(games) - w - d}"


def arm_line(name, games, every):
    """One arm over the paired games, and its own count of every finished game when that
    differs (an arm ahead of the other, an opening with one game unfinished)."""
    n = len(games)
    mean = sum(games) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in games) / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n) if n else 0.0
    lo, hi = elo(mean - 1.96 * se), elo(mean + 1.96 * se)
    line = (f"{name}: {n} games {wdl(games)}, score {100 * mean:.1f} %, Elo {elo(mean):+.0f} "
            f"± {(hi - lo) / 2:.0f} (95 %)")
    if len(every) != n:
        line += (f"; all {len(every)} finished games of this arm {wdl(every)}, "
                 f"score {100 * sum(every) / len(every):.1f} %")
    return line


def count_decisions(path):
    """auto's decisions in an info log: `alpha-beta` (the resources gate shut), `gate-open`
    (open, but the fit had not earned its weight: still α-β) and `speculate` (open and
    earned: the hedged root ran). Each decision's `om model` report comes before its gate
    line; a move without one (nothing fitted yet) has not earned."""
    counts = {"alpha-beta": 0, "gate-open": 0, "speculate": 0}
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError as e:
        sys.exit(f"paired_pgn.py: cannot read {path}: {e}")
    model = None
    with f:
        for line in f:
            if "info string om model " in line:
                model = line
            elif "info string om auto: alpha-beta" in line:
                counts["alpha-beta"] += 1
                model = None
            elif "info string om auto: resources to speculate" in line:
                earned = model is not None and " type " in model and "(not earned" not in model
                counts["speculate" if earned else "gate-open"] += 1
                model = None
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="engine 1's name in the PGN headers")
    ap.add_argument("--a", required=True, help="arm A's PGN (the baseline)")
    ap.add_argument("--b", required=True, help="arm B's PGN")
    ap.add_argument("--info-log", default=None, help="arm B's match.py --info-log file")
    args = ap.parse_args()
    a, a_every = points_by_opening(args.a, args.engine)
    b, b_every = points_by_opening(args.b, args.engine)
    keys = sorted(set(a) & set(b))
    if len(keys) < 2:
        sys.exit(f"paired_pgn.py: {len(keys)} opening(s) finished in both arms; need 2")
    print(arm_line("A " + args.a, [p for k in keys for p in a[k]], a_every))
    print(arm_line("B " + args.b, [p for k in keys for p in b[k]], b_every))
    diffs = [(sum(b[k]) - sum(a[k])) / 2 for k in keys]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    se = sd / math.sqrt(n)
    df = n - 1
    if se == 0:
        print(f"B - A: {100 * mean:+.1f} points over {n} openings, no spread (no test)")
    else:
        t = mean / se
        half = t_quantile(0.025, df) * se
        p2 = 2 * t_sf(abs(t), df)
        p1 = t_sf(t, df)
        print(f"B - A: {100 * mean:+.1f} ± {100 * half:.1f} points (95 %) over {n} openings; "
              f"paired t = {t:.2f} (df {df}), p = {fmt_p(p2)} two-sided, {fmt_p(p1)} one-sided "
              "(B > A)")
    if args.info_log:
        c = count_decisions(args.info_log)
        opened = c["gate-open"] + c["speculate"]
        total = c["alpha-beta"] + opened
        share = 100 * opened / total if total else 0.0
        spec = 100 * c["speculate"] / total if total else 0.0
        print(f"auto's decisions (B): {total} moves, {opened} with resources to "
              f"speculate ({share:.1f} %), {c['alpha-beta']} as alpha-beta; speculated "
              f"(the fit's weight earned too) on {c['speculate']} ({spec:.1f} %)")


if __name__ == "__main__":
    main()
