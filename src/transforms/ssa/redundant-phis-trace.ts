/**
 * `--trace=redundant-phis`: Braun et al.'s Algorithm 5 (transforms/utils/phi-webs.ts) on every
 * phi of a copy of the function, step by step (transforms/utils/phi-webs-trace.ts).
 */
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { LineTracer, type TraceEvent } from '../../analysis/trace.js';
import { printFunction } from '../../text/printer.js';
import { blockNamesOf, copyOfFunction } from '../utils/trace-copy.js';
import { RedundantPhiTracer } from '../utils/phi-webs-trace.js';
import { removeRedundantPhis } from './redundant-phis.js';

/** `--trace=redundant-phis`: Algorithm 5 on every phi of a copy of `fn`, then the result. */
export function traceRedundantPhisEvents(fn: Function): TraceEvent[] {
  const f = copyOfFunction(fn);
  const t = new LineTracer(String, 'redundant-phis', blockNamesOf(f));
  t.step('start', `redundant phi SCCs in @${fn.name} (Braun et al. 2013, Algorithm 5)`);
  const phis: Instruction[] = [];
  for (let b = f.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) phis.push(i);
  if (phis.length === 0) {
    t.step('result', `@${fn.name} has no phis`);
    return t.events;
  }
  const st = removeRedundantPhis(f, phis, new RedundantPhiTracer(t, f));
  t.step('summary', `summary: ${st.redundant} phi(s) removed in redundant SCCs, ${st.trivial} trivial`, [], { ...st });
  t.step('result', `result:\n${printFunction(f).replace(/\n$/, '')}`);
  return t.events;
}
