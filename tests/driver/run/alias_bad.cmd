scale --grid 1 --block 4 x=@y y=@x a=3
