#!/usr/bin/env bash
# Regenerates NAME.out for SysY test programs by compiling each as C with clang-19
# and running it natively (see run-native.sh): an oracle independent of ssakit.
# Refuses a program whose output changes when its float literals are read as
# float instead of double (the one place where C and SysY semantics differ).
#
#   test/sysy/make-expected.sh                 # every test/sysy/*.sy and test/sysy/perf/*.sy
#   test/sysy/make-expected.sh test/sysy/x.sy  # just these
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shopt -s nullglob
if [ $# -eq 0 ]; then set -- "$here"/*.sy "$here"/perf/*.sy; fi
fail=0
for sy in "$@"; do
  out="${sy%.sy}.out"
  if ! a="$("$here/run-native.sh" "$sy")"; then echo "FAIL (build) $sy"; fail=1; continue; fi
  if ! b="$(SYSY_FLOAT_LITERALS=1 "$here/run-native.sh" "$sy")"; then echo "FAIL (build, float literals) $sy"; fail=1; continue; fi
  if [ "$a" != "$b" ]; then echo "FAIL $sy: output depends on double vs float literals"; fail=1; continue; fi
  printf '%s\n' "$a" > "$out"
  echo "wrote $out"
done
exit $fail
