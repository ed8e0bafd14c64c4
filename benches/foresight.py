#!/usr/bin/env python3
"""How late an engine saw the games it lost coming (issue 41: where the gap to a stronger
engine lies), from the scores in the PGN's move comments, as `benches/surprises.py` reads them.

    python3 benches/foresight.py GAMES.pgn[.gz] [...]

For each game an engine lost, the first of its opponent's moves whose own score reached +1
pawn (then +2) marks when the winner saw its advantage; the loser's own score at its next move
says what the loser thought of the same position one ply later. Printed for each engine that
lost a game: games lost, and for each threshold the games where the winner reached it, the
median ply (from the game's first recorded move) at which it did, and the quartiles of the
loser's own score right after. A loser that saw what the winner saw would read about minus the
threshold; a score near 0 means it did not see it yet. Standard library only.
"""

import statistics
import sys
from collections import defaultdict

from pgn_tables import games_of, main
from surprises import own_scores

THRESHOLDS = (1.0, 2.0)


def lag(body, first, loser):
    """For each threshold, (ply, the loser's score) at the winner's first move at or above it,
    or None; `loser` is the losing side (0 White, 1 Black)."""
    scores = own_scores(body, first)
    winner = 1 - loser
    # Each side's scored moves, by ply: the side that moves first plays plies 0, 2, 4...
    plies = {side: [(2 * k + (side - first) % 2, s) for k, (s, _) in enumerate(scores[side])]
             for side in (0, 1)}
    out = []
    for t in THRESHOLDS:
        hit = next((p for p, s in plies[winner] if s >= t), None)
        after = None if hit is None else next((s for p, s in plies[loser] if p > hit), None)
        out.append(None if after is None else (hit, after))
    return out


def measure(texts):
    acc = defaultdict(lambda: dict(lost=0, seen=[[] for _ in THRESHOLDS]))
    for text in texts:
        for h, body in games_of(text):
            result = h.get('Result')
            if result not in ('1-0', '0-1'):
                continue
            loser = 0 if result == '0-1' else 1
            first = 1 if ' b ' in h.get('FEN', ' w ') else 0
            a = acc[h.get('White' if loser == 0 else 'Black', '?')]
            a['lost'] += 1
            for i, found in enumerate(lag(body, first, loser)):
                if found is not None:
                    a['seen'][i].append(found)
    return acc


def row(name, a):
    cells = [name, str(a['lost'])]
    for seen in a['seen']:
        if len(seen) < 2:
            cells += [str(len(seen)), '-', '-']
            continue
        q = statistics.quantiles([s for _, s in seen], n=4)
        cells += [str(len(seen)), f"{statistics.median(p for p, _ in seen):g}",
                  f"{q[0]:+.2f} / {q[1]:+.2f} / {q[2]:+.2f}"]
    return ' | '.join(cells)


HEAD = ('loser | games lost | winner at +1: games | median ply | loser\'s score after'
        ' (quartiles) | winner at +2: games | median ply | loser\'s score after (quartiles)')


if __name__ == '__main__':
    sys.exit(main(sys.argv, __doc__, 'foresight.py', measure, 'no game lost in the input',
                  HEAD, row))
