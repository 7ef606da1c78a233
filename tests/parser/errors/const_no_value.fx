const X
