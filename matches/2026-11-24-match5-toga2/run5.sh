cd /work/m5
python3 /work/main/benches/match.py --engine1 /work/m5/nosce-90fec4f --engine2 /usr/games/toga2 --option2 OwnBook=false --games 160 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m5/A5-ab.pgn > /work/m5/A5-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m5/nosce-90fec4f --engine2 /usr/games/toga2 --option2 OwnBook=false --option1 OM_Mode=auto --option1 OM_ProfileDir=/work/m5/prof-B --games 160 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m5/B5-auto.pgn > /work/m5/B5-auto.log 2>&1 &
wait
