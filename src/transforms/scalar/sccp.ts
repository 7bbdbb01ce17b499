/**
 * Sparse conditional constant propagation on one function: Wegman and Zadeck, "Constant
 * Propagation with Conditional Branches" (TOPLAS 1991). The solver, its lattice and the
 * rewrite by a solved lattice (with the invariants they keep) are in
 * src/transforms/utils/sccp-solver.ts, shared with ipsccp as LLVM shares its SCCPSolver.
 */
import type { Function } from '../../ir/function.js';
import type { PassContext } from '../../pm/pass.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { applySCCPResult, SCCPSolver } from '../utils/sccp-solver.js';

export { applySCCPResult, isEvaluable, SCCPSolver, switchTarget, type SCCPResultView } from '../utils/sccp-solver.js';

/** Runs SCCP on a function; returns counts of what it changed. */
export function runSCCP(fn: Function, ctx?: PassContext): { constants: number; branches: number; blocks: number } {
  const solver = new SCCPSolver(fn);
  solver.solve();
  return applySCCPResult(fn, solver, ctx);
}

export const sccpPass = defineCountingPass({
  name: 'sccp',
  description: 'sparse conditional constant propagation (Wegman-Zadeck): constants, dead branches and unreachable blocks',
  count: (fn, ctx) => runSCCP(fn, ctx),
  changed: (r) => r.branches > 0 || r.blocks > 0 || r.constants > 0,
  preserves: (r) => (r.branches > 0 || r.blocks > 0 ? 'none' : 'cfg'),
});
