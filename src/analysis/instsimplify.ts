/**
 * Instruction simplification and constant folding, after LLVM's InstructionSimplify.cpp
 * and ConstantFolding.cpp: pure functions that, given an instruction (or an opcode and
 * operands), return an EXISTING simpler value or a constant that it is equal to.
 *
 * Invariants:
 *  - Nothing here mutates IR or creates instructions; only interned constants are made.
 *  - A returned value is either a constant or one of the inputs' operands (or their
 *    operands), which already dominate the instruction — so a caller may replace every
 *    use of the instruction with it. (Phis: see simplifyPhiValues.)
 *  - Folding follows LLVM's semantics exactly: integers wrap at their width (BigInt, any
 *    width); a result that `nsw`/`nuw`/`exact`/`disjoint`/`nneg` would make poison folds to
 *    poison, never to the wrapped value; division or remainder by zero and INT_MIN / -1
 *    (immediate UB) are never folded; shifts by >= the width give poison; float folding is
 *    IEEE double, and single precision via Math.fround (double rounding is innocuous for
 *    + - * / of floats: 53 >= 2*24+2). Results that would be NaN are not folded (LLVM's
 *    folded NaN is positive where x86 makes -nan, and printf shows the difference).
 *  - `undef` is refined to a convenient value only where LLVM does; poison propagates
 *    through arithmetic.
 *
 * The SysY frontend folds on the fly with simplifyBinOp / simplifyICmp / simplifyCast /
 * simplifySelect, which need no Instruction object.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import {
  Constant,
  ConstantAggregate,
  ConstantExpr,
  ConstantFP,
  ConstantInt,
  ConstantNull,
  ConstantString,
  PoisonValue,
  UndefValue,
  nullValue,
} from '../ir/constants.js';
import type { Function, GlobalVariable } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { DominatorTree } from './dominators.js';
import { signedMax, signedMin, unsignedMax } from '../util/apint.js';
import { allocSize, storeSize, structLayout } from '../ir/layout.js';
import { Flag, Opcode, Pred, isBinaryOp, isCastOp, isCommutative, swappedPred } from '../ir/opcodes.js';
import { gepStepType, Type, TypeKind, i1 } from '../ir/types.js';
import { Argument, Value, ValueKind } from '../ir/value.js';
import { unreachable } from '../util/assert.js';

// ---- small helpers ------------------------------------------------------------------

const isInst = (v: Value): v is Instruction => v.kind === ValueKind.Instruction;
const isCInt = (v: Value): v is ConstantInt => v.kind === ValueKind.ConstantInt;
const isCFP = (v: Value): v is ConstantFP => v.kind === ValueKind.ConstantFP;
const isPoison = (v: Value): boolean => v.kind === ValueKind.Poison;
const isUndef = (v: Value): boolean => v.kind === ValueKind.Undef;
const isUndefOrPoison = (v: Value): boolean => v.kind === ValueKind.Undef || v.kind === ValueKind.Poison;

function cint(t: Type, v: bigint): ConstantInt {
  return ConstantInt.get(t, v);
}
function poison(t: Type): Constant {
  return PoisonValue.get(t);
}
/** Whether `t` is a scalar type we fold floats of (float, double). */
function isFoldableFP(t: Type): boolean {
  return t.kind === TypeKind.Float || t.kind === TypeKind.Double;
}
function isIntOrIntVector(t: Type): boolean {
  return t.kind === TypeKind.Int;
}
/** Zero of an integer type, or null for non-integers. */
function zeroOf(t: Type): ConstantInt {
  return cint(t, 0n);
}
function isZeroInt(v: Value): boolean {
  return isCInt(v) && v.num === 0;
}
function isOneInt(v: Value): boolean {
  return isCInt(v) && v.num === (v.type.bits === 1 ? -1 : 1);
}
function isAllOnesInt(v: Value): boolean {
  return isCInt(v) && v.num === -1;
}
/** `x` is `xor y, -1` (bitwise not): returns y, else null. */
function matchNot(x: Value): Value | null {
  if (isInst(x) && x.op === Opcode.Xor && isAllOnesInt(x.ops[1].value)) return x.ops[0].value;
  return null;
}
/** `x` is `sub 0, y`: returns y, else null. */
function matchNeg(x: Value): Value | null {
  if (isInst(x) && x.op === Opcode.Sub && isZeroInt(x.ops[0].value)) return x.ops[1].value;
  return null;
}

/** The flags that make an instruction produce poison instead of a wrapped value. */
export const POISON_FLAGS = Flag.NSW | Flag.NUW | Flag.Exact | Flag.Disjoint | Flag.NNeg | Flag.InBounds | Flag.NUSW;

// ---- integer constant folding -------------------------------------------------------

/**
 * Folds an integer binary operation on constants of width `w` (signed, normalised bigints).
 * Returns the signed result, 'poison', or null when the operation is immediate UB
 * (division by zero, INT_MIN / -1) and must not be folded.
 */
export function foldIntBinary(op: Opcode, w: number, a: bigint, b: bigint, flags = 0): bigint | 'poison' | null {
  const W = BigInt(w);
  switch (op) {
    case Opcode.Add: {
      const r = a + b;
      if (flags & Flag.NSW && BigInt.asIntN(w, r) !== r) return 'poison';
      if (flags & Flag.NUW && BigInt.asUintN(w, a) + BigInt.asUintN(w, b) > unsignedMax(w)) return 'poison';
      return BigInt.asIntN(w, r);
    }
    case Opcode.Sub: {
      const r = a - b;
      if (flags & Flag.NSW && BigInt.asIntN(w, r) !== r) return 'poison';
      if (flags & Flag.NUW && BigInt.asUintN(w, a) < BigInt.asUintN(w, b)) return 'poison';
      return BigInt.asIntN(w, r);
    }
    case Opcode.Mul: {
      const r = a * b;
      if (flags & Flag.NSW && BigInt.asIntN(w, r) !== r) return 'poison';
      if (flags & Flag.NUW && BigInt.asUintN(w, a) * BigInt.asUintN(w, b) > unsignedMax(w)) return 'poison';
      return BigInt.asIntN(w, r);
    }
    case Opcode.UDiv:
    case Opcode.URem: {
      const ua = BigInt.asUintN(w, a);
      const ub = BigInt.asUintN(w, b);
      if (ub === 0n) return null;
      if (op === Opcode.URem) return BigInt.asIntN(w, ua % ub);
      if (flags & Flag.Exact && ua % ub !== 0n) return 'poison';
      return BigInt.asIntN(w, ua / ub);
    }
    case Opcode.SDiv:
    case Opcode.SRem: {
      if (b === 0n) return null;
      if (b === -1n && a === signedMin(w)) return null; // overflow is UB for both
      if (op === Opcode.SRem) return BigInt.asIntN(w, a % b);
      if (flags & Flag.Exact && a % b !== 0n) return 'poison';
      return BigInt.asIntN(w, a / b);
    }
    case Opcode.Shl: {
      const s = BigInt.asUintN(w, b);
      if (s >= W) return 'poison';
      const r = BigInt.asIntN(w, a << s);
      if (flags & Flag.NUW && BigInt.asUintN(w, a) << s > unsignedMax(w)) return 'poison';
      if (flags & Flag.NSW && r >> s !== a) return 'poison';
      return r;
    }
    case Opcode.LShr: {
      const s = BigInt.asUintN(w, b);
      if (s >= W) return 'poison';
      const ua = BigInt.asUintN(w, a);
      if (flags & Flag.Exact && (ua & ((1n << s) - 1n)) !== 0n) return 'poison';
      return BigInt.asIntN(w, ua >> s);
    }
    case Opcode.AShr: {
      const s = BigInt.asUintN(w, b);
      if (s >= W) return 'poison';
      if (flags & Flag.Exact && (BigInt.asUintN(w, a) & ((1n << s) - 1n)) !== 0n) return 'poison';
      return a >> s;
    }
    case Opcode.And:
      return BigInt.asIntN(w, a & b);
    case Opcode.Or:
      if (flags & Flag.Disjoint && (a & b) !== 0n) return 'poison';
      return BigInt.asIntN(w, a | b);
    case Opcode.Xor:
      return BigInt.asIntN(w, a ^ b);
    default:
      return null;
  }
}

