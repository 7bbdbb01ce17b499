/**
 * `--trace=mem2reg`: mem2reg on a copy of the function, as events — per variable the
 * defining blocks, live-in blocks, IDF, what liveness pruned and where phis went (Cytron et
 * al.'s placement, §5.1), then the renaming walk of the dominator tree with the stacks and
 * counters of §5.2 (transforms/utils/promote-rename-trace.ts), then LLVM's clean-up of phis that merge one
 * value with undef. The input function is not changed.
 */
import type { Function } from '../../ir/function.js';
import { LineTracer, type TraceEvent } from '../../analysis/trace.js';
import { computeDominators } from '../../analysis/dominators.js';
import { printFunction } from '../../text/printer.js';
import { blockNamesOf, copyOfFunction } from '../utils/trace-copy.js';
import { type PromoteOptions, promoteMemoryToRegister } from './mem2reg.js';
import { RenameTracer } from '../utils/promote-rename-trace.js';

export function traceMem2RegEvents(fn: Function, opts: PromoteOptions = {}): TraceEvent[] {
  if (fn.isDeclaration()) throw new Error(`@${fn.name} is a declaration`);
  const f = copyOfFunction(fn);
  const t = new LineTracer(String, 'mem2reg', blockNamesOf(f));
  t.step('start', `mem2reg on @${fn.name} (Cytron et al. with LLVM's refinements; names as in the input)`);
  const rt = new RenameTracer(t, f);
  const dt = computeDominators(f);
  const stats = promoteMemoryToRegister(f, dt, { ...opts, trace: (l) => t.log(l), renameTrace: rt });
  t.step(
    'summary',
    `summary: ${stats.allocasPromoted} alloca(s) promoted (${stats.singleStore} stored once, ${stats.singleBlock} in one block, ${stats.neverStored} never stored, ${stats.deadAllocas} dead), ` +
      `${stats.phisInserted} phi(s) inserted, ${stats.phisRemoved} removed by the clean-up`,
    [],
    { ...stats },
  );
  t.step('result', `result:\n${printFunction(f).replace(/\n$/, '')}`);
  return t.events;
}
