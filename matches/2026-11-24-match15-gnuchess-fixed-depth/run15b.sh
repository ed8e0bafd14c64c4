cd /work/m15/b
M="python3 /work/main/benches/match.py --engine1 /work/m14/nosce-7f919c9 --engine2 /work/m13/gnuchess-uci --option2 OwnBook=false --limit1 depth=8 --limit2 depth=5 --games 200 --move-timeout 900 --openings /work/shared/openings/2moves_v1.epd"
E="--option1 OM_OpponentEngine=/work/m13/gnuchess-uci --option1 OM_OpponentEngineOptions=OwnBook=false --option1 OM_OpponentTypes=engine:1:depth=5"
$M --pgn /work/m15/b/A15-ab.pgn > /work/m15/b/A15-ab.log 2>&1 &
$M $E --option1 OM_Mode=auto --option1 OM_ProfileDir=/work/m15/b/prof-B --pgn /work/m15/b/B15-auto.pgn > /work/m15/b/B15-auto.log 2>&1 &
$M $E --option1 OM_Mode=om --pgn /work/m15/b/C15-om.pgn > /work/m15/b/C15-om.log 2>&1 &
wait
