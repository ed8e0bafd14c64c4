import sys, re, chess.pgn, statistics as st
for f in sys.argv[1:]:
    pgn=open(f); E=[];D=[]; bins={}
    while True:
        g=chess.pgn.read_game(pgn)
        if g is None: break
        side = chess.WHITE if 'nosce' in g.headers['White'] else chess.BLACK
        node=g; ply=0
        for n in g.mainline():
            mover = not n.board().turn
            c=n.comment
            m=re.search(r'%emt ([\d.]+)',c); d=re.search(r'd=(\d+)',c)
            if mover==side and m and d:
                b=min(ply//20,4); bins.setdefault(b,[]).append((float(m.group(1)),int(d.group(1))))
            ply+=1
    print(f)
    for b in sorted(bins):
        v=bins[b]; print('  plies %3d-%3d n=%4d emt %.3f depth %.2f'%(b*20,b*20+19,len(v),st.mean(x[0] for x in v),st.mean(x[1] for x in v)))
