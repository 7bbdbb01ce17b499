/**
 * `--trace=sccp`: Wegman and Zadeck's SCCP solver (transforms/utils/sccp-solver.ts) on a
 * function, step by step (transforms/utils/sccp-solver-trace.ts); the IR is not rewritten.
 */
import type { Function } from '../../ir/function.js';
import { LineTracer, type TraceEvent } from '../../analysis/trace.js';
import { functionSlots } from '../../text/slots.js';
import { SCCPSolver } from '../utils/sccp-solver.js';
import { SCCPTracer } from '../utils/sccp-solver-trace.js';

/** `--trace=sccp`: the solver on `fn`, step by step (the IR is not rewritten). */
export function traceSCCPEvents(fn: Function): TraceEvent[] {
  const names: string[] = [];
  const slots = functionSlots(fn);
  for (let b = fn.firstBlock; b !== null; b = b.next) names.push(slots.nameOf(b) ?? '?');
  const t = new LineTracer(String, 'sccp', names);
  const solver = new SCCPSolver(fn);
  const st = new SCCPTracer(t, fn);
  solver.tracer = st;
  st.start();
  solver.solve();
  st.result(solver);
  return t.events;
}
