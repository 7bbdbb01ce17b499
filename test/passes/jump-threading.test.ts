import { describe, expect, it } from 'vitest';
import { opt, sameResults, stat } from './cfg-helpers.js';

describe('jump-threading', () => {
  it('threads the edges of a phi of constants (the shape of && / ||) to the known successors', () => {
    // if (a > 0 && b > 0) x else y, as clang emits it
    const ir = `
define i32 @f(i32 %a, i32 %b) {
entry:
  %c1 = icmp sgt i32 %a, 0
  br i1 %c1, label %rhs, label %end
rhs:
  %c2 = icmp sgt i32 %b, 0
  br label %end
end:
  %p = phi i1 [ false, %entry ], [ %c2, %rhs ]
  br i1 %p, label %yes, label %no
yes:
  ret i32 1
no:
  ret i32 2
}`;
    const r = opt(ir, 'jump-threading');
    expect(stat(r, 'jump-threading', 'edges threaded')).toBe(1);
    // the entry's false edge goes straight to %no
    expect(r.fnText('f')).toMatch(/entry:\n.*\n\s+br i1 %c1, label %rhs, label %end\.thread/);
    expect(r.fnText('f')).toMatch(/end\.thread:.*\n\s+br label %no/);
    sameResults(ir, 'jump-threading', 'f', [[1, 1], [1, -1], [-1, 1], [0, 0]]);
  });

  it('evaluates a chain of instructions of the block (zext, icmp) on the incoming constant', () => {
    const ir = `
define i32 @f(i32 %a) {
entry:
  %c = icmp eq i32 %a, 3
  br i1 %c, label %t, label %e
t:
  br label %m
e:
  %x = and i32 %a, 1
  %xb = trunc i32 %x to i1
  br label %m
m:
  %p = phi i1 [ true, %t ], [ %xb, %e ]
  %z = zext i1 %p to i32
  %q = icmp ne i32 %z, 0
  br i1 %q, label %one, label %two
one:
  %r1 = add i32 %z, 10
  ret i32 %r1
two:
  ret i32 %z
}`;
    const r = opt(ir, 'jump-threading');
    expect(stat(r, 'jump-threading', 'edges threaded')).toBe(1);
    // %z is defined in %m and in its copy: the use in %one reads a phi of both (SSA repair)
    expect(r.fnText('f')).toMatch(/one:.*\n\s+%z\d* = phi i32/);
    sameResults(ir, 'jump-threading', 'f', [[3], [4], [5]]);
  });

  it('threads an edge whose predecessor branched on the same condition', () => {
    const ir = `
@g = global i32 0
define i32 @f(i1 %c, i32 %v) {
entry:
  br i1 %c, label %a, label %b
a:
  store i32 %v, ptr @g
  br label %m
b:
  br label %m
m:
  %x = load i32, ptr @g
  br i1 %c, label %t, label %e
t:
  ret i32 %x
e:
  ret i32 -1
}`.replace('br i1 %c, label %a, label %b', 'br i1 %c, label %a, label %m').replace('b:\n  br label %m\n', '');
    const r = opt(ir, 'jump-threading');
    expect(stat(r, 'jump-threading', 'edges threaded')).toBeGreaterThanOrEqual(1);
    expect(r.fnText('f')).toMatch(/m\.thread:/);
    sameResults(ir, 'jump-threading', 'f', [[true, 5], [false, 5]]);
  });

  it('does not thread across a loop header', () => {
    const ir = `
define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %first = phi i1 [ true, %entry ], [ false, %h ]
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  %g = or i1 %t, %first
  br i1 %g, label %h, label %x
x:
  ret i32 %i1
}`;
    const r = opt(ir, 'jump-threading');
    expect(stat(r, 'jump-threading', 'edges threaded')).toBe(0);
  });

  it('respects the duplication threshold', () => {
    const ir = `
define i32 @f(i32 %a, i1 %c) {
entry:
  br i1 %c, label %t, label %e
t:
  br label %m
e:
  br label %m
m:
  %p = phi i1 [ true, %t ], [ false, %e ]
  %x1 = add i32 %a, 1
  %x2 = add i32 %x1, 1
  %x3 = add i32 %x2, 1
  br i1 %p, label %one, label %two
one:
  ret i32 %x3
two:
  ret i32 0
}`;
    expect(stat(opt(ir, 'jump-threading<threshold=2>'), 'jump-threading', 'edges threaded')).toBe(0);
    const r = opt(ir, 'jump-threading');
    expect(stat(r, 'jump-threading', 'edges threaded')).toBe(1);
    sameResults(ir, 'jump-threading', 'f', [[1, true], [1, false]]);
  });
});
