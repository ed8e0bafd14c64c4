#!/usr/bin/env python3
"""Nodes per second in play: one engine process searches the first 60 positions of the first
3 games of a PGN in order (its table kept from move to move, as in a game), `go nodes 200000`
each, and the total time and nodes are printed; several engines are run one after another.

    python3 play_nps.py GAMES.pgn.gz ENGINE [ENGINE ...]

Needs python-chess.
"""
import gzip
import sys
import time

import chess.engine
import chess.pgn


def main():
    pgn, engines = sys.argv[1], sys.argv[2:]
    with gzip.open(pgn, 'rt') as f:
        games = [chess.pgn.read_game(f) for _ in range(3)]
    for exe in engines:
        eng = chess.engine.SimpleEngine.popen_uci(exe)
        start, nodes = time.time(), 0
        for g in games:
            board = g.board()
            for i, move in enumerate(g.mainline_moves()):
                if i >= 60:
                    break
                r = eng.play(board, chess.engine.Limit(nodes=200000), info=chess.engine.INFO_BASIC)
                nodes += r.info.get('nodes', 0)
                board.push(move)
        secs = time.time() - start
        print(exe, f'{secs:.2f} s', nodes, 'nodes', int(nodes / secs), 'nps')
        eng.quit()


if __name__ == '__main__':
    main()
