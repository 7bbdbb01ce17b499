/**
 * Facts about values without looking at uses (after LLVM's ValueTracking.cpp): whether a
 * pointer is known non-null, whether two objects are known distinct, the range an integer
 * is known to lie in, whether a value can be undef or poison. One level of look-through:
 * these are the queries instsimplify and instcombine ask on every visit.
 */
import { ConstantExpr } from '../ir/constants.js';
import type { GlobalVariable } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { signedMax, signedMin, unsignedMax } from '../util/apint.js';
import { allocSize, storeSize } from '../ir/layout.js';
import { Flag, Opcode } from '../ir/opcodes.js';
import { TypeKind } from '../ir/types.js';
import { Argument, Value, ValueKind } from '../ir/value.js';

import { isCInt, isInst } from './patterns.js';

/** Whether a pointer is known not to be null (address space 0). */
export function isKnownNonNullPtr(v: Value): boolean {
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
export function isDistinctObjectPair(a: Value, b: Value): boolean {
  const obj = (v: Value): boolean =>
    (v.kind === ValueKind.Instruction && (v as Instruction).op === Opcode.Alloca && isNonEmptyAlloca(v as Instruction)) ||
    (v.kind === ValueKind.GlobalVariable && !(v as GlobalVariable).attrs.linkage.includes('extern_weak') && storeSize((v as GlobalVariable).valueType) > 0);
  return a !== b && obj(a) && obj(b);
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
