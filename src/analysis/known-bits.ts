/**
 * Known bits of an integer value: which bits are certainly 0 and which certainly 1, after
 * LLVM's ValueTracking `computeKnownBits` (llvm/lib/Analysis/ValueTracking.cpp), the part
 * of it InstCombine's narrowing and remainder rules need (`MaskedValueIsZero`), phis and
 * their simple recurrences included.
 *
 * Invariants: `zero & one` is always 0; a bit set in `zero` (`one`) is 0 (1) in every
 * execution where the value is not poison. Both masks are unsigned bigints below 2^width.
 * The walk looks through at most MAX_DEPTH instructions on any path (LLVM's
 * MaxAnalysisRecursionDepth), so its cost and its recursion depth are bounded whatever the
 * input; an operand past the limit is "nothing known".
 */
import type { ConstantInt } from '../ir/constants.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { TypeKind } from '../ir/types.js';
import { type Value, ValueKind } from '../ir/value.js';

export interface KnownBits {
  zero: bigint;
  one: bigint;
}

/** LLVM's MaxAnalysisRecursionDepth. */
export const MAX_DEPTH = 6;

const UNKNOWN: KnownBits = { zero: 0n, one: 0n };
const mask = (w: number): bigint => (1n << BigInt(w)) - 1n;

