/**
 * Anticipated ("very busy") expressions (backward, intersection; "Compilers", §9.5.3):
 * e is anticipated at a point if every path from it to the exit computes e before any
 * (re)definition of its operands, so computing e there is safe and not wasted. Nothing is
 * anticipated at the exit. Used by lazy code motion (PRE).
 *
 *   gen(B)  = expressions computed in B before any operand is defined in B (upward exposed)
 *   kill(B) = expressions with an operand defined in B
 */
import type { Function } from '../../ir/function.js';
import { CFG } from '../cfg.js';
import { ExpressionSets, localExpressionSets } from './available-expressions.js';
import { ExpressionUniverse, lexicalExpressions } from './expressions.js';
import { solve } from './solver.js';

export function anticipatedExpressions(fn: Function | CFG, universe?: ExpressionUniverse): ExpressionSets {
  const cfg = fn instanceof CFG ? fn : new CFG(fn);
  const u = universe ?? lexicalExpressions(cfg.fn);
  const { gen, kill } = localExpressionSets(cfg, u, true);
  const sol = solve(cfg, { direction: 'backward', meet: 'intersection', bits: u.size, gen, kill });
  return new ExpressionSets(cfg, u, sol);
}
