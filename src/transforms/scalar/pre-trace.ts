/**
 * The trace of lazy code motion (Knoop, Rüthing and Steffen, PLDI 1992, as Aho, Lam, Sethi
 * and Ullman §9.5 present it; pre.ts): per round, the local sets (use, kill), each of the
 * four data-flow problems' iterations (anticipated, available, postponable, used), the six
 * sets per block — anticipated.in, available.in, earliest, postponable.in, latest, used.out —
 * and the decisions: where t = e is inserted (latest ∩ used.out), which computations define
 * t and which are redundant. Runs the pass itself on a copy of the function.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import type { CFG } from '../../analysis/cfg.js';
import type { BitMatrix } from '../../analysis/dataflow/bitset.js';
import type { SolverVisitHook } from '../../analysis/dataflow/solver.js';
import { SolverTracer, rowNames } from '../../analysis/dataflow/solver-trace.js';
import { LineTracer, type TraceEvent } from '../../analysis/trace.js';
import { printFunction, printInstruction } from '../../text/printer.js';
import { functionSlots } from '../../text/slots.js';
import { copyOfFunction } from '../utils/trace-copy.js';
import { type LCMSets, type LCMTraceHooks, lazyCodeMotion } from './pre.js';

/** `add i32 %b, %c` for `%x = add i32 %b, %c`. */
function expressionText(i: Instruction): string {
  const s = printInstruction(i).trim();
  const k = s.indexOf(' = ');
  return k < 0 ? s : s.slice(k + 3);
}

export class LCMTracer implements LCMTraceHooks {
  private names: string[] = [];
  private exprs: string[] = [];
  private cfg: CFG | null = null;
  /** Counts, to compare with the pass's statistics. */
  inserted = 0;
  replaced = 0;

  constructor(
    readonly t: LineTracer,
    readonly fn: Function,
  ) {}

  private blockName(bb: BasicBlock): string {
    return this.names[bb.id] ?? '?';
  }

  round(k: number): void {
    this.t.step('lcm-round', `round ${k} (critical edges split first: an insertion on an edge lands in the new block)`, [], { round: k });
  }

  local(cfg: CFG, expressions: Instruction[], use: BitMatrix, kill: BitMatrix): void {
    const slots = functionSlots(this.fn);
    this.names = [];
    for (let b = this.fn.firstBlock; b !== null; b = b.next) this.names[b.id] = slots.nameOf(b) ?? '?';
    this.cfg = cfg;
    this.exprs = expressions.map(expressionText);
    this.t.step('universe', `expressions: ${this.exprs.map((e, k) => `e${k} = ${e}`).join('; ') || 'none'}`, [], { expressions: [...this.exprs] });
    this.table('use', 'e_use (upward exposed)', use);
    this.table('kill', 'e_kill (an operand defined in the block)', kill);
  }

  solver(problem: string): SolverVisitHook {
    return new SolverTracer(this.t, this.cfg!, problem, this.exprs, (b) => this.names[b] ?? '?');
  }

  private table(set: string, title: string, m: BitMatrix): void {
    const cfg = this.cfg!;
    const rows: Record<string, string[]> = {};
    const parts: string[] = [];
    const blocks: string[] = [];
    for (const b of cfg.order) {
      const r = rowNames(m, b, this.exprs);
      rows[this.names[b]] = r;
      if (r.length > 0) {
        parts.push(`${this.names[b]} {${r.join(', ')}}`);
        blocks.push(this.names[b]);
      }
    }
    this.t.step('set', `${title}: ${parts.join('; ') || 'empty everywhere'}`, blocks, { set, blocks: rows });
  }

  sets(s: LCMSets): void {
    this.table('anticipated.in', 'anticipated.in', s.anticipatedIn);
    this.table('available.in', 'available.in', s.availableIn);
    this.table('earliest', 'earliest = anticipated.in − available.in', s.earliest);
    this.table('postponable.in', 'postponable.in', s.postponableIn);
    this.table('latest', 'latest', s.latest);
    this.table('used.out', 'used.out', s.usedOut);
  }

  decide(what: 'insert' | 'redundant' | 'keep', i: Instruction, e: number): void {
    const b = this.blockName(i.parent!);
    const ex = this.exprs[e];
    if (what === 'insert') {
      this.inserted++;
      this.t.step('insert', `insert t = ${ex} at the start of ${b} (e${e} ∈ latest ∩ used.out there)`, [b], { expression: ex, block: b });
    } else if (what === 'keep') {
      this.t.step('keep', `the computation of ${ex} in ${b} stays and defines t`, [b], { expression: ex, block: b });
    } else {
      this.replaced++;
      this.t.step('redundant', `the computation of ${ex} in ${b} is redundant: replaced by t`, [b], { expression: ex, block: b });
    }
  }
}

/** `--trace=lcm`: PRE by lazy code motion on a copy of `fn`, step by step, then the result. */
export function traceLCMEvents(fn: Function): TraceEvent[] {
  const f = copyOfFunction(fn);
  const slots = functionSlots(f);
  const names: string[] = [];
  for (let b = f.firstBlock; b !== null; b = b.next) names.push(slots.nameOf(b) ?? '?');
  const t = new LineTracer(String, 'lcm', names);
  t.step('start', `lazy code motion on @${fn.name} (Knoop-Rüthing-Steffen; the sets of Aho et al. §9.5)`);
  const stats = lazyCodeMotion(f, undefined, new LCMTracer(t, f));
  t.step('summary', `summary: ${stats.inserted} computation(s) inserted, ${stats.replaced} redundant one(s) removed`, [], { ...stats });
  t.step('result', `result:\n${printFunction(f).replace(/\n$/, '')}`);
  return t.events;
}
