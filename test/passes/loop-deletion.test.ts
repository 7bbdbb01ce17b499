import { describe, expect, it } from 'vitest';
import { countOps, opt, sameResults, stat } from './cfg-helpers.js';

/** A loop of `trips` trips mixing %acc through `body` (which defines %a2 from %acc and %i). */
function mix(body: string, test = 'icmp ult i32 %i1, 100', start = '7', extraOut = ''): string {
  return `
declare void @ext()
@g = global i32 0
define i32 @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %acc = phi i32 [ ${start}, %entry ], [ %a2, %latch ]
${body}
latch:
  %i1 = add i32 %i, 1
  %c = ${test}
  br i1 %c, label %h, label %x
x:
  %r = phi i32 [ %a2, %latch ]
${extraOut}  ret i32 %r
}`;
}

const XORMUL = `  %a1 = mul i32 %acc, 3
  %a2 = xor i32 %a1, %i
  br label %latch`;

describe('loop-deletion', () => {
  it('runs a closed loop at compile time: its result becomes a constant and the loop goes', () => {
    const ir = mix(XORMUL);
    const r = opt(ir, 'loop-deletion');
    expect(stat(r, 'loop-deletion', 'loops deleted')).toBe(1);
    const want = sameResults(ir, 'loop-deletion', 'f', [[0]])[0];
    // the same computation in JavaScript's 32-bit arithmetic
    let acc = 7;
    for (let i = 0; i < 100; i++) acc = Math.imul(acc, 3) ^ i;
    expect(want).toBe(acc);
    expect(r.fnText('f')).toBe(`define i32 @f(i32 %n) {\nentry:\n  br label %x\n\nx:                                                ; preds = %entry\n  %r = phi i32 [ ${want}, %entry ]\n  ret i32 %r\n}`);
  });

  it('follows branches and phis inside the loop, and inner loops', () => {
    const branchy = mix(`  %odd = and i32 %i, 1
  %t = icmp eq i32 %odd, 0
  br i1 %t, label %even, label %other
even:
  %e1 = shl i32 %acc, 1
  br label %join
other:
  %o1 = sub i32 %acc, %i
  br label %join
join:
  %a2 = phi i32 [ %e1, %even ], [ %o1, %other ]
  br label %latch`);
    expect(stat(opt(branchy, 'loop-deletion'), 'loop-deletion', 'loops deleted')).toBe(1);
    sameResults(branchy, 'loop-deletion', 'f', [[0]]);
    const nested = mix(`  br label %in
in:
  %j = phi i32 [ 0, %h ], [ %j1, %in ]
  %s = phi i32 [ %acc, %h ], [ %s1, %in ]
  %s0 = mul i32 %s, 5
  %s1 = add i32 %s0, %j
  %j1 = add i32 %j, 1
  %jc = icmp slt i32 %j1, %i
  br i1 %jc, label %in, label %inx
inx:
  %a2 = add i32 %s1, 1
  br label %latch`, 'icmp ult i32 %i1, 30');
    const r = opt(nested, 'loop-deletion');
    // the inner loop first (its bound %i is not a constant, it stays), then the outer with it
    expect(stat(r, 'loop-deletion', 'loops deleted')).toBe(1);
    expect(countOps(r.fnText('f'), 'phi')).toBe(1);
    sameResults(nested, 'loop-deletion', 'f', [[0]]);
  });

  it('a loop with two exits: the one the run takes gets the values, the other loses its entry', () => {
    const ir = `
define i32 @f() {
entry:
  br label %h
h:
  %i = phi i32 [ 1, %entry ], [ %i1, %latch ]
  %sq = mul i32 %i, %i
  %big = icmp ugt i32 %sq, 500
  br i1 %big, label %early, label %latch
latch:
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 1000
  br i1 %c, label %h, label %late
early:
  %e = phi i32 [ %sq, %h ]
  ret i32 %e
late:
  %l = phi i32 [ %i1, %latch ]
  %l2 = add i32 %l, %sq
  ret i32 %l2
}`;
    const r = opt(ir, 'loop-deletion');
    expect(stat(r, 'loop-deletion', 'loops deleted')).toBe(1);
    expect(sameResults(ir, 'loop-deletion', 'f', [[]])).toEqual([529]);
    expect(r.fnText('f')).toMatch(/entry:\n\s+br label %early/);
  });

  it('leaves loops with effects, unknown inputs, no proof of leaving, or folds it must not do', () => {
    const cases: [string, string][] = [
      [mix(XORMUL.replace('br label %latch', 'store i32 %a2, ptr @g\n  br label %latch')), 'a store'],
      [mix(XORMUL.replace('br label %latch', 'call void @ext()\n  br label %latch')), 'a call'],
      [mix(XORMUL, 'icmp ult i32 %i1, %n'), 'a bound from an argument'],
      [mix(XORMUL, 'icmp ult i32 %i1, 100', '%n'), 'a start from an argument'],
      // i1 = i + 1 never reaches 0 from 1 upwards within 256 trips (it would after 2^32)
      [mix(XORMUL, 'icmp ne i32 %i1, 0'), 'does not leave within the trips run'],
      [mix(XORMUL.replace('%a2 = xor i32 %a1, %i', '%q = sub i32 5, %i\n  %a2 = sdiv i32 %a1, %q')), 'a division by zero on the way'],
      [mix(XORMUL.replace('%a2 = xor i32 %a1, %i', '%a2 = add nsw i32 %a1, 2147483647')), 'an add that overflows nsw (poison)'],
    ];
    for (const [ir, why] of cases) {
      const r = opt(ir, 'loop-deletion');
      expect(stat(r, 'loop-deletion', 'loops deleted'), why).toBe(0);
      expect(countOps(r.fnText('f'), 'phi'), why).toBeGreaterThan(0);
    }
    // an unreachable block that branches into the loop body keeps the loop (it would branch
    // to a deleted block)
    const side = mix(`  br label %body
body:
  %t = phi i32 [ %acc, %h ], [ 7, %dead ]
  %a2 = mul i32 %t, 3
  br label %latch
dead:
  br label %body`);
    expect(stat(opt(side, 'loop-deletion'), 'loop-deletion', 'loops deleted')).toBe(0);
    // the same loop is run with a larger budget of trips
    expect(stat(opt(mix(XORMUL, 'icmp ult i32 %i1, 300'), 'loop-deletion'), 'loop-deletion', 'loops deleted')).toBe(0);
    expect(stat(opt(mix(XORMUL, 'icmp ult i32 %i1, 300'), 'loop-deletion<max-iterations=300>'), 'loop-deletion', 'loops deleted')).toBe(1);
    expect(stat(opt(mix(XORMUL), 'loop-deletion<budget=100>'), 'loop-deletion', 'loops deleted')).toBe(0);
    expect(() => opt(mix(XORMUL), 'loop-deletion<bogus>')).toThrow(/unknown parameter/);
  });
});
