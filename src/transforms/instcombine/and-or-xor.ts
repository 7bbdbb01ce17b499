/**
 * instcombine rules for and, or and xor (LLVM's InstCombineAndOrXor.cpp): constants
 * reassociated, `not (icmp p a b)` → `icmp !p a b`, and a logic op of `ext i1 c` with a
 * constant as a select; `and x, C` by the bits C demands (demanded-bits.ts); rotates and
 * funnel shifts by constants (funnel-shift.ts); and/or recurrences on an invariant
 * (idempotent-recurrence.ts).
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode, inversePred } from '../../ir/opcodes.js';
import { i1 } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import { isCInt } from '../../analysis/patterns.js';
import { ci, binaryParts, boolExtBinop } from './helpers.js';
import type { InstCombiner } from './combiner.js';
import { andIsRedundant, narrowMaskedBinOp, simplifyDemandedOperands } from './demanded-bits.js';
import { matchFunnelShift } from './funnel-shift.js';
import { foldIdempotentRecurrence } from './idempotent-recurrence.js';

export function combineAndOrXor(ic: InstCombiner, i: Instruction): Value | null {
  const { t, w, bc, ai } = binaryParts(i);
  switch (i.op) {
    case Opcode.And:
    case Opcode.Or:
    case Opcode.Xor: {
      if (bc !== null && ai !== null && ai.op === i.op && isCInt(ai.ops[1].value)) {
        const c1 = (ai.ops[1].value as ConstantInt).value;
        const v = i.op === Opcode.And ? c1 & bc.value : i.op === Opcode.Or ? c1 | bc.value : c1 ^ bc.value;
        return ic.bin(i.op, ai.ops[0].value, ci(t, v));
      }
      // the mask says which bits are demanded (demanded-bits.ts)
      if (i.op === Opcode.And && bc !== null) {
        const r = andIsRedundant(i) ?? narrowMaskedBinOp(i, ic.sink);
        if (r !== null) return r;
        if (simplifyDemandedOperands(i, ic.sink)) return i;
      }
      // op (phi [s], [op(phi, x)]), x -> op s, x for and/or (idempotent-recurrence.ts)
      if (i.op !== Opcode.Xor) {
        const r = foldIdempotentRecurrence(ic, i);
        if (r !== null) return r;
      }
      // or (shl X, C), (lshr Y, W-C) -> fshl X, Y, C (funnel-shift.ts)
      if (i.op === Opcode.Or && bc === null) {
        const r = matchFunnelShift(ic, i);
        if (r !== null) return r;
      }
      if (i.op === Opcode.Xor && w === 1 && bc !== null && bc.value === -1n && ai !== null) {
        // not (icmp p a b) -> icmp !p a b
        if (ai.op === Opcode.ICmp || ai.op === Opcode.FCmp) {
          const n = new Instruction(ai.op, i1, [ai.ops[0].value, ai.ops[1].value]);
          n.pred = inversePred(ai.pred);
          n.flags = ai.flags;
          return ic.insert(n);
        }
      }
      if (ai !== null && bc !== null) {
        const f = i.op === Opcode.And ? (x: bigint) => x & bc.value : i.op === Opcode.Or ? (x: bigint) => x | bc.value : (x: bigint) => x ^ bc.value;
        const s = boolExtBinop(ic, ai, bc, f);
        if (s !== null) return s;
      }
      return null;
    }
    default:
      return null;
  }
}
