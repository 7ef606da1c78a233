#!/usr/bin/env bash
# The manual pages: each renders with groff's man macros without a warning,
# and every option that `fxcc --help` and `fxrun --help` print is described
# in fxcc.1 and fxrun.1, so the pages cannot fall behind the tools; the
# examples of fxrun.1 run.
#   check_man.sh FXCC FXRUN MANDIR
set -uo pipefail
fxcc=$1 fxrun=$2 man=$3
command -v groff >/dev/null || { echo "groff missing: skipped"; exit 77; }
fail=0
for page in fxcc.1 fxrun.1 fx.7; do
  [ -f "$man/$page" ] || { echo "FAIL: $page missing"; fail=1; continue; }
  warn=$(groff -man -Tutf8 -ww -z "$man/$page" 2>&1)
  [ -z "$warn" ] || { echo "FAIL: $page: $warn"; fail=1; }
  lines=$(groff -man -Tutf8 "$man/$page" 2>/dev/null | wc -l)
  [ "$lines" -gt 20 ] || { echo "FAIL: $page renders to $lines lines"; fail=1; }
done

# The options a tool's --help names: words that start with - or -- after a
# space, a comma or a bracket, up to '=' or '['.
options() { "$1" --help | grep -oE '(^|[ ,[])--?[A-Za-z][-A-Za-z0-9]*' | sed 's/^[ ,[]//' | sort -u; }
# The page's text with roff's escapes for '-' and fonts removed.
plain() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$1"; }
for tool in fxcc fxrun; do
  bin=$fxcc; [ $tool = fxrun ] && bin=$fxrun
  opts=$(options "$bin")
  [ "$(echo "$opts" | wc -l)" -gt 5 ] || { echo "FAIL: found too few options in $tool --help"; fail=1; }
  text=$(plain "$man/$tool.1")
  for o in $opts; do
    grep -qF -- "$o" <<<"$text" || { echo "FAIL: $tool.1 does not describe $o"; fail=1; }
  done
done

# The commands of fxrun.1's EXAMPLES run as written, from examples/ (where
# their files are): the .B lines between .SH EXAMPLES and the next .SH,
# roff's escapes undone, lines ending in a backslash joined.
examples=$(cd "$man/../../examples" && pwd)
runner=$(realpath "$fxrun")
commands=$(sed -n '/^\.SH EXAMPLES/,/^\.SH SEE/p' "$man/fxrun.1" | sed -n 's/^\.B //p' |
  sed -e 's/^"//' -e 's/"$//' -e 's/\\-/-/g' -e 's/\\e/\\/g' | sed -e ':a' -e '/\\$/N; s/\\\n *//; ta')
[ "$(grep -c '^fxrun ' <<<"$commands")" -ge 2 ] || { echo "FAIL: found too few examples in fxrun.1"; fail=1; }
while read -r cmd; do
  [ -n "$cmd" ] || continue
  out=$(cd "$examples" && eval "\"$runner\" ${cmd#fxrun }" 2>&1) ||
    { echo "FAIL: fxrun.1's example does not run: $cmd"; echo "$out"; fail=1; }
done <<<"$commands"
[ $fail -eq 0 ] && echo "man pages render cleanly, cover every option, and their examples run"
exit $fail
