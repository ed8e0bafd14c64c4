cd /work/m16
python3 /work/main/benches/match.py --engine1 /work/m16/nosce-faca59d --engine2 /usr/games/toga2 --option2 OwnBook=false --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m16/A16-ab.pgn > /work/m16/A16-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m16/nosce-faca59d --engine2 /usr/games/toga2 --option2 OwnBook=false --option1 OM_Mode=auto --option1 OM_ProfileDir=/work/m16/prof-B --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m16/B16-auto.pgn > /work/m16/B16-auto.log 2>&1 &
wait
