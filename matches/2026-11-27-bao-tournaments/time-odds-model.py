"""How well, and at what cost, would an opponent program at a fixed depth predict its own moves
under a clock? The measurement behind PLAN-time-odds.md's amendment 5 (Toga II as auto's model).

  accuracy PGN.gz GAMES DEPTHS NOSCE [OPPONENT]
      For the opponent's moves in the first GAMES games of PGN.gz (match E's off arm: Toga II
      at 10+0.1 against nosce), the move OPPONENT (default /usr/games/toga2) chooses at each of
      DEPTHS (e.g. 4,6,8) after `ucinewgame`, against the move it played: right on all its
      moves, and on the moves where its move differed from nosce's own choice for it at depth 8
      (the "differing moves" on which auto's fit judges a model). One line per game, running.
  cost PGN.gz DEPTHS [OPPONENT]
      Time of one such call (ucinewgame, position, go depth D) on 150 positions of PGN.gz:
      mean, median, 90th percentile. Run it on an idle machine.
"""
import gzip
import sys
import time

import chess
import chess.engine
import chess.pgn


def accuracy(path, games, depths, nosce_path, opponent):
    nosce = chess.engine.SimpleEngine.popen_uci(nosce_path)
    opp = chess.engine.SimpleEngine.popen_uci(opponent)
    opp.configure({"Hash": 16})
    # per depth: hits, moves, hits on differing moves, differing moves
    stats = {d: [0, 0, 0, 0] for d in depths}
    with gzip.open(path, "rt") as pgn:
        for g in range(games):
            game = chess.pgn.read_game(pgn)
            if game is None:
                break
            opp_white = "nosce" not in game.headers["White"]
            board = game.board()
            for node in game.mainline():
                if (board.turn == chess.WHITE) == opp_white:
                    ref = nosce.play(board, chess.engine.Limit(depth=8), game=object()).move
                    for d in depths:
                        pred = opp.play(board, chess.engine.Limit(depth=d), game=object()).move
                        s = stats[d]
                        s[0] += pred == node.move
                        s[1] += 1
                        if ref != node.move:
                            s[2] += pred == node.move
                            s[3] += 1
                board.push(node.move)
            print(f"game {g + 1}: " + "; ".join(
                f"depth {d}: {s[0]}/{s[1]} all, {s[2]}/{s[3]} differing"
                for d, s in stats.items()), flush=True)
    nosce.quit()
    opp.quit()


def cost(path, depths, opponent):
    boards = []
    with gzip.open(path, "rt") as pgn:
        while len(boards) < 150:
            game = chess.pgn.read_game(pgn)
            if game is None:
                break
            b = game.board()
            for i, node in enumerate(game.mainline()):
                if i % 8 == 3:
                    boards.append(b.copy())
                b.push(node.move)
    boards = boards[:150]
    opp = chess.engine.SimpleEngine.popen_uci(opponent)
    opp.configure({"Hash": 16})
    for d in depths:
        ts = []
        for b in boards:
            t = time.time()
            opp.play(b, chess.engine.Limit(depth=d), game=object())
            ts.append(time.time() - t)
        ts.sort()
        print(f"depth {d}: mean {1000 * sum(ts) / len(ts):.1f} ms, median "
              f"{1000 * ts[len(ts) // 2]:.1f}, p90 {1000 * ts[int(0.9 * len(ts))]:.1f} "
              f"({len(ts)} positions)", flush=True)
    opp.quit()


def main(argv):
    depths = lambda s: [int(d) for d in s.split(",")]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        if argv[1] == "accuracy" and len(argv) in (6, 7):
            accuracy(argv[2], int(argv[3]), depths(argv[4]), argv[5],
                     argv[6] if len(argv) == 7 else "/usr/games/toga2")
            return 0
        if argv[1] == "cost" and len(argv) in (4, 5):
            cost(argv[2], depths(argv[3]), argv[4] if len(argv) == 5 else "/usr/games/toga2")
            return 0
    except (IndexError, ValueError, OSError, chess.engine.EngineError) as e:
        print(f"time-odds-model.py: {e}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
