k 'p=zeros(Float32, 1)' n=3
