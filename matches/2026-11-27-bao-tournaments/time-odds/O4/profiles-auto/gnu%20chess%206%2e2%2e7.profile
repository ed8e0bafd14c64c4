nosce-profile 1
key gnu chess 6.2.7
name GNU Chess 6.2.7
games 64
moves 4343
elo none
candidate 709 237 0.0 self:depth=1
candidate 455 54 0.0 self:depth=1#differ
candidate 709 258 0.0 self:depth=2
candidate 416 56 0.0 self:depth=2#differ
candidate 709 264 0.0 self:depth=3
candidate 398 56 0.0 self:depth=3#differ
candidate 709 283 0.0 self:depth=4
candidate 360 57 0.0 self:depth=4#differ
candidate 709 128 0.0 material:depth=2
candidate 118 34 0.0 material:depth=2#differ
candidate 4340 2896 0.0 engine:depth=5
candidate 2168 1049 0.0 engine:depth=5#differ
candidate 4343 0 -105.23930394320183 self:depth=1@0
candidate 4343 0 -67.40741985898364 self:depth=1@40
candidate 4343 0 -66.48624362256623 self:depth=1@120
candidate 4343 0 -98.62421606134606 self:depth=2@0
candidate 4343 0 -66.17985150703917 self:depth=2@40
candidate 4343 0 -64.62214140121569 self:depth=2@120
candidate 4343 0 -97.08385959513285 self:depth=3@0
candidate 4343 0 -56.56101877101134 self:depth=3@40
candidate 4343 0 -61.391969910774826 self:depth=3@120
candidate 4343 0 -89.10934147384872 self:depth=4@0
candidate 4343 0 -53.226001142975 self:depth=4@40
candidate 4343 0 -60.75347817385228 self:depth=4@120
candidate 4343 0 -67.63360347969487 material:depth=2@0
candidate 4343 0 -67.27435799112891 material:depth=2@40
candidate 4343 0 -70.57025520679802 material:depth=2@120
candidate 4343 0 -49.73293731707824 engine:depth=5@0
candidate 439 0 3463.663430687756 #drift
checksum d4ae1d1a7919b3d9
