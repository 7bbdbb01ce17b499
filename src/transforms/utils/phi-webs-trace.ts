/**
 * The trace of Braun et al.'s Algorithm 5 (CC 2013, §3.2; phi-webs.ts): the SCCs of
 * the phi graph in topological order (operands first), for each its outer operands — one
 * means the whole SCC equals it and is replaced — and, with several, the inner phis (all
 * operands in the SCC) among which the algorithm looks again for a redundant sub-SCC —
 * unless the dominator cut shows none of them can be redundant.
 * Only called when tracing; transforms/ssa/redundant-phis-trace.ts drives it on a copy.
 */
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import type { Value } from '../../ir/value.js';
import type { Tracer } from '../../analysis/trace.js';
import { printValue } from '../../text/printer.js';
import { functionSlots } from '../../text/slots.js';

export class RedundantPhiTracer {
  private readonly slots;
  constructor(
    readonly t: Tracer,
    fn: Function,
    /** A caller's name for a value (e.g. the Braun trace's φ labels), before the IR's. */
    private readonly nameOf: ((v: Value) => string | undefined) | null = null,
  ) {
    this.slots = functionSlots(fn);
  }

  private v(x: Value): string {
    const own = this.nameOf === null ? undefined : this.nameOf(x);
    if (own !== undefined) return own;
    const s = this.slots.nameOf(x);
    return s !== undefined ? '%' + s : printValue(x);
  }

  private blocks(scc: readonly Instruction[]): string[] {
    const out: string[] = [];
    for (const p of scc) if (p.parent !== null) out.push(this.slots.nameOf(p.parent) ?? '?');
    return out;
  }

  sccs(set: readonly Instruction[], sccs: readonly Instruction[][], depth: number): void {
    this.t.step(
      'sccs',
      `${'  '.repeat(depth)}SCCs of the phi graph over {${set.map((p) => this.v(p)).join(', ')}}, operands first: ${sccs.map((c) => `{${c.map((p) => this.v(p)).join(', ')}}`).join(' ')}`,
      [],
      { phis: set.map((p) => this.v(p)), sccs: sccs.map((c) => c.map((p) => this.v(p))) },
    );
  }

  private outer(scc: readonly Instruction[]): string[] {
    const inScc = new Set<Value>(scc);
    const out: string[] = [];
    for (const p of scc) for (const u of p.ops) if (!inScc.has(u.value) && !out.includes(this.v(u.value))) out.push(this.v(u.value));
    return out;
  }

  replace(scc: readonly Instruction[], v: Value, depth: number): void {
    const outer = this.outer(scc);
    this.t.step(
      'replace',
      `${'  '.repeat(depth)}SCC {${scc.map((p) => this.v(p)).join(', ')}}: outer operands {${outer.join(', ')}}: ${scc.length === 1 ? 'a trivial phi' : 'redundant'}, every member replaced by ${this.v(v)}`,
      this.blocks(scc),
      { scc: scc.map((p) => this.v(p)), outer, replacement: this.v(v) },
    );
  }

  descend(scc: readonly Instruction[], inner: readonly Instruction[], sub: readonly Instruction[][], depth: number): void {
    const outer = this.outer(scc);
    this.t.step(
      'descend',
      `${'  '.repeat(depth - 1)}SCC {${scc.map((p) => this.v(p)).join(', ')}}: outer operands {${outer.join(', ')}} (several): look again among its inner phis {${inner.map((p) => this.v(p)).join(', ')}}`,
      this.blocks(scc),
      { scc: scc.map((p) => this.v(p)), outer, inner: inner.map((p) => this.v(p)) },
    );
    this.sccs(inner, sub, depth);
  }

  /** Several outer operands, inner phis, but none a candidate (phi-webs.ts): no descent. */
  cut(scc: readonly Instruction[], inner: readonly Instruction[], depth: number): void {
    const outer = this.outer(scc);
    this.t.step(
      'keep',
      `${'  '.repeat(depth)}SCC {${scc.map((p) => this.v(p)).join(', ')}}: outer operands {${outer.join(', ')}} (several); no inner phi of {${inner.map((p) => this.v(p)).join(', ')}} has all its ways out through one phi (dominators), so no part can be redundant: kept without looking inside`,
      this.blocks(scc),
      { scc: scc.map((p) => this.v(p)), outer, inner: inner.map((p) => this.v(p)), cut: true },
    );
  }

  keep(scc: readonly Instruction[], inner: readonly Instruction[], depth: number): void {
    const outer = this.outer(scc);
    this.t.step(
      'keep',
      `${'  '.repeat(depth)}SCC {${scc.map((p) => this.v(p)).join(', ')}}: outer operands {${outer.join(', ')}} (several)${inner.length === 0 ? ', no inner phis' : ', every phi inner'}: kept`,
      this.blocks(scc),
      { scc: scc.map((p) => this.v(p)), outer },
    );
  }
}

