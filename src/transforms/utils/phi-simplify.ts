/**
 * The phi rule of LLVM 19's InstructionSimplify (simplifyPHINode), which mem2reg applies to
 * the phis it creates: ignoring the phi itself and undef/poison operands, if one value V
 * remains, the phi is V — provided, when undef was ignored, that V dominates the phi (else
 * V would not be available on the undef paths); like LLVM, a value defined in the phi's own
 * block (another phi) does not count as dominating it. All-undef phis are undef.
 *
 * This is Braun et al.'s trivial-phi rule ("the phi references only itself and one other
 * value") extended to treat undef as "any value", which LLVM may pick to be V.
 */
import type { DominatorTree } from '../../analysis/dominators.js';
import { UndefValue } from '../../ir/constants.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Value, ValueKind } from '../../ir/value.js';

/** Whether instruction-or-constant `v` dominates `phi` (LLVM's valueDominatesPHI with a tree). */
export function valueDominatesPhi(v: Value, phi: Instruction, dt: DominatorTree): boolean {
  if (v.kind !== ValueKind.Instruction) return true;
  const def = v as Instruction;
  const useBB = phi.parent;
  const defBB = def.parent;
  if (useBB === null || defBB === null) return false;
  if (!dt.isReachable(useBB.id)) return true;
  if (!dt.isReachable(defBB.id)) return false;
  // As LLVM's DominatorTree::dominates(Instruction, PHINode): a phi counts as used in every
  // position of its block, so only a definition in a strictly dominating block dominates it.
  return defBB !== useBB && dt.dominates(defBB.id, useBB.id);
}

/** The value `phi` simplifies to under LLVM's rule, or null. */
export function simplifyPhiLikeLLVM(phi: Instruction, dt: DominatorTree): Value | null {
  let common: Value | null = null;
  let hasUndef = false;
  const ops = phi.ops;
  for (let k = 0; k < ops.length; k++) {
    const v = ops[k].value;
    if (v === phi) continue;
    if (v.kind === ValueKind.Undef || v.kind === ValueKind.Poison) {
      hasUndef = true;
      continue;
    }
    if (common !== null && v !== common) return null;
    common = v;
  }
  if (common === null) return UndefValue.get(phi.type);
  if (hasUndef && !valueDominatesPhi(common, phi, dt)) return null;
  return common;
}

/**
 * LLVM's clean-up loop over the phis a promotion created: replace each that simplifies, and
 * re-examine the phis that used it, until none simplifies. Returns the phis left, in order.
 * `onRemoved(phi, value)` is called before each replacement.
 */
export function simplifyPhisLikeLLVM(phis: readonly Instruction[], dt: DominatorTree, onRemoved?: (phi: Instruction, value: Value) => void): Instruction[] {
  const work: Instruction[] = [];
  const visit = (phi: Instruction): void => {
    if (phi.parent === null) return;
    const r = simplifyPhiLikeLLVM(phi, dt);
    if (r === null) return;
    if (onRemoved !== undefined) onRemoved(phi, r);
    for (let u = phi.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      if (user !== phi && user.op === Opcode.Phi) work.push(user);
    }
    phi.replaceAllUsesWith(r);
    phi.eraseFromParent();
  };
  for (let k = 0; k < phis.length; k++) {
    visit(phis[k]);
    while (work.length > 0) visit(work.pop()!);
  }
  const out: Instruction[] = [];
  for (const p of phis) if (p.parent !== null) out.push(p);
  return out;
}
