spin --grid 1 'p=zeros(Int32, 1)' --block 64 --timeout 0.5
