/**
 * correlated-propagation's compare folding (LLVM's CorrelatedValuePropagation, processCmp /
 * constantFoldCmp, asking LazyValueInfo for the ranges of both operands): an `icmp` whose
 * outcome the ranges of its operands decide (src/analysis/value-range.ts: ranges through
 * phis, narrowed on each incoming edge by the branch that guards it) becomes that constant.
 *
 * Why: a loop counter compared against a boolean, `icmp eq (zext i1 %b), (zext %iv)` with
 * %iv running 23 down to 15, is false in every iteration; once folded, the chain that
 * computed the boolean dies and the loop often with it (Csmith's csmith-7004032: LLVM folds
 * it in CVP, we kept 6,750 guarded `srem`s).
 *
 * Invariants: only integer compares of scalar type with a decided outcome change (their
 * uses take the constant, the compare goes when dead); the CFG and every other instruction
 * are untouched. One RangeAnalysis per run: folding a compare to the constant it always
 * equals leaves every computed range true.
 */
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { TypeKind } from '../../ir/types.js';
import { decideCompare, RangeAnalysis } from '../../analysis/value-range.js';

/** Folds the compares of `fn` that operand ranges decide; returns how many. */
export function foldRangeCompares(fn: Function): number {
  const ra = new RangeAnalysis();
  const decided: { cmp: Instruction; value: boolean }[] = [];
  for (const b of fn.blocks()) {
    for (let i = b.first; i !== null; i = i.next) {
      if (i.op !== Opcode.ICmp || i.type.kind !== TypeKind.Int || i.operand(0).type.kind !== TypeKind.Int || !i.hasUses()) continue;
      const w = i.operand(0).type.bits;
      const a = ra.rangeOf(i.operand(0));
      const c = ra.rangeOf(i.operand(1));
      const r = decideCompare(i.pred!, a, c, w);
      if (r !== null) decided.push({ cmp: i, value: r });
    }
  }
  for (const { cmp, value } of decided) {
    cmp.replaceAllUsesWith(value ? ConstantInt.true() : ConstantInt.false());
    cmp.eraseFromParent();
  }
  return decided.length;
}
