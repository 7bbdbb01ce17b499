/**
 * Integer ranges of values through phis and the branches that guard their incoming edges,
 * after LLVM's LazyValueInfo (llvm/lib/Analysis/LazyValueInfo.cpp: solveBlockValuePHINode,
 * getEdgeValue / getValueFromCondition, and ConstantRange's transfer functions), in the
 * simple form CorrelatedValuePropagation's compare folding needs: a range per value, valid
 * wherever the value is defined (no per-block refinement), and on a phi's incoming edge the
 * range of the incoming value intersected with what the branch on that edge implies about
 * it (`br (icmp ugt %v, 14)` → on the true edge %v ∈ [15, max]).
 *
 * Why: an induction variable counting 23 down to 15 (`%iv = phi [23, ...], [%iv.next, ...]`,
 * the back edge taken on `icmp ugt %iv.next, 14`) lies in [15, 23]: a compare of it against
 * a `zext i1` is decided, though no instruction is constant (LLVM's CVP folds these; Csmith
 * programs compare loop counters against booleans all the time).
 *
 * Invariants: a range is a closed unsigned interval [lo, hi] ⊆ [0, 2^w − 1] (wrapped sets
 * are widened to the full set; `null` is the empty set: an edge the branch never takes); it
 * contains every non-poison value the value takes. Unknown values, values being computed
 * (a cycle through phis) and values deeper than MAX_DEPTH get the full range, so the result
 * is always sound and the recursion depth is bounded; each value's range is computed once
 * per RangeAnalysis (memoized).
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { ConstantInt } from '../ir/constants.js';
import type { Instruction } from '../ir/instruction.js';
import { inversePred, Opcode, Pred, swappedPred } from '../ir/opcodes.js';
import { type Value, ValueKind } from '../ir/value.js';

/** A closed unsigned interval. */
export interface URange {
  lo: bigint;
  hi: bigint;
}

/** LazyValueInfo's recursion limit is its own worklist; ours is a depth cap. */
const MAX_DEPTH = 8;

const umax = (w: number): bigint => (1n << BigInt(w)) - 1n;
const full = (w: number): URange => ({ lo: 0n, hi: umax(w) });
const isFull = (r: URange, w: number): boolean => r.lo === 0n && r.hi === umax(w);
/** The smallest 2^k − 1 at or above x (the largest value with x's bit length). */
const bitsCover = (x: bigint): bigint => (x === 0n ? 0n : (1n << BigInt(x.toString(2).length)) - 1n);

function union(a: URange | null, b: URange | null): URange | null {
  if (a === null) return b;
  if (b === null) return a;
  return { lo: a.lo < b.lo ? a.lo : b.lo, hi: a.hi > b.hi ? a.hi : b.hi };
}

function intersect(a: URange, b: URange): URange | null {
  const lo = a.lo > b.lo ? a.lo : b.lo;
  const hi = a.hi < b.hi ? a.hi : b.hi;
  return lo <= hi ? { lo, hi } : null;
}

/** The values `x` with `x pred c` true, as an unsigned interval (null: none; full when not one interval). */
function satisfying(pred: Pred, c: bigint, w: number): URange | null {
  const max = umax(w);
  const half = 1n << BigInt(w - 1);
  switch (pred) {
    case Pred.EQ: return { lo: c, hi: c };
    case Pred.ULT: return c === 0n ? null : { lo: 0n, hi: c - 1n };
    case Pred.ULE: return { lo: 0n, hi: c };
    case Pred.UGT: return c === max ? null : { lo: c + 1n, hi: max };
    case Pred.UGE: return { lo: c, hi: max };
    // signed bounds that keep to one half are one unsigned interval
    case Pred.SGT: return c < half - 1n ? { lo: c + 1n, hi: half - 1n } : c === half - 1n ? null : full(w);
    case Pred.SGE: return c < half ? { lo: c, hi: half - 1n } : full(w);
    case Pred.SLT: return c >= half ? (c === half ? null : { lo: half, hi: c - 1n }) : full(w);
    case Pred.SLE: return c >= half ? { lo: half, hi: c } : full(w);
    default: return full(w);
  }
}

/** Whether `a pred b` holds for all (true), none (false) or some (null) values of the ranges. */
export function decideCompare(pred: Pred, a: URange, b: URange, w: number): boolean | null {
  const half = 1n << BigInt(w - 1);
  let p = pred;
  switch (pred) {
    case Pred.SLT: case Pred.SLE: case Pred.SGT: case Pred.SGE: {
      // within one half (both non-negative, or both negative) signed order is unsigned order
      const sameHalf = (a.hi < half && b.hi < half) || (a.lo >= half && b.lo >= half);
      if (!sameHalf) return null;
      p = pred === Pred.SLT ? Pred.ULT : pred === Pred.SLE ? Pred.ULE : pred === Pred.SGT ? Pred.UGT : Pred.UGE;
      break;
    }
  }
  switch (p) {
    case Pred.EQ:
    case Pred.NE: {
      const eq = a.hi < b.lo || b.hi < a.lo ? false : a.lo === a.hi && b.lo === b.hi && a.lo === b.lo ? true : null;
      return eq === null ? null : p === Pred.EQ ? eq : !eq;
    }
    case Pred.ULT: return a.hi < b.lo ? true : a.lo >= b.hi ? false : null;
    case Pred.ULE: return a.hi <= b.lo ? true : a.lo > b.hi ? false : null;
    case Pred.UGT: return a.lo > b.hi ? true : a.hi <= b.lo ? false : null;
    case Pred.UGE: return a.lo >= b.hi ? true : a.hi < b.lo ? false : null;
    default: return null;
  }
}

