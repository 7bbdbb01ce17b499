/**
 * Available expressions (forward, intersection; "Compilers", §9.2.6): e is available at a
 * point if every path from the entry computes e after the last (re)definition of its
 * operands. Nothing is available on entry.
 *
 *   gen(B)  = expressions computed in B and not killed later in B
 *   kill(B) = expressions with an operand defined in B
 */
import type { Function } from '../../ir/function.js';
import { CFG } from '../cfg.js';
import { BitMatrix } from './bitset.js';
import { ExpressionUniverse, lexicalExpressions } from './expressions.js';
import { BitSolution, solve } from './solver.js';
import type { Tracer } from '../trace.js';
import { expressionNames, solverTracerFor } from './solver-trace.js';

export class ExpressionSets {
  constructor(
    readonly cfg: CFG,
    readonly universe: ExpressionUniverse,
    readonly solution: BitSolution,
  ) {}
  /** Expression ids in the IN set of block b. */
  in(b: number): number[] {
    return this.solution.in.members(b);
  }
  out(b: number): number[] {
    return this.solution.out.members(b);
  }
}

/** Local gen/kill of available (forward) or anticipated (backward) expressions. */
export function localExpressionSets(cfg: CFG, u: ExpressionUniverse, backward: boolean): { gen: BitMatrix; kill: BitMatrix } {
  const n = cfg.n;
  const bits = u.size;
  const gen = new BitMatrix(n, bits);
  const kill = new BitMatrix(n, bits);
  const num = u.numbering;
  const exprOf = u.exprOf;
  const usersOff = u.usersOff;
  const users = u.users;
  for (const id of cfg.order) {
    const bb = cfg.blocks[id]!;
    if (!backward) {
      for (let i = bb.first; i !== null; i = i.next) {
        const k = num.indexOf(i);
        if (k < 0) continue;
        const e = exprOf[k];
        if (e >= 0) gen.set(id, e);
        // i's result is (re)defined here: expressions using it are killed
        for (let j = usersOff[k]; j < usersOff[k + 1]; j++) {
          gen.clear(id, users[j]);
          kill.set(id, users[j]);
        }
      }
    } else {
      for (let i = bb.last; i !== null; i = i.prev) {
        const k = num.indexOf(i);
        if (k < 0) continue;
        for (let j = usersOff[k]; j < usersOff[k + 1]; j++) {
          gen.clear(id, users[j]);
          kill.set(id, users[j]);
        }
        const e = exprOf[k];
        if (e >= 0) gen.set(id, e);
      }
    }
  }
  return { gen, kill };
}

export function availableExpressions(fn: Function | CFG, universe?: ExpressionUniverse, trace: Tracer | null = null): ExpressionSets {
  const cfg = fn instanceof CFG ? fn : new CFG(fn);
  const u = universe ?? lexicalExpressions(cfg.fn);
  const { gen, kill } = localExpressionSets(cfg, u, false);
  const hook = trace === null ? null : solverTracerFor(trace, cfg, 'available expressions', expressionNames(u.representatives));
  const sol = solve(cfg, { direction: 'forward', meet: 'intersection', bits: u.size, gen, kill, trace: hook });
  return new ExpressionSets(cfg, u, sol);
}
