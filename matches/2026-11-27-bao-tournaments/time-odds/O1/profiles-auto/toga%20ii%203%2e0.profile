nosce-profile 1
key toga ii 3.0
name Toga II 3.0
games 18
moves 697
elo none
candidate 697 248 0.0 self:depth=1
candidate 436 56 0.0 self:depth=1#differ
candidate 697 261 0.0 self:depth=2
candidate 411 59 0.0 self:depth=2#differ
candidate 697 262 0.0 self:depth=3
candidate 383 57 0.0 self:depth=3#differ
candidate 697 267 0.0 self:depth=4
candidate 364 56 0.0 self:depth=4#differ
candidate 697 145 0.0 material:depth=2
candidate 139 51 0.0 material:depth=2#differ
candidate 697 0 -102.42129244606177 self:depth=1@0
candidate 697 0 -71.90341631891003 self:depth=1@40
candidate 697 0 -69.06552060049046 self:depth=1@120
candidate 697 0 -93.05466375274091 self:depth=2@0
candidate 697 0 -66.2467885027955 self:depth=2@40
candidate 697 0 -66.86686044888896 self:depth=2@120
candidate 697 0 -94.29732632743934 self:depth=3@0
candidate 697 0 -57.137029182528735 self:depth=3@40
candidate 697 0 -63.080131204362154 self:depth=3@120
candidate 697 0 -105.8267686520288 self:depth=4@0
candidate 697 0 -58.7591749358161 self:depth=4@40
candidate 697 0 -63.66467229156508 self:depth=4@120
candidate 697 0 -70.02079463146467 material:depth=2@0
candidate 697 0 -64.76605709965592 material:depth=2@40
candidate 697 0 -70.57510904437055 material:depth=2@120
candidate 446 0 9391.00526712159 #drift
checksum 0939ea5d105008df