/** Known bits of a sum: the low bits zero in both operands, and the high bits above the largest possible sum. */
function addKnown(a: KnownBits, b: KnownBits, w: number): KnownBits {
  // the low bits known zero in both stay zero (no carry is produced below them)
  const tz = trailingZeros(a.zero, w) < trailingZeros(b.zero, w) ? trailingZeros(a.zero, w) : trailingZeros(b.zero, w);
  // an upper bound of the sum: (max a) + (max b), known-zero high bits above it
  const maxA = mask(w) & ~a.zero;
  const maxB = mask(w) & ~b.zero;
  const sum = maxA + maxB;
  let zero = mask(tz);
  if (sum <= mask(w)) {
    const lz = w - bitLength(sum);
    zero |= mask(w) & ~mask(w - lz);
  }
  return { zero, one: 0n };
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** How many low bits of `zeroMask` are set (bits known zero at the bottom). */
function trailingZeros(zeroMask: bigint, w: number): number {
  let n = 0;
  while (n < w && ((zeroMask >> BigInt(n)) & 1n) === 1n) n++;
  return n;
}

export function computeKnownBits(v: Value, depth = 0): KnownBits {
  const t = v.type;
  if (t.kind !== TypeKind.Int) return UNKNOWN;
  const w = t.bits;
  if (v.kind === ValueKind.ConstantInt) {
    const u = (v as ConstantInt).zext();
    return { zero: mask(w) & ~u, one: u };
  }
  if (v.kind !== ValueKind.Instruction || depth >= MAX_DEPTH) return UNKNOWN;
  const i = v as Instruction;
  const d = depth + 1;
  const m = mask(w);
  switch (i.op) {
    case Opcode.And: {
      const a = computeKnownBits(i.ops[0].value, d);
      const b = computeKnownBits(i.ops[1].value, d);
      return { zero: a.zero | b.zero, one: a.one & b.one };
    }
    case Opcode.Or: {
      const a = computeKnownBits(i.ops[0].value, d);
      const b = computeKnownBits(i.ops[1].value, d);
      return { zero: a.zero & b.zero, one: a.one | b.one };
    }
    case Opcode.Xor: {
      const a = computeKnownBits(i.ops[0].value, d);
      const b = computeKnownBits(i.ops[1].value, d);
      return { zero: (a.zero & b.zero) | (a.one & b.one), one: (a.zero & b.one) | (a.one & b.zero) };
    }
    case Opcode.Shl:
    case Opcode.LShr:
    case Opcode.AShr: {
      const s = i.ops[1].value;
      if (s.kind !== ValueKind.ConstantInt) return UNKNOWN;
      const k = (s as ConstantInt).zext();
      if (k >= BigInt(w)) return UNKNOWN; // poison
      const a = computeKnownBits(i.ops[0].value, d);
      if (i.op === Opcode.Shl) return { zero: ((a.zero << k) | mask(Number(k))) & m, one: (a.one << k) & m };
      const high = m & ~(m >> k);
      if (i.op === Opcode.LShr) return { zero: (a.zero >> k) | high, one: a.one >> k };
      const sign = 1n << BigInt(w - 1);
      return {
        zero: (a.zero >> k) | (a.zero & sign ? high : 0n),
        one: (a.one >> k) | (a.one & sign ? high : 0n),
      };
    }
    case Opcode.ZExt: {
      const a = computeKnownBits(i.ops[0].value, d);
      const n = i.ops[0].value.type.bits;
      return { zero: a.zero | (m & ~mask(n)), one: a.one };
    }
    case Opcode.SExt: {
      const a = computeKnownBits(i.ops[0].value, d);
      const n = i.ops[0].value.type.bits;
      const sign = 1n << BigInt(n - 1);
      const high = m & ~mask(n);
      return { zero: a.zero | (a.zero & sign ? high : 0n), one: a.one | (a.one & sign ? high : 0n) };
    }
    case Opcode.Trunc: {
      const a = computeKnownBits(i.ops[0].value, d);
      return { zero: a.zero & m, one: a.one & m };
    }
    case Opcode.Add: {
      const a = computeKnownBits(i.ops[0].value, d);
      const b = computeKnownBits(i.ops[1].value, d);
      return addKnown(a, b, w);
    }
    case Opcode.Mul: {
      // trailing zeros add up
      const a = computeKnownBits(i.ops[0].value, d);
      const b = computeKnownBits(i.ops[1].value, d);
      const tz = Math.min(w, trailingZeros(a.zero, w) + trailingZeros(b.zero, w));
      return { zero: mask(tz), one: 0n };
    }
    case Opcode.URem: {
      const c = i.ops[1].value;
      if (c.kind !== ValueKind.ConstantInt) return UNKNOWN;
      const u = (c as ConstantInt).zext();
      if (u === 0n) return UNKNOWN;
      // the result is below the divisor
      return { zero: m & ~mask(bitLength(u - 1n)), one: 0n };
    }
    case Opcode.UDiv: {
      const a = computeKnownBits(i.ops[0].value, d);
      // the quotient is at most the dividend
      const lz = w - bitLength(m & ~a.zero);
      return { zero: m & ~mask(w - lz), one: 0n };
    }
    case Opcode.Select: {
      const a = computeKnownBits(i.ops[1].value, d);
      const b = computeKnownBits(i.ops[2].value, d);
      return { zero: a.zero & b.zero, one: a.one & b.one };
    }
    case Opcode.Phi:
      return phiKnown(i, d);
    default:
      return UNKNOWN;
  }
}

/**
 * A phi: a simple recurrence `[start], [phi +/- step]` keeps the low zero bits start and
 * step share (LLVM's matchSimpleRecurrence case); any other phi, what all its incoming
 * values agree on, looked at one level deep only (LLVM recurses at MaxDepth - 1 there), so a
 * cycle of phis costs no more than one visit of each operand.
 */
function phiKnown(p: Instruction, d: number): KnownBits {
  const w = p.type.bits;
  if (p.numIncoming === 2) {
    for (let k = 0; k < 2; k++) {
      const next = p.incomingValue(1 - k);
      if (next.kind !== ValueKind.Instruction) continue;
      const n = next as Instruction;
      if ((n.op !== Opcode.Add && n.op !== Opcode.Sub) || (n.ops[0].value !== p && (n.op === Opcode.Sub || n.ops[1].value !== p))) continue;
      const step = n.ops[0].value === p ? n.ops[1].value : n.ops[0].value;
      const a = computeKnownBits(p.incomingValue(k), d);
      const b = computeKnownBits(step, d);
      const tz = Math.min(trailingZeros(a.zero, w), trailingZeros(b.zero, w));
      return { zero: mask(tz), one: 0n };
    }
  }
  let zero = mask(w);
  let one = mask(w);
  for (let k = 0; k < p.numIncoming; k++) {
    const v = p.incomingValue(k);
    if (v === p) continue;
    const kb = computeKnownBits(v, Math.max(d, MAX_DEPTH - 1));
    zero &= kb.zero;
    one &= kb.one;
    if (zero === 0n && one === 0n) break;
  }
  return p.numIncoming === 0 ? UNKNOWN : { zero, one };
}

/** Whether every bit of `bits` is known zero in `v` (LLVM's MaskedValueIsZero). */
export function maskedValueIsZero(v: Value, bits: bigint): boolean {
  return (computeKnownBits(v).zero & bits) === bits;
}