/** Evaluates an integer comparison of two constants of width `w`. */
export function evalICmp(pred: Pred, w: number, a: bigint, b: bigint): boolean {
  switch (pred) {
    case Pred.EQ: return a === b;
    case Pred.NE: return a !== b;
    case Pred.SGT: return a > b;
    case Pred.SGE: return a >= b;
    case Pred.SLT: return a < b;
    case Pred.SLE: return a <= b;
  }
  const ua = BigInt.asUintN(w, a);
  const ub = BigInt.asUintN(w, b);
  switch (pred) {
    case Pred.UGT: return ua > ub;
    case Pred.UGE: return ua >= ub;
    case Pred.ULT: return ua < ub;
    case Pred.ULE: return ua <= ub;
    default: return unreachable(`not an integer predicate: ${pred}`);
  }
}

/** Evaluates an fcmp on two numbers (LLVM's encoding: bit 0 equal, 1 greater, 2 less, 3 unordered). */
export function evalFCmp(pred: Pred, a: number, b: number): boolean {
  let bit: number;
  if (Number.isNaN(a) || Number.isNaN(b)) bit = 8;
  else if (a < b) bit = 4;
  else if (a > b) bit = 2;
  else bit = 1;
  return (pred & bit) !== 0;
}

/** Whether `pred` holds when both operands are equal. */
export function isTrueWhenEqual(pred: Pred): boolean {
  switch (pred) {
    case Pred.EQ: case Pred.UGE: case Pred.ULE: case Pred.SGE: case Pred.SLE:
    case Pred.FCMP_OEQ: case Pred.FCMP_OGE: case Pred.FCMP_OLE:
    case Pred.FCMP_UEQ: case Pred.FCMP_UGE: case Pred.FCMP_ULE: case Pred.FCMP_TRUE:
      return true;
    default:
      return false;
  }
}

function applyFloatOp(op: Opcode, a: number, b: number): number {
  switch (op) {
    case Opcode.FAdd: return a + b;
    case Opcode.FSub: return a - b;
    case Opcode.FMul: return a * b;
    case Opcode.FDiv: return a / b;
    case Opcode.FRem: return a % b; // JS % on numbers is C's fmod, exact
    default: return NaN;
  }
}

/**
 * Folds a binary operation whose operands are both constants. Returns null when it
 * cannot (or must not) be folded.
 */
export function constantFoldBinOp(op: Opcode, a: Constant, b: Constant, flags = 0): Constant | null {
  const t = a.type;
  if (isCInt(a) && isCInt(b)) {
    const r = foldIntBinary(op, t.bits, a.value, b.value, flags);
    if (r === null) return null;
    return r === 'poison' ? poison(t) : cint(t, r);
  }
  if (isCFP(a) && isCFP(b)) {
    if (!isFoldableFP(t)) return null;
    let r = applyFloatOp(op, a.value, b.value);
    if (t.kind === TypeKind.Float) r = Math.fround(r);
    if (Number.isNaN(r)) return null;
    return ConstantFP.get(t, r);
  }
  if (isBinaryOp(op) && (isPoison(a) || isPoison(b))) {
    // Division by poison is UB, so poison serves there too (LLVM does the same).
    return poison(t);
  }
  return null;
}

// ---- casts ----------------------------------------------------------------------------

const f64buf = new DataView(new ArrayBuffer(8));

/** Correctly rounded (nearest-even) conversion of an integer to single precision. */
export function bigintToFloat32(v: bigint): number {
  const neg = v < 0n;
  let m = neg ? -v : v;
  if (m <= 1n << 53n) return Math.fround(Number(v));
  // keep 24 significant bits, round half to even on the rest
  const bits = m.toString(2).length;
  const drop = BigInt(bits - 24);
  const kept = m >> drop;
  const rest = m & ((1n << drop) - 1n);
  const half = 1n << (drop - 1n);
  let q = kept;
  if (rest > half || (rest === half && (kept & 1n) === 1n)) q += 1n;
  m = q << drop;
  const r = Math.fround(Number(m)); // exact: m has <= 25 significant bits
  return neg ? -r : r;
}

function intToFP(v: bigint, to: Type): number {
  return to.kind === TypeKind.Float ? bigintToFloat32(v) : Number(v);
}

/** Folds a cast of a constant. */
export function constantFoldCast(op: Opcode, c: Constant, to: Type, flags = 0): Constant | null {
  if (isPoison(c)) return poison(to);
  if (isUndef(c)) {
    // LLVM: ext/trunc of undef is undef, except that zext/sext must give 0 in the
    // extended bits; the simple safe choice is 0.
    if (op === Opcode.ZExt || op === Opcode.SExt) return nullValue(to);
    if (op === Opcode.Trunc || op === Opcode.BitCast) return UndefValue.get(to);
    return null;
  }
  const from = c.type;
  switch (op) {
    case Opcode.Trunc: {
      if (!isCInt(c) || to.kind !== TypeKind.Int) return null;
      const w = to.bits;
      const r = BigInt.asIntN(w, c.value);
      if (flags & Flag.NUW && BigInt.asUintN(w, c.value) !== c.zext()) return poison(to);
      if (flags & Flag.NSW && r !== c.value) return poison(to);
      return cint(to, r);
    }
    case Opcode.ZExt:
      if (!isCInt(c) || to.kind !== TypeKind.Int) return null;
      if (flags & Flag.NNeg && c.value < 0n) return poison(to);
      return cint(to, c.zext());
    case Opcode.SExt:
      if (!isCInt(c) || to.kind !== TypeKind.Int) return null;
      return cint(to, c.value);
    case Opcode.FPToSI:
    case Opcode.FPToUI: {
      if (!isCFP(c) || to.kind !== TypeKind.Int || !isFoldableFP(from)) return null;
      const x = c.value;
      if (!Number.isFinite(x)) return poison(to);
      const t = BigInt(Math.trunc(x));
      const w = to.bits;
      if (op === Opcode.FPToSI) {
        if (t < signedMin(w) || t > signedMax(w)) return poison(to);
      } else if (t < 0n || t > unsignedMax(w)) return poison(to);
      return cint(to, t);
    }
    case Opcode.SIToFP:
    case Opcode.UIToFP: {
      if (!isCInt(c) || !isFoldableFP(to)) return null;
      if (op === Opcode.UIToFP && flags & Flag.NNeg && c.value < 0n) return poison(to);
      return ConstantFP.get(to, intToFP(op === Opcode.SIToFP ? c.value : c.zext(), to));
    }
    case Opcode.FPTrunc:
    case Opcode.FPExt: {
      if (!isCFP(c) || !isFoldableFP(from) || !isFoldableFP(to) || Number.isNaN(c.value)) return null;
      return ConstantFP.get(to, c.value);
    }
    case Opcode.BitCast: {
      if (from === to) return c;
      if (isCInt(c) && isFoldableFP(to) && from.bits === (to.kind === TypeKind.Float ? 32 : 64)) {
        let r: number;
        if (to.kind === TypeKind.Float) {
          f64buf.setUint32(0, Number(c.zext()));
          r = f64buf.getFloat32(0);
        } else {
          f64buf.setBigUint64(0, c.zext());
          r = f64buf.getFloat64(0);
        }
        return Number.isNaN(r) ? null : ConstantFP.get(to, r);
      }
      if (isCFP(c) && to.kind === TypeKind.Int && isFoldableFP(from) && !Number.isNaN(c.value)) {
        if (from.kind === TypeKind.Float && to.bits === 32) {
          f64buf.setFloat32(0, c.value);
          return cint(to, BigInt(f64buf.getInt32(0)));
        }
        if (from.kind === TypeKind.Double && to.bits === 64) {
          f64buf.setFloat64(0, c.value);
          return cint(to, f64buf.getBigInt64(0));
        }
      }
      return null;
    }
    case Opcode.PtrToInt:
      if (c.kind === ValueKind.ConstantNull && from.bits === 0 && to.kind === TypeKind.Int) return zeroOf(to);
      return null;
    case Opcode.IntToPtr:
      if (isCInt(c) && c.value === 0n && to.kind === TypeKind.Ptr && to.bits === 0) return ConstantNull.get(to);
      return null;
    default:
      return null;
  }
}

