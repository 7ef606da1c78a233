k --grid 1 'out=zeros(Float32, 64)' --block 64 -O0 --print out
