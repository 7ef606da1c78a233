p -Rpass=map-fusion -Rpass-missed=map-fusion 'X=iota(Int32, 8)' 'Y=iota(Int32, 8)' 'Z=zeros(Int32, 8)' 'W=zeros(Int32, 8)' 'V=zeros(Int32, 8)' n=10 --print X --print Z --print W --print V
