cd /work/m8
python3 /work/main/benches/match.py --engine1 /work/m8/nosce-d2127f8 --engine2 xboard:/usr/games/phalanx --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m8/A8-ab.pgn > /work/m8/A8-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m8/nosce-d2127f8 --engine2 xboard:/usr/games/phalanx --option1 OM_Mode=auto --option1 OM_ProfileDir=/work/m8/prof-B --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m8/B8-auto.pgn > /work/m8/B8-auto.log 2>&1 &
wait
