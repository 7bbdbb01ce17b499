/**
 * instcombine rules for add and sub (LLVM's InstCombineAddSub.cpp): reassociation of
 * constants, `x - C` → `x + -C`, negations, `x + x` → `x << 1`, and `(zext i1 c) ± C` →
 * a select of constants.
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { isCInt, isInst } from '../../analysis/patterns.js';
import { signedMin } from '../../util/apint.js';
import { ci, isZero, binaryParts, reassocFlags, boolExtBinop } from './helpers.js';
import type { InstCombiner } from './combiner.js';

export function combineAddSub(ic: InstCombiner, i: Instruction): Value | null {
  const { t, w, a, b, flags, nsw, bc, ai } = binaryParts(i);
  switch (i.op) {
    case Opcode.Add: {
      if (bc !== null && ai !== null) {
        // (x + C1) + C2 -> x + (C1 + C2)
        if (ai.op === Opcode.Add && isCInt(ai.ops[1].value)) {
          const c1 = ai.ops[1].value as ConstantInt;
          return ic.bin(Opcode.Add, ai.ops[0].value, ci(t, c1.value + bc.value), reassocFlags(ai.flags, flags, c1, bc, Opcode.Add));
        }
        // (C1 - x) + C2 -> (C1 + C2) - x
        if (ai.op === Opcode.Sub && isCInt(ai.ops[0].value)) {
          return ic.bin(Opcode.Sub, ci(t, (ai.ops[0].value as ConstantInt).value + bc.value), ai.ops[1].value);
        }
        // ~x + 1 -> 0 - x
        if (ai.op === Opcode.Xor && isCInt(ai.ops[1].value) && (ai.ops[1].value as ConstantInt).value === -1n && bc.value === 1n) {
          return ic.bin(Opcode.Sub, ci(t, 0n), ai.ops[0].value);
        }
        // (zext i1 c) + C -> select c, C+1, C ; (sext i1 c) + C -> select c, C-1, C
        const s = boolExtBinop(ic, ai, bc, (x) => x + bc.value);
        if (s !== null) return s;
      }
      // (0 - x) + y -> y - x ; y + (0 - x) -> y - x
      if (ai !== null && ai.op === Opcode.Sub && isZero(ai.ops[0].value)) return ic.bin(Opcode.Sub, b, ai.ops[1].value);
      if (isInst(b) && b.op === Opcode.Sub && isZero(b.ops[0].value)) return ic.bin(Opcode.Sub, a, b.ops[1].value);
      // x + x -> x << 1
      if (a === b && w > 1) return ic.bin(Opcode.Shl, a, ci(t, 1n), flags & (Flag.NSW | Flag.NUW));
      return null;
    }
    case Opcode.Sub: {
      // x - C -> x + (-C): nsw survives unless C is INT_MIN (whose negation wraps)
      if (bc !== null) return ic.bin(Opcode.Add, a, ci(t, -bc.value), nsw && bc.value !== signedMin(w) ? Flag.NSW : 0);
      const bi = isInst(b) ? b : null;
      if (isCInt(a) && bi !== null) {
        const ac = a as ConstantInt;
        // C1 - (x + C2) -> (C1 - C2) - x
        if (bi.op === Opcode.Add && isCInt(bi.ops[1].value)) return ic.bin(Opcode.Sub, ci(t, ac.value - (bi.ops[1].value as ConstantInt).value), bi.ops[0].value);
        // C1 - (C2 - x) -> x + (C1 - C2)
        if (bi.op === Opcode.Sub && isCInt(bi.ops[0].value)) return ic.bin(Opcode.Add, bi.ops[1].value, ci(t, ac.value - (bi.ops[0].value as ConstantInt).value));
        // C - (zext i1 c) -> select c, C-1, C
        const s = boolExtBinop(ic, bi, ac, (x) => ac.value - x);
        if (s !== null) return s;
      }
      if (bi !== null) {
        // x - (0 - y) -> x + y
        if (bi.op === Opcode.Sub && isZero(bi.ops[0].value)) return ic.bin(Opcode.Add, a, bi.ops[1].value);
        // x - (x + y) -> 0 - y
        if (bi.op === Opcode.Add) {
          if (bi.ops[0].value === a) return ic.bin(Opcode.Sub, ci(t, 0n), bi.ops[1].value);
          if (bi.ops[1].value === a) return ic.bin(Opcode.Sub, ci(t, 0n), bi.ops[0].value);
        }
      }
      // (x - y) - x -> 0 - y
      if (ai !== null && ai.op === Opcode.Sub && ai.ops[0].value === b && !isZero(b)) return ic.bin(Opcode.Sub, ci(t, 0n), ai.ops[1].value);
      return null;
    }
    default:
      return null;
  }
}
