nosce-profile 1
key gnu chess 6.2.7
name GNU Chess 6.2.7
games 372
moves 26120
elo none
candidate 3296 969 0.0 self:depth=1
candidate 2161 249 0.0 self:depth=1#differ
candidate 3296 1082 0.0 self:depth=2
candidate 2025 273 0.0 self:depth=2#differ
candidate 3296 1157 0.0 self:depth=3
candidate 1850 293 0.0 self:depth=3#differ
candidate 3296 1187 0.0 self:depth=4
candidate 1773 306 0.0 self:depth=4#differ
candidate 3296 506 0.0 material:depth=2
candidate 561 176 0.0 material:depth=2#differ
candidate 26086 17263 0.0 engine:depth=5
candidate 13555 6688 0.0 engine:depth=5#differ
candidate 26120 0 -108.89054487794553 self:depth=1@0
candidate 26120 0 -76.46832410950145 self:depth=1@40
candidate 26120 0 -73.40340979440113 self:depth=1@120
candidate 26120 0 -107.10139316866238 self:depth=2@0
candidate 26120 0 -69.67779768585127 self:depth=2@40
candidate 26120 0 -70.75332111206008 self:depth=2@120
candidate 26120 0 -91.05578117915337 self:depth=3@0
candidate 26120 0 -60.2560228158342 self:depth=3@40
candidate 26120 0 -67.22303192677053 self:depth=3@120
candidate 26120 0 -89.95280420757194 self:depth=4@0
candidate 26120 0 -58.19585250666581 self:depth=4@40
candidate 26120 0 -65.34233910568234 self:depth=4@120
candidate 26120 0 -83.04754703129916 material:depth=2@0
candidate 26120 0 -73.31966473363042 material:depth=2@40
candidate 26120 0 -75.7303804150195 material:depth=2@120
candidate 26120 0 -53.623799800087966 engine:depth=5@0
candidate 407 0 1457.8617598653018 #drift
checksum fe5d46132da93890
