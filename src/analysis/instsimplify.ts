/**
 * Instruction simplification, after LLVM's InstructionSimplify.cpp: pure functions that,
 * given an instruction (or an opcode and operands), return an EXISTING simpler value or a
 * constant that it is equal to. Constants are folded by constant-folding.ts; facts about
 * operands come from value-tracking.ts.
 *
 * Invariants:
 *  - Nothing here mutates IR or creates instructions; only interned constants are made.
 *  - A returned value is either a constant or one of the inputs' operands (or their
 *    operands), which already dominate the instruction — so a caller may replace every
 *    use of the instruction with it. (Phis: see simplifyPhiValues.)
 *  - `undef` is refined to a convenient value only where LLVM does; poison propagates.
 *
 * The SysY frontend folds on the fly with simplifyBinOp / simplifyICmp / simplifyCast /
 * simplifySelect, which need no Instruction object.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import { Constant, ConstantFP, ConstantInt, UndefValue } from '../ir/constants.js';
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { DominatorTree } from './dominators.js';
import { signedMax, signedMin, unsignedMax } from '../util/apint.js';
import { allocSize } from '../ir/layout.js';
import { Flag, Opcode, Pred, isBinaryOp, isCastOp, isCommutative, swappedPred } from '../ir/opcodes.js';
import { Type, TypeKind, i1 } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';

import { cint, isAllOnesInt, isCFP, isCInt, isFoldableFP, isInst, isOneInt, isPoison, isUndef, isUndefOrPoison, isZeroInt, matchNeg, matchNot, poison, zeroOf } from './patterns.js';
import { isBelowModulus, isNonNegativeBelow } from './signed-range.js';
import { KnownRange, isDistinctObjectPair, isGuaranteedNotUndefOrPoison, isKnownNonNullPtr, knownRange } from './value-tracking.js';
import { constantFoldBinOp, constantFoldIntrinsic, constantFoldCast, constantFoldCompare, isTrueWhenEqual, simplifyLoadFromConstant } from './constant-folding.js';

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
      // |x| < |c|: the quotient is 0 (LLVM's isDivZero, with computeConstantRange)
      if (isCInt(b) && (op === Opcode.SDiv ? isBelowModulus(a, b.value) : isNonNegativeBelow(a, b.zext()))) return zeroOf(t);
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
      // |x| < |c|: the remainder is x (LLVM's simplifyRem through isDivZero)
      if (isCInt(b) && (op === Opcode.SRem ? isBelowModulus(a, b.value) : isNonNegativeBelow(a, b.zext()))) return a;
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
      // idempotence: (x & y) & y -> x & y ; y & (x & y) -> x & y (LLVM: simplifyAssociativeBinOp)
      if (isInst(a) && a.op === Opcode.And && (a.ops[0].value === b || a.ops[1].value === b)) return a;
      if (isInst(b) && b.op === Opcode.And && (b.ops[0].value === a || b.ops[1].value === a)) return b;
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
      // idempotence: (x | y) | y -> x | y ; y | (x | y) -> x | y (LLVM: simplifyAssociativeBinOp)
      if (isInst(a) && a.op === Opcode.Or && (a.ops[0].value === b || a.ops[1].value === b)) return a;
      if (isInst(b) && b.op === Opcode.Or && (b.ops[0].value === a || b.ops[1].value === a)) return b;
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

// ---- calls ------------------------------------------------------------------------------

function simplifyIntrinsic(name: string, args: readonly Value[], ty: Type): Value | null {
  if (ty.kind !== TypeKind.Int) return null;
  // min/max of a value and itself is that value; the rest folds only on constants
  if (args.length === 2 && args[0] === args[1] && /^llvm\.[su]m(ax|in)(\.i\d+)?$/.test(name)) return args[0];
  return constantFoldIntrinsic(name, args, ty);
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

// Constant folding and value facts lived in this file until constant-folding.ts and
// value-tracking.ts were split off from it; code that imports them from here keeps working.
export {
  bigintToFloat32,
  constantFoldBinOp,
  constantFoldCast,
  constantFoldCompare,
  constantFoldConstantExpr,
  constantGEPInstOffset,
  constantGEPOffset,
  evalFCmp,
  evalICmp,
  foldIntBinary,
  isTrueWhenEqual,
  POISON_FLAGS,
  readConstantAt,
  simplifyLoadFromConstant,
} from './constant-folding.js';
export { isGuaranteedNotUndefOrPoison, isKnownNonNegative, knownRange, type KnownRange } from './value-tracking.js';
