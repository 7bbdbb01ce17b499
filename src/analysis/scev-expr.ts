/**
 * Scalar evolution expressions (SCEVs) and their folding: constants, unknowns (values SCEV
 * does not look into), n-ary add and mul, unsigned division, add-recurrences
 * `{start,+,step,+,…}<loop>` (Bachmann, Wang and Zima, "Chains of recurrences", 1994; LLVM's
 * ScalarEvolution.h/.cpp getAddExpr, getMulExpr, getAddRecExpr, evaluateAtIteration), the
 * casts zext/sext/trunc and smax/umax/smin/umin.
 *
 * Invariants: every expression is uniqued by its `SCEVContext` (structurally equal means the
 * same object, so `===` is equality); all arithmetic is modulo 2^bits of the expression's
 * width, as the IR computes; operands of add/mul/max are flat (no add directly in an add) and
 * sorted (constants first, then by kind as LLVM's complexity order, then by creation);
 * folding never recurses deeper than the nesting of its inputs. An add-recurrence's operands
 * are invariant in its loop; nested loops give recurrences whose start is itself a
 * recurrence of the outer loop.
 */
import type { Loop } from './loops.js';
import { Instruction } from '../ir/instruction.js';
import { ValueKind, type Argument, type Value } from '../ir/value.js';

/** Kinds, in LLVM's complexity order (SCEVTypes.h): operands sort by it. */
export const enum SK {
  Const = 0,
  Trunc = 2,
  ZExt = 3,
  SExt = 4,
  Add = 5,
  Mul = 6,
  UDiv = 7,
  AddRec = 8,
  UMax = 9,
  SMax = 10,
  UMin = 11,
  SMin = 12,
  Unknown = 15,
}

/** No-wrap flags of add-recurrences (and adds/muls), LLVM's SCEV::NoWrapFlags. */
export const enum NW {
  None = 0,
  NW = 1,
  NUW = 2,
  NSW = 4,
}

export class SCEV {
  constructor(
    readonly kind: SK,
    readonly bits: number,
    readonly ops: readonly SCEV[],
    /** Creation order: a stable tie-break for sorting. */
    readonly id: number,
    /** Constant value (signed, normalised), for Const. */
    readonly c: bigint,
    /** The value, for Unknown. */
    readonly value: Value | null,
    /** The loop, for AddRec. */
    readonly loop: Loop | null,
    public flags: number,
  ) {}

  isConst(): boolean {
    return this.kind === SK.Const;
  }
  isZero(): boolean {
    return this.kind === SK.Const && this.c === 0n;
  }
  isOne(): boolean {
    return this.kind === SK.Const && this.c === 1n;
  }
  /** For an affine add-recurrence: its step. */
  get step(): SCEV {
    return this.ops[1];
  }
  get start(): SCEV {
    return this.ops[0];
  }
  isAffine(): boolean {
    return this.kind === SK.AddRec && this.ops.length === 2;
  }
}

const norm = (v: bigint, bits: number): bigint => BigInt.asIntN(bits, v);

function compareSCEV(a: SCEV, b: SCEV, depth = 0): number {
  if (a === b) return 0;
  if (a.kind !== b.kind) return a.kind - b.kind;
  if (a.kind === SK.Const) return a.c < b.c ? -1 : a.c > b.c ? 1 : 0;
  if (a.kind === SK.AddRec && a.loop !== b.loop) return b.loop!.depth - a.loop!.depth; // inner loops last
  if (a.kind === SK.Unknown) {
    // as LLVM's CompareValueComplexity: arguments (by position) before instructions
    const ra = a.value!.kind === ValueKind.Argument ? (a.value as Argument).index : 1e9;
    const rb = b.value!.kind === ValueKind.Argument ? (b.value as Argument).index : 1e9;
    if (ra !== rb) return ra - rb;
  }
  // as LLVM: by operand count, then operand by operand (a few levels deep), then creation
  if (a.kind !== SK.Unknown && depth < 6) {
    if (a.ops.length !== b.ops.length) return a.ops.length - b.ops.length;
    for (let k = 0; k < a.ops.length; k++) {
      const c = compareSCEV(a.ops[k], b.ops[k], depth + 1);
      if (c !== 0) return c;
    }
    if (a.bits !== b.bits) return a.bits - b.bits;
  }
  return a.id - b.id;
}

