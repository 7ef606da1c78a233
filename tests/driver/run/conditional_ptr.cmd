step --grid 1 --block 4 'a=Float32[1, 2, 3, 4]' 'b=Float32[10, 20, 30, 40]' k=1 n=4 --print a --print b
