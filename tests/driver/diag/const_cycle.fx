const A = B + 1
const B = A + 1
