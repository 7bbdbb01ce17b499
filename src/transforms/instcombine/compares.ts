/**
 * instcombine rules for compares (LLVM's InstCombineCompares.cpp): constants to the right,
 * strict canonical predicates, compares of `x + C`, `x ^ C`, `C - x`, `x - y` and of
 * extended values moved to the operands, i1 compares as `not`.
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode, Pred, isSignedPred, swappedPred } from '../../ir/opcodes.js';
import { TypeKind } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import { isCInt, isInst } from '../../analysis/patterns.js';
import { fitsSigned, fitsUnsigned, signedMax, signedMin, unsignedMax } from '../../util/apint.js';
import { ci, isConst, swapOperands } from './helpers.js';
import type { InstCombiner } from './combiner.js';

export function combineICmp(ic: InstCombiner, i: Instruction): Value | null {
  const a = i.ops[0].value;
  const b = i.ops[1].value;
  if (isConst(a) && !isConst(b)) {
    swapOperands(i);
    i.pred = swappedPred(i.pred);
    return i;
  }
  const p = i.pred;
  if (a.type.kind !== TypeKind.Int) return null;
  const t = a.type;
  const w = t.bits;
  if (isCInt(b)) {
    const c = b.value;
    const uc = b.zext();
    // canonical strict predicates (the boundary constants were folded by instsimplify)
    if (p === Pred.SLE && c !== signedMax(w)) return newICmp(i, Pred.SLT, a, ci(t, c + 1n));
    if (p === Pred.SGE && c !== signedMin(w)) return newICmp(i, Pred.SGT, a, ci(t, c - 1n));
    if (p === Pred.ULE && uc !== unsignedMax(w)) return newICmp(i, Pred.ULT, a, ci(t, uc + 1n));
    if (p === Pred.UGE && uc !== 0n) return newICmp(i, Pred.UGT, a, ci(t, uc - 1n));
    if (p === Pred.ULT && uc === 1n) return newICmp(i, Pred.EQ, a, ci(t, 0n));
    if (p === Pred.UGT && uc === 0n) return newICmp(i, Pred.NE, a, ci(t, 0n));
    if (w === 1) {
      // icmp eq b, false -> !b ; icmp ne b, true -> !b
      if ((p === Pred.EQ && c === 0n) || (p === Pred.NE && c === -1n)) return ic.not(a);
    }
    if (isInst(a)) {
      const ai = a;
      const eqne = p === Pred.EQ || p === Pred.NE;
      const x0 = ai.ops.length > 0 ? ai.ops[0].value : null;
      const x1 = ai.ops.length > 1 ? ai.ops[1].value : null;
      // icmp (x + C1), C2 -> icmp x, C2 - C1
      if (ai.op === Opcode.Add && x1 !== null && isCInt(x1)) {
        const c1 = x1 as ConstantInt;
        if (eqne) return newICmp(i, p, x0!, ci(t, c - c1.value));
        if (isSignedPred(p) && ai.flags & Flag.NSW && fitsSigned(c - c1.value, w)) return newICmp(i, p, x0!, ci(t, c - c1.value));
        if (!isSignedPred(p) && ai.flags & Flag.NUW && uc >= c1.zext()) return newICmp(i, p, x0!, ci(t, uc - c1.zext()));
      }
      if (eqne) {
        // icmp (x ^ C1), C2 -> icmp x, C1 ^ C2
        if (ai.op === Opcode.Xor && x1 !== null && isCInt(x1)) return newICmp(i, p, x0!, ci(t, c ^ (x1 as ConstantInt).value));
        // icmp (C1 - x), C2 -> icmp x, C1 - C2
        if (ai.op === Opcode.Sub && isCInt(x0!)) return newICmp(i, p, x1!, ci(t, (x0 as ConstantInt).value - c));
        // icmp (x - y), 0 -> icmp x, y
        if (ai.op === Opcode.Sub && c === 0n) return newICmp(i, p, x0!, x1!);
      }
      // compares of extended values with constants that fit the source type
      if (ai.op === Opcode.ZExt) {
        const n = x0!.type.bits;
        if (fitsUnsigned(c, n) && (!isSignedPred(p) || c >= 0n)) return newICmp(i, unsignedPred(p), x0!, ci(x0!.type, c));
      }
      if (ai.op === Opcode.SExt) {
        const n = x0!.type.bits;
        if (fitsSigned(c, n)) return newICmp(i, p, x0!, ci(x0!.type, c));
      }
    }
    return null;
  }
  // icmp (zext x), (zext y) -> icmp x, y (unsigned) ; same for sext
  if (isInst(a) && isInst(b) && a.op === b.op && (a.op === Opcode.ZExt || a.op === Opcode.SExt)) {
    const x = a.ops[0].value;
    const y = b.ops[0].value;
    if (x.type === y.type) return newICmp(i, a.op === Opcode.ZExt ? unsignedPred(p) : p, x, y);
  }
  return null;
}

/** Rewrites the compare in place (keeping its name); null when nothing would change. */
function newICmp(i: Instruction, p: Pred, a: Value, b: Value): Instruction | null {
  if (i.ops[0].value === a && i.ops[1].value === b && i.pred === p) return null;
  // in place: keeps the instruction (and its name)
  i.setOperand(0, a);
  i.setOperand(1, b);
  i.pred = p;
  return i;
}

/** The unsigned predicate of the same order (for compares of zero-extended values). */
function unsignedPred(p: Pred): Pred {
  switch (p) {
    case Pred.SGT: return Pred.UGT;
    case Pred.SGE: return Pred.UGE;
    case Pred.SLT: return Pred.ULT;
    case Pred.SLE: return Pred.ULE;
    default: return p;
  }
}
