k 'p=zeros(Float32, 1)' n=1 n=2
