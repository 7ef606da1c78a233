scale --grid 1 --block 4 'x=iota(Float32, 4)' y=@x a=3 --print x --print y
