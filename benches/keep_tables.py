#!/usr/bin/env python3
"""Time and nodes to depth of two nosce binaries on the positions of real games, searched in
game order as a GUI sends them (`position fen START moves ...`, `go depth D`, `ucinewgame`
only between games): what a search gains from what the previous move left behind — the
thread pool's ordering tables (src/search/pool.rs) as well as the transposition table.

    python3 benches/keep_tables.py --a OLD_BINARY --b target/release/nosce \\
        --games 4 --depth 11 --threads 1

The two binaries play the same positions, game by game alternately, so that machine noise
falls on both. With `--threads 1` the node counts are exact (a function of the binary and
the positions); times are wall-clock. Prints one Markdown row per binary and the ratios b/a.
"""
import argparse
import subprocess
import sys
import time

import chess.pgn

PGN = "matches/2026-11-26-nnue-toga2-goal/default-vs-toga2-600.pgn"


class Engine:
    def __init__(self, path, threads):
        try:
            self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True, bufsize=1)
        except OSError as e:
            sys.exit(f"keep_tables.py: cannot run {path!r}: {e.strerror}")
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name Threads value {threads}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, prefix):
        last = ""
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("keep_tables.py: the engine ended")
            if line.startswith("info") and " nodes " in line:
                last = line
            if line.startswith(prefix):
                return line, last

    def search(self, fen, moves, depth):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        start = time.perf_counter()
        self.send(f"go depth {depth}")
        _, info = self.wait("bestmove")
        ms = (time.perf_counter() - start) * 1000
        words = info.split()
        nodes = int(words[words.index("nodes") + 1]) if "nodes" in words else 0
        return nodes, ms

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def games(path, n, plies):
    out = []
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        sys.exit(f"keep_tables.py: {e}")
    with f:
        while len(out) < n and (g := chess.pgn.read_game(f)) is not None:
            game = (g.board().fen(), [m.uci() for m in g.mainline_moves()][:plies])
            # Some games of the kept matches begin alike for many moves: count each start once.
            if game not in out:
                out.append(game)
    if not out:
        sys.exit(f"keep_tables.py: no games in {path}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="the baseline binary")
    ap.add_argument("--b", default="target/release/nosce")
    ap.add_argument("--pgn", default=PGN)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--plies", type=int, default=80, help="positions per game, from the start")
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    if args.games < 1 or args.depth < 1 or args.threads < 1 or args.plies < 1:
        sys.exit("keep_tables.py: --games, --plies, --depth and --threads must be positive")
    engines = {k: Engine(p, args.threads) for k, p in (("a", args.a), ("b", args.b))}
    total = {k: [0, 0.0, 0] for k in engines}
    for gi, (fen, moves) in enumerate(games(args.pgn, args.games, args.plies)):
        order = ("a", "b") if gi % 2 == 0 else ("b", "a")
        for k in order:
            e = engines[k]
            e.new_game()
            for ply in range(min(len(moves), args.plies)):
                n, ms = e.search(fen, moves[:ply], args.depth)
                total[k][0] += n
                total[k][1] += ms
                total[k][2] += 1
        print(f"  game {gi + 1}: a {total['a'][0]} nodes {total['a'][1]:.0f} ms, "
              f"b {total['b'][0]} nodes {total['b'][1]:.0f} ms", file=sys.stderr)
    for e in engines.values():
        e.quit()
    print(f"depth {args.depth}, Threads={args.threads}, {total['a'][2]} positions "
          f"({args.games} games of {args.pgn} with distinct starts, first {args.plies} plies)\n")
    print("| binary | nodes | time |")
    print("|---|---|---|")
    for k, path in (("a", args.a), ("b", args.b)):
        print(f"| {k}: `{path}` | {total[k][0]:,} | {total[k][1] / 1000:.1f} s |")
    print(f"| b / a | {total['b'][0] / max(total['a'][0], 1):.3f} | "
          f"{total['b'][1] / max(total['a'][1], 1e-9):.3f} |")


if __name__ == "__main__":
    main()
