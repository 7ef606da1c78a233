kernel k(n: const Int32) {
}
