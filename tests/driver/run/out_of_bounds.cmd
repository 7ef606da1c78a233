k --grid 1 --block 4 'p=zeros(Float32, 4)' n=2
