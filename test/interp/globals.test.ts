/**
 * Global initializers and constants: integers of every width, floats, strings, arrays,
 * zeroinitializer, nested structs with padding, pointers to globals and functions, and
 * constant expressions (getelementptr, ptrtoint, inttoptr, sub, trunc, …) in initializers
 * and as instruction operands; relative lookup tables (llvm.load.relative).
 */
import { describe, expect, it } from 'vitest';
import { instance, runIR } from './helpers.js';

describe('global initializers', () => {
  const text = `%struct.Inner = type { i8, double }
%struct.Outer = type { i16, %struct.Inner, [3 x i32], ptr }
@i8v = global i8 -1
@i16v = global i16 -300
@i64v = global i64 -9223372036854775807
@i128v = global i128 170141183460469231731687303715884105727
@f = global float 0x3FB99999A0000000
@d = global double -2.5
@s = constant [6 x i8] c"hello\\00"
@arr = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@z = global [100 x i64] zeroinitializer
@outer = global %struct.Outer { i16 7, %struct.Inner { i8 9, double 1.25 }, [3 x i32] [i32 10, i32 20, i32 30], ptr getelementptr inbounds ([4 x i32], ptr @arr, i64 0, i64 2) }
@fp = global ptr @get
@pdiff = global i64 sub (i64 ptrtoint (ptr getelementptr (i8, ptr @arr, i64 12) to i64), i64 ptrtoint (ptr @arr to i64))
@nested = global [2 x { i8, i32 }] [{ i8, i32 } { i8 1, i32 2 }, { i8, i32 } { i8 3, i32 4 }]
@packed = global <{ i8, i32 }> <{ i8 5, i32 6 }>

define i32 @get(i32 %k) {
  ret i32 %k
}

define i64 @read(i32 %what) {
entry:
  switch i32 %what, label %d [
    i32 0, label %c0
    i32 1, label %c1
    i32 2, label %c2
    i32 3, label %c3
    i32 4, label %c4
    i32 5, label %c5
    i32 6, label %c6
    i32 7, label %c7
    i32 8, label %c8
    i32 9, label %c9
    i32 10, label %c10
    i32 11, label %c11
    i32 12, label %c12
  ]
c0:
  %a = load i8, ptr @i8v
  %a1 = sext i8 %a to i64
  ret i64 %a1
c1:
  %b = load i16, ptr @i16v
  %b1 = sext i16 %b to i64
  ret i64 %b1
c2:
  %c = load i64, ptr @i64v
  ret i64 %c
c3:
  %hi = load i128, ptr @i128v
  %h2 = lshr i128 %hi, 64
  %h3 = trunc i128 %h2 to i64
  ret i64 %h3
c4:
  %p = getelementptr inbounds %struct.Outer, ptr @outer, i32 0, i32 1, i32 1
  %v = load double, ptr %p
  %vi = fptosi double %v to i64
  %p2 = getelementptr inbounds i8, ptr @outer, i64 8
  %w = load i8, ptr %p2
  %wi = zext i8 %w to i64
  %r = mul i64 %vi, 100
  %r2 = add i64 %r, %wi
  ret i64 %r2
c5:
  %q = getelementptr inbounds %struct.Outer, ptr @outer, i32 0, i32 3
  %qp = load ptr, ptr %q
  %qv = load i32, ptr %qp
  %qi = sext i32 %qv to i64
  ret i64 %qi
c6:
  %g = load ptr, ptr @fp
  %gv = call i32 %g(i32 77)
  %gi = sext i32 %gv to i64
  ret i64 %gi
c7:
  %pd = load i64, ptr @pdiff
  ret i64 %pd
c8:
  %n = getelementptr inbounds [2 x { i8, i32 }], ptr @nested, i64 0, i64 1, i32 1
  %nv = load i32, ptr %n
  %ni = sext i32 %nv to i64
  ret i64 %ni
c9:
  %pk = getelementptr inbounds i8, ptr @packed, i64 1
  %pv = load i32, ptr %pk, align 1
  %pi = sext i32 %pv to i64
  ret i64 %pi
c10:
  %zz = getelementptr inbounds [100 x i64], ptr @z, i64 0, i64 99
  %zv = load i64, ptr %zz
  ret i64 %zv
c11:
  %fv = load float, ptr @f
  %fd = fpext float %fv to double
  %fm = fmul double %fd, 1.0e8
  %fi = fptosi double %fm to i64
  ret i64 %fi
c12:
  %ce = load i32, ptr getelementptr inbounds ([4 x i32], ptr @arr, i64 0, i64 3)
  %cx = add i32 %ce, ptrtoint (ptr getelementptr (i8, ptr null, i64 5) to i32)
  %cy = sext i32 %cx to i64
  ret i64 %cy
d:
  ret i64 -1
}
`;
  it('reads back every kind of initializer', () => {
    const m = instance(text);
    const want: (number | bigint)[] = [-1, -300, -9223372036854775807n, 9223372036854775807n, 109, 3, 77, 12, 4, 6, 0, 10000000, 9];
    want.forEach((w, k) => expect(m.call('read', [k])).toBe(w));
  });
  it('relative lookup tables through llvm.load.relative', () => {
    const r = runIR(`@.str.a = private constant [4 x i8] c"one\\00"
@.str.b = private constant [4 x i8] c"two\\00"
@tab.rel = private constant [2 x i32] [i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.a to i64), i64 ptrtoint (ptr @tab.rel to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @.str.b to i64), i64 ptrtoint (ptr @tab.rel to i64)) to i32)]
declare ptr @llvm.load.relative.i64(ptr, i64)
declare i32 @puts(ptr)
define i32 @main() {
  %a = call ptr @llvm.load.relative.i64(ptr @tab.rel, i64 4)
  %b = call ptr @llvm.load.relative.i64(ptr @tab.rel, i64 0)
  %x = call i32 @puts(ptr %a)
  %y = call i32 @puts(ptr %b)
  ret i32 0
}
`);
    expect(r.stdout).toBe('two\none\n');
  });
});
