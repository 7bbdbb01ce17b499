/**
 * The clean-up SROA's integer widening needs (src/transforms/scalar/sroa.ts): a partition held in one
 * wide integer is written with `or (and old, mask), (shl (zext piece), k)` and read with
 * `trunc (lshr whole, k)`. After promotion those chains connect, and reading a piece back
 * is a walk down the chain to the value that was put there: what LLVM's InstCombine does
 * with demanded bits (SimplifyDemandedBits on trunc/lshr/and/or/shl/zext).
 *
 *   bitsOf(v, lo, w): an existing value or a constant equal to bits [lo, lo+w) of v, or null;
 *   knownZero(v, lo, w): whether those bits of v are certainly zero.
 * Both look through or, and with a constant, shifts by constants, zext and trunc, at most
 * MAX_DEPTH deep; nothing is created but constants, so a failed walk costs nothing.
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction, Instruction as Instr } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { intType, TypeKind } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';

const MAX_DEPTH = 12;

function constBits(v: Value, lo: number, w: number): bigint {
  const c = (v as ConstantInt).value;
  const bits = BigInt(v.type.bits);
  const u = c < 0n ? c + (1n << bits) : c;
  return (u >> BigInt(lo)) & ((1n << BigInt(w)) - 1n);
}

function shiftAmount(i: Instruction): number | null {
  const c = i.ops[1].value;
  if (c.kind !== ValueKind.ConstantInt) return null;
  const n = (c as ConstantInt).toNumber();
  return n >= 0 && n < i.type.bits ? n : null;
}

function knownZero(v: Value, lo: number, w: number, depth: number): boolean {
  if (v.kind === ValueKind.ConstantInt) return constBits(v, lo, w) === 0n;
  if (v.kind !== ValueKind.Instruction || depth > MAX_DEPTH) return false;
  const i = v as Instruction;
  const a = i.ops[0]?.value;
  switch (i.op) {
    case Opcode.And: {
      const c = i.ops[1].value;
      if (c.kind === ValueKind.ConstantInt && constBits(c, lo, w) === 0n) return true;
      return knownZero(a, lo, w, depth + 1) || knownZero(c, lo, w, depth + 1);
    }
    case Opcode.Or:
      return knownZero(a, lo, w, depth + 1) && knownZero(i.ops[1].value, lo, w, depth + 1);
    case Opcode.Shl: {
      const k = shiftAmount(i);
      if (k === null) return false;
      if (lo + w <= k) return true;
      return lo >= k && knownZero(a, lo - k, w, depth + 1);
    }
    case Opcode.LShr: {
      const k = shiftAmount(i);
      if (k === null) return false;
      if (lo + k >= i.type.bits) return true;
      return lo + k + w <= i.type.bits && knownZero(a, lo + k, w, depth + 1);
    }
    case Opcode.ZExt: {
      const ab = a.type.bits;
      if (lo >= ab) return true;
      return lo + w <= ab && knownZero(a, lo, w, depth + 1);
    }
    case Opcode.Trunc:
      return knownZero(a, lo, w, depth + 1);
    default:
      return false;
  }
}

/** Bits [lo, lo+w) of `v`: exactly an existing value or constant (lo 0, same width), or a piece of a value the walk could not see through. */
interface Piece {
  v: Value;
  lo: number;
}

