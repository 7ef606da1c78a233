p -Rpass=map-fusion 'X=iota(Int32, 3, 4)' 'b=iota(Int32, 4)' 'r=zeros(Int32, 3)' 'm=zeros(Int32, 4)' 's=zeros(Int32, 3)' n=5 --print r --print m --print s
