/**
 * Ranges of scalar evolution expressions: the unsigned and the signed ConstantRange each
 * expression's values lie in, and the constant maximum of a loop's backedge-taken count.
 * After LLVM's ScalarEvolution::getRangeRef (with its two hints), getRangeForAffineAR,
 * getConstantMultiple and computeMaxBECountForLT; what LLVM adds beyond these (ranges from
 * guards and from select factoring, `!range` metadata, sign bits) is not done here, so our
 * ranges are sometimes wider than opt-19's, never narrower on purpose.
 *
 * Invariants: sound: every value an expression takes while its loops run lies in its range
 * (a recurrence's values at iterations 0..max backedge-taken count); results are cached per
 * expression and hint in a table owned by the ScalarEvolution they are computed from (so
 * they are dropped with it); recursion is capped (MAX_DEPTH, a deeper expression is the
 * full set) and phis under evaluation are not entered again.
 */
import { Instruction } from '../ir/instruction.js';
import { Opcode, Pred } from '../ir/opcodes.js';
import { ConstantRange, type RangeType } from './constant-range.js';
import { computeKnownBits } from './known-bits.js';
import type { Loop } from './loops.js';
import type { ScalarEvolution } from './scalar-evolution.js';
import { backedgeTakenInfo } from './scev-exits.js';
import { NW, SK, type SCEV } from './scev-expr.js';

const MAX_DEPTH = 32;
const M = (w: number): bigint => (1n << BigInt(w)) - 1n;

export class SCEVRanges {
  private readonly cache = new Map<SCEV, ConstantRange>();
  private readonly scache = new Map<SCEV, ConstantRange>();
  private readonly maxBTC = new Map<Loop, bigint | null>();
  private readonly pendingPhis = new Set<Instruction>();

  constructor(readonly se: ScalarEvolution) {}

  unsigned(s: SCEV): ConstantRange {
    return this.range(s, 'unsigned', 0);
  }
  signed(s: SCEV): ConstantRange {
    return this.range(s, 'signed', 0);
  }

  /** The largest multiple every value of `s` is known to be a multiple of (LLVM's getConstantMultiple; 0 for the constant 0). */
  multiple(s: SCEV): bigint {
    const w = s.bits;
    const tz = (m: bigint) => {
      if (m === 0n) return w;
      let n = 0;
      while (((m >> BigInt(n)) & 1n) === 0n) n++;
      return n;
    };
    const pow = (n: number) => (n >= w ? 0n : 1n << BigInt(n));
    switch (s.kind) {
      case SK.Const:
        return BigInt.asUintN(w, s.c);
      case SK.Add:
      case SK.AddRec:
        if (s.flags & NW.NUW) return s.ops.map((o) => this.multiple(o)).reduce(gcd);
        return pow(Math.min(...s.ops.map((o) => tz(this.multiple(o)))));
      case SK.Mul: {
        if (s.flags & NW.NUW) {
          const p = s.ops.map((o) => this.multiple(o)).reduce((a, b) => a * b, 1n);
          if (p <= M(w)) return p;
        }
        return pow(Math.min(w, s.ops.reduce((a, o) => a + tz(this.multiple(o)), 0)));
      }
      case SK.ZExt:
      case SK.SExt: {
        const m = this.multiple(s.ops[0]);
        return m === 0n ? 0n : s.kind === SK.ZExt ? m : pow(tz(m));
      }
      case SK.Trunc:
        return pow(Math.min(w, tz(this.multiple(s.ops[0]))));
      case SK.UMax:
      case SK.SMax:
      case SK.UMin:
      case SK.SMin:
        return pow(Math.min(...s.ops.map((o) => tz(this.multiple(o)))));
      case SK.Unknown: {
        return lowZeros(computeKnownBits(s.value!).zero, w);
      }
      default:
        return 1n;
    }
  }

  private range(s: SCEV, hint: RangeType, depth: number): ConstantRange {
    const w = s.bits;
    if (s.kind === SK.Const) return ConstantRange.single(s.c, w);
    const cache = hint === 'unsigned' ? this.cache : this.scache;
    const hit = cache.get(s);
    if (hit !== undefined) return hit;
    if (depth > MAX_DEPTH) return ConstantRange.full(w);
    const r = this.compute(s, hint, depth + 1);
    cache.set(s, r);
    return r;
  }

