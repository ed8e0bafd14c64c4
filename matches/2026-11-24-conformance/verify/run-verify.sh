#!/bin/sh
# After the fixes (4304fb3): 100 PrOM games (run D's configuration) and 100 alpha-beta games
# against gnuchess (run B's), fastchess with -check-mate-pvs, to see the warnings gone.
set -eu
FASTCHESS=${FASTCHESS:-fastchess}
NOSCE=${NOSCE:-nosce}
GNUCHESS_UCI=${GNUCHESS_UCI:-gnuchess-uci}
BOOK=${BOOK:-../../../../shared/openings/2moves_v1.epd}
fc() {
    name=$1; shift
    "$FASTCHESS" "$@" -each tc=2+0.02 \
        -openings file="$BOOK" format=epd order=random -srand 2 \
        -rounds 50 -repeat -concurrency 2 -recover -check-mate-pvs \
        -pgnout file="$name.pgn" -log file="$name.log" level=warn > "$name.out" 2>&1
}
fc V-uci-prom-toga2 \
    -engine name=nosce-prom cmd="$NOSCE" option.Threads=1 option.Hash=16 option.OM_Mode=prom \
        option.OM_OpponentTypes=self:0.5:depth=4,material:0.5:depth=2 option.OM_Learning=bayes \
    -engine name=toga2 cmd=/usr/games/toga2 option.Hash=16 option.OwnBook=false
fc V-uci-gnuchess \
    -engine name=nosce cmd="$NOSCE" option.Threads=1 option.Hash=16 \
    -engine name=gnuchess cmd="$GNUCHESS_UCI"
