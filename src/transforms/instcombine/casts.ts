/**
 * instcombine rules for casts (LLVM's InstCombineCasts.cpp): casts of casts, `zext (trunc
 * x)` back to x's type as a mask, `trunc (and x, C)` when C keeps the kept bits.
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { TypeKind } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import { isCInt, isInst } from '../../analysis/patterns.js';
import { ci } from './helpers.js';
import type { InstCombiner } from './combiner.js';

export function combineCast(ic: InstCombiner, i: Instruction): Value | null {
  const v = i.ops[0].value;
  const to = i.type;
  if (!isInst(v)) return null;
  const x = v.ops.length > 0 ? v.ops[0].value : null;
  if (x === null) return null;
  switch (i.op) {
    case Opcode.ZExt:
      if (v.op === Opcode.ZExt) return ic.cast(Opcode.ZExt, x, to);
      // zext (trunc x) to x's type -> x & mask
      if (v.op === Opcode.Trunc && x.type === to) return ic.bin(Opcode.And, x, ci(to, (1n << BigInt(v.type.bits)) - 1n));
      return null;
    case Opcode.SExt:
      if (v.op === Opcode.SExt) return ic.cast(Opcode.SExt, x, to);
      if (v.op === Opcode.ZExt) return ic.cast(Opcode.ZExt, x, to); // the top bit after zext is 0
      return null;
    case Opcode.Trunc:
      if (v.op === Opcode.Trunc) return ic.cast(Opcode.Trunc, x, to);
      // trunc (x & C) when C keeps every bit the trunc keeps -> trunc x
      if (v.op === Opcode.And && isCInt(v.ops[1].value) && to.kind === TypeKind.Int) {
        const m = (1n << BigInt(to.bits)) - 1n;
        if (((v.ops[1].value as ConstantInt).zext() & m) === m) return ic.cast(Opcode.Trunc, x, to);
      }
      if ((v.op === Opcode.ZExt || v.op === Opcode.SExt) && x.type.kind === TypeKind.Int) {
        if (x.type.bits > to.bits) return ic.cast(Opcode.Trunc, x, to);
        if (x.type.bits < to.bits) return ic.cast(v.op, x, to);
      }
      return null;
    case Opcode.BitCast:
      if (v.op === Opcode.BitCast && x.type !== to) return ic.cast(Opcode.BitCast, x, to);
      return null;
    default:
      return null;
  }
}
