#!/usr/bin/env python3
"""Replays a fastchess SPRT from its PGN: the pentanomial counts of the complete game pairs in
the order the pairs finished, fastchess's log-likelihood ratio after each pair (its default
`normalized` model, Van den Bergh's "Comments on normalized Elo", section 4.1, as fastchess
computes it), and the first pair at which a bound was crossed, if one was. It serves a test
whose log was lost with a machine while its PGN survived (issue 41, candidate 6), and checks
a log's own reports (`--check-log`: every `Ptnml(0-2)` / `LLR` pair of a fastchess log is
recomputed from the counts it prints). Standard library only.

    python3 scripts/sprt_replay.py PGN NEW_NAME [ELO0 ELO1 ALPHA BETA]
    python3 scripts/sprt_replay.py --check-log LOG [ELO0 ELO1]

Defaults: elo0 0, elo1 10, alpha = beta = 0.05 (scripts/sprt.sh's).
"""

import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'benches'))
from pgn_tables import games_of, read  # noqa: E402  (benches/pgn_tables.py reads the PGN)

USAGE = """usage: sprt_replay.py PGN NEW_NAME [ELO0 ELO1 ALPHA BETA]
       sprt_replay.py --check-log LOG [ELO0 ELO1]"""

# fastchess prints the LLR to two decimals: a replay within half of that (0.005), plus slack
# for the root finder's last digit (0.001), reproduces the printed number.
LOG_TOLERANCE = 0.006


def itp(f, a, b, f_a, f_b, k_1, k_2, n_0, eps):
    """The ITP root finder (Oliveira and Takahashi 2020) with fastchess's parameters, so that the
    replay rounds as fastchess does."""
    if f_a > 0:
        a, b, f_a, f_b = b, a, f_b, f_a
    n_half = math.ceil(math.log2(abs(b - a) / (2.0 * eps)))
    n_max = n_half + n_0
    i = 0
    while abs(b - a) > 2.0 * eps:
        x_half = (a + b) / 2.0
        r = eps * 2.0 ** (n_max - i) - (b - a) / 2.0
        delta = k_1 * abs(b - a) ** k_2
        if math.isinf(f_a) or math.isinf(f_b):
            x_f = x_half
        else:
            x_f = (f_b * a - f_a * b) / (f_b - f_a)
        sigma = math.copysign(1.0, x_half - x_f) if x_half != x_f else 0.0
        x_t = x_f + sigma * delta if delta <= abs(x_half - x_f) else x_half
        x_itp = x_t if abs(x_t - x_half) <= r else x_half - sigma * r
        f_itp = f(x_itp)
        if f_itp == 0.0:
            a = b = x_itp
        elif f_itp < 0:
            a, f_a = x_itp, f_itp
        else:
            b, f_b = x_itp, f_itp
        i += 1
    return (a + b) / 2.0


def llr_normalized(total, scores, probs, t0, t1):
    """fastchess's `getLLR_normalized`: the generalised log-likelihood ratio of normalised Elo
    t1 against t0, each maximum-likelihood distribution found by the iteration of section 4.1."""
    n = len(scores)

    def mle(mu_ref, t_star):
        p = [1.0 / n] * n
        for _ in range(10):
            mu = sum(s * q for s, q in zip(scores, p))
            var = sum(q * (s - mu) ** 2 for s, q in zip(scores, p))
            sd = math.sqrt(var)
            phi = [a - mu_ref - 0.5 * t_star * sd * (1.0 + ((a - mu) / sd) ** 2) for a in scores]
            lo, hi = -1.0 / max(phi), -1.0 / min(phi)
            theta = itp(lambda x: sum(ph * f / (1.0 + x * f) for ph, f in zip(probs, phi)),
                        lo, hi, math.inf, -math.inf, 0.1, 2.0, 0.99, 1e-7)
            new = [ph / (1.0 + theta * f) for ph, f in zip(probs, phi)]
            diff = max(abs(x - y) for x, y in zip(new, p))
            p = new
            if diff < 1e-4:
                break
        return p

    p0, p1 = mle(0.5, t0), mle(0.5, t1)
    return total * sum(ph * (math.log(b) - math.log(a)) for ph, a, b in zip(probs, p0, p1))


def llr_of_ptnml(ptnml, elo0, elo1):
    """The LLR of pentanomial counts [LL, LD, WL+DD, WD, WW] as fastchess reports it (each count
    regularised by 1e-3 when zero)."""
    counts = [c if c > 0 else 1e-3 for c in ptnml]
    total = sum(counts)
    probs = [c / total for c in counts]
    scale = math.sqrt(2.0) / (800.0 / math.log(10))
    return llr_normalized(total, [0.0, 0.25, 0.5, 0.75, 1.0], probs, elo0 * scale, elo1 * scale)


