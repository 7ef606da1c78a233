k 'p=zeros(Int32, 256)' --grid 1 --block 256
