rev --grid 2 --block 8 'p=iota(Float32, 16)' --shared-bytes 28
