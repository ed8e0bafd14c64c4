#!/bin/sh
# The 1000-game conformance run of issue 15 at 2+0.02, Threads=1, Hash=16 (see README.md here).
# Run from this folder; the runners are built outside the repository and found on PATH or
# through FASTCHESS / CUTECHESS; NOSCE is the binary under test; GNUCHESS_UCI a wrapper
# script that runs `gnuchess --uci`. Writes PGNs and logs here; tally.py counts them.
set -eu
FASTCHESS=${FASTCHESS:-fastchess}
CUTECHESS=${CUTECHESS:-cutechess-cli}
NOSCE=${NOSCE:-nosce}
GNUCHESS_UCI=${GNUCHESS_UCI:-gnuchess-uci}
BOOK=${BOOK:-../../../shared/openings/2moves_v1.epd}
ROUNDS=${ROUNDS:-125}          # 2 games per round (colours reversed): 250 games per run
NOSCE_UCI="cmd=$NOSCE option.Threads=1 option.Hash=16"

fc() {  # fastchess run: NAME, then the two -engine blocks' arguments
    name=$1; shift
    "$FASTCHESS" "$@" -each tc=2+0.02 \
        -openings file="$BOOK" format=epd order=random -srand 1 \
        -rounds "$ROUNDS" -repeat -concurrency 2 -recover -check-mate-pvs \
        -pgnout file="$name.pgn" -log file="$name.log" level=warn \
        > "$name.out" 2>&1
}

fc A-uci-toga2 \
    -engine name=nosce $NOSCE_UCI \
    -engine name=toga2 cmd=/usr/games/toga2 option.Hash=16 option.OwnBook=false
fc B-uci-gnuchess \
    -engine name=nosce $NOSCE_UCI \
    -engine name=gnuchess cmd="$GNUCHESS_UCI"
fc D-uci-prom-toga2 \
    -engine name=nosce-prom $NOSCE_UCI option.OM_Mode=prom \
        option.OM_OpponentTypes=self:0.5:depth=4,material:0.5:depth=2 option.OM_Learning=bayes \
    -engine name=toga2 cmd=/usr/games/toga2 option.Hash=16 option.OwnBook=false

"$CUTECHESS" \
    -engine name=nosce cmd="$NOSCE" proto=xboard option.Hash=16 option.Threads=1 \
    -engine name=phalanx cmd=/usr/games/phalanx arg=-l- proto=xboard \
    -each tc=2+0.02 \
    -openings file="$BOOK" format=epd order=random -srand 1 \
    -games 2 -rounds "$ROUNDS" -repeat -concurrency 2 -recover \
    -pgnout C-xboard-phalanx.pgn > C-xboard-phalanx.out 2>&1
