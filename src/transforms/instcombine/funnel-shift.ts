/**
 * Rotates and funnel shifts by constant amounts (LLVM's InstCombineAndOrXor.cpp
 * matchFunnelShift): `or (shl X, C), (lshr Y, W-C)` with 0 < C < W is `fshl X, Y, C`, one
 * call where C code spells three instructions; with X = Y it is a rotate, as every hash and
 * cipher writes one (`(a << b) | (a >> (32 - b))`).
 *
 * Invariants: both shifts have one use (the or), as LLVM requires, so nothing is computed
 * twice; the amounts are constants summing to the width, so the result equals the or for
 * every input (no poison is introduced: shifts by less than the width are defined, and so is
 * the funnel shift).
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { functionType, type Type } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import type { InstCombiner } from './combiner.js';

function constShift(v: Value, op: Opcode): { x: Value; c: bigint } | null {
  if (!(v instanceof Instruction) || v.op !== op || v.firstUse === null || v.firstUse.next !== null) return null;
  const c = v.ops[1].value;
  return c instanceof ConstantInt ? { x: v.ops[0].value, c: c.value } : null;
}

/** `or` of opposite constant shifts summing to the width → `llvm.fshl`; null when it does not match. */
export function matchFunnelShift(ic: InstCombiner, or: Instruction): Value | null {
  const t: Type = or.type;
  if (!t.isInt()) return null;
  const w = BigInt(t.bits);
  const fn = or.parent?.parent;
  const m = fn?.parent;
  if (m === null || m === undefined) return null;
  for (const [a, b] of [[0, 1], [1, 0]]) {
    const hi = constShift(or.ops[a].value, Opcode.Shl);
    const lo = constShift(or.ops[b].value, Opcode.LShr);
    if (hi === null || lo === null || hi.c <= 0n || lo.c <= 0n || hi.c + lo.c !== w) continue;
    const callee = m.getOrInsertFunction(`llvm.fshl.i${t.bits}`, functionType(t, [t, t, t]));
    if (callee === null) return null;
    const call = new Instruction(Opcode.Call, t, [callee, hi.x, lo.x, ConstantInt.get(t, hi.c)]);
    call.auxType = callee.fnType;
    return ic.insert(call);
  }
  return null;
}
