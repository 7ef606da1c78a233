const X = 1e
