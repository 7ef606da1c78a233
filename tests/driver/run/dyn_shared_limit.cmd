rev --grid 1 --block 8 'p=iota(Float32, 8)' --shared-bytes 65536
