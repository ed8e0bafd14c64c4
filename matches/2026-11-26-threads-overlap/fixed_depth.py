#!/usr/bin/env python3
"""Games at a fixed depth between two nosce binaries, both with Threads=2 and OM s=2 against
the depth-4 model (the configuration whose root moves run beside the α-β pass).

    python3 fixed_depth.py A B DEPTH OPENINGS

Plays the first OPENINGS positions of ../shared/openings/2moves_v1.epd with A as White and
as Black (`go depth DEPTH` for every move, draw claims honoured, games stopped at move 150 as
draws) and prints A's score. At a fixed depth the clock plays no part: a lower score means
A's root chooses worse moves at the same depth.
"""

import os
import sys

import chess
import chess.engine

OPTIONS = {"Threads": 2, "OM_Mode": "om", "OM_SpeculationDepth": 2, "OM_OpponentDepth": 4}
HERE = os.path.dirname(os.path.abspath(__file__))
OPENINGS = os.path.join(HERE, "..", "..", "..", "shared", "openings", "2moves_v1.epd")


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    if not (sys.argv[3].isdigit() and sys.argv[4].isdigit() and int(sys.argv[3]) > 0):
        sys.exit("fixed_depth.py: DEPTH and OPENINGS must be positive whole numbers")
    a_path, b_path, depth, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    try:
        with open(OPENINGS) as f:
            openings = [l.split(";")[0].strip() for l in f if l.strip()][:count]
        a = chess.engine.SimpleEngine.popen_uci(a_path)
        b = chess.engine.SimpleEngine.popen_uci(b_path)
    except OSError as e:
        sys.exit(f"fixed_depth.py: {e.filename or 'engine'}: {e.strerror}")
    a.configure(OPTIONS)
    b.configure(OPTIONS)
    score, games = 0.0, 0
    try:
        for epd in openings:
            for a_white in (True, False):
                board = chess.Board(epd + " 0 1" if len(epd.split()) == 4 else epd)
                while not board.is_game_over(claim_draw=True) and board.fullmove_number < 150:
                    mover = a if (board.turn == chess.WHITE) == a_white else b
                    board.push(mover.play(board, chess.engine.Limit(depth=depth)).move)
                result = board.result(claim_draw=True)
                s = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
                s = s if a_white else 1.0 - s
                score += s
                games += 1
                colour = "White" if a_white else "Black"
                print(f"{games} {result} A {colour} A scores {s} total {score}", flush=True)
    finally:
        a.quit()
        b.quit()
    print(f"A {a_path} score {score} / {games}")


if __name__ == "__main__":
    main()
