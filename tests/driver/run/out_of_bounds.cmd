k --block 4 'p=zeros(Float32, 4)' n=2
