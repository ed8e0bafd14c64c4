nosce-profile 1
key gnu chess 6.2.7
name GNU Chess 6.2.7
games 237
moves 16289
elo none
candidate 2127 667 0.0 self:depth=1
candidate 1371 165 0.0 self:depth=1#differ
candidate 2127 732 0.0 self:depth=2
candidate 1289 180 0.0 self:depth=2#differ
candidate 2127 781 0.0 self:depth=3
candidate 1169 181 0.0 self:depth=3#differ
candidate 2127 803 0.0 self:depth=4
candidate 1123 198 0.0 self:depth=4#differ
candidate 2127 351 0.0 material:depth=2
candidate 362 110 0.0 material:depth=2#differ
candidate 16270 10858 0.0 engine:depth=5
candidate 8359 4163 0.0 engine:depth=5#differ
candidate 16289 0 -114.85128991626884 self:depth=1@0
candidate 16289 0 -73.08321133096894 self:depth=1@40
candidate 16289 0 -72.20210207538818 self:depth=1@120
candidate 16289 0 -102.82332263209601 self:depth=2@0
candidate 16289 0 -65.76428068248372 self:depth=2@40
candidate 16289 0 -68.90058304851279 self:depth=2@120
candidate 16289 0 -95.25148222648458 self:depth=3@0
candidate 16289 0 -61.58678891202532 self:depth=3@40
candidate 16289 0 -66.28977438482063 self:depth=3@120
candidate 16289 0 -86.20758767916656 self:depth=4@0
candidate 16289 0 -61.31666616559283 self:depth=4@40
candidate 16289 0 -67.13217723239576 self:depth=4@120
candidate 16289 0 -71.05012090973803 material:depth=2@0
candidate 16289 0 -65.89100408839454 material:depth=2@40
candidate 16289 0 -72.55888897163989 material:depth=2@120
candidate 16289 0 -54.30539114037424 engine:depth=5@0
candidate 530 0 4495.1240092658345 #drift
checksum d26c5ea907ca81df
