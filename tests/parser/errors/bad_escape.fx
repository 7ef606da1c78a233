import "c:\dir\x.fx"
