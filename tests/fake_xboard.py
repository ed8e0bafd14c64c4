#!/usr/bin/env python3
"""A fake xboard (CECP v2) engine with scripted faults, for tests/it/external_engine.rs.

Usage: python3 tests/fake_xboard.py MODE

Modes:
  ok            plays the first legal move in sorted UCI order; answers ping; knows sd
  phalanx       like ok, but answers `sd N` with `Illegal move: sd N` and knows `depth N`
                instead (as Debian's phalanx does); without a depth it answers `move a1a1`
  san           like ok, but sends its move in SAN
  crash         exits when it receives `go`
  hang          never answers `go` and ignores `?` (but obeys `quit`)
  illegal       answers `move a1a1`
  no-done       never sends `feature done=1`
  no-setboard   offers setboard=0

Portable (no Unix-only calls); every line is flushed.
"""

import sys

import chess


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def first_move(board):
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    return moves[0] if moves else None


def main(argv):
    mode = argv[1] if len(argv) > 1 else "ok"
    board = chess.Board()
    limit = None
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
        if cmd == "protover":
            if mode == "no-done":
                say('feature myname="fake-no-done" ping=1 setboard=1')
                continue
            setboard = 0 if mode == "no-setboard" else 1
            say('feature myname="fake-%s" ping=1 usermove=1 setboard=%d' % (mode, setboard))
            say("feature done=1")
        elif cmd == "ping":
            say("pong " + (words[1] if len(words) > 1 else ""))
        elif cmd == "new":
            board = chess.Board()
            limit = None
        elif cmd == "setboard":
            board = chess.Board(" ".join(words[1:]))
        elif cmd == "usermove":
            try:
                board.push_uci(words[1])
            except ValueError:
                say("Illegal move: " + words[1])
        elif cmd == "sd":
            if mode == "phalanx":
                say("Illegal move: " + line.strip())
            else:
                limit = "sd " + words[1]
        elif cmd == "depth" and mode == "phalanx":
            limit = "depth " + words[1]
        elif cmd == "go":
            if mode == "crash":
                return 3
            if mode == "hang":
                continue
            if mode == "illegal" or (mode == "phalanx" and limit is None):
                # (phalanx mode: without `depth N` it plays nonsense, so a test notices.)
                say("move a1a1")
                continue
            m = first_move(board)
            if m is None:
                continue
            say("# limit %s" % limit)
            say("1 0 1 1 " + m.uci())
            text = board.san(m) if mode == "san" else m.uci()
            board.push(m)
            say("move " + text)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
