kernel k(n: Int32) {
    let i = thread_idx.x
    if i < n and i > 0 {
        return
    }
    else
    {
    }
}
