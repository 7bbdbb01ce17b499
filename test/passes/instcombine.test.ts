import { describe, expect, it } from 'vitest';
import { bodyAfter, corpusPrograms, describeDifferential, generatedPrograms, optimize, statOf } from './scalar-helpers.js';
import { hasLlvm } from '../helpers/llvm.js';
import { inputIR } from '../helpers/differential.js';

/** Runs instcombine on one function and returns its body lines. */
function ic(fnText: string, pipeline = 'instcombine'): string[] {
  return bodyAfter(fnText, pipeline);
}

describe('instcombine: canonical forms', () => {
  it('constants go right; sub x, C becomes add x, -C; then constants reassociate', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = add i32 5, %x\n  %b = sub i32 %a, 3\n  ret i32 %b\n}`)).toEqual(['%b = add i32 %x, 2', 'ret i32 %b']);
  });
  it('sub nsw x, C keeps nsw, except for C = INT_MIN', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %b = sub nsw i32 %x, 3\n  ret i32 %b\n}`)).toEqual(['%b = add nsw i32 %x, -3', 'ret i32 %b']);
    expect(ic(`define i32 @f(i32 %x) {\n  %b = sub nsw i32 %x, -2147483648\n  ret i32 %b\n}`)).toEqual(['%b = add i32 %x, -2147483648', 'ret i32 %b']);
  });
  it('icmp: constant to the right, non-strict predicates become strict, ult 1 is eq 0', () => {
    expect(ic(`define i1 @f(i32 %x) {\n  %c = icmp sgt i32 7, %x\n  ret i1 %c\n}`)).toEqual(['%c = icmp slt i32 %x, 7', 'ret i1 %c']);
    expect(ic(`define i1 @f(i32 %x) {\n  %c = icmp sle i32 %x, 9\n  ret i1 %c\n}`)).toEqual(['%c = icmp slt i32 %x, 10', 'ret i1 %c']);
    expect(ic(`define i1 @f(i32 %x) {\n  %c = icmp uge i32 %x, 9\n  ret i1 %c\n}`)).toEqual(['%c = icmp ugt i32 %x, 8', 'ret i1 %c']);
    expect(ic(`define i1 @f(i32 %x) {\n  %c = icmp ule i32 %x, 0\n  ret i1 %c\n}`)).toEqual(['%c = icmp eq i32 %x, 0', 'ret i1 %c']);
  });
  it('x + x becomes x << 1 (flags kept)', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = add nsw i32 %x, %x\n  ret i32 %a\n}`)).toEqual(['%a = shl nsw i32 %x, 1', 'ret i32 %a']);
  });
});

describe('instcombine: strength reduction', () => {
  it('mul by 2^k is shl; nsw survives unless 2^k is INT_MIN', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = mul nsw i32 %x, 8\n  ret i32 %a\n}`)).toEqual(['%a = shl nsw i32 %x, 3', 'ret i32 %a']);
    expect(ic(`define i32 @f(i32 %x) {\n  %a = mul nsw nuw i32 2, %x\n  ret i32 %a\n}`)).toEqual(['%a = shl nuw nsw i32 %x, 1', 'ret i32 %a']);
    expect(ic(`define i32 @f(i32 %x) {\n  %a = mul nsw i32 %x, -2147483648\n  ret i32 %a\n}`)).toEqual(['%a = shl i32 %x, 31', 'ret i32 %a']);
  });
  it('mul by -1 and sdiv by -1 are negations', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = mul i32 %x, -1\n  ret i32 %a\n}`)).toEqual(['%a = sub i32 0, %x', 'ret i32 %a']);
    expect(ic(`define i32 @f(i32 %x) {\n  %a = sdiv i32 %x, -1\n  ret i32 %a\n}`)).toEqual(['%a = sub i32 0, %x', 'ret i32 %a']);
  });
  it('unsigned division and remainder by 2^k', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = udiv i32 %x, 8\n  %b = urem i32 %x, 16\n  %c = add i32 %a, %b\n  ret i32 %c\n}`)).toEqual([
      '%a = lshr i32 %x, 3',
      '%b = and i32 %x, 15',
      '%c = add i32 %a, %b',
      'ret i32 %c',
    ]);
  });
  it('signed division by 2^k: only for known non-negative dividends or exact; else left alone', () => {
    expect(
      ic(`define i32 @f(i32 %x, i8 %y) {\n  %a = sdiv i32 %x, 4\n  %z = zext i8 %y to i32\n  %b = sdiv i32 %z, 4\n  %c = srem i32 %z, 8\n  %d = sdiv exact i32 %x, 2\n  %e = add i32 %a, %b\n  %f = add i32 %e, %c\n  %g = add i32 %f, %d\n  ret i32 %g\n}`),
    ).toEqual([
      '%a = sdiv i32 %x, 4',
      '%z = zext i8 %y to i32',
      '%b = lshr i32 %z, 2',
      '%c = and i32 %z, 7',
      '%d = ashr exact i32 %x, 1',
      '%e = add i32 %a, %b',
      '%f = add i32 %e, %c',
      '%g = add i32 %f, %d',
      'ret i32 %g',
    ]);
  });
  it('instcombine<sdiv-pow2> expands with the rounding fix-up', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = sdiv i32 %x, 8\n  ret i32 %a\n}`, 'instcombine<sdiv-pow2>')).toEqual([
      '%1 = ashr i32 %x, 31',
      '%2 = lshr i32 %1, 29',
      '%3 = add i32 %x, %2',
      '%a = ashr i32 %3, 3',
      'ret i32 %a',
    ]);
  });
  it('srem by a negative constant is srem by its magnitude', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = srem i32 %x, -7\n  ret i32 %a\n}`)).toEqual(['%a = srem i32 %x, 7', 'ret i32 %a']);
  });
});

