#!/bin/sh
# The code generator's groups (docs/architecture.md, "Code generation"):
# no file of src/codegen/host includes anything of src/codegen/amdgpu, nor
# the other way round, and the shared header names neither group's files.
#   groups.sh SOURCE_ROOT
cg="$1/src/codegen"
bad=0
for pair in "host amdgpu" "amdgpu host"; do
  set -- $pair
  hits=$(grep -ln "#include \"codegen/$2/" "$cg/$1"/* 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "files of src/codegen/$1 include src/codegen/$2: $hits"
    bad=1
  fi
done
if grep -n '#include "codegen/\(host\|amdgpu\)/' "$cg/cg_internal.h"; then
  echo "cg_internal.h includes a group's header"
  bad=1
fi
n_host=$(ls "$cg/host"/*.c | wc -l)
n_amd=$(ls "$cg/amdgpu"/*.c "$cg/amdgpu"/*.cpp | wc -l)
if [ "$n_host" -lt 5 ] || [ "$n_amd" -lt 5 ]; then
  echo "the groups are not there (host: $n_host files, amdgpu: $n_amd)"
  bad=1
fi
[ $bad -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $bad
