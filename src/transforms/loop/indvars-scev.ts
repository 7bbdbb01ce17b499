/**
 * Exit values by scalar evolution, the part of indvars that needs it (LLVM's
 * IndVarSimplify::rewriteLoopExitValues with ReplaceExitValue=OnlyCheapRepl, and the
 * UnusedIndVarInLoop case): a value computed in a loop and used after it is replaced there by
 * its closed form at the loop's exit (scalar-evolution.ts: the recurrence evaluated at the
 * backedge-taken count, which may be symbolic), so the loop no longer feeds what follows and
 * loop-deletion can remove it.
 *
 * A loop qualifies when its one exiting block is its latch and the exit block has the latch
 * as its only predecessor (loop-simplify's dedicated exits), so the exit block dominates
 * every use after the loop. A value is rewritten when its closed form is cheap (at most
 * CHEAP instructions), or when every value the loop leaves behind can be rewritten and the
 * loop has no side effects (the loop then dies, which pays for any expansion up to
 * DEAD_LOOP_BUDGET). Loops are visited innermost first, so the scalar evolution of an outer
 * loop already reads its inner loops' exit values (it does anyway through phis after loops).
 *
 * Invariants: nothing is emitted unless every unknown of the expression dominates the exit
 * block; uses are replaced, nothing is erased (dead code goes in dce/adce), so the cached
 * expressions stay valid while the pass runs; the emitted arithmetic is exact mod 2^bits.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { mayHaveSideEffects } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import type { Loop } from '../../analysis/loops.js';
import type { SCEV } from '../../analysis/scev-expr.js';
import { LoopAnalysis, ScalarEvolutionAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';
import { freshScalarEvolution, ScalarEvolution } from '../../analysis/scalar-evolution.js';
import { dominatesPoint, expansionCost, SCEVExpander } from '../utils/scev-expander.js';

const CHEAP = 4;

/** A side effect other than branching (a loop's branches go with it). */
export function hasEffect(i: Instruction): boolean {
  return i.op !== Opcode.Br && i.op !== Opcode.Switch && mayHaveSideEffects(i);
}
const DEAD_LOOP_BUDGET = 40;

export interface ExitValueStats {
  /** Uses after loops replaced. */
  replaced: number;
  /** Instructions emitted. */
  emitted: number;
}

/** Loops innermost first (children before parents), without recursion. */
export function loopsInnermostFirst(roots: readonly Loop[]): Loop[] {
  const post: Loop[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const l = stack.pop()!;
    post.push(l);
    for (const c of l.subLoops) stack.push(c);
  }
  return post.reverse();
}

/** The latch, when it is the only exiting block, and its one exit block with no other predecessor. */
export function singleExit(loop: Loop): { latch: BasicBlock; exit: BasicBlock } | null {
  const cfg = loop.info.cfg;
  const latches = loop.latches();
  const exiting = loop.exitingBlocks();
  const exits = loop.exitBlocks();
  if (latches.length !== 1 || exiting.length !== 1 || exiting[0] !== latches[0] || exits.length !== 1) return null;
  const latch = cfg.blockOf(latches[0])!;
  const exit = cfg.blockOf(exits[0])!;
  const preds = exit.predecessors();
  if (preds.length !== 1 || preds[0] !== latch) return null;
  return { latch, exit };
}

export function rewriteExitValuesSCEV(fn: Function, se: ScalarEvolution): ExitValueStats {
  const stats: ExitValueStats = { replaced: 0, emitted: 0 };
  const li = se.li;
  const cfg = li.cfg;
  for (const loop of loopsInnermostFirst(li.topLevel)) {
    const shape = singleExit(loop);
    if (shape === null) continue;
    const { exit } = shape;
    const inLoop = (b: BasicBlock | null) => b !== null && b.id >= 0 && b.id < cfg.n && loop.contains(b.id);
    // every value of the loop used after it, with its closed form
    const live: { v: Instruction; s: SCEV | null }[] = [];
    let sideEffects = false;
    for (const id of loop.blocks()) {
      const b = cfg.blockOf(id)!;
      if (b.parent !== fn) continue;
      for (let i: Instruction | null = b.first; i !== null; i = i.next) {
        if (hasEffect(i)) sideEffects = true;
        let usedOutside = false;
        for (let u = i.firstUse; u !== null; u = u.next) {
          const user = u.user as Instruction;
          if (!inLoop(user.parent)) usedOutside = true;
        }
        if (!usedOutside) continue;
        let s: SCEV | null = null;
        if (i.type.isInt()) {
          // a value of an inner loop leaves each loop from its own outwards
          s = se.get(i);
          for (let l = se.loopOf(b); s !== null && l !== null && l !== loop; l = l.parent) s = se.exitValue(s, l);
          if (s !== null) s = se.exitValue(s, loop);
          if (s !== null && !dominatesPoint(s, exit, se.dt)) s = null;
        }
        live.push({ v: i, s });
      }
    }
    if (live.length === 0) continue;
    const allKnown = live.every((x) => x.s !== null);
    const loopDies = allKnown && !sideEffects;
    const cost = (s: SCEV) => expansionCost(s);
    if (loopDies && live.reduce((t, x) => t + cost(x.s!), 0) > DEAD_LOOP_BUDGET) continue;
    const at = exit.firstNonPhi();
    if (at === null) continue;
    // a loop that dies pays for new phis in the loops around it (a strength-reduced exit value)
    const ex = new SCEVExpander(at, se, loopDies);
    for (const { v, s } of live) {
      if (s === null) continue;
      if (!loopDies && cost(s) > CHEAP) continue;
      // an existing value (or constant) needs nothing; otherwise the expansion is the same
      // instruction as v only when v is itself the closed form, which cannot be (v varies)
      const val = ex.expand(s);
      if (val === null || val === v) continue;
      for (let u = v.firstUse; u !== null; ) {
        const next = u.next;
        const user = u.user as Instruction;
        if (!inLoop(user.parent)) {
          if (user.op === Opcode.Phi && user.parent === exit) {
            // a phi of the exit block (one entry, from the latch) is the exit value itself
            if (user.numIncoming === 1 && user !== val) {
              user.replaceAllUsesWith(val);
              user.eraseFromParent(); // its own expression is the exit value, never an unknown
              stats.replaced++;
            }
          } else {
            user.setOperand(u.index, val);
            stats.replaced++;
          }
        }
        u = next;
      }
    }
    stats.emitted += ex.emitted;
  }
  return stats;
}

/**
 * The hook indvars calls after its own work: exit values by scalar evolution, from the
 * cached analysis when indvars changed nothing, else from a fresh one.
 */
export function indvarsExitValuesSCEV(fn: Function, ctx: PassContext, changedBefore: boolean, cfgChanged: boolean): ExitValueStats {
  // no loop, nothing to do (indvars asked for the loops already: this costs no analysis)
  const li = ctx.analyses.get(LoopAnalysis);
  if (li.loops.length === 0) return { replaced: 0, emitted: 0 };
  // instructions changed but not blocks: the loops and dominators are still right
  const se = !changedBefore ? ctx.analyses.get(ScalarEvolutionAnalysis) : cfgChanged ? freshScalarEvolution(fn) : new ScalarEvolution(fn, li, li.domTree);
  const r = rewriteExitValuesSCEV(fn, se);
  if (r.replaced) ctx.stat('exit values replaced by scalar evolution', r.replaced);
  return r;
}
