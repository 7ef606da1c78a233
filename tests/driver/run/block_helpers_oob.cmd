k --grid 1 --block 16 'p=zeros(Int32, 16)'
