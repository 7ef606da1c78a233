# Layout rules: newlines, ';', comments, implicit joining, else placement.

# blank lines and comment lines anywhere


const A = 1; const B = 2;   ;  # several items on one line, stray ';'
const C = f(1,
            2,     # a comment inside parentheses
            3)
const D = [
    1,

    2,
]
const E = fx.fastmath({
    fx.FastMathFlags.nnan,
    fx.FastMathFlags.ninf,
})

fn f(
    a: Int32,
    b: Int32,
) -> Int32 {

    # leading comment in a block
    let x = a; let y = b;
    if x < y { return x } else { return y }
    if x < y {
        return x
    }
    else if x == y {   # `else` on the line after `}`
        return 0
    }

    # comments between '}' and 'else'

    else {
        return y
    }
    while x < y { x += 1; y -= 1 }
    return (x +
            y)
}

@inline fn g() { }
kernel k() { return }
program p() { }
