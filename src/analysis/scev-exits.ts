/**
 * Backedge-taken counts of loops with several exits (LLVM's
 * ScalarEvolution::computeBackedgeTakenCount / BackedgeTakenInfo): each exiting block's own
 * count (ScalarEvolution.exitCount: the iterations before its test leaves the loop), the
 * exact count as their unsigned minimum when every exit's count is known, and the symbolic
 * maximum as the minimum of the known ones.
 *
 * Invariants: a loop leaves at the first iteration where any exit's test fails, so the exact
 * count is the minimum of the exits' counts; an exit's count computed under a no-wrap flag
 * can only be too large when the recurrence would wrap after the loop has already left by
 * another exit, so the minimum stays exact. ScalarEvolution.backedgeTakenCount (what the
 * transforms use for exit values, unrolling and deletion) stays the single-exit count; this
 * is for the printer, the ranges and indvars' test replacement, which ask per exit.
 */
import type { ConstantInt } from '../ir/constants.js';
import { ValueKind } from '../ir/value.js';
import type { Loop } from './loops.js';
import type { ScalarEvolution } from './scalar-evolution.js';
import type { SCEV } from './scev-expr.js';

export interface ExitCount {
  /** The exiting block (id). */
  block: number;
  count: SCEV | null;
}

export interface BackedgeTakenInfo {
  exits: ExitCount[];
  /** The count when every exit's count is known, else null. */
  exact: SCEV | null;
  /** The minimum of the known exit counts (null when none is known). */
  symbolicMax: SCEV | null;
}

const cache = new WeakMap<ScalarEvolution, Map<Loop, BackedgeTakenInfo>>();

export function backedgeTakenInfo(se: ScalarEvolution, loop: Loop): BackedgeTakenInfo {
  let m = cache.get(se);
  if (m === undefined) cache.set(se, (m = new Map()));
  let r = m.get(loop);
  if (r === undefined) m.set(loop, (r = compute(se, loop)));
  return r;
}

function compute(se: ScalarEvolution, loop: Loop): BackedgeTakenInfo {
  const exits: ExitCount[] = [];
  let unknown = 0;
  for (const b of loop.exitingBlocks()) {
    const count = se.exitCount(loop, b);
    exits.push({ block: b, count });
    // an exit on a constant that stays in the loop is never taken: it bounds nothing and
    // does not keep the others from being exact (as LLVM ignores such canonicalised exits)
    if (count === null && !neverTaken(se, loop, b)) unknown++;
  }
  const known = exits.map((e) => e.count).filter((c): c is SCEV => c !== null);
  const min = known.length === 0 ? null : uminMismatched(se, known);
  return { exits, exact: unknown === 0 ? min : null, symbolicMax: min };
}

function neverTaken(se: ScalarEvolution, loop: Loop, b: number): boolean {
  const t = se.li.cfg.blockOf(b)!.terminator();
  if (t === null || !t.isConditionalBranch() || t.operand(0).kind !== ValueKind.ConstantInt) return false;
  const stayOnTrue = loop.contains(t.successor(0).id);
  return (t.operand(0) as ConstantInt).value !== 0n ? stayOnTrue : !stayOnTrue;
}

/** The unsigned minimum of counts of possibly different widths, at the widest (zero-extended). */
function uminMismatched(se: ScalarEvolution, xs: SCEV[]): SCEV {
  const bits = Math.max(...xs.map((x) => x.bits));
  const ctx = se.ctx;
  return xs.map((x) => ctx.zext(x, bits)).reduce((a, b) => ctx.umin(a, b));
}
