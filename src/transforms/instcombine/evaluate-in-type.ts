/**
 * Casts of whole expression trees, after LLVM's InstCombineCasts.cpp (`canEvaluateZExtd`,
 * `canEvaluateTruncated`, `EvaluateInDifferentType`, used by `visitZExt` and `visitTrunc`):
 *
 *   zext (xor (trunc a), b') to T  -> and (xor a', b''), mask     (the tree evaluated in T)
 *   trunc (add (zext a), (zext b)) -> add a, b
 *
 * A cast of a tree of single-use integer operations (add/sub/mul/and/or/xor, shifts by
 * constants, selects, phis, with casts and constants at the leaves) is replaced by the same
 * tree computed in the cast's type, so that the casts at the leaves cancel with the casts
 * they meet there and the one at the root goes.
 *
 * Invariants:
 *  - zext: in the wide evaluation the low `srcBits - bitsToClear` bits of every node equal
 *    the narrow node's bits (bits above are garbage, cleared by a final `and` unless known
 *    zero); `bitsToClear` counts the top bits of the narrow value that are zero but wrong in
 *    the wide evaluation (brought down by `lshr`).
 *  - trunc: the low bits of add/sub/mul/and/or/xor/shl depend only on the operands' low
 *    bits; `lshr`/`udiv`/`urem` need the cut-off bits known zero, `ashr` enough sign bits.
 *  - Every inner node has exactly one use (the node above it), so the tree is a tree, the
 *    old nodes die with the root, and no cycle through phis is possible. Its depth is
 *    bounded by MAX_TREE_DEPTH, which bounds the recursion here.
 *  - Flags that could stop holding (nsw/nuw) are dropped; `exact` on shifts is kept (the
 *    bits shifted out are the same in both widths).
 *  - New instructions go right before the old ones they replace (a phi's before the phi),
 *    so nothing is computed more often than before.
 */
import { BasicBlock } from '../../ir/basic-block.js';
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { type Type, TypeKind } from '../../ir/types.js';
import { type Value, ValueKind } from '../../ir/value.js';
import { computeKnownBits, maskedValueIsZero } from '../../analysis/known-bits.js';

/** Where the rules put new instructions: before `at`, queued for the combiner. */
export interface NewInstSink {
  insertAt(inst: Instruction, at: Instruction): Instruction;
}

const MAX_TREE_DEPTH = 12;
const isInst = (v: Value): v is Instruction => v.kind === ValueKind.Instruction;
const mask = (w: number): bigint => (1n << BigInt(w)) - 1n;

/** x86-64's legal integer widths (the datalayout's n8:16:32:64). */
function isLegal(w: number): boolean {
  return w === 1 || w === 8 || w === 16 || w === 32 || w === 64;
}
function isDesirable(w: number): boolean {
  return w === 8 || w === 16 || w === 32;
}

/** LLVM's InstCombinerImpl::shouldChangeType. */
export function shouldChangeType(from: number, to: number): boolean {
  const fromLegal = isLegal(from);
  const toLegal = isLegal(to);
  if (to < from && isDesirable(to)) return true;
  if ((fromLegal || isDesirable(from)) && !toLegal) return false;
  if (!fromLegal && !toLegal && to > from) return false;
  return true;
}

/** Constants, and extensions from exactly `ty` (whatever their uses). */
function canAlwaysEvaluateInType(v: Value, ty: Type): boolean {
  if (v.kind === ValueKind.ConstantInt) return true;
  if (isInst(v) && (v.op === Opcode.ZExt || v.op === Opcode.SExt) && v.ops[0].value.type === ty) return true;
  return false;
}

function canNotEvaluateInType(v: Value): boolean {
  return !isInst(v) || !v.hasOneUse();
}

const isShiftAmountBelow = (amt: Value, w: number): boolean => amt.kind === ValueKind.ConstantInt && (amt as ConstantInt).zext() < BigInt(w);

/**
 * Whether `v` can be computed in the wider `ty` (LLVM's canEvaluateZExtd): the number of
 * bits to clear at the top of the narrow width, or -1.
 */
