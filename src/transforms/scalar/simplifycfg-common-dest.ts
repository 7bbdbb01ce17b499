/**
 * SimplifyCFG's FoldBranchToCommonDest (LLVM's lib/Transforms/Utils/SimplifyCFG.cpp): a
 * block that only computes a condition and branches on it, reached from a predecessor whose
 * other edge goes to one of its own destinations, is folded into that predecessor, the two
 * conditions joined by a logical and/or (`select i1 c1, c2, false` / `select i1 c1, true,
 * c2`, which do not let c2's poison through when c1 decides):
 *
 *   P:  br i1 %c1, label %bb, label %F        P:  (bb's instructions)
 *   bb: %c2 = …; br i1 %c2, label %T, %F  →      %or.cond = select i1 %c1, i1 %c2, i1 false
 *                                                 br i1 %or.cond, label %T, label %F
 *
 * `a % 2 == 1 && b % 2 == 1` becomes one branch, which FoldTwoEntryPHINode can then turn
 * into a select: no unpredictable branch per bit in a bit-twiddling loop.
 *
 * Conditions (LLVM's): bb has no phis, one predecessor P (one edge), its address is not
 * taken; P ends in a conditional branch to bb and to one of bb's two (distinct) successors;
 * bb's instructions are safe to speculate and, besides the condition, at most `bonus` of
 * them (LLVM's BonusInstThreshold, 1); the phis of the common successor take the same value
 * from P and from bb. Invariants: bb's instructions move to the end of P (P dominates all bb
 * dominated, so their uses stay dominated); the successor only bb reached takes bb's phi
 * entries from P; bb is deleted.
 */
import { dropLocation, dropUBImplyingMetadata, getAttachment } from '../../ir/metadata.js';
import type { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import { isSafeToSpeculate } from '../../ir/effects.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { i1, voidType } from '../../ir/types.js';
import { countIncomingEdges } from '../utils/basic-block-utils.js';

/** Folds `bb` (ending in the conditional branch `br`) into its predecessor; whether it did. */
export function foldBranchToCommonDest(bb: BasicBlock, br: Instruction, bonus = 1): boolean {
  const c2 = br.operand(0);
  if (c2.type !== i1) return false;
  const t = br.successor(0);
  const f = br.successor(1);
  if (t === f || t === bb || f === bb) return false;
  if (bb.first === null || bb.first.op === Opcode.Phi || bb.hasAddressTaken()) return false;
  const preds = bb.predecessors();
  if (preds.length !== 1 || countIncomingEdges(bb, 2) !== 1) return false;
  const p = preds[0];
  if (p === bb) return false;
  const pt = p.terminator();
  if (pt === null || pt.op !== Opcode.Br || pt.numOperands !== 3) return false;
  const c1 = pt.operand(0);
  if (c1.type !== i1) return false;
  const bbOnTrue = pt.successor(0) === bb;
  const other = bbOnTrue ? pt.successor(1) : pt.successor(0);
  if (other === bb || (other !== t && other !== f)) return false;
  let extra = 0;
  for (let i = bb.first; i !== br; i = i.next!) {
    if (!isSafeToSpeculate(i)) return false;
    if (i !== c2) extra++;
  }
  if (extra > bonus) return false;
  for (const phi of other.phis()) if (phi.incomingValueFor(p) !== phi.incomingValueFor(bb)) return false;
  // speculate bb's instructions at the end of P (as SpeculativelyExecuteBB: no UB-implying
  // metadata, no location)
  for (let i = bb.first; i !== br; ) {
    const next = i.next!;
    i.moveBefore(pt);
    if (i.md !== null) {
      dropUBImplyingMetadata(i);
      dropLocation(i, i.op === Opcode.Call, getAttachment(i.function!.md, 'dbg'));
    }
    i = next;
  }
  // P reaches t when: bb on c1's true side: c1 && c2 (other = f) or !c1 || c2 (other = t);
  // bb on the false side: !c1 && c2 (other = f) or c1 || c2 (other = t)
  const T = ConstantInt.get(i1, 1);
  const F = ConstantInt.get(i1, 0);
  const ops = bbOnTrue ? [c1, c2, other === f ? F : T] : [c1, other === f ? F : T, c2];
  const sel = new Instruction(Opcode.Select, i1, ops);
  sel.name = other === f ? 'and.cond' : 'or.cond';
  p.insertBefore(sel, pt);
  const nbr = new Instruction(Opcode.Br, voidType, [sel, t, f]);
  nbr.md = br.md;
  p.insertBefore(nbr, pt);
  pt.eraseFromParent();
  const only = other === t ? f : t;
  for (const phi of only.phis()) phi.setIncomingBlock(phi.blockIndex(bb), p);
  for (const phi of other.phis()) phi.removeIncoming(phi.blockIndex(bb));
  bb.eraseFromParent();
  return true;
}
