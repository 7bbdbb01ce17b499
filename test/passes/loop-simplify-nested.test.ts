/**
 * loop-simplify's nested-loop separation (src/transforms/utils/loop-simplify.ts, LLVM's
 * separateNestedLoop / findPHIToPartitionLoops): a header with several back edges and a phi
 * that keeps its value on some of them is split into an outer header (`.outer`) and the
 * inner loop. Checked: the loop tree afterwards (two loops, nested), LoopSimplify form, the
 * verifier, the cases that must not split (no partitioning phi, a phi that is only a copy),
 * and the behaviour of C programs with goto-shaped shared headers under lli-19.
 */
import { describe, expect, it } from 'vitest';
import { CFG } from '../../src/analysis/cfg.js';
import { findLoops } from '../../src/analysis/loops.js';
import { runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { isInSimplifyForm } from '../../src/transforms/utils/loop-simplify.js';
import { checkPreservesBehaviour } from '../helpers/differential.js';
import { hasLlvm } from '../helpers/llvm.js';
import { opt, stat } from './cfg-helpers.js';

const SHARED = `
define i32 @f(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i, %inner.latch ], [ %i1, %outer.latch ]
  %j = phi i32 [ 0, %entry ], [ %j1, %inner.latch ], [ 0, %outer.latch ]
  %s = phi i32 [ 0, %entry ], [ %s1, %inner.latch ], [ %s1, %outer.latch ]
  %m = mul i32 %i, %j
  %s1 = add i32 %s, %m
  %j1 = add i32 %j, 1
  %c = icmp slt i32 %j1, 5
  br i1 %c, label %inner.latch, label %outer.latch
inner.latch:
  br label %loop
outer.latch:
  %i1 = add i32 %i, 1
  %c2 = icmp slt i32 %i1, %n
  br i1 %c2, label %loop, label %exit
exit:
  ret i32 %s1
}
define i32 @main() {
  %r = call i32 @f(i32 7)
  ret i32 %r
}
`;

function loopDepths(text: string, fn = 'f'): number[] {
  const m = parseModule(text, 'x.ll');
  const li = findLoops(new CFG(m.getFunction(fn)!));
  expect(isInSimplifyForm(li)).toBe(true);
  return li.loops.map((l) => l.depth).sort();
}

describe('loop-simplify: nested loops sharing a header', () => {
  it('a phi kept by one back edge splits the header: an outer loop around the inner one; behaviour kept', () => {
    const r = opt(SHARED, 'loop-simplify');
    expect(stat(r, 'loop-simplify', 'nested loops split out of a shared header')).toBe(1);
    expect(r.fnText('f')).toMatch(/^loop\.outer:/m);
    expect(loopDepths(r.text)).toEqual([1, 2]);
    const want = runModule(parseModule(SHARED, 'before.ll'), {}).exitCode;
    expect(want).toBe((21 * 10) & 255);
    expect(runModule(r.m, {}).exitCode).toBe(want);
  });

  it('no phi keeps its value on a back edge: one loop, one backedge block', () => {
    // the same values, but through a copy: no phi entry is the phi itself
    const src = SHARED.replace('[ %i, %inner.latch ]', '[ %i0, %inner.latch ]').replace('  %m = mul i32 %i, %j', '  %i0 = add i32 %i, 0\n  %m = mul i32 %i, %j');
    const r = opt(src, 'loop-simplify');
    expect(stat(r, 'loop-simplify', 'nested loops split out of a shared header')).toBe(0);
    expect(loopDepths(r.text)).toEqual([1]);
    expect(runModule(r.m, { maxSteps: 1e6 }).exitCode).toBe(runModule(parseModule(src, 'before.ll'), { maxSteps: 1e6 }).exitCode);
  });

  it('a phi whose other entries all agree is a copy, not a partition', () => {
    const src = SHARED.replace('[ %i, %inner.latch ], [ %i1, %outer.latch ]', '[ %i, %inner.latch ], [ 0, %outer.latch ]').replace('[ %j1, %inner.latch ]', '[ %s1, %inner.latch ]');
    const r = opt(src, 'loop-simplify');
    expect(stat(r, 'loop-simplify', 'nested loops split out of a shared header')).toBe(0);
    expect(loopDepths(r.text)).toEqual([1]);
  });
});

const PROGRAMS: [string, string][] = [
  [
    'goto-shaped nest: the outer counter kept by the inner back edge',
    `#include <stdio.h>
int main(void) {
  int i = 0, j = 0, s = 0;
top:
  s += j * i + (s >> 3);
  j++;
  if (j < 5) goto top;
  i++; j = 0;
  if (i < 7) goto top;
  printf("%d %d %d\\n", s, i, j);
  return 0;
}`,
  ],
  [
    'three levels through one header, with a store in the innermost',
    `#include <stdio.h>
static int a[4][3];
int main(void) {
  int i = 0, j = 0, k = 0, s = 0;
top:
  a[i & 3][j % 3] += k + i;
  s ^= a[j % 3][i & 3];
  if (++k < 3) goto top;
  k = 0;
  if (++j < 4) goto top;
  j = 0;
  if (++i < 5) goto top;
  printf("%d %d %d\\n", s, a[1][2], a[3][0]);
  return 0;
}`,
  ],
];

// Reason for runIf: LLVM 19's tools (clang-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('loop-simplify nested separation: programs keep their behaviour (lli-19)', () => {
  for (const [title, src] of PROGRAMS) {
    it(title, () => {
      // the bare loop pipeline too with the fuzz suites (SSAKIT_FUZZ=1)
      for (const pipeline of ['default<O2>', ...(process.env.SSAKIT_FUZZ ? ['mem2reg,simplifycfg,loop-simplify,licm,loop-rotate,indvars,loop-unroll'] : [])]) checkPreservesBehaviour(src, title.replace(/\W+/g, '-'), pipeline, { llvmAs: pipeline === 'default<O2>' });
    });
  }
});
