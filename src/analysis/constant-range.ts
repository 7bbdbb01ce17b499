/**
 * Constant ranges: the set of w-bit integers [lower, upper) read around the circle of 2^w
 * values, so a range may wrap (LLVM's llvm/IR/ConstantRange.h/.cpp: the same representation,
 * the same operations and the same choices between the two candidate results when a union or
 * intersection is not a range, so that our ranges print as opt-19's do).
 *
 * Invariants: lower and upper are unsigned in [0, 2^w); lower === upper means the full set
 * when both are 2^w - 1 and the empty set when both are 0 (LLVM's convention), and no other
 * range has lower === upper. Every operation over-approximates: the result holds every value
 * the operation gives on members of its inputs.
 */

const M = (w: number): bigint => (1n << BigInt(w)) - 1n;
const sgn = (v: bigint, w: number): bigint => BigInt.asIntN(w, v);

export type RangeType = 'smallest' | 'unsigned' | 'signed';

export class ConstantRange {
  private constructor(
    readonly bits: number,
    readonly lower: bigint,
    readonly upper: bigint,
  ) {}

  static full(w: number): ConstantRange {
    return new ConstantRange(w, M(w), M(w));
  }
  static empty(w: number): ConstantRange {
    return new ConstantRange(w, 0n, 0n);
  }
  static single(v: bigint, w: number): ConstantRange {
    const x = BigInt.asUintN(w, v);
    return new ConstantRange(w, x, BigInt.asUintN(w, x + 1n));
  }
  /** [lo, hi) with lo !== hi (mod 2^w), or the full/empty set when both are max/min. */
  static of(lo: bigint, hi: bigint, w: number): ConstantRange {
    const l = BigInt.asUintN(w, lo);
    const u = BigInt.asUintN(w, hi);
    if (l === u && l !== 0n && l !== M(w)) throw new Error(`ConstantRange [${l},${u}) is neither full nor empty`);
    return new ConstantRange(w, l, u);
  }
  /** [lo, hi), the full set when lo === hi (LLVM's getNonEmpty). */
  static nonEmpty(lo: bigint, hi: bigint, w: number): ConstantRange {
    return BigInt.asUintN(w, lo) === BigInt.asUintN(w, hi) ? ConstantRange.full(w) : ConstantRange.of(lo, hi, w);
  }

  isFull(): boolean {
    return this.lower === this.upper && this.lower === M(this.bits);
  }
  isEmpty(): boolean {
    return this.lower === this.upper && this.lower === 0n;
  }
  isUpperWrapped(): boolean {
    return this.lower > this.upper;
  }
  isWrapped(): boolean {
    return this.lower > this.upper && this.upper !== 0n;
  }
  isSignWrapped(): boolean {
    const w = this.bits;
    return sgn(this.lower, w) > sgn(this.upper, w) && this.upper !== 1n << BigInt(w - 1);
  }
  private isUpperSignWrapped(): boolean {
    return sgn(this.lower, this.bits) > sgn(this.upper, this.bits);
  }
  /** The single member, or null. */
  singleElement(): bigint | null {
    return BigInt.asUintN(this.bits, this.lower + 1n) === this.upper ? this.lower : null;
  }
  contains(v: bigint): boolean {
    const x = BigInt.asUintN(this.bits, v);
    if (this.lower === this.upper) return this.isFull();
    return this.isUpperWrapped() ? this.lower <= x || x < this.upper : this.lower <= x && x < this.upper;
  }
  /** Number of members (2^w for the full set). */
  size(): bigint {
    if (this.isFull()) return 1n << BigInt(this.bits);
    return BigInt.asUintN(this.bits, this.upper - this.lower);
  }

