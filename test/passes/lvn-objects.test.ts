/**
 * LVN tells memory objects apart (lvn.ts, early-cse.ts's objects mode): the course's DAG
 * example — a = b + c; d = e + f; g = b + c; b = d; f = b + c over globals — where stores
 * to other globals come between the repeated b + c. Oracle: opt-19's GVN (with its alias
 * analysis; in one block it does what LVN does) gives the same block. And what may overlap
 * still ends what is known: a store through a pointer argument, into a field of the global,
 * or a call.
 */
import { describe, expect, it } from 'vitest';
import { bodyAfter, bodyLines } from './scalar-helpers.js';
import { hasLlvm, OPT, runTool } from '../helpers/llvm.js';
import { checkPreservesBehaviour } from '../helpers/differential.js';

const GLOBALS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((g, k) => `@${g} = global i32 ${k + 1}`).join('\n');
const DAG = `${GLOBALS}
define void @dag() {
  %b1 = load i32, ptr @b
  %c1 = load i32, ptr @c
  %t1 = add i32 %b1, %c1
  store i32 %t1, ptr @a
  %e1 = load i32, ptr @e
  %f1 = load i32, ptr @f
  %t2 = add i32 %e1, %f1
  store i32 %t2, ptr @d
  %b2 = load i32, ptr @b
  %c2 = load i32, ptr @c
  %t3 = add i32 %b2, %c2
  store i32 %t3, ptr @g
  %d2 = load i32, ptr @d
  store i32 %d2, ptr @b
  %b3 = load i32, ptr @b
  %c3 = load i32, ptr @c
  %t4 = add i32 %b3, %c3
  store i32 %t4, ptr @f
  ret void
}
`;

describe('lvn knows distinct globals and allocas apart', () => {
  it("the course's DAG example: g = b + c reuses a's sum, f = b + c becomes d + c", () => {
    const got = bodyAfter(DAG, 'lvn');
    expect(got).toEqual([
      '%b1 = load i32, ptr @b',
      '%c1 = load i32, ptr @c',
      '%t1 = add i32 %b1, %c1',
      'store i32 %t1, ptr @a',
      '%e1 = load i32, ptr @e',
      '%f1 = load i32, ptr @f',
      '%t2 = add i32 %e1, %f1',
      'store i32 %t2, ptr @d',
      'store i32 %t1, ptr @g',
      'store i32 %t2, ptr @b',
      '%t4 = add i32 %t2, %c1',
      'store i32 %t4, ptr @f',
      'ret void',
    ]);
  });

  // Reason for runIf: opt-19 is the oracle.
  it.runIf(hasLlvm())('gives the block opt-19 -passes=gvn gives', () => {
    const r = runTool(OPT, ['-passes=gvn', '-S'], { input: DAG });
    expect(r.status, r.stderr).toBe(0);
    const llvm = bodyLines(r.stdout.toString().slice(r.stdout.toString().indexOf('define void @dag')))
      .map((l) => l.replace(/, align \d+$/, ''))
      .filter((l) => !l.startsWith('@') && !l.startsWith('declare'));
    expect(bodyAfter(DAG, 'lvn')).toEqual(llvm);
  });

  it('forgets what may overlap: a store through a pointer, into a field of the global, or a call', () => {
    for (const clobber of ['store i32 0, ptr %p', 'store i8 0, ptr getelementptr (i8, ptr @b, i64 1)', 'call void @h()']) {
      const ir = `@b = global i32 1\n@c = global i32 2\ndeclare void @h()\ndefine i32 @f(ptr %p) {\n  %x = load i32, ptr @b\n  store i32 5, ptr @c\n  ${clobber}\n  %y = load i32, ptr @b\n  %s = add i32 %x, %y\n  ret i32 %s\n}`;
      const body = bodyAfter(ir, 'lvn');
      expect(body, clobber).toContain('%y = load i32, ptr @b');
    }
    // allocas are objects too, and a store to one keeps a global's load
    const ir = `@b = global i32 1\ndefine i32 @f() {\n  %a = alloca i32\n  %x = load i32, ptr @b\n  store i32 5, ptr %a\n  %y = load i32, ptr @b\n  %z = load i32, ptr %a\n  %s = add i32 %x, %y\n  %r = add i32 %s, %z\n  ret i32 %r\n}`;
    expect(bodyAfter(ir, 'lvn')).not.toContain('%y = load i32, ptr @b');
    expect(bodyAfter(ir, 'lvn')).toContain('%s = add i32 %x, %x');
    expect(bodyAfter(ir, 'lvn')).toContain('%r = add i32 %s, 5');
  });

  // Reason for runIf: clang-19 and lli-19 run the program before and after.
  it.runIf(hasLlvm())('keeps the behaviour of the DAG example as C (lli-19)', () => {
    const src = `#include <stdio.h>
int a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7;
int main(void) { a = b + c; d = e + f; g = b + c; b = d; f = b + c; printf("%d %d %d %d %d %d %d\\n", a, b, c, d, e, f, g); return 0; }`;
    checkPreservesBehaviour(src, 'lvn-dag', 'lvn');
  });
});
