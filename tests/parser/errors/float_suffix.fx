const X = 1.0f