  umin(): bigint {
    return this.isFull() || this.isWrapped() ? 0n : this.lower;
  }
  umax(): bigint {
    return this.isFull() || this.isUpperWrapped() ? M(this.bits) : BigInt.asUintN(this.bits, this.upper - 1n);
  }
  smin(): bigint {
    const w = this.bits;
    return this.isFull() || this.isSignWrapped() ? -(1n << BigInt(w - 1)) : sgn(this.lower, w);
  }
  smax(): bigint {
    const w = this.bits;
    return this.isFull() || this.isUpperSignWrapped() ? (1n << BigInt(w - 1)) - 1n : sgn(this.upper - 1n, w);
  }

  /** `[lo,hi)` with both ends printed signed, as LLVM's ConstantRange::print. */
  toString(): string {
    if (this.isFull()) return 'full-set';
    if (this.isEmpty()) return 'empty-set';
    return `[${sgn(this.lower, this.bits)},${sgn(this.upper, this.bits)})`;
  }

  private preferred(a: ConstantRange, b: ConstantRange, t: RangeType): ConstantRange {
    if (t === 'unsigned') {
      if (!a.isWrapped() && b.isWrapped()) return a;
      if (a.isWrapped() && !b.isWrapped()) return b;
    } else if (t === 'signed') {
      if (!a.isSignWrapped() && b.isSignWrapped()) return a;
      if (a.isSignWrapped() && !b.isSignWrapped()) return b;
    }
    return b.size() > a.size() ? a : b;
  }

  private mk(lo: bigint, hi: bigint): ConstantRange {
    return ConstantRange.of(lo, hi, this.bits);
  }

  intersectWith(cr: ConstantRange, t: RangeType = 'smallest'): ConstantRange {
    if (this.isEmpty() || cr.isFull()) return this;
    if (cr.isEmpty() || this.isFull()) return cr;
    if (!this.isUpperWrapped() && cr.isUpperWrapped()) return cr.intersectWith(this, t);
    const [L, U, CL, CU] = [this.lower, this.upper, cr.lower, cr.upper];
    if (!this.isUpperWrapped() && !cr.isUpperWrapped()) {
      if (L < CL) {
        if (U <= CL) return ConstantRange.empty(this.bits);
        if (U < CU) return this.mk(CL, U);
        return cr;
      }
      if (U < CU) return this;
      if (L < CU) return this.mk(L, CU);
      return ConstantRange.empty(this.bits);
    }
    if (this.isUpperWrapped() && !cr.isUpperWrapped()) {
      if (CL < U) {
        if (CU < U) return cr;
        if (CU <= L) return this.mk(CL, U);
        return this.preferred(this, cr, t);
      }
      if (CL < L) {
        if (CU <= L) return ConstantRange.empty(this.bits);
        return this.mk(L, CU);
      }
      return cr;
    }
    if (CU < U) {
      if (CL < U) return this.preferred(this, cr, t);
      if (CL < L) return this.mk(L, CU);
      return cr;
    }
    if (CU <= L) {
      if (CL < L) return this;
      return this.mk(CL, U);
    }
    return this.preferred(this, cr, t);
  }

  unionWith(cr: ConstantRange, t: RangeType = 'smallest'): ConstantRange {
    const w = this.bits;
    if (this.isFull() || cr.isEmpty()) return this;
    if (cr.isFull() || this.isEmpty()) return cr;
    if (!this.isUpperWrapped() && cr.isUpperWrapped()) return cr.unionWith(this, t);
    const [L, U, CL, CU] = [this.lower, this.upper, cr.lower, cr.upper];
    if (!this.isUpperWrapped() && !cr.isUpperWrapped()) {
      if (CU < L || U < CL) return this.preferred(this.mk(L, CU), this.mk(CL, U), t);
      const l = CL < L ? CL : L;
      const u = BigInt.asUintN(w, CU - 1n) > BigInt.asUintN(w, U - 1n) ? CU : U;
      if (l === 0n && u === 0n) return ConstantRange.full(w);
      return this.mk(l, u);
    }
    if (!cr.isUpperWrapped()) {
      if (CU <= U || CL >= L) return this;
      if (CL <= U && L <= CU) return ConstantRange.full(w);
      if (U < CL && CU < L) return this.preferred(this.mk(L, CU), this.mk(CL, U), t);
      if (U < CL && L <= CU) return this.mk(CL, U);
      return this.mk(L, CU);
    }
    if (CL <= U || L <= CU) return ConstantRange.full(w);
    return this.mk(CL < L ? CL : L, CU > U ? CU : U);
  }

