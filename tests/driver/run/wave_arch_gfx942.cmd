waves --grid 1 --block 70 --arch gfx942 'lane=zeros(Int32, 70)' 'next=zeros(Int32, 70)' 'sum=zeros(Int32, 70)' --print sum
