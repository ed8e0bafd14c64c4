cd /work/m7
python3 /work/main/benches/match.py --engine1 /work/m7/nosce-180bdcd --engine2 /usr/games/stockfish --option2 UCI_LimitStrength=true --option2 UCI_Elo=2050 --rating2 2050 --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m7/A7-ab.pgn > /work/m7/A7-ab.log 2>&1 &
python3 /work/main/benches/match.py --engine1 /work/m7/nosce-180bdcd --engine2 /usr/games/stockfish --option2 UCI_LimitStrength=true --option2 UCI_Elo=2050 --rating2 2050 --option1 OM_Mode=auto --option1 OM_ContemptCeiling=30 --option1 OM_ProfileDir=/work/m7/prof-B --games 400 --tc 5+0.05 --openings /work/shared/openings/2moves_v1.epd --pgn /work/m7/B7-auto.pgn > /work/m7/B7-auto.log 2>&1 &
wait
