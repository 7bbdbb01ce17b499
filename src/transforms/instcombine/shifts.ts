/**
 * instcombine rules for shifts (LLVM's InstCombineShifts.cpp): shifts of shifts by
 * constants, and a shift undone by the opposite one as a mask.
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, isBinaryOp } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { isCInt } from '../../analysis/patterns.js';
import { ci, binaryParts } from './helpers.js';
import type { InstCombiner } from './combiner.js';

export function combineShift(ic: InstCombiner, i: Instruction): Value | null {
  const { t, w, bc, ai } = binaryParts(i);
  switch (i.op) {
    case Opcode.Shl:
    case Opcode.LShr:
    case Opcode.AShr: {
      if (bc === null || ai === null || !isBinaryOp(ai.op) || !isCInt(ai.ops[1].value)) return null;
      const c1 = (ai.ops[1].value as ConstantInt).zext();
      const c2 = bc.zext();
      const W = BigInt(w);
      if (c1 >= W || c2 >= W) return null;
      if (ai.op === i.op) {
        const sum = c1 + c2;
        if (sum < W) return ic.bin(i.op, ai.ops[0].value, ci(t, sum));
        return i.op === Opcode.AShr ? ic.bin(Opcode.AShr, ai.ops[0].value, ci(t, W - 1n)) : ci(t, 0n);
      }
      if (c1 === c2) {
        const all = (1n << W) - 1n;
        // (x >>u C) << C -> x & (-1 << C) ; (x << C) >>u C -> x & (-1 >>u C)
        if (i.op === Opcode.Shl && ai.op === Opcode.LShr) return ic.bin(Opcode.And, ai.ops[0].value, ci(t, (all << c1) & all));
        if (i.op === Opcode.LShr && ai.op === Opcode.Shl) return ic.bin(Opcode.And, ai.ops[0].value, ci(t, all >> c1));
      }
      return null;
    }
    default:
      return null;
  }
}
