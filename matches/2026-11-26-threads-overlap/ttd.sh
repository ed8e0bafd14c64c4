# Interleaved time-to-depth rounds (issue 14): /tmp/nosce-head = 055b1be, /tmp/nosce-overlap =
# the working tree that became the commit adding src/search/om/overlap.rs. Run from the repo.
for r in 1 2; do for b in head overlap; do echo "== round $r $b"; python3 benches/ttd.py --engine /tmp/nosce-$b --threads 2 --depths 11,13 --only opponent; done; done > ttd-rounds-1-2.txt
for r in 1 2 3; do for b in overlap head; do echo "== round $r $b"; python3 benches/ttd.py --engine /tmp/nosce-$b --threads 2 --depths 11,13 --only opponent; done; done > ttd-rounds-3-5-prom.txt
for b in overlap head; do echo "== prom $b"; python3 benches/ttd.py --engine /tmp/nosce-$b --threads 2 --depths 11 --only PrOM; done >> ttd-rounds-3-5-prom.txt
python3 matches/2026-11-26-threads-overlap/alternate.py 5 13 "OM_Mode=om OM_SpeculationDepth=2 OM_OpponentDepth=4" /tmp/nosce-head /tmp/nosce-overlap /tmp/nosce-pipe1 > alternate.txt
# The kept version (/tmp/nosce-varD: alpha-beta's best of the previous iteration first):
for r in 1 2; do for b in varD head; do echo "== round $r $b"; python3 benches/ttd.py --engine /tmp/nosce-$b --threads 2 --depths 11,13 --only opponent; done; done > ttd-kept.txt
for b in varD head; do echo "== prom $b"; python3 benches/ttd.py --engine /tmp/nosce-$b --threads 2 --depths 11 --only PrOM; done >> ttd-kept.txt
python3 matches/2026-11-26-threads-overlap/alternate.py 5 13 "OM_Mode=om OM_SpeculationDepth=2 OM_OpponentDepth=4" /tmp/nosce-head /tmp/nosce-varD >> alternate.txt
# Games at fixed depth 9 (A against B, 10 openings, both colours):
# python3 matches/2026-11-26-threads-overlap/fixed_depth.py /tmp/nosce-varD /tmp/nosce-head 9 10
