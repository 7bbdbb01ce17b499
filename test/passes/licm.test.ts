import { describe, expect, it } from 'vitest';
import type { BasicBlock } from '../../src/ir/basic-block.js';
import { loopsOf, opt, sameResults, stat } from './cfg-helpers.js';

/** Names of the instructions (by printed name) in a block. */
function namesIn(b: BasicBlock): string[] {
  return b.instructions().filter((i) => i.name !== '' && i.opcodeName !== 'phi').map((i) => i.name);
}

function preheaderOf(r: ReturnType<typeof opt>, fn: string, loopIndex = 0): BasicBlock {
  const li = loopsOf(r, fn);
  return li.cfg.blockOf(li.loops[loopIndex].preheader())!;
}

describe('licm', () => {
  it('hoists exactly the invariant computations to the preheader', () => {
    const ir = `
define i32 @f(i32 %a, i32 %b, i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %s = phi i32 [ 0, %entry ], [ %s1, %h ]
  %inv1 = mul i32 %a, %b
  %inv2 = add i32 %inv1, 7
  %var = add i32 %i, %inv2
  %s1 = add i32 %s, %var
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  ret i32 %s1
}`;
    const r = opt(ir, 'licm');
    expect(namesIn(preheaderOf(r, 'f'))).toEqual(['inv1', 'inv2']);
    expect(stat(r, 'licm', 'instructions hoisted')).toBe(2);
    sameResults(ir, 'licm', 'f', [[2, 3, 1], [2, 3, 10], [-5, 7, 0]]);
  });

  it('hoists a division by a variable only when it is guaranteed to execute', () => {
    const ir = `
define i32 @always(i32 %a, i32 %b, i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %s = phi i32 [ 0, %entry ], [ %s1, %h ]
  %q = sdiv i32 %a, %b
  %s1 = add i32 %s, %q
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  ret i32 %s1
}
define i32 @maybe(i32 %a, i32 %b, i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %s = phi i32 [ 0, %entry ], [ %s1, %latch ]
  %t = icmp slt i32 %i, %n
  br i1 %t, label %body, label %x
body:
  %q = sdiv i32 %a, %b
  %s1 = add i32 %s, %q
  br label %latch
latch:
  %i1 = add i32 %i, 1
  br label %h
x:
  ret i32 %s
}`;
    const r = opt(ir, 'licm');
    expect(namesIn(preheaderOf(r, 'always'))).toEqual(['q']);
    expect(namesIn(preheaderOf(r, 'maybe'))).toEqual([]);
    // b = 0 with n = 0: the loop body never runs, so the division must not run either
    sameResults(ir, 'licm', 'maybe', [[7, 0, 0], [7, 2, 3]]);
    sameResults(ir, 'licm', 'always', [[7, 2, 3]]);
  });

  it('hoists loads of memory the loop does not write, not of memory it may write', () => {
    const ir = `
@g = global i32 5
@h = global i32 6
declare i32 @printf(ptr, ...)
define i32 @f(i32 %n) {
entry:
  br label %hd
hd:
  %i = phi i32 [ 0, %entry ], [ %i1, %hd ]
  %s = phi i32 [ 0, %entry ], [ %s1, %hd ]
  %lg = load i32, ptr @g
  %lh = load i32, ptr @h
  %t1 = add i32 %lg, %lh
  %s1 = add i32 %s, %t1
  store i32 %s1, ptr @h
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %hd, label %x
x:
  ret i32 %s1
}`;
    const r = opt(ir, 'licm');
    expect(namesIn(preheaderOf(r, 'f'))).toEqual(['lg']);
    expect(stat(r, 'licm', 'loads hoisted')).toBe(1);
    sameResults(ir, 'licm', 'f', [[1], [4]]);
  });

  it('hoists a load of a non-escaping alloca across calls that write memory', () => {
    const ir = `
@fmt = private constant [4 x i8] c"%d\\0A\\00"
declare i32 @printf(ptr, ...)
define i32 @f(i32 %n) {
entry:
  %arr = alloca [4 x i32]
  %p1 = getelementptr inbounds [4 x i32], ptr %arr, i64 0, i64 1
  store i32 42, ptr %p1
  br label %hd
hd:
  %i = phi i32 [ 0, %entry ], [ %i1, %hd ]
  %v = load i32, ptr %p1
  %w = add i32 %v, %i
  %c = call i32 (ptr, ...) @printf(ptr @fmt, i32 %w)
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %hd, label %x
x:
  ret i32 0
}`;
    const r = opt(ir, 'licm');
    expect(namesIn(preheaderOf(r, 'f'))).toEqual(['arr', 'p1', 'v']);
    sameResults(ir, 'licm', 'f', [[3]]);
  });

  it('does not hoist a load from an argument pointer past a call, nor out of a loop that may not run', () => {
    const ir = `
declare void @ext()
define i32 @f(ptr %p, i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %v = load i32, ptr %p
  call void @ext()
  %i1 = add i32 %i, %v
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  ret i32 %i1
}`;
    const r = opt(ir, 'licm');
    expect(namesIn(preheaderOf(r, 'f'))).toEqual([]);
  });

  it('hoists from inner loops first, then further out', () => {
    const ir = `
define i32 @f(i32 %a, i32 %n) {
entry:
  br label %oh
oh:
  %i = phi i32 [ 0, %entry ], [ %i1, %olatch ]
  %s = phi i32 [ 0, %entry ], [ %s3, %olatch ]
  br label %ih
ih:
  %j = phi i32 [ 0, %oh ], [ %j1, %ih ]
  %s2 = phi i32 [ %s, %oh ], [ %s3, %ih ]
  %inner = mul i32 %i, 3
  %outer = mul i32 %a, %a
  %x1 = add i32 %inner, %outer
  %s3 = add i32 %s2, %x1
  %j1 = add i32 %j, 1
  %it = icmp slt i32 %j1, %n
  br i1 %it, label %ih, label %olatch
olatch:
  %i1 = add i32 %i, 1
  %ot = icmp slt i32 %i1, %n
  br i1 %ot, label %oh, label %x
x:
  ret i32 %s3
}`;
    const r = opt(ir, 'licm');
    const li = loopsOf(r, 'f');
    const outer = li.loops[0];
    const inner = li.loops[1];
    expect(namesIn(li.cfg.blockOf(outer.preheader())!)).toEqual(['outer']);
    expect(namesIn(li.cfg.blockOf(inner.preheader())!)).toEqual(['inner', 'x1']);
    sameResults(ir, 'licm', 'f', [[2, 3], [5, 1]]);
  });

  it('sinks computations used only after the loop into the exit block', () => {
    const ir = `
define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %sq = mul i32 %i, %i
  %sq2 = add i32 %sq, 1
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  ret i32 %sq2
}`;
    const r = opt(ir, 'licm');
    const li = loopsOf(r, 'f');
    const exit = li.cfg.blockOf(li.loops[0].exitBlocks()[0])!;
    expect(namesIn(exit)).toEqual(['sq', 'sq2']);
    expect(stat(r, 'licm', 'instructions sunk')).toBe(2);
    sameResults(ir, 'licm', 'f', [[1], [5]]);
  });

  it('sinks into every exit when the uses are reached through several exits (SSA repair)', () => {
    const ir = `
define i32 @f(i32 %n, i32 %stop) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %sq = mul i32 %i, %i
  %hit = icmp eq i32 %i, %stop
  br i1 %hit, label %early, label %latch
latch:
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %late
early:
  br label %join
late:
  br label %join
join:
  %r = add i32 %sq, 1
  ret i32 %r
}`;
    const r = opt(ir, 'licm');
    expect(stat(r, 'licm', 'instructions sunk')).toBe(1);
    const t = r.fnText('f');
    expect(t).toMatch(/early:.*\n\s+%sq\d* = mul i32 %i, %i/);
    expect(t).toMatch(/late:.*\n\s+%sq\d* = mul i32 %i, %i/);
    expect(t).toMatch(/join:.*\n\s+%sq\d* = phi i32/);
    sameResults(ir, 'licm', 'f', [[5, 2], [5, 9], [1, 0]]);
  });
});
