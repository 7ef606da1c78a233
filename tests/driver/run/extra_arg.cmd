k --grid 1 --block 1 'p=zeros(Int32, 1)' n=3 m=4