export function canEvaluateZExtd(v: Value, ty: Type, depth = 0): number {
  if (canAlwaysEvaluateInType(v, ty)) return 0;
  if (canNotEvaluateInType(v) || depth >= MAX_TREE_DEPTH) return -1;
  const i = v as Instruction;
  const d = depth + 1;
  switch (i.op) {
    case Opcode.ZExt:
    case Opcode.SExt:
    case Opcode.Trunc:
      return 0;
    case Opcode.And:
    case Opcode.Or:
    case Opcode.Xor:
    case Opcode.Add:
    case Opcode.Sub:
    case Opcode.Mul: {
      const b0 = canEvaluateZExtd(i.ops[0].value, ty, d);
      if (b0 < 0) return -1;
      const b1 = canEvaluateZExtd(i.ops[1].value, ty, d);
      if (b1 < 0) return -1;
      if (b0 === 0 && b1 === 0) return 0;
      // a logic op whose other side is zero where the first has bits to clear
      if (b1 === 0 && (i.op === Opcode.And || i.op === Opcode.Or || i.op === Opcode.Xor)) {
        const w = v.type.bits;
        const high = mask(w) & ~mask(w - b0);
        if (maskedValueIsZero(i.ops[1].value, high)) return i.op === Opcode.And ? 0 : b0;
      }
      return -1;
    }
    case Opcode.Shl: {
      const amt = i.ops[1].value;
      if (amt.kind !== ValueKind.ConstantInt) return -1;
      const b = canEvaluateZExtd(i.ops[0].value, ty, d);
      if (b < 0) return -1;
      const k = Number((amt as ConstantInt).zext());
      return k < b ? b - k : 0;
    }
    case Opcode.LShr: {
      const amt = i.ops[1].value;
      if (amt.kind !== ValueKind.ConstantInt) return -1;
      const b = canEvaluateZExtd(i.ops[0].value, ty, d);
      if (b < 0) return -1;
      const w = v.type.bits;
      const k = (amt as ConstantInt).zext();
      return k >= BigInt(w) ? w : Math.min(w, b + Number(k));
    }
    case Opcode.Select: {
      const t = canEvaluateZExtd(i.ops[1].value, ty, d);
      if (t < 0) return -1;
      const f = canEvaluateZExtd(i.ops[2].value, ty, d);
      return f === t ? f : -1;
    }
    case Opcode.Phi: {
      if (i.ops.length === 0) return -1;
      const b = canEvaluateZExtd(i.ops[0].value, ty, d);
      if (b < 0) return -1;
      for (let k = 1; k < i.ops.length; k++) if (canEvaluateZExtd(i.ops[k].value, ty, d) !== b) return -1;
      return b;
    }
    default:
      return -1;
  }
}

/** Whether `v` can be computed in the narrower `ty` (LLVM's canEvaluateTruncated). */
export function canEvaluateTruncated(v: Value, ty: Type, depth = 0): boolean {
  if (canAlwaysEvaluateInType(v, ty)) return true;
  if (canNotEvaluateInType(v) || depth >= MAX_TREE_DEPTH) return false;
  const i = v as Instruction;
  const d = depth + 1;
  const origW = v.type.bits;
  const w = ty.bits;
  const both = (): boolean => canEvaluateTruncated(i.ops[0].value, ty, d) && canEvaluateTruncated(i.ops[1].value, ty, d);
  switch (i.op) {
    case Opcode.Add:
    case Opcode.Sub:
    case Opcode.Mul:
    case Opcode.And:
    case Opcode.Or:
    case Opcode.Xor:
      return both();
    case Opcode.UDiv:
    case Opcode.URem: {
      const high = mask(origW) & ~mask(w);
      return maskedValueIsZero(i.ops[0].value, high) && maskedValueIsZero(i.ops[1].value, high) && both();
    }
    case Opcode.Shl:
      return isShiftAmountBelow(i.ops[1].value, w) && both();
    case Opcode.LShr:
      return isShiftAmountBelow(i.ops[1].value, w) && maskedValueIsZero(i.ops[0].value, mask(origW) & ~mask(w)) && both();
    case Opcode.AShr: {
      if (!isShiftAmountBelow(i.ops[1].value, w)) return false;
      // the bits from the narrow sign bit up are all equal (known zero or known one)
      const k = computeKnownBits(i.ops[0].value);
      const top = mask(origW) & ~mask(w - 1);
      return ((k.zero & top) === top || (k.one & top) === top) && both();
    }
    case Opcode.Trunc:
    case Opcode.ZExt:
    case Opcode.SExt:
      return true;
    case Opcode.Select:
      return canEvaluateTruncated(i.ops[1].value, ty, d) && canEvaluateTruncated(i.ops[2].value, ty, d);
    case Opcode.Phi:
      for (let k = 0; k < i.ops.length; k++) if (!canEvaluateTruncated(i.ops[k].value, ty, d)) return false;
      return i.ops.length > 0;
    default:
      return false;
  }
}

/** An integer cast of `v` to `ty`: trunc, zext/sext, or `v` itself. */
function integerCast(v: Value, ty: Type, signed: boolean, at: Instruction, sink: NewInstSink): Value {
  const from = v.type.bits;
  if (from === ty.bits) return v;
  if (v.kind === ValueKind.ConstantInt) {
    const c = v as ConstantInt;
    return ConstantInt.get(ty, from > ty.bits || signed ? c.value : c.zext());
  }
  const op = from > ty.bits ? Opcode.Trunc : signed ? Opcode.SExt : Opcode.ZExt;
  return sink.insertAt(new Instruction(op, ty, [v]), at);
}

