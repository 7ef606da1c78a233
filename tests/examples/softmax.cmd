softmax --grid 2 --block 256 'x=Float32[1, 2, 3, 4, 5, -1, 0, 1, 1000, 1000]' 'y=zeros(Float32, 10)' rows=2 cols=5 --print y
softmax --arch=gfx942 --grid 2 --block 256 'x=Float32[1, 2, 3, 4, 5, -1, 0, 1, 1000, 1000]' 'y=zeros(Float32, 10)' rows=2 cols=5 --print y
softmax --grid 2 --block 256 'x=zeros(Float32, 600)' 'y=zeros(Float32, 600)' rows=2 cols=300 --print y
