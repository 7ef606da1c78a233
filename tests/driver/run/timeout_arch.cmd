spin --grid 1 'p=zeros(Int32, 1)' --block 64 --arch=gfx1100 --timeout=0.25