// ---- comparisons ----------------------------------------------------------------------

/** Whether a pointer is known not to be null (address space 0). */
function isKnownNonNullPtr(v: Value): boolean {
  // a loop, not recursion: constant GEPs may nest thousands deep
  for (;;) {
    if (v.type.kind !== TypeKind.Ptr || v.type.bits !== 0) return false;
    switch (v.kind) {
      case ValueKind.GlobalVariable:
      case ValueKind.Function:
        return !(v as GlobalVariable).attrs.linkage.includes('extern_weak');
      case ValueKind.Instruction:
        return (v as Instruction).op === Opcode.Alloca;
      case ValueKind.ConstantExpr: {
        const ce = v as ConstantExpr;
        // an inbounds GEP of a non-null object stays non-null
        if (ce.opcode !== Opcode.GetElementPtr || (ce.flags & Flag.InBounds) === 0) return false;
        v = ce.operands[0];
        continue;
      }
      default:
        return false;
    }
  }
}

function isNonEmptyAlloca(a: Instruction): boolean {
  const n = a.ops[0].value;
  return a.auxType !== null && allocSize(a.auxType) > 0 && isCInt(n) && n.value > 0n;
}

/** Whether two distinct identified objects (allocas, global variables) have different addresses. */
function isDistinctObjectPair(a: Value, b: Value): boolean {
  const obj = (v: Value): boolean =>
    (v.kind === ValueKind.Instruction && (v as Instruction).op === Opcode.Alloca && isNonEmptyAlloca(v as Instruction)) ||
    (v.kind === ValueKind.GlobalVariable && !(v as GlobalVariable).attrs.linkage.includes('extern_weak') && storeSize((v as GlobalVariable).valueType) > 0);
  return a !== b && obj(a) && obj(b);
}

/** Folds a comparison of two constants (icmp or fcmp by predicate). */
export function constantFoldCompare(pred: Pred, a: Constant, b: Constant): Constant | null {
  const rt = a.type.kind === TypeKind.Vector ? null : i1;
  if (rt === null) return null;
  if (pred === Pred.FCMP_FALSE) return ConstantInt.false();
  if (pred === Pred.FCMP_TRUE) return ConstantInt.true();
  if (isPoison(a) || isPoison(b)) return poison(i1);
  if (pred >= 32) {
    if (isUndef(a) || isUndef(b)) return ConstantInt.bool(isTrueWhenEqual(pred)); // pick undef = the other operand
    if (isCInt(a) && isCInt(b)) return ConstantInt.bool(evalICmp(pred, a.type.bits, a.value, b.value));
    if (a.type.kind === TypeKind.Ptr && (pred === Pred.EQ || pred === Pred.NE)) {
      const an = a.kind === ValueKind.ConstantNull;
      const bn = b.kind === ValueKind.ConstantNull;
      if (an && bn) return ConstantInt.bool(pred === Pred.EQ);
      if ((an && isKnownNonNullPtr(b)) || (bn && isKnownNonNullPtr(a)) || isDistinctObjectPair(a, b)) return ConstantInt.bool(pred === Pred.NE);
    }
    return null;
  }
  if (isCFP(a) && isCFP(b)) return ConstantInt.bool(evalFCmp(pred, a.value, b.value));
  return null;
}

/** Unsigned and signed ranges [lo, hi] a value is known to lie in (one level of look-through). */
export interface KnownRange {
  ulo: bigint;
  uhi: bigint;
  slo: bigint;
  shi: bigint;
}

export function knownRange(v: Value): KnownRange | null {
  const t = v.type;
  if (t.kind !== TypeKind.Int) return null;
  const w = t.bits;
  if (isCInt(v)) return { ulo: v.zext(), uhi: v.zext(), slo: v.value, shi: v.value };
  if (!isInst(v)) return null;
  const nonNeg = (hi: bigint): KnownRange => ({ ulo: 0n, uhi: hi, slo: 0n, shi: hi });
  switch (v.op) {
    case Opcode.ZExt: {
      const n = v.ops[0].value.type.bits;
      return n < w ? nonNeg(unsignedMax(n)) : null;
    }
    case Opcode.SExt: {
      const n = v.ops[0].value.type.bits;
      return { ulo: 0n, uhi: unsignedMax(w), slo: signedMin(n), shi: signedMax(n) };
    }
    case Opcode.And: {
      const c = v.ops[1].value;
      return isCInt(c) && c.value >= 0n ? nonNeg(c.value) : null;
    }
    case Opcode.URem: {
      const c = v.ops[1].value;
      if (!isCInt(c) || c.value === 0n) return null;
      const hi = c.zext() - 1n;
      return hi <= signedMax(w) ? nonNeg(hi) : { ulo: 0n, uhi: hi, slo: signedMin(w), shi: signedMax(w) };
    }
    case Opcode.LShr: {
      const c = v.ops[1].value;
      if (!isCInt(c) || c.value <= 0n || c.value >= BigInt(w)) return null;
      return nonNeg(unsignedMax(w - Number(c.value)));
    }
    case Opcode.UDiv: {
      const c = v.ops[1].value;
      if (!isCInt(c) || c.value <= 1n) return null;
      return nonNeg(unsignedMax(w) / c.zext());
    }
    case Opcode.Select: {
      const a = v.ops[1].value;
      const b = v.ops[2].value;
      if (!isCInt(a) || !isCInt(b)) return null;
      const [ul, uh] = a.zext() < b.zext() ? [a.zext(), b.zext()] : [b.zext(), a.zext()];
      const [sl, sh] = a.value < b.value ? [a.value, b.value] : [b.value, a.value];
      return { ulo: ul, uhi: uh, slo: sl, shi: sh };
    }
    default:
      return null;
  }
}

