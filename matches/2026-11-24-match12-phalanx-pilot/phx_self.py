import chess, chess.pgn, chess.engine, sys, random, subprocess
pgn = open(sys.argv[1]); depths=[int(x) for x in sys.argv[2].split(",")]; N=int(sys.argv[3]); flags=sys.argv[4:]
samples=[]
while True:
    g = chess.pgn.read_game(pgn)
    if g is None: break
    ph_white = "phalanx" in g.headers["White"].lower()
    b = g.board()
    for i, mv in enumerate(g.mainline_moves()):
        if b.turn == (chess.WHITE if ph_white else chess.BLACK) and b.ply() >= 10:
            samples.append((b.fen(), mv))
        b.push(mv)
random.seed(1); random.shuffle(samples); samples=samples[:N]
p = subprocess.Popen(["/usr/games/phalanx"]+flags, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
send("xboard"); send("protover 2")
while "done=1" not in p.stdout.readline(): pass
def ask(fen, d):
    send("new"); send("force"); send("setboard "+fen); send(f"depth {d}"); send("go")
    while True:
        l=p.stdout.readline()
        if l.startswith("move "): 
            m=l.split()[1]; b=chess.Board(fen)
            try: return b.parse_uci(m)
            except Exception: return b.parse_san(m)
ns = chess.engine.SimpleEngine.popen_uci("/work/m11/nosce-11")
hit={d:0 for d in depths}; dif={d:[0,0] for d in depths}; pv=0
for fen, mv in samples:
    b = chess.Board(fen)
    ours = ns.play(b, chess.engine.Limit(depth=8)).move
    pv += ours == mv
    for d in depths:
        m = ask(fen, d)
        hit[d] += m == mv
        if m != ours:
            dif[d][1] += 1; dif[d][0] += m == mv
n=len(samples)
print(f"flags {flags}: {n} phalanx moves; our depth-8 alpha-beta predicts {pv/n:.1%}")
for d in depths:
    print(f"phalanx depth {d}: {hit[d]/n:.1%}; where it differs from ours: {dif[d][0]}/{dif[d][1]} = {dif[d][0]/max(1,dif[d][1]):.1%}")
send("quit"); ns.quit()