  private compute(s: SCEV, hint: RangeType, d: number): ConstantRange {
    const w = s.bits;
    let cons = ConstantRange.full(w);
    // known low zero bits bound the largest value
    const mult = this.multiple(s) || 1n;
    if (hint === 'unsigned') {
      const rem = M(w) % mult;
      if (rem !== 0n) cons = ConstantRange.of(0n, M(w) - rem + 1n, w);
    } else {
      let tz = 0;
      while (tz < w && ((mult >> BigInt(tz)) & 1n) === 0n) tz++;
      if (tz !== 0) {
        const smax = (1n << BigInt(w - 1)) - 1n;
        cons = ConstantRange.of(-(1n << BigInt(w - 1)), ((smax >> BigInt(tz)) << BigInt(tz)) + 1n, w);
      }
    }
    const sub = (x: SCEV) => this.range(x, hint, d);
    switch (s.kind) {
      case SK.Add: {
        let x = sub(s.ops[0]);
        for (const o of s.ops.slice(1)) x = x.addWithNoWrap(sub(o), (s.flags & NW.NUW) !== 0, (s.flags & NW.NSW) !== 0, hint);
        return cons.intersectWith(x, hint);
      }
      case SK.Mul: {
        let x = sub(s.ops[0]);
        for (const o of s.ops.slice(1)) x = x.multiply(sub(o));
        return cons.intersectWith(x, hint);
      }
      case SK.UDiv:
        return cons.intersectWith(sub(s.ops[0]).udiv(sub(s.ops[1])), hint);
      case SK.ZExt:
        return cons.intersectWith(sub(s.ops[0]).zeroExtend(w), hint);
      case SK.SExt:
        return cons.intersectWith(sub(s.ops[0]).signExtend(w), hint);
      case SK.Trunc:
        return cons.intersectWith(sub(s.ops[0]).truncate(w), hint);
      case SK.UMax:
      case SK.SMax:
      case SK.UMin:
      case SK.SMin: {
        let x = sub(s.ops[0]);
        for (const o of s.ops.slice(1)) {
          const y = sub(o);
          x = s.kind === SK.UMax ? x.umaxWith(y) : s.kind === SK.SMax ? x.smaxWith(y) : s.kind === SK.UMin ? x.uminWith(y) : x.sminWith(y);
        }
        return cons.intersectWith(x, hint);
      }
      case SK.AddRec:
        return this.addRec(s, cons, hint, d);
      case SK.Unknown:
        return this.unknown(s, cons, hint, d);
      default:
        return cons;
    }
  }

  private addRec(s: SCEV, cons: ConstantRange, hint: RangeType, d: number): ConstantRange {
    const w = s.bits;
    if (s.flags & NW.NUW) {
      const umin = this.range(s.start, 'unsigned', d).umin();
      if (umin !== 0n) cons = cons.intersectWith(ConstantRange.of(umin, 0n, w), hint);
    }
    if (s.flags & NW.NSW) {
      const steps = s.ops.slice(1).map((o) => this.range(o, 'signed', d));
      const smin = -(1n << BigInt(w - 1));
      if (steps.every((r) => r.smin() >= 0n)) cons = cons.intersectWith(ConstantRange.nonEmpty(this.range(s.start, 'signed', d).smin(), smin, w), hint);
      else if (steps.every((r) => r.smax() <= 0n)) cons = cons.intersectWith(ConstantRange.nonEmpty(smin, this.range(s.start, 'signed', d).smax() + 1n, w), hint);
    }
    if (s.isAffine()) {
      let max = this.constantMaxBTC(s.loop!);
      if (max !== null) {
        const mw = backedgeTakenInfo(this.se, s.loop!).symbolicMax?.bits ?? w;
        // a count of another width: truncated when it fits, zero-extended when narrower
        if (mw > w && max > M(w)) max = null;
        if (max !== null) cons = cons.intersectWith(this.affine(s.start, s.step, max, d), hint);
      }
    }
    return cons;
  }

  /** Values of {start,+,step} at iterations 0..max (LLVM's getRangeForAffineAR). */
  private affine(start: SCEV, step: SCEV, max: bigint, d: number): ConstantRange {
    const w = start.bits;
    const ss = this.range(start, 'signed', d);
    const st = this.range(step, 'signed', d);
    let sr = helper(st.smin(), ss, max, true, w);
    sr = sr.unionWith(helper(st.smax(), ss, max, true, w));
    const ur = helper(this.range(step, 'unsigned', d).umax(), this.range(start, 'unsigned', d), max, false, w);
    return sr.intersectWith(ur, 'smallest');
  }

  private unknown(s: SCEV, cons: ConstantRange, hint: RangeType, d: number): ConstantRange {
    const w = s.bits;
    const v = s.value!;
    const k = computeKnownBits(v);
    const min = k.one & M(w);
    const max = M(w) & ~k.zero;
    if (min !== BigInt.asUintN(w, max + 1n)) cons = cons.intersectWith(ConstantRange.nonEmpty(min, max + 1n, w), hint);
    // a phi's values are its incoming values' (a phi under evaluation is not entered again)
    if (v instanceof Instruction && v.op === Opcode.Phi && !this.pendingPhis.has(v)) {
      this.pendingPhis.add(v);
      let u = ConstantRange.empty(w);
      for (let i = 0; i < v.numIncoming && !u.isFull(); i++) u = u.unionWith(this.range(this.se.get(v.incomingValue(i)), hint, d));
      this.pendingPhis.delete(v);
      cons = cons.intersectWith(u, hint);
    }
    return cons;
  }

