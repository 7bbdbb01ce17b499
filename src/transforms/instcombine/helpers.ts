/**
 * What the instcombine rules share: constant makers and tests, the operands of a binary
 * instruction, operand canonicalization (constants to the right), the flags a
 * reassociation keeps, and `f(ext i1 c)` as a select of constants.
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode, isCommutative } from '../../ir/opcodes.js';
import { i1, type Type } from '../../ir/types.js';
import { ValueKind, type Value } from '../../ir/value.js';
import { isCInt, isInst } from '../../analysis/patterns.js';
import { fitsSigned, fitsUnsigned } from '../../util/apint.js';
import type { InstCombiner } from './combiner.js';

/** A constant operand (not a global: its address is constant but not foldable). */
export const isConst = (v: Value): boolean => v.kind >= ValueKind.ConstantInt;

export function ci(t: Type, v: bigint): ConstantInt {
  return ConstantInt.get(t, v);
}

export function isZero(v: Value): boolean {
  return isCInt(v) && v.value === 0n;
}

/** log2 of a power of two given as an unsigned bigint, else -1. */
export function log2Exact(u: bigint): number {
  if (u <= 0n || (u & (u - 1n)) !== 0n) return -1;
  return u.toString(2).length - 1;
}

/** The parts of an integer binary instruction the arithmetic rules read. */
export function binaryParts(i: Instruction): { t: Type; w: number; a: Value; b: Value; flags: number; nsw: boolean; nuw: boolean; bc: ConstantInt | null; ai: Instruction | null } {
  const t = i.type;
  const a = i.ops[0].value;
  const b = i.ops[1].value;
  const flags = i.flags;
  return { t, w: t.bits, a, b, flags, nsw: (flags & Flag.NSW) !== 0, nuw: (flags & Flag.NUW) !== 0, bc: isCInt(b) ? b : null, ai: isInst(a) ? a : null };
}

export function swapOperands(i: Instruction): void {
  const a = i.ops[0].value;
  const b = i.ops[1].value;
  i.setOperand(0, b);
  i.setOperand(1, a);
}

export function canonicalizeOperands(i: Instruction): Instruction | null {
  if (isCommutative(i.op) && isConst(i.ops[0].value) && !isConst(i.ops[1].value)) {
    swapOperands(i);
    return i;
  }
  return null;
}

/** Flags for (x op C1) op C2 -> x op (C1 op C2): kept when both had them and C1 op C2 does not wrap. */
export function reassocFlags(f1: number, f2: number, c1: ConstantInt, c2: ConstantInt, op: Opcode): number {
  const w = c1.type.bits;
  let f = 0;
  const both = f1 & f2;
  if (both & Flag.NSW) {
    const r = op === Opcode.Add ? c1.value + c2.value : c1.value * c2.value;
    if (fitsSigned(r, w)) f |= Flag.NSW;
  }
  if (both & Flag.NUW) {
    const r = op === Opcode.Add ? c1.zext() + c2.zext() : c1.zext() * c2.zext();
    if (fitsUnsigned(r, w)) f |= Flag.NUW;
  }
  return f;
}

/**
 * `f(ext c)` for an i1 `c` extended by a single-use zext/sext: a select of the two
 * folded constants (one instruction instead of two).
 */
export function boolExtBinop(ic: InstCombiner, ext: Instruction, _c: ConstantInt, f: (x: bigint) => bigint): Value | null {
  if ((ext.op !== Opcode.ZExt && ext.op !== Opcode.SExt) || !ext.hasOneUse()) return null;
  const cond = ext.ops[0].value;
  if (cond.type !== i1) return null;
  const t = ext.type;
  const onTrue = f(ext.op === Opcode.ZExt ? 1n : -1n);
  const onFalse = f(0n);
  return ic.select(cond, ci(t, onTrue), ci(t, onFalse));
}
