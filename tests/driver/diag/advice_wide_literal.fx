# 0xE6546B64 does not fit Int32, so by seed 000 it is an Int64 literal and
# h * 5 + 0xE6546B64 is an Int64: the note names the typed literal.
kernel murmur(p: Ptr[Uint32], h: Uint32) {
    p[0] = h * 5 + 0xE6546B64
    var u: Uint32 = (h ^ 0x85EBCA6B) * 3
    p[1] = u
}
