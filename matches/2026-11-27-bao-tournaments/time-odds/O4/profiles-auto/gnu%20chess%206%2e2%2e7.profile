nosce-profile 1
key gnu chess 6.2.7
name GNU Chess 6.2.7
games 208
moves 14361
elo none
candidate 1897 589 0.0 self:depth=1
candidate 1239 150 0.0 self:depth=1#differ
candidate 1897 639 0.0 self:depth=2
candidate 1166 157 0.0 self:depth=2#differ
candidate 1897 685 0.0 self:depth=3
candidate 1054 159 0.0 self:depth=3#differ
candidate 1897 696 0.0 self:depth=4
candidate 1025 172 0.0 self:depth=4#differ
candidate 1897 310 0.0 material:depth=2
candidate 327 102 0.0 material:depth=2#differ
candidate 14349 9573 0.0 engine:depth=5
candidate 7380 3657 0.0 engine:depth=5#differ
candidate 14361 0 -113.88212317722682 self:depth=1@0
candidate 14361 0 -73.4082949605266 self:depth=1@40
candidate 14361 0 -77.84574340703479 self:depth=1@120
candidate 14361 0 -120.59124219574493 self:depth=2@0
candidate 14361 0 -74.66387902400514 self:depth=2@40
candidate 14361 0 -77.71441578908211 self:depth=2@120
candidate 14361 0 -108.68950858274212 self:depth=3@0
candidate 14361 0 -66.7960755392578 self:depth=3@40
candidate 14361 0 -74.71497161359771 self:depth=3@120
candidate 14361 0 -110.44405990427063 self:depth=4@0
candidate 14361 0 -63.329314022219414 self:depth=4@40
candidate 14361 0 -72.15034995884936 self:depth=4@120
candidate 14361 0 -78.82048261988874 material:depth=2@0
candidate 14361 0 -76.96718369523225 material:depth=2@40
candidate 14361 0 -81.46213737149807 material:depth=2@120
candidate 14361 0 -70.80330673386489 engine:depth=5@0
candidate 404 0 4075.5249084142033 #drift
checksum dd399898bd6e96fb
