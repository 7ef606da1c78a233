const X = 0b102
