k --arch=gfx1100 --grid 1 --block 32 'flags=zeros(Int32, 4)' 'd=zeros(Float32, 32)' --print flags --print d
