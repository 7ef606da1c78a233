gemm_tiled --grid 1,2 --block 16,16 'A=iota(Float32, 340)' 'B=iota(Float32, 60)' 'C=zeros(Float32, 51)' M=17 N=3 K=20 --print C
