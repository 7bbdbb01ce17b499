import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm, listPrograms } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';
import { parseModule } from '../../src/text/parser.js';
import { printFunction } from '../../src/text/printer.js';
import { checkPipelines } from './cfg-loop-check.js';
import { countOps, loopsOf, opt, sameResults, stat } from './cfg-helpers.js';

/** A bottom-tested loop: `%i` from START, `%i1 = STEP`, exit test `%c = TEST`, body sums `%i`. */
function counted(ty: string, start: number, next: string, test: string, branch = 'br i1 %c, label %h, label %x'): string {
  return `
define ${ty} @f() {
entry:
  br label %h
h:
  %i = phi ${ty} [ ${start}, %entry ], [ %i1, %h ]
  %s = phi ${ty} [ 0, %entry ], [ %s1, %h ]
  %s1 = add ${ty} %s, %i
  %i1 = ${next}
  %c = ${test}
  ${branch}
x:
  ret ${ty} %s1
}`;
}

const SUM10 = counted('i32', 0, 'add nsw i32 %i, 1', 'icmp slt i32 %i1, 10');

describe('loop-unroll', () => {
  it('turns a loop summing 0..9 into straight-line code that folds to 45', () => {
    const r = opt(SUM10, 'loop-unroll');
    expect(stat(r, 'loop-unroll', 'loops unrolled')).toBe(1);
    expect(loopsOf(r, 'f').loops.length).toBe(0);
    const t = r.fnText('f');
    expect(countOps(t, 'phi')).toBe(0);
    expect(countOps(t, 'icmp')).toBe(0);
    expect(countOps(t, 'add')).toBe(20);
    // copy 0 keeps the names and starts from the preheader values; the copies chain up
    expect(t).toMatch(/h:.*\n\s+%s1 = add i32 0, 0\n\s+%i1 = add nsw i32 0, 1\n\s+br label %h\.1\n/);
    expect(t).toMatch(/h\.9:.*\n\s+%s1\.9 = add i32 %s1\.8, %i1\.8\n\s+%i1\.9 = add nsw i32 %i1\.8, 1\n\s+br label %x\n/);
    expect(t).toMatch(/ret i32 %s1\.9/);
    const folded = opt(SUM10, 'loop-unroll,instcombine,sccp,simplifycfg');
    expect(folded.fnText('f')).toMatch(/^define i32 @f\(\) \{\nentry:\n\s+ret i32 45\n\}/);
    expect(sameResults(SUM10, 'loop-unroll', 'f', [[]])).toEqual([45]);
  });

  it('leaves loops with an unknown or too large trip count alone', () => {
    const unknown = `
define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %h, label %x
x:
  ret i32 %i1
}`;
    for (const [ir, p] of [
      [unknown, 'loop-unroll'],
      [counted('i32', 0, 'add i32 %i, 1', 'icmp slt i32 %i1, 1000'), 'loop-unroll<max-partial-count=0>'],
      // a trip count of 1009 (a prime): no count up to 8 divides it
      [counted('i32', 0, 'add i32 %i, 1', 'icmp slt i32 %i1, 1009'), 'loop-unroll'],
      // 10 trips × 6 instructions is over a threshold of 59
      [SUM10, 'loop-unroll<threshold=59;max-partial-count=0>'],
      [SUM10, 'loop-unroll<max-trip-count=9;max-partial-count=0>'],
      // partially, 2 × 6 instructions is over a partial threshold of 11
      [SUM10, 'loop-unroll<max-trip-count=9;partial-threshold=11>'],
      // a test that never exits within the limit
      [counted('i32', 0, 'add i32 %i, 2', 'icmp ne i32 %i1, 7'), 'loop-unroll'],
      // a step that is not constant
      [counted('i32', 0, 'add i32 %i, %s', 'icmp slt i32 %i1, 10'), 'loop-unroll'],
    ] as const) {
      const r = opt(ir, p);
      expect(stat(r, 'loop-unroll', 'loops unrolled'), `${p} on ${ir}`).toBe(0);
      expect(stat(r, 'loop-unroll', 'loops unrolled partially'), `${p} on ${ir}`).toBe(0);
      expect(r.fnText('f')).toBe(printFunction(parseModule(ir, 'in.ll').getFunction('f')!));
    }
    expect(stat(opt(SUM10, 'loop-unroll<threshold=60>'), 'loop-unroll', 'loops unrolled')).toBe(1);
    expect(() => opt(SUM10, 'loop-unroll<bogus>')).toThrow(/unknown parameter/);
  });

  it('unrolls longer loops partially, by the largest count that divides the trip count', () => {
    // 1000 runs, 6 instructions: 8 copies (8 × 6 ≤ 150 and 8 divides 1000)
    const ir = counted('i32', 0, 'add nsw i32 %i, 1', 'icmp slt i32 %i1, 1000');
    const r = opt(ir, 'loop-unroll');
    expect(stat(r, 'loop-unroll', 'loops unrolled partially')).toBe(1);
    const t = r.fnText('f');
    expect(countOps(t, 'phi')).toBe(2);
    expect(countOps(t, 'icmp')).toBe(1);
    expect(t).toMatch(/%i = phi i32 \[ 0, %entry \], \[ %i1\.7, %h\.7 \]/);
    expect(t).toMatch(/br i1 %c\.7, label %h, label %x/);
    expect(t).toMatch(/ret i32 %s1\.7/);
    expect(sameResults(ir, 'loop-unroll', 'f', [[]])).toEqual([499500]);
    // 12 runs with a partial threshold of 30: 5 copies fit but do not divide 12, 4 do
    const twelve = counted('i32', 0, 'add i32 %i, 1', 'icmp ne i32 %i1, 12');
    const r4 = opt(twelve, 'loop-unroll<max-trip-count=8;partial-threshold=30>');
    expect(stat(r4, 'loop-unroll', 'loops unrolled partially')).toBe(1);
    expect(r4.fnText('f')).toMatch(/^h\.3:/m);
    expect(r4.fnText('f')).not.toMatch(/^h\.4:/m);
    expect(sameResults(twelve, 'loop-unroll<max-trip-count=8;partial-threshold=30>', 'f', [[]])).toEqual([66]);
    // the exit taken on true, the IV tested before its increment, and values used after the loop
    const other = `
define i64 @f(i64 %a) {
entry:
  br label %h
h:
  %i = phi i64 [ 5, %entry ], [ %i1, %h ]
  %p = phi i64 [ %a, %entry ], [ %m, %h ]
  %m = mul i64 %p, 3
  %i1 = add i64 %i, 1
  %c = icmp sge i64 %i, 604
  br i1 %c, label %x, label %h
x:
  %e = phi i64 [ %p, %h ]
  %r1 = add i64 %e, %m
  %r2 = mul i64 %r1, %i
  ret i64 %r2
}`;
    const ro = opt(other, 'loop-unroll');
    expect(stat(ro, 'loop-unroll', 'loops unrolled partially')).toBe(1);
    sameResults(other, 'loop-unroll', 'f', [[1n], [-7n], [123456789n]]);
    sameResults(other, 'loop-unroll,instcombine,simplifycfg,gvn', 'f', [[1n], [-7n]]);
  });

  it('takes the trip count from scalar evolution where the IV reader gives up (a test on the phi against ne)', () => {
    // randgen's `while (n--)`: the phi itself is tested, so the trip count is start + 1
    for (const [start, step, copies] of [[999, -1, 8], [1393, -7, 8], [20, -1, 7]] as const) {
      const ir = counted('i32', start, `add nsw i32 %i, ${step}`, 'icmp ne i32 %i, 0');
      const r = opt(ir, 'loop-unroll<max-trip-count=8>');
      expect(stat(r, 'loop-unroll', 'loops unrolled partially'), ir).toBe(1);
      expect(r.fnText('f')).toMatch(new RegExp(`^h\\.${copies - 1}:`, 'm'));
      expect(r.fnText('f')).not.toMatch(new RegExp(`^h\\.${copies}:`, 'm'));
      // the oracle: the same loop run in JS
      let sum = 0;
      for (let i = start; ; i += step) {
        sum = (sum + i) | 0;
        if (i === 0) break;
      }
      expect(sameResults(ir, 'loop-unroll<max-trip-count=8>', 'f', [[]])).toEqual([sum]);
    }
    // and completely when it is small
    const small = counted('i32', 9, 'add nsw i32 %i, -1', 'icmp ne i32 %i, 0');
    const rs = opt(small, 'loop-unroll');
    expect(stat(rs, 'loop-unroll', 'loops unrolled')).toBe(1);
    expect(loopsOf(rs, 'f').loops.length).toBe(0);
    expect(sameResults(small, 'loop-unroll', 'f', [[]])).toEqual([45]);
  });

  it('gives values used after the loop their last copy', () => {
    const ir = `
define i32 @f(i32 %a) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %p = phi i32 [ %a, %entry ], [ %m, %h ]
  %m = mul i32 %p, 3
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 4
  br i1 %c, label %h, label %x
x:
  %e = phi i32 [ %p, %h ]
  br label %y
y:
  %r1 = add i32 %e, %m
  %r2 = add i32 %r1, %i
  ret i32 %r2
}`;
    const r = opt(ir, 'loop-unroll');
    expect(stat(r, 'loop-unroll', 'loops unrolled')).toBe(1);
    const t = r.fnText('f');
    expect(t).toMatch(/%e = phi i32 \[ %m\.2, %h\.3 \]/);
    expect(t).toMatch(/%r1 = add i32 %e, %m\.3/);
    expect(t).toMatch(/%r2 = add i32 %r1, %i1\.2/);
    expect(sameResults(ir, 'loop-unroll', 'f', [[1], [-7], [100000]])).toEqual([27 + 81 + 3, -7 * 27 + -7 * 81 + 3, 100000 * 108 + 3]);
    // the multiplications chain into a*27 and a*81; the IV's exit value is 3
    const folded = opt(ir, 'loop-unroll,instcombine,sccp,simplifycfg').fnText('f');
    expect(folded).toMatch(/mul i32 %a, 27\n/);
    expect(folded).toMatch(/mul i32 %a, 81\n/);
    expect(folded).toMatch(/add i32 %r1, 3\n/);
    expect(countOps(folded, 'br')).toBe(0);
  });

  it('drops, in the copies, phi entries from an unreachable block that branches into the loop body (fuzz seed 4457)', () => {
    // %dead has no predecessors, so it is in no loop, but %body's phi names it: the copies of
    // %body are not its successors and must not keep the entry (they kept an undefined block)
    const ir = `
define i32 @f(i32 %a) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %s = phi i32 [ %a, %entry ], [ %s1, %latch ]
  br label %body
body:
  %t = phi i32 [ %s, %h ], [ 7, %dead ]
  %s1 = add i32 %t, %i
  br label %latch
latch:
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 4
  br i1 %c, label %h, label %x
x:
  %r = phi i32 [ %s1, %latch ]
  ret i32 %r
dead:
  br label %body
}`;
    const r = opt(ir, 'loop-unroll');
    expect(stat(r, 'loop-unroll', 'loops unrolled')).toBe(1);
    const t = r.fnText('f');
    expect(t).toMatch(/%t = phi i32 \[ %a, %h \], \[ 7, %dead \]/);
    expect(t).toMatch(/%t\.1 = phi i32 \[ %s1, %h\.1 \]\n/);
    expect(sameResults(ir, 'loop-unroll', 'f', [[0], [10]])).toEqual([6, 16]);
  });

  it('simulates slt, ne, ult, sgt and swapped operands and successors, with decrementing IVs', () => {
    const cases: [string, number][] = [
      // 10, 8, ..., 2 (the test on the phi: runs while i > 1 before the decrement)
      [counted('i32', 10, 'sub i32 %i, 2', 'icmp sgt i32 %i, 2'), 10 + 8 + 6 + 4 + 2],
      [counted('i32', 10, 'add i32 %i, -1', 'icmp ne i32 %i1, 0'), 55],
      [counted('i32', 3, 'add i32 -1, %i', 'icmp ult i32 0, %i1'), 6],
      [counted('i32', 0, 'add i32 %i, 3', 'icmp slt i32 %i1, 10'), 0 + 3 + 6 + 9],
      // exit on true: br %c, %x, %h
      [counted('i32', 0, 'add i32 %i, 1', 'icmp eq i32 %i1, 5', 'br i1 %c, label %x, label %h'), 10],
      [counted('i64', -3, 'add i64 %i, 1', 'icmp sge i64 %i1, 2', 'br i1 %c, label %x, label %h'), -3 - 2 - 1 + 0 + 1],
      [counted('i16', 5, 'sub i16 %i, 1', 'icmp sgt i16 %i, 0'), 15],
      [counted('i32', 7, 'sub i32 %i, 1', 'icmp ule i32 3, %i1'), 7 + 6 + 5 + 4 + 3],
    ];
    for (const [ir, sum] of cases) {
      const r = opt(ir, 'loop-unroll');
      expect(stat(r, 'loop-unroll', 'loops unrolled'), ir).toBe(1);
      expect(countOps(r.fnText('f'), 'phi')).toBe(0);
      const v = sameResults(ir, 'loop-unroll', 'f', [[]])[0];
      expect(Number(v)).toBe(sum);
      const folded = opt(ir, 'loop-unroll,instcombine,sccp,simplifycfg').fnText('f');
      expect(folded).toMatch(new RegExp(`entry:\\n\\s+ret i(16|32|64) ${sum}\\n`));
    }
  });

  it('follows an i8 IV around the wrap', () => {
    // 250, 251, ..., 255, 0, 1, 2, 3: i.next reaches 4 after 10 trips
    const ir = counted('i8', -6, 'add i8 %i, 1', 'icmp ne i8 %i1, 4');
    const r = opt(ir, 'loop-unroll');
    expect(stat(r, 'loop-unroll', 'loops unrolled')).toBe(1);
    expect(countOps(r.fnText('f'), 'add')).toBe(20);
    // (250 + ... + 255 + 0 + 1 + 2 + 3) mod 256 = 1521 mod 256 = 241 = -15 as i8
    expect(opt(ir, 'loop-unroll,instcombine,sccp,simplifycfg').fnText('f')).toMatch(/ret i8 -15\n/);
    // ult against 4 exits at once: the IV starts above it
    const once = counted('i8', -6, 'add i8 %i, 1', 'icmp ult i8 %i1, 4');
    const r1 = opt(once, 'loop-unroll');
    expect(stat(r1, 'loop-unroll', 'loops unrolled')).toBe(1);
    expect(r1.fnText('f')).not.toMatch(/h\.1/);
    expect(opt(once, 'loop-unroll,instcombine,sccp,simplifycfg').fnText('f')).toMatch(/ret i8 -6\n/);
  });

  it('unrolls a body with branches, and phis that rotate values', () => {
    const ir = `
define i32 @f(i32 %a, i32 %b) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %x = phi i32 [ %a, %entry ], [ %y, %latch ]
  %y = phi i32 [ %b, %entry ], [ %x, %latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %latch ]
  %odd = and i32 %i, 1
  %t = icmp eq i32 %odd, 0
  br i1 %t, label %even, label %latch
even:
  %sh = shl i32 %x, 1
  br label %latch
latch:
  %v = phi i32 [ %sh, %even ], [ %y, %h ]
  %acc1 = mul i32 %acc, 31
  %acc2 = add i32 %acc1, %v
  %i1 = add i32 %i, 1
  %c = icmp ne i32 %i1, 5
  br i1 %c, label %h, label %out
out:
  %r = add i32 %acc2, %x
  %r2 = sub i32 %r, %y
  ret i32 %r2
}`;
    const r = opt(ir, 'loop-unroll');
    expect(stat(r, 'loop-unroll', 'loops unrolled')).toBe(1);
    expect(loopsOf(r, 'f').loops.length).toBe(0);
    const t = r.fnText('f');
    expect(t).toMatch(/even\.4:/);
    expect(t).toMatch(/%v\.4 = phi i32 \[ %sh\.4, %even\.4 \], \[ %b, %h\.4 \]/);
    sameResults(ir, 'loop-unroll', 'f', [[1, 2], [-5, 1000], [0, 0], [2147483647, -2147483648]]);
  });

  it('unrolls the inner loop of a nest, and the outer one on a second run', () => {
    const ir = `
define i32 @f() {
entry:
  br label %oh
oh:
  %i = phi i32 [ 0, %entry ], [ %i1, %olatch ]
  %s = phi i32 [ 0, %entry ], [ %s2, %olatch ]
  br label %ih
ih:
  %j = phi i32 [ 0, %oh ], [ %j1, %ih ]
  %s1 = phi i32 [ %s, %oh ], [ %s3, %ih ]
  %p = mul i32 %i, %j
  %s3 = add i32 %s1, %p
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, 3
  br i1 %cj, label %ih, label %olatch
olatch:
  %s2 = phi i32 [ %s3, %ih ]
  %i1 = add i32 %i, 1
  %ci = icmp slt i32 %i1, 4
  br i1 %ci, label %oh, label %x
x:
  ret i32 %s2
}`;
    const r = opt(ir, 'loop-unroll');
    expect(stat(r, 'loop-unroll', 'loops unrolled')).toBe(1);
    expect(loopsOf(r, 'f').loops.length).toBe(1);
    expect(countOps(r.fnText('f'), 'mul')).toBe(3);
    const twice = opt(ir, 'loop-unroll,loop-unroll');
    expect(stat(twice, 'loop-unroll', 'loops unrolled')).toBe(2);
    expect(loopsOf(twice, 'f').loops.length).toBe(0);
    expect(countOps(twice.fnText('f'), 'mul')).toBe(12);
    expect(sameResults(ir, 'loop-unroll,loop-unroll', 'f', [[]])).toEqual([18]);
    expect(opt(ir, 'loop-unroll,loop-unroll,instcombine,sccp,simplifycfg').fnText('f')).toMatch(/entry:\n\s+ret i32 18\n/);
  });

  it('unrolls a rotated C loop after mem2reg, loop-simplify and loop-rotate', () => {
    const ir = `
define i32 @f(ptr %a) {
entry:
  br label %cond
cond:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %s = phi i32 [ 0, %entry ], [ %s1, %body ]
  %c = icmp slt i32 %i, 4
  br i1 %c, label %body, label %end
body:
  %ix = sext i32 %i to i64
  %q = getelementptr inbounds i32, ptr %a, i64 %ix
  %v = load i32, ptr %q
  %s1 = add i32 %s, %v
  %i1 = add nsw i32 %i, 1
  br label %cond
end:
  ret i32 %s
}`;
    const r = opt(ir, 'loop-simplify,loop-rotate,loop-unroll,instcombine,sccp,simplifycfg');
    expect(stat(r, 'loop-unroll', 'loops unrolled')).toBe(1);
    const t = r.fnText('f');
    expect(countOps(t, 'load')).toBe(4);
    expect(countOps(t, 'phi')).toBe(0);
    expect(countOps(t, 'br')).toBe(0);
  });
});

const PIPELINES = ['mem2reg,loop-simplify,loop-rotate,loop-unroll', 'mem2reg,loop-simplify,loop-rotate,loop-unroll,instcombine,sccp,simplifycfg'];

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('loop-unroll keeps behaviour', () => {
  for (const p of listPrograms('test/programs')) {
    it(p.name, async () => {
      const input = stripNoinline(inputIR(readFileSync(p.path, 'utf8'), p.name, { stdin: p.stdin }));
      await checkPipelines(input, p.name, PIPELINES, p.stdin);
    }, 60_000);
  }
  for (let seed = 1; seed <= 20; seed++) {
    it(`c-gen seed ${seed}`, async () => {
      const src = generateCProgram(seed, { size: seed % 5 === 0 ? 'medium' : 'small' });
      const input = stripNoinline(inputIR(src, `cgen-${seed}`));
      await checkPipelines(input, `cgen-${seed}`, PIPELINES);
    }, 60_000);
  }
});
