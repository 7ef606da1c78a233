import "common.fx
