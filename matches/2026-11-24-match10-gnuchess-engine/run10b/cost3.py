import subprocess, sys, time
exec(open("cost2.py").read().split("AUTO=")[0])
def session2(bin_, opts, fens, go):
    p = subprocess.Popen([bin_], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
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
        send("position fen "+fen); send("go "+go); out=until("bestmove")
        infos=[l.split() for l in out if l.startswith("info depth")]
        last=infos[-1]
        res.append((int(last[last.index("depth")+1]), int(last[last.index("nodes")+1]), int(last[last.index("time")+1])))
    send("quit"); return res
AUTO=["OM_Mode value auto","OM_OpponentEngine value /work/m10/gnuchess-uci","OM_OpponentTypes value engine:1:depth=5","OM_ProfileDir value /work/m10/sanity-prof","UCI_Opponent value none none computer GNU Chess 6.2.7"]
fens=[l.split(";")[0].strip() for l in open("/work/main/bench.epd")][:int(sys.argv[2])]
for name,o in [("ab",[]),("auto",AUTO)]:
    r=session2(sys.argv[3],o,fens,sys.argv[1])
    print(name, "depth %.2f"%(sum(x[0] for x in r)/len(r)), "nodes %d"%(sum(x[1] for x in r)/len(r)), "time(last info) %d"%(sum(x[2] for x in r)/len(r)))
