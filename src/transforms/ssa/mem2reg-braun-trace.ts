/**
 * `--trace=braun`: mem2reg-braun on a copy of the function, as events — blocks filled in
 * reverse postorder, each load a readVariable and each store a writeVariable, blocks sealed
 * when their last predecessor is filled, and every step of Braun et al.'s construction
 * (ssa-builder-trace.ts). LLVM's undef clean-up is off, so what remains is the construction's
 * own result. The input function is not changed.
 */
import type { Function } from '../../ir/function.js';
import { LineTracer, type TraceEvent } from '../../analysis/trace.js';
import { computeDominators } from '../../analysis/dominators.js';
import { printFunction } from '../../text/printer.js';
import { functionSlots } from '../../text/slots.js';
import { BraunTracer } from '../utils/ssa-builder-trace.js';
import { promoteMemoryToRegisterBraun } from './mem2reg-braun.js';
import { blockNamesOf, copyOfFunction } from '../utils/trace-copy.js';

export function traceBraunEvents(fn: Function): TraceEvent[] {
  if (fn.isDeclaration()) throw new Error(`@${fn.name} is a declaration`);
  const f = copyOfFunction(fn);
  const t = new LineTracer(String, 'braun', blockNamesOf(f));
  const slots = functionSlots(f);
  const bt = new BraunTracer(
    t,
    (v) => {
      const s = slots.nameOf(v);
      return s === undefined ? undefined : '%' + s;
    },
    (b) => slots.nameOf(b) ?? '?',
  );
  t.step('start', `Braun et al.'s construction on @${fn.name}: fill the blocks in reverse postorder (a load reads the variable, a store writes it), seal a block when all its predecessors are filled`);
  const dt = computeDominators(f);
  const stats = promoteMemoryToRegisterBraun(f, dt, { simplifyPhis: false, tracer: bt });
  t.step('summary', `summary: ${stats.phisInserted} phi(s) created, ${stats.phisRemoved} removed as trivial, ${stats.phisInserted - stats.phisRemoved} left`, [], { ...stats });
  t.step('result', `result:\n${printFunction(f).replace(/\n$/, '')}`);
  return t.events;
}
