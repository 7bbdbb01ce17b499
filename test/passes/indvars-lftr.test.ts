/**
 * Linear-function test replacement with symbolic trip counts (transforms/loop/indvars-lftr.ts):
 * the exit test moves to another IV and the IV that lived only for the test dies, checked
 * by execution before and after (our interpreter, on every parameter value of a range, and
 * lli-19 on random C loops through indvars alone and through -O2, with --verify-each and
 * llvm-as-19).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasLlvm, LLVM_MISSING } from '../helpers/llvm.js';
import { checkPreservesBehaviour, inputIR } from '../helpers/differential.js';
import { opt, sameResults, stat } from './cfg-helpers.js';

if (!hasLlvm()) console.warn(LLVM_MISSING);
const RUNS = Number(process.env.SSAKIT_SCEV_RUNS ?? 6);

/** `i` from 0 to %n (exclusive) only counts; `j` from %m by 3 is what the body uses. */
const ir = `define i32 @f(i32 %n, i32 %m) {
entry:
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %h, label %out
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  %j = phi i32 [ %m, %entry ], [ %j1, %h ]
  %s = phi i32 [ 0, %entry ], [ %s1, %h ]
  %t = mul i32 %j, %j
  %s1 = add i32 %s, %t
  %j1 = add nsw i32 %j, 3
  %i1 = add nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %h, label %out
out:
  %r = phi i32 [ 0, %entry ], [ %s1, %h ]
  ret i32 %r
}
`;

describe('LFTR with symbolic trip counts', () => {
  it('tests the other IV against its value on the last iteration, and the counting IV dies', () => {
    const r = opt(ir, 'indvars');
    expect(stat(r, 'indvars', 'exit tests replaced by scalar evolution')).toBe(1);
    const text = r.text;
    expect(text).not.toMatch(/%i = phi/);
    expect(text).toMatch(/%exitcond = icmp ne i32 %j1, /);
    const args: number[][] = [];
    for (let n = -2; n <= 9; n++) for (const m of [-7, 0, 5, 1000]) args.push([n, m]);
    sameResults(ir, 'indvars', 'f', args);
  });
});

interface Spec {
  type: 'int' | 'unsigned' | 'long';
  start: number;
  step: number;
  test: '<' | '<=' | '!=' | '>' | '>=';
  jType: 'int' | 'unsigned' | 'long' | 'short';
  jStep: number;
  scale: number;
}

const spec: fc.Arbitrary<Spec> = fc.record({
  type: fc.constantFrom('int' as const, 'unsigned' as const, 'long' as const),
  start: fc.integer({ min: 0, max: 6 }),
  step: fc.integer({ min: 1, max: 3 }),
  test: fc.constantFrom('<' as const, '<=' as const, '!=' as const, '>' as const, '>=' as const),
  jType: fc.constantFrom('int' as const, 'unsigned' as const, 'long' as const, 'short' as const),
  jStep: fc.integer({ min: -5, max: 5 }),
  scale: fc.integer({ min: 1, max: 3 }),
});

/** A loop whose counter only counts, beside an IV the body uses; n from stdin. */
function program(s: Spec): string {
  const t = s.type;
  const up = s.test === '<' || s.test === '<=' || s.test === '!=';
  const step = s.test === '!=' ? 1 : s.step;
  const bound = `(${t})(m * ${s.scale})`;
  const head = up ? `for (${t} i = ${s.start}; i ${s.test} ${bound} + ${s.start}; i += ${step})` : `for (${t} i = ${bound} + ${s.start + 3}; i ${s.test} ${s.start + 3}; i -= ${step})`;
  return `#include <stdio.h>
unsigned a[64];
int main(void) {
  int n = 0;
  if (scanf("%d", &n) != 1) return 2;
  int m = n < 0 || n > 40 ? 40 : n; /* not address-taken: promoted, invariant in the loop */
  for (int k = 0; k < 64; k++) a[k] = k * 7 + 1;
  unsigned x = 0;
  ${s.jType} j = 11;
  ${head} { x = x * 3 + a[(unsigned)j & 63]; j += ${s.jStep}; }
  printf("%u %d\\n", x, (int)j);
  return 0;
}
`;
}

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('LFTR with symbolic trip counts on C, against lli-19', () => {
  it('random counting loops keep their output through indvars and -O2', () => {
    let fired = 0;
    fc.assert(
      fc.property(spec, fc.constantFrom('0', '1', '5', '17'), (s, n) => {
        const src = program(s);
        fired += stat(opt(inputIR(src, 'lftr'), 'mem2reg,instcombine,loop-simplify,loop-rotate,indvars'), 'indvars', 'exit tests replaced by scalar evolution');
        checkPreservesBehaviour(src, 'lftr', 'mem2reg,instcombine,loop-simplify,loop-rotate,indvars', { stdin: n });
        checkPreservesBehaviour(src, 'lftr-o2', 'default<O2>', { stdin: n });
      }),
      { numRuns: RUNS, seed: 2426 },
    );
    expect(fired).toBeGreaterThan(0);
  }, 300_000);
});
