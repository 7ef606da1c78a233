statics --grid 1 --block 1 'out=zeros(Float32, 2)' 'ints=zeros(Int64, 1)' --print out --print ints
