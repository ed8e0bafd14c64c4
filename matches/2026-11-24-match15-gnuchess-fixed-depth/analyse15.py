"""Match 15b: paired B-A and C-A over the rounds both arms finished; time per nosce move."""
import re, sys, math, statistics
import chess.pgn

def load(path):
    out = {}
    with open(path) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            rnd = int(g.headers["Round"])
            nw = "nosce" in g.headers["White"]
            res = g.headers["Result"]
            pts = 0.5 if res == "1/2-1/2" else (1.0 if (res == "1-0") == nw else 0.0)
            emts, depths = [], []
            for i, node in enumerate(g.mainline()):
                ours = (node.turn() == chess.BLACK) == nw  # the side that just moved
                if not ours:
                    continue
                m = re.search(r"%emt ([\d.]+)", node.comment)
                d = re.search(r"d=(\d+)", node.comment)
                if m: emts.append(float(m.group(1)))
                if d: depths.append(int(d.group(1)))
            out[rnd] = (pts, emts, depths, g.headers.get("Termination", "?"))
    return out

def t_sf(t, df):
    # two-sided p from Student t via the regularized incomplete beta (continued fraction)
    x = df / (df + t * t)
    a, b = df / 2, 0.5
    def betacf(a, b, x):
        qab, qap, qam = a + b, a + 1, a - 1
        c, d = 1.0, 1 - qab * x / qap
        d = 1 / d; h = d
        for m in range(1, 200):
            m2 = 2 * m
            aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d; c = 1 + aa / c; d = 1 / d; h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d; c = 1 + aa / c; d = 1 / d; h *= d * c
        return h
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    ib = math.exp(lbt) * betacf(a, b, x) / a
    return ib

arms = {k: load(f"{k}.pgn") for k in ["A15-ab", "B15-auto", "C15-om"]}
for k, g in arms.items():
    pts = [v[0] for v in g.values()]
    emt = [e for v in g.values() for e in v[1]]
    dep = [d for v in g.values() for d in v[2]]
    term = {}
    for v in g.values(): term[v[3]] = term.get(v[3], 0) + 1
    print(f"{k}: {len(pts)} games, score {sum(pts)/len(pts):.3f}, s per nosce move mean {statistics.mean(emt):.3f} "
          f"median {statistics.median(emt):.3f}, mean depth {statistics.mean(dep):.2f}; {term}")
A = arms["A15-ab"]
for k in ["B15-auto", "C15-om"]:
    X = arms[k]
    common = sorted(set(A) & set(X))
    d = [X[r][0] - A[r][0] for r in common]
    n = len(d); m = statistics.mean(d); sd = statistics.stdev(d)
    t = m / (sd / math.sqrt(n)); p = t_sf(abs(t), n - 1)
    a_s = statistics.mean(A[r][0] for r in common); x_s = statistics.mean(X[r][0] for r in common)
    print(f"{k} - A over rounds {common[0]}..{common[-1]} (n={n}): A {a_s:.3f} {k} {x_s:.3f} "
          f"diff {m*100:+.1f} +- {1.96*sd/math.sqrt(n)*100:.1f} points, paired t {t:.2f} df {n-1} p {p:.4g}")
