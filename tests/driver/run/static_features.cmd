static_features --grid 1 --block 1 'out=zeros(Int16, 8)' 'f=Float32[0, 1.5]' --print out --print f
