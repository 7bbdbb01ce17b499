/**
 * The users of scalar evolution (indvars exit values, loop-deletion of dead finite loops),
 * alloc-elim and correlated-propagation: what each removes, checked by execution before and
 * after (our interpreter on hand-written IR; lli-19 on C), with --verify-each and llvm-as-19.
 */
import { describe, expect, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkPreservesBehaviour } from '../helpers/differential.js';
import { countOps, loopsOf, opt, sameResults, stat } from './cfg-helpers.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);

/** A nest of `depth` counting loops to %n with `x++` innermost, as rotated loops (no guards). */
function nest(depth: number, test = 'slt'): string {
  let head = '';
  let tail = '';
  let x = '%x0';
  for (let d = 1; d <= depth; d++) {
    const prev = d === 1 ? 'entry' : `h${d - 1}`;
    head += `h${d}:\n  %i${d} = phi i32 [ 0, %${prev} ], [ %i${d}n, %l${d} ]\n  %x${d} = phi i32 [ ${x}, %${prev} ], [ %y${d}, %l${d} ]\n`;
    x = `%x${d}`;
    if (d < depth) head += `  br label %h${d + 1}\n`;
  }
  head += `  %y${depth} = add nsw i32 %x${depth}, 1\n  br label %l${depth}\n`;
  for (let d = depth; d >= 1; d--) {
    tail += `l${d}:\n  %i${d}n = add nsw i32 %i${d}, 1\n  %c${d} = icmp ${test} i32 %i${d}n, %n\n  br i1 %c${d}, label %h${d}, label %e${d}\n`;
    tail += `e${d}:\n  %y${d - 1} = phi i32 [ %y${d}, %l${d} ]\n  br label %${d > 1 ? `l${d - 1}` : 'out'}\n`;
  }
  return `define i32 @f(i32 %n) {\nentry:\n  %x0 = add i32 0, 0\n  br label %h1\n${head}${tail}out:\n  ret i32 %y0\n}\n`;
}

describe('scalar evolution users', () => {
  it('indvars and loop-deletion turn a nest of counting loops into a closed form', () => {
    const ir = nest(4);
    const r = opt(ir, 'indvars,loop-deletion,instcombine,dce');
    expect(stat(r, 'indvars', 'exit values replaced by scalar evolution')).toBeGreaterThan(0);
    expect(stat(r, 'loop-deletion', 'dead finite loops deleted')).toBe(4);
    expect(loopsOf(r, 'f').loops.length).toBe(0);
    // n <= 0 runs each body once (do-while), n = 7 gives 7^4
    expect(sameResults(ir, 'indvars,loop-deletion,instcombine,dce', 'f', [[-3], [0], [1], [2], [7], [13]])).toEqual([1, 1, 1, 16, 2401, 28561]);
  });

  it('leaves a loop whose count it cannot prove (an unsigned IV stepping by 3 may wrap)', () => {
    const ir = `define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %s = phi i32 [ 0, %entry ], [ %s1, %h ]
  %s1 = add i32 %s, 5
  %i1 = add i32 %i, 3
  %c = icmp ult i32 %i1, %n
  br i1 %c, label %h, label %x
x:
  ret i32 %s1
}`;
    const r = opt(ir, 'indvars,loop-deletion');
    expect(loopsOf(r, 'f').loops.length).toBe(1);
    sameResults(ir, 'indvars,loop-deletion', 'f', [[0], [10], [100]]);
  });

  it('keeps loops with side effects but still rewrites their cheap exit values', () => {
    const ir = `@g = global i32 0
define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  store volatile i32 %i, ptr @g
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %h, label %x
x:
  %r = phi i32 [ %i1, %h ]
  ret i32 %r
}`;
    const r = opt(ir, 'indvars,loop-deletion');
    expect(loopsOf(r, 'f').loops.length).toBe(1);
    expect(r.fnText('f')).not.toContain('phi i32 [ %i1, %h ]');
    sameResults(ir, 'indvars,loop-deletion', 'f', [[-5], [0], [1], [9]]);
  });

  it('correlated-propagation: a phi entry decided by its edge becomes a constant', () => {
    const ir = `define i32 @f(i32 %a, i1 %c) {
entry:
  br i1 %c, label %m, label %o
o:
  %z = icmp eq i32 %a, 42
  br i1 %z, label %m, label %done
m:
  %p = phi i1 [ %c, %entry ], [ %z, %o ]
  %q = phi i32 [ 1, %entry ], [ %a, %o ]
  %r = select i1 %p, i32 %q, i32 0
  ret i32 %r
done:
  ret i32 -1
}`;
    const r = opt(ir, 'correlated-propagation');
    expect(r.fnText('f')).toContain('phi i1 [ true, %entry ], [ true, %o ]');
    expect(r.fnText('f')).toContain('[ 42, %o ]');
    sameResults(ir, 'correlated-propagation', 'f', [[42, 1], [42, 0], [7, 0], [7, 1]]);
  });

  it('alloc-elim removes an allocation only written, compared with null and freed', () => {
    const ir = `declare ptr @malloc(i64)
declare ptr @calloc(i64, i64)
declare void @free(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @use(ptr)
define i32 @dead(i32 %n) {
  %p = call ptr @malloc(i64 16)
  %isnull = icmp eq ptr %p, null
  br i1 %isnull, label %fail, label %ok
ok:
  %q = getelementptr inbounds i32, ptr %p, i64 2
  store i32 %n, ptr %q
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 4, i1 false)
  call void @free(ptr %p)
  ret i32 %n
fail:
  ret i32 -1
}
define i32 @read(i32 %n) {
  %p = call ptr @calloc(i64 4, i64 4)
  store i32 %n, ptr %p
  %v = load i32, ptr %p
  call void @free(ptr %p)
  ret i32 %v
}
define i32 @stack(i32 %n) {
  %a = alloca [4 x double]
  %b = alloca i32
  %q = getelementptr inbounds [4 x double], ptr %a, i64 0, i64 2
  store double 1.0, ptr %q
  store i32 %n, ptr %b
  %v = load i32, ptr %b
  ret i32 %v
}
define ptr @escapes(i32 %n) {
  %p = call ptr @malloc(i64 4)
  store i32 %n, ptr %p
  ret ptr %p
}
define void @stored(ptr %out) {
  %p = call ptr @malloc(i64 4)
  store ptr %p, ptr %out
  ret void
}`;
    const r = opt(ir, 'alloc-elim,simplifycfg');
    // the malloc of @dead and the written-only alloca of @stack; the alloca read back stays
    expect(stat(r, 'alloc-elim', 'allocations removed')).toBe(2);
    expect(countOps(r.fnText('dead'), 'call')).toBe(0);
    expect(countOps(r.fnText('stack'), 'alloca')).toBe(1);
    expect(countOps(r.fnText('stack'), 'store')).toBe(1);
    sameResults(ir, 'alloc-elim,simplifycfg', 'stack', [[3]]);
    expect(r.fnText('read')).toContain('@calloc');
    expect(r.fnText('escapes')).toContain('@malloc');
    expect(r.fnText('stored')).toContain('@malloc');
    sameResults(ir, 'alloc-elim,simplifycfg', 'dead', [[5], [-2]]);
    sameResults(ir, 'alloc-elim,simplifycfg', 'read', [[5]]);
  });
});

