nosce-profile 1
key gnu chess 6.2.7
name GNU Chess 6.2.7
games 382
moves 26846
elo none
candidate 3383 991 0.0 self:depth=1
candidate 2226 260 0.0 self:depth=1#differ
candidate 3383 1107 0.0 self:depth=2
candidate 2082 280 0.0 self:depth=2#differ
candidate 3383 1180 0.0 self:depth=3
candidate 1906 300 0.0 self:depth=3#differ
candidate 3383 1211 0.0 self:depth=4
candidate 1822 311 0.0 self:depth=4#differ
candidate 3383 517 0.0 material:depth=2
candidate 573 181 0.0 material:depth=2#differ
candidate 26812 17733 0.0 engine:depth=5
candidate 13945 6878 0.0 engine:depth=5#differ
candidate 26846 0 -130.93145173747212 self:depth=1@0
candidate 26846 0 -85.27434513933234 self:depth=1@40
candidate 26846 0 -78.42509004377438 self:depth=1@120
candidate 26846 0 -124.30959175282155 self:depth=2@0
candidate 26846 0 -80.26044964271745 self:depth=2@40
candidate 26846 0 -75.90665313072574 self:depth=2@120
candidate 26846 0 -121.10628483454222 self:depth=3@0
candidate 26846 0 -69.56455864593252 self:depth=3@40
candidate 26846 0 -71.9926922693588 self:depth=3@120
candidate 26846 0 -116.30754151280388 self:depth=4@0
candidate 26846 0 -67.20792484147789 self:depth=4@40
candidate 26846 0 -71.11897796314507 self:depth=4@120
candidate 26846 0 -81.6042886865532 material:depth=2@0
candidate 26846 0 -72.62153384155322 material:depth=2@40
candidate 26846 0 -78.13862341512218 material:depth=2@120
candidate 26846 0 -72.24415681482299 engine:depth=5@0
candidate 433 0 4089.12264057574 #drift
checksum 21d5f32bf5436461
