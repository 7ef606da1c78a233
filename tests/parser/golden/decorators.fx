@launch_bounds(256)
kernel a() { }

@launch_bounds(BLOCK * 2,)

# a comment between a decorator and its item
@noinline
kernel b(x: Ptr[Float32],) { }

@inline
fn c() -> Float32 { return 1.0 }

@entry(name="main", grid=(1, 1))
program d() { }
