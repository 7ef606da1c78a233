scale --grid 2 --block 2 'x=Int32[1, 2, 3, 2147484]' k=1000 n=4 --print x
