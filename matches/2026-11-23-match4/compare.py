import sys, math, re
import chess.pgn
def scores(path, who="nosce"):
    out = {}
    with open(path) as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None: break
            r = int(g.headers["Round"]); res = g.headers["Result"]
            white_is = who in g.headers["White"]
            s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[res]
            out[r] = s if white_is else 1.0 - s
    return out
def t_p(t, df):
    # two-sided p-value of Student's t via the regularized incomplete beta (continued fraction)
    x = df / (df + t * t)
    def betacf(a, b, x):
        qab, qap, qam = a + b, a + 1, a - 1
        c, d = 1.0, 1 - qab * x / qap
        d = 1 / d if abs(d) > 1e-30 else 1e30
        h = d
        for m in range(1, 200):
            m2 = 2 * m
            aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d; d = 1 / d if abs(d) > 1e-30 else 1e30
            c = 1 + aa / c if abs(c) > 1e-30 else 1e30
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d; d = 1 / d if abs(d) > 1e-30 else 1e30
            c = 1 + aa / c if abs(c) > 1e-30 else 1e30
            de = d * c; h *= de
            if abs(de - 1) < 1e-12: break
        return h
    a, b = df / 2, 0.5
    lbeta = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    front = math.exp(a * math.log(x) + b * math.log(1 - x) - lbeta)
    ib = front * betacf(a, b, x) / a if x < (a + 1) / (a + b + 2) else 1 - front * betacf(b, a, 1 - x) / b
    return ib
A, B = scores(sys.argv[1]), scores(sys.argv[2])
common = sorted(set(A) & set(B))
a = [A[k] for k in common]; b = [B[k] for k in common]
n = len(common)
ma, mb = sum(a) / n, sum(b) / n
va = sum((x - ma) ** 2 for x in a) / (n - 1); vb = sum((x - mb) ** 2 for x in b) / (n - 1)
se = math.sqrt(va / n + vb / n)
t = (mb - ma) / se if se > 0 else 0.0
dfw = (va / n + vb / n) ** 2 / ((va / n) ** 2 / (n - 1) + (vb / n) ** 2 / (n - 1)) if se > 0 else 1
d = [y - x for x, y in zip(a, b)]; md = sum(d) / n; vd = sum((x - md) ** 2 for x in d) / (n - 1)
tp = md / math.sqrt(vd / n) if vd > 0 else 0.0
print(f"n={n} A={ma:.3f} B={mb:.3f} diff={mb-ma:+.3f} (95% ±{1.96*se:.3f})")
print(f"Welch t={t:.2f} df={dfw:.1f} p={t_p(t, dfw):.3f};  paired t={tp:.2f} df={n-1} p={t_p(tp, n-1) if vd>0 else 1:.3f}")
