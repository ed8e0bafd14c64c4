cd /work/m9
python3 /work/main/benches/match.py --engine1 /work/m9/nosce-bfadc16 --engine2 /work/m9/gnuchess-uci --games 100 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m9/A9-ab.pgn > /work/m9/A9-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m9/nosce-bfadc16 --engine2 /work/m9/gnuchess-uci --option1 OM_Mode=auto --option1 OM_OpponentEngine=/work/m9/gnuchess-uci --option1 OM_OpponentTypes=engine:1:depth=5 --option1 OM_ProfileDir=/work/m9/prof-B --games 100 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m9/B9-auto.pgn > /work/m9/B9-auto.log 2>&1 &
wait
