#!/usr/bin/env python3
"""Training positions from played games: PGN in, `nosce datagen` records out.

Every move of a game whose comment carries the mover's search score (fastchess and
cutechess write `{+0.76/13 0.136s}`: pawns from the mover's view, then the depth) gives one
32-byte record of the position before the move, in the format of docs/datagen-format.md:
the score in centipawns from the side to move's view, the game's result from the same view,
the side to move and the fullmove number. As `nosce datagen` does, a position is left out
when the side to move is in check, when the move played is a capture or a promotion, or when
the score is a mate or at least 3000 cp; a game without a result (`*`) gives nothing. With
`--only NAME` (repeatable) only the moves of players of that name count, e.g. nosce's side
of a match against another engine.

The records follow the input files' order, and within a file the games' and moves' order,
so the same files give the same bytes. Usage (from the repository root):

    python3 scripts/pgn_data.py --out games.bin a.pgn.gz b.pgn [--only nosce]

It prints one line per file (games read, positions written) and the totals on stderr.
Needs python-chess (`pip install chess`).
"""

import argparse
import gzip
import re
import struct
import sys

import chess
import chess.pgn

# The score part of an engine comment: pawns with a sign and a decimal point, then the depth.
SCORE = re.compile(r"^\s*([+-]?\d+\.\d+)/\d+")
RESULTS = {"1-0": chess.WHITE, "0-1": chess.BLACK, "1/2-1/2": None}
SCORE_LIMIT = 3000


def encode(board: chess.Board, score: int, result: int, fullmove: int) -> bytes:
    """One record (docs/datagen-format.md) of `board` with the side to move's score and
    result (0 loss, 1 draw, 2 win)."""
    packed = bytearray(16)
    for i, square in enumerate(chess.SquareSet(board.occupied)):
        piece = board.piece_at(square)
        code = piece.piece_type + (8 if piece.color == chess.BLACK else 0)
        packed[i // 2] |= code << (4 * (i % 2))
    stm = 0 if board.turn == chess.WHITE else 1
    return (
        struct.pack("<Q", int(board.occupied))
        + bytes(packed)
        + struct.pack("<hBBH", score, result, stm, min(fullmove, 65535))
        + b"\0\0"
    )


def game_records(game: chess.pgn.Game, only: set) -> list:
    """The records of one game (empty without a result)."""
    tag = game.headers.get("Result", "*")
    if tag not in RESULTS:
        return []
    winner = RESULTS[tag]
    names = {chess.WHITE: game.headers.get("White", ""), chess.BLACK: game.headers.get("Black", "")}
    board = game.board()
    out = []
    for node in game.mainline():
        move = node.move
        m = SCORE.match(node.comment or "")
        if (
            m
            and (not only or names[board.turn] in only)
            and not board.is_check()
            and not board.is_capture(move)
            and move.promotion is None
        ):
            cp = round(float(m.group(1)) * 100)
            if abs(cp) < SCORE_LIMIT:
                result = 1 if winner is None else (2 if winner == board.turn else 0)
                out.append(encode(board, cp, result, board.fullmove_number))
        board.push(move)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output file of 32-byte records")
    ap.add_argument("--only", action="append", default=[], help="count only this player's moves")
    ap.add_argument("pgn", nargs="+", help="PGN files (.pgn or .pgn.gz)")
    args = ap.parse_args()
    only = set(args.only)
    total_games = total_positions = 0
    try:
        with open(args.out, "wb") as out:
            for path in args.pgn:
                opener = gzip.open if path.endswith(".gz") else open
                games = positions = 0
                with opener(path, "rt", encoding="utf-8", errors="replace") as f:
                    while True:
                        game = chess.pgn.read_game(f)
                        if game is None:
                            break
                        if game.errors:
                            print(f"{path}: game {games + 1}: {game.errors[0]}", file=sys.stderr)
                        records = game_records(game, only)
                        out.write(b"".join(records))
                        games += 1
                        positions += len(records)
                print(f"{path}: {games} games, {positions} positions", file=sys.stderr)
                total_games += games
                total_positions += positions
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"total: {total_games} games, {total_positions} positions -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
