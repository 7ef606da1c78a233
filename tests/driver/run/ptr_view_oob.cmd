before --grid 1 --block 2 'w=iota(Uint32, 2)' 'out=zeros(Uint32, 2)' --print out
