cd /work/m10
python3 /work/main/benches/match.py --engine1 /work/m10/nosce-10b --engine2 /work/m10/gnuchess-uci --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m10/A10b-ab.pgn > /work/m10/A10b-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m10/nosce-10b --engine2 /work/m10/gnuchess-uci --option1 OM_Mode=auto --option1 OM_OpponentEngine=/work/m10/gnuchess-uci --option1 OM_OpponentTypes=engine:1:depth=5 --option1 OM_ProfileDir=/work/m10/prof-B2 --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m10/B10b-auto.pgn > /work/m10/B10b-auto.log 2>&1 &
wait
