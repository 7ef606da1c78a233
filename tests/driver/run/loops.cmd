loops --grid 1 --block 6 'out=zeros(Int32, 6)' 'w=zeros(Int8, 6)' 'd=zeros(Int32, 6)' --print out --print w --print d
