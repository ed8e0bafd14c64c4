nosce-profile 1
key gnu chess 6.2.7
name GNU Chess 6.2.7
games 22
moves 1163
elo none
candidate 304 100 0.0 self:depth=1
candidate 204 31 0.0 self:depth=1#differ
candidate 304 97 0.0 self:depth=2
candidate 182 25 0.0 self:depth=2#differ
candidate 304 116 0.0 self:depth=3
candidate 161 29 0.0 self:depth=3#differ
candidate 304 110 0.0 self:depth=4
candidate 177 31 0.0 self:depth=4#differ
candidate 304 48 0.0 material:depth=2
candidate 57 17 0.0 material:depth=2#differ
candidate 1162 762 0.0 engine:depth=5
candidate 596 288 0.0 engine:depth=5#differ
candidate 1163 0 -97.1170031241248 self:depth=1@0
candidate 1163 0 -60.59469531739145 self:depth=1@40
candidate 1163 0 -63.94097923577474 self:depth=1@120
candidate 1163 0 -94.95772448195116 self:depth=2@0
candidate 1163 0 -63.528741395673585 self:depth=2@40
candidate 1163 0 -65.05710014372916 self:depth=2@120
candidate 1163 0 -73.6481902153124 self:depth=3@0
candidate 1163 0 -56.75208128703988 self:depth=3@40
candidate 1163 0 -61.41709173248882 self:depth=3@120
candidate 1163 0 -82.71114390026224 self:depth=4@0
candidate 1163 0 -60.210108337434974 self:depth=4@40
candidate 1163 0 -62.29747373984097 self:depth=4@120
candidate 1163 0 -69.10279349182127 material:depth=2@0
candidate 1163 0 -62.8379358982476 material:depth=2@40
candidate 1163 0 -69.022076330444 material:depth=2@120
candidate 1163 0 -46.80624610811924 engine:depth=5@0
candidate 401 0 12309.066726063253 #drift
checksum 698cfd2587c3bf8d
