#!/usr/bin/env bash
# Consistency oracle for the C test corpus (test/programs/*.c, bench/programs/*.c).
#
# For every program (or only those named on the command line) it checks that
#   1. clang-19 -fsanitize=undefined,address finds no undefined behaviour and no
#      memory error (any runtime report fails the program, stderr must be empty);
#   2. native -O0, native -O2,
#      lli-19 on `clang-19 -O0 -Xclang -disable-O0-optnone -S -emit-llvm` IR and
#      lli-19 on `clang-19 -O2 -fno-vectorize -fno-slp-vectorize -S -emit-llvm` IR
#   all print the same stdout and exit with the same code as the sanitized build;
#   3. the -O0 IR calls nothing outside the runtime subset (printf puts putchar getchar
#      scanf malloc calloc realloc free memset memcpy memmove strlen strcmp abs labs
#      exit abort, plus llvm.* intrinsics).
# stdin comes from NAME.in when it exists, /dev/null otherwise.
#
# Usage: test/programs/check.sh [--bench] [--interp] [NAME.c ...]
#   --bench   check bench/programs/*.c instead of test/programs/*.c
#   --interp  also run `lli-19 -force-interpreter` on the -O0 IR (for sizing benches).
#             LLVM's own interpreter cannot run everything: it lacks llvm.abs and
#             llvm.fmuladd, varargs externals other than printf (scanf), first-class
#             aggregate loads, and its printf emulation returns wrong counts and is
#             not ordered with putchar output. So --interp is meant for bench/programs,
#             which avoid all of that; on test/programs some programs fail under it.
# Exit status: 0 when every program passes, 1 otherwise.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
dir="$here"
interp=0
files=()
for a in "$@"; do
  case "$a" in
    --bench) dir="$(cd "$here/../../bench/programs" && pwd)" ;;
    --interp) interp=1 ;;
    *) files+=("$a") ;;
  esac
done
for tool in clang-19 lli-19; do
  command -v "$tool" >/dev/null || { echo "check.sh: $tool not found (apt-get install -y clang-19 llvm-19)"; exit 2; }
done
if [ ${#files[@]} -eq 0 ]; then
  files=("$dir"/*.c)
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Deep-recursion programs need more than 8 MB of stack under ASan's fat frames.
ulimit -s unlimited 2>/dev/null || ulimit -s 1048576 2>/dev/null || true
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
pass=0; fail=0; failed=()

now() { date +%s.%N; }

# run LABEL INPUT CMD... -> writes $tmp/LABEL.out, $tmp/LABEL.err, $tmp/LABEL.rc, $tmp/LABEL.time
run() {
  local label="$1" input="$2"; shift 2
  local t0 t1
  t0=$(now)
  "$@" <"$input" >"$tmp/$label.out" 2>"$tmp/$label.err"
  echo $? >"$tmp/$label.rc"
  t1=$(now)
  echo "$t0 $t1" | awk '{printf "%.2f", $2-$1}' >"$tmp/$label.time"
}

for f in "${files[@]}"; do
  case "$f" in /*) ;; *) [ -f "$f" ] || f="$dir/$f" ;; esac
  name="$(basename "$f" .c)"
  src="$f"
  input="${src%.c}.in"; [ -f "$input" ] || input=/dev/null
  ok=1; why=""
  if ! clang-19 -w -g -fsanitize=undefined,address -fno-sanitize-recover=all "$src" -o "$tmp/san" 2>"$tmp/cc.err" ||
     ! clang-19 -Wall -Werror -O0 "$src" -o "$tmp/o0" 2>>"$tmp/cc.err" ||
     ! clang-19 -w -O2 "$src" -o "$tmp/o2" 2>>"$tmp/cc.err" ||
     ! clang-19 -w -O0 -Xclang -disable-O0-optnone -S -emit-llvm "$src" -o "$tmp/o0.ll" 2>>"$tmp/cc.err" ||
     ! clang-19 -w -O2 -fno-vectorize -fno-slp-vectorize -S -emit-llvm "$src" -o "$tmp/o2.ll" 2>>"$tmp/cc.err"; then
    echo "FAIL $name: compile error"; sed 's/^/    /' "$tmp/cc.err" | head -20
    fail=$((fail+1)); failed+=("$name"); continue
  fi
  run san "$input" "$tmp/san"
  run o0 "$input" "$tmp/o0"
  run o2 "$input" "$tmp/o2"
  run lli0 "$input" lli-19 "$tmp/o0.ll"
  run lli2 "$input" lli-19 "$tmp/o2.ll"
  if [ -s "$tmp/san.err" ]; then
    ok=0; why="sanitizer report: $(head -3 "$tmp/san.err" | tr '\n' ' ')"
  fi
  for v in o0 o2 lli0 lli2; do
    if ! cmp -s "$tmp/san.out" "$tmp/$v.out"; then ok=0; why="$why stdout($v) differs;"; fi
    if [ "$(cat "$tmp/san.rc")" != "$(cat "$tmp/$v.rc")" ]; then
      ok=0; why="$why exit($v)=$(cat "$tmp/$v.rc") vs $(cat "$tmp/san.rc");"
    fi
  done
  if [ ! -s "$tmp/san.out" ]; then ok=0; why="$why no output;"; fi
  # Only the runtime subset the interpreter implements may be called (at -O0; -O2 IR
  # may add what clang derives from it: putc/getc on stdout/stdin, bcmp, puts, ...).
  bad_ext=$(grep -oE '^declare [^@]*@[A-Za-z_0-9.]+' "$tmp/o0.ll" | grep -oE '@[A-Za-z_0-9.]+' |
    grep -vE '^@(llvm\..*|printf|puts|putchar|getchar|__isoc99_scanf|malloc|calloc|realloc|free|memset|memcpy|memmove|strlen|strcmp|abs|labs|exit|abort)$' | tr '\n' ' ')
  if [ -n "$bad_ext" ]; then ok=0; why="$why calls outside the runtime subset: $bad_ext;"; fi
  extra=""
  if grep -qE '<[0-9]+ x ' "$tmp/o2.ll"; then extra="$extra [O2 IR has vector types]"; fi
  if [ $interp -eq 1 ]; then
    run interp "$input" lli-19 -force-interpreter "$tmp/o0.ll"
    if ! cmp -s "$tmp/san.out" "$tmp/interp.out" || [ "$(cat "$tmp/san.rc")" != "$(cat "$tmp/interp.rc")" ]; then
      ok=0; why="$why lli -force-interpreter differs;"
    fi
    extra="$extra interp=$(cat "$tmp/interp.time")s"
  fi
  if [ $ok -eq 1 ]; then
    pass=$((pass+1))
    echo "ok   $name exit=$(cat "$tmp/san.rc") lines=$(wc -l <"$tmp/san.out") lli-O0=$(cat "$tmp/lli0.time")s$extra"
  else
    fail=$((fail+1)); failed+=("$name")
    echo "FAIL $name:$why"
  fi
done
echo "passed $pass, failed $fail${failed[*]:+: ${failed[*]}}"
[ $fail -eq 0 ]
