nosce-profile 1
key toga ii 3.0
name Toga II 3.0
games 4
moves 193
elo none
candidate 193 63 0.0 self:depth=1
candidate 130 17 0.0 self:depth=1#differ
candidate 193 72 0.0 self:depth=2
candidate 118 16 0.0 self:depth=2#differ
candidate 193 81 0.0 self:depth=3
candidate 97 16 0.0 self:depth=3#differ
candidate 193 77 0.0 self:depth=4
candidate 105 19 0.0 self:depth=4#differ
candidate 193 35 0.0 material:depth=2
candidate 40 14 0.0 material:depth=2#differ
candidate 193 0 -96.2682736679589 self:depth=1@0
candidate 193 0 -63.36027338563354 self:depth=1@40
candidate 193 0 -62.32333177427202 self:depth=1@120
candidate 193 0 -94.07560256378949 self:depth=2@0
candidate 193 0 -60.42870018354272 self:depth=2@40
candidate 193 0 -60.21015513239498 self:depth=2@120
candidate 193 0 -75.61364720497605 self:depth=3@0
candidate 193 0 -56.21437126345949 self:depth=3@40
candidate 193 0 -58.555902658798274 self:depth=3@120
candidate 193 0 -84.92516299945413 self:depth=4@0
candidate 193 0 -57.979143762048146 self:depth=4@40
candidate 193 0 -58.369464058100704 self:depth=4@120
candidate 193 0 -66.53785291579969 material:depth=2@0
candidate 193 0 -62.8796073758088 material:depth=2@40
candidate 193 0 -67.04786606223098 material:depth=2@120
candidate 167 0 2676.0 #drift
checksum 9b0d84213976b4d8
