/**
 * Constant folding, after LLVM's ConstantFolding.cpp: given an opcode and constant
 * operands, the constant result, or null when it cannot be folded; and reading constant
 * memory (a load from a constant global's initializer at a constant offset).
 *
 * Invariants:
 *  - Nothing here mutates IR or creates instructions; only interned constants are made.
 *  - Folding follows LLVM's semantics exactly: integers wrap at their width (BigInt, any
 *    width); a result that `nsw`/`nuw`/`exact`/`disjoint`/`nneg` would make poison folds to
 *    poison, never to the wrapped value; division or remainder by zero and INT_MIN / -1
 *    (immediate UB) are never folded; shifts by >= the width give poison; float folding is
 *    IEEE double, and single precision via Math.fround (double rounding is innocuous for
 *    + - * / of floats: 53 >= 2*24+2). Results that would be NaN are not folded (LLVM's
 *    folded NaN is positive where x86 makes -nan, and printf shows the difference).
 *  - `undef` is refined to a convenient value only where LLVM does; poison propagates
 *    through arithmetic.
 */
import { Constant, ConstantAggregate, ConstantExpr, ConstantFP, ConstantInt, ConstantNull, ConstantString, UndefValue, nullValue } from '../ir/constants.js';
import type { GlobalVariable } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { signedMax, signedMin, unsignedMax } from '../util/apint.js';
import { allocSize, storeSize, structLayout } from '../ir/layout.js';
import { Flag, Opcode, Pred, isBinaryOp, isCastOp } from '../ir/opcodes.js';
import { gepStepType, Type, TypeKind, i1 } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { unreachable } from '../util/assert.js';

import { cint, isCFP, isCInt, isFoldableFP, isPoison, isUndef, poison, zeroOf } from './patterns.js';
import { isDistinctObjectPair, isKnownNonNullPtr } from './value-tracking.js';

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

// ---- comparisons of constants ---------------------------------------------------------

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

/** Folds a call of an integer intrinsic (min/max, abs, ctpop, bswap) on constant arguments. */
export function constantFoldIntrinsic(name: string, args: readonly Value[], ty: Type): Constant | null {
  if (ty.kind !== TypeKind.Int) return null;
  const w = ty.bits;
  const base = name.replace(/\.i\d+$/, '');
  if (args.length === 2) {
    const [a, b] = args;
    if (base === 'llvm.smax' || base === 'llvm.smin' || base === 'llvm.umax' || base === 'llvm.umin') {
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