def elo_of_ptnml(ptnml):
    """Logistic Elo and its 95 % half-width from the pair scores, as fastchess prints them."""
    n = sum(ptnml)
    scores = [0.0, 0.25, 0.5, 0.75, 1.0]
    mu = sum(s * c for s, c in zip(scores, ptnml)) / n
    var = sum(c * (s - mu) ** 2 for s, c in zip(scores, ptnml)) / n
    elo = lambda x: -400.0 * math.log10(1.0 / x - 1.0)
    half = 1.959963984540054 * math.sqrt(var / n)
    return elo(mu), (elo(mu + half) - elo(mu - half)) / 2.0


def pairs_in_order(text, new):
    """NEW's pair results (points 0, 0.5, …, 2 over the pair) in the order each pair's second
    game ended, the PGN's order of games."""
    open_rounds, done = {}, []
    for h, _ in games_of(text):
        points = {'1-0': 1.0, '0-1': 0.0, '1/2-1/2': 0.5}.get(h.get('Result'))
        if points is None or new not in (h.get('White'), h.get('Black')):
            continue
        if h.get('White') != new:
            points = 1.0 - points
        rnd = h.get('Round')
        if rnd in open_rounds:
            done.append(open_rounds.pop(rnd) + points)
        else:
            open_rounds[rnd] = points
    return done, sorted(open_rounds)


def replay(pairs, elo0, elo1, alpha, beta):
    """The pentanomial after all pairs, the LLR, and (pair number, LLR, bound) of the first
    crossing, or None."""
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    ptnml = [0] * 5
    crossed = None
    for i, p in enumerate(pairs, 1):
        ptnml[int(round(p * 2))] += 1
        if crossed is None:
            llr = llr_of_ptnml(ptnml, elo0, elo1)
            if llr <= lower or llr >= upper:
                crossed = (i, llr, 'H0' if llr <= lower else 'H1')
    return ptnml, llr_of_ptnml(ptnml, elo0, elo1), crossed, (lower, upper)


REPORT = re.compile(r'Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\].*?\nLLR: (-?[\d.]+)')


def check_log(text, elo0, elo1):
    """Each (Ptnml, fastchess's LLR, the replay's LLR) a log reports."""
    out = []
    for m in REPORT.finditer(text):
        ptnml = [int(x) for x in m.groups()[:5]]
        out.append((ptnml, float(m.group(6)), llr_of_ptnml(ptnml, elo0, elo1)))
    return out


def main(argv):
    try:
        if argv[1:2] == ['--check-log'] and len(argv) in (3, 5):
            elo0, elo1 = (float(x) for x in (argv[3:5] or ['0', '10']))
            rows = check_log(read(argv[2]), elo0, elo1)
            if not rows:
                print(f'sprt_replay.py: no Ptnml/LLR report in {argv[2]}', file=sys.stderr)
                return 1
            worst = max(abs(a - b) for _, a, b in rows)
            for ptnml, theirs, ours in rows:
                print(f'{ptnml}: fastchess {theirs:+.2f}, replay {ours:+.3f}')
            print(f'{len(rows)} reports, largest difference {worst:.3f}')
            return 0 if worst <= LOG_TOLERANCE else 1
        if len(argv) not in (3, 7):
            print(USAGE, file=sys.stderr)
            return 2
        elo0, elo1, alpha, beta = (float(x) for x in (argv[3:7] or ['0', '10', '0.05', '0.05']))
        pairs, unpaired = pairs_in_order(read(argv[1]), argv[2])
    except (OSError, ValueError, EOFError, UnicodeDecodeError) as e:
        print(f'sprt_replay.py: {e}', file=sys.stderr)
        return 1
    if not pairs:
        print(f'sprt_replay.py: no complete game pair for {argv[2]!r} in {argv[1]}',
              file=sys.stderr)
        return 1
    ptnml, llr, crossed, (lower, upper) = replay(pairs, elo0, elo1, alpha, beta)
    elo, half = elo_of_ptnml(ptnml)
    games = 2 * len(pairs)
    print(f'{len(pairs)} pairs ({games} games), unpaired rounds: {unpaired or "none"}')
    print(f'Ptnml(0-2): {ptnml}')
    print(f'Elo: {elo:+.2f} +/- {half:.2f}')
    print(f'LLR: {llr:+.2f} ({lower:.2f}, {upper:.2f}) [{elo0:.2f}, {elo1:.2f}]')
    if crossed:
        print(f'first crossing: pair {crossed[0]} (game {2 * crossed[0]}), LLR {crossed[1]:+.2f},'
              f' {crossed[2]}')
    else:
        print('first crossing: none')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
