mm --arch=gfx942 'A=Float32[1.0009765625, 1.00048828125, 3, 4]' 'B=Float32[1, 0, 0, 1]' 'C=zeros(Float32, 4)' M=2 N=2 K=2 --print C
