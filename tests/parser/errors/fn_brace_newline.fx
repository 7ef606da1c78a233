fn f()
{
}
