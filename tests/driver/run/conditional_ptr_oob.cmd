step --grid 1 --block 5 'a=Float32[1, 2, 3, 4]' 'b=zeros(Float32, 4)' k=0 n=5 --print b
