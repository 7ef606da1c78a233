# docs/limits.md: f40 would inline 2^40 calls; the size limit stops at the first call past it
fn f0(x: Float32) -> Float32 {
    return x + 1.0
}
fn f1(x: Float32) -> Float32 {
    return f0(x) + f0(x)
}
fn f2(x: Float32) -> Float32 {
    return f1(x) + f1(x)
}
fn f3(x: Float32) -> Float32 {
    return f2(x) + f2(x)
}
fn f4(x: Float32) -> Float32 {
    return f3(x) + f3(x)
}
fn f5(x: Float32) -> Float32 {
    return f4(x) + f4(x)
}
fn f6(x: Float32) -> Float32 {
    return f5(x) + f5(x)
}
fn f7(x: Float32) -> Float32 {
    return f6(x) + f6(x)
}
fn f8(x: Float32) -> Float32 {
    return f7(x) + f7(x)
}
fn f9(x: Float32) -> Float32 {
    return f8(x) + f8(x)
}
fn f10(x: Float32) -> Float32 {
    return f9(x) + f9(x)
}
fn f11(x: Float32) -> Float32 {
    return f10(x) + f10(x)
}
fn f12(x: Float32) -> Float32 {
    return f11(x) + f11(x)
}
fn f13(x: Float32) -> Float32 {
    return f12(x) + f12(x)
}
fn f14(x: Float32) -> Float32 {
    return f13(x) + f13(x)
}
fn f15(x: Float32) -> Float32 {
    return f14(x) + f14(x)
}
fn f16(x: Float32) -> Float32 {
    return f15(x) + f15(x)
}
fn f17(x: Float32) -> Float32 {
    return f16(x) + f16(x)
}
fn f18(x: Float32) -> Float32 {
    return f17(x) + f17(x)
}
fn f19(x: Float32) -> Float32 {
    return f18(x) + f18(x)
}
fn f20(x: Float32) -> Float32 {
    return f19(x) + f19(x)
}
fn f21(x: Float32) -> Float32 {
    return f20(x) + f20(x)
}
fn f22(x: Float32) -> Float32 {
    return f21(x) + f21(x)
}
fn f23(x: Float32) -> Float32 {
    return f22(x) + f22(x)
}
fn f24(x: Float32) -> Float32 {
    return f23(x) + f23(x)
}
fn f25(x: Float32) -> Float32 {
    return f24(x) + f24(x)
}
fn f26(x: Float32) -> Float32 {
    return f25(x) + f25(x)
}
fn f27(x: Float32) -> Float32 {
    return f26(x) + f26(x)
}
fn f28(x: Float32) -> Float32 {
    return f27(x) + f27(x)
}
fn f29(x: Float32) -> Float32 {
    return f28(x) + f28(x)
}
fn f30(x: Float32) -> Float32 {
    return f29(x) + f29(x)
}
fn f31(x: Float32) -> Float32 {
    return f30(x) + f30(x)
}
fn f32(x: Float32) -> Float32 {
    return f31(x) + f31(x)
}
fn f33(x: Float32) -> Float32 {
    return f32(x) + f32(x)
}
fn f34(x: Float32) -> Float32 {
    return f33(x) + f33(x)
}
fn f35(x: Float32) -> Float32 {
    return f34(x) + f34(x)
}
fn f36(x: Float32) -> Float32 {
    return f35(x) + f35(x)
}
fn f37(x: Float32) -> Float32 {
    return f36(x) + f36(x)
}
fn f38(x: Float32) -> Float32 {
    return f37(x) + f37(x)
}
fn f39(x: Float32) -> Float32 {
    return f38(x) + f38(x)
}
fn f40(x: Float32) -> Float32 {
    return f39(x) + f39(x)
}
kernel k(p: Ptr[Float32]) {
    p[0] = f40(p[0])
}
