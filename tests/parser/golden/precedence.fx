# Python precedence, spec §3.4: ** · unary + - ~ · * / // % @ · + - · << >> · & · ^ · | · comparisons · not · and · or
const P1 = -2**2            # -(2**2)
const P2 = 2**-1            # 2**(-1)
const P3 = 2**3**2          # 2**(3**2)
const P4 = -x**-y**~z
const P5 = a + b * c - d / e // f % g @ h
const P6 = a << b + c >> d
const P7 = a | b ^ c & d << e
const P8 = not a < b and c or not d == e
const P9 = (a < b) == (c < d)
const P10 = ~a + -b - +c
const P11 = a - b - c       # left-assoc
const P12 = f(x)[i].y ** 2
const P13 = -f(x).y[0]
const P14 = a @ b @ c
const P15 = not not a
const P16 = ((a))
