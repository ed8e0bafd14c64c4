nosce-profile 1
key toga ii 3.0
name Toga II 3.0
games 405
moves 29438
elo none
candidate 3685 996 0.0 self:depth=1
candidate 2486 254 0.0 self:depth=1#differ
candidate 3685 1072 0.0 self:depth=2
candidate 2347 257 0.0 self:depth=2#differ
candidate 3685 1177 0.0 self:depth=3
candidate 2151 298 0.0 self:depth=3#differ
candidate 3685 1247 0.0 self:depth=4
candidate 2037 320 0.0 self:depth=4#differ
candidate 3685 479 0.0 material:depth=2
candidate 583 175 0.0 material:depth=2#differ
candidate 29409 18032 0.0 engine:depth=6
candidate 15495 6838 0.0 engine:depth=6#differ
candidate 29438 0 -132.18288822052716 self:depth=1@0
candidate 29438 0 -87.5081925607365 self:depth=1@40
candidate 29438 0 -85.91106226044332 self:depth=1@120
candidate 29438 0 -130.8364846643487 self:depth=2@0
candidate 29438 0 -89.67926048791597 self:depth=2@40
candidate 29438 0 -86.25059920502629 self:depth=2@120
candidate 29438 0 -134.98875940987745 self:depth=3@0
candidate 29438 0 -88.9315439908573 self:depth=3@40
candidate 29438 0 -85.48996156390066 self:depth=3@120
candidate 29438 0 -130.50196676713534 self:depth=4@0
candidate 29438 0 -85.51323084103336 self:depth=4@40
candidate 29438 0 -84.42699414049444 self:depth=4@120
candidate 29438 0 -94.60136189321871 material:depth=2@0
candidate 29438 0 -87.24344245918142 material:depth=2@40
candidate 29438 0 -88.94429997598571 material:depth=2@120
candidate 29438 0 -87.48780542123403 engine:depth=6@0
candidate 484 0 1055.7732440771733 #drift
checksum 1aaec136ff6bbf09
