#!/usr/bin/env python3
"""Drives nosce through python-chess's xboard (CECP v2) client.

Usage: xboard_client.py <path to the nosce binary>

A game of the engine against itself on a running clock (each side starts with 1 s and gets
0.03 s a move; a move that takes longer than the clock had loses on time), up to the end of
the game or 80 plies; then analysis of a mate in 2, which must come back with a mate score
and a legal PV. python-chess logs protocol problems it tolerates (unexpected lines, bad
thinking output) as warnings on the ``chess.engine`` logger; any WARNING or worse fails this
script. Exit status 0 means every check passed.
"""

import logging
import sys
import time

import chess
import chess.engine

START_CLOCK = 1.0
INCREMENT = 0.03
MAX_PLIES = 80


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


def play_game(engine):
    board = chess.Board()
    clocks = {chess.WHITE: START_CLOCK, chess.BLACK: START_CLOCK}
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=INCREMENT,
            black_inc=INCREMENT,
        )
        t0 = time.monotonic()
        result = engine.play(board, limit, info=chess.engine.INFO_ALL)
        spent = time.monotonic() - t0
        side = board.turn
        clocks[side] -= spent
        if clocks[side] <= 0:
            fail(f"ply {board.ply()}: lost on time ({spent:.3f} s spent) in {board.fen()}")
        clocks[side] += INCREMENT
        if result.move is None:
            fail(f"ply {board.ply()}: no move in {board.fen()}")
        if result.move not in board.legal_moves:
            fail(f"ply {board.ply()}: illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    engine.send_game_result(board)
    return board, clocks


def main():
    if len(sys.argv) != 2:
        fail("usage: xboard_client.py <nosce binary>")
    recorder = Recorder()
    log = logging.getLogger("chess.engine")
    log.addHandler(recorder)
    log.setLevel(logging.DEBUG)  # let every record reach the handler; it filters WARNING+

    engine = chess.engine.SimpleEngine.popen_xboard(sys.argv[1], timeout=10)
    try:
        if not engine.id.get("name", "").startswith("nosce"):
            fail(f"myname is {engine.id.get('name')!r}")
        for opt in ("memory", "cores", "egtpath syzygy", "OM_Mode", "MultiPV"):
            if opt not in engine.options:
                fail(f"option {opt} not announced: {sorted(engine.options)}")
        engine.configure({"memory": 16, "cores": 1, "OM_Mode": "off"})

        board, clocks = play_game(engine)

        # Analysis of a mate in 2: a mate score from White's view and a legal PV.
        mate = chess.Board("2r3k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1")
        info = engine.analyse(mate, chess.engine.Limit(depth=6))
        if "score" not in info or "pv" not in info or not info["pv"]:
            fail(f"analysis lacks score or pv: {info}")
        if info["score"].white() != chess.engine.Mate(2):
            fail(f"mate in 2 scored {info['score']}")
        b = mate.copy()
        for mv in info["pv"]:
            if mv not in b.legal_moves:
                fail(f"illegal pv move {mv} in {b.fen()}")
            b.push(mv)
        if info["pv"][0] != chess.Move.from_uci("e2e8"):
            fail(f"mate in 2 starts with {info['pv'][0]}")

        # A quiet position: a centipawn score and a PV of several moves.
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=5))
        if info["score"].relative.score() is None or len(info.get("pv", [])) < 2:
            fail(f"start position analysis: {info}")
    finally:
        engine.quit()

    if recorder.records:
        fail("python-chess logged warnings:\n" + "\n".join(recorder.records))
    outcome = board.outcome(claim_draw=True)
    ending = outcome.termination.name if outcome else "no result"
    print(
        f"ok: {board.ply()} plies ({ending}), clocks left "
        f"{clocks[chess.WHITE]:.2f} s / {clocks[chess.BLACK]:.2f} s, final position {board.fen()}"
    )


if __name__ == "__main__":
    main()
