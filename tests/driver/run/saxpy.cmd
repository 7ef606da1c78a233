saxpy --grid 3 --block 4 'x=iota(Float32, 10)' 'y=Float32[1, 1, 1, 1, 1, 1, 1, 1, 1, 1]' a=2.5 n=10 --print y
