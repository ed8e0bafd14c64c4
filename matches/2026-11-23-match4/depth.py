import sys, re, chess.pgn, statistics
for path in sys.argv[1:]:
    ds = []
    with open(path) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            nosce_white = "nosce" in g.headers["White"]
            node = g
            while node.variations:
                node = node.variations[0]
                white_moved = node.parent.board().turn  # side that made this move
                if white_moved == nosce_white:
                    m = re.search(r"d=(\d+)", node.comment)
                    if m and int(m.group(1)) < 100:
                        ds.append(int(m.group(1)))
    print(f"{path}: nosce moves {len(ds)}, mean depth {statistics.mean(ds):.2f}, median {statistics.median(ds)}")
