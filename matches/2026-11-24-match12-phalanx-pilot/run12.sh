cd /work/m12
python3 /work/main/benches/match.py --engine1 /work/m12/nosce-11 --engine2 xboard:/usr/games/phalanx --games 100 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m12/A12-ab.pgn > /work/m12/A12-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m12/nosce-11 --engine2 xboard:/usr/games/phalanx --option1 OM_Mode=auto "--option1=OM_OpponentEngine=/usr/games/phalanx -l-" --option1 OM_OpponentEngineProtocol=xboard --option1 OM_OpponentTypes=engine:1:depth=6 --option1 OM_ProfileDir=/work/m12/prof-B --games 100 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m12/B12-auto.pgn > /work/m12/B12-auto.log 2>&1 &
wait
