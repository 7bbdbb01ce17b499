/**
 * Runtime unrolling (src/transforms/utils/loop-unroll-runtime.ts through loop-unroll's
 * `runtime-count`): the oracle is execution. Each loop runs before and after in our
 * interpreter for trip counts around every multiple of the unroll count (0, 1, k-1, k, k+1,
 * …), including a trip count of 2^bits that wraps tc to 0; with LLVM present, C programs
 * and generated ones go through it and llvm-as-19 / lli-19 must agree.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm, listPrograms } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';
import { checkPipelines } from './cfg-loop-check.js';
import { countOps, opt, sameResults, stat } from './cfg-helpers.js';

const RT = 'loop-unroll<runtime-count=8>';

/** `for (i = START; i TEST N; i = NEXT) s = s * 3 + i;` guarded, the sum used after the loop. */
function loop(ty: string, start: string, next: string, test: string, guard: string): string {
  return `
define ${ty} @f(${ty} %n) {
entry:
  %g = ${guard}
  br i1 %g, label %h, label %x
h:
  %i = phi ${ty} [ ${start}, %entry ], [ %i1, %h ]
  %s = phi ${ty} [ 0, %entry ], [ %s1, %h ]
  %m = mul ${ty} %s, 3
  %s1 = add ${ty} %m, %i
  %i1 = ${next}
  %c = ${test}
  br i1 %c, label %h, label %x
x:
  %r = phi ${ty} [ 0, %entry ], [ %s1, %h ]
  %last = phi ${ty} [ 0, %entry ], [ %i, %h ]
  %t = mul ${ty} %r, %last
  %u = add ${ty} %t, %s1x
  ret ${ty} %u
}`.replace('%s1x', '%r');
}

const NS = Array.from({ length: 40 }, (_, k) => k - 3).concat([63, 64, 65, 1000, 1001, 1007]);

describe('runtime unrolling', () => {
  it('unrolls a loop with a symbolic count by 8 around a remainder loop, for every count', () => {
    const ir = loop('i32', '0', 'add nsw i32 %i, 1', 'icmp slt i32 %i1, %n', 'icmp sgt i32 %n, 0');
    const r = opt(ir, RT);
    expect(stat(r, 'loop-unroll', 'loops unrolled at run time')).toBe(1);
    const t = r.fnText('f');
    // 8 copies in the main loop, one in the remainder
    expect(countOps(t, 'mul')).toBe(8 + 1 + 1);
    expect(t).toMatch(/and i32 %tc, 7/);
    expect(sameResults(ir, RT, 'f', NS.map((n) => [n]))).toHaveLength(NS.length);
    // both loops are marked, so another run leaves them alone
    const again = opt(r.text, RT);
    expect(stat(again, 'loop-unroll', 'loops unrolled at run time')).toBe(0);
    // two loop IDs naming the one (uniqued, as LLVM prints it) unroll.disable property
    const dis = /^(!\d+) = !\{!"llvm\.loop\.unroll\.disable"\}$/m.exec(r.text)![1];
    const ids = [...r.text.matchAll(/^!\d+ = distinct !\{(.*)\}$/gm)].filter((m) => m[1].split(', ').includes(dis));
    expect(ids.length).toBe(2);
  });

  it('counts down, unsigned, by != and by steps of two (a division in the count)', () => {
    const cases = [
      loop('i32', '%n', 'add nsw i32 %i, -1', 'icmp sgt i32 %i1, 0', 'icmp sgt i32 %n, 0'),
      loop('i32', '0', 'add nuw i32 %i, 1', 'icmp ult i32 %i1, %n', 'icmp ugt i32 %n, 0'),
      loop('i32', '0', 'add i32 %i, 1', 'icmp ne i32 %i1, %n', 'icmp sgt i32 %n, 0'),
      loop('i64', '0', 'add nsw i64 %i, 2', 'icmp slt i64 %i1, %n', 'icmp sgt i64 %n, 0'),
    ];
    // non-negative counts: below zero the unsigned and != loops run about 2^32 times
    const ns = NS.filter((n) => n >= 0);
    for (const ir of cases) {
      const r = opt(ir, RT);
      expect(stat(r, 'loop-unroll', 'loops unrolled at run time'), ir).toBe(1);
      sameResults(ir, RT, 'f', ns.map((n) => [ir.includes('i64 @f') ? BigInt(n) : n]));
      sameResults(ir, `${RT},instcombine,simplifycfg,gvn`, 'f', ns.slice(0, 12).map((n) => [ir.includes('i64 @f') ? BigInt(n) : n]));
    }
  });

  it('runs 2^8 times when an i8 count wraps tc to zero', () => {
    // i from 0 while i + 1 != n: with n = 0 the body runs 256 times (btc = 255, tc = 0)
    const ir = loop('i8', '0', 'add i8 %i, 1', 'icmp ne i8 %i1, %n', 'icmp eq i8 0, 0');
    expect(stat(opt(ir, RT), 'loop-unroll', 'loops unrolled at run time')).toBe(1);
    sameResults(ir, RT, 'f', [[0], [1], [2], [7], [8], [9], [-1], [-8], [-7], [100]]);
  });

  it('leaves loops alone when runtime-count is below 2 (the default)', () => {
    const ir = loop('i32', '0', 'add nsw i32 %i, 1', 'icmp slt i32 %i1, %n', 'icmp sgt i32 %n, 0');
    expect(stat(opt(ir, 'loop-unroll'), 'loop-unroll', 'loops unrolled at run time')).toBe(0);
    expect(stat(opt(ir, 'loop-unroll<runtime-count=1>'), 'loop-unroll', 'loops unrolled at run time')).toBe(0);
  });
});

const PIPELINES = ['mem2reg,loop-simplify,loop-rotate,loop-unroll<runtime-count=8>', 'mem2reg,loop-simplify,loop-rotate,loop-unroll<runtime-count=4>,instcombine,sccp,simplifycfg,gvn'];

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('runtime unrolling keeps behaviour', () => {
  for (const p of listPrograms('test/programs').slice(0, 12)) {
    it(p.name, async () => {
      const input = stripNoinline(inputIR(readFileSync(p.path, 'utf8'), p.name, { stdin: p.stdin }));
      await checkPipelines(input, p.name, PIPELINES, p.stdin);
    }, 60_000);
  }
  for (let seed = 101; seed <= 115; seed++) {
    it(`c-gen seed ${seed}`, async () => {
      const src = generateCProgram(seed, { size: seed % 5 === 0 ? 'medium' : 'small' });
      const input = stripNoinline(inputIR(src, `cgen-${seed}`));
      await checkPipelines(input, `cgen-${seed}`, PIPELINES);
    }, 60_000);
  }
});
