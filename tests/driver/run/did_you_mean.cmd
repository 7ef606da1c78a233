saxp --grid 1 --block 1 'y=zeros(Float32, 1)'
