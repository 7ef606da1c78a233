net 'X=iota(Float32, 12)' s=-1.0 'b=Float32[5, 6, 7, 8]' 'Y=zeros(Float32, 12)' 'r=zeros(Float32, 3)' --print Y --print r