/** Uniques and folds expressions for one function. */
export class SCEVContext {
  private readonly table = new Map<string, SCEV>();
  private nextId = 0;

  private intern(kind: SK, bits: number, ops: readonly SCEV[], c: bigint, value: Value | null, loop: Loop | null, flags: number, key: string): SCEV {
    let s = this.table.get(key);
    if (s === undefined) {
      s = new SCEV(kind, bits, ops, this.nextId++, c, value, loop, flags);
      this.table.set(key, s);
    } else if (flags !== 0) {
      s.flags |= flags; // facts learned later hold for the same expression (LLVM does the same)
    }
    return s;
  }

  constant(v: bigint, bits: number): SCEV {
    const n = norm(v, bits);
    return this.intern(SK.Const, bits, [], n, null, null, 0, `c${bits}:${n}`);
  }

  private unknownIds = new Map<Value, number>();
  unknown(v: Value, bits: number): SCEV {
    let k = this.unknownIds.get(v);
    if (k === undefined) this.unknownIds.set(v, (k = this.unknownIds.size));
    return this.intern(SK.Unknown, bits, [], 0n, v, null, 0, `u${k}`);
  }

  private key(kind: SK, bits: number, ops: readonly SCEV[], extra = ''): string {
    let k = `${kind}:${bits}${extra}`;
    for (const o of ops) k += `,${o.id}`;
    return k;
  }

  negate(a: SCEV): SCEV {
    return this.mul([this.constant(-1n, a.bits), a]);
  }

  minus(a: SCEV, b: SCEV): SCEV {
    return this.add([a, this.negate(b)]);
  }

  /** Sum of `ops`, folded: constants combined, like terms collected, recurrences merged. */
  add(ops: readonly SCEV[], flags = 0): SCEV {
    const bits = ops[0].bits;
    // flatten, and collect terms as coefficient * rest
    let cst = 0n;
    const terms = new Map<SCEV, bigint>();
    const order: SCEV[] = [];
    const addTerm = (t: SCEV, k: bigint) => {
      if (t.kind === SK.Const) {
        cst += t.c * k;
        return;
      }
      let coef = k;
      let rest = t;
      if (t.kind === SK.Mul && t.ops[0].kind === SK.Const) {
        coef = k * t.ops[0].c;
        rest = t.ops.length === 2 ? t.ops[1] : this.mul(t.ops.slice(1));
      }
      const prev = terms.get(rest);
      if (prev === undefined) order.push(rest);
      terms.set(rest, norm((prev ?? 0n) + coef, bits));
    };
    for (const o of ops) {
      if (o.kind === SK.Add) for (const p of o.ops) addTerm(p, 1n);
      else addTerm(o, 1n);
    }
    // recurrences of one loop add operand-wise; invariants fold into the innermost start
    const recs: SCEV[] = [];
    const others: SCEV[] = [];
    for (const t of order) {
      const k = terms.get(t)!;
      if (k === 0n) continue;
      const term = k === 1n ? t : this.mul([this.constant(k, bits), t]);
      if (term.kind === SK.AddRec) recs.push(term);
      else others.push(term);
    }
    if (cst !== 0n) others.push(this.constant(cst, bits));
    if (recs.length > 0) {
      // the innermost recurrence absorbs everything invariant in its loop
      recs.sort((a, b) => b.loop!.depth - a.loop!.depth);
      const r = recs[0];
      const same = recs.filter((x) => x.loop === r.loop);
      const rest: SCEV[] = [];
      const kept: SCEV[] = [];
      for (const x of [...recs.filter((y) => y.loop !== r.loop), ...others]) (this.isInvariantIn(x, r.loop!) ? rest : kept).push(x);
      if (kept.length > 0) {
        // terms that vary in the loop stay beside the recurrence
        const folded = this.add([...same, ...rest]);
        const all = [...kept, folded].sort((x, y) => compareSCEV(x, y));
        return this.intern(SK.Add, bits, all, 0n, null, null, 0, this.key(SK.Add, bits, all));
      }
      if (same.length > 1 || rest.length > 0) {
        const n = Math.max(...same.map((x) => x.ops.length));
        const nops: SCEV[] = [];
        for (let i = 0; i < n; i++) {
          const parts = same.filter((x) => i < x.ops.length).map((x) => x.ops[i]);
          if (i === 0) parts.push(...rest);
          nops.push(parts.length === 1 ? parts[0] : this.add(parts));
        }
        return this.addRec(nops, r.loop!, same.length === 1 && rest.every((x) => x.kind === SK.Const) ? shiftedFlags(same[0], rest.reduce((t, x) => t + x.c, 0n)) : 0);
      }
    }
    const all = [...others, ...recs];
    if (all.length === 0) return this.constant(0n, bits);
    if (all.length === 1) return all[0];
    all.sort((x, y) => compareSCEV(x, y));
    return this.intern(SK.Add, bits, all, 0n, null, null, flags, this.key(SK.Add, bits, all));
  }

