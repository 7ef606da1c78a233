const X = 1 é
