#!/usr/bin/env bash
# Runs one SysY program natively, compiled AS C by clang-19 with runtime/sylib.c,
# and prints what the contest's .out file holds: the program's stdout, then its
# exit code (0-255) on a line of its own (a newline is added before it when the
# output does not end with one). Input comes from NAME.in when it exists.
#
#   test/sysy/run-native.sh test/sysy/NAME.sy            # the expected output
#   SYSY_FLOAT_LITERALS=1 test/sysy/run-native.sh ...     # with float literals as C floats
#
# SysY has no double: a literal like 0.1 is a float. C reads it as a double, so
# `x * 0.1` is computed in double. With SYSY_FLOAT_LITERALS=1 every floating
# literal gets an `f` suffix first; make-expected.sh requires both builds to
# agree, so no expected output depends on that difference.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
src="$1"
CLANG="${CLANG:-clang-19}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prog="$src"
if [ "${SYSY_FLOAT_LITERALS:-0}" = 1 ]; then
  prog="$work/prog.sy"
  perl -0777 -pe '
    s{("(?:[^"\\\n]|\\.)*")|(//[^\n]*)|(/\*.*?\*/)|((?<![\w.])(?:\d|\.\d)(?:[eEpP][+-]|[\w.])*)}{
      defined $4 ? do { my $n = $4;
        my $hex = $n =~ /^0[xX]/;
        my $fl = $hex ? ($n =~ /[pP]/) : ($n =~ /[.eE]/);
        ($fl && $n !~ /[fF]$/) ? "${n}f" : $n } : $&
    }gse' "$src" > "$prog"
fi
"$CLANG" -O0 -w -Werror=excess-initializers -ffp-contract=off -x c "$prog" -x none -include "$root/runtime/sylib.h" "$root/runtime/sylib.c" -lm -o "$work/a.out"
input="${src%.sy}.in"
[ -f "$input" ] || input=/dev/null
set +e
timeout 20 "$work/a.out" < "$input" > "$work/stdout" 2>/dev/null
code=$?
set -e
cat "$work/stdout"
if [ -s "$work/stdout" ] && [ "$(tail -c 1 "$work/stdout" | od -An -tx1 | tr -d ' ')" != "0a" ]; then echo; fi
echo "$code"
