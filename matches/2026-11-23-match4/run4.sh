cd /work/m4
python3 /work/main/benches/match.py --engine1 /work/m4/nosce-07ee865 --engine2 /usr/games/stockfish --option2 UCI_LimitStrength=true --option2 UCI_Elo=2050 --rating2 2050 --games 240 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m4/A4-ab.pgn > /work/m4/A4-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m4/nosce-07ee865 --engine2 /usr/games/stockfish --option2 UCI_LimitStrength=true --option2 UCI_Elo=2050 --rating2 2050 --option1 OM_Mode=auto --option1 OM_ProfileDir=/work/m4/prof-B --games 240 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m4/B4-auto.pgn > /work/m4/B4-auto.log 2>&1 &
wait
