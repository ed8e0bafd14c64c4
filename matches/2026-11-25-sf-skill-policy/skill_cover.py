"""How predictable is Stockfish 15.1 at UCI_Elo 2050? For each of its moves in match 7's
A games: Stockfish's own depth-5 MultiPV-4 lines (the search its Skill picks from:
level = (2050 - 1346.6) / 143.4 = 4.9, picked at depth 1 + int(level) = 5) -- is the
played move among them, and what probability does the Skill formula give it?"""
import random, sys
import chess, chess.pgn, chess.engine

PGN = sys.argv[1]; GAMES = int(sys.argv[2]); DEPTH = int(sys.argv[3]) if len(sys.argv) > 3 else 5
LEVEL = ((2050 - 1346.6) / 143.4) ** (1 / 0.806)  # Stockfish 15.1 Skill from UCI_Elo
WEAK = 120 - 2 * LEVEL
NORM = 361  # Stockfish 15.1 cp = internal * 100 / 361 (assumed)
PAWN_MG = 126

def skill_probs(scores, n=4000, rng=random.Random(1)):
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

eng = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
eng.configure({"Threads": 1, "Hash": 16})
f = open(PGN)
tot = inside = top1 = 0
psum = 0.0
argmax_hit = 0
for g in range(GAMES):
    game = chess.pgn.read_game(f)
    if game is None: break
    sf_white = "stockfish" in game.headers["White"]
    board = game.board()
    eng.protocol.send_line("ucinewgame")
    for node in game.mainline():
        mover_sf = (board.turn == chess.WHITE) == sf_white
        if mover_sf and board.legal_moves.count() > 1:
            infos = eng.analyse(board, chess.engine.Limit(depth=DEPTH), multipv=4)
            moves = [i["pv"][0] for i in infos if "pv" in i]
            scores = []
            for i in infos:
                s = i["score"].pov(board.turn)
                scores.append(s.score(mate_score=100000) * NORM / 100)
            probs = skill_probs(scores)
            tot += 1
            if node.move in moves:
                inside += 1
                k = moves.index(node.move)
                psum += probs[k]
                if k == 0: top1 += 1
                if k == max(range(len(probs)), key=lambda j: probs[j]): argmax_hit += 1
        board.push(node.move)
eng.quit()
print(f"{GAMES} games, {tot} Stockfish moves with a choice, depth {DEPTH} MultiPV 4")
print(f"played move among the 4 lines: {inside/tot:.3f}")
print(f"played move = first line: {top1/tot:.3f}")
print(f"played move = the Skill formula's most likely: {argmax_hit/tot:.3f}")
print(f"mean Skill-formula probability of the played move: {psum/tot:.3f}")
