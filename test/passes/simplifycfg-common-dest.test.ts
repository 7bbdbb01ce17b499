/**
 * simplifycfg's FoldBranchToCommonDest (src/transforms/scalar/simplifycfg-common-dest.ts):
 * the four shapes (the condition block on the predecessor's true or false edge, sharing the
 * true or false destination), each checked by execution for every input against the
 * unsimplified function, and the refusals (a block with a store, too many instructions,
 * phis of the common destination that disagree).
 */
import { describe, expect, it } from 'vitest';
import { countOps, opt, sameResults, stat } from './cfg-helpers.js';

const PIPE = 'simplifycfg<common-dest>';
const STAT = 'branches folded into their predecessor';

/** P branches on a < b to bb (on `side`) or to the shared destination; bb branches on a % 2 == 1 (plus `extra`). */
function shape(side: 'true' | 'false', shared: 'T' | 'F', extra = '', join = 'phi i32 [ 1, %T ], [ 2, %F ]'): string {
  const p = side === 'true' ? `br i1 %c1, label %bb, label %${shared}` : `br i1 %c1, label %${shared}, label %bb`;
  return `
define i32 @f(i32 %a, i32 %b) {
entry:
  %c1 = icmp slt i32 %a, %b
  ${p}
bb:
  %r = srem i32 %a, 2
  %c2 = icmp eq i32 %r, 1
  ${extra}
  br i1 %c2, label %T, label %F
T:
  br label %J
F:
  br label %J
J:
  %v = ${join}
  ret i32 %v
}`;
}

const ARGS: unknown[][] = [];
for (let a = -5; a <= 5; a++) for (let b = -5; b <= 5; b++) ARGS.push([a, b]);

describe('simplifycfg: FoldBranchToCommonDest', () => {
  for (const side of ['true', 'false'] as const) {
    for (const shared of ['T', 'F'] as const) {
      it(`condition block on the ${side} edge, sharing ${shared}: one branch on the joined conditions, same results for 121 inputs`, () => {
        const ir = shape(side, shared);
        const r = opt(ir, PIPE);
        expect(stat(r, 'simplifycfg', STAT)).toBe(1);
        expect(r.fnText('f')).not.toMatch(/^bb:/m);
        sameResults(ir, PIPE, 'f', ARGS);
        // with FoldTwoEntryPHINode after it, no conditional branch is left
        expect(countOps(r.fnText('f'), 'br')).toBe(0);
      });
    }
  }

  it('refuses a condition block with a store, or with more than one other instruction', () => {
    const store = shape('true', 'F', 'store i32 %a, ptr @g');
    expect(stat(opt(`@g = global i32 0\n${store}`, PIPE), 'simplifycfg', STAT)).toBe(0);
    const two = shape('true', 'F', '%x = add i32 %a, 1\n  %y = mul i32 %x, 3');
    expect(stat(opt(two, PIPE), 'simplifycfg', STAT)).toBe(0);
  });

  it('refuses when the shared destination has a phi whose values from the two blocks differ', () => {
    const ir = `
define i32 @f(i32 %a, i32 %b) {
entry:
  %c1 = icmp slt i32 %a, %b
  br i1 %c1, label %bb, label %J
bb:
  %c2 = icmp eq i32 %a, 3
  br i1 %c2, label %T, label %J
T:
  br label %J
J:
  %v = phi i32 [ 1, %T ], [ 2, %bb ], [ 3, %entry ]
  ret i32 %v
}`;
    const r = opt(ir, PIPE);
    expect(stat(r, 'simplifycfg', STAT)).toBe(0);
    sameResults(ir, PIPE, 'f', ARGS);
  });

  it("does not let the second condition's poison through when the first decides (a logical and, not `and`)", () => {
    const r = opt(shape('true', 'F'), PIPE);
    expect(r.fnText('f')).toMatch(/select i1 %c1, i1 %c2, i1 false/);
  });
});
