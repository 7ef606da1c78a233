gemm_int8 'A=Int8[1, -2, 3, 127, -128, 0]' 'Bt=Int8[1, 1, 1, 2, 0, -1, -128, -128, -128]' 'C=zeros(Int32, 6)' M=2 N=3 K=3 --print C
gemm_int8 'A=rand(Int8, 3, 40, seed=1)' 'Bt=rand(Int8, 2, 40, seed=2)' 'C=zeros(Int32, 6)' M=3 N=2 K=40 --print C