/** Whether an integer value is known to be >= 0 as a signed number. */
export function isKnownNonNegative(v: Value): boolean {
  const r = knownRange(v);
  return r !== null && r.slo >= 0n;
}

/** Decides `x pred c` from x's known range, or null. */
function compareRangeWithConstant(pred: Pred, r: KnownRange, c: ConstantInt): boolean | null {
  const uc = c.zext();
  const sc = c.value;
  switch (pred) {
    case Pred.EQ:
    case Pred.NE: {
      const outside = uc < r.ulo || uc > r.uhi || sc < r.slo || sc > r.shi;
      if (outside) return pred === Pred.NE;
      if (r.ulo === r.uhi) return pred === Pred.EQ;
      return null;
    }
    case Pred.ULT: return r.uhi < uc ? true : r.ulo >= uc ? false : null;
    case Pred.ULE: return r.uhi <= uc ? true : r.ulo > uc ? false : null;
    case Pred.UGT: return r.ulo > uc ? true : r.uhi <= uc ? false : null;
    case Pred.UGE: return r.ulo >= uc ? true : r.uhi < uc ? false : null;
    case Pred.SLT: return r.shi < sc ? true : r.slo >= sc ? false : null;
    case Pred.SLE: return r.shi <= sc ? true : r.slo > sc ? false : null;
    case Pred.SGT: return r.slo > sc ? true : r.shi <= sc ? false : null;
    case Pred.SGE: return r.slo >= sc ? true : r.shi < sc ? false : null;
    default: return null;
  }
}

/** Simplifies `icmp pred a, b`. */
export function simplifyICmp(pred: Pred, a: Value, b: Value): Value | null {
  if (a.type.kind === TypeKind.Vector) return null;
  if (isConstantValue(a) && isConstantValue(b)) {
    const f = constantFoldCompare(pred, a as Constant, b as Constant);
    if (f !== null) return f;
  }
  // constants to the right
  if (isConstantValue(a) && !isConstantValue(b)) {
    const t = a;
    a = b;
    b = t;
    pred = swappedPred(pred);
  }
  if (isPoison(b)) return poison(i1);
  if (isUndef(b)) return ConstantInt.bool(isTrueWhenEqual(pred));
  if (a === b) return ConstantInt.bool(isTrueWhenEqual(pred));
  const t = a.type;
  if (t.kind === TypeKind.Int && isCInt(b)) {
    const w = t.bits;
    const c = b.value;
    const uc = b.zext();
    // comparisons with the ends of the range
    if (pred === Pred.ULT && uc === 0n) return ConstantInt.false();
    if (pred === Pred.UGE && uc === 0n) return ConstantInt.true();
    if (pred === Pred.ULE && uc === unsignedMax(w)) return ConstantInt.true();
    if (pred === Pred.UGT && uc === unsignedMax(w)) return ConstantInt.false();
    if (pred === Pred.SLT && c === signedMin(w)) return ConstantInt.false();
    if (pred === Pred.SGE && c === signedMin(w)) return ConstantInt.true();
    if (pred === Pred.SLE && c === signedMax(w)) return ConstantInt.true();
    if (pred === Pred.SGT && c === signedMax(w)) return ConstantInt.false();
    // i1: x != false -> x, x == true -> x
    if (w === 1 && ((pred === Pred.NE && c === 0n) || (pred === Pred.EQ && c === -1n))) return a;
    const r = knownRange(a);
    if (r !== null) {
      const d = compareRangeWithConstant(pred, r, b);
      if (d !== null) return ConstantInt.bool(d);
    }
  }
  if (t.kind === TypeKind.Ptr && (pred === Pred.EQ || pred === Pred.NE)) {
    if ((b.kind === ValueKind.ConstantNull && isKnownNonNullPtr(a)) || isDistinctObjectPair(a, b)) return ConstantInt.bool(pred === Pred.NE);
  }
  return null;
}

/** Simplifies `fcmp pred a, b` (fast-math flags `fmf` may allow more). */
export function simplifyFCmp(pred: Pred, a: Value, b: Value, fmf = 0): Value | null {
  if (a.type.kind === TypeKind.Vector) return null;
  if (pred === Pred.FCMP_FALSE) return ConstantInt.false();
  if (pred === Pred.FCMP_TRUE) return ConstantInt.true();
  if (isConstantValue(a) && isConstantValue(b)) {
    const f = constantFoldCompare(pred, a as Constant, b as Constant);
    if (f !== null) return f;
  }
  if (isPoison(a) || isPoison(b)) return poison(i1);
  // x == x is true unless x is NaN: only ordered/unordered-insensitive predicates fold
  if (a === b) {
    if (pred === Pred.FCMP_UEQ || pred === Pred.FCMP_UGE || pred === Pred.FCMP_ULE) return ConstantInt.true();
    if (pred === Pred.FCMP_ONE || pred === Pred.FCMP_OGT || pred === Pred.FCMP_OLT) return ConstantInt.false();
    if (fmf & Flag.NNaN) return ConstantInt.bool(isTrueWhenEqual(pred));
  }
  // comparison with a NaN constant: ordered predicates are false, unordered true
  const nan = (isCFP(a) && Number.isNaN(a.value)) || (isCFP(b) && Number.isNaN(b.value));
  if (nan) return ConstantInt.bool((pred & 8) !== 0);
  return null;
}

// ---- binary operations ----------------------------------------------------------------

/** Whether `v` is a constant (not a global, whose address is a constant but not foldable). */
function isConstantValue(v: Value): boolean {
  return v.kind >= ValueKind.ConstantInt;
}

/**
 * Simplifies `op a, b` with `flags`: a constant, or an existing value equal to it.
 * Never creates instructions.
 */
export function simplifyBinOp(op: Opcode, a: Value, b: Value, flags = 0): Value | null {
  const t = a.type;
  if (t.kind === TypeKind.Vector) return null;
  if (isConstantValue(a) && isConstantValue(b)) {
    const f = constantFoldBinOp(op, a as Constant, b as Constant, flags);
    if (f !== null) return f;
  }
  // canonical order for the identities below: constant on the right
  if (isCommutative(op) && isConstantValue(a) && !isConstantValue(b)) {
    const x = a;
    a = b;
    b = x;
  }
  if (t.kind === TypeKind.Int) return simplifyIntBinOp(op, a, b, flags, t);
  if (isFoldableFP(t) || t.isFloatingPoint()) return simplifyFPBinOp(op, a, b, flags);
  return null;
}

