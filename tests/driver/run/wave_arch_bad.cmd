waves --grid 1 --block 1 --arch=gfx999 'lane=zeros(Int32, 1)' 'next=zeros(Int32, 1)' 'sum=zeros(Int32, 1)'
