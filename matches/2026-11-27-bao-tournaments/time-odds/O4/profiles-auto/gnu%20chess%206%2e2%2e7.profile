nosce-profile 1
key gnu chess 6.2.7
name GNU Chess 6.2.7
games 97
moves 6416
elo none
candidate 954 307 0.0 self:depth=1
candidate 621 73 0.0 self:depth=1#differ
candidate 954 331 0.0 self:depth=2
candidate 575 74 0.0 self:depth=2#differ
candidate 954 350 0.0 self:depth=3
candidate 536 76 0.0 self:depth=3#differ
candidate 954 370 0.0 self:depth=4
candidate 501 80 0.0 self:depth=4#differ
candidate 954 163 0.0 material:depth=2
candidate 172 47 0.0 material:depth=2#differ
candidate 6410 4301 0.0 engine:depth=5
candidate 3213 1572 0.0 engine:depth=5#differ
candidate 6416 0 -119.86755059565763 self:depth=1@0
candidate 6416 0 -84.02484687339818 self:depth=1@40
candidate 6416 0 -80.01698562421254 self:depth=1@120
candidate 6416 0 -112.49308465719977 self:depth=2@0
candidate 6416 0 -78.7936125394503 self:depth=2@40
candidate 6416 0 -77.73995422345014 self:depth=2@120
candidate 6416 0 -104.04824222173983 self:depth=3@0
candidate 6416 0 -66.65096583900814 self:depth=3@40
candidate 6416 0 -71.69605113254858 self:depth=3@120
candidate 6416 0 -111.30939073837447 self:depth=4@0
candidate 6416 0 -63.159384036347376 self:depth=4@40
candidate 6416 0 -69.37400182828618 self:depth=4@120
candidate 6416 0 -81.52203696459445 material:depth=2@0
candidate 6416 0 -73.76855842830804 material:depth=2@40
candidate 6416 0 -78.15676790221559 material:depth=2@120
candidate 6416 0 -60.04822547807893 engine:depth=5@0
candidate 414 0 1012.1555409495662 #drift
checksum c0cc2f884f283fae