describe('simplify-libcalls', () => {
  it('folds strlen of a constant string, not of a writable one', () => {
    const ir = `@s = private unnamed_addr constant [6 x i8] c"hello\\00"
@w = global [6 x i8] c"hello\\00"
@e = private constant [4 x i8] c"ab\\00c"
declare i64 @strlen(ptr)
define i64 @f() {
  %a = call i64 @strlen(ptr @s)
  %b = call i64 @strlen(ptr @w)
  %c = call i64 @strlen(ptr @e)
  %x = add i64 %a, %b
  %y = add i64 %x, %c
  ret i64 %y
}`;
    const r = opt(ir, 'simplify-libcalls');
    expect(stat(r, 'simplify-libcalls', 'library calls folded')).toBe(2);
    expect(r.fnText('f')).toContain('@strlen(ptr @w)');
    sameResults(ir, 'simplify-libcalls', 'f', [[]]);
  });
});

describe('loads from a never-written zero global at unknown offsets', () => {
  // the shape of bench/loop-gen's programs whose array is only read: globalopt makes it
  // constant, and a load anywhere inside an all-zero constant reads 0 (LLVM's
  // ConstantFoldLoadFromUniformValue), so the loop sums nothing
  const ir = `@arr = internal global [256 x i32] zeroinitializer
define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %s = phi i32 [ 7, %entry ], [ %s1, %h ]
  %k = and i32 %i, 255
  %z = zext i32 %k to i64
  %p = getelementptr inbounds [256 x i32], ptr @arr, i64 0, i64 %z
  %v = load i32, ptr %p
  %s1 = add i32 %s, %v
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %h, label %out
out:
  ret i32 %s1
}
`;
  it('fold to zero, and the loop computes nothing', () => {
    const r = opt(ir, 'globalopt,instcombine');
    expect(countOps(r.text, 'load')).toBe(0);
    expect(sameResults(ir, 'globalopt,instcombine', 'f', [[0], [1], [300]])).toEqual([7, 7, 7]);
    // a global with a non-zero element keeps its loads
    expect(countOps(opt(ir.replace('zeroinitializer', '[i32 1, i32 0' + ', i32 0'.repeat(254) + ']'), 'globalopt,instcombine').text, 'load')).toBe(1);
  });
});

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('scalar evolution users on C, against lli-19', () => {
  const nestC = `#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 0;
  if (scanf("%d", &n) != 1) return 2;
  int x = 0;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++)
      for (int c = 0; c < n; c++) x++;
  unsigned d = 0;
  for (unsigned k = n; k != 0; k--) d += 3;
  long t = 0;
  for (int i = 0; i < n; i++) for (int j = 0; j <= i; j++) t += j;
  const char *s = "Hello World";
  for (int k = 0; k < 50; k++) {
    char *r = malloc(12);
    for (int i = 0; i < 11; i++) r[i] = s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i];
    r[11] = 0;
  }
  printf("%d %u %ld\\n", x, d, t);
  return 0;
}
`;
  for (const n of ['0', '1', '7', '-4', '300']) {
    it(`-O2 solves nested and triangular loops and drops unread allocations (n = ${n})`, () => {
      const text = checkPreservesBehaviour(nestC, 'scev-nest-c', 'default<O2>', { stdin: n });
      // the cubic nest and the countdown leave no loop behind, nor does the allocation
      expect(text).not.toMatch(/call .*@malloc/);
    }, 60_000);
  }
});
