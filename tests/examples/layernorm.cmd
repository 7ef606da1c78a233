layernorm --grid 2 --block 256 'x=Float32[1, 2, 3, 4, 10, 10, 10, 14]' 'gamma=Float32[1, 1, 2, 2]' 'beta=Float32[0, 0, 0, 1]' 'y=zeros(Float32, 8)' rows=2 cols=4 --print y
