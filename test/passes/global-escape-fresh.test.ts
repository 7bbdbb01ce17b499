/**
 * The non-address-taken answer (src/analysis/global-escape.ts) follows a function's changes
 * inside a function pipeline: once simplifycfg deletes the only code that took @g's address,
 * the LICM after it may keep @g in a register across a loop that stores through a loaded
 * pointer (before, the answer computed at the first LICM stayed until the next module pass).
 * Verifier on after every pass; our interpreter runs the program before and after.
 */
import { describe, expect, it } from 'vitest';
import { invalidateGlobalEscapes, invalidateGlobalEscapesIn, isNonAddressTakenGlobal } from '../../src/analysis/global-escape.js';
import { runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';
import { transform } from '../helpers/differential.js';

const SRC = `
@g = internal global i32 5, align 4
@slot = global ptr null, align 8
@other = global i32 0, align 4
@slot2 = global ptr @other, align 8
define i32 @main() {
entry:
  br i1 false, label %dead, label %pre
dead:
  store ptr @g, ptr @slot, align 8
  br label %pre
pre:
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %i1, %loop ]
  %s = phi i32 [ 0, %pre ], [ %s1, %loop ]
  %p = load ptr, ptr @slot2, align 8
  store i32 %i, ptr %p, align 4
  %v = load i32, ptr @g, align 4
  %s1 = add i32 %s, %v
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 10
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %s1
}
`;

/** The instructions of the block labelled `name` in printed IR. */
function blockText(text: string, name: string): string {
  const start = text.indexOf(`\n${name}:`);
  const end = text.indexOf('\n\n', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('global-escape: the answer follows the function passes', () => {
  it('licm after simplifycfg deleted the only escaping store keeps @g out of the loop; behaviour kept', () => {
    const want = runModule(parseModule(SRC, 'before.ll'), {}).exitCode;
    expect(want).toBe(50);
    const { module, text } = transform(SRC, 'licm,simplifycfg,licm');
    expect(text).not.toMatch(/store ptr @g/);
    expect(blockText(text, 'loop')).not.toMatch(/load i32, ptr @g/);
    expect(runModule(module, {}).exitCode).toBe(want);
  });

  it('without the deletion the store through the loaded pointer keeps the load in the loop', () => {
    const { text } = transform(SRC.replace('br i1 false, label %dead, label %pre', 'br label %dead'), 'licm,simplifycfg,licm');
    expect(text).toMatch(/store ptr @g/);
    expect(text).toMatch(/load i32, ptr @g[^\n]*\n[^]*br i1 %c/);
  });

  it("dropping one function's share rescans that function only; a module-wide drop rescans everything", () => {
    const m = parseModule(SRC, 'share.ll');
    const g = m.getGlobal('g')!;
    const f = m.getFunction('main')!;
    expect(isNonAddressTakenGlobal(g)).toBe(false);
    // delete the escaping store by hand, as simplifycfg would
    const dead = [...f].find((b) => b.name === 'dead')!;
    dead.first!.eraseFromParent();
    expect(isNonAddressTakenGlobal(g)).toBe(false); // stale until the function's share is dropped
    invalidateGlobalEscapesIn(f);
    expect(isNonAddressTakenGlobal(g)).toBe(true);
    invalidateGlobalEscapes(m);
    expect(isNonAddressTakenGlobal(g)).toBe(true);
  });
});