describe('instcombine: reassociation and negation', () => {
  it('(x + 1) - 1 is x', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = add nsw i32 %x, 1\n  %b = sub nsw i32 %a, 1\n  ret i32 %b\n}`)).toEqual(['ret i32 %x']);
  });
  it('(x + C1) + C2, C1 - (x + C2), (x * C1) * C2', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = add nsw i32 %x, 1\n  %b = add nsw i32 %a, 2\n  %c = sub i32 10, %b\n  %d = mul i32 %c, 3\n  %e = mul i32 %d, 5\n  ret i32 %e\n}`)).toEqual([
      '%c = sub i32 7, %x',
      '%e = mul i32 %c, 15',
      'ret i32 %e',
    ]);
  });
  it('nsw survives reassociation only when the constant sum does not overflow', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = add nsw i32 %x, 1\n  %b = add nsw i32 %a, 2\n  ret i32 %b\n}`)).toEqual(['%b = add nsw i32 %x, 3', 'ret i32 %b']);
    expect(ic(`define i32 @f(i32 %x) {\n  %a = add nsw i32 %x, 2147483647\n  %b = add nsw i32 %a, 1\n  ret i32 %b\n}`)).toEqual(['%b = add i32 %x, -2147483648', 'ret i32 %b']);
  });
  it('negations fold into subtractions', () => {
    expect(
      ic(`define i32 @f(i32 %x, i32 %y) {\n  %n = sub i32 0, %x\n  %a = add i32 %n, %y\n  %m = sub i32 0, %y\n  %b = sub i32 %a, %m\n  %nx = xor i32 %x, -1\n  %c = add i32 %nx, 1\n  %d = add i32 %b, %c\n  ret i32 %d\n}`),
    ).toEqual(['%a = sub i32 %y, %x', '%b = add i32 %a, %y', '%d = sub i32 %b, %x', 'ret i32 %d']);
  });
  it('shifts of shifts', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %a = shl i32 %x, 3\n  %b = shl i32 %a, 2\n  %c = lshr i32 %b, 5\n  %d = shl i32 %c, 5\n  ret i32 %d\n}`)).toEqual([
      '%c = and i32 %x, 134217727',
      '%d = shl i32 %c, 5',
      'ret i32 %d',
    ]);
    expect(ic(`define i32 @f(i32 %x) {\n  %a = lshr i32 %x, 20\n  %b = lshr i32 %a, 20\n  ret i32 %b\n}`)).toEqual(['ret i32 0']);
  });
});

