#!/usr/bin/env python3
"""Rebuilds fastchess's state file of an SPRT from its PGN, so that a test whose state was
lost with a machine resumes where its kept games end (PLAN.md, amendment of 2026-12-01).

    python3 rebuild_state.py OUTDIR NEW_NAME [--from-log]

OUTDIR holds `games.pgn` (the kept games, unpacked) and `state.json`, the state a fresh start
of the same `sprt.sh` command wrote before its first game finished (start it, interrupt it
with Ctrl-C after a second): its settings and this machine's paths are kept, its statistics
are replaced by those of the complete game pairs in `games.pgn`, counted from NEW_NAME's
side (fastchess plays each opening twice, colours reversed, as one round). A trailing game
whose pair never finished is moved to `unpaired-ROUND.pgn` beside it, so that the resumed
round of that number is not mixed with it. Standard library only.
"""

import json
import re
import sys
from collections import defaultdict
from pathlib import Path


def games_of(text):
    """The games of a PGN text, each as (its text, its headers)."""
    parts = text.split('[Event ')[1:]
    out = []
    for p in parts:
        g = '[Event ' + p
        headers = dict(re.findall(r'^\[(\w+) "(.*)"\]$', g, re.M))
        out.append((g, headers))
    return out


FINISHED = re.compile(r'^Finished game (\d+) \((\S+) vs (\S+)\): (\S+)', re.M)


def games_of_log(text):
    """The finished games of a fastchess log as PGN-like headers (a later line of the same
    game number, from a restarted segment, replaces an earlier one)."""
    by_number = {}
    for number, white, black, result in FINISHED.findall(text):
        n = int(number)
        by_number[n] = ('', dict(Round=str((n + 1) // 2), White=white, Black=black,
                                 Result=result))
    return [by_number[n] for n in sorted(by_number)]


def score(headers, new):
    """NEW's points in one game, or None for an unfinished one."""
    points = {'1-0': 1.0, '0-1': 0.0, '1/2-1/2': 0.5}.get(headers.get('Result'))
    if points is None:
        return None
    return points if headers.get('White') == new else 1.0 - points


def stats(games, new):
    """fastchess's statistics of the complete pairs, and the rounds left unpaired."""
    rounds = defaultdict(list)
    for _, h in games:
        s = score(h, new)
        if s is not None:
            rounds[h['Round']].append(s)
    st = dict(wins=0, losses=0, draws=0, penta_WW=0, penta_WD=0, penta_WL=0,
              penta_DD=0, penta_LD=0, penta_LL=0)
    unpaired = []
    for rnd, pts in rounds.items():
        if len(pts) != 2:
            unpaired.append(rnd)
            continue
        w, d = pts.count(1.0), pts.count(0.5)
        l = 2 - w - d
        st['wins'] += w
        st['draws'] += d
        st['losses'] += l
        key = {(2, 0): 'WW', (1, 1): 'WD', (1, 0): 'WL', (0, 2): 'DD', (0, 1): 'LD',
               (0, 0): 'LL'}[(w, d)]
        st['penta_' + key] += 1
    return st, unpaired


def main(argv):
    from_log = argv[3:] == ['--from-log']
    if len(argv) != 3 and not (len(argv) == 4 and from_log):
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    out, new = Path(argv[1]), argv[2]
    source, state_file = out / ('log.txt' if from_log else 'games.pgn'), out / 'state.json'
    try:
        text = source.read_text()
        games = games_of_log(text) if from_log else games_of(text)
        state = json.loads(state_file.read_text())
    except (OSError, ValueError) as e:
        print(f'rebuild_state.py: {e}', file=sys.stderr)
        return 1
    st, unpaired = stats(games, new)
    if not games or st['wins'] + st['draws'] + st['losses'] == 0:
        print(f'rebuild_state.py: no complete game pair for {new!r} in {source}', file=sys.stderr)
        return 1
    pair = [k for k in state.get('stats', {}) if k.startswith(new + ' vs ')]
    if len(pair) != 1:
        print(f'rebuild_state.py: {state_file} names no pairing of {new!r}', file=sys.stderr)
        return 1
    if not from_log:
        kept = [g for g, h in games if h['Round'] not in unpaired]
        for rnd in unpaired:
            side = ''.join(g for g, h in games if h['Round'] == rnd)
            (out / f'unpaired-{rnd}.pgn').write_text(side)
        source.write_text(''.join(kept))
    state['stats'] = {pair[0]: st}
    state_file.write_text(json.dumps(state, indent=4) + '\n')
    pairs = sum(v for k, v in st.items() if k.startswith('penta_'))
    ptnml = [st['penta_LL'], st['penta_LD'], st['penta_WL'] + st['penta_DD'], st['penta_WD'],
             st['penta_WW']]
    print(f'{pairs} pairs: W {st["wins"]} D {st["draws"]} L {st["losses"]}, Ptnml(0-2) {ptnml};'
          f' unpaired rounds {"left out" if from_log else "moved aside"}: {unpaired or "none"}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