  add(o: ConstantRange): ConstantRange {
    const w = this.bits;
    if (this.isEmpty() || o.isEmpty()) return ConstantRange.empty(w);
    if (this.isFull() || o.isFull()) return ConstantRange.full(w);
    const lo = BigInt.asUintN(w, this.lower + o.lower);
    const hi = BigInt.asUintN(w, this.upper + o.upper - 1n);
    if (lo === hi) return ConstantRange.full(w);
    const x = this.mk(lo, hi);
    return x.size() < this.size() || x.size() < o.size() ? ConstantRange.full(w) : x;
  }

  sub(o: ConstantRange): ConstantRange {
    const w = this.bits;
    if (this.isEmpty() || o.isEmpty()) return ConstantRange.empty(w);
    if (this.isFull() || o.isFull()) return ConstantRange.full(w);
    const lo = BigInt.asUintN(w, this.lower - o.upper + 1n);
    const hi = BigInt.asUintN(w, this.upper - o.lower);
    if (lo === hi) return ConstantRange.full(w);
    const x = this.mk(lo, hi);
    return x.size() < this.size() || x.size() < o.size() ? ConstantRange.full(w) : x;
  }

  /** add, narrowed by the saturating sums where the addition is known not to wrap. */
  addWithNoWrap(o: ConstantRange, nuw: boolean, nsw: boolean, t: RangeType): ConstantRange {
    const w = this.bits;
    if (this.isEmpty() || o.isEmpty()) return ConstantRange.empty(w);
    if (this.isFull() && o.isFull()) return ConstantRange.full(w);
    let r = this.add(o);
    if (nsw) {
      const clamp = (v: bigint) => (v < -(1n << BigInt(w - 1)) ? -(1n << BigInt(w - 1)) : v > (1n << BigInt(w - 1)) - 1n ? (1n << BigInt(w - 1)) - 1n : v);
      r = r.intersectWith(ConstantRange.nonEmpty(clamp(this.smin() + o.smin()), clamp(this.smax() + o.smax()) + 1n, w), t);
    }
    if (nuw) {
      const clamp = (v: bigint) => (v > M(w) ? M(w) : v);
      r = r.intersectWith(ConstantRange.nonEmpty(clamp(this.umin() + o.umin()), clamp(this.umax() + o.umax()) + 1n, w), t);
    }
    return r;
  }

  multiply(o: ConstantRange): ConstantRange {
    const w = this.bits;
    if (this.isEmpty() || o.isEmpty()) return ConstantRange.empty(w);
    for (const [a, b] of [[this, o], [o, this]] as const) {
      const c = a.singleElement();
      if (c === 1n) return b;
      if (c === M(w)) return ConstantRange.single(0n, w).sub(b);
    }
    const ur = ConstantRange.wide(this.umin() * o.umin(), this.umax() * o.umax() + 1n, 2 * w).truncate(w);
    if (!ur.isUpperWrapped() && (ur.upper < 1n << BigInt(w - 1) || ur.upper === 1n << BigInt(w - 1))) return ur;
    const ps = [this.smin() * o.smin(), this.smin() * o.smax(), this.smax() * o.smin(), this.smax() * o.smax()];
    const lo = ps.reduce((a, b) => (b < a ? b : a));
    const hi = ps.reduce((a, b) => (b > a ? b : a));
    const sr = ConstantRange.wide(lo, hi + 1n, 2 * w).truncate(w);
    return ur.size() < sr.size() ? ur : sr;
  }

  private static wide(lo: bigint, hi: bigint, w: number): ConstantRange {
    return ConstantRange.nonEmpty(lo, hi, w);
  }

