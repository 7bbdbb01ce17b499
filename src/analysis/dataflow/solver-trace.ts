/**
 * The trace of the bit-vector solver (solver.ts; Kildall's framework, the round-robin
 * iteration of Engineering a Compiler §9.2): each round, each block visited, its IN and OUT
 * sets after the visit and whether OUT (IN, backward) changed; then the fixed point. The
 * solver calls the hook only when a problem carries one.
 */
import type { Instruction } from '../../ir/instruction.js';
import type { Value } from '../../ir/value.js';
import { printInstruction, printValue } from '../../text/printer.js';
import { functionSlots } from '../../text/slots.js';
import type { CFG } from '../cfg.js';
import type { Tracer } from '../trace.js';
import type { BitMatrix } from './bitset.js';
import type { SolverVisitHook } from './solver.js';

export function rowNames(m: BitMatrix, row: number, elements: readonly string[]): string[] {
  const out: string[] = [];
  for (let e = 0; e < m.bits; e++) if (m.get(row, e)) out.push(elements[e]);
  return out;
}

export class SolverTracer implements SolverVisitHook {
  private lastRound = 0;
  constructor(
    readonly t: Tracer,
    readonly cfg: CFG,
    /** The problem's name: `liveness`, `anticipated`, … */
    readonly problem: string,
    /** Element names (values, expressions, definitions) by bit. */
    readonly elements: readonly string[],
    readonly blockName: (b: number) => string,
  ) {}

  visit(round: number, block: number, inM: BitMatrix, outM: BitMatrix, changed: boolean): void {
    if (round !== this.lastRound) {
      this.lastRound = round;
      this.t.step('round', `${this.problem}: round ${round}`, [], { problem: this.problem, round });
    }
    const b = this.blockName(block);
    const i = rowNames(inM, block, this.elements);
    const o = rowNames(outM, block, this.elements);
    this.t.step('visit', `  ${b}: in {${i.join(', ')}} out {${o.join(', ')}}${changed ? '' : ' (unchanged)'}`, [b], { problem: this.problem, round, block: b, in: i, out: o, changed });
  }

  done(_rounds: number, visits: number, inM: BitMatrix, outM: BitMatrix): void {
    // the solver's last round may visit nothing (its dirty block was visited later in the
    // same round): count the rounds that visited a block
    const rounds = this.lastRound;
    const sets: Record<string, { in: string[]; out: string[] }> = {};
    for (const b of this.cfg.order) sets[this.blockName(b)] = { in: rowNames(inM, b, this.elements), out: rowNames(outM, b, this.elements) };
    this.t.step('fixpoint', `${this.problem}: fixed point after ${rounds} round(s), ${visits} block visit(s)`, [], { problem: this.problem, rounds, visits, sets });
  }
}

/** A solver tracer naming values, definitions or expressions by the function's IR names. */
export function solverTracerFor(t: Tracer, cfg: CFG, problem: string, elements: readonly string[]): SolverTracer {
  const slots = functionSlots(cfg.fn);
  const names: string[] = [];
  for (const b of cfg.order) names[b] = slots.nameOf(cfg.blocks[b]!) ?? '?';
  return new SolverTracer(t, cfg, problem, elements, (b) => names[b] ?? '?');
}

/** `%x` for a value (its slot name, or its printed form for a constant). */
export function valueNames(cfg: CFG, values: readonly Value[]): string[] {
  const slots = functionSlots(cfg.fn);
  return values.map((v) => {
    const s = slots.nameOf(v);
    return s !== undefined ? '%' + s : printValue(v);
  });
}

/** `add i32 %b, %c` for each representative `%x = add i32 %b, %c`. */
export function expressionNames(insts: readonly Instruction[]): string[] {
  return insts.map((i) => {
    const s = printInstruction(i).trim();
    const k = s.indexOf(' = ');
    return k < 0 ? s : s.slice(k + 3);
  });
}
