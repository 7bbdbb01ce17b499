/**
 * Complete unrolling of loops that contain loops (LLVM's LoopFullUnrollPass visits every loop
 * of a nest, innermost first): the loop structure after, the verifier (opt runs
 * --verify-each), our interpreter on several arguments, and lli-19 on the same modules
 * before and after (checkPipelines: llvm-as-19 accepts the output, same stdout and exit code).
 */
import { describe, expect, it } from 'vitest';
import { hasLlvm } from '../helpers/llvm.js';
import { checkPipelines } from './cfg-loop-check.js';
import { countOps, loopsOf, opt, sameResults, stat } from './cfg-helpers.js';

/**
 * An outer loop of OUTER trips (constant) around an inner loop whose trip count is the
 * argument (unknown): the inner loop cannot be unrolled, the nest can. %s is defined in the
 * inner loop and used after the outer one.
 */
const nest = (outer: number) => `
define i32 @f(i32 %n) {
entry:
  br label %oh
oh:
  %i = phi i32 [ 0, %entry ], [ %i1, %olatch ]
  %s = phi i32 [ 0, %entry ], [ %s2, %olatch ]
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %ih, label %olatch
ih:
  %j = phi i32 [ 0, %oh ], [ %j1, %ih ]
  %s1 = phi i32 [ %s, %oh ], [ %s3, %ih ]
  %p = mul i32 %i, %j
  %q = add i32 %p, %i
  %s3 = add i32 %s1, %q
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, %n
  br i1 %cj, label %ih, label %olatch
olatch:
  %s2 = phi i32 [ %s3, %ih ], [ %s, %oh ]
  %i1 = add i32 %i, 1
  %ci = icmp slt i32 %i1, ${outer}
  br i1 %ci, label %oh, label %x
x:
  ret i32 %s2
}

@fmt = private constant [4 x i8] c"%d\\0A\\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
  %a = call i32 @f(i32 0)
  %b = call i32 @f(i32 1)
  %c = call i32 @f(i32 7)
  %d = call i32 @f(i32 -3)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %a)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %b)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %c)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %d)
  %r = and i32 %c, 127
  ret i32 %r
}`;

/** Three deep: %a (2 trips) around %b (3 trips) around %c (unknown trips, the argument). */
const DEEP = `
define i32 @f(i32 %n) {
entry:
  br label %a
a:
  %i = phi i32 [ 0, %entry ], [ %i1, %alatch ]
  %s = phi i32 [ 1, %entry ], [ %s4, %alatch ]
  br label %b
b:
  %j = phi i32 [ 0, %a ], [ %j1, %blatch ]
  %t = phi i32 [ %s, %a ], [ %t2, %blatch ]
  br label %c
c:
  %k = phi i32 [ 0, %b ], [ %k1, %c ]
  %u = phi i32 [ %t, %b ], [ %u1, %c ]
  %m = mul i32 %u, 3
  %v = xor i32 %m, %j
  %u1 = add i32 %v, %i
  %k1 = add i32 %k, 1
  %ck = icmp ult i32 %k1, %n
  br i1 %ck, label %c, label %blatch
blatch:
  %t2 = phi i32 [ %u1, %c ]
  %j1 = add i32 %j, 1
  %cj = icmp ult i32 %j1, 3
  br i1 %cj, label %b, label %alatch
alatch:
  %s4 = phi i32 [ %t2, %blatch ]
  %i1 = add i32 %i, 1
  %ci = icmp ult i32 %i1, 2
  br i1 %ci, label %a, label %x
x:
  ret i32 %s4
}`;

