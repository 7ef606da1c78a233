# docs/limits.md: a file larger than 64 MiB is not read, nor imported
import "/dev/zero"

kernel k(p: Ptr[Int32]) {
    p[0] = 1
}
