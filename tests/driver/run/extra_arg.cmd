k 'p=zeros(Int32, 1)' n=3 m=4