export function bitsOf(v: Value, lo: number, w: number, depth = 0): Piece | null {
  if (v.type.kind !== TypeKind.Int) return null;
  if (v.kind === ValueKind.ConstantInt) return { v: ConstantInt.get(intType(w), constBits(v, lo, w)), lo: 0 };
  if (lo === 0 && v.type.bits === w) return { v, lo: 0 };
  const leaf: Piece = { v, lo };
  if (v.kind !== ValueKind.Instruction || depth > MAX_DEPTH) return leaf;
  const i = v as Instruction;
  const a = i.ops[0]?.value;
  const zero = (): Piece => ({ v: ConstantInt.get(intType(w), 0), lo: 0 });
  switch (i.op) {
    case Opcode.Or: {
      const b = i.ops[1].value;
      if (knownZero(b, lo, w, depth + 1)) return bitsOf(a, lo, w, depth + 1);
      if (knownZero(a, lo, w, depth + 1)) return bitsOf(b, lo, w, depth + 1);
      return leaf;
    }
    case Opcode.And: {
      const c = i.ops[1].value;
      if (c.kind !== ValueKind.ConstantInt) return leaf;
      const m = constBits(c, lo, w);
      if (m === 0n) return zero();
      if (m === (1n << BigInt(w)) - 1n) return bitsOf(a, lo, w, depth + 1);
      return leaf;
    }
    case Opcode.Shl: {
      const k = shiftAmount(i);
      if (k === null) return leaf;
      if (lo + w <= k) return zero();
      return lo >= k ? bitsOf(a, lo - k, w, depth + 1) : leaf;
    }
    case Opcode.LShr: {
      const k = shiftAmount(i);
      if (k === null) return leaf;
      return lo + k + w <= i.type.bits ? bitsOf(a, lo + k, w, depth + 1) : leaf;
    }
    case Opcode.ZExt: {
      const ab = a.type.bits;
      if (lo >= ab) return zero();
      return lo + w <= ab ? bitsOf(a, lo, w, depth + 1) : leaf;
    }
    case Opcode.Trunc:
      return bitsOf(a, lo, w, depth + 1);
    default:
      return leaf;
  }
}

/**
 * Replaces each `trunc` that reads back a piece put into a wide integer: by the piece itself
 * when the walk finds it whole, else by `trunc (lshr base, lo)` of the deepest value it
 * reached (when that is not where it started). Returns the count.
 */
export function foldWidenedPieces(truncs: readonly Instruction[]): number {
  let n = 0;
  for (const i of truncs) {
    const b = i.parent;
    if (b === null || i.firstUse === null || i.op !== Opcode.Trunc || i.type.kind !== TypeKind.Int || i.ops[0].value.type.kind !== TypeKind.Int) continue;
    const x = i.ops[0].value;
    if (x.kind !== ValueKind.Instruction) continue;
    switch ((x as Instruction).op) {
      case Opcode.LShr:
      case Opcode.Or:
      case Opcode.And:
      case Opcode.Shl:
      case Opcode.ZExt:
      case Opcode.Trunc:
        break;
      default:
        continue;
    }
    const w = i.type.bits;
    const r = bitsOf(x, 0, w, 1);
    if (r === null || r.v === i) continue;
    if (r.lo === 0 && r.v.type === i.type) {
      i.replaceAllUsesWith(r.v);
      n++;
      continue;
    }
    if (r.v === x || r.v.type.kind !== TypeKind.Int) continue;
    // r.v.bits >= r.lo + w by construction of the walk
    let v: Value = r.v;
    if (r.lo > 0) {
      const sh = new Instr(Opcode.LShr, v.type, [v, ConstantInt.get(v.type, r.lo)]);
      b.insertBefore(sh, i);
      v = sh;
    }
    if (v.type !== i.type) {
      const t = new Instr(Opcode.Trunc, i.type, [v]);
      b.insertBefore(t, i);
      v = t;
    }
    i.replaceAllUsesWith(v);
    n++;
  }
  return n;
}

/**
 * extractvalue of an insertvalue chain (what splitting a whole-aggregate load leaves once the
 * aggregate is taken apart again): the inserted value, looking past insertions at other
 * indices (LLVM: InstCombine's visitExtractValueInst).
 */
export function foldExtractsOfInserts(extracts: readonly Instruction[]): number {
  let n = 0;
  for (const i of extracts) {
    if (i.parent === null || i.op !== Opcode.ExtractValue) continue;
    const want = i.indices!;
    let agg = i.ops[0].value;
    let found: Value | null = null;
    for (let guard = 0; guard < 256 && found === null; guard++) {
      if (agg.kind !== ValueKind.Instruction || (agg as Instruction).op !== Opcode.InsertValue) break;
      const ins = agg as Instruction;
      const have = ins.indices!;
      let k = 0;
      while (k < want.length && k < have.length && want[k] === have[k]) k++;
      if (k === want.length && k === have.length) found = ins.ops[1].value;
      else if (k < want.length && k < have.length) agg = ins.ops[0].value; // different member
      else break; // one path is a prefix of the other: a sub-aggregate
    }
    if (found !== null && found.type === i.type) {
      i.replaceAllUsesWith(found);
      n++;
    }
  }
  return n;
}
