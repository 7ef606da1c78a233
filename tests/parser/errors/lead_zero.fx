const X = 017
