saxpy --grid 1 --block 256 'x=iota(Float32, 5)' 'y=Float32[1, 1, 1, 1, 1]' a=2.5 n=5 --print y
saxpy --grid 4 --block 256 'x=iota(Float32, 1000)' 'y=zeros(Float32, 1000)' a=2.5 n=1000
saxpy --grid 4 'x=iota(Float32, 1000)' 'y=zeros(Float32, 1000)' a=2.5 n=1000
