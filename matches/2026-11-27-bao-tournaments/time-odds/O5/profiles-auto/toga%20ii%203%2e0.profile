nosce-profile 1
key toga ii 3.0
name Toga II 3.0
games 395
moves 28640
elo none
candidate 3591 973 0.0 self:depth=1
candidate 2419 245 0.0 self:depth=1#differ
candidate 3591 1048 0.0 self:depth=2
candidate 2287 249 0.0 self:depth=2#differ
candidate 3591 1158 0.0 self:depth=3
candidate 2100 293 0.0 self:depth=3#differ
candidate 3591 1225 0.0 self:depth=4
candidate 1988 314 0.0 self:depth=4#differ
candidate 3591 472 0.0 material:depth=2
candidate 569 169 0.0 material:depth=2#differ
candidate 28614 17584 0.0 engine:depth=6
candidate 15052 6661 0.0 engine:depth=6#differ
candidate 28640 0 -134.6940728626966 self:depth=1@0
candidate 28640 0 -88.75538983812703 self:depth=1@40
candidate 28640 0 -81.99797706022818 self:depth=1@120
candidate 28640 0 -124.96247095180128 self:depth=2@0
candidate 28640 0 -78.2059274210234 self:depth=2@40
candidate 28640 0 -76.77947934932341 self:depth=2@120
candidate 28640 0 -109.98043009934196 self:depth=3@0
candidate 28640 0 -72.2435395161408 self:depth=3@40
candidate 28640 0 -74.69596738587245 self:depth=3@120
candidate 28640 0 -111.64988816843145 self:depth=4@0
candidate 28640 0 -70.01338742856717 self:depth=4@40
candidate 28640 0 -72.96294887174713 self:depth=4@120
candidate 28640 0 -79.4587267351651 material:depth=2@0
candidate 28640 0 -74.6240068696386 material:depth=2@40
candidate 28640 0 -79.55778591459398 material:depth=2@120
candidate 28640 0 -62.21483550967668 engine:depth=6@0
candidate 445 0 657.9753710386673 #drift
checksum f862de06070cdc69
