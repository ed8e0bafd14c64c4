#!/usr/bin/env python3
"""How each engine of a fastchess match used its clock (issue 41, item 2: time management
measured, not guessed), from the PGN's move comments `{score/depth 0.311s}`.

    python3 benches/clock_use.py GAMES.pgn[.gz] [...]

For every engine (the PGN's White/Black names): moves timed, mean seconds a move, the mean
by phase (plies of the game 0-19, 20-39, ..., 80+), the lowest clock left after a move over
all its games (the clock rebuilt from the TimeControl header, base+increment, moves counted
from the game's start position; a TimeControl `A/B` gives each side its own, A for White),
how many games it went below a tenth of its base time, and
its losses on time (Termination "time forfeit"). Reads fastchess's comments and
`benches/match.py`'s `[%emt 0.765]`. Standard library only.
"""

import re
import sys
from collections import defaultdict

from pgn_tables import games_of, main

COMMENT = re.compile(r'\{([^}]*)\}')
EMT = re.compile(r'\[%emt (\d+(?:\.\d+)?)\]|(\d+(?:\.\d+)?)s\s*$')
PHASES = ['0-19', '20-39', '40-59', '60-79', '80+']


def move_times(body):
    """The seconds of each move that has a time in its comment, in order."""
    out = []
    for comment in COMMENT.findall(body):
        m = EMT.search(comment)
        if m:
            out.append(float(m.group(1) or m.group(2)))
    return out


def clock_of(tc):
    """(base, increment) seconds of a TimeControl like `4+0.04`, or None."""
    m = re.fullmatch(r'(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)', tc or '')
    return (float(m.group(1)), float(m.group(2))) if m else None


def measure(texts):
    acc = defaultdict(lambda: dict(n=0, total=0.0, phase=defaultdict(list), low=None,
                                   short=0, forfeits=0, games=0))
    for text in texts:
        for h, body in games_of(text):
            tcs = [clock_of(t) for t in h.get('TimeControl', '').split('/')]
            times = move_times(body)
            if None in tcs or not times:
                continue
            tcs = tcs * 2 if len(tcs) == 1 else tcs
            names = [h.get('White', '?'), h.get('Black', '?')]
            # The side to move first: Black when the start position says " b ".
            first = 1 if ' b ' in h.get('FEN', ' w ') else 0
            clock = [tcs[0][0], tcs[1][0]]
            lowest = list(clock)
            for i, t in enumerate(times):
                side = (first + i) % 2
                a = acc[names[side]]
                a['n'] += 1
                a['total'] += t
                a['phase'][PHASES[min(i // 20, 4)]].append(t)
                clock[side] = clock[side] - t + tcs[side][1]
                lowest[side] = min(lowest[side], clock[side])
            result = h.get('Result')
            for side in (0, 1):
                a = acc[names[side]]
                a['games'] += 1
                a['low'] = lowest[side] if a['low'] is None else min(a['low'], lowest[side])
                a['short'] += lowest[side] < tcs[side][0] / 10
                lost = (result == '0-1') if side == 0 else (result == '1-0')
                a['forfeits'] += lost and h.get('Termination') == 'time forfeit'
    return acc


def row(name, a):
    phases = ' | '.join(f'{sum(v) / len(v):.3f}' if (v := a['phase'][p]) else '-'
                        for p in PHASES)
    mean = a['total'] / a['n'] if a['n'] else 0.0
    return (f"{name} | {a['games']} | {a['n']} | {mean:.3f} | {phases} | {a['low']:.2f} |"
            f" {a['short']} | {a['forfeits']}")


HEAD = ('engine | games | moves | s/move | ' + ' | '.join(PHASES) +
        ' | lowest clock left (s) | games under base/10 | time losses')


if __name__ == '__main__':
    sys.exit(main(sys.argv, __doc__, 'clock_use.py', measure,
                  'no timed game (TimeControl base+inc) in the input', HEAD, row))
