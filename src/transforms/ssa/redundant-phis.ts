/**
 * The redundant-phis pass: removal of redundant phi webs by strongly connected components,
 * Braun et al., "Simple and Efficient Construction of Static Single Assignment Form" (CC
 * 2013), Algorithm 5 (transforms/utils/phi-webs.ts), with undef counted as a value as in the
 * paper. It cleans up after Braun's construction (mem2reg-braun, the SysY frontend), which
 * leaves such webs on irreducible control flow.
 *
 * Invariant: every phi is removed at most once and only after all its uses were redirected.
 */
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { removeRedundantPhiWebs } from '../utils/phi-webs.js';
import type { RedundantPhiTracer } from '../utils/phi-webs-trace.js';

export interface RedundantPhiStats {
  /** Phis removed as members of a redundant SCC (of two or more phis). */
  redundant: number;
  /** Single phis removed because they merge only themselves and one value. */
  trivial: number;
}

/**
 * Removes redundant phi SCCs (and trivial single phis) among `phis` (default: every phi of
 * `fn`). Returns what was removed.
 */
export function removeRedundantPhis(fn: Function, phis?: readonly Instruction[], trace: RedundantPhiTracer | null = null): RedundantPhiStats {
  const stats: RedundantPhiStats = { redundant: 0, trivial: 0 };
  let set: Instruction[];
  if (phis !== undefined) set = phis.filter((p) => p.parent !== null && p.op === Opcode.Phi);
  else {
    set = [];
    for (let b = fn.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) set.push(i);
  }
  removeRedundantPhiWebs(fn, set, {
    undef: 'value',
    trace,
    replace(scc, v) {
      for (const p of scc) p.replaceAllUsesWith(v);
      for (const p of scc) p.eraseFromParent();
      if (scc.length === 1) stats.trivial++;
      else stats.redundant += scc.length;
    },
  });
  return stats;
}

export const redundantPhisPass = defineCountingPass({
  name: 'redundant-phis',
  description: 'remove redundant phi webs by SCCs (Braun et al. 2013, Algorithm 5)',
  local: true,
  count: (fn) => removeRedundantPhis(fn),
  stats: { redundant: 'phis removed as redundant', trivial: 'phis removed as trivial' },
  preserves: 'cfg',
});
