gemm 'A=Float64[1, 2, 3, 4, 5, 6]' 'B=Float64[1, 0, 2, 0, 1, 3, 1, 1, 1]' 'C=Float64[1, 1, 1, 1, 1, 1]' alpha=2 beta=-1 M=2 N=3 K=3 --print C
