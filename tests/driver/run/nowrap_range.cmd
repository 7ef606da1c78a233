k --grid 1 --block 1 'p=zeros(Int32, 1)' a=2147483600 b=2147483647 --print p