function simplifyIntBinOp(op: Opcode, a: Value, b: Value, flags: number, t: Type): Value | null {
  const w = t.bits;
  switch (op) {
    case Opcode.Add: {
      if (isPoison(a) || isPoison(b)) return poison(t);
      if (isUndef(b)) return UndefValue.get(t);
      if (isZeroInt(b)) return a; // x + 0
      // (x - y) + y -> x ; y + (x - y) -> x
      if (isInst(a) && a.op === Opcode.Sub && a.ops[1].value === b) return a.ops[0].value;
      if (isInst(b) && b.op === Opcode.Sub && b.ops[1].value === a) return b.ops[0].value;
      // x + ~x -> -1
      if (matchNot(a) === b || matchNot(b) === a) return cint(t, -1n);
      // x + (-x) -> 0
      if (matchNeg(a) === b || matchNeg(b) === a) return zeroOf(t);
      // i1 add is xor: x + x -> 0
      if (w === 1 && a === b) return zeroOf(t);
      return null;
    }
    case Opcode.Sub: {
      if (isPoison(a) || isPoison(b)) return poison(t);
      if (isUndef(a) || isUndef(b)) return UndefValue.get(t);
      if (isZeroInt(b)) return a; // x - 0
      if (a === b) return zeroOf(t); // x - x
      if (flags & Flag.NUW && isZeroInt(a)) return zeroOf(t); // 0 -nuw x is 0 or poison
      // (x + y) - y -> x ; (y + x) - y -> x   (covers (x + c) - c)
      if (isInst(a) && a.op === Opcode.Add) {
        if (a.ops[1].value === b) return a.ops[0].value;
        if (a.ops[0].value === b) return a.ops[1].value;
      }
      // x - (x - y) -> y
      if (isInst(b) && b.op === Opcode.Sub && b.ops[0].value === a) return b.ops[1].value;
      // (x - y) - x -> -y is a new instruction; 0 - (0 - x) -> x
      if (isZeroInt(a)) {
        const n = matchNeg(b);
        if (n !== null) return n;
      }
      // (x + c) - (x + c') etc. are left to instcombine
      return null;
    }
    case Opcode.Mul: {
      if (isPoison(a) || isPoison(b)) return poison(t);
      if (isUndef(b)) return zeroOf(t);
      if (isZeroInt(b)) return zeroOf(t); // x * 0
      if (isOneInt(b)) return a; // x * 1
      if (w === 1 && a === b) return a; // i1 mul is and
      // (x /exact y) * y -> x
      if (isInst(a) && (a.op === Opcode.SDiv || a.op === Opcode.UDiv) && a.flags & Flag.Exact && a.ops[1].value === b) return a.ops[0].value;
      return null;
    }
    case Opcode.UDiv:
    case Opcode.SDiv: {
      if (isZeroInt(b) || isUndefOrPoison(b)) return null; // UB: leave it alone
      if (isPoison(a)) return poison(t);
      if (isOneInt(b) || (w === 1 && isAllOnesInt(b))) return a; // x / 1
      if (isZeroInt(a)) return zeroOf(t); // 0 / x (x != 0, else UB)
      if (a === b) return cint(t, 1n); // x / x
      // (x * y) / y -> x when the multiply cannot wrap in the division's signedness
      if (isInst(a) && a.op === Opcode.Mul && a.flags & (op === Opcode.SDiv ? Flag.NSW : Flag.NUW)) {
        if (a.ops[1].value === b) return a.ops[0].value;
        if (a.ops[0].value === b) return a.ops[1].value;
      }
      // x udiv c with c > umax(x)
      if (op === Opcode.UDiv && isCInt(b)) {
        const r = knownRange(a);
        if (r !== null && r.uhi < b.zext()) return zeroOf(t);
      }
      return null;
    }
    case Opcode.URem:
    case Opcode.SRem: {
      if (isZeroInt(b) || isUndefOrPoison(b)) return null;
      if (isPoison(a)) return poison(t);
      if (isOneInt(b) || w === 1) return zeroOf(t); // x % 1
      if (op === Opcode.SRem && isAllOnesInt(b)) return zeroOf(t); // x % -1 (INT_MIN % -1 is UB)
      if (isZeroInt(a)) return zeroOf(t);
      if (a === b) return zeroOf(t);
      if (op === Opcode.URem && isCInt(b)) {
        const r = knownRange(a);
        if (r !== null && r.uhi < b.zext()) return a; // x already below the modulus
      }
      return null;
    }
    case Opcode.Shl:
    case Opcode.LShr:
    case Opcode.AShr: {
      if (isPoison(a) || isPoison(b)) return poison(t);
      if (isCInt(b) && b.zext() >= BigInt(w)) return poison(t); // over-shift
      if (isZeroInt(b)) return a; // x << 0
      if (isZeroInt(a)) return zeroOf(t); // 0 << x
      if (op === Opcode.AShr && isAllOnesInt(a)) return a; // -1 >>s x
      if (isUndef(b)) return null;
      // (x >> c) << c and friends need masks: instcombine
      // (x << c) >>exact c with nuw/nsw shl gives x back
      if (op !== Opcode.Shl && isInst(a) && a.op === Opcode.Shl && a.ops[1].value === b && a.flags & (op === Opcode.LShr ? Flag.NUW : Flag.NSW)) {
        return a.ops[0].value;
      }
      return null;
    }
    case Opcode.And: {
      if (isPoison(a) || isPoison(b)) return poison(t);
      if (isUndef(b)) return zeroOf(t);
      if (isZeroInt(b)) return zeroOf(t); // x & 0
      if (isAllOnesInt(b)) return a; // x & -1
      if (a === b) return a; // x & x
      if (matchNot(a) === b || matchNot(b) === a) return zeroOf(t); // x & ~x
      // (x | y) & x -> x ; x & (x | y) -> x
      if (isInst(a) && a.op === Opcode.Or && (a.ops[0].value === b || a.ops[1].value === b)) return b;
      if (isInst(b) && b.op === Opcode.Or && (b.ops[0].value === a || b.ops[1].value === a)) return a;
      // a mask covering every bit x may have
      if (isCInt(b)) {
        const r = knownRange(a);
        if (r !== null && b.value >= 0n && (r.uhi & ~b.zext()) === 0n && isLowMask(b.zext())) return a;
      }
      return null;
    }
    case Opcode.Or: {
      if (isPoison(a) || isPoison(b)) return poison(t);
      if (isUndef(b)) return cint(t, -1n);
      if (isZeroInt(b)) return a; // x | 0
      if (isAllOnesInt(b)) return b; // x | -1
      if (a === b) return a; // x | x
      if (matchNot(a) === b || matchNot(b) === a) return cint(t, -1n); // x | ~x
      // (x & y) | x -> x ; x | (x & y) -> x
      if (isInst(a) && a.op === Opcode.And && (a.ops[0].value === b || a.ops[1].value === b)) return b;
      if (isInst(b) && b.op === Opcode.And && (b.ops[0].value === a || b.ops[1].value === a)) return a;
      return null;
    }
    case Opcode.Xor: {
      if (isPoison(a) || isPoison(b)) return poison(t);
      if (isUndef(a) && isUndef(b)) return zeroOf(t);
      if (isUndef(b)) return UndefValue.get(t);
      if (isZeroInt(b)) return a; // x ^ 0
      if (a === b) return zeroOf(t); // x ^ x
      if (matchNot(a) === b || matchNot(b) === a) return cint(t, -1n); // x ^ ~x
      // (x ^ y) ^ y -> x (covers double negation ~~x)
      if (isInst(a) && a.op === Opcode.Xor) {
        if (a.ops[1].value === b) return a.ops[0].value;
        if (a.ops[0].value === b) return a.ops[1].value;
      }
      if (isInst(b) && b.op === Opcode.Xor) {
        if (b.ops[1].value === a) return b.ops[0].value;
        if (b.ops[0].value === a) return b.ops[1].value;
      }
      return null;
    }
    default:
      return null;
  }
}

