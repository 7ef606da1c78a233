k --grid 1 --block 1 'p=zeros(Float32, 1)' n=1 n=2
