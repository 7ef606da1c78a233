#fxcc: -O1 --contraction-precision=int3 --quantize-rescaling=direct
# A program with no statement under a contraction precision: the
# contraction-precision pass copied its (absent) nodes with memcpy from
# NULL (UBSan: null pointer passed as a nonnull argument).
program p(A: Tensor[Float32, 4, 4]) { }
