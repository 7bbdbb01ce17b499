/**
 * Dead code elimination: deletes instructions whose results are unused and that have no
 * side effects, then whatever became dead because of that (a worklist, as LLVM's DCE).
 *
 * Invariant kept: only instructions for which isTriviallyDead() holds are removed, so
 * memory effects, calls that may not return and control flow are untouched. The CFG is
 * never changed.
 */
import type { Function } from '../../ir/function.js';
import { isTriviallyDead } from '../../ir/effects.js';
import { Instruction } from '../../ir/instruction.js';
import type { PassContext } from '../../pm/pass.js';
import { definePass } from '../../pm/define-pass.js';
import { deleteDeadInstructions } from '../utils/local.js';

export function eliminateDeadCode(fn: Function, ctx?: PassContext): boolean {
  const work: Instruction[] = [];
  for (let b = fn.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null; i = i.next) if (isTriviallyDead(i)) work.push(i);
  const removed = deleteDeadInstructions(work);
  if (removed > 0) ctx?.stat('instructions removed', removed);
  return removed > 0;
}

export const dcePass = definePass({
  name: 'dce',
  description: 'delete instructions with no uses and no side effects',
  run: (fn, ctx) => ({ changed: eliminateDeadCode(fn, ctx), preserved: 'cfg' }),
});
