k 'p=zeros(Int32, 1)'
