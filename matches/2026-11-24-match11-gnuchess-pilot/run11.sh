cd /work/m11
python3 /work/main/benches/match.py --engine1 /work/m11/nosce-11 --engine2 /work/m11/gnuchess-uci --games 100 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m11/A11-ab.pgn > /work/m11/A11-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m11/nosce-11 --engine2 /work/m11/gnuchess-uci --option1 OM_Mode=auto --option1 OM_OpponentEngine=/work/m11/gnuchess-uci --option1 OM_OpponentTypes=engine:1:depth=5 --option1 OM_ProfileDir=/work/m11/prof-B --games 100 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m11/B11-auto.pgn > /work/m11/B11-auto.log 2>&1 &
wait
