#!/usr/bin/env python3
"""A fake UCI engine with scripted faults, for tests/it/external_engine.rs.

Usage: python3 tests/fake_uci.py MODE [N]

Modes:
  ok             plays the first legal move in sorted UCI order (deterministic)
  crash          exits when it receives `go`
  crash-after N  answers N `go`s, then exits at the next one
  hang           never answers `go` and ignores `stop` (but obeys `quit`)
  stop-late      answers `go` only after `stop`, 300 ms later
  illegal        answers `bestmove a1a1`
  garbage        prints junk lines, then `bestmove xyz`
  no-uciok       never completes the handshake
  exit-when-ready  exits right after its first `readyok` (the end of the handshake)
  slow N         sleeps N ms before each `bestmove` (not reading input meanwhile)
  slow-start N   sleeps N ms before answering `uci` (a program loading a network), then
                 plays as `ok`
  multipv        a one-ply material player: every legal move scored by the material
                 balance after it (mover's view, P 100 N 300 B 300 R 500 Q 900, mate
                 10000), best first (ties in UCI order); sends the first `MultiPV` of them
                 (the option, default 1) as `info ... multipv k score cp S pv M` lines and
                 plays the first

Portable (no Unix-only calls); every line is flushed.
"""

import sys
import time

import chess


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read_position(words):
    """The board of a `position [startpos | fen F...] [moves M...]` command."""
    if "moves" in words:
        cut = words.index("moves")
        head, moves = words[1:cut], words[cut + 1:]
    else:
        head, moves = words[1:], []
    if head and head[0] == "fen":
        board = chess.Board(" ".join(head[1:]))
    else:
        board = chess.Board()
    for m in moves:
        board.push_uci(m)
    return board


def first_move(board):
    moves = sorted(m.uci() for m in board.legal_moves)
    return moves[0] if moves else "(none)"


VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500,
          chess.QUEEN: 900, chess.KING: 0}


def scored_moves(board):
    """(score, uci) for every legal move, best first: material after it, mover's view."""
    me = board.turn
    out = []
    for m in board.legal_moves:
        board.push(m)
        if board.is_checkmate():
            score = 10000
        else:
            score = sum(VALUES[p.piece_type] * (1 if p.color == me else -1)
                        for p in board.piece_map().values())
        board.pop()
        out.append((-score, m.uci()))
    out.sort()
    return [(-s, u) for s, u in out]


def main(argv):
    mode = argv[1] if len(argv) > 1 else "ok"
    n = int(argv[2]) if len(argv) > 2 else 0
    board = chess.Board()
    searching = False
    answered = 0
    multipv = 1
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "quit":
            return 0
        if cmd == "uci":
            if mode == "slow-start":
                time.sleep(n / 1000.0)
            say("id name fake-" + mode)
            say("id author nosce tests")
            if mode != "no-uciok":
                say("uciok")
        elif cmd == "isready":
            if mode != "no-uciok":
                say("readyok")
            if mode == "exit-when-ready":
                return 0
        elif cmd == "setoption" and len(words) >= 5 and words[2].lower() == "multipv":
            multipv = max(1, int(words[4]))
        elif cmd == "position":
            board = read_position(words)
        elif cmd == "stop":
            if searching:
                time.sleep(0.3)
                say("bestmove " + first_move(board))
                searching = False
        elif cmd == "go":
            if mode == "crash" or (mode == "crash-after" and answered >= n):
                return 3
            if mode == "hang":
                continue
            if mode == "stop-late":
                searching = True
                continue
            if mode == "slow":
                time.sleep(n / 1000.0)
            answered += 1
            if mode == "illegal":
                say("bestmove a1a1")
            elif mode == "multipv":
                lines = scored_moves(board)[:multipv]
                for k, (score, m) in enumerate(lines, 1):
                    say(f"info depth 1 multipv {k} score cp {score} nodes 1 pv {m}")
                say("bestmove " + (lines[0][1] if lines else "(none)"))
            elif mode == "garbage":
                say("hello there")
                say("\x07\x7f ~~ info depth")
                say("bestmove xyz")
            else:
                say("info depth 1 nodes 1 score cp 0 pv " + first_move(board))
                say("bestmove " + first_move(board))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