/** 2^k - 1 */
function isLowMask(m: bigint): boolean {
  return (m & (m + 1n)) === 0n;
}

function isFPConst(v: Value, x: number): boolean {
  return isCFP(v) && v.value === x && (x !== 0 || 1 / v.value === 1 / x);
}

function simplifyFPBinOp(op: Opcode, a: Value, b: Value, flags: number): Value | null {
  const t = a.type;
  if (isPoison(a) || isPoison(b)) return poison(t);
  switch (op) {
    case Opcode.FAdd:
      if (isFPConst(b, -0)) return a; // x + -0.0 == x for every x
      if (flags & Flag.NSZ && isFPConst(b, 0)) return a;
      return null;
    case Opcode.FSub:
      if (isFPConst(b, 0)) return a; // x - +0.0 == x
      if (flags & Flag.NSZ && isFPConst(b, -0)) return a;
      // -0.0 - (-0.0 - x) -> x
      if (isFPConst(a, -0) && isInst(b) && b.op === Opcode.FSub && isFPConst(b.ops[0].value, -0)) return b.ops[1].value;
      if (isFPConst(a, -0) && isInst(b) && b.op === Opcode.FNeg) return b.ops[0].value;
      return null;
    case Opcode.FMul:
      if (isFPConst(b, 1)) return a;
      return null;
    case Opcode.FDiv:
      if (isFPConst(b, 1)) return a;
      return null;
    default:
      return null;
  }
}

/** Simplifies `fneg a`. */
export function simplifyFNeg(a: Value): Value | null {
  if (isPoison(a)) return poison(a.type);
  if (isCFP(a) && isFoldableFP(a.type) && !Number.isNaN(a.value)) return ConstantFP.get(a.type, -a.value);
  if (isInst(a) && a.op === Opcode.FNeg) return a.ops[0].value;
  if (isInst(a) && a.op === Opcode.FSub && isFPConst(a.ops[0].value, -0)) return a.ops[1].value;
  return null;
}

// ---- casts of values ------------------------------------------------------------------

/** Simplifies `op v to to` (a cast). */
export function simplifyCast(op: Opcode, v: Value, to: Type, flags = 0): Value | null {
  if (to.kind === TypeKind.Vector || v.type.kind === TypeKind.Vector) return null;
  if (isConstantValue(v)) {
    const f = constantFoldCast(op, v as Constant, to, flags);
    if (f !== null) return f;
  }
  if (op === Opcode.BitCast && v.type === to) return v;
  if (op === Opcode.AddrSpaceCast && v.type === to) return v;
  if (!isInst(v)) return null;
  // trunc (zext/sext x) -> x when the types round-trip
  if (op === Opcode.Trunc && (v.op === Opcode.ZExt || v.op === Opcode.SExt) && v.ops[0].value.type === to) return v.ops[0].value;
  // bitcast (bitcast x) -> x
  if (op === Opcode.BitCast && v.op === Opcode.BitCast && v.ops[0].value.type === to) return v.ops[0].value;
  // ptrtoint (inttoptr x) -> x (an integer round trip; the reverse changes provenance)
  if (op === Opcode.PtrToInt && v.op === Opcode.IntToPtr && v.ops[0].value.type === to) return v.ops[0].value;
  // fpext then fptrunc back is exact
  if (op === Opcode.FPTrunc && v.op === Opcode.FPExt && v.ops[0].value.type === to) return v.ops[0].value;
  // sitofp/uitofp of a value that fits exactly, converted back with the same signedness
  return null;
}

// ---- select, phi, freeze, GEP -----------------------------------------------------------

/** Simplifies `select c, a, b`. */
export function simplifySelect(c: Value, a: Value, b: Value): Value | null {
  if (isCInt(c)) return c.value !== 0n ? a : b;
  if (isPoison(c)) return poison(a.type);
  if (a === b) return a;
  if (isUndef(c)) {
    if (isConstantValue(a) && !isUndefOrPoison(a)) return a;
    if (isConstantValue(b) && !isUndefOrPoison(b)) return b;
    return null;
  }
  // an undef arm may be chosen to equal the other arm, if that arm is not poison
  if (isUndefOrPoison(b) && (isCInt(a) || isCFP(a))) return a;
  if (isUndefOrPoison(a) && (isCInt(b) || isCFP(b))) return b;
  if (a.type === i1) {
    if (isOneInt(a) && isZeroInt(b)) return c; // c ? true : false
    if (c === a && isZeroInt(b)) return c; // c ? c : false
    if (c === b && isOneInt(a)) return c; // c ? true : c
  }
  // select (x == y), x, y -> y  and the other three forms (integers only: for
  // pointers, equal addresses may still differ in provenance)
  if (isInst(c) && c.op === Opcode.ICmp && a.type.kind === TypeKind.Int) {
    const x = c.ops[0].value;
    const y = c.ops[1].value;
    if ((x === a && y === b) || (x === b && y === a)) {
      if (c.pred === Pred.EQ) return b;
      if (c.pred === Pred.NE) return a;
    }
  }
  return null;
}

/**
 * Simplifies a phi given its incoming values: if they are all the same value V (ignoring
 * references to the phi itself, and undef/poison when `dominatesPhi(V)` says V dominates
 * the phi), returns V.
 *
 * When all incoming values are V (no undef), V dominates the phi in reachable code: V is
 * available at the end of every predecessor, so every path into the block passes its
 * definition. An undef entry breaks that argument, hence the callback.
 */
export function simplifyPhiValues(values: readonly Value[], self: Value | null = null, dominatesPhi: ((v: Value) => boolean) | null = null): Value | null {
  let common: Value | null = null;
  let sawUndef = false;
  let sawPoisonOnly = true;
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (v === self) continue;
    if (isUndefOrPoison(v)) {
      sawUndef = true;
      if (!isPoison(v)) sawPoisonOnly = false;
      continue;
    }
    if (common === null) common = v;
    else if (common !== v) return null;
  }
  if (common === null) {
    // only self references and undef/poison entries
    if (!sawUndef) return null; // a phi that only feeds itself: unreachable cycle, leave it
    const t = self !== null ? self.type : values[0].type;
    return sawPoisonOnly ? poison(t) : UndefValue.get(t);
  }
  if (sawUndef) {
    if (isConstantValue(common) || common.kind === ValueKind.Argument || common.kind === ValueKind.GlobalVariable || common.kind === ValueKind.Function) return common;
    if (dominatesPhi !== null && dominatesPhi(common)) return common;
    return null;
  }
  return common;
}

/** Whether `v` is known never to be undef or poison (for freeze). */
export function isGuaranteedNotUndefOrPoison(v: Value): boolean {
  switch (v.kind) {
    case ValueKind.ConstantInt:
    case ValueKind.ConstantFP:
    case ValueKind.ConstantNull:
    case ValueKind.GlobalVariable:
    case ValueKind.Function:
      return true;
    case ValueKind.Argument:
      return /(^|\s)noundef(\s|$)/.test((v as Argument).attrs);
    case ValueKind.Instruction: {
      const i = v as Instruction;
      return i.op === Opcode.Freeze || i.op === Opcode.Alloca;
    }
    default:
      return false;
  }
}

/** Simplifies `freeze v`. */
export function simplifyFreeze(v: Value): Value | null {
  return isGuaranteedNotUndefOrPoison(v) ? v : null;
}