describe('instcombine: compares', () => {
  it('icmp (x + C1), C2: eq always, signed only with nsw', () => {
    expect(
      ic(`define i1 @f(i32 %x, i32 %y) {\n  %a = add nsw i32 %x, 5\n  %c = icmp slt i32 %a, 10\n  %b = add i32 %y, 5\n  %d = icmp slt i32 %b, 10\n  %e = icmp eq i32 %b, 7\n  %f = and i1 %c, %d\n  %g = and i1 %f, %e\n  ret i1 %g\n}`),
    ).toEqual(['%c = icmp slt i32 %x, 5', '%b = add i32 %y, 5', '%d = icmp slt i32 %b, 10', '%e = icmp eq i32 %y, 2', '%f = and i1 %c, %d', '%g = and i1 %f, %e', 'ret i1 %g']);
  });
  it('icmp with unsigned predicates needs nuw', () => {
    expect(ic(`define i1 @f(i32 %x) {\n  %a = add nuw i32 %x, 5\n  %c = icmp ult i32 %a, 10\n  ret i1 %c\n}`)).toEqual(['%c = icmp ult i32 %x, 5', 'ret i1 %c']);
    expect(ic(`define i1 @f(i32 %x) {\n  %a = add nsw i32 %x, 5\n  %c = icmp ult i32 %a, 10\n  ret i1 %c\n}`)).toEqual(['%a = add nsw i32 %x, 5', '%c = icmp ult i32 %a, 10', 'ret i1 %c']);
  });
  it('compares of zext/sext narrow to the source type', () => {
    expect(
      ic(`define i1 @f(i8 %x, i8 %y) {\n  %a = zext i8 %x to i32\n  %b = icmp sgt i32 %a, 100\n  %c = zext i8 %y to i32\n  %d = icmp slt i32 %a, %c\n  %e = or i1 %b, %d\n  %s = sext i8 %x to i32\n  %t = icmp sle i32 %s, -5\n  %u = or i1 %e, %t\n  ret i1 %u\n}`),
    ).toEqual(['%b = icmp ugt i8 %x, 100', '%d = icmp ult i8 %x, %y', '%e = or i1 %b, %d', '%t = icmp slt i8 %x, -4', '%u = or i1 %e, %t', 'ret i1 %u']);
  });
  it('C idioms: (zext c) != 0 is c; b == false is !b; not of a compare inverts it', () => {
    expect(
      ic(`define i1 @f(i1 %c, i32 %x) {\n  %z = zext i1 %c to i32\n  %t = icmp ne i32 %z, 0\n  %u = icmp eq i1 %t, false\n  %v = icmp ule i32 %x, 0\n  %w = or i1 %u, %v\n  ret i1 %w\n}`),
    ).toEqual(['%u = xor i1 %c, true', '%v = icmp eq i32 %x, 0', '%w = or i1 %u, %v', 'ret i1 %w']);
    expect(ic(`define i1 @f(i32 %x) {\n  %c = icmp slt i32 %x, 3\n  %n = xor i1 %c, true\n  ret i1 %n\n}`)).toEqual(['%n = icmp sgt i32 %x, 2', 'ret i1 %n']);
  });
});

