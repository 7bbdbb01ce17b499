/**
 * instcombine rules for select (LLVM's InstCombineSelect.cpp): `select (not c), a, b` →
 * `select c, b, a`; selects of the constants 0/1/-1 as `not`, `zext`, `sext`.
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { TypeKind, i1 } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import { isCInt, isInst } from '../../analysis/patterns.js';
import type { InstCombiner } from './combiner.js';

export function combineSelect(ic: InstCombiner, i: Instruction): Value | null {
  const c = i.ops[0].value;
  const a = i.ops[1].value;
  const b = i.ops[2].value;
  const t = i.type;
  if (c.type !== i1) return null;
  // select (not c), a, b -> select c, b, a
  if (isInst(c) && c.op === Opcode.Xor && isCInt(c.ops[1].value) && (c.ops[1].value as ConstantInt).value === -1n) {
    i.setOperand(0, c.ops[0].value);
    i.setOperand(1, b);
    i.setOperand(2, a);
    return i;
  }
  if (t.kind !== TypeKind.Int || !isCInt(a) || !isCInt(b)) return null;
  if (t === i1) {
    if (a.value === 0n && b.value === -1n) return ic.not(c); // c ? false : true
    return null;
  }
  if (a.value === 1n && b.value === 0n) return ic.cast(Opcode.ZExt, c, t);
  if (a.value === -1n && b.value === 0n) return ic.cast(Opcode.SExt, c, t);
  return null;
}
