waves --grid 1 --block 70 --arch=gfx1100 'lane=zeros(Int32, 70)' 'next=zeros(Int32, 70)' 'sum=zeros(Int32, 70)' --print lane --print next --print sum
