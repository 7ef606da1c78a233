dgemm_ozaki 'A=rand(Float64, 4, 64, seed=3)' 'B=rand(Float64, 64, 4, seed=4)' 'C=zeros(Float64, 16)' --print C
dgemm_native 'A=rand(Float64, 4, 64, seed=3)' 'B=rand(Float64, 64, 4, seed=4)' 'C=zeros(Float64, 16)' --print C
dgemm_ozaki 'A=iota(Float64, 256)' 'B=iota(Float64, 256)' 'C=zeros(Float64, 16)' --print C
