k 'p=zeros(Float32, 2)' a=0.01 --fp-contract=off --print p
