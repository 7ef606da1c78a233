const S = 'abc'
