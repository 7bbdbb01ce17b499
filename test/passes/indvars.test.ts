import { describe, expect, it } from 'vitest';
import { countOps, opt, sameResults, stat } from './cfg-helpers.js';

describe('indvars', () => {
  it('strength-reduces a derived IV: i*c+d becomes an added IV, the multiplication goes', () => {
    const ir = `
define i32 @f(i32 %n, i32 %c) {
entry:
  br label %h
h:
  %i = phi i32 [ 3, %entry ], [ %i1, %h ]
  %s = phi i32 [ 0, %entry ], [ %s1, %h ]
  %m = mul i32 %i, %c
  %d = add i32 %m, 5
  %s1 = add i32 %s, %d
  %i1 = add i32 %i, 2
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  ret i32 %s1
}`;
    const r = opt(ir, 'indvars');
    expect(stat(r, 'indvars', 'multiplications strength-reduced')).toBe(1);
    const t = r.fnText('f');
    // the mul in the loop is gone; the preheader computes start (3*c) and step (2*c)
    // the root %d = i*c + 5 becomes the IV (the mul and the add die with it)
    expect(t).toMatch(/%d\.sr = phi i32 \[ %\d+, %entry \], \[ %d\.sr\.next, %h \]/);
    expect(t).toMatch(/%d\.sr\.next = add i32 %d\.sr, %\d+/);
    expect(t).not.toMatch(/%m = mul|%d = add/);
    expect(countOps(t, 'mul')).toBe(2);
    sameResults(ir, 'indvars', 'f', [[10, 7], [100, -3], [0, 4], [50, 65537]]);
  });

  it('merges two IVs with the same start and step', () => {
    const ir = `
define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %j = phi i32 [ 0, %entry ], [ %j1, %h ]
  %s = phi i32 [ 0, %entry ], [ %s1, %h ]
  %p = mul i32 %j, %j
  %s1 = add i32 %s, %p
  %i1 = add nsw i32 %i, 1
  %j1 = add i32 %j, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  ret i32 %s1
}`;
    const r = opt(ir, 'indvars');
    expect(stat(r, 'indvars', 'redundant IVs merged')).toBe(1);
    expect(r.fnText('f')).not.toMatch(/%j = phi|%j1 =/);
    // the flags differed, so the survivor lost nsw
    expect(r.fnText('f')).toMatch(/%i1 = add i32 %i, 1/);
    sameResults(ir, 'indvars', 'f', [[1], [6]]);
  });

  it('replaces exit values with their closed form when the trip count is constant', () => {
    const ir = `
declare void @use(i32)
define i32 @f() {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %c = icmp slt i32 %i, 20
  br i1 %c, label %body, label %x
body:
  call void @use(i32 %i)
  %i1 = add nsw i32 %i, 1
  br label %h
x:
  %k = mul i32 %i, 3
  ret i32 %k
}`;
    const r = opt(ir, 'indvars');
    expect(stat(r, 'indvars', 'exit values replaced')).toBeGreaterThanOrEqual(1);
    expect(r.fnText('f')).toMatch(/%k = mul i32 20, 3/);
  });

  it('leaves a symbolic exit value alone in the default (cheap) mode and emits it with exit-values=always', () => {
    const ir = `
define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  ret i32 %i1
}`;
    const cheap = opt(ir, 'indvars');
    expect(stat(cheap, 'indvars', 'exit values replaced')).toBe(0);
    const always = opt(ir, 'indvars<exit-values=always>');
    expect(stat(always, 'indvars', 'exit values replaced')).toBe(1);
    expect(always.fnText('f')).toMatch(/select/);
    sameResults(ir, 'indvars<exit-values=always>', 'f', [[5], [1], [0], [-7]]);
  });

  it('replaces the exit test (LFTR) so that the original IV dies', () => {
    const ir = `
define i32 @f(ptr %p) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %s = phi i32 [ 0, %entry ], [ %s1, %h ]
  %k = mul i32 %i, 4
  %s1 = add i32 %s, %k
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, 100
  br i1 %t, label %h, label %x
x:
  ret i32 %s1
}`;
    const r = opt(ir, 'indvars');
    expect(stat(r, 'indvars', 'exit tests replaced')).toBe(1);
    const t = r.fnText('f');
    expect(t).not.toMatch(/%i = phi|%i1 =/);
    expect(t).toMatch(/%exitcond = icmp ne i32 %k\.sr\.next, 400/);
    // i*4 alone is one instruction: worth a new IV only because the old IV then dies
    sameResults(ir, 'indvars', 'f', [[0]]);
  });

  it('reduces a multiplication in an inner loop by an outer IV (i*n in a matrix walk)', () => {
    const ir = `
define i32 @f(i32 %n) {
entry:
  br label %oh
oh:
  %i = phi i32 [ 0, %entry ], [ %i1, %ol ]
  %s = phi i32 [ 0, %entry ], [ %s2, %ol ]
  br label %ih
ih:
  %j = phi i32 [ 0, %oh ], [ %j1, %ih ]
  %s2 = phi i32 [ %s, %oh ], [ %s3, %ih ]
  %row = mul i32 %i, %n
  %idx = add i32 %row, %j
  %s3 = add i32 %s2, %idx
  %j1 = add i32 %j, 1
  %it = icmp slt i32 %j1, %n
  br i1 %it, label %ih, label %ol
ol:
  %i1 = add i32 %i, 1
  %ot = icmp slt i32 %i1, %n
  br i1 %ot, label %oh, label %x
x:
  ret i32 %s3
}`;
    // one mul per outer iteration: not worth an IV by default, reduced when asked
    expect(opt(ir, 'indvars').fnText('f')).toMatch(/%row = mul/);
    const r = opt(ir, 'indvars<strength-reduce=always>');
    expect(r.fnText('f')).not.toMatch(/%row = mul/);
    sameResults(ir, 'indvars<strength-reduce=always>', 'f', [[1], [3], [8]]);
  });
  it('widens a sign-extended IV: the sext and the narrow IV go, the exit test moves to i64', () => {
    // i runs 1..99 with a plain (flagless) add: the exit test bounds it, so no increment overflows
    const ir = `
@a = global [100 x i32] zeroinitializer
define i32 @f() {
entry:
  br label %h
h:
  %i = phi i32 [ 1, %entry ], [ %i1, %h ]
  %s = phi i32 [ 0, %entry ], [ %s1, %h ]
  %e = sext i32 %i to i64
  %p = getelementptr inbounds [100 x i32], ptr @a, i64 0, i64 %e
  %v = load i32, ptr %p
  %im = add i32 %i, -1
  %em = sext i32 %im to i64
  %q = getelementptr inbounds [100 x i32], ptr @a, i64 0, i64 %em
  store i32 %s, ptr %q
  %s1 = add i32 %s, %v
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, 100
  br i1 %t, label %h, label %x
x:
  %r = add i32 %s1, 1
  ret i32 %r
}`;
    const r = opt(ir, 'indvars');
    expect(stat(r, 'indvars', 'IVs widened')).toBe(1);
    const t = r.fnText('f');
    expect(t).toMatch(/%i\.wide = phi i64 \[ 1, %entry \], \[ %i\.wide\.next, %h \]/);
    expect(t).toMatch(/%i\.wide\.next = add nsw i64 %i\.wide, 1/);
    expect(t).toMatch(/%im\.wide = add nsw i64 %i\.wide, -1/);
    expect(t).toMatch(/icmp slt i64 %i\.wide\.next, 100/);
    expect(countOps(t, 'sext')).toBe(0);
    expect(t).not.toMatch(/phi i32 \[ 1, %entry \]/); // the narrow IV died
    sameResults(ir, 'indvars', 'f', [[]]);
  });

  it('does not widen when the narrow IV must stay (a phi and an add per iteration for one sext)', () => {
    const ir = `
@a = global [100 x i32] zeroinitializer
define i32 @f() {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %e = sext i32 %i to i64
  %p = getelementptr inbounds [100 x i32], ptr @a, i64 0, i64 %e
  store i32 %i, ptr %p
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, 100
  br i1 %t, label %h, label %x
x:
  ret i32 %i1
}`;
    const r = opt(ir, 'indvars');
    expect(stat(r, 'indvars', 'IVs widened')).toBe(0);
    expect(r.fnText('f')).toMatch(/sext i32 %i to i64/);
  });

  it('does not widen when an increment may overflow', () => {
    // i starts at a parameter: i + 1 may wrap at INT_MAX, and sext(i + 1) != sext(i) + 1 there
    const ir = `
define i64 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ %n, %entry ], [ %i1, %h ]
  %s = phi i64 [ 0, %entry ], [ %s1, %h ]
  %e = sext i32 %i to i64
  %s1 = add i64 %s, %e
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, 10
  br i1 %t, label %h, label %x
x:
  ret i64 %s1
}`;
    const r = opt(ir, 'indvars');
    expect(stat(r, 'indvars', 'IVs widened')).toBe(0);
    expect(r.fnText('f')).toMatch(/sext i32 %i to i64/);
    sameResults(ir, 'indvars', 'f', [[0], [9], [-5]]);
  });
});