  /** Product of `ops`, folded: constants multiplied, a constant distributed over an add. */
  mul(ops: readonly SCEV[], flags = 0): SCEV {
    const bits = ops[0].bits;
    let cst = 1n;
    const rest: SCEV[] = [];
    for (const o of ops) {
      if (o.kind === SK.Const) cst = norm(cst * o.c, bits);
      else if (o.kind === SK.Mul) {
        for (const p of o.ops) {
          if (p.kind === SK.Const) cst = norm(cst * p.c, bits);
          else rest.push(p);
        }
      } else rest.push(o);
    }
    if (cst === 0n || rest.length === 0) return this.constant(cst, bits);
    // recurrences of one loop multiply into one (LLVM's getMulExpr on two add-recurrences)
    for (let i = 0; i < rest.length; i++) {
      if (rest[i].kind !== SK.AddRec) continue;
      for (let j = i + 1; j < rest.length; j++) {
        const a = rest[i];
        const b = rest[j];
        if (b.kind !== SK.AddRec || b.loop !== a.loop || a.ops.length + b.ops.length - 1 > MAX_PRODUCT_OPS) continue;
        const p = this.recProduct(a, b);
        return this.mul([this.constant(cst, bits), ...rest.filter((_, k) => k !== i && k !== j), p]);
      }
    }
    // a recurrence times an invariant: each operand times it (the innermost recurrence, so
    // that those of loops around it count as invariant)
    let ri = -1;
    for (let k = 0; k < rest.length; k++) if (rest[k].kind === SK.AddRec && (ri < 0 || rest[k].loop!.depth > rest[ri].loop!.depth)) ri = k;
    if (ri >= 0) {
      const r = rest[ri];
      const others = rest.filter((_, i) => i !== ri);
      if (others.every((o) => this.isInvariantIn(o, r.loop!))) {
        const factor = [this.constant(cst, bits), ...others];
        return this.addRec(
          r.ops.map((o) => this.mul([o, ...factor])),
          r.loop!,
          0,
        );
      }
    }
    if (rest.length === 1) {
      if (cst === 1n) return rest[0];
      // distribute a constant over an add (LLVM does, so that like terms meet)
      if (rest[0].kind === SK.Add) return this.add(rest[0].ops.map((o) => this.mul([this.constant(cst, bits), o])));
    }
    // A * (c + B) = c*A + A*B: keeps `x + x*(n - 1)` from exit values foldable to `x*n` (A a
    // product of any length, as an exit value of a nest of loops is; one such factor only,
    // so the result has two terms and distributing never multiplies out a product of sums)
    if (rest.length >= 2) {
      const isCB = (x: SCEV) => x.kind === SK.Add && x.ops.length === 2 && x.ops[0].kind === SK.Const;
      const ai = rest.findIndex(isCB);
      if (ai >= 0 && rest.filter(isCB).length === 1) {
        const a = rest[ai];
        const other = this.mul([this.constant(cst, bits), ...rest.filter((_, i) => i !== ai)]);
        return this.add([this.mul([a.ops[0], other]), this.mul([a.ops[1], other])]);
      }
    }
    const all = cst === 1n ? rest : [this.constant(cst, bits), ...rest];
    if (all.length === 1) return all[0];
    all.sort((x, y) => compareSCEV(x, y));
    return this.intern(SK.Mul, bits, all, 0n, null, null, flags, this.key(SK.Mul, bits, all));
  }

