#!/usr/bin/env python3
"""The drift of nosce's root score across its opponent's moves, from the `s=N` scores that
benches/match.py records (the evidence of OM_Mode=auto's draw value, src/search/draw_value.rs):
per PGN the mean drift per move (each move clamped to ±100 cp, mate scores skipped), and the
correlation of each game's mean drift with nosce's result in it.

Example:
    python3 benches/drift.py A.pgn B.pgn

With `--contempt CEILING` it also replays the estimator of src/search/om/draw_value.rs over
the games in their order (earlier games' samples, at most 400 carried with their mean, 6 zero
pseudo-samples, times 8 moves, within ±CEILING) and prints the contempt each game was played
with, and nosce's score and draw rate by the contempt's sign:
    python3 benches/drift.py --contempt 30 B.pgn
"""

import re
import statistics
import sys

import chess.pgn


CARRIED, PRIOR, HORIZON = 400, 6.0, 8.0


def contempts(gs, ceiling):
    """The contempt each game was played with: the estimator over the earlier games."""
    total, n, out = 0.0, 0, []
    for mean, _, k in gs:
        kept = min(n, CARRIED)
        carried = total * kept / n if n else 0.0
        c = round(carried / (kept + PRIOR) * HORIZON)
        out.append(max(-ceiling, min(ceiling, c)))
        total, n = carried + mean * k, kept + k
    return out


def games(path):
    """(mean drift, nosce's score, samples) per game with at least one sample, in order."""
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
    args = sys.argv[1:]
    ceiling = None
    if args[:1] == ["--contempt"]:
        try:
            ceiling = int(args[1])
        except (IndexError, ValueError):
            sys.exit("drift.py: --contempt needs a ceiling in centipawns")
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    for path in args:
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
        if ceiling is not None:
            cs = contempts(gs, ceiling)
            print(f"  contempt per game: mean {statistics.mean(cs):+.1f}, at +{ceiling}: "
                  f"{sum(c == ceiling for c in cs)}, at -{ceiling}: {sum(c == -ceiling for c in cs)}, "
                  f"below 0: {sum(c < 0 for c in cs)} of {len(cs)}")
            for name, keep in (("contempt > 0", lambda c: c > 0), ("contempt <= 0", lambda c: c <= 0)):
                rs = [r for (_, r, _), c in zip(gs, cs) if keep(c)]
                if rs:
                    print(f"  {name}: {len(rs)} games, score {100 * statistics.mean(rs):.1f} %, "
                          f"draws {100 * sum(r == 0.5 for r in rs) / len(rs):.1f} %")


if __name__ == "__main__":
    main()
