stats --grid 2 --block 64 'x=iota(Float32, 128)' 'out=zeros(Float32, 6)' --print out
