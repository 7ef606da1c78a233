views --grid 1 --block 2 'b=iota(Int8, 32)' 'w=Uint32[0x101, 0x202, 0x303, 0x404, 0, 0, 0, 0]' 'sums=zeros(Int32, 2)' --print sums --print w