/**
 * The tree of `v` computed in `ty` (LLVM's EvaluateInDifferentType); only for trees a
 * canEvaluate* above accepted, so the recursion follows the same bounded tree.
 */
export function evaluateInDifferentType(v: Value, ty: Type, signed: boolean, sink: NewInstSink): Value {
  if (v.kind === ValueKind.ConstantInt) {
    const c = v as ConstantInt;
    return ConstantInt.get(ty, signed ? c.value : c.zext());
  }
  const i = v as Instruction;
  switch (i.op) {
    case Opcode.Add:
    case Opcode.Sub:
    case Opcode.Mul:
    case Opcode.And:
    case Opcode.Or:
    case Opcode.Xor:
    case Opcode.AShr:
    case Opcode.LShr:
    case Opcode.Shl:
    case Opcode.UDiv:
    case Opcode.URem: {
      const a = evaluateInDifferentType(i.ops[0].value, ty, signed, sink);
      const b = evaluateInDifferentType(i.ops[1].value, ty, signed, sink);
      const n = new Instruction(i.op, ty, [a, b]);
      if (i.op === Opcode.LShr || i.op === Opcode.AShr) n.flags = i.flags & Flag.Exact;
      return sink.insertAt(n, i);
    }
    case Opcode.Trunc:
    case Opcode.ZExt:
    case Opcode.SExt:
      return integerCast(i.ops[0].value, ty, i.op === Opcode.SExt, i, sink);
    case Opcode.Select: {
      const a = evaluateInDifferentType(i.ops[1].value, ty, signed, sink);
      const b = evaluateInDifferentType(i.ops[2].value, ty, signed, sink);
      return sink.insertAt(new Instruction(Opcode.Select, ty, [i.ops[0].value, a, b]), i);
    }
    case Opcode.Phi: {
      const phi = new Instruction(Opcode.Phi, ty, []);
      phi.blocks = [];
      const blocks: BasicBlock[] = i.blocks!;
      const vals: Value[] = [];
      for (let k = 0; k < i.ops.length; k++) vals.push(evaluateInDifferentType(i.ops[k].value, ty, signed, sink));
      for (let k = 0; k < vals.length; k++) phi.addIncoming(vals[k], blocks[k]);
      return sink.insertAt(phi, i);
    }
    default:
      throw new Error(`evaluateInDifferentType: unexpected ${i.opcodeName}`);
  }
}

/** Is `sel` a min/max select (`select (icmp a, b), a, b` in some order)? LLVM leaves their casts alone. */
function isMinMax(sel: Instruction): boolean {
  const c = sel.ops[0].value;
  if (!isInst(c) || c.op !== Opcode.ICmp) return false;
  const a = sel.ops[1].value;
  const b = sel.ops[2].value;
  const x = c.ops[0].value;
  const y = c.ops[1].value;
  return (a === x && b === y) || (a === y && b === x);
}

/** visitZExt's "extend the entire expression tree to the wide destination type". */
export function foldZExtByEvaluation(zext: Instruction, sink: NewInstSink): Value | null {
  const src = zext.ops[0].value;
  const ty = zext.type;
  if (ty.kind !== TypeKind.Int || src.type.kind !== TypeKind.Int || !isInst(src)) return null;
  // a zext only used by a trunc: let the trunc go first
  if (zext.hasOneUse() && isInst(zext.firstUse!.user) && (zext.firstUse!.user as Instruction).op === Opcode.Trunc) return null;
  if (!shouldChangeType(src.type.bits, ty.bits)) return null;
  const bitsToClear = canEvaluateZExtd(src, ty);
  if (bitsToClear < 0) return null;
  // a root that is itself a cast is the existing cast-of-cast rules' business
  if (src.op === Opcode.ZExt || src.op === Opcode.SExt || src.op === Opcode.Trunc) return null;
  const res = evaluateInDifferentType(src, ty, false, sink);
  const kept = src.type.bits - bitsToClear;
  const high = mask(ty.bits) & ~mask(kept);
  if (maskedValueIsZero(res, high)) return res;
  return sink.insertAt(new Instruction(Opcode.And, ty, [res, ConstantInt.get(ty, mask(kept))]), zext);
}

/** visitTrunc's "truncate the entire input expression tree to the destination type". */
export function foldTruncByEvaluation(trunc: Instruction, sink: NewInstSink): Value | null {
  const src = trunc.ops[0].value;
  const ty = trunc.type;
  if (ty.kind !== TypeKind.Int || src.type.kind !== TypeKind.Int || !isInst(src)) return null;
  if (src.op === Opcode.Select && isMinMax(src)) return null;
  if (src.op === Opcode.ZExt || src.op === Opcode.SExt || src.op === Opcode.Trunc) return null;
  if (!shouldChangeType(src.type.bits, ty.bits)) return null;
  if (!canEvaluateTruncated(src, ty)) return null;
  return evaluateInDifferentType(src, ty, false, sink);
}
