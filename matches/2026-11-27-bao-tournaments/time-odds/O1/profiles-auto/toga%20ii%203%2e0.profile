nosce-profile 1
key toga ii 3.0
name Toga II 3.0
games 15
moves 679
elo none
candidate 679 242 0.0 self:depth=1
candidate 427 56 0.0 self:depth=1#differ
candidate 679 253 0.0 self:depth=2
candidate 402 57 0.0 self:depth=2#differ
candidate 679 254 0.0 self:depth=3
candidate 373 55 0.0 self:depth=3#differ
candidate 679 261 0.0 self:depth=4
candidate 355 55 0.0 self:depth=4#differ
candidate 679 141 0.0 material:depth=2
candidate 138 51 0.0 material:depth=2#differ
candidate 679 0 -93.36104514018233 self:depth=1@0
candidate 679 0 -69.8481550449113 self:depth=1@40
candidate 679 0 -64.69373358089706 self:depth=1@120
candidate 679 0 -94.2607046455842 self:depth=2@0
candidate 679 0 -66.62222424070205 self:depth=2@40
candidate 679 0 -63.64083552254236 self:depth=2@120
candidate 679 0 -89.91022258575082 self:depth=3@0
candidate 679 0 -58.34137587174084 self:depth=3@40
candidate 679 0 -60.00464234005069 self:depth=3@120
candidate 679 0 -97.54948538710643 self:depth=4@0
candidate 679 0 -61.474566794274125 self:depth=4@40
candidate 679 0 -61.36917974263741 self:depth=4@120
candidate 679 0 -66.18548104304963 material:depth=2@0
candidate 679 0 -61.37992354409499 material:depth=2@40
candidate 679 0 -66.16336574269674 material:depth=2@120
candidate 414 0 10439.800148958317 #drift
checksum 104d3fabcda2f0b1
