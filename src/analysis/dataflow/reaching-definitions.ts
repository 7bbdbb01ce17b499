/**
 * Reaching definitions (forward, union; Aho, Lam, Sethi and Ullman, "Compilers", §9.2.4).
 *
 * In SSA every register has one definition, so the interesting definitions are of memory:
 * a definition is an instruction that writes a location, and a later definition of the same
 * location kills it. Clients give the definitions; `memoryDefinitions(fn)` supplies the usual
 * ones for promotable stack slots: each `alloca` defines its slot (as "uninitialized") and
 * each `store` whose address operand is that alloca redefines it. Writes through other
 * pointers (GEPs, calls receiving the address) are not definitions here: a client that needs
 * them must list them (and an escaped slot is not a candidate for promotion anyway).
 *
 * Invariant: definitions are numbered by (location, layout order), so the definitions of one
 * location are a contiguous bit range and a kill is a range fill.
 */
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { CFG } from '../cfg.js';
import { InstructionNumbering } from '../numbering.js';
import { BitMatrix } from './bitset.js';
import { BitSolution, solve } from './solver.js';
import type { Tracer } from '../trace.js';
import { printInstruction } from '../../text/printer.js';
import { functionSlots } from '../../text/slots.js';
import { solverTracerFor } from './solver-trace.js';

/** `d3: store i32 1, ptr %x (in B2)`: the definitions by number, for traces. */
function definitionNames(cfg: CFG, defs: readonly Definition[]): string[] {
  const slots = functionSlots(cfg.fn);
  return defs.map((d, k) => `d${k}: ${printInstruction(d.inst).trim()} (in ${d.inst.parent === null ? '?' : (slots.nameOf(d.inst.parent) ?? '?')})`);
}

export interface Definition {
  inst: Instruction;
  /** A small integer naming the location written (definitions of one location kill each other). */
  location: number;
}

export interface MemoryDefinitions {
  defs: Definition[];
  /** Location i is the alloca `locations[i]`. */
  locations: Value[];
}

/** Allocas and stores to them as definitions of their stack slot. */
export function memoryDefinitions(fn: Function): MemoryDefinitions {
  const locOf = new Map<Value, number>();
  const locations: Value[] = [];
  const defs: Definition[] = [];
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    for (let i = b.first; i !== null; i = i.next) {
      if (i.op === Opcode.Alloca && !locOf.has(i)) {
        locOf.set(i, locations.length);
        locations.push(i);
      }
    }
  }
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    for (let i = b.first; i !== null; i = i.next) {
      if (i.op === Opcode.Alloca) defs.push({ inst: i, location: locOf.get(i)! });
      else if (i.op === Opcode.Store && i.ops.length === 2) {
        const l = locOf.get(i.ops[1].value);
        if (l !== undefined) defs.push({ inst: i, location: l });
      }
    }
  }
  return { defs, locations };
}

export class ReachingDefinitions {
  constructor(
    readonly cfg: CFG,
    /** Definitions in bit order: grouped by location, each group in layout order. */
    readonly defs: Definition[],
    readonly solution: BitSolution,
    private readonly numbering: InstructionNumbering,
    private readonly defOfInst: Int32Array,
    private readonly locStart: Int32Array,
  ) {}

  /** Definitions reaching the start of block `b`. */
  reachIn(b: number): Definition[] {
    return this.solution.in.members(b).map((i) => this.defs[i]);
  }

  /** Definitions reaching the end of block `b`. */
  reachOut(b: number): Definition[] {
    return this.solution.out.members(b).map((i) => this.defs[i]);
  }

  /** Definitions of `location` that reach the point just before `inst`. */
  reachingAt(inst: Instruction, location: number): Definition[] {
    const bb = inst.parent!;
    const lo = this.locStart[location];
    const hi = this.locStart[location + 1];
    // The last definition of the location before inst in its block wins; else the block's IN.
    let last: Definition | null = null;
    for (let i = bb.first; i !== null && i !== inst; i = i.next) {
      const k = this.numbering.indexOf(i);
      const d = k < 0 ? -1 : this.defOfInst[k];
      if (d >= lo && d < hi) last = this.defs[d];
    }
    if (last !== null) return [last];
    const out: Definition[] = [];
    for (let d = lo; d < hi; d++) if (this.solution.in.get(bb.id, d)) out.push(this.defs[d]);
    return out;
  }
}

export function reachingDefinitions(fn: Function | CFG, defs?: Definition[], trace: Tracer | null = null): ReachingDefinitions {
  const cfg = fn instanceof CFG ? fn : new CFG(fn);
  const f = cfg.fn;
  const given = defs ?? memoryDefinitions(f).defs;
  const num = new InstructionNumbering(f);
  let maxLoc = -1;
  for (const d of given) if (d.location > maxLoc) maxLoc = d.location;
  // order by (location, layout position)
  const keyed = given.map((d) => ({ d, pos: num.indexOf(d.inst) })).filter((x) => x.pos >= 0);
  keyed.sort((a, b) => a.d.location - b.d.location || a.pos - b.pos);
  const ordered = keyed.map((x) => x.d);
  const locStart = new Int32Array(maxLoc + 2);
  for (const d of ordered) locStart[d.location + 1]++;
  for (let l = 0; l <= maxLoc; l++) locStart[l + 1] += locStart[l];
  const defOfInst = new Int32Array(num.insts.length).fill(-1);
  for (let k = 0; k < keyed.length; k++) defOfInst[keyed[k].pos] = k;

  const n = cfg.n;
  const bits = ordered.length;
  const gen = new BitMatrix(n, bits);
  const kill = new BitMatrix(n, bits);
  for (const id of cfg.order) {
    for (let i = cfg.blocks[id]!.first; i !== null; i = i.next) {
      const k = num.indexOf(i);
      const d = defOfInst[k];
      if (d < 0) continue;
      const l = ordered[d].location;
      for (let x = locStart[l]; x < locStart[l + 1]; x++) {
        gen.clear(id, x);
        kill.set(id, x);
      }
      gen.set(id, d);
    }
  }
  const hook = trace === null ? null : solverTracerFor(trace, cfg, 'reaching definitions', definitionNames(cfg, ordered));
  const sol = solve(cfg, { direction: 'forward', meet: 'union', bits, gen, kill, trace: hook });
  return new ReachingDefinitions(cfg, ordered, sol, num, defOfInst, locStart);
}
