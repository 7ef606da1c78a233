tail --grid 1 --block 3 'b=iota(Int8, 40)' 'out=zeros(Int32, 3)' --print out
