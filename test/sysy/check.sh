#!/usr/bin/env bash
# Verifies every NAME.out against a native run of NAME.sy compiled as C (run-native.sh).
#   test/sysy/check.sh [files...]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shopt -s nullglob
if [ $# -eq 0 ]; then set -- "$here"/*.sy "$here"/perf/*.sy; fi
pass=0; failed=0
for sy in "$@"; do
  out="${sy%.sy}.out"
  if [ ! -f "$out" ]; then echo "MISSING $out"; failed=$((failed + 1)); continue; fi
  if got="$("$here/run-native.sh" "$sy")" && [ "$got" = "$(cat "$out")" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL $sy"; failed=$((failed + 1))
  fi
done
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
