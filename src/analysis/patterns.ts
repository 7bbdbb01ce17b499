/**
 * Small matchers and constructors the folding and simplification code shares (after LLVM's
 * PatternMatch.h): what kind of value this is, `not x`, `0 - x`, the constant zero, one,
 * all-ones of a type.
 */
import { Constant, ConstantFP, ConstantInt, PoisonValue } from '../ir/constants.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { Type, TypeKind } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';


export const isInst = (v: Value): v is Instruction => v.kind === ValueKind.Instruction;
export const isCInt = (v: Value): v is ConstantInt => v.kind === ValueKind.ConstantInt;
export const isCFP = (v: Value): v is ConstantFP => v.kind === ValueKind.ConstantFP;
export const isPoison = (v: Value): boolean => v.kind === ValueKind.Poison;
export const isUndef = (v: Value): boolean => v.kind === ValueKind.Undef;
export const isUndefOrPoison = (v: Value): boolean => v.kind === ValueKind.Undef || v.kind === ValueKind.Poison;

export function cint(t: Type, v: bigint): ConstantInt {
  return ConstantInt.get(t, v);
}
export function poison(t: Type): Constant {
  return PoisonValue.get(t);
}
/** Whether `t` is a scalar type we fold floats of (float, double). */
export function isFoldableFP(t: Type): boolean {
  return t.kind === TypeKind.Float || t.kind === TypeKind.Double;
}
/** Zero of an integer type, or null for non-integers. */
export function zeroOf(t: Type): ConstantInt {
  return cint(t, 0n);
}
export function isZeroInt(v: Value): boolean {
  return isCInt(v) && v.num === 0;
}
export function isOneInt(v: Value): boolean {
  return isCInt(v) && v.num === (v.type.bits === 1 ? -1 : 1);
}
export function isAllOnesInt(v: Value): boolean {
  return isCInt(v) && v.num === -1;
}
/** `x` is `xor y, -1` (bitwise not): returns y, else null. */
export function matchNot(x: Value): Value | null {
  if (isInst(x) && x.op === Opcode.Xor && isAllOnesInt(x.ops[1].value)) return x.ops[0].value;
  return null;
}
/** `x` is `sub 0, y`: returns y, else null. */
export function matchNeg(x: Value): Value | null {
  if (isInst(x) && x.op === Opcode.Sub && isZeroInt(x.ops[0].value)) return x.ops[1].value;
  return null;
}