export class RangeAnalysis {
  private readonly memo = new Map<Value, URange>();
  private readonly active = new Set<Value>();

  /** The range of integer value `v` (the full range of its width when nothing is known). */
  rangeOf(v: Value, depth = 0): URange {
    const w = v.type.bits;
    if (v.kind === ValueKind.ConstantInt) {
      const u = (v as ConstantInt).zext();
      return { lo: u, hi: u };
    }
    if (v.kind !== ValueKind.Instruction || depth >= MAX_DEPTH || this.active.has(v)) return full(w);
    const known = this.memo.get(v);
    if (known !== undefined) return known;
    this.active.add(v);
    const r = this.compute(v as Instruction, w, depth + 1) ?? full(w);
    this.active.delete(v);
    this.memo.set(v, r);
    return r;
  }

  /** The range of `v` as it reaches `to` along the edge from `from` (null: the edge is never taken with it). */
  rangeOnEdge(v: Value, from: BasicBlock, to: BasicBlock, depth: number): URange | null {
    const w = v.type.bits;
    const r = this.rangeOf(v, depth);
    const t = from.terminator();
    if (t === null || !t.isConditionalBranch() || t.successor(0) === t.successor(1)) return r;
    const c = t.operand(0);
    if (c.kind !== ValueKind.Instruction || (c as Instruction).op !== Opcode.ICmp) return r;
    const cmp = c as Instruction;
    let pred = cmp.pred!;
    let k: Value;
    if (cmp.operand(0) === v) k = cmp.operand(1);
    else if (cmp.operand(1) === v) {
      k = cmp.operand(0);
      pred = swappedPred(pred);
    } else return r;
    if (k.kind !== ValueKind.ConstantInt) return r;
    if (t.successor(0) !== to) pred = inversePred(pred);
    const kv = (k as ConstantInt).zext();
    if (pred === Pred.NE) {
      // removes a value only at an end of the interval
      if (r.lo === r.hi && r.lo === kv) return null;
      return r.lo === kv ? { lo: r.lo + 1n, hi: r.hi } : r.hi === kv ? { lo: r.lo, hi: r.hi - 1n } : r;
    }
    const s = satisfying(pred, kv, w);
    return s === null ? null : intersect(r, s);
  }

  private compute(i: Instruction, w: number, d: number): URange | null {
    const max = umax(w);
    const op = (n: number): URange => this.rangeOf(i.operand(n), d);
    switch (i.op) {
      case Opcode.ZExt:
        return op(0);
      case Opcode.SExt: {
        const n = i.operand(0).type.bits;
        const a = op(0);
        const half = 1n << BigInt(n - 1);
        if (a.hi < half) return a;
        const lift = max - umax(n);
        return a.lo >= half ? { lo: a.lo + lift, hi: a.hi + lift } : null;
      }
      case Opcode.Trunc: {
        const a = op(0);
        return a.hi <= max ? a : null;
      }
      case Opcode.And: {
        const a = op(0);
        const b = op(1);
        return { lo: 0n, hi: a.hi < b.hi ? a.hi : b.hi };
      }
      case Opcode.Or: {
        const a = op(0);
        const b = op(1);
        return { lo: a.lo > b.lo ? a.lo : b.lo, hi: bitsCover(a.hi > b.hi ? a.hi : b.hi) };
      }
      case Opcode.Xor: {
        const a = op(0);
        const b = op(1);
        return { lo: 0n, hi: bitsCover(a.hi > b.hi ? a.hi : b.hi) };
      }
      case Opcode.Add: {
        const a = op(0);
        const b = op(1);
        return a.hi + b.hi <= max ? { lo: a.lo + b.lo, hi: a.hi + b.hi } : null;
      }
      case Opcode.Sub: {
        const a = op(0);
        const b = op(1);
        return a.lo >= b.hi ? { lo: a.lo - b.hi, hi: a.hi - b.lo } : null;
      }
      case Opcode.Mul: {
        const a = op(0);
        const b = op(1);
        return a.hi * b.hi <= max ? { lo: a.lo * b.lo, hi: a.hi * b.hi } : null;
      }
      case Opcode.LShr: {
        const a = op(0);
        const s = i.operand(1);
        if (s.kind !== ValueKind.ConstantInt) return { lo: 0n, hi: a.hi };
        const k = (s as ConstantInt).zext();
        return k < BigInt(w) ? { lo: a.lo >> k, hi: a.hi >> k } : null;
      }
      case Opcode.UDiv: {
        const a = op(0);
        const b = op(1);
        return b.lo > 0n ? { lo: a.lo / b.hi, hi: a.hi / b.lo } : { lo: 0n, hi: a.hi };
      }
      case Opcode.URem: {
        const a = op(0);
        const b = op(1);
        if (a.hi < b.lo) return a;
        return { lo: 0n, hi: b.hi === 0n ? a.hi : a.hi < b.hi - 1n ? a.hi : b.hi - 1n };
      }
      case Opcode.Select:
        return union(this.rangeOf(i.operand(1), d), this.rangeOf(i.operand(2), d));
      case Opcode.Phi: {
        let r: URange | null = null;
        for (let k = 0; k < i.numIncoming; k++) {
          r = union(r, this.rangeOnEdge(i.incomingValue(k), i.incomingBlock(k), i.parent!, d));
          if (r !== null && isFull(r, w)) return r;
        }
        // no edge can bring a value: the phi never runs (unreachable); any range will do
        return r;
      }
      default:
        return null;
    }
  }
}
