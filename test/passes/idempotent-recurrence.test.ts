/**
 * instcombine's idempotent recurrences (transforms/instcombine/idempotent-recurrence.ts):
 * `op (phi [s], [op(phi, x)]), x` is op(s, x) when op is and/or and x is loop-invariant.
 * Checked against opt-19 -passes=instcombine (which folds the same cases and leaves the same
 * ones) and by calling the function before and after in our interpreter.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_DIR, hasLlvm, OPT, runTool } from '../helpers/llvm.js';
import { opt, sameResults } from './cfg-helpers.js';

/** OP-recurrence from START on X (an argument unless given), counted N times, its values summed. */
function rec(op: string, start: string, x = '%x', pre = ''): string {
  return `
define i32 @f(i32 %x, i32 %n, i32 %s0) {
entry:
  ${pre}
  br label %h
h:
  %p = phi i32 [ ${start}, %entry ], [ %o, %h ]
  %k = phi i32 [ 0, %entry ], [ %k1, %h ]
  %acc = phi i32 [ 0, %entry ], [ %acc1, %h ]
  %v = add i32 %x, %k
  %o = ${op} i32 %p, ${x}
  %acc1 = add i32 %acc, %o
  %k1 = add i32 %k, 1
  %e = icmp slt i32 %k1, %n
  br i1 %e, label %h, label %out
out:
  ret i32 %acc1
}`;
}

const CASES: { name: string; ir: string; folds: boolean }[] = [
  { name: 'or from 0 on an argument', ir: rec('or', '0'), folds: true },
  { name: 'and from an argument on an argument', ir: rec('and', '%s0'), folds: true },
  { name: 'or on a constant', ir: rec('or', '%s0', '12'), folds: true },
  { name: 'or on a value computed before the loop', ir: rec('or', '%s0', '%y', '%y = mul i32 %x, 3'), folds: true },
  // %v changes every iteration: not a recurrence on an invariant
  { name: 'or on a value that changes in the loop', ir: rec('or', '0', '%v'), folds: false },
  // xor is not idempotent
  { name: 'xor', ir: rec('xor', '0'), folds: false },
];

const ARGS = [[5, 4, 3], [-1, 1, 0], [0x70, 7, 0x0f], [3, 0, 9]];

describe('instcombine folds idempotent and/or recurrences', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const t = opt(c.ir, 'instcombine').fnText('f');
      // folded: %o no longer reads the phi (op(s, x), or the start value itself)
      expect(/= (or|and|xor) i32 %p,/.test(t), t).toBe(!c.folds);
      sameResults(c.ir, 'instcombine', 'f', ARGS);
      sameResults(c.ir, 'instcombine,licm,instcombine,simplifycfg', 'f', ARGS);
    });
  }
});

// Reason for runIf: needs opt-19 (the oracle for which recurrences LLVM's instcombine folds); without it this skips.
describe.runIf(hasLlvm())('opt-19 instcombine folds the same recurrences', () => {
  it('on every case above', () => {
    mkdirSync(CACHE_DIR, { recursive: true });
    for (const [n, c] of CASES.entries()) {
      const f = join(CACHE_DIR, `idem-rec-${process.pid}-${n}.ll`);
      writeFileSync(f, c.ir);
      const r = runTool(OPT, ['-passes=instcombine', '-S', f]);
      expect(r.status, r.stderr).toBe(0);
      const kept = /= (or|and|xor) i32 %p,/.test(r.stdout.toString('utf8'));
      expect(kept, `${c.name}: opt-19 ${kept ? 'keeps' : 'folds'} it`).toBe(!c.folds);
    }
  });
});
