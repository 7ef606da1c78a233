k --grid 1 --block 1 'p=zeros(Float32, 2)' a=0.01 --fp-contract=off --print p
