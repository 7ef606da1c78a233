k --grid 1 'p=iota(Float32, 12)' 'h=iota(Int16, 12)' 'q=zeros(Float32, 4)' 'r=zeros(Int16, 12)' --block 4 --print q --print r
