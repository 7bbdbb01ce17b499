/**
 * instcombine rules for getelementptr (LLVM's InstructionCombining.cpp, visitGEP): constant
 * steps summed, and a GEP of a GEP merged into one address computation.
 */
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { TypeKind, gepStepType, type Type } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import { isCInt, isInst } from '../../analysis/patterns.js';
import { fitsSigned } from '../../util/apint.js';
import { ci, isZero } from './helpers.js';
import type { InstCombiner } from './combiner.js';

export function combineGEP(ic: InstCombiner, i: Instruction): Value | null {
  const merged = mergeGEPs(ic, i);
  if (merged !== null) return merged;
  if (i.ops.length !== 2) return null;
  const base = i.ops[0].value;
  const idx = i.ops[1].value;
  if (!isInst(base) || base.op !== Opcode.GetElementPtr || base.ops.length !== 2 || base.auxType !== i.auxType) return null;
  const idx0 = base.ops[1].value;
  if (!isCInt(idx) || !isCInt(idx0) || idx.type !== idx0.type) return null;
  const sum = idx.value + idx0.value;
  if (!fitsSigned(sum, idx.type.bits)) return null;
  const g = new Instruction(Opcode.GetElementPtr, i.type, [base.ops[0].value, ci(idx.type, sum)]);
  g.auxType = i.auxType;
  // inbounds of both steps does not make the sum step inbounds when the steps have opposite signs
  const sameSign = (idx.value >= 0n) === (idx0.value >= 0n);
  g.flags = sameSign ? i.flags & base.flags & Flag.InBounds : 0;
  return ic.insert(g);
}

/**
 * gep T, (gep S, p, a0, …, an), 0, b1, …, bm → gep S, p, a0, …, an, b1, …, bm when T is the
 * type the inner GEP's indices reach (LLVM's GEP-of-GEP merge: one address computation
 * instead of two, e.g. a[i][j] through a row pointer). The inner GEP stays for its other
 * users; the result is inbounds only when both were (the flags of an index step say
 * nothing about a step taken together with another).
 */
function mergeGEPs(ic: InstCombiner, i: Instruction): Value | null {
  const base = i.ops[0].value;
  if (i.ops.length < 3 || !isZero(i.ops[1].value) || !isInst(base) || base.op !== Opcode.GetElementPtr) return null;
  if (base.type !== i.type || base.auxType === null || i.auxType === null) return null;
  let t: Type = base.auxType;
  for (let k = 2; k < base.ops.length; k++) {
    const x = base.ops[k].value;
    const next = gepStepType(t, isCInt(x) ? Number(x.value) : null);
    if (next === null) return null;
    t = next;
  }
  if (t !== i.auxType || t.kind === TypeKind.Vector) return null;
  const ops: Value[] = [];
  for (const u of base.ops) ops.push(u.value);
  for (let k = 2; k < i.ops.length; k++) ops.push(i.ops[k].value);
  const g = new Instruction(Opcode.GetElementPtr, i.type, ops);
  g.auxType = base.auxType;
  g.flags = i.flags & base.flags & Flag.InBounds;
  return ic.insert(g);
}
