# Writes copies of two match PGNs without the rounds in which the opponent process died
# (python-chess's "engine error" in either arm's log), for the secondary paired test.
# usage: python3 excl.py A.log B.log A.pgn B.pgn OUT_A.pgn OUT_B.pgn
import re, sys
import chess.pgn
bad = set()
for log in sys.argv[1:3]:
    for line in open(log):
        m = re.match(r"game\s+(\d+) .*engine error", line)
        if m:
            bad.add(int(m.group(1)))
print("rounds excluded:", sorted(bad))
for src, dst in ((sys.argv[3], sys.argv[5]), (sys.argv[4], sys.argv[6])):
    with open(src) as f, open(dst, "w") as out:
        while (g := chess.pgn.read_game(f)) is not None:
            if int(g.headers["Round"]) not in bad:
                print(g, file=out, end="\n\n")
