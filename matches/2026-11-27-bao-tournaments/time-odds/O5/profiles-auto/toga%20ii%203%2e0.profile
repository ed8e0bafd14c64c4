nosce-profile 1
key toga ii 3.0
name Toga II 3.0
games 264
moves 18725
elo none
candidate 2412 667 0.0 self:depth=1
candidate 1631 175 0.0 self:depth=1#differ
candidate 2412 704 0.0 self:depth=2
candidate 1535 168 0.0 self:depth=2#differ
candidate 2412 788 0.0 self:depth=3
candidate 1411 201 0.0 self:depth=3#differ
candidate 2412 822 0.0 self:depth=4
candidate 1336 214 0.0 self:depth=4#differ
candidate 2412 308 0.0 material:depth=2
candidate 397 113 0.0 material:depth=2#differ
candidate 18710 11431 0.0 engine:depth=6
candidate 9842 4268 0.0 engine:depth=6#differ
candidate 18725 0 -118.93988173823413 self:depth=1@0
candidate 18725 0 -77.61600134521191 self:depth=1@40
candidate 18725 0 -73.94458506867377 self:depth=1@120
candidate 18725 0 -116.21139623552737 self:depth=2@0
candidate 18725 0 -78.48720920252447 self:depth=2@40
candidate 18725 0 -73.35369101626685 self:depth=2@120
candidate 18725 0 -112.23937521361349 self:depth=3@0
candidate 18725 0 -69.24553000376332 self:depth=3@40
candidate 18725 0 -69.64212808611761 self:depth=3@120
candidate 18725 0 -99.15977836838303 self:depth=4@0
candidate 18725 0 -65.27942541053503 self:depth=4@40
candidate 18725 0 -67.87319003582422 self:depth=4@120
candidate 18725 0 -80.93586313150647 material:depth=2@0
candidate 18725 0 -73.59324291482118 material:depth=2@40
candidate 18725 0 -74.63826224941653 material:depth=2@120
candidate 18725 0 -77.48844033673222 engine:depth=6@0
candidate 409 0 3752.893860693271 #drift
checksum 155b56788129cbb2
