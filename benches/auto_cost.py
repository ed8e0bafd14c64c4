#!/usr/bin/env python3
"""What OM_Mode=auto costs where its resources condition does not hold (issue 38): the same
positions searched by OM_Mode=off and OM_Mode=auto at a fixed node limit (where auto is
alpha-beta: the same move and node count, tests/it/om_auto_gate.rs), timed move by move,
alternating the two engines so that machine noise falls on both. The difference is the
fit: scoring the opponent's moves of the game before each search.

    python3 benches/auto_cost.py [--nosce target/release/nosce] [--games 3] [--nodes 6000]

Positions: bench.epd and every position of the first N games of a kept match.
"""
import argparse
import statistics
import subprocess
import time

import chess
import chess.pgn

PGN = "matches/2026-11-26-nnue-toga2-goal/default-vs-toga2-600.pgn"


class Engine:
    def __init__(self, path, mode):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name OM_Mode value {mode}")
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("auto_cost.py: the engine ended")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def search(self, position, go):
        self.send(position)
        t = time.perf_counter()
        self.send(go)
        lines = self.wait("bestmove")
        return time.perf_counter() - t, lines

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def positions(games):
    out = [f"position fen {l.strip()}" for l in open("bench.epd") if l.strip()]
    with open(PGN) as f:
        for _ in range(games):
            g = chess.pgn.read_game(f)
            if g is None:
                break
            start = g.board().fen()
            moves = [m.uci() for m in g.mainline_moves()]
            for i in range(len(moves)):
                out.append(f"position fen {start} moves {' '.join(moves[:i])}")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nosce", default="target/release/nosce")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--nodes", type=int, default=6000)
    a = ap.parse_args()
    off, auto = Engine(a.nosce, "off"), Engine(a.nosce, "auto")
    go = f"go nodes {a.nodes}"
    t_off, t_auto, fits, same = [], [], 0, 0
    ps = positions(a.games)
    for p in ps:
        d0, l0 = off.search(p, go)
        d1, l1 = auto.search(p, go)
        t_off.append(d0)
        t_auto.append(d1)
        fits += any("om model " in l for l in l1)
        same += l0[-1] == l1[-1]
    off.close()
    auto.close()
    mo, ma = statistics.mean(t_off) * 1000, statistics.mean(t_auto) * 1000
    print(f"{len(ps)} positions at {go}: the same bestmove in {same}")
    print(f"off  {mo:.2f} ms a move (median {statistics.median(t_off) * 1000:.2f})")
    print(f"auto {ma:.2f} ms a move (median {statistics.median(t_auto) * 1000:.2f}), "
          f"a fit reported on {fits}")
    print(f"the fit's cost: {ma - mo:+.2f} ms a move ({(ma / mo - 1) * 100:+.1f} %)")


if __name__ == "__main__":
    main()
