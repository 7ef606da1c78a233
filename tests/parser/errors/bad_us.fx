const X = 1__0
