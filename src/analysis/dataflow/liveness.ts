/**
 * Live SSA values per block, as a backward union problem over bit vectors (Appel, "Modern
 * Compiler Implementation", §10.1, with the SSA treatment of phis of Brandner et al.,
 * "Computing Liveness Sets for SSA-Form Programs", 2011):
 *
 *   liveOut(B) = ⋃_{S ∈ succ(B)} liveIn(S)  ∪  PhiUses(B)
 *   liveIn(B)  = UpwardExposed(B) ∪ (liveOut(B) − Defs(B))
 *
 * A phi's operand for the edge P→B is used at the end of P: it is in liveOut(P) and not in
 * liveIn(B) (unless also used otherwise). A phi's result is defined at the top of its block:
 * in Defs(B), never in liveIn(B). Tracked values: arguments and instructions with a result.
 */
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { CFG } from '../cfg.js';
import { ValueNumbering } from '../numbering.js';
import { BitMatrix } from './bitset.js';
import { BitSolution, solve } from './solver.js';
import type { Tracer } from '../trace.js';
import { solverTracerFor, valueNames } from './solver-trace.js';

export class Liveness {
  constructor(
    readonly cfg: CFG,
    readonly values: ValueNumbering,
    readonly solution: BitSolution,
  ) {}

  /** Values live on entry to block `b`, in definition order. */
  liveIn(b: number): Value[] {
    return this.solution.in.members(b).map((i) => this.values.values[i]);
  }

  /** Values live on exit from block `b`, in definition order. */
  liveOut(b: number): Value[] {
    return this.solution.out.members(b).map((i) => this.values.values[i]);
  }

  isLiveIn(v: Value, b: number): boolean {
    const i = this.values.indexOf(v);
    return i >= 0 && this.solution.in.get(b, i);
  }

  isLiveOut(v: Value, b: number): boolean {
    const i = this.values.indexOf(v);
    return i >= 0 && this.solution.out.get(b, i);
  }

  /** Blocks (ids, layout order) where `v` is live-in: the pruning set for phi placement. */
  liveInBlocks(v: Value): number[] {
    const i = this.values.indexOf(v);
    const out: number[] = [];
    if (i < 0) return out;
    for (const b of this.cfg.order) if (this.solution.in.get(b, i)) out.push(b);
    return out;
  }
}

export function liveness(fn: Function | CFG, trace: Tracer | null = null): Liveness {
  const cfg = fn instanceof CFG ? fn : new CFG(fn);
  const f = cfg.fn;
  const vn = new ValueNumbering(f);
  const n = cfg.n;
  const bits = vn.size;
  const gen = new BitMatrix(n, bits);
  const kill = new BitMatrix(n, bits);
  const meetGen = new BitMatrix(n, bits);
  for (const id of cfg.order) {
    const bb = cfg.blocks[id]!;
    for (let i: Instruction | null = bb.first; i !== null; i = i.next) {
      if (i.op === Opcode.Phi) {
        const blocks = i.blocks;
        if (blocks !== null) {
          for (let k = 0; k < i.ops.length && k < blocks.length; k++) {
            const v = vn.indexOf(i.ops[k].value);
            const p = blocks[k];
            if (v >= 0 && p.parent === f && p.id >= 0 && p.id < n && cfg.blocks[p.id] === p) meetGen.set(p.id, v);
          }
        }
      } else {
        const ops = i.ops;
        for (let k = 0; k < ops.length; k++) {
          const v = vn.indexOf(ops[k].value);
          if (v >= 0 && !kill.get(id, v)) gen.set(id, v);
        }
      }
      const d = vn.indexOf(i);
      if (d >= 0) kill.set(id, d);
    }
  }
  const hook = trace === null ? null : solverTracerFor(trace, cfg, 'liveness', valueNames(cfg, vn.values));
  const sol = solve(cfg, { direction: 'backward', meet: 'union', bits, gen, kill, meetGen, trace: hook });
  return new Liveness(cfg, vn, sol);
}
