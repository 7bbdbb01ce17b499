/**
 * simplify-libcalls: C library calls whose result is known at compile time become that
 * constant (the strlen case of LLVM's LibCallSimplifier::optimizeStrLen): `strlen(@s)` of a
 * constant global whose initializer is a string with a NUL is the offset of that NUL.
 *
 * Invariants: only a direct call to a declared `strlen` taking the global itself (offset 0),
 * whose global is `constant` (so nothing writes it), is replaced; the call is erased only
 * when nothing else uses it (it has no side effects: strlen only reads).
 */
import { ConstantInt, ConstantString } from '../../ir/constants.js';
import type { Function, GlobalVariable } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { ValueKind } from '../../ir/value.js';
import { defineCountingPass } from '../../pm/define-pass.js';

/** Length of the NUL-terminated string a constant global holds, or null. */
function constantStringLength(g: GlobalVariable): number | null {
  if (!g.isConstant || g.initializer === null || g.initializer.kind !== ValueKind.ConstantString) return null;
  const bytes = (g.initializer as ConstantString).bytes;
  const k = bytes.indexOf(0);
  return k < 0 ? null : k;
}

export function simplifyLibCalls(fn: Function): number {
  let n = 0;
  for (const b of fn.blocks()) {
    for (let i: Instruction | null = b.first; i !== null; ) {
      const next: Instruction | null = i.next;
      if (i.op === Opcode.Call && i.numArgs === 1 && i.type.isInt()) {
        const f = i.calledFunction();
        const a = i.arg(0);
        if (f !== null && f.name === 'strlen' && f.isDeclaration() && a.kind === ValueKind.GlobalVariable) {
          const len = constantStringLength(a as GlobalVariable);
          if (len !== null) {
            i.replaceAllUsesWith(ConstantInt.get(i.type, len));
            i.eraseFromParent();
            n++;
          }
        }
      }
      i = next;
    }
  }
  return n;
}

export const simplifyLibCallsPass = defineCountingPass({
  name: 'simplify-libcalls',
  description: 'strlen of a constant string becomes its length',
  count: (fn) => ({ folded: simplifyLibCalls(fn) }),
  stats: { folded: 'library calls folded' },
  preserves: 'cfg',
});
