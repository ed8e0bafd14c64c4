# Depth, nodes and time of alpha-beta and OM_Mode=auto (gnuchess as the model, match 11's
# learned profile copied fresh for each run) on the first N bench positions at `go ARGS`.
# usage: python3 cost13.py "movetime 200" N BINARY
import shutil, subprocess, sys
def session(bin_, opts, fens, go):
    p = subprocess.Popen([bin_], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    def until(tok):
        out = []
        while True:
            l = p.stdout.readline()
            if not l: break
            out.append(l.rstrip())
            if l.startswith(tok): break
        return out
    send("uci"); until("uciok")
    for o in opts: send("setoption name " + o)
    send("isready"); until("readyok"); send("ucinewgame"); send("isready"); until("readyok")
    res = []
    for fen in fens:
        send("position fen " + fen); send("go " + go); out = until("bestmove")
        last = [l.split() for l in out if l.startswith("info depth")][-1]
        res.append((int(last[last.index("depth") + 1]), int(last[last.index("nodes") + 1]), out[-1].split()[1]))
    send("quit"); p.wait()
    return res
fens = [l.split(";")[0].strip() for l in open("/work/main/bench.epd") if l.strip()][: int(sys.argv[2])]
fens = [" ".join(f.split()[:4]) + " 0 1" if len(f.split()) < 6 else f for f in fens]
shutil.rmtree("/work/m13/cost-prof", ignore_errors=True)
shutil.copytree("/work/m11/prof-B", "/work/m13/cost-prof")
AUTO = ["OM_Mode value auto", "OM_OpponentEngine value /work/m13/gnuchess-uci",
        "OM_OpponentTypes value engine:1:depth=5", "OM_ProfileDir value /work/m13/cost-prof",
        "UCI_Opponent value none none computer GNU Chess 6.2.7"]
runs = {}
for name, o in [("ab", []), ("auto", AUTO)]:
    r = session(sys.argv[3], o, fens, sys.argv[1])
    runs[name] = r
    print(sys.argv[3], name, "depth %.2f" % (sum(x[0] for x in r) / len(r)), "nodes %d" % (sum(x[1] for x in r) / len(r)))
print("moves differ in", sum(a[2] != b[2] for a, b in zip(runs["ab"], runs["auto"])), "of", len(fens))