describe('instcombine: selects and casts', () => {
  it('(zext i1 c) + C is a select of two constants', () => {
    expect(ic(`define i32 @f(i32 %x) {\n  %c = icmp sgt i32 %x, 0\n  %z = zext i1 %c to i32\n  %a = add i32 %z, 41\n  ret i32 %a\n}`)).toEqual([
      '%c = icmp sgt i32 %x, 0',
      '%a = select i1 %c, i32 42, i32 41',
      'ret i32 %a',
    ]);
  });
  it('select c, 1, 0 is zext; select c, false, true is not c; select (not c) swaps arms', () => {
    expect(ic(`define i32 @f(i1 %c) {\n  %a = select i1 %c, i32 1, i32 0\n  ret i32 %a\n}`)).toEqual(['%a = zext i1 %c to i32', 'ret i32 %a']);
    expect(ic(`define i32 @f(i1 %c) {\n  %a = select i1 %c, i32 -1, i32 0\n  ret i32 %a\n}`)).toEqual(['%a = sext i1 %c to i32', 'ret i32 %a']);
    expect(
      ic(`define i1 @f(i1 %c, i32 %x) {\n  %a = select i1 %c, i1 false, i1 true\n  %n = xor i1 %c, true\n  %b = select i1 %n, i32 %x, i32 7\n  %d = icmp eq i32 %b, 7\n  %e = and i1 %a, %d\n  ret i1 %e\n}`),
    ).toEqual(['%a = xor i1 %c, true', '%b = select i1 %c, i32 7, i32 %x', '%d = icmp eq i32 %b, 7', '%e = and i1 %a, %d', 'ret i1 %e']);
  });
  it('double casts', () => {
    expect(
      ic(`define i32 @f(i8 %x, i64 %w) {\n  %a = zext i8 %x to i16\n  %b = zext i16 %a to i32\n  %t = trunc i64 %w to i32\n  %u = zext i32 %t to i64\n  %v = trunc i64 %u to i32\n  %r = add i32 %b, %v\n  ret i32 %r\n}`),
    ).toEqual(['%b = zext i8 %x to i32', '%v = trunc i64 %w to i32', '%r = add i32 %b, %v', 'ret i32 %r']);
    expect(ic(`define i64 @f(i8 %x) {\n  %a = zext i8 %x to i16\n  %b = sext i16 %a to i64\n  ret i64 %b\n}`)).toEqual(['%b = zext i8 %x to i64', 'ret i64 %b']);
    expect(ic(`define i16 @f(i8 %x) {\n  %a = sext i8 %x to i32\n  %b = trunc i32 %a to i16\n  ret i16 %b\n}`)).toEqual(['%b = sext i8 %x to i16', 'ret i16 %b']);
  });
  it('GEPs of GEPs with constant indices', () => {
    expect(ic(`define ptr @f(ptr %p) {\n  %a = getelementptr inbounds i32, ptr %p, i64 2\n  %b = getelementptr inbounds i32, ptr %a, i64 3\n  ret ptr %b\n}`)).toEqual([
      '%b = getelementptr inbounds i32, ptr %p, i64 5',
      'ret ptr %b',
    ]);
  });
  it('a GEP into the element a GEP reached merges with it: a[i][j], s->f[j]; inbounds only when both are', () => {
    expect(ic(`@a = global [8 x [8 x i32]] zeroinitializer
define ptr @f(i64 %i, i32 %j) {
  %row = getelementptr inbounds [8 x [8 x i32]], ptr @a, i64 0, i64 %i
  %e = getelementptr inbounds [8 x i32], ptr %row, i64 0, i32 %j
  ret ptr %e
}`)).toEqual(['%e = getelementptr inbounds [8 x [8 x i32]], ptr @a, i64 0, i64 %i, i32 %j', 'ret ptr %e']);
    expect(ic(`%S = type { i32, [4 x i16] }
define ptr @f(ptr %p, i64 %i, i64 %j) {
  %fld = getelementptr %S, ptr %p, i64 %i, i32 1
  %e = getelementptr inbounds [4 x i16], ptr %fld, i64 0, i64 %j
  call void @use(ptr %fld)
  ret ptr %e
}
declare void @use(ptr)`)).toEqual(['%fld = getelementptr %S, ptr %p, i64 %i, i32 1', '%e = getelementptr %S, ptr %p, i64 %i, i32 1, i64 %j', 'call void @use(ptr %fld)', 'ret ptr %e']);
    // not when the outer GEP steps over whole elements (first index not 0) or the types differ
    const left = [
      `define ptr @f(ptr %p, i64 %i, i64 %j) {\n  %r = getelementptr [8 x i32], ptr %p, i64 %i\n  %e = getelementptr [8 x i32], ptr %r, i64 %j, i64 1\n  ret ptr %e\n}`,
      `define ptr @f(ptr %p, i64 %i, i64 %j) {\n  %r = getelementptr [8 x i32], ptr %p, i64 0, i64 %i\n  %e = getelementptr [8 x i32], ptr %r, i64 0, i64 %j\n  ret ptr %e\n}`,
    ];
    for (const f of left) expect(ic(f).filter((l) => l.includes('getelementptr')), f).toHaveLength(2);
  });
  it('br on a negated condition swaps its successors', () => {
    expect(ic(`define i32 @f(i1 %c) {\nentry:\n  %n = xor i1 %c, true\n  br i1 %n, label %a, label %b\na:\n  ret i32 1\nb:\n  ret i32 2\n}`)).toEqual([
      'entry:',
      'br i1 %c, label %b, label %a',
      'a:',
      'ret i32 1',
      'b:',
      'ret i32 2',
    ]);
  });
  it('deletes dead instructions and reaches a fixed point', () => {
    const { pm } = optimize(`define i32 @f(i32 %x) {\n  %d = mul i32 %x, 3\n  %a = add i32 %x, 1\n  %b = add i32 %a, 1\n  %c = add i32 %b, 1\n  ret i32 %c\n}`, 'instcombine');
    expect(statOf(pm, 'instcombine', 'instructions deleted')).toBeGreaterThanOrEqual(3);
    expect(ic(`define i32 @f(i32 %x) {\n  %d = mul i32 %x, 3\n  %a = add i32 %x, 1\n  %b = add i32 %a, 1\n  %c = add i32 %b, 1\n  ret i32 %c\n}`)).toEqual(['%c = add i32 %x, 3', 'ret i32 %c']);
  });
});

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('the seeds\' teaching example (clang -O0, mem2reg, instcombine,early-cse,dce)', () => {
  const src = `int g;
int test(int x) {
  if (x < 0) x = 2;
  int v1 = x + 0;
  int k = v1 + 3;
  int v2 = 2 * x;
  int v31 = x + 1;
  int v32 = v31 - 1;
  return k + v2 + v32 + g;
}
`;
  it('x+0 → x, 2*x → x<<1, (x+1)-1 → x', () => {
    const before = inputIR(src, 'teaching', { prePasses: 'mem2reg' });
    expect(bodyAfter(before, '', 'test')).toEqual([
      '%2 = icmp slt i32 %0, 0',
      'br i1 %2, label %3, label %4',
      '3:',
      'br label %4',
      '4:',
      '%.0 = phi i32 [ 2, %3 ], [ %0, %1 ]',
      '%5 = add nsw i32 %.0, 0',
      '%6 = add nsw i32 %5, 3',
      '%7 = mul nsw i32 2, %.0',
      '%8 = add nsw i32 %.0, 1',
      '%9 = sub nsw i32 %8, 1',
      '%10 = add nsw i32 %6, %7',
      '%11 = add nsw i32 %10, %9',
      '%12 = load i32, ptr @g, align 4',
      '%13 = add nsw i32 %11, %12',
      'ret i32 %13',
    ]);
    // v1 = x (x+0), k = x+3, v2 = x<<1 (2*x), v32 = x ((x+1)-1)
    expect(bodyAfter(before, 'instcombine,early-cse,dce', 'test')).toEqual([
      '%2 = icmp slt i32 %0, 0',
      'br i1 %2, label %3, label %4',
      '3:',
      'br label %4',
      '4:',
      '%.0 = phi i32 [ 2, %3 ], [ %0, %1 ]',
      '%5 = add nsw i32 %.0, 3',
      '%6 = shl nsw i32 %.0, 1',
      '%7 = add nsw i32 %5, %6',
      '%8 = add nsw i32 %7, %.0',
      '%9 = load i32, ptr @g, align 4',
      '%10 = add nsw i32 %8, %9',
      'ret i32 %10',
    ]);
  });
});