  /**
   * {a0,+,a1,…}<L> * {b0,+,b1,…}<L>: as polynomials in the binomial basis C(i, k) of the
   * iteration i, C(i,k)·C(i,j) = Σ_m C(m,k)·C(k,m-j)·C(i,m) for max(k,j) ≤ m ≤ k+j (count the
   * ways an m-set splits into a k-set and a j-set covering it), so operand m of the product
   * is Σ C(m,k)·C(k,m-j)·a_k·b_j; exact mod 2^bits as an identity between integer
   * polynomials.
   */
  private recProduct(a: SCEV, b: SCEV): SCEV {
    const bits = a.bits;
    const n = a.ops.length + b.ops.length - 1;
    const ops: SCEV[] = [];
    for (let m = 0; m < n; m++) {
      const terms: SCEV[] = [];
      for (let k = 0; k < a.ops.length; k++) {
        for (let j = 0; j < b.ops.length; j++) {
          if (m < k || m < j || m > k + j) continue;
          const coef = choose(m, k) * choose(k, m - j);
          terms.push(this.mul([this.constant(coef, bits), a.ops[k], b.ops[j]]));
        }
      }
      ops.push(terms.length === 0 ? this.constant(0n, bits) : this.add(terms));
    }
    return this.addRec(ops, a.loop!, 0);
  }

  udiv(a: SCEV, b: SCEV): SCEV {
    if (b.isOne()) return a;
    if (a.kind === SK.Const && b.kind === SK.Const && b.c !== 0n) {
      return this.constant(BigInt.asUintN(a.bits, a.c) / BigInt.asUintN(b.bits, b.c), a.bits);
    }
    return this.intern(SK.UDiv, a.bits, [a, b], 0n, null, null, 0, this.key(SK.UDiv, a.bits, [a, b]));
  }

  /** `{ops[0],+,ops[1],+,…}<loop>`; a zero last step is dropped. */
  addRec(ops: readonly SCEV[], loop: Loop, flags: number): SCEV {
    let n = ops.length;
    while (n > 1 && ops[n - 1].isZero()) n--;
    if (n === 1) return ops[0];
    const o = ops.slice(0, n);
    // increasing without signed wrap from a non-negative start: no unsigned wrap either
    if (flags & NW.NSW && n === 2 && o[0].kind === SK.Const && o[0].c >= 0n && o[1].kind === SK.Const && o[1].c > 0n) flags |= NW.NUW;
    return this.intern(SK.AddRec, o[0].bits, o, 0n, null, loop, flags, this.key(SK.AddRec, o[0].bits, o, `@${loop.index}`));
  }

  /** max/min of two expressions: operands of the same kind flattened, constants folded, the kind's extremes absorbed (umin(x, 0) = 0, umin(x, -1) = x, and so on). */
  private max(kind: SK.SMax | SK.UMax | SK.SMin | SK.UMin, a: SCEV, b: SCEV): SCEV {
    if (a === b) return a;
    const bits = a.bits;
    const isMax = kind === SK.SMax || kind === SK.UMax;
    const signed = kind === SK.SMax || kind === SK.SMin;
    const val = (x: SCEV) => (signed ? x.c : BigInt.asUintN(bits, x.c));
    const smin = -(1n << BigInt(bits - 1));
    const [lo, hi] = signed ? [smin, -smin - 1n] : [0n, -1n];
    let cst: SCEV | null = null;
    const rest: SCEV[] = [];
    for (const o of [...(a.kind === kind ? a.ops : [a]), ...(b.kind === kind ? b.ops : [b])]) {
      if (o.kind === SK.Const) {
        if (cst === null || (isMax ? val(o) > val(cst) : val(o) < val(cst))) cst = o;
      } else if (!rest.includes(o)) rest.push(o);
    }
    if (cst !== null) {
      // the extreme that wins absorbs everything; the one that loses is dropped
      if (cst.c === (isMax ? hi : lo)) return cst;
      if (cst.c !== (isMax ? lo : hi)) rest.push(cst);
    }
    if (rest.length === 0) return cst!;
    if (rest.length === 1) return rest[0];
    rest.sort((x, y) => compareSCEV(x, y));
    return this.intern(kind, bits, rest, 0n, null, null, 0, this.key(kind, bits, rest));
  }
  smax(a: SCEV, b: SCEV): SCEV {
    return this.max(SK.SMax, a, b);
  }
  umax(a: SCEV, b: SCEV): SCEV {
    return this.max(SK.UMax, a, b);
  }
  smin(a: SCEV, b: SCEV): SCEV {
    return this.max(SK.SMin, a, b);
  }
  umin(a: SCEV, b: SCEV): SCEV {
    return this.max(SK.UMin, a, b);
  }

