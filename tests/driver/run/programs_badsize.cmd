mm 'A=iota(Float64, 5)' 'B=iota(Float64, 6)' 'C=zeros(Float64, 4)' M=2 N=2 K=3