/** Simplifies `getelementptr srcType, base, indices...`. */
export function simplifyGEP(srcType: Type | null, base: Value, indices: readonly Value[], flags = 0): Value | null {
  if (base.type.kind === TypeKind.Vector) return null;
  for (const x of indices) if (x.type.kind === TypeKind.Vector) return null;
  if (indices.length === 0) return base;
  let allZero = true;
  for (const x of indices) {
    if (isPoison(x)) return poison(base.type);
    if (!isZeroInt(x) && x.kind !== ValueKind.ConstantZero) allZero = false;
  }
  if (allZero) return base;
  if (isPoison(base)) return poison(base.type);
  // gep i8, p, 0 handled above; a zero-sized source type makes every index irrelevant
  if (srcType !== null && indices.length === 1 && srcType.isFirstClass() && allocSize(srcType) === 0) return base;
  void flags;
  return null;
}

// ---- loads from constant memory -----------------------------------------------------------

/** The constant global and byte offset a constant pointer denotes, or null. */
function constantPointerOffset(p: Value): { g: GlobalVariable; off: number } | null {
  let off = 0;
  let v: Value = p;
  for (let guard = 0; guard < 16; guard++) {
    if (v.kind === ValueKind.GlobalVariable) return { g: v as GlobalVariable, off };
    if (v.kind !== ValueKind.ConstantExpr) return null;
    const ce = v as ConstantExpr;
    if (ce.opcode === Opcode.BitCast) {
      v = ce.operands[0];
      continue;
    }
    if (ce.opcode !== Opcode.GetElementPtr || ce.sourceType === null) return null;
    const d = constantGEPOffset(ce.sourceType, ce.operands.slice(1));
    if (d === null) return null;
    off += d;
    v = ce.operands[0];
  }
  return null;
}

/** Byte offset of a GEP with constant indices, or null. */
export function constantGEPOffset(srcType: Type, indices: readonly Value[]): number | null {
  if (indices.length === 0) return 0;
  let off = constIndex(indices[0]) * allocSize(srcType);
  let t = srcType;
  for (let k = 1; k < indices.length; k++) {
    // a variable index: the offset is unknown (and stepType would be stale)
    const d = stepInto(t, constIndex(indices[k]));
    if (Number.isNaN(d)) return null;
    off += d;
    t = stepType;
  }
  return Number.isSafeInteger(off) ? off : null;
}

/** constantGEPOffset of a GEP instruction's indices (read from its uses, no array made). */
export function constantGEPInstOffset(gep: Instruction): number | null {
  const ops = gep.ops;
  if (ops.length < 2) return 0;
  let t = gep.auxType!;
  let off = constIndex(ops[1].value) * allocSize(t);
  for (let k = 2; k < ops.length; k++) {
    // a variable index: the offset is unknown (and stepType would be stale)
    const d = stepInto(t, constIndex(ops[k].value));
    if (Number.isNaN(d)) return null;
    off += d;
    t = stepType;
  }
  return Number.isSafeInteger(off) ? off : null;
}

/** A constant index as a number, NaN when it is not one. */
function constIndex(x: Value): number {
  return isCInt(x) ? Number(x.value) : x.kind === ValueKind.ConstantZero ? 0 : NaN;
}

/** The type stepInto went to. */
let stepType: Type;
/** The byte offset of element or member `n` of `t` (NaN when there is none); sets stepType. */
function stepInto(t: Type, n: number): number {
  if (Number.isNaN(n)) return NaN;
  const s = gepStepType(t, n);
  if (s === null) return NaN;
  stepType = s;
  return t.kind === TypeKind.Struct ? structLayout(t).offsets[n] : n * allocSize(s);
}

/** Reads a scalar of type `ty` at byte `off` of constant `c` when it is exactly one element. */
export function readConstantAt(c: Constant, cty: Type, off: number, ty: Type): Constant | null {
  for (let guard = 0; guard < 64; guard++) {
    if (off < 0 || off + storeSize(ty) > storeSize(cty)) return null;
    if (c.kind === ValueKind.ConstantZero || c.kind === ValueKind.ConstantNull) {
      return ty.kind === TypeKind.Int || isFoldableFP(ty) || ty.kind === TypeKind.Ptr ? nullValue(ty) : null;
    }
    if (c.kind === ValueKind.Undef) return UndefValue.get(ty);
    if (cty === ty && off === 0) return c.type === ty ? c : null;
    if (c.kind === ValueKind.ConstantString) {
      const s = c as ConstantString;
      if (ty.kind !== TypeKind.Int || ty.bits % 8 !== 0) return null;
      let v = 0n;
      const n = ty.bits / 8;
      for (let k = n - 1; k >= 0; k--) v = (v << 8n) | BigInt(s.bytes[off + k] ?? 0); // little endian
      return cint(ty, v);
    }
    if (c.kind === ValueKind.ConstantArray || c.kind === ValueKind.ConstantStruct) {
      const agg = c as ConstantAggregate;
      if (cty.kind === TypeKind.Array) {
        const es = allocSize(cty.elem!);
        if (es === 0) return null;
        const k = Math.floor(off / es);
        if (k >= agg.elements.length) return null;
        c = agg.elements[k];
        off -= k * es;
        cty = cty.elem!;
        continue;
      }
      if (cty.kind === TypeKind.Struct) {
        const offs = structLayout(cty).offsets;
        let k = offs.length - 1;
        while (k > 0 && offs[k] > off) k--;
        c = agg.elements[k];
        off -= offs[k];
        cty = cty.members[k];
        continue;
      }
      return null;
    }
    return null;
  }
  return null;
}

/** Folds a load of type `ty` from a constant address into a constant global's initializer. */
export function simplifyLoadFromConstant(p: Value, ty: Type): Constant | null {
  const po = constantPointerOffset(p);
  if (po === null) return null;
  const g = po.g;
  if (!g.isConstant || g.initializer === null) return null;
  const link = g.attrs.linkage;
  if (link.includes('weak') || link.includes('linkonce') || link.includes('available_externally')) return null;
  if (!(ty.kind === TypeKind.Int || isFoldableFP(ty))) return null;
  return readConstantAt(g.initializer, g.valueType, po.off, ty);
}

// ---- constant expressions ---------------------------------------------------------------

/**
 * Folds a constant expression bottom-up where its operands fold, else returns it (operands
 * nested deeper than 32 levels are left as they are: the recursion stays shallow).
 */
export function constantFoldConstantExpr(ce: ConstantExpr, depth = 0): Constant {
  const ops = ce.operands.map((o) => (o.kind === ValueKind.ConstantExpr && depth < 32 ? constantFoldConstantExpr(o as ConstantExpr, depth + 1) : o));
  const op = ce.opcode;
  let r: Constant | null = null;
  if (isBinaryOp(op)) r = constantFoldBinOp(op, ops[0], ops[1], ce.flags);
  else if (isCastOp(op)) r = constantFoldCast(op, ops[0], ce.type, ce.flags);
  else if (op === Opcode.ICmp || op === Opcode.FCmp) r = constantFoldCompare(ce.predicate as Pred, ops[0], ops[1]);
  return r ?? ce;
}

// ---- calls ------------------------------------------------------------------------------

