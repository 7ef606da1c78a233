k --grid 1 --block 1 'p=zeros(Float32, 1)' 'n=Int32[1, 2]' u=3
