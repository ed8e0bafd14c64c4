#!/usr/bin/env python3
"""Counts what the conformance run's PGNs say: games, score, and every game that did not end
by the rules of chess or the runner's normal end (time losses, illegal moves, disconnects,
stalled connections, crashes), attributed to the engine that caused it. Uses python-chess.

    python3 tally.py A-uci-toga2.pgn B-uci-gnuchess.pgn C-xboard-phalanx.pgn D-uci-prom-toga2.pgn
"""
import collections
import gzip
import os
import re
import sys

import chess.pgn

FAULTS = {
    "time": re.compile(r"loses on time"),
    "illegal": re.compile(r"illegal move"),
    "disconnect": re.compile(r"disconnects|terminates|crash", re.I),
    "stall": re.compile(r"connection stalls"),
}


def reason(game):
    """The runner's reason for the result: the last move's comment tail (fastchess), or the
    result comment (cutechess-cli keeps it in the game's final comment too)."""
    node = game.end()
    text = node.comment or ""
    if "," in text:
        text = text.split(",")[-1]
    return text.strip() or game.headers.get("Termination", "")


def main(paths):
    missing = [p for p in paths if not os.path.exists(p)]
    if not paths or missing:
        sys.exit(f"tally.py: no such PGN file: {', '.join(missing)}" if missing
                 else "usage: tally.py GAMES.pgn [GAMES.pgn ...]")
    print("| file | games | nosce score | time losses | illegal moves | disconnects/crashes | stalls | opponent faults |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        games = score = 0
        ours = {k: 0 for k in FAULTS}
        theirs = []
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                games += 1
                white = game.headers["White"]
                black = game.headers["Black"]
                nosce_white = white.startswith("nosce")
                result = game.headers["Result"]
                points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
                if points is None:
                    theirs.append(f"unfinished ({result})")
                    continue
                score += points if nosce_white else 1 - points
                why = reason(game)
                for kind, pat in FAULTS.items():
                    if pat.search(why):
                        culprit = white if why.startswith("White") or why.startswith(white) else black
                        if culprit.startswith("nosce"):
                            ours[kind] += 1
                            print(f"  nosce fault in {path} round {game.headers.get('Round')}: {why}", file=sys.stderr)
                        else:
                            theirs.append(f"{culprit}: {kind}")
        opp = {}
        for t in theirs:
            opp[t] = opp.get(t, 0) + 1
        opp_txt = ", ".join(f"{k} ×{v}" for k, v in sorted(opp.items())) or "none"
        pct = 100.0 * score / games if games else 0.0
        print(f"| {path} | {games} | {score:g} ({pct:.1f} %) | {ours['time']} | {ours['illegal']} | "
              f"{ours['disconnect']} | {ours['stall']} | {opp_txt} |")
        warnings(path[:-4] + ".log")


def warnings(log):
    """fastchess's warnings about engine output in the run's log, by engine and kind."""
    if os.path.exists(log):
        opener = open
    elif os.path.exists(log + ".gz"):
        log, opener = log + ".gz", gzip.open
    else:
        return
    seen = collections.Counter()
    with opener(log, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"Warning; (.*?) - (?:move \S+ )?from (\S+)", line)
            if m:
                seen[(m.group(2), m.group(1))] += 1
    for (engine, kind), n in sorted(seen.items()):
        print(f"|   fastchess warning | {engine}: {kind} | {n} | | | | | |")


if __name__ == "__main__":
    main(sys.argv[1:])