  udiv(o: ConstantRange): ConstantRange {
    const w = this.bits;
    if (this.isEmpty() || o.isEmpty() || o.umax() === 0n) return ConstantRange.empty(w);
    const lo = this.umin() / o.umax();
    let rmin = o.umin();
    if (rmin === 0n) rmin = o.upper === 1n ? o.lower : 1n;
    return ConstantRange.nonEmpty(lo, this.umax() / rmin + 1n, w);
  }

  zeroExtend(to: number): ConstantRange {
    const w = this.bits;
    if (this.isEmpty()) return ConstantRange.empty(to);
    if (this.isFull() || this.isUpperWrapped()) return ConstantRange.of(this.upper === 0n ? this.lower : 0n, 1n << BigInt(w), to);
    return ConstantRange.of(this.lower, this.upper, to);
  }

  signExtend(to: number): ConstantRange {
    const w = this.bits;
    if (this.isEmpty()) return ConstantRange.empty(to);
    if (this.upper === 1n << BigInt(w - 1)) return ConstantRange.of(sgn(this.lower, w), this.upper, to);
    if (this.isFull() || this.isSignWrapped()) return ConstantRange.of(-(1n << BigInt(w - 1)), 1n << BigInt(w - 1), to);
    return ConstantRange.of(sgn(this.lower, w), sgn(this.upper, w), to);
  }

  truncate(to: number): ConstantRange {
    if (this.isEmpty()) return ConstantRange.empty(to);
    if (this.isFull()) return ConstantRange.full(to);
    let lo = this.lower;
    let up = this.upper;
    let union = ConstantRange.empty(to);
    const active = (x: bigint) => (x === 0n ? 0 : x.toString(2).length);
    if (this.isUpperWrapped()) {
      if (active(up) > to || BigInt.asUintN(to, up) === M(to)) return ConstantRange.full(to);
      union = ConstantRange.of(M(to), up, to);
      up = M(this.bits);
      if (lo === up) return union;
    }
    if (active(lo) > to) {
      const adjust = lo & ~M(to);
      lo -= adjust;
      up -= adjust;
    }
    const uw = active(up);
    if (uw <= to) return ConstantRange.nonEmptyOrEmpty(lo, up, to).unionWith(union);
    if (uw === to + 1) {
      up &= ~(1n << BigInt(to));
      if (up < lo) return ConstantRange.nonEmptyOrEmpty(lo, up, to).unionWith(union);
    }
    return ConstantRange.full(to);
  }

  /** [lo, hi) from a truncation (LLVM builds these with its asserting constructor: lo !== hi). */
  private static nonEmptyOrEmpty(lo: bigint, hi: bigint, w: number): ConstantRange {
    return lo === hi ? ConstantRange.empty(w) : ConstantRange.of(lo, hi, w);
  }

  umaxWith(o: ConstantRange): ConstantRange {
    return this.minMax(o, false, true);
  }
  smaxWith(o: ConstantRange): ConstantRange {
    return this.minMax(o, true, true);
  }
  uminWith(o: ConstantRange): ConstantRange {
    return this.minMax(o, false, false);
  }
  sminWith(o: ConstantRange): ConstantRange {
    return this.minMax(o, true, false);
  }

  private minMax(o: ConstantRange, signed: boolean, max: boolean): ConstantRange {
    const w = this.bits;
    if (this.isEmpty() || o.isEmpty()) return ConstantRange.empty(w);
    const pick = (a: bigint, b: bigint) => (max ? (a > b ? a : b) : a < b ? a : b);
    const lo = signed ? pick(this.smin(), o.smin()) : pick(this.umin(), o.umin());
    const hi = signed ? pick(this.smax(), o.smax()) : pick(this.umax(), o.umax());
    const res = ConstantRange.nonEmpty(lo, hi + 1n, w);
    const t: RangeType = signed ? 'signed' : 'unsigned';
    const wrapped = signed ? this.isUpperSignWrapped() || o.isUpperSignWrapped() : this.isUpperWrapped() || o.isUpperWrapped();
    return wrapped ? res.intersectWith(this.unionWith(o, t), t) : res;
  }
}
