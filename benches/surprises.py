#!/usr/bin/env python3
"""How often each engine of a match was surprised by its opponent's reply (issue 41: where
the gap to a stronger engine lies), from the scores in the PGN's move comments
(fastchess's `{+0.35/14 0.311s}`, pawns; `benches/match.py`'s `{ ... d=14 s=+35 }`,
centipawns).

    python3 benches/surprises.py GAMES.pgn[.gz] [...]

Each engine's own score of its position, from its own side, is read at each of its moves.
Between two consecutive moves of the same engine the opponent has made one reply: when the
engine's score falls by a pawn or more (from a score inside ±3 pawns), the reply showed
something the engine's search had not seen two plies earlier — a tactic beyond its horizon
or a position its evaluation misjudged. A rise by a pawn or more is the other side of it:
the opponent's reply gave away what the engine had not expected. A mate score counts as
±100 pawns. Printed for each engine (the PGN's White/Black names): games, moves scored,
falls of 1 and of 2 pawns or more (count and per 100 scored moves), rises of 1 or more, and
the falls in the games it lost, and the falls by the reply that came before them: a quiet
move, a capture, or a check (read from the SAN). Standard library only.
"""

import re
import sys
from collections import defaultdict

from pgn_tables import games_of, main

# A comment, or a move in SAN (the tokens that are neither move numbers nor results).
TOKEN = re.compile(r'\{([^}]*)\}|(?<![\w.])([KQRBNa-hO][^\s{}()]*)')
# fastchess: `+0.35/14`, `-M5/20` (pawns, at the comment's start).
SCORE = re.compile(r'^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+')
# benches/match.py: `s=+35` (centipawns; a mate is reported as 100000 less its distance).
CENTIPAWNS = re.compile(r'\bs=([+-]?\d+)\b')


def score_of(comment):
    """The score in pawns of a move comment, from the mover's side, or None."""
    m = SCORE.search(comment)
    if m:
        sign = -1.0 if m.group(1) == '-' else 1.0
        return sign * (100.0 if m.group(2) else float(m.group(3)))
    m = CENTIPAWNS.search(comment)
    if m:
        cp = int(m.group(1))
        return 100.0 if cp >= 90000 else -100.0 if cp <= -90000 else cp / 100.0
    return None


def own_scores(body, first):
    """Each side's scored moves in order, [White's, Black's], each as (its score, the
    opponent's reply after it in SAN, or '' at the game's end); `first` is the side that
    moves first (0 White, 1 Black)."""
    moves = []  # [side, score or None] for each move, in order
    sans = []
    for comment, san in TOKEN.findall(body):
        if san:
            moves.append([(first + len(moves)) % 2, None])
            sans.append(san)
        elif moves and moves[-1][1] is None:
            moves[-1][1] = score_of(comment)
    out = [[], []]
    for i, (side, score) in enumerate(moves):
        if score is not None:
            out[side].append((score, sans[i + 1] if i + 1 < len(sans) else ''))
    return out


def kind_of(san):
    """`check`, `capture` or `quiet`: what a reply in SAN was."""
    return 'check' if '+' in san or '#' in san else 'capture' if 'x' in san else 'quiet'


def measure(texts):
    acc = defaultdict(lambda: dict(games=0, moves=0, fall1=0, fall2=0, rise1=0, lost_falls=0,
                                   quiet=0, capture=0, check=0))
    for text in texts:
        for h, body in games_of(text):
            first = 1 if ' b ' in h.get('FEN', ' w ') else 0
            scores = own_scores(body, first)
            if not scores[0] and not scores[1]:
                continue
            names = [h.get('White', '?'), h.get('Black', '?')]
            result = h.get('Result')
            for side in (0, 1):
                a = acc[names[side]]
                a['games'] += 1
                v = scores[side]
                a['moves'] += len(v)
                lost = result == ('0-1' if side == 0 else '1-0')
                for (before, reply), (after, _) in zip(v, v[1:]):
                    if abs(before) >= 3:
                        continue
                    if before - after >= 1:
                        a['fall1'] += 1
                        a['lost_falls'] += lost
                        a[kind_of(reply)] += 1
                    if before - after >= 2:
                        a['fall2'] += 1
                    if after - before >= 1:
                        a['rise1'] += 1
    return acc


def row(name, a):
    def per(k):
        return f"{100 * a[k] / a['moves']:.2f}" if a['moves'] else '-'
    return (f"{name} | {a['games']} | {a['moves']} | {a['fall1']} | {per('fall1')} |"
            f" {a['fall2']} | {per('fall2')} | {a['rise1']} | {a['lost_falls']} |"
            f" {a['quiet']} / {a['capture']} / {a['check']}")


HEAD = ('engine | games | moves scored | falls >= 1 | per 100 | falls >= 2 | per 100 |'
        ' rises >= 1 | falls in games lost | falls after a quiet / capture / checking reply')


if __name__ == '__main__':
    sys.exit(main(sys.argv, __doc__, 'surprises.py', measure, 'no scored move in the input',
                  HEAD, row))