describeDifferential('instcombine keeps behaviour', ['instcombine', 'instcombine<sdiv-pow2>,dce'], corpusPrograms());
describeDifferential('instcombine keeps behaviour (generated)', ['instcombine'], generatedPrograms(50, 1));

describe('instcombine: memory in a small window of one block (as LLVM)', () => {
  it('forwards a store or load to a later load of the same address; drops dead and no-op stores', () => {
    const ir = `@s = global i64 0
@t = global i64 0
define i64 @f(i64 %x, ptr %p) {
  %a = load i64, ptr @s
  %b = xor i64 %a, %x
  store i64 %b, ptr @s
  %c = load i64, ptr @s
  store i64 %c, ptr @t
  %d = load i64, ptr @s
  store i64 %d, ptr @s
  store i64 1, ptr %p
  %e = load i64, ptr @s
  %f = add i64 %c, %d
  %g = add i64 %f, %e
  ret i64 %g
}`;
    expect(ic(ir)).toEqual([
      '%a = load i64, ptr @s',
      '%b = xor i64 %a, %x',
      'store i64 %b, ptr @t', // @t and @s do not alias
      'store i64 %b, ptr @s', // the first store to @s was overwritten by this one (%d is %b)
      'store i64 1, ptr %p',
      '%e = load i64, ptr @s', // %p may point to @s
      '%f = shl i64 %b, 1',
      '%g = add i64 %f, %e',
      'ret i64 %g',
    ]);
  });
  it('a store overwritten before any read is dead', () => {
    expect(ic(`define void @f(ptr %p, i32 %x) {\n  store i32 1, ptr %p\n  %y = add i32 %x, 1\n  store i32 %y, ptr %p\n  ret void\n}`)).toEqual(['%y = add i32 %x, 1', 'store i32 %y, ptr %p', 'ret void']);
    expect(ic(`define i32 @f(ptr %p, i32 %x) {\n  store i32 1, ptr %p\n  %v = load i32, ptr %p\n  store i32 %x, ptr %p\n  ret i32 %v\n}`)).toEqual(['store i32 %x, ptr %p', 'ret i32 1']); // the load read 1, then nothing reads the first store
  });
});
