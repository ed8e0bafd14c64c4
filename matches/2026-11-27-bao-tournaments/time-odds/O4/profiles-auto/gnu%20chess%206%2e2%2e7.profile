nosce-profile 1
key gnu chess 6.2.7
name GNU Chess 6.2.7
games 406
moves 28636
elo none
candidate 3595 1070 0.0 self:depth=1
candidate 2355 275 0.0 self:depth=1#differ
candidate 3595 1186 0.0 self:depth=2
candidate 2206 295 0.0 self:depth=2#differ
candidate 3595 1264 0.0 self:depth=3
candidate 2013 316 0.0 self:depth=3#differ
candidate 3595 1293 0.0 self:depth=4
candidate 1920 326 0.0 self:depth=4#differ
candidate 3595 553 0.0 material:depth=2
candidate 612 193 0.0 material:depth=2#differ
candidate 28599 18929 0.0 engine:depth=5
candidate 14897 7365 0.0 engine:depth=5#differ
candidate 28636 0 -96.94671662590596 self:depth=1@0
candidate 28636 0 -80.05420428913939 self:depth=1@40
candidate 28636 0 -73.56768990750228 self:depth=1@120
candidate 28636 0 -95.17473352949962 self:depth=2@0
candidate 28636 0 -78.42009512423532 self:depth=2@40
candidate 28636 0 -73.16877350199394 self:depth=2@120
candidate 28636 0 -93.62229274202153 self:depth=3@0
candidate 28636 0 -69.42457188192822 self:depth=3@40
candidate 28636 0 -69.14393744803992 self:depth=3@120
candidate 28636 0 -84.30423784613279 self:depth=4@0
candidate 28636 0 -60.77049384137544 self:depth=4@40
candidate 28636 0 -66.68520884247887 self:depth=4@120
candidate 28636 0 -91.66150634483596 material:depth=2@0
candidate 28636 0 -82.06362395198882 material:depth=2@40
candidate 28636 0 -78.88531119008246 material:depth=2@120
candidate 28636 0 -43.851343998294055 engine:depth=5@0
candidate 463 0 1734.9279775646728 #drift
checksum 4a06b8cbe056aca0
