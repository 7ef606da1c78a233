k 'p=zeros(Int32, 256)' --block 64
