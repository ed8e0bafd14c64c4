#!/usr/bin/env python3
"""The drift of nosce's root score across its opponent's moves, from the `s=N` scores that
benches/match.py records (the evidence of OM_Mode=auto's draw value, src/search/draw_value.rs):
per PGN the mean drift per move (each move clamped to ±100 cp, mate scores skipped), and the
correlation of each game's mean drift with nosce's result in it.

Example:
    python3 benches/drift.py A.pgn B.pgn
"""

import re
import statistics
import sys

import chess.pgn


def games(path):
    """(mean drift, nosce's score) per game with at least one sample."""
    out = []
    with open(path, encoding="utf-8") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            side = chess.WHITE if "nosce" in g.headers["White"] else chess.BLACK
            prev, ds = None, []
            for n in g.mainline():
                if n.turn() == side:  # the move was the opponent's
                    continue
                m = re.search(r"s=([+-]?\d+)", n.comment)
                s = int(m.group(1)) if m else None
                if s is None or abs(s) >= 20000:
                    prev = None
                    continue
                if prev is not None:
                    ds.append(max(-100, min(100, s - prev)))
                prev = s
            r = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g.headers["Result"]]
            if ds:
                out.append((statistics.mean(ds), r if side == chess.WHITE else 1.0 - r, len(ds)))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        try:
            gs = games(path)
        except (OSError, KeyError) as e:
            sys.exit(f"drift.py: {path}: {e!r}")
        if len(gs) < 2:
            print(f"{path}: fewer than 2 games with scores (s=N)")
            continue
        n = sum(k for _, _, k in gs)
        mean = sum(d * k for d, _, k in gs) / n
        corr = statistics.correlation([d for d, _, _ in gs], [r for _, r, _ in gs])
        by = {r: [d for d, rr, _ in gs if rr == r] for r in (0.0, 0.5, 1.0)}
        print(f"{path}: {n} samples in {len(gs)} games, mean drift {mean:+.2f} cp/move; "
              f"correlation of a game's mean drift with its result {corr:.2f}; mean drift in "
              + ", ".join(f"{k} ({len(v)}): {statistics.mean(v):+.1f}" for k, v in
                          (("losses", by[0.0]), ("draws", by[0.5]), ("wins", by[1.0])) if v))


if __name__ == "__main__":
    main()
