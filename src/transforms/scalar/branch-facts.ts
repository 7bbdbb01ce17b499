/**
 * What a branch decides, used where it dominates (the condition part of LLVM's
 * GVN::propagateEquality, replaceDominatedUsesWith): below the edge `br i1 %c, label %T,
 * label %F` into T, when T has no other predecessor, %c is true in every block T dominates
 * (false below F), and on the true edge of `icmp eq %v, C` (false edge of `ne`) %v is C.
 *
 * Why: loop rotation copies a loop's guard into every inner loop's preheader; the copies
 * test what the outer guard already decided, and while they stay, each inner loop's exit
 * value merges with the skipped path (a phi or, after simplifycfg, a select) that scalar
 * evolution cannot read, so nests of counting loops are not solved whole.
 *
 * Invariants: only uses change (the CFG is untouched); a use in a phi counts at the end of
 * its incoming block; the edge must be the only way into its target, so everything the
 * target dominates is reached through it.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import { ValueKind, type Value } from '../../ir/value.js';
import type { DominatorTree } from '../../analysis/dominators.js';

/** Replaces the uses of `v` in blocks `root` dominates by `c`; returns how many. */
function replaceDominatedUses(v: Value, c: Value, root: BasicBlock, dt: DominatorTree): number {
  let n = 0;
  for (let u = v.firstUse; u !== null; ) {
    const next = u.next;
    const user = u.user as Instruction;
    const at = user.op === Opcode.Phi ? user.incomingBlock(u.index) : user.parent;
    if (at !== null && known(at, dt) && dt.dominatesBlock(root, at)) {
      user.setOperand(u.index, c);
      n++;
    }
    u = next;
  }
  return n;
}

const known = (b: BasicBlock, dt: DominatorTree) => b.id >= 0 && b.id < dt.idom.length;

export function propagateBranchFacts(fn: Function, dt: DominatorTree): number {
  let changed = 0;
  for (const b of fn.blocks()) {
    const t = b.terminator();
    if (t === null || !t.isConditionalBranch() || !known(b, dt)) continue;
    const c = t.operand(0);
    if (c.kind === ValueKind.ConstantInt) continue;
    for (let k = 0; k < 2; k++) {
      const s = t.successor(k);
      if (s === t.successor(1 - k) || s.singlePredecessor() !== b || !known(s, dt)) continue;
      const taken = k === 0;
      changed += replaceDominatedUses(c, taken ? ConstantInt.true() : ConstantInt.false(), s, dt);
      // `icmp eq %v, C` on its true edge, `icmp ne %v, C` on its false edge: %v is C below
      if (c instanceof Instruction && c.op === Opcode.ICmp && ((c.pred === Pred.EQ && taken) || (c.pred === Pred.NE && !taken))) {
        const [x, y] = [c.operand(0), c.operand(1)];
        const [v, k2] = y.kind === ValueKind.ConstantInt ? [x, y] : x.kind === ValueKind.ConstantInt ? [y, x] : [null, null];
        if (v !== null && k2 !== null && v.type.isInt() && v.kind !== ValueKind.ConstantInt) changed += replaceDominatedUses(v, k2, s, dt);
      }
    }
  }
  return changed;
}
