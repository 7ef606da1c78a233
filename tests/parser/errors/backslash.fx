const X = 1 + \
    2
