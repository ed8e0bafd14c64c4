#!/usr/bin/env python3
"""Cell (c)'s fit (PLAN.txt): for each candidate depth D, how often nosce without tables
(ExactTables=false, no Syzygy, a cleared table before each move, `go depth D`) plays the
K+Q side's recorded move in the games of a KQKR run folder.

    python3 fit_depth.py fitset/games.pgn NOSCE [D ...]     (default D: 5 7 9 11 13)
"""
import sys

import chess
import chess.engine
import chess.pgn


def kq_positions(pgn_path):
    """(board before the move, the K+Q side's move) for every K+Q move of every game."""
    out = []
    with open(pgn_path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            kq = board.turn  # the K+Q side moves first in the Browne-BELLE positions
            for mv in game.mainline_moves():
                if board.turn == kq:
                    out.append((board.copy(), mv))
                board.push(mv)
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    pgn, nosce = sys.argv[1], sys.argv[2]
    depths = [int(d) for d in sys.argv[3:]] or [5, 7, 9, 11, 13]
    positions = kq_positions(pgn)
    eng = chess.engine.SimpleEngine.popen_uci(nosce)
    eng.configure({"ExactTables": False, "Hash": 16})
    best = None
    for d in depths:
        hits = 0
        for board, mv in positions:
            r = eng.play(board, chess.engine.Limit(depth=d), game=object())  # a new game: ucinewgame, cleared table
            hits += r.move == mv
        rate = hits / len(positions)
        print(f"depth {d:2}: {hits}/{len(positions)} = {100 * rate:.1f} % of the K+Q moves")
        if best is None or hits > best[1]:
            best = (d, hits)
    eng.quit()
    print(f"fitted depth: {best[0]}")


if __name__ == "__main__":
    main()
