import { describe, expect, it } from 'vitest';
import { isInSimplifyForm } from '../../src/transforms/utils/loop-simplify.js';
import { countOps, loopsOf, opt, sameResults, stat } from './cfg-helpers.js';

const WHILE = `
define i32 @f(i32 %n) {
entry:
  br label %cond
cond:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %s = phi i32 [ 0, %entry ], [ %s1, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %end
body:
  %sq = mul i32 %i, %i
  %s1 = add i32 %s, %sq
  %i1 = add i32 %i, 1
  br label %cond
end:
  ret i32 %s
}`;

describe('loop-rotate', () => {
  it('turns a while loop into a guarded do-while whose latch tests the condition', () => {
    const r = opt(WHILE, 'loop-rotate');
    expect(stat(r, 'loop-rotate', 'loops rotated')).toBe(1);
    const li = loopsOf(r, 'f');
    expect(li.loops.length).toBe(1);
    const l = li.loops[0];
    expect(isInSimplifyForm(li)).toBe(true);
    // the header is the old body; the single latch is the exiting block
    expect(li.cfg.blockOf(l.header)!.name).toBe('body');
    const latches = l.latches();
    expect(latches.length).toBe(1);
    expect(Array.from(l.exitingBlocks())).toEqual([latches[0]]);
    const latch = li.cfg.blockOf(latches[0])!;
    expect(latch.terminator()!.isConditionalBranch()).toBe(true);
    // the guard: a copy of the test in the entry block, on the incoming values
    expect(r.fnText('f')).toMatch(/entry:\n\s+%c\d* = icmp slt i32 0, %n\n\s+br i1 %c\d*, label %body\.lr\.ph, label %end/);
    sameResults(WHILE, 'loop-rotate', 'f', [[0], [1], [5], [-3]]);
  });

  it('repairs SSA: values of the old header used after the loop get phis', () => {
    const r = opt(WHILE, 'loop-rotate');
    // %s is defined in the rotated loop and on the guard's false edge: the exit merges them
    expect(r.fnText('f')).toMatch(/end:.*\n\s+%s\d* = phi i32 \[/);
    expect(countOps(r.fnText('f'), 'phi')).toBeGreaterThanOrEqual(3);
  });

  it('folds a guard that the incoming values decide, entering the loop unconditionally', () => {
    const ir = WHILE.replace('%c = icmp slt i32 %i, %n', '%c = icmp slt i32 %i, 10');
    const r = opt(ir, 'loop-rotate');
    expect(r.fnText('f')).not.toMatch(/icmp slt i32 0, 10/);
    const li = loopsOf(r, 'f');
    expect(isInSimplifyForm(li)).toBe(true);
    sameResults(ir, 'loop-rotate', 'f', [[0]]);
  });

  it('does not rotate loops already bottom-tested, or with a big header', () => {
    const once = opt(WHILE, 'loop-rotate,loop-rotate');
    expect(stat(once, 'loop-rotate', 'loops rotated')).toBe(1);
    const big = opt(WHILE, 'loop-rotate<header-size=0>');
    expect(stat(big, 'loop-rotate', 'loops rotated')).toBe(0);
  });

  it('rotates nested loops, inner first', () => {
    const ir = `
define i32 @f(i32 %n) {
entry:
  br label %oc
oc:
  %i = phi i32 [ 0, %entry ], [ %i1, %olatch ]
  %s = phi i32 [ 0, %entry ], [ %s2, %olatch ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %ipre, label %end
ipre:
  br label %ic
ic:
  %j = phi i32 [ 0, %ipre ], [ %j1, %ib ]
  %s2 = phi i32 [ %s, %ipre ], [ %s3, %ib ]
  %d = icmp slt i32 %j, %i
  br i1 %d, label %ib, label %olatch
ib:
  %p = mul i32 %i, %j
  %s3 = add i32 %s2, %p
  %j1 = add i32 %j, 1
  br label %ic
olatch:
  %i1 = add i32 %i, 1
  br label %oc
end:
  ret i32 %s
}`;
    const r = opt(ir, 'loop-rotate');
    expect(stat(r, 'loop-rotate', 'loops rotated')).toBe(2);
    const li = loopsOf(r, 'f');
    expect(isInSimplifyForm(li)).toBe(true);
    for (const l of li.loops) expect(Array.from(l.exitingBlocks())).toEqual(Array.from(l.latches()));
    sameResults(ir, 'loop-rotate', 'f', [[0], [1], [4], [7]]);
  });
});
