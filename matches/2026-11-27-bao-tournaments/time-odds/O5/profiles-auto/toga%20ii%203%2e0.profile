nosce-profile 1
key toga ii 3.0
name Toga II 3.0
games 119
moves 8432
elo none
candidate 1190 324 0.0 self:depth=1
candidate 795 85 0.0 self:depth=1#differ
candidate 1190 353 0.0 self:depth=2
candidate 758 87 0.0 self:depth=2#differ
candidate 1190 387 0.0 self:depth=3
candidate 691 91 0.0 self:depth=3#differ
candidate 1190 404 0.0 self:depth=4
candidate 662 105 0.0 self:depth=4#differ
candidate 1190 154 0.0 material:depth=2
candidate 192 60 0.0 material:depth=2#differ
candidate 8424 5236 0.0 engine:depth=6
candidate 4377 1945 0.0 engine:depth=6#differ
candidate 8432 0 -114.4865514539599 self:depth=1@0
candidate 8432 0 -74.54206939985731 self:depth=1@40
candidate 8432 0 -79.94751823320392 self:depth=1@120
candidate 8432 0 -112.661308673138 self:depth=2@0
candidate 8432 0 -73.22259913057052 self:depth=2@40
candidate 8432 0 -78.04379798603625 self:depth=2@120
candidate 8432 0 -111.13560347545244 self:depth=3@0
candidate 8432 0 -71.24380193429516 self:depth=3@40
candidate 8432 0 -76.5344005364749 self:depth=3@120
candidate 8432 0 -101.96784668176839 self:depth=4@0
candidate 8432 0 -66.93807429775096 self:depth=4@40
candidate 8432 0 -74.12765392112296 self:depth=4@120
candidate 8432 0 -82.04793178146387 material:depth=2@0
candidate 8432 0 -77.70250403945188 material:depth=2@40
candidate 8432 0 -83.33717139356816 material:depth=2@120
candidate 8432 0 -64.64947997448284 engine:depth=6@0
candidate 423 0 668.5251870125976 #drift
checksum 1ee4a0829857ed66