  /**
   * The constant maximum of the loop's backedge-taken count (LLVM's
   * getConstantMaxBackedgeTakenCount): the count itself when constant; for a test counting
   * up or down to an invariant, the distance between the extreme start and end values
   * divided by the step (computeMaxBECountForLT and its mirror); else the unsigned maximum
   * of the count's range. Null when the loop has no count.
   */
  constantMaxBTC(loop: Loop): bigint | null {
    if (this.maxBTC.has(loop)) return this.maxBTC.get(loop)!;
    this.maxBTC.set(loop, null);
    const r = this.computeMaxBTC(loop);
    this.maxBTC.set(loop, r);
    return r;
  }

  private computeMaxBTC(loop: Loop): bigint | null {
    // the least of the exits' maxima (an exit with no count bounds nothing)
    let best: bigint | null = null;
    for (const e of backedgeTakenInfo(this.se, loop).exits) {
      if (e.count === null) continue;
      let m: bigint;
      if (e.count.kind === SK.Const) m = BigInt.asUintN(e.count.bits, e.count.c);
      else {
        const t = this.se.exitTest(loop, e.block);
        m = (t === null ? null : this.maxFromTest(t.pred, t.a, t.n)) ?? this.unsigned(e.count).umax();
      }
      if (best === null || m < best) best = m;
    }
    return best;
  }

  private maxFromTest(pred: Pred, a: SCEV, n: SCEV): bigint | null {
    const w = a.bits;
    if (a.step.kind !== SK.Const) return null;
    const c = a.step.c;
    const signed = pred === Pred.SLT || pred === Pred.SLE || pred === Pred.SGT || pred === Pred.SGE;
    const rng = (x: SCEV) => (signed ? this.signed(x) : this.unsigned(x));
    const ceilDiv = (x: bigint, y: bigint) => (x + y - 1n) / y;
    if ((pred === Pred.SLT || pred === Pred.ULT) && c > 0n) {
      const minStart = signed ? rng(a.start).smin() : rng(a.start).umin();
      const limit = (signed ? (1n << BigInt(w - 1)) - 1n : M(w)) - (c - 1n);
      let maxEnd = signed ? rng(n).smax() : rng(n).umax();
      if (maxEnd > limit) maxEnd = limit;
      if (maxEnd < minStart) maxEnd = minStart;
      return ceilDiv(maxEnd - minStart, c);
    }
    if ((pred === Pred.SGT || pred === Pred.UGT) && c < 0n) {
      const stride = -c;
      const maxStart = signed ? rng(a.start).smax() : rng(a.start).umax();
      const limit = (signed ? -(1n << BigInt(w - 1)) : 0n) + (stride - 1n);
      let minEnd = signed ? rng(n).smin() : rng(n).umin();
      if (minEnd < limit) minEnd = limit;
      return maxStart < minEnd ? 0n : ceilDiv(maxStart - minEnd, stride);
    }
    return null;
  }
}

/** One direction of getRangeForAffineAR: start's range moved by step * max, or full. */
function helper(step: bigint, start: ConstantRange, max: bigint, signed: boolean, w: number): ConstantRange {
  if (step === 0n || max === 0n) return start;
  if (start.isFull()) return ConstantRange.full(w);
  const descending = signed && step < 0n;
  let abs = BigInt.asUintN(w, signed && step < 0n ? -step : step);
  if (abs === 0n) abs = 1n << BigInt(w); // |INT_MIN| read unsigned
  if (M(w) / abs < max) return ConstantRange.full(w);
  const offset = abs * max;
  const lo = start.lower;
  const hi = BigInt.asUintN(w, start.upper - 1n);
  const moved = BigInt.asUintN(w, descending ? lo - offset : hi + offset);
  if (start.contains(moved)) return ConstantRange.full(w);
  return descending ? ConstantRange.nonEmpty(moved, hi + 1n, w) : ConstantRange.nonEmpty(lo, moved + 1n, w);
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** 2^(number of low bits known zero), as a multiple. */
function lowZeros(zero: bigint, w: number): bigint {
  let n = 0;
  while (n < w && ((zero >> BigInt(n)) & 1n) === 1n) n++;
  return n >= w ? 0n : 1n << BigInt(n);
}

const tables = new WeakMap<ScalarEvolution, SCEVRanges>();

/** The ranges of `se`'s expressions (made once per ScalarEvolution, dropped with it). */
export function scevRanges(se: ScalarEvolution): SCEVRanges {
  let r = tables.get(se);
  if (r === undefined) tables.set(se, (r = new SCEVRanges(se)));
  return r;
}
