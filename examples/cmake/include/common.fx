# common.fx - what the example's kernels share. It defines no kernel: it is
# only imported (affine.fx finds it through FLAGS -I include), never
# compiled by itself.

const BLOCK = 256      # work-items per block; the host program launches this many

# a * x + b, which fxcc contracts to one fused multiply-add.
fn affine1(a: Float32, x: Float32, b: Float32) -> Float32 {
    return a * x + b
}
