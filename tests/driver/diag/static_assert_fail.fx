const N = 3
static_assert(N % 2 == 0, "N must be even")
