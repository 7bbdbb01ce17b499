/**
 * The trace of out-of-SSA (out-of-ssa.ts): for every edge into a block with phis, the
 * parallel copy it carries — (phi destinations) ← (their incoming values on that edge) —
 * and its sequentialization by Boissinot et al.'s Algorithm 1 (CGO 2009; parallel-copy.ts):
 * copies emitted when their destination is no longer read by a pending copy, and, when only
 * cycles are left, one value saved in a temporary per cycle. Runs on a copy of the function.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import type { Value } from '../../ir/value.js';
import { LineTracer, type TraceEvent, type Tracer } from '../../analysis/trace.js';
import { printFunction, printValue } from '../../text/printer.js';
import { functionSlots } from '../../text/slots.js';
import type { CopyStep, ParallelCopy } from '../utils/parallel-copy.js';
import { blockNamesOf, copyOfFunction } from '../utils/trace-copy.js';
import { outOfSSA } from './out-of-ssa.js';

export class OutOfSSATracer {
  private slots;
  constructor(
    readonly t: Tracer,
    readonly fn: Function,
  ) {
    this.slots = functionSlots(fn);
  }

  private v(x: Value): string {
    if (x.name !== '') return '%' + x.name;
    const s = this.slots.nameOf(x);
    return s !== undefined ? '%' + s : printValue(x);
  }

  private b(x: BasicBlock): string {
    if (x.name !== '') return x.name;
    // a block made by edge splitting after the names were taken: number it now
    if (!this.slots.nameOf(x)) this.slots = functionSlots(this.fn);
    return this.slots.nameOf(x) || '?';
  }

  private src(k: number, phis: readonly Instruction[], outside: readonly Value[]): string {
    return k >= 0 ? this.v(phis[k]) : this.v(outside[-1 - k]);
  }

  edge(p: BasicBlock, b: BasicBlock, phis: readonly Instruction[], copies: readonly ParallelCopy[], outside: readonly Value[]): void {
    const dst = copies.map((c) => this.v(phis[c.dst]));
    const src = copies.map((c) => this.src(c.src, phis, outside));
    this.t.step('parallel-copy', `edge ${this.b(p)} -> ${this.b(b)}: parallel copy (${dst.join(', ')}) <- (${src.join(', ')})`, [this.b(p), this.b(b)], { from: this.b(p), to: this.b(b), dst, src });
  }

  step(s: CopyStep, why: 'ready' | 'cycle', phis: readonly Instruction[], outside: readonly Value[]): void {
    if (s.op === 'copy') {
      const d = this.v(phis[s.dst]);
      this.t.step('copy', `  ${d} <- ${this.src(s.src, phis, outside)} (${d} is ready: no pending copy still reads it)`, [], { op: 'copy', dst: d, src: this.src(s.src, phis, outside) });
    } else if (s.op === 'restore') {
      const d = this.v(phis[s.dst]);
      this.t.step('copy', `  ${d} <- t${s.temp} (the saved value)`, [], { op: 'restore', dst: d, src: `t${s.temp}` });
    } else {
      this.t.step('save', `  only cycles are left: save t${s.temp} <- ${this.v(phis[s.src])}, which frees ${this.v(phis[s.src])}`, [], { op: 'save', dst: `t${s.temp}`, src: this.v(phis[s.src]), why });
    }
  }
}

/** `--trace=out-of-ssa`: phis replaced by sequentialized parallel copies, on a copy of `fn`. */
export function traceOutOfSSAEvents(fn: Function): TraceEvent[] {
  const f = copyOfFunction(fn);
  const t = new LineTracer(String, 'out-of-ssa', blockNamesOf(f));
  t.step('start', `out-of-SSA on @${fn.name}: split critical edges into phi blocks, then one parallel copy per incoming edge, sequentialized (Boissinot et al. 2009, Algorithm 1)`);
  const st = outOfSSA(f, { tracer: new OutOfSSATracer(t, f) });
  t.step('summary', `summary: ${st.phisReplaced} phi(s) replaced, ${st.copies} copies, ${st.temporaries} temporar${st.temporaries === 1 ? 'y' : 'ies'} for cycles, ${st.criticalEdgesSplit} critical edge(s) split`, [], { ...st });
  t.step('result', `result:\n${printFunction(f).replace(/\n$/, '')}`);
  return t.events;
}
