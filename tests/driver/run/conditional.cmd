guarded --grid 1 --block 8 'x=Float32[1, 2, 3]' n=3 'out=zeros(Float32, 8)' 'calls=zeros(Int32, 10)' 'odd=zeros(Int32, 1)' --print out --print calls --print odd
