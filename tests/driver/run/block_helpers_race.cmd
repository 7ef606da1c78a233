shift --grid 1 --block 64 'p=iota(Float32, 64)' --check
