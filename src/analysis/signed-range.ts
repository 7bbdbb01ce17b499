/**
 * signedRange (not SCEV's ConstantRange of constant-range.ts, nor the phi-aware value-range.ts): the signed range an integer value lies in, from its defining expression (after LLVM's
 * computeConstantRange in ValueTracking.cpp, without assumptions or LazyValueInfo): constants,
 * remainders and quotients by constants, sums, differences and products of ranged operands,
 * extensions, masks, shifts and selects, looked through up to MAX_DEPTH levels.
 *
 * Why: contest code reduces into a modulus early (`x % 134456 * 15 + i % 15`) and again later
 * (`k % 4194301`); the second remainder is the identity, which InstSimplify's simplifyRem
 * (isDivZero) proves from these ranges.
 *
 * Invariants: a returned [lo, hi] holds for every non-poison value of `v` (an operation whose
 * result could wrap is given no range, so wrap flags are never needed); null means unknown.
 * Depth-capped, so the cost per query is bounded (no recursion into phis or loads).
 */
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { TypeKind } from '../ir/types.js';
import type { Value } from '../ir/value.js';
import { signedMax, signedMin, unsignedMax } from '../util/apint.js';
import { isCInt, isInst } from './patterns.js';

export type SignedRange = readonly [lo: bigint, hi: bigint];

const MAX_DEPTH = 6;

const fits = (lo: bigint, hi: bigint, w: number): SignedRange | null => (lo >= signedMin(w) && hi <= signedMax(w) ? [lo, hi] : null);
const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** The signed range of the integer value `v`, or null when nothing useful is known. */
export function signedRange(v: Value, depth = 0): SignedRange | null {
  const t = v.type;
  if (t.kind !== TypeKind.Int) return null;
  const w = t.bits;
  if (isCInt(v)) return [v.value, v.value];
  if (!isInst(v) || depth >= MAX_DEPTH) return null;
  const i = v as Instruction;
  if (i.numOperands === 0) return null;
  const a = i.operand(0);
  const b = i.numOperands > 1 ? i.operand(1) : a;
  const sub = (x: Value): SignedRange | null => signedRange(x, depth + 1);
  switch (i.op) {
    case Opcode.SRem: {
      // the result has the dividend's sign and a magnitude below the divisor's
      if (!isCInt(b) || b.value === 0n || b.value === signedMin(w)) return null;
      const m = abs(b.value) - 1n;
      const r = sub(a);
      const lo = r === null ? -m : r[0] >= 0n ? 0n : r[0] > -m ? r[0] : -m;
      const hi = r === null ? m : r[1] <= 0n ? 0n : r[1] < m ? r[1] : m;
      return [lo, hi];
    }
    case Opcode.URem: {
      if (!isCInt(b) || b.value === 0n) return null;
      const c = b.zext();
      const r = sub(a);
      if (r !== null && r[0] >= 0n) return [0n, r[1] < c - 1n ? r[1] : c - 1n];
      return c - 1n <= signedMax(w) ? [0n, c - 1n] : null;
    }
    case Opcode.SDiv: {
      // truncating division by a positive constant is monotonic
      if (!isCInt(b) || b.value <= 0n) return null;
      const r = sub(a);
      return r === null ? [signedMin(w) / b.value, signedMax(w) / b.value] : [r[0] / b.value, r[1] / b.value];
    }
    case Opcode.UDiv: {
      if (!isCInt(b) || b.value <= 0n) return null;
      const r = sub(a);
      return r !== null && r[0] >= 0n ? [r[0] / b.value, r[1] / b.value] : [0n, unsignedMax(w) / b.zext() <= signedMax(w) ? unsignedMax(w) / b.zext() : signedMax(w)];
    }
    case Opcode.Add:
    case Opcode.Sub: {
      const x = sub(a);
      const y = x === null ? null : sub(b);
      if (x === null || y === null) return null;
      return i.op === Opcode.Add ? fits(x[0] + y[0], x[1] + y[1], w) : fits(x[0] - y[1], x[1] - y[0], w);
    }
    case Opcode.Mul: {
      const x = sub(a);
      const y = x === null ? null : sub(b);
      if (x === null || y === null) return null;
      const p = [x[0] * y[0], x[0] * y[1], x[1] * y[0], x[1] * y[1]];
      return fits(p.reduce((m, q) => (q < m ? q : m)), p.reduce((m, q) => (q > m ? q : m)), w);
    }
    case Opcode.ZExt: {
      const n = a.type.bits;
      if (n >= w) return null;
      const r = sub(a);
      return r !== null && r[0] >= 0n ? r : [0n, unsignedMax(n)];
    }
    case Opcode.SExt: {
      const n = a.type.bits;
      return sub(a) ?? [signedMin(n), signedMax(n)];
    }
    case Opcode.And: {
      const c = isCInt(b) ? b : isCInt(a) ? a : null;
      return c !== null && c.value >= 0n ? [0n, c.value] : null;
    }
    case Opcode.LShr: {
      if (!isCInt(b) || b.value <= 0n || b.value >= BigInt(w)) return null;
      return [0n, unsignedMax(w - Number(b.value))];
    }
    case Opcode.AShr: {
      if (!isCInt(b) || b.value < 0n || b.value >= BigInt(w)) return null;
      const r = sub(a) ?? [signedMin(w), signedMax(w)];
      return [r[0] >> b.value, r[1] >> b.value];
    }
    case Opcode.Select: {
      const x = sub(i.operand(1));
      const y = x === null ? null : sub(i.operand(2));
      if (x === null || y === null) return null;
      return [x[0] < y[0] ? x[0] : y[0], x[1] > y[1] ? x[1] : y[1]];
    }
    default:
      return null;
  }
}

/** Whether |v| < |c| for every value of `v` (so v srem c == v and v sdiv c == 0). */
export function isBelowModulus(v: Value, c: bigint): boolean {
  if (c === 0n) return false;
  const r = signedRange(v);
  const m = abs(c);
  return r !== null && r[0] > -m && r[1] < m;
}

/** Whether 0 <= v < c (unsigned c) for every value of `v`. */
export function isNonNegativeBelow(v: Value, c: bigint): boolean {
  const r = signedRange(v);
  return r !== null && r[0] >= 0n && r[1] < c;
}

/** Whether `v` is known >= 0 as a signed number (from its range). */
export function isRangeNonNegative(v: Value): boolean {
  const r = signedRange(v);
  return r !== null && r[0] >= 0n;
}
