/**
 * instcombine rules for mul, div and rem (LLVM's InstCombineMulDivRem.cpp): strength
 * reduction by powers of two (`mul` → `shl`, `udiv` → `lshr`, `urem` → `and`; the signed
 * forms when the dividend is known non-negative, or `instcombine<sdiv-pow2>` with the
 * rounding fix-up), reassociation of constant factors, and `x * -1` → `0 - x`.
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import type { Value } from '../../ir/value.js';
import { isKnownNonNegative } from '../../analysis/value-tracking.js';
import { maskedValueIsZero } from '../../analysis/known-bits.js';
import { isRangeNonNegative } from '../../analysis/signed-range.js';
import { isCInt } from '../../analysis/patterns.js';
import { fitsUnsigned, signedMin } from '../../util/apint.js';
import { ci, isZero, log2Exact, binaryParts, reassocFlags, boolExtBinop } from './helpers.js';
import type { InstCombiner } from './combiner.js';

export function combineMulDivRem(ic: InstCombiner, i: Instruction): Value | null {
  const { t, w, a, flags, nsw, nuw, bc, ai } = binaryParts(i);
  switch (i.op) {
    case Opcode.Mul: {
      if (bc === null) return null;
      if (bc.value === -1n) return ic.bin(Opcode.Sub, ci(t, 0n), a, nsw ? Flag.NSW : 0);
      const k = log2Exact(bc.zext());
      if (k > 0) {
        // nsw holds for the shift unless 2^k is INT_MIN (shl nsw by w-1 is stricter)
        let f = 0;
        if (nuw) f |= Flag.NUW;
        if (nsw && k < w - 1) f |= Flag.NSW;
        return ic.bin(Opcode.Shl, a, ci(t, BigInt(k)), f);
      }
      if (ai !== null && ai.op === Opcode.Mul && isCInt(ai.ops[1].value)) {
        const c1 = ai.ops[1].value as ConstantInt;
        return ic.bin(Opcode.Mul, ai.ops[0].value, ci(t, c1.value * bc.value), reassocFlags(ai.flags, flags, c1, bc, Opcode.Mul));
      }
      if (ai !== null) {
        const s = boolExtBinop(ic, ai, bc, (x) => x * bc.value);
        if (s !== null) return s;
      }
      return null;
    }
    case Opcode.UDiv: {
      if (bc === null) return null;
      const k = log2Exact(bc.zext());
      if (k > 0) return ic.bin(Opcode.LShr, a, ci(t, BigInt(k)), flags & Flag.Exact);
      // (x udiv C1) udiv C2 -> x udiv (C1*C2), or 0 when the product overflows
      if (ai !== null && ai.op === Opcode.UDiv && isCInt(ai.ops[1].value) && !isZero(ai.ops[1].value) && bc.value !== 0n) {
        const p = (ai.ops[1].value as ConstantInt).zext() * bc.zext();
        return fitsUnsigned(p, w) ? ic.bin(Opcode.UDiv, ai.ops[0].value, ci(t, p)) : ci(t, 0n);
      }
      return null;
    }
    case Opcode.SDiv: {
      if (bc === null) return null;
      if (bc.value === -1n) return ic.bin(Opcode.Sub, ci(t, 0n), a); // INT_MIN / -1 is UB, so no nsw needed
      // both operands non-negative: the unsigned division is the same and cheaper (LLVM's
      // visitSDiv, "sdiv X, Y -> udiv X, Y if the sign bits of both are zero")
      if (bc.value > 0n && log2Exact(bc.value) <= 0 && isRangeNonNegative(a)) return ic.bin(Opcode.UDiv, a, bc, flags & Flag.Exact);
      const k = bc.value > 0n ? log2Exact(bc.value) : -1;
      if (k <= 0) return null;
      if (flags & Flag.Exact) return ic.bin(Opcode.AShr, a, ci(t, BigInt(k)), Flag.Exact);
      if (isKnownNonNegative(a)) return ic.bin(Opcode.LShr, a, ci(t, BigInt(k)));
      if (!ic.opts.sdivPow2) return null;
      // round toward zero: add 2^k - 1 to negative dividends before the arithmetic shift
      const sign = ic.bin(Opcode.AShr, a, ci(t, BigInt(w - 1)));
      const bias = ic.bin(Opcode.LShr, sign, ci(t, BigInt(w - k)));
      const sum = ic.bin(Opcode.Add, a, bias);
      return ic.bin(Opcode.AShr, sum, ci(t, BigInt(k)));
    }
    case Opcode.URem: {
      if (bc === null) return null;
      const k = log2Exact(bc.zext());
      if (k > 0 && maskedValueIsZero(a, bc.zext() - 1n)) return ci(t, 0n);
      if (k > 0) return ic.bin(Opcode.And, a, ci(t, bc.zext() - 1n));
      return null;
    }
    case Opcode.SRem: {
      if (bc === null) return null;
      // x srem -C == x srem C (the sign follows the dividend)
      if (bc.value < 0n && bc.value !== signedMin(w) && bc.value !== -1n) return ic.bin(Opcode.SRem, a, ci(t, -bc.value));
      const k = bc.value > 0n ? log2Exact(bc.value) : -1;
      // a multiple of 2^k leaves no remainder, whatever its sign (LLVM gets it from known bits)
      if (k > 0 && maskedValueIsZero(a, bc.value - 1n)) return ci(t, 0n);
      // a non-negative dividend, by its known bits or by its range (`(x srem 8) + 8` is in [1, 15])
      if (k > 0 && (isKnownNonNegative(a) || isRangeNonNegative(a))) return ic.bin(Opcode.And, a, ci(t, bc.value - 1n));
      // LLVM's visitSRem: "if the sign bits of both operands are zero, turn this into a urem"
      if (bc.value > 0n && k <= 0 && isRangeNonNegative(a)) return ic.bin(Opcode.URem, a, bc);
      return null;
    }
    default:
      return null;
  }
}
