import subprocess, sys, time
def session(opts, fens, go):
    p = subprocess.Popen([sys.argv[3] if len(sys.argv)>3 else "./nosce-7b98c3d"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s+"\n"); p.stdin.flush()
    def until(tok):
        out=[]
        while True:
            l=p.stdout.readline()
            if not l: break
            out.append(l.rstrip())
            if l.startswith(tok): break
        return out
    send("uci"); until("uciok")
    for o in opts: send("setoption name "+o)
    send("isready"); until("readyok"); send("ucinewgame"); send("isready"); until("readyok")
    res=[]
    for fen in fens:
        send("position fen "+fen); t=time.time(); send("go "+go); out=until("bestmove"); t=time.time()-t
        depth=[l for l in out if l.startswith("info depth")]
        last = depth[-1].split() if depth else []
        d = last[last.index("depth")+1] if last else "?"
        om=[l for l in out if "om engine" in l or "om nodes" in l]
        res.append((t,d,om,out[-1]))
    send("quit")
    return res
AUTO=["OM_Mode value auto","OM_OpponentEngine value /work/m10/gnuchess-uci","OM_OpponentTypes value engine:1:depth=5","OM_ProfileDir value /work/m10/sanity-prof","UCI_Opponent value none none computer GNU Chess 6.2.7"]
fens=[l.split(";")[0].strip() for l in open("/work/main/bench.epd")][:int(sys.argv[2])]
fens=[" ".join(f.split()[:4])+" 0 1" if len(f.split())<6 else f for f in fens]
for name,o in [("ab",[]),("auto",AUTO)]:
    r=session(o,fens,sys.argv[1])
    print(name, " ".join(f"{d}" for t,d,n,bm in r), "mean depth %.2f"%(sum(int(d) for t,d,n,bm in r if d!='?')/len(r)))
r=session(AUTO,fens,sys.argv[1])
for t,d,om,bm in r: print(f"{t:.3f}", d, om)
