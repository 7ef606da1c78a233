# inputs.fx - kernels that do nothing: run.sh launches one over a single
# work-item with a rand() or zeros() buffer and --save, which writes the
# buffer fxrun made to a raw file that both fxrun and clrun then read.

kernel f32(_p: Ptr[Float32]) {
}

kernel i32(_p: Ptr[Int32]) {
}

kernel u8(_p: Ptr[Uint8]) {
}

kernel u32(_p: Ptr[Uint32]) {
}
