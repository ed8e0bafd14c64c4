# Ad hoc: mean clock left at each engine's last move, and mean time per move, from [%clk]/[%emt].
import re, sys, chess.pgn, statistics as st
left, emt = {}, {}
with open(sys.argv[1]) as f:
    while (g := chess.pgn.read_game(f)):
        last = {}
        for node in g.mainline():
            side = g.headers["White"] if not node.turn() else g.headers["Black"]
            c = node.clock()
            if c is not None: last[side] = c
            m = re.search(r"%emt ([0-9.]+)", node.comment); e = float(m.group(1)) if m else None
            if e is not None: emt.setdefault(side, []).append(e)
        for s, c in last.items(): left.setdefault(s, []).append(c)
for s in left:
    print(f"{s}: clock left at its last move mean {st.mean(left[s]):.2f} s (min {min(left[s]):.2f}), time a move mean {st.mean(emt[s]):.3f} s over {len(emt[s])} moves")
