/**
 * `--trace=braun`: mem2reg-braun on a copy of the function, as events — blocks filled in
 * reverse postorder, each load a readVariable and each store a writeVariable, blocks sealed
 * when their last predecessor is filled, and every step of Braun et al.'s construction
 * (ssa-builder-trace.ts), then Algorithm 5 on the phis made (phi-webs-trace.ts). LLVM's undef
 * clean-up is off, so what remains is the construction's own result. `--trace=braun-marker`:
 * the same with §3.3's marker lookup (mark, cycle-phi, unmark). The input function is not
 * changed.
 */
import type { Function } from '../../ir/function.js';
import { LineTracer, type TraceEvent } from '../../analysis/trace.js';
import { computeDominators } from '../../analysis/dominators.js';
import { printFunction } from '../../text/printer.js';
import { functionSlots } from '../../text/slots.js';
import { BraunTracer } from '../utils/ssa-builder-trace.js';
import { promoteMemoryToRegisterBraun } from './mem2reg-braun.js';
import { blockNamesOf, copyOfFunction } from '../utils/trace-copy.js';
import { RedundantPhiTracer } from '../utils/phi-webs-trace.js';

export function traceBraunEvents(fn: Function, lookup: 'phi-first' | 'marker' = 'phi-first'): TraceEvent[] {
  if (fn.isDeclaration()) throw new Error(`@${fn.name} is a declaration`);
  const f = copyOfFunction(fn);
  const t = new LineTracer(String, lookup === 'marker' ? 'braun-marker' : 'braun', blockNamesOf(f));
  const slots = functionSlots(f);
  const bt = new BraunTracer(
    t,
    (v) => {
      const s = slots.nameOf(v);
      return s === undefined ? undefined : '%' + s;
    },
    (b) => slots.nameOf(b) ?? '?',
  );
  const how = lookup === 'marker' ? "; joins by §3.3's marker algorithm (mark the block, a phi only where the predecessors disagree or a cycle comes back)" : '';
  t.step('start', `Braun et al.'s construction on @${fn.name}: fill the blocks in reverse postorder (a load reads the variable, a store writes it), seal a block when all its predecessors are filled${how}; then Algorithm 5 on the phis made`);
  const dt = computeDominators(f);
  const stats = promoteMemoryToRegisterBraun(f, dt, {
    simplifyPhis: false,
    tracer: bt,
    lookup,
    sccTracer: (g) => {
      t.step('scc', 'Algorithm 5: redundant phi SCCs among the phis left (left on irreducible control flow, and by variables that are only copied)');
      return new RedundantPhiTracer(t, g, (v) => bt.labelOf(v));
    },
  });
  const trivial = bt.removed;
  const scc = stats.phisRemoved - trivial;
  t.step('summary', `summary: ${stats.phisInserted} phi(s) created, ${trivial} removed as trivial, ${scc} in redundant SCCs, ${stats.phisInserted - stats.phisRemoved} left`, [], { ...stats, trivial, scc });
  t.step('result', `result:\n${printFunction(f).replace(/\n$/, '')}`);
  return t.events;
}
