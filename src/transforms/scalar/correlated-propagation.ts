/**
 * correlated-propagation: a phi's incoming value that is decided by the branch on its edge
 * becomes that constant (the processPHI part of LLVM's CorrelatedValuePropagation, with the
 * edge facts LazyValueInfo::getConstantOnEdge finds without a lattice): on the edge
 * `br i1 %c, label %B, label %X` into B, %c is true (false on the other edge), and so is a
 * `%v` compared `icmp eq %v, C` on its true edge (`ne` on its false edge) equal to C.
 *
 * Why: loop rotation leaves inner loop guards as `phi i1 [ %c, %guard ], [ true, … ]` whose
 * every entry is true; once folded the guards go, and scalar evolution sees plain nests.
 *
 * Invariants: only incoming values of phis change, and only on an edge that is the single
 * edge from its block to the phi's block (a branch whose two targets are the same block
 * decides nothing); the CFG is untouched.
 */
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import { ValueKind, type Value } from '../../ir/value.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { foldRangeCompares } from './correlated-compares.js';
import { propagateBranchFacts } from './branch-facts.js';
import { DominatorTreeAnalysis } from '../../pm/analyses.js';

/** The constant `v` has on the edge `from -> to`, if the branch there decides it. */
function constantOnEdge(v: Value, from: Instruction, toIsTrue: boolean): Value | null {
  const c = from.operand(0);
  if (c === v) return toIsTrue ? ConstantInt.true() : ConstantInt.false();
  if (c instanceof Instruction && c.op === Opcode.ICmp && ((c.pred === Pred.EQ && toIsTrue) || (c.pred === Pred.NE && !toIsTrue))) {
    if (c.operand(0) === v && c.operand(1).kind === ValueKind.ConstantInt) return c.operand(1);
    if (c.operand(1) === v && c.operand(0).kind === ValueKind.ConstantInt) return c.operand(0);
  }
  return null;
}

export function propagateEdgeConstants(fn: Function): number {
  let changed = 0;
  for (const b of fn.blocks()) {
    for (const p of b.phis()) {
      for (let k = 0; k < p.numIncoming; k++) {
        const v = p.incomingValue(k);
        if (v.kind === ValueKind.ConstantInt) continue;
        const t = p.incomingBlock(k).terminator();
        if (t === null || !t.isConditionalBranch() || t.successor(0) === t.successor(1)) continue;
        const c = constantOnEdge(v, t, t.successor(0) === b);
        if (c !== null && c.type === v.type) {
          p.setIncomingValue(k, c);
          changed++;
        }
      }
    }
  }
  return changed;
}

export const correlatedPropagationPass = defineCountingPass({
  name: 'correlated-propagation',
  description: 'phi entries decided by the branch on their edge become constants; compares decided by the ranges of their operands fold',
  local: true,
  // phi entries decided by their edge, then compares the operands' ranges decide (correlated-compares.ts)
  // and conditions a dominating branch decided (branch-facts.ts)
  count: (fn, ctx) => ({ entries: propagateEdgeConstants(fn), compares: foldRangeCompares(fn), branches: propagateBranchFacts(fn, ctx.analyses.get(DominatorTreeAnalysis)) }),
  stats: { entries: 'phi entries made constant', compares: 'compares folded by ranges', branches: 'uses decided by a dominating branch' },
  preserves: 'cfg',
});
