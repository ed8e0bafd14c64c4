#!/usr/bin/env python3
"""nosce's time (emt) and depth (d=N) per move by game phase (plies 0-19, 20-39, ..., 80+),
from PGNs written by benches/match.py: compares the arms of a paired match where their games
are still alike (the opening) and where they differ.

Example:
    python3 benches/depth_by_phase.py A.pgn B.pgn
"""

import re
import statistics
import sys

import chess.pgn


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        bins = {}
        try:
            f = open(path, encoding="utf-8")
        except OSError as e:
            sys.exit(f"depth_by_phase.py: {e}")
        with f:
            while (g := chess.pgn.read_game(f)) is not None:
                side = chess.WHITE if "nosce" in g.headers["White"] else chess.BLACK
                for ply, n in enumerate(g.mainline()):
                    emt = re.search(r"%emt ([\d.]+)", n.comment)
                    d = re.search(r"d=(\d+)", n.comment)
                    if n.turn() != side and emt and d:  # nosce's move
                        bins.setdefault(min(ply // 20, 4), []).append((float(emt.group(1)), int(d.group(1))))
        print(path)
        for b in sorted(bins):
            v = bins[b]
            top = f"{b * 20 + 19:3d}" if b < 4 else "   +"
            print(f"  plies {b * 20:3d}-{top} n={len(v):5d} emt {statistics.mean(x[0] for x in v):.3f} "
                  f"depth {statistics.mean(x[1] for x in v):.2f}")


if __name__ == "__main__":
    main()
