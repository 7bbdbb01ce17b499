/**
 * constprop: plain constant propagation, the textbook baseline (Aho, Lam, Sethi, Ullman,
 * "Compilers", §9.4, specialised to SSA): an instruction whose operands are all constants
 * is folded to a constant, its uses rewritten, and its users revisited — a worklist run
 * to a fixed point. A phi folds when every incoming value is the same constant.
 *
 * Invariants: no CFG reasoning at all (branches on constants stay, unreachable code is
 * folded like the rest) — that is what `sccp` adds; folding uses the exact LLVM semantics
 * of src/analysis/instsimplify.ts and never folds UB (x/0) or poison-flagged overflow to
 * a wrapped value. Only instructions without side effects are deleted.
 */
import type { Constant } from '../../ir/constants.js';
import { isTriviallyDead } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Use, ValueKind } from '../../ir/value.js';
import { constantFoldInstruction } from '../../analysis/instsimplify.js';
import { simplifyLoadFromConstant } from '../../analysis/constant-folding.js';
import type { PassContext } from '../../pm/pass.js';
import { definePass } from '../../pm/define-pass.js';

/** The constant an instruction evaluates to when all its operands are constants, or null. */
export function foldToConstant(i: Instruction): Constant | null {
  const ops = i.ops;
  if (i.op === Opcode.Phi) {
    let c: Constant | null = null;
    for (let k = 0; k < ops.length; k++) {
      const v = ops[k].value;
      if (v.kind < ValueKind.ConstantInt || (c !== null && c !== v)) return null;
      c = v as Constant;
    }
    return c;
  }
  if (i.op === Opcode.Load) {
    const p = ops[0].value;
    return p.kind === ValueKind.GlobalVariable || p.kind === ValueKind.ConstantExpr ? simplifyLoadFromConstant(p, i.type) : null;
  }
  if (ops.length === 0 || !i.hasResult()) return null;
  const cs = new Array<Constant>(ops.length);
  for (let k = 0; k < ops.length; k++) {
    const v = ops[k].value;
    if (v.kind < ValueKind.ConstantInt) return null;
    cs[k] = v as Constant;
  }
  return constantFoldInstruction(i, cs);
}

export function propagateConstants(fn: Function, ctx?: PassContext): number {
  const work: Instruction[] = [];
  for (let b = fn.lastBlock; b !== null; b = b.prev) for (let i = b.last; i !== null; i = i.prev) work.push(i);
  let folded = 0;
  while (work.length > 0) {
    const i = work.pop()!;
    if (i.parent === null || i.firstUse === null) continue;
    const c = foldToConstant(i);
    if (c === null) continue;
    for (let u: Use | null = i.firstUse; u !== null; u = u.next) if (u.user.kind === ValueKind.Instruction) work.push(u.user as Instruction);
    i.replaceAllUsesWith(c);
    folded++;
    if (isTriviallyDead(i)) i.eraseFromParent();
  }
  if (folded > 0) ctx?.stat('instructions folded', folded);
  return folded;
}

export const constpropPass = definePass({
  name: 'constprop',
  description: 'fold instructions whose operands are constants, iteratively (no CFG reasoning)',
  run: (fn, ctx) => ({ changed: propagateConstants(fn, ctx) > 0, preserved: 'cfg' }),
});
