/**
 * Peeling to eliminate compares (src/transforms/utils/loop-peel.ts through loop-unroll):
 * the oracle is execution before and after, in our interpreter, over trip counts from 0 up;
 * the structural checks say what was decided (the test in the loop is gone), not how the
 * IR looks. With LLVM present, programs go through it and llvm-as-19 / lli-19 agree.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm, listPrograms } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';
import { checkPipelines } from './cfg-loop-check.js';
import { countOps, opt, sameResults, stat } from './cfg-helpers.js';

/** A loop from START by STEP while i < n whose body branches on `icmp TEST`. */
function loop(start: number, step: number, inc: string, test: string): string {
  return `
define i32 @f(i32 %n) {
entry:
  %g = icmp slt i32 ${start}, %n
  br i1 %g, label %h, label %x
h:
  %i = phi i32 [ ${start}, %entry ], [ %i1, %l ]
  %s = phi i32 [ 0, %entry ], [ %s2, %l ]
  %t = ${test}
  br i1 %t, label %a, label %l
a:
  %m = mul i32 %i, 3
  %s1 = add i32 %s, %m
  br label %l
l:
  %s2 = phi i32 [ %s, %h ], [ %s1, %a ]
  %i1 = ${inc} i32 %i, ${step}
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %h, label %x
x:
  %r = phi i32 [ 0, %entry ], [ %s2, %l ]
  %q = phi i32 [ 7, %entry ], [ %i, %l ]
  %u = add i32 %r, %q
  ret i32 %u
}`;
}

const NS = Array.from({ length: 14 }, (_, k) => k - 2).concat([50]);

describe('peeling to eliminate compares', () => {
  for (const [what, ir, k] of [
    ['i > 0 from 0 (an inner loop guard over j < i)', loop(0, 1, 'add nsw', 'icmp sgt i32 %i, 0'), 1],
    ['i == 0 from 0', loop(0, 1, 'add nsw', 'icmp eq i32 %i, 0'), 1],
    ['i >= 3 from 0: three iterations', loop(0, 1, 'add nsw', 'icmp sge i32 %i, 3'), 3],
    ['i <u 2 from 0 with nuw', loop(0, 1, 'add nuw', 'icmp ult i32 %i, 2'), 2],
    // nsw from a non-negative start counting up implies nuw
    ['i <u 2 from 0 with nsw', loop(0, 1, 'add nsw', 'icmp ult i32 %i, 2'), 2],
    ['2 < i with the operands swapped, counting by 2', loop(0, 2, 'add nsw', 'icmp slt i32 2, %i'), 2],
  ] as const) {
    it(`peels ${what}`, () => {
      const r = opt(ir, 'loop-unroll');
      expect(stat(r, 'loop-unroll', 'loops peeled')).toBe(1);
      // k copies of the test in front, none left in the loop: the copies plus the latch tests
      expect(countOps(r.fnText('f'), 'icmp')).toBe(1 + k + (k + 1));
      sameResults(ir, 'loop-unroll', 'f', NS.map((n) => [n]));
      sameResults(ir, 'loop-unroll,instcombine,simplifycfg,sccp,gvn', 'f', NS.map((n) => [n]));
    });
  }

  it('leaves tests alone that change late, keep changing, or may wrap', () => {
    for (const ir of [
      loop(0, 1, 'add nsw', 'icmp sgt i32 %i, 5'), // switches after 6 iterations: over peel-count 3
      loop(0, 1, 'add', 'icmp sgt i32 %i, 0'), // no nsw: the IV may wrap and the test change back
      // unsigned test, nsw only, from below zero: false, then true at 0 and 1, then false again
      loop(-5, 1, 'add nsw', 'icmp ult i32 %i, 2'),
      loop(0, 1, 'add nsw', 'icmp sgt i32 %i, %n'), // not a constant
    ]) {
      expect(stat(opt(ir, 'loop-unroll'), 'loop-unroll', 'loops peeled'), ir).toBe(0);
    }
    expect(stat(opt(loop(0, 1, 'add nsw', 'icmp sgt i32 %i, 0'), 'loop-unroll<peel-count=0>'), 'loop-unroll', 'loops peeled')).toBe(0);
  });
});

const PIPELINES = ['mem2reg,loop-simplify,loop-rotate,loop-unroll', 'mem2reg,loop-simplify,loop-rotate,loop-unroll<peel-count=3>,instcombine,sccp,simplifycfg,indvars,loop-deletion,gvn'];

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('peeling keeps behaviour', () => {
  for (const p of listPrograms('test/programs').slice(12, 24)) {
    it(p.name, async () => {
      const input = stripNoinline(inputIR(readFileSync(p.path, 'utf8'), p.name, { stdin: p.stdin }));
      await checkPipelines(input, p.name, PIPELINES, p.stdin);
    }, 60_000);
  }
  for (let seed = 201; seed <= 212; seed++) {
    it(`c-gen seed ${seed}`, async () => {
      const src = generateCProgram(seed, { size: seed % 4 === 0 ? 'medium' : 'small' });
      const input = stripNoinline(inputIR(src, `cgen-${seed}`));
      await checkPipelines(input, `cgen-${seed}`, PIPELINES);
    }, 60_000);
  }
});
