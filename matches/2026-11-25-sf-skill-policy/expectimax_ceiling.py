"""Ceiling of a one-ply expectimax against Stockfish 15.1 at UCI_Elo 2050 (issue 13).

At nosce's positions of match 7's A games: nosce's root candidates (MultiPV 4, depth D),
for each candidate m the opponent's reply distribution (Stockfish's own depth-8 MultiPV-4
lines weighted by its Skill formula, level 7.19: the search its UCI_Elo picks from), and
nosce's value after each reply (depth D-1). E(m) = sum p(r) v(m, r), with the share the
model misses (15 % of Stockfish's moves are outside the 4 lines) given to alpha-beta's
own value of m (the worst case). Prints how often argmax E differs from alpha-beta's
choice and the expected gain in centipawns (nosce's scale) under the model."""
import random, sys
import chess, chess.pgn, chess.engine

PGN, GAMES, D = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
NOSCE = sys.argv[4] if len(sys.argv) > 4 else "/work/target-rel/release/nosce"
LEVEL = ((2050 - 1346.6) / 143.4) ** (1 / 0.806)
WEAK = 120 - 2 * LEVEL
NORM, PAWN_MG, MISS = 361, 126, 0.15
rng = random.Random(1)

def skill_probs(scores, n=3000):
    top = scores[0]
    delta = min(top - scores[-1], PAWN_MG)
    wins = [0] * len(scores)
    for _ in range(n):
        best, mx = 0, -10**9
        for i, s in enumerate(scores):
            push = int((WEAK * (top - s) + delta * (rng.getrandbits(32) % int(WEAK))) / 128)
            if s + push >= mx:
                mx, best = s + push, i
        wins[best] += 1
    return [w / n for w in wins]

def cp(score, turn):
    return max(-3000, min(3000, score.pov(turn).score(mate_score=30000)))

sf = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
sf.configure({"Threads": 1, "Hash": 16})
ns = chess.engine.SimpleEngine.popen_uci(NOSCE)
ns.configure({"Hash": 16})
f = open(PGN)
n = differ = 0
gain = 0.0
gains = []
for g in range(GAMES):
    game = chess.pgn.read_game(f)
    if game is None:
        break
    nosce_white = "nosce" in game.headers["White"]
    board = game.board()
    for ply, node in enumerate(game.mainline()):
        ours = (board.turn == chess.WHITE) == nosce_white
        if ours and ply % 2 == (0 if nosce_white else 1) and board.legal_moves.count() > 1 and ply < 80:
            roots = ns.analyse(board, chess.engine.Limit(depth=D), multipv=4)
            cands = [(i["pv"][0], cp(i["score"], board.turn)) for i in roots if "pv" in i]
            best_ab = cands[0][1]
            exp = []
            for m, vab in cands:
                if vab < best_ab - 150:
                    exp.append((m, vab, vab)); continue
                board.push(m)
                if board.is_game_over():
                    board.pop(); exp.append((m, vab, vab)); continue
                lines = sf.analyse(board, chess.engine.Limit(depth=8), multipv=4)
                reps = [i["pv"][0] for i in lines if "pv" in i]
                probs = skill_probs([cp(i["score"], board.turn) * NORM / 100 for i in lines if "pv" in i])
                e = MISS * vab
                for r, p in zip(reps, probs):
                    board.push(r)
                    v = vab if board.is_game_over() else cp(ns.analyse(board, chess.engine.Limit(depth=D - 1))["score"], not board.turn)
                    board.pop()
                    e += (1 - MISS) * p * v
                board.pop()
                exp.append((m, vab, e))
            e_ab = exp[0][2]
            e_best = max(x[2] for x in exp)
            n += 1
            if e_best > e_ab + 1e-9:
                differ += 1
            gains.append(e_best - e_ab)
        board.push(node.move)
    print(f"game {g+1}: {n} positions, expectimax differs {differ}, mean gain {sum(gains)/max(1,n):.1f} cp", flush=True)
sf.quit(); ns.quit()
gains.sort()
print(f"{n} positions (nosce to move, ply < 80), depth {D}: expectimax differs from alpha-beta in {differ/n:.3f};"
      f" mean expected gain {sum(gains)/n:.1f} cp per move, median {gains[n//2]:.1f}, 90th pct {gains[int(n*0.9)]:.1f}")
