#!/usr/bin/env python3
"""What nosce's opponent-model moves cost by α-β's own measure.

Replays the games of a PGN and, at each move of the player whose name contains --player
(nosce in OM_Mode=auto, say), asks a plain α-β nosce for the value of the best move and of
the move actually played (`go depth D searchmoves M`), both at the same depth. A move that
differs from α-β's choice is a *deviation*; its cost is the difference of the two values in
centipawns (mate scores clamped to ±1000). Prints the number of moves, deviations, their mean
cost with a 95 % interval, and the share of deviations costing more than 50 cp.

A deviation can also come from search noise (a different table, a different time), so run
the same script on the α-β games of a paired match for the baseline.

Example:
    python3 benches/deviation_cost.py --pgn B.pgn --player nosce --depth 10
"""

import argparse
import math
import statistics
import sys

import chess
import chess.engine
import chess.pgn

CLAMP = 1000


def value(engine, board, depth, move=None):
    """α-β's value of the position (or of `move` in it), side to move's view."""
    limit = chess.engine.Limit(depth=depth)
    info = engine.analyse(board, limit, root_moves=[move] if move else None)
    score = info["score"].pov(board.turn).score(mate_score=CLAMP * 10)
    return max(-CLAMP, min(CLAMP, score)), info.get("pv", [None])[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--player", required=True, help="substring of the player's name (case-insensitive)")
    ap.add_argument("--engine", default="target/release/nosce")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--games", type=int, default=10_000)
    args = ap.parse_args()
    if args.depth < 1:
        sys.exit("deviation_cost.py: --depth must be at least 1")
    try:
        pgn = open(args.pgn, encoding="utf-8")
    except OSError as e:
        sys.exit(f"deviation_cost.py: {e}")
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    moves = 0
    costs = []
    try:
        for _ in range(args.games):
            game = chess.pgn.read_game(pgn)
            if game is None:
                break
            who = args.player.lower()
            if who in game.headers.get("White", "").lower():
                side = chess.WHITE
            elif who in game.headers.get("Black", "").lower():
                side = chess.BLACK
            else:
                continue
            if "Clear Hash" in engine.options:
                engine.configure({"Clear Hash": None})
            board = game.board()
            for mv in game.mainline_moves():
                if board.turn == side and not board.is_game_over():
                    best_v, best = value(engine, board, args.depth)
                    moves += 1
                    if best is not None and mv != best:
                        played_v, _ = value(engine, board, args.depth, mv)
                        costs.append(max(0, best_v - played_v))
                board.push(mv)
    finally:
        engine.quit()
    if moves == 0:
        sys.exit(f"deviation_cost.py: no moves of '{args.player}' in {args.pgn}")
    print(f"moves {moves}, deviations from alpha-beta depth {args.depth}: {len(costs)} "
          f"({100 * len(costs) / moves:.1f} %)")
    if costs:
        mean = statistics.mean(costs)
        half = 1.96 * statistics.stdev(costs) / math.sqrt(len(costs)) if len(costs) > 1 else float("nan")
        big = sum(c > 50 for c in costs)
        print(f"mean cost {mean:.1f} ± {half:.1f} cp; costing > 50 cp: {big} "
              f"({100 * big / len(costs):.1f} % of deviations)")


if __name__ == "__main__":
    main()
