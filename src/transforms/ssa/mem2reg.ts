/**
 * mem2reg (LLVM's Mem2Reg.cpp): promotes the promotable entry-block allocas of each
 * function to SSA registers, again until none is left, with the promotion of
 * promote-allocas.ts (Cytron et al. with LLVM's refinements); and `traceMem2Reg`, the
 * teaching view of it (`ssakit analyze --trace=mem2reg`).
 */
import type { DominatorTree } from '../../analysis/dominators.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { printFunction, printModule } from '../../text/printer.js';
import { parseModule } from '../../text/parser.js';
import { computeDominators } from '../../analysis/dominators.js';
import { definePass } from '../../pm/define-pass.js';
import { emptyPromoteStats, promoteRepeatedly, promoteStatCounts, runPromotion, type PromoteStats } from '../utils/promote-memory.js';
import { assert } from '../../util/assert.js';

import { promoteAllocas, type PromoteOptions } from '../utils/promote-allocas.js';

export { promoteAllocas, type PromoteOptions } from '../utils/promote-allocas.js';

/**
 * LLVM's mem2reg pass: promote the promotable entry-block allocas, again until none is left
 * (promoting one can make another promotable, e.g. a pointer kept in a promoted slot).
 */
export function promoteMemoryToRegister(fn: Function, dt: DominatorTree, opts: PromoteOptions = {}, stats: PromoteStats = emptyPromoteStats(), first?: Instruction[]): PromoteStats {
  promoteRepeatedly(fn, first, (allocas) => promoteAllocas(fn, dt, allocas, opts, stats));
  return stats;
}

/**
 * A teaching view of mem2reg on `fn`: for every promoted variable its defining blocks, its
 * live-in blocks, the IDF, what liveness pruned, where phis went and which the clean-up
 * removed, then the promoted function. Works on a copy: `fn` is not changed.
 */
export function traceMem2Reg(fn: Function): string {
  if (fn.isDeclaration()) throw new Error(`@${fn.name} is a declaration`);
  const m = fn.parent;
  if (m === null) throw new Error('traceMem2Reg: the function is not in a module');
  const copy = parseModule(printModule(m), '<mem2reg trace copy>');
  const f = copy.functions.find((g) => g.name === fn.name);
  assert(f !== undefined, `traceMem2Reg: @${fn.name} not found in the copy`);
  const lines: string[] = [`mem2reg on @${fn.name} (Cytron et al. with LLVM's refinements; names as in the input)`];
  const dt = computeDominators(f);
  const stats = promoteMemoryToRegister(f, dt, { trace: (l) => lines.push(l) });
  lines.push(
    `summary: ${stats.allocasPromoted} alloca(s) promoted (${stats.singleStore} stored once, ${stats.singleBlock} in one block, ${stats.neverStored} never stored, ${stats.deadAllocas} dead), ` +
      `${stats.phisInserted} phi(s) inserted, ${stats.phisRemoved} removed by the clean-up`,
  );
  lines.push('', printFunction(f));
  return lines.join('\n') + '\n';
}

export const mem2regPass = definePass({
  name: 'mem2reg',
  description: 'promote allocas to SSA registers (Cytron et al. with LLVM refinements)',
  local: true,
  run: (fn, ctx) => runPromotion(fn, ctx, (dt, allocas, stats) => promoteMemoryToRegister(fn, dt, { trace: ctx.trace }, stats, allocas), promoteStatCounts),
});
