#!/usr/bin/env python3
"""Drives nosce through python-chess, a real UCI client with strict parsing.

Usage: python_client.py <path to the nosce binary>

python-chess logs protocol problems it tolerates (unexpected lines, bad info tokens,
illegal ponder moves) as warnings on the ``chess.engine`` logger; any WARNING or worse
fails this script. Exit status 0 means every check passed.
"""

import logging
import sys

import chess
import chess.engine


class Recorder(logging.Handler):
    """Keeps every WARNING+ record of the chess.engine logger."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def check_lines(board, infos, label, min_pv):
    """Checks MultiPV lines: numbered 1.., each with a score and a legal PV of at least
    `min_pv` moves, three different first moves."""
    if len(infos) != 3:
        fail(f"{label}: analyse multipv=3 gave {len(infos)} lines in {board.fen()}")
    for i, info in enumerate(infos, 1):
        if info.get("multipv") != i:
            fail(f"{label} line {i} has multipv {info.get('multipv')}")
        if "score" not in info or len(info.get("pv", [])) < min_pv:
            fail(f"{label} line {i} lacks a score or a pv of {min_pv} moves: {info}")
        b = board.copy()
        for mv in info["pv"]:
            if mv not in b.legal_moves:
                fail(f"{label} line {i}: illegal pv move {mv}")
            b.push(mv)
    if len({info["pv"][0] for info in infos}) != 3:
        fail(f"{label}: the three lines do not start with three different moves")


def main():
    if len(sys.argv) != 2:
        fail("usage: python_client.py <nosce binary>")
    recorder = Recorder()
    log = logging.getLogger("chess.engine")
    log.addHandler(recorder)
    log.setLevel(logging.DEBUG)  # let every record reach the handler; it filters WARNING+

    engine = chess.engine.SimpleEngine.popen_uci(sys.argv[1], timeout=10)
    try:
        if not engine.id.get("name", "").startswith("nosce"):
            fail(f"id name is {engine.id.get('name')!r}")
        for opt in ("Hash", "Threads", "MultiPV", "Ponder", "Move Overhead"):
            if opt not in engine.options:
                fail(f"option {opt} not announced")
        engine.configure({"Hash": 8, "Threads": 1})

        # A 20-ply game against itself.
        board = chess.Board()
        for ply in range(20):
            if board.is_game_over():
                break
            limit = chess.engine.Limit(time=0.05) if ply % 2 == 0 else chess.engine.Limit(depth=4)
            result = engine.play(board, limit, info=chess.engine.INFO_ALL)
            if result.move is None:
                fail(f"ply {ply}: no move in {board.fen()}")
            if result.move not in board.legal_moves:
                fail(f"ply {ply}: illegal move {result.move} in {board.fen()}")
            if result.ponder is not None:
                after = board.copy()
                after.push(result.move)
                if result.ponder not in after.legal_moves:
                    fail(f"ply {ply}: illegal ponder move {result.ponder}")
            board.push(result.move)
        if board.ply() < 20 and not board.is_game_over():
            fail(f"the game stopped after {board.ply()} plies")

        # MultiPV analysis of the current position (the game depends on timing, so it may
        # end in a position with fewer than three legal moves: then analyse a fixed one).
        if board.legal_moves.count() < 3:
            board = chess.Board("r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14")
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        check_lines(board, infos, "alpha-beta", 1)
        for i, info in enumerate(infos, 1):
            if info.get("depth", 0) < 6:
                fail(f"line {i} has depth {info.get('depth')}")

        # MultiPV in the opponent-model driver, on two threads: three lines by OM value, each
        # with our move and the predicted reply.
        engine.configure({"OM_Mode": "om", "OM_OpponentTypes": "material:1:depth=3", "Threads": 2})
        om_board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3")
        infos = engine.analyse(om_board, chess.engine.Limit(depth=5), multipv=3)
        check_lines(om_board, infos, "OM", 2)
        values = [info["score"].relative.score(mate_score=100000) for info in infos]
        if values != sorted(values, reverse=True):
            fail(f"OM lines not ordered by value: {values}")
        engine.configure({"OM_Mode": "off", "Threads": 1})

        # A forced mate is reported as a mate score.
        mate = chess.Board("2r3k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1")
        info = engine.analyse(mate, chess.engine.Limit(depth=6))
        if info["score"].white() != chess.engine.Mate(2):
            fail(f"mate in 2 scored {info['score']}")
        if info["pv"][0] != chess.Move.from_uci("e2e8"):
            fail(f"mate in 2 starts with {info['pv'][0]}")

        # Chess960: python-chess sets UCI_Chess960 for a Chess960 board and reads castling
        # as the king taking its rook. The only mate here is castling (O-O-O, b1a1).
        frc = chess.Board("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", chess960=True)
        result = engine.play(frc, chess.engine.Limit(depth=4))
        if result.move is None or not frc.is_castling(result.move):
            fail(f"Chess960: played {result.move} instead of castling into mate")
        frc.push(result.move)
        if not frc.is_checkmate():
            fail(f"Chess960: {frc.fen()} is not mate after castling")
        # A 30-ply game from Chess960 start position 100, castling rights on both sides.
        frc = chess.Board.from_chess960_pos(100)
        castles = 0  # reported: whether the game exercised castling is luck
        for ply in range(30):
            if frc.is_game_over():
                break
            result = engine.play(frc, chess.engine.Limit(depth=3))
            if result.move not in frc.legal_moves:
                fail(f"Chess960 ply {ply}: illegal move {result.move} in {frc.fen()}")
            castles += frc.is_castling(result.move)
            frc.push(result.move)
        # Castling offered as the only root move is played, in either colour's notation.
        frc = chess.Board.from_chess960_pos(100)
        for uci in ("f1g3", "f8g6"):
            frc.push_uci(uci)
        castle = [m for m in frc.legal_moves if frc.is_castling(m)]
        if not castle:
            fail(f"Chess960: no castling move in {frc.fen()}")
        result = engine.play(frc, chess.engine.Limit(depth=3), root_moves=castle[:1])
        if result.move != castle[0]:
            fail(f"Chess960: asked for {castle[0]}, played {result.move}")
    finally:
        engine.quit()

    if recorder.records:
        fail("python-chess logged warnings:\n" + "\n".join(recorder.records))
    print(f"ok: {board.ply()} plies, final position {board.fen()}; Chess960 game: {castles} castlings")


if __name__ == "__main__":
    main()