  zext(a: SCEV, bits: number): SCEV {
    if (bits === a.bits) return a;
    if (a.kind === SK.Const) return this.constant(BigInt.asUintN(a.bits, a.c), bits);
    if (a.kind === SK.ZExt) return this.zext(a.ops[0], bits);
    // a recurrence that never wraps unsigned extends operand-wise (its values all fit)
    if (a.kind === SK.AddRec && a.isAffine() && (a.flags & NW.NUW || nonNegativeNSW(a)) && a.step.kind === SK.Const && a.step.c >= 0n) {
      // and its wide values stay below 2^(a.bits) <= the wide signed maximum: no signed wrap
      return this.addRec([this.zext(a.start, bits), this.zext(a.step, bits)], a.loop!, NW.NUW | NW.NSW);
    }
    return this.intern(SK.ZExt, bits, [a], 0n, null, null, 0, this.key(SK.ZExt, bits, [a]));
  }

  sext(a: SCEV, bits: number): SCEV {
    if (bits === a.bits) return a;
    if (a.kind === SK.Const) return this.constant(a.c, bits);
    if (a.kind === SK.SExt) return this.sext(a.ops[0], bits);
    if (a.kind === SK.AddRec && a.isAffine() && a.flags & NW.NSW && a.step.kind === SK.Const) {
      return this.addRec([this.sext(a.start, bits), this.constant(a.step.c, bits)], a.loop!, NW.NSW);
    }
    return this.intern(SK.SExt, bits, [a], 0n, null, null, 0, this.key(SK.SExt, bits, [a]));
  }

  trunc(a: SCEV, bits: number): SCEV {
    if (bits === a.bits) return a;
    if (a.kind === SK.Const) return this.constant(a.c, bits);
    if ((a.kind === SK.ZExt || a.kind === SK.SExt) && a.ops[0].bits === bits) return a.ops[0];
    // truncation distributes over add, mul and recurrences (arithmetic mod 2^bits)
    if (a.kind === SK.Add) return this.add(a.ops.map((o) => this.trunc(o, bits)));
    if (a.kind === SK.Mul) return this.mul(a.ops.map((o) => this.trunc(o, bits)));
    if (a.kind === SK.AddRec) return this.addRec(a.ops.map((o) => this.trunc(o, bits)), a.loop!, 0);
    return this.intern(SK.Trunc, bits, [a], 0n, null, null, 0, this.key(SK.Trunc, bits, [a]));
  }

