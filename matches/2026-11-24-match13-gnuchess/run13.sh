cd /work/m13
python3 /work/main/benches/match.py --engine1 /work/m13/nosce-13 --engine2 /work/m13/gnuchess-uci --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m13/A13-ab.pgn > /work/m13/A13-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m13/nosce-13 --engine2 /work/m13/gnuchess-uci --option1 OM_Mode=auto --option1 OM_OpponentEngine=/work/m13/gnuchess-uci --option1 OM_OpponentTypes=engine:1:depth=5 --option1 OM_ProfileDir=/work/m13/prof-B --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m13/B13-auto.pgn > /work/m13/B13-auto.log 2>&1 &
wait
