cd /work/m14
python3 /work/main/benches/match.py --engine1 /work/m14/nosce-7f919c9 --engine2 /usr/games/toga2 --option2 OwnBook=false --games 400 --first 142 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m14/A14-ab.pgn > /work/m14/A14-ab-2.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m14/nosce-7f919c9 --engine2 /usr/games/toga2 --option2 OwnBook=false --option1 OM_Mode=auto --option1 OM_ProfileDir=/work/m14/prof-B --games 400 --first 141 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m14/B14-auto.pgn > /work/m14/B14-auto-2.log 2>&1 &
wait
