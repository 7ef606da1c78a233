k --grid 1 'p=iota(Float32, 16)' 'q=iota(Float64, 8)' --block 2 --print p --print q
