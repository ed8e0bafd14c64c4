cd /work/m6
python3 /work/main/benches/match.py --engine1 /work/m6/nosce-301848c --engine2 /usr/games/toga2 --option2 OwnBook=false --games 90 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m6/A6-ab.pgn > /work/m6/A6-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m6/nosce-301848c --engine2 /usr/games/toga2 --option2 OwnBook=false --option1 OM_Mode=auto --option1 OM_ProfileDir=/work/m6/prof-B --games 90 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m6/B6-auto.pgn > /work/m6/B6-auto.log 2>&1 &
wait
