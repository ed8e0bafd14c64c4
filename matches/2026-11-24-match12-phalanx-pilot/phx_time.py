import subprocess, time, chess
fens=[l.split(";")[0].strip() for l in open("/work/main/bench.epd")][:16]
p = subprocess.Popen(["/usr/games/phalanx","-l-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
send("xboard"); send("protover 2")
while "done=1" not in p.stdout.readline(): pass
for d in [4,5,6]:
    ts=[]
    for f in fens:
        b=chess.Board(f)
        for m in list(b.legal_moves)[:6]:
            b.push(m); fen=b.fen(); b.pop()
            t=time.time(); send("new"); send("force"); send(f"depth {d}"); send("setboard "+fen); send("go")
            while not p.stdout.readline().startswith("move "): pass
            ts.append(time.time()-t)
    ts.sort(); print(f"depth {d}: mean {sum(ts)/len(ts)*1000:.1f} ms median {ts[len(ts)//2]*1000:.1f} p90 {ts[int(len(ts)*.9)]*1000:.1f}")
send("quit")
