/**
 * When two pure instructions are one expression: a hash and an equality over opcode,
 * flags, predicate, types, operands (SSA values, by identity) and indices, with operands in
 * a canonical order so `add a, b` and `add b, a` are one (LLVM EarlyCSE's SimpleValue and
 * GVN's Expression do the same).
 *
 * Two equalities use it:
 *  - BY_VALUE (CSE and GVN): poison and fast-math flags do not count (a hit keeps the flags
 *    both had), and a compare with swapped operands takes the swapped predicate, so
 *    `icmp slt a, b` and `icmp sgt b, a` are one;
 *  - LEXICAL (the data-flow expression universes and PRE, which move computations and
 *    clone a representative): flags count exactly and compares are not swapped.
 *
 * Invariant: equal expressions hash equally; the hash leaves types to the equality.
 */
import type { Instruction } from '../ir/instruction.js';
import { FAST_MATH_MASK, Opcode, isCommutative, swappedPred } from '../ir/opcodes.js';
import { POISON_FLAGS } from './constant-folding.js';

export interface ExpressionEquality {
  /** Flag bits that do not tell expressions apart. */
  readonly ignoredFlags: number;
  /** Whether a compare's operands are put in canonical order too (with the predicate swapped). */
  readonly swapCompares: boolean;
}

export const BY_VALUE: ExpressionEquality = { ignoredFlags: POISON_FLAGS | FAST_MATH_MASK, swapCompares: true };
export const LEXICAL: ExpressionEquality = { ignoredFlags: 0, swapCompares: false };

/**
 * The predicate and first two operands' uids in canonical form, written to `canon`
 * ([pred, a0, a1]) so nothing is allocated. Doubles: uids count process-wide and may pass
 * 2^31 in a long-lived process.
 */
const canon = new Float64Array(3);
function canonicalize(i: Instruction, eq: ExpressionEquality): void {
  const ops = i.ops;
  let pred = i.pred as number;
  let a0 = ops.length > 0 ? ops[0].value.uid : 0;
  let a1 = ops.length > 1 ? ops[1].value.uid : 0;
  if (ops.length === 2 && a0 > a1) {
    const cmp = i.op === Opcode.ICmp || i.op === Opcode.FCmp;
    if (isCommutative(i.op) || (cmp && eq.swapCompares)) {
      const t = a0;
      a0 = a1;
      a1 = t;
      if (cmp) pred = swappedPred(i.pred);
    }
  }
  canon[0] = pred;
  canon[1] = a0;
  canon[2] = a1;
}

function mix(h: number, x: number): number {
  return Math.imul(h ^ x, 0x9e3779b1) ^ (h >>> 15);
}

export function expressionHash(i: Instruction, eq: ExpressionEquality): number {
  canonicalize(i, eq);
  let h = mix(i.op, i.flags & ~eq.ignoredFlags);
  h = mix(h, canon[0]);
  h = mix(h, canon[1]);
  h = mix(h, canon[2]);
  const ops = i.ops;
  for (let k = 2; k < ops.length; k++) h = mix(h, ops[k].value.uid);
  const idx = i.indices;
  if (idx !== null) for (let k = 0; k < idx.length; k++) h = mix(h, idx[k]);
  return h;
}

export function sameExpression(a: Instruction, b: Instruction, eq: ExpressionEquality): boolean {
  if (a.op !== b.op || a.type !== b.type || a.auxType !== b.auxType || a.ops.length !== b.ops.length) return false;
  if ((a.flags & ~eq.ignoredFlags) !== (b.flags & ~eq.ignoredFlags)) return false;
  canonicalize(a, eq);
  const p = canon[0], a0 = canon[1], a1 = canon[2];
  canonicalize(b, eq);
  if (p !== canon[0] || a0 !== canon[1] || a1 !== canon[2]) return false;
  for (let k = 2; k < a.ops.length; k++) if (a.ops[k].value !== b.ops[k].value) return false;
  const x = a.indices;
  const y = b.indices;
  if (x === null || y === null) return x === y;
  if (x.length !== y.length) return false;
  for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  return true;
}
