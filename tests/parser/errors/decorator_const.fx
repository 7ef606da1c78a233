@launch_bounds(256)
const X = 1