  /** No add-recurrence of `loop` (or of a loop inside it) and no unknown defined in it. */
  isInvariantIn(s: SCEV, loop: Loop): boolean {
    const stack = [s];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x.kind === SK.AddRec && loop.containsLoop(x.loop!)) return false;
      if (x.kind === SK.Unknown && x.value instanceof Instruction && x.value.parent !== null && loop.contains(x.value.parent.id)) return false;
      for (const o of x.ops) stack.push(o);
    }
    return true;
  }

  /**
   * The value of recurrence `r` after `it` iterations: Σ ops[k] * C(it, k). Affine ones are
   * exact mod 2^bits; for higher orders C(it, k) is computed as LLVM's BinomialCoefficient
   * does, in a wider type so the division by k! is exact (declined past order 6 or 128 bits).
   */
  evaluateAtIteration(r: SCEV, it: SCEV): SCEV | null {
    const bits = r.bits;
    const terms: SCEV[] = [r.ops[0]];
    for (let k = 1; k < r.ops.length; k++) {
      const c = this.binomial(it, k);
      if (c === null) return null;
      terms.push(this.mul([r.ops[k], c]));
    }
    return bits === it.bits ? this.add(terms) : null;
  }

  private binomial(it: SCEV, k: number): SCEV | null {
    if (k === 1) return it;
    const bits = it.bits;
    // k! = 2^t * odd; the product of k consecutive numbers is computed in bits + t bits,
    // divided by 2^t exactly, truncated, then multiplied by the inverse of odd mod 2^bits
    let fact = 1n;
    for (let i = 2n; i <= BigInt(k); i++) fact *= i;
    let t = 0;
    let odd = fact;
    while ((odd & 1n) === 0n) {
      odd >>= 1n;
      t++;
    }
    // any width of at least bits + t is exact; LLVM takes exactly that. An iteration count
    // zero-extended from w bits with k*w ≤ bits needs none: the product of k consecutive
    // numbers below 2^w is below 2^(k*w) (and it is 0 when it < k, a factor being 0)
    const narrow = it.kind === SK.ZExt && k * it.ops[0].bits <= bits;
    const wide = narrow ? bits : bits + t;
    if (k > 6 || wide > 128) return null;
    const prod: SCEV[] = [];
    for (let i = 0; i < k; i++) prod.push(this.zext(this.add([it, this.constant(BigInt(-i), bits)]), wide));
    const divided = this.trunc(this.udiv(this.mul(prod), this.constant(1n << BigInt(t), wide)), bits);
    const inv = modInverse(odd, bits);
    return inv === 1n ? divided : this.mul([this.constant(inv, bits), divided]);
  }
}

/**
 * An increasing recurrence without signed wrap from a non-negative start stays in
 * [0, signed max]: it does not wrap unsigned either (LLVM reaches this through ranges).
 */
function nonNegativeNSW(a: SCEV): boolean {
  return (a.flags & NW.NSW) !== 0 && a.start.kind === SK.Const && a.start.c >= 0n && a.step.kind === SK.Const && a.step.c > 0n;
}

/**
 * Flags of `r + d` for an affine recurrence r = {s,+,c} with constant s and c, d constant,
 * (d the exact sum of the constants added): without signed wrap r is monotone, increasing
 * values in [s, smax] shifted down by d ≤ 0 stay in range when s + d does not wrap
 * (decreasing ones in [smin, s] shifted up likewise); a result that cannot wrap signed
 * and increases from a non-negative start cannot wrap unsigned. (A narrow form of LLVM's
 * StrengthenNoWrapFlags on getAddExpr, which uses ranges.)
 */
function shiftedFlags(r: SCEV, d: bigint): number {
  if (!r.isAffine() || !(r.flags & NW.NSW) || r.start.kind !== SK.Const || r.step.kind !== SK.Const) return 0;
  const min = -(1n << BigInt(r.bits - 1));
  const max = (1n << BigInt(r.bits - 1)) - 1n;
  const exact = r.start.c + d; // the new start without wrapping
  const c = r.step.c;
  const ok = c > 0n ? d <= 0n && exact >= min : c < 0n ? d >= 0n && exact <= max : false;
  if (!ok) return 0;
  return c > 0n && exact >= 0n ? NW.NSW | NW.NUW : NW.NSW;
}

/** Operands a product of recurrences may have (LLVM caps it too): order 4 at most. */
const MAX_PRODUCT_OPS = 5;

function choose(n: number, k: number): bigint {
  let r = 1n;
  for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
  return r;
}

/** x^-1 mod 2^bits for odd x (Newton's iteration). */
function modInverse(x: bigint, bits: number): bigint {
  const m = (1n << BigInt(bits)) - 1n;
  let y = x;
  for (let i = 0; i < 7; i++) y = (y * (2n - x * y)) & m;
  return y;
}
