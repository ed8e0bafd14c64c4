nosce-profile 1
key toga ii 3.0
name Toga II 3.0
games 238
moves 16864
elo none
candidate 2190 609 0.0 self:depth=1
candidate 1479 163 0.0 self:depth=1#differ
candidate 2190 650 0.0 self:depth=2
candidate 1386 161 0.0 self:depth=2#differ
candidate 2190 724 0.0 self:depth=3
candidate 1278 190 0.0 self:depth=3#differ
candidate 2190 753 0.0 self:depth=4
candidate 1207 202 0.0 self:depth=4#differ
candidate 2190 284 0.0 material:depth=2
candidate 355 101 0.0 material:depth=2#differ
candidate 16849 10338 0.0 engine:depth=6
candidate 8863 3871 0.0 engine:depth=6#differ
candidate 16864 0 -130.3901305939705 self:depth=1@0
candidate 16864 0 -80.07069028886481 self:depth=1@40
candidate 16864 0 -79.54320074648777 self:depth=1@120
candidate 16864 0 -122.63166202796478 self:depth=2@0
candidate 16864 0 -76.85016923483195 self:depth=2@40
candidate 16864 0 -76.99688581626249 self:depth=2@120
candidate 16864 0 -109.77193530940596 self:depth=3@0
candidate 16864 0 -68.07760815685376 self:depth=3@40
candidate 16864 0 -74.47065107684139 self:depth=3@120
candidate 16864 0 -99.99213203161403 self:depth=4@0
candidate 16864 0 -63.120567438436844 self:depth=4@40
candidate 16864 0 -71.78785832339142 self:depth=4@120
candidate 16864 0 -81.98338612524304 material:depth=2@0
candidate 16864 0 -77.96930268401108 material:depth=2@40
candidate 16864 0 -79.99244062351669 material:depth=2@120
candidate 16864 0 -90.13955845141024 engine:depth=6@0
candidate 407 0 -978.4114965803772 #drift
checksum 160706c822cb795a