function simplifyIntrinsic(name: string, args: readonly Value[], ty: Type): Value | null {
  if (ty.kind !== TypeKind.Int) return null;
  const w = ty.bits;
  const base = name.replace(/\.i\d+$/, '');
  if (args.length === 2) {
    const [a, b] = args;
    if (base === 'llvm.smax' || base === 'llvm.smin' || base === 'llvm.umax' || base === 'llvm.umin') {
      if (a === b) return a;
      if (isCInt(a) && isCInt(b)) {
        const signed = base === 'llvm.smax' || base === 'llvm.smin';
        const x = signed ? a.value : a.zext();
        const y = signed ? b.value : b.zext();
        const max = base.endsWith('max');
        return (max ? x >= y : x <= y) ? a : b;
      }
      return null;
    }
    if (base === 'llvm.abs' && isCInt(a)) {
      if (a.value === signedMin(w)) return isCInt(b) && b.value !== 0n ? poison(ty) : a;
      return cint(ty, a.value < 0n ? -a.value : a.value);
    }
  }
  if (args.length === 1 && isCInt(args[0])) {
    const u = args[0].zext();
    if (base === 'llvm.ctpop') {
      let n = 0n;
      for (let x = u; x !== 0n; x >>= 1n) n += x & 1n;
      return cint(ty, n);
    }
    if (base === 'llvm.bswap' && w % 16 === 0) {
      let r = 0n;
      for (let k = 0; k < w / 8; k++) r = (r << 8n) | ((u >> BigInt(8 * k)) & 255n);
      return cint(ty, r);
    }
  }
  return null;
}

// ---- the instruction-level entry point ------------------------------------------------------

export interface SimplifyOptions {
  /** For phis with undef entries: whether `v` dominates the phi (else only constants/arguments qualify). */
  dominatesPhi?: (v: Value, phiBlock: BasicBlock) => boolean;
}

/** `dominatesPhi` for simplifyInstruction: v's definition strictly dominates the phi's block. */
export function phiDominanceQuery(dt: DominatorTree): (v: Value, bb: BasicBlock) => boolean {
  return (v, bb) => {
    if (v.kind !== ValueKind.Instruction) return v.kind === ValueKind.Argument;
    const def = (v as Instruction).parent;
    return def !== null && def !== bb && dt.isReachable(bb.id) && dt.dominates(def.id, bb.id);
  };
}

/**
 * Simplifies an instruction: returns a constant or an existing value equal to it (never
 * the instruction itself), or null. Does not mutate anything.
 */
export function simplifyInstruction(i: Instruction, opts: SimplifyOptions = {}): Value | null {
  const ops = i.ops;
  // the common cases without an operand array (this runs on every visit of every pass)
  const op = i.op;
  if (isBinaryOp(op)) return simplifyBinOp(op, ops[0].value, ops[1].value, i.flags);
  if (isCastOp(op)) return simplifyCast(op, ops[0].value, i.type, i.flags);
  if (op === Opcode.ICmp) return simplifyICmp(i.pred, ops[0].value, ops[1].value);
  const vals = new Array<Value>(ops.length);
  for (let k = 0; k < ops.length; k++) vals[k] = ops[k].value;
  const r = simplifyWithOperands(i, vals, opts);
  return r === i ? null : r;
}

/**
 * Simplifies instruction `i` as if its operands were `ops` (same layout as `i.ops`): what
 * SCCP and GVN use to evaluate an instruction on lattice constants or value-number
 * leaders. The result may be `i` itself only for phis that reference themselves.
 */
export function simplifyWithOperands(i: Instruction, ops: readonly Value[], opts: SimplifyOptions = {}): Value | null {
  const op = i.op;
  if (isBinaryOp(op)) return simplifyBinOp(op, ops[0], ops[1], i.flags);
  if (isCastOp(op)) return simplifyCast(op, ops[0], i.type, i.flags);
  switch (op) {
    case Opcode.ICmp:
      return simplifyICmp(i.pred, ops[0], ops[1]);
    case Opcode.FCmp:
      return simplifyFCmp(i.pred, ops[0], ops[1], i.flags);
    case Opcode.Select:
      return simplifySelect(ops[0], ops[1], ops[2]);
    case Opcode.FNeg:
      return simplifyFNeg(ops[0]);
    case Opcode.Freeze:
      return simplifyFreeze(ops[0]);
    case Opcode.Phi: {
      if (ops.length === 0) return null;
      const bb = i.parent;
      const dom = opts.dominatesPhi;
      return simplifyPhiValues(ops, i, dom && bb ? (v) => dom(v, bb) : null);
    }
    case Opcode.GetElementPtr:
      return simplifyGEP(i.auxType, ops[0], ops.slice(1), i.flags);
    case Opcode.Load: {
      if (i.flags & (Flag.Volatile | Flag.Atomic)) return null;
      const p = ops[0];
      if (p.kind === ValueKind.GlobalVariable || p.kind === ValueKind.ConstantExpr) return simplifyLoadFromConstant(p, i.type);
      return null;
    }
    case Opcode.ExtractValue: {
      // extractvalue (insertvalue agg, v, idx), idx -> v
      const agg = ops[0];
      if (isInst(agg) && agg.op === Opcode.InsertValue && sameIndices(agg.indices, i.indices)) return agg.ops[1].value;
      if (isUndefOrPoison(agg)) return isPoison(agg) ? poison(i.type) : UndefValue.get(i.type);
      return null;
    }
    case Opcode.InsertValue: {
      // insertvalue agg, (extractvalue agg, idx), idx -> agg
      const v = ops[1];
      if (isInst(v) && v.op === Opcode.ExtractValue && v.ops[0].value === ops[0] && sameIndices(v.indices, i.indices)) return ops[0];
      return null;
    }
    case Opcode.Call: {
      const fn = i.calledFunction() as Function | null;
      if (fn === null || !fn.name.startsWith('llvm.')) return null;
      const args = ops.slice(1);
      if (fn.name.startsWith('llvm.ssa.copy')) return args[0] ?? null;
      return simplifyIntrinsic(fn.name, args, i.type);
    }
    default:
      return null;
  }
}

function sameIndices(a: number[] | null, b: number[] | null): boolean {
  if (a === null || b === null || a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * Folds an instruction whose operands are given as constants (SCCP's lattice values):
 * returns the constant, or null when it cannot. `operands[k]` replaces operand k.
 */
export function constantFoldInstruction(i: Instruction, operands: readonly Constant[]): Constant | null {
  const op = i.op;
  if (isBinaryOp(op)) return constantFoldBinOp(op, operands[0], operands[1], i.flags);
  if (isCastOp(op)) return constantFoldCast(op, operands[0], i.type, i.flags);
  switch (op) {
    case Opcode.ICmp:
    case Opcode.FCmp:
      return constantFoldCompare(i.pred, operands[0], operands[1]);
    case Opcode.Select: {
      const c = operands[0];
      if (isCInt(c)) return c.value !== 0n ? operands[1] : operands[2];
      if (operands[1] === operands[2]) return operands[1];
      return null;
    }
    case Opcode.FNeg: {
      const r = simplifyFNeg(operands[0]);
      return r !== null && isConstantValue(r) ? (r as Constant) : null;
    }
    case Opcode.Freeze:
      return isGuaranteedNotUndefOrPoison(operands[0]) ? operands[0] : null;
    default:
      return null;
  }
}

/** Whether simplification of `op` is commutative (exported for CSE keys). */
export { isCommutative };

export { cint as constantInt };
