#!/usr/bin/env bash
# Runs every example of docs/language.md that is marked for testing.
#
# A fenced block opened with ```fx test is a complete source file:
#   - it must compile for gfx942 and for the host (a relocatable object);
#   - a line `# eval: EXPR => OUTPUT` must print OUTPUT for
#     `fxcc BLOCK.fx --eval 'EXPR'` (the block's consts are in scope);
#   - a line `# run: ENTRY ARGS...` runs `fxrun BLOCK.fx ENTRY ARGS...` and
#     the `# | LINE` lines after it are its expected standard output.
# ```fx test file=NAME.fx also saves the block as NAME.fx, so that later
# blocks can import it. A block opened with ```fx error must fail to compile
# (exit status 1), and every `# error: TEXT` line in it names text the
# diagnostics must contain; a `# arch: NAME` line in it compiles for NAME.
# In both kinds, `# flags: OPTIONS` adds fxcc options (e.g. -Wall) and every
# `# warning: TEXT` line names text the diagnostics must contain. Other
# ```fx blocks are fragments and are not run.
#   check_examples.sh FXCC FXRUN DOC.md
set -uo pipefail
fxcc=$(realpath "$1") fxrun=$(realpath "$2") doc=$(realpath "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Split the document: one file per marked block, with its kind and its
# starting line number in the name so failures point into the document.
awk -v dir="$tmp" '
  /^```fx (test|error)/ {
    kind = $2; n++; start = NR
    name = sprintf("%s/b%03d_%s_L%d.fx", dir, n, kind, NR + 1)
    file = ""
    if (match($0, /file=[A-Za-z0-9_.]+/)) file = substr($0, RSTART + 5, RLENGTH - 5)
    inblock = 1; next
  }
  inblock && /^```/ {
    inblock = 0
    if (file != "") { system("cp \"" name "\" \"" dir "/" file "\"") }
    next
  }
  inblock { print >> name; close(name) }
' "$doc"

fail=0 total=0
note() { echo "FAIL $(basename "$1"): $2"; fail=$((fail + 1)); }
cd "$tmp"
for f in b*_*.fx; do
  total=$((total + 1))
  case $f in
  *_error_*)
    arch=$(sed -n 's/^# arch: //p' "$f")
    "$fxcc" "$f" ${arch:+--offload-arch="$arch"} -o "$f.hsaco" $(sed -n 's/^# flags: //p' "$f") 2>"$f.err"
    rc=$?
    [ $rc -eq 1 ] || { note "$f" "expected a compile error (exit 1), got exit $rc"; continue; }
    grep -q '^# error: ' "$f" || { note "$f" "an error block says no '# error:' text"; continue; }
    while IFS= read -r want; do
      grep -qF -- "$want" "$f.err" || note "$f" "diagnostics lack '$want': $(head -n1 "$f.err")"
    done < <(sed -n 's/^# error: //p' "$f")
    while IFS= read -r want; do
      grep -qF -- "$want" "$f.err" || note "$f" "diagnostics lack '$want': $(head -n1 "$f.err")"
    done < <(sed -n 's/^# warning: //p' "$f")
    ;;
  *)
    "$fxcc" "$f" --offload-arch=gfx942 -o "$f.hsaco" $(sed -n 's/^# flags: //p' "$f") 2>"$f.err" ||
      { note "$f" "gfx942: $(cat "$f.err")"; continue; }
    while IFS= read -r want; do
      grep -qF -- "$want" "$f.err" || note "$f" "diagnostics lack '$want': $(head -n1 "$f.err")"
    done < <(sed -n 's/^# warning: //p' "$f")
    "$fxcc" "$f" --target=host -c -o "$f.o" 2>"$f.err" ||
      { note "$f" "host: $(cat "$f.err")"; continue; }
    while IFS= read -r line; do
      expr=${line% => *} want=${line##* => }
      got=$("$fxcc" "$f" --eval "$expr" 2>&1)
      [ "$got" = "$want" ] || note "$f" "--eval '$expr' gave '$got', expected '$want'"
    done < <(sed -n 's/^ *# eval: //p' "$f")
    # Each `# run:` line with the `# |` lines that follow it.
    awk '/^ *# run: /{n++; sub(/^ *# run: /, ""); print > ("run" n ".cmd"); next}
         /^ *# \| ?/{sub(/^ *# \| ?/, ""); print > ("run" n ".want"); next}' "$f"
    for c in run*.cmd; do
      [ -e "$c" ] || break
      args=$(cat "$c")
      got=$(eval "\"$fxrun\" \"$f\" $args" 2>&1)
      want=$(cat "${c%.cmd}.want" 2>/dev/null)
      [ "$got" = "$want" ] || note "$f" "fxrun $args gave:
$got
expected:
$want"
      rm -f "$c" "${c%.cmd}.want"
    done
    ;;
  esac
done
echo "$total examples, $fail failures"
[ "$total" -gt 0 ] || { echo "no marked examples found in $doc"; exit 1; }
[ "$fail" -eq 0 ]
