poke --grid 1 --block 2 'p=zeros(Int32, 4)' base=2147483647 --print p
