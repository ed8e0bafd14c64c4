# Usage: python3 stats.py W D L [GOAL_ELO]  (the one-sided test is of H0 "Elo <= GOAL_ELO",
# default 150: issue 17's goal against the hand-crafted nosce; +100 is its goal against Toga II).
import math, sys
w, d, l = map(int, sys.argv[1:4])
goal = float(sys.argv[4]) if len(sys.argv) > 4 else 150.0
n = w + d + l
s = (w + 0.5 * d) / n
var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
se = math.sqrt(var / n)
elo = lambda p: -400 * math.log10(1 / p - 1)
print(f"n={n} score={s*100:.2f}% elo={elo(s):+.1f} 95%=[{elo(s-1.96*se):+.1f},{elo(s+1.96*se):+.1f}] (+-{(elo(s+1.96*se)-elo(s-1.96*se))/2:.1f})")
erf = lambda z: 0.5 * math.erfc(-z / math.sqrt(2))
z0 = (s - 0.5) / se
print(f"z vs 50% = {z0:.2f}, p two-sided = {2*(1-erf(abs(z0))):.2e}")
pg = 1 / (1 + 10 ** (-goal / 400))
z1 = (s - pg) / se
print(f"score at {goal:+g} = {pg*100:.2f}%, z = {z1:.2f}, one-sided p (H0 elo<={goal:g}) = {1-erf(z1):.3g}")
