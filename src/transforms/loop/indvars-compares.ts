/**
 * Compares of induction variables decided by their ranges, the part of indvars LLVM calls
 * SimplifyIndvar::eliminateIVComparison (ScalarEvolution::isKnownPredicate by ranges,
 * getRangeRef): `icmp pred a, C` inside a loop where a is (or holds) a recurrence, and the
 * unsigned or signed ranges of their expressions (analysis/scev-range.ts) make it always
 * true or always false, becomes that constant.
 *
 * Why: loop rotation guards an inner loop with its first test, `j <= i` for j from 0 becomes
 * `i >= 0` on the outer IV; it is always true, but while the guard stays, the inner loop's
 * exit value merges with the skipped path and the outer loop is not solved (a triangular
 * nest keeps both loops).
 *
 * Invariants: a compare is decided only from the ranges of expressions whose recurrences all
 * belong to loops around it (a range holds while its loops run, not after); the compare's
 * uses get the constant and the compare goes, the CFG is untouched.
 */
import { ConstantInt } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import { ValueKind } from '../../ir/value.js';
import type { BasicBlock } from '../../ir/basic-block.js';
import type { ConstantRange } from '../../analysis/constant-range.js';
import { freshScalarEvolution, type ScalarEvolution } from '../../analysis/scalar-evolution.js';
import { SK, type SCEV } from '../../analysis/scev-expr.js';
import { scevRanges } from '../../analysis/scev-range.js';
import { LoopAnalysis, ScalarEvolutionAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';

/** 'none' without recurrences, 'around' when all of them are of loops holding `b`, else 'other'. */
function recurrences(s: SCEV, b: BasicBlock): 'none' | 'around' | 'other' {
  let rec = false;
  const stack = [s];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === SK.AddRec) {
      const cfg = x.loop!.info.cfg;
      if (!(b.id >= 0 && b.id < cfg.n && x.loop!.contains(b.id))) return 'other';
      rec = true;
    }
    for (const o of x.ops) stack.push(o);
  }
  return rec ? 'around' : 'none';
}

/** `l pred r` for all values of the ranges: true, false, or null when undecided. */
export function decideByRanges(pred: Pred, l: ConstantRange, r: ConstantRange, ls: ConstantRange, rs: ConstantRange): boolean | null {
  if (l.isEmpty() || r.isEmpty()) return null;
  switch (pred) {
    case Pred.EQ:
    case Pred.NE: {
      const disjoint = l.intersectWith(r).isEmpty() || ls.intersectWith(rs).isEmpty();
      const a = l.singleElement();
      const same = a !== null && a === r.singleElement();
      if (disjoint) return pred === Pred.NE;
      if (same) return pred === Pred.EQ;
      return null;
    }
    case Pred.ULT:
      return l.umax() < r.umin() ? true : l.umin() >= r.umax() ? false : null;
    case Pred.ULE:
      return l.umax() <= r.umin() ? true : l.umin() > r.umax() ? false : null;
    case Pred.UGT:
      return l.umin() > r.umax() ? true : l.umax() <= r.umin() ? false : null;
    case Pred.UGE:
      return l.umin() >= r.umax() ? true : l.umax() < r.umin() ? false : null;
    case Pred.SLT:
      return ls.smax() < rs.smin() ? true : ls.smin() >= rs.smax() ? false : null;
    case Pred.SLE:
      return ls.smax() <= rs.smin() ? true : ls.smin() > rs.smax() ? false : null;
    case Pred.SGT:
      return ls.smin() > rs.smax() ? true : ls.smax() <= rs.smin() ? false : null;
    case Pred.SGE:
      return ls.smin() >= rs.smax() ? true : ls.smax() < rs.smin() ? false : null;
    default:
      return null;
  }
}

/**
 * A used integer compare of an instruction with a constant: the guards rotation leaves are
 * of this form, and asking only of these keeps the ranges (and a fresh scalar evolution)
 * from being computed for every exit test.
 */
function isCandidate(i: Instruction): boolean {
  if (i.op !== Opcode.ICmp || !i.operand(0).type.isInt() || !i.hasUses()) return false;
  const [a, b] = [i.operand(0), i.operand(1)];
  return (a.kind === ValueKind.ConstantInt) !== (b.kind === ValueKind.ConstantInt) && (a instanceof Instruction || b instanceof Instruction);
}

export function foldIVCompares(fn: Function, se: ScalarEvolution): number {
  const li = se.li;
  const ranges = scevRanges(se);
  let folded = 0;
  for (const b of fn.blocks()) {
    if (!(b.id >= 0 && b.id < li.cfg.n) || li.loopFor(b.id) === null) continue;
    for (let i: Instruction | null = b.first, next: Instruction | null = null; i !== null; i = next) {
      next = i.next;
      if (!isCandidate(i)) continue;
      const l = se.get(i.operand(0));
      const r = se.get(i.operand(1));
      const rl = recurrences(l, b);
      const rr = recurrences(r, b);
      if (rl === 'other' || rr === 'other' || (rl === 'none' && rr === 'none')) continue;
      const d = decideByRanges(i.pred, ranges.unsigned(l), ranges.unsigned(r), ranges.signed(l), ranges.signed(r));
      if (d === null) continue;
      i.replaceAllUsesWith(d ? ConstantInt.true() : ConstantInt.false());
      i.eraseFromParent();
      folded++;
    }
  }
  return folded;
}

/** The hook indvars calls last: the cached scalar evolution when nothing changed before, else a fresh one. */
export function indvarsComparesSCEV(fn: Function, ctx: PassContext, changedBefore: boolean): number {
  const li = ctx.analyses.get(LoopAnalysis);
  if (li.loops.length === 0) return 0;
  let any = false;
  for (const b of fn.blocks()) {
    if (!(b.id >= 0 && b.id < li.cfg.n) || li.loopFor(b.id) === null) continue;
    for (let i: Instruction | null = b.first; i !== null && !any; i = i.next) any = isCandidate(i);
    if (any) break;
  }
  if (!any) return 0;
  const n = foldIVCompares(fn, changedBefore ? freshScalarEvolution(fn) : ctx.analyses.get(ScalarEvolutionAnalysis));
  if (n > 0) ctx.stat('compares decided by IV ranges', n);
  return n;
}
