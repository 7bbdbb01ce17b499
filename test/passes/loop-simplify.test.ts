import { describe, expect, it } from 'vitest';
import { isInSimplifyForm } from '../../src/transforms/utils/loop-simplify.js';
import { loopsOf, opt, sameResults, stat } from './cfg-helpers.js';

describe('loop-simplify', () => {
  it('gives a loop entered from two blocks a preheader, merging the header phi entries', () => {
    const ir = `
define i32 @f(i32 %n, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %h
b:
  br label %h
h:
  %i = phi i32 [ 0, %a ], [ 5, %b ], [ %i1, %h ]
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  ret i32 %i1
}`;
    const r = opt(ir, 'loop-simplify');
    const li = loopsOf(r, 'f');
    expect(li.loops.length).toBe(1);
    expect(isInSimplifyForm(li)).toBe(true);
    const l = li.loops[0];
    const ph = li.cfg.blockOf(l.preheader())!;
    expect(ph.name).toBe('h.preheader');
    expect(r.fnText('f')).toMatch(/h\.preheader:.*\n\s+%i\d* = phi i32 \[ 0, %a \], \[ 5, %b \]/);
    expect(stat(r, 'loop-simplify', 'preheaders inserted')).toBe(1);
    sameResults(ir, 'loop-simplify', 'f', [[10, 1], [10, 0], [3, 0]]);
  });

  it('merges several back edges into one latch block', () => {
    // every phi changes on both back edges (a phi kept by one of them would make this two
    // nested loops sharing a header, as opt-19 splits it: loop-simplify-nested.test.ts)
    const ir = `
define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %even ], [ %i2, %odd ]
  %s = phi i32 [ 0, %entry ], [ %s1, %even ], [ %s2, %odd ]
  %t = icmp slt i32 %i, %n
  br i1 %t, label %body, label %x
body:
  %r = and i32 %i, 1
  %z = icmp eq i32 %r, 0
  br i1 %z, label %even, label %odd
even:
  %i1 = add i32 %i, 1
  %s1 = add i32 %s, %i
  br label %h
odd:
  %i2 = add i32 %i, 1
  %s2 = add i32 %s, 2
  br label %h
x:
  ret i32 %s
}`;
    const r = opt(ir, 'loop-simplify');
    const li = loopsOf(r, 'f');
    expect(isInSimplifyForm(li)).toBe(true);
    expect(li.loops[0].latches().length).toBe(1);
    expect(li.cfg.blockOf(li.loops[0].latches()[0])!.name).toBe('h.backedge');
    sameResults(ir, 'loop-simplify', 'f', [[0], [7], [10]]);
  });

  it('gives exits reached from outside the loop a dedicated exit block', () => {
    const ir = `
define i32 @f(i32 %n, i1 %skip) {
entry:
  br i1 %skip, label %x, label %pre
pre:
  br label %h
h:
  %i = phi i32 [ 0, %pre ], [ %i1, %h ]
  %i1 = add i32 %i, 2
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  %r = phi i32 [ -1, %entry ], [ %i1, %h ]
  ret i32 %r
}`;
    const r = opt(ir, 'loop-simplify');
    const li = loopsOf(r, 'f');
    expect(isInSimplifyForm(li)).toBe(true);
    expect(li.cfg.blockOf(li.loops[0].exitBlocks()[0])!.name).toBe('x.loopexit');
    expect(stat(r, 'loop-simplify', 'exit blocks split')).toBe(1);
    sameResults(ir, 'loop-simplify', 'f', [[9, true], [9, false]]);
  });

  it('handles nested loops sharing an exit, inner loops first', () => {
    const ir = `
define i32 @f(i32 %n) {
entry:
  br label %oh
oh:
  %i = phi i32 [ 0, %entry ], [ %i1, %olatch ]
  %s = phi i32 [ 0, %entry ], [ %s3, %olatch ]
  %ot = icmp slt i32 %i, %n
  br i1 %ot, label %ipre, label %x
ipre:
  br label %ih
ih:
  %j = phi i32 [ 0, %ipre ], [ %j1, %inext ]
  %s2 = phi i32 [ %s, %ipre ], [ %s3, %inext ]
  %s3 = add i32 %s2, %j
  %j1 = add i32 %j, 1
  %e = icmp sgt i32 %s3, 100
  br i1 %e, label %x, label %inext
inext:
  %it = icmp slt i32 %j1, %i
  br i1 %it, label %ih, label %olatch
olatch:
  %i1 = add i32 %i, 1
  br label %oh
x:
  %r = phi i32 [ %s, %oh ], [ %s3, %ih ]
  ret i32 %r
}`;
    const r = opt(ir, 'loop-simplify');
    const li = loopsOf(r, 'f');
    expect(li.loops.length).toBe(2);
    expect(isInSimplifyForm(li)).toBe(true);
    expect(stat(r, 'loop-simplify', 'exit blocks split')).toBe(2);
    sameResults(ir, 'loop-simplify', 'f', [[0], [1], [5], [9], [30]]);
  });

  it('leaves loops already in simplify form alone', () => {
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
    const r = opt(ir, 'loop-simplify');
    expect(r.stats.get('loop-simplify')).toBeUndefined();
  });
});
