/**
 * correlated-propagation's compare folding by ranges (src/transforms/scalar/correlated-compares.ts
 * over src/analysis/value-range.ts): what folds, what must not, results before and after in
 * our interpreter, and opt-19's correlated-propagation (LLVM's CVP, the independent oracle)
 * reaching the same decision on every case.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideCompare } from '../../src/analysis/value-range.js';
import { Pred } from '../../src/ir/opcodes.js';
import { CACHE_DIR, hasLlvm, OPT, runTool } from '../helpers/llvm.js';
import { countOps, opt, sameResults, stat } from './cfg-helpers.js';

/**
 * A loop whose IV runs from START by STEP while `icmp PRED %iv.next, BOUND` holds, comparing
 * `zext %iv` with `zext i1 (%x == %y)` (CMP) in every iteration and counting the true ones.
 */
function loop(start: number, step: number, pred: string, bound: number, cmp: string): string {
  return `
define i32 @f(i32 %x, i32 %y) {
entry:
  br label %h
h:
  %iv = phi i8 [ ${start}, %entry ], [ %iv1, %h ]
  %s = phi i32 [ 0, %entry ], [ %s1, %h ]
  %z = zext i8 %iv to i32
  %b = icmp eq i32 %x, %y
  %bz = zext i1 %b to i32
  %c = icmp ${cmp} i32 %bz, %z
  %cz = zext i1 %c to i32
  %s1 = add i32 %s, %cz
  %iv1 = add i8 %iv, ${step}
  %e = icmp ${pred} i8 %iv1, ${bound}
  br i1 %e, label %h, label %out
out:
  ret i32 %s1
}`;
}

interface Case {
  name: string;
  ir: string;
  folds: boolean;
}

const CASES: Case[] = [
  // %iv: 23 down to 15 (Csmith's `for (g = 23; g > 14; --g)` after rotation)
  { name: 'a counter 23..15 against a boolean: eq is false', ir: loop(23, -1, 'ugt', 14, 'eq'), folds: true },
  { name: 'the same with ne: true', ir: loop(23, -1, 'ugt', 14, 'ne'), folds: true },
  { name: 'ult: a boolean is below 15..23', ir: loop(23, -1, 'ugt', 14, 'ult'), folds: true },
  { name: 'signed: both non-negative', ir: loop(23, -1, 'ugt', 14, 'slt'), folds: true },
  // `slt 40` on the back edge allows -128..39: two unsigned intervals, widened to all of i8
  { name: 'a counter guarded by a signed bound is not one unsigned interval', ir: loop(2, 1, 'slt', 40, 'sgt'), folds: false },
  // %iv from 0 reaches 0 and 1: the boolean may equal it
  { name: 'a counter 0..9 may equal a boolean', ir: loop(0, 1, 'ult', 10, 'eq'), folds: false },
  { name: 'a counter 1..9 may equal a boolean', ir: loop(1, 1, 'ult', 10, 'eq'), folds: false },
  // the back edge is guarded by ne: the counter wraps through 0 and 1
  { name: 'a ne-guarded counter wraps', ir: loop(23, 1, 'ne', 14, 'eq'), folds: false },
];

describe('correlated-propagation folds compares that operand ranges decide', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const r = opt(c.ir, 'correlated-propagation');
      expect(stat(r, 'correlated-propagation', 'compares folded by ranges')).toBe(c.folds ? 1 : 0);
      expect(countOps(r.fnText('f'), 'icmp')).toBe(c.folds ? 2 : 3);
      sameResults(c.ir, 'correlated-propagation', 'f', [[1, 1], [1, 2], [0, 0]]);
      // and the whole loop then folds to a constant count when it folded
      sameResults(c.ir, 'correlated-propagation,instcombine,loop-simplify,loop-rotate,indvars,loop-deletion,loop-unroll,instcombine,simplifycfg', 'f', [[3, 3], [3, 4]]);
    });
  }

  it('the decision table on ranges', () => {
    const r = (lo: number, hi: number) => ({ lo: BigInt(lo), hi: BigInt(hi) });
    expect(decideCompare(Pred.EQ, r(0, 1), r(15, 23), 8)).toBe(false);
    expect(decideCompare(Pred.NE, r(0, 1), r(15, 23), 8)).toBe(true);
    expect(decideCompare(Pred.EQ, r(3, 3), r(3, 3), 8)).toBe(true);
    expect(decideCompare(Pred.EQ, r(0, 3), r(3, 9), 8)).toBeNull();
    expect(decideCompare(Pred.ULE, r(0, 3), r(3, 9), 8)).toBe(true);
    expect(decideCompare(Pred.ULT, r(0, 3), r(3, 9), 8)).toBeNull();
    expect(decideCompare(Pred.UGE, r(10, 20), r(3, 9), 8)).toBe(true);
    // signed, both negative (128..255 as i8): the unsigned order is the signed order
    expect(decideCompare(Pred.SLT, r(128, 130), r(200, 255), 8)).toBe(true);
    // signed across the halves: undecided
    expect(decideCompare(Pred.SLT, r(0, 3), r(200, 255), 8)).toBeNull();
  });
});

// Reason for runIf: needs opt-19 (LLVM's CVP is the oracle for which compares are decided); without it this skips.
describe.runIf(hasLlvm())('opt-19 correlated-propagation decides the same compares', () => {
  it('on every case above', () => {
    mkdirSync(CACHE_DIR, { recursive: true });
    for (const [n, c] of CASES.entries()) {
      const f = join(CACHE_DIR, `cvp-cmp-${process.pid}-${n}.ll`);
      writeFileSync(f, c.ir);
      const r = runTool(OPT, ['-passes=correlated-propagation', '-S', f]);
      expect(r.status, r.stderr).toBe(0);
      // LLVM leaves the compare folded as `zext ... i1 false/true`, or erased
      const kept = /%c = icmp/.test(r.stdout.toString("utf8"));
      expect(kept, `${c.name}: opt-19 ${kept ? 'keeps' : 'folds'} the compare`).toBe(!c.folds);
    }
  });
});