describe('loop-unroll of loop nests', () => {
  it('unrolls a constant-trip outer loop around an unknown-trip inner loop: one top-level copy of the inner loop per trip', () => {
    const r = opt(nest(4), 'loop-unroll');
    expect(stat(r, 'loop-unroll', 'loops unrolled')).toBe(1);
    const li = loopsOf(r, 'f');
    // the four copies of the inner loop are now top-level loops, each innermost
    expect(li.loops.length).toBe(4);
    expect(li.topLevel.length).toBe(4);
    expect(li.loops.every((l) => l.subLoops.length === 0 && l.depth === 1)).toBe(true);
    expect(countOps(r.fnText('f'), 'mul')).toBe(4);
    const want = sameResults(nest(4), 'loop-unroll', 'f', [[0], [1], [2], [7], [-3]]);
    // Σ_i Σ_{j<n} (i·j + i) with i = 0..3: n = 7 gives 6·21 + 6·7 = 168
    expect(want[3]).toBe(168);
    // instcombine and friends then see constants for %i in every copy
    const folded = opt(nest(4), 'loop-unroll,instcombine,sccp,simplifycfg');
    expect(loopsOf(folded, 'f').loops.length).toBeLessThanOrEqual(4);
    expect(sameResults(nest(4), 'loop-unroll,instcombine,sccp,simplifycfg', 'f', [[0], [5], [-1]])).toEqual([0, 90, 0]);
  });

  it('unrolls a three-deep nest from the inside out: the middle loop first, then the outer one', () => {
    const once = opt(DEEP, 'loop-unroll');
    expect(stat(once, 'loop-unroll', 'loops unrolled')).toBe(1);
    let li = loopsOf(once, 'f');
    // the outer loop is left for the next run (a loop inside it changed), around 3 copies of %c
    expect(li.topLevel.length).toBe(1);
    expect(li.topLevel[0].subLoops.length).toBe(3);
    const twice = opt(DEEP, 'loop-unroll,loop-unroll');
    expect(stat(twice, 'loop-unroll', 'loops unrolled')).toBe(2);
    li = loopsOf(twice, 'f');
    expect(li.loops.length).toBe(6);
    expect(li.loops.every((l) => l.depth === 1 && l.subLoops.length === 0)).toBe(true);
    sameResults(DEEP, 'loop-unroll,loop-unroll', 'f', [[0], [1], [4], [9]]);
  });

  it('leaves a nest alone when it is too large, its exit is not the latch, or nests are off', () => {
    // 4 trips × 18 instructions (LoopSimplify gives the inner loop a preheader and a dedicated
    // exit first) is over a nest threshold of 71
    const big = opt(nest(4), 'loop-unroll<nest-threshold=71>');
    expect(stat(big, 'loop-unroll', 'loops unrolled')).toBe(0);
    expect(loopsOf(big, 'f').loops.length).toBe(2);
    expect(stat(opt(nest(4), 'loop-unroll<nest-threshold=0>'), 'loop-unroll', 'loops unrolled')).toBe(0);
    expect(stat(opt(nest(4), 'loop-unroll<nest-threshold=72>'), 'loop-unroll', 'loops unrolled')).toBe(1);
    // an inner loop that leaves both loops (a `break` out of the nest): the outer loop exits
    // other than at its latch
    const breaks = nest(4).replace('br i1 %cj, label %ih, label %olatch', 'br i1 %cj, label %ih, label %x0').replace('%s2 = phi i32 [ %s3, %ih ], [ %s, %oh ]', '%s2 = phi i32 [ %s, %oh ]').replace('x:\n  ret i32 %s2', 'x0:\n  br label %x\nx:\n  %r = phi i32 [ %s2, %olatch ], [ %s3, %x0 ]\n  ret i32 %r');
    const b = opt(breaks, 'loop-unroll');
    expect(stat(b, 'loop-unroll', 'loops unrolled')).toBe(0);
    expect(loopsOf(b, 'f').loops.length).toBe(2);
    // 300 trips: over the default nest threshold
    expect(stat(opt(nest(300), 'loop-unroll'), 'loop-unroll', 'loops unrolled')).toBe(0);
  });
});

// Reason for runIf: needs lli-19 and llvm-as-19 (the independent oracles); without them this skips and the report says so.
describe.runIf(hasLlvm())('loop-unroll of loop nests agrees with lli-19', () => {
  it('on the nests above, with and without the clean-up after', async () => {
    const deepMain = `${DEEP}
define i32 @main() {
  %a = call i32 @f(i32 0)
  %b = call i32 @f(i32 5)
  %c = add i32 %a, %b
  %r = and i32 %c, 255
  ret i32 %r
}`;
    for (const [ir, name] of [
      [nest(4), 'nest4'],
      [nest(1), 'nest1'],
      [deepMain, 'deep'],
    ] as const) {
      await checkPipelines(ir, name, ['loop-unroll', 'loop-unroll,loop-unroll', 'loop-unroll,loop-unroll,instcombine,sccp,simplifycfg,gvn']);
    }
  }, 60_000);
});
