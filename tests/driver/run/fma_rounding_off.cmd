fma_rounding --grid 1 --block 1 --fp-contract=off 'r32=zeros(Float32, 2)' 'r64=zeros(Float64, 2)' 'a32=1 + 2**-13' c32=-1 'a64=1 + 2**-30' c64=-1 --print r32 --print r64
