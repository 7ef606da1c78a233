import "x.fx" "y.fx"
