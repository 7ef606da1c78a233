# Assigning to a name never declared suggests let (or var); its later uses
# are not reported again.
kernel k(p: Ptr[Int32]) {
    i = 3
    p[0] = i + 1
}
