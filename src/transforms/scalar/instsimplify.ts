/**
 * instsimplify: replaces every instruction that src/analysis/instsimplify.ts can simplify
 * to an existing value or a constant, and deletes it when nothing else needs it (LLVM's
 * InstSimplifyPass). It never creates instructions and never changes the CFG.
 *
 * Invariants: only reachable blocks are visited (in unreachable code an instruction may
 * use itself, and "simplifying" it could make a use before its definition); a replaced
 * instruction's users go back on the worklist, so the result is a fixed point.
 */
import { isTriviallyDead } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { ValueKind } from '../../ir/value.js';
import { phiDominanceQuery, simplifyInstruction } from '../../analysis/instsimplify.js';
import { CFGAnalysis, DominatorTreeAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';
import { definePass, reportStats } from '../../pm/define-pass.js';

/** Runs instsimplify on one function; returns the number of instructions replaced. */
export function simplifyFunction(fn: Function, ctx: PassContext): number {
  const cfg = ctx.analyses.get(CFGAnalysis);
  const dt = ctx.analyses.get(DominatorTreeAnalysis);
  const dominatesPhi = phiDominanceQuery(dt);
  const work: Instruction[] = [];
  const rpo = cfg.rpo;
  for (let k = rpo.length - 1; k >= 0; k--) {
    const bb = cfg.blocks[rpo[k]]!;
    for (let i = bb.last; i !== null; i = i.prev) work.push(i);
  }
  let replaced = 0;
  let erased = 0;
  while (work.length > 0) {
    const i = work.pop()!;
    if (i.parent === null) continue;
    const v = simplifyInstruction(i, { dominatesPhi });
    if (v === null) continue;
    for (const u of i.users()) {
      const p = (u as Instruction).parent;
      if (u.kind === ValueKind.Instruction && p !== null && cfg.isReachable(p.id)) work.push(u as Instruction);
    }
    i.replaceAllUsesWith(v);
    replaced++;
    if (isTriviallyDead(i)) {
      i.eraseFromParent();
      erased++;
    }
  }
  reportStats(ctx, { 'instructions simplified': replaced, 'instructions deleted': erased });
  return replaced;
}

export const instsimplifyPass = definePass({
  name: 'instsimplify',
  description: 'replace instructions by simpler existing values or constants (no new instructions)',
  run: (fn, ctx) => ({ changed: simplifyFunction(fn, ctx) > 0, preserved: 'cfg' }),
});
