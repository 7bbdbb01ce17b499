/**
 * `and X, C`: the rules where the mask says which bits of X are demanded, after LLVM's
 * InstCombineAndOrXor.cpp (visitAnd: "narrow the 'and' and a binop", the mask-fits-the-zext
 * rules) and InstCombineSimplifyDemanded.cpp (SimplifyDemandedUseBits for and/or/xor/add
 * operands), the parts that occur in the code C compilers produce for byte arithmetic:
 *
 *   and (bo (zext X), Y), mask(X)  -> zext (bo X, (trunc Y))        bo in xor/or/add/sub/mul
 *   and (bo (zext X), C1), C       -> zext (and (bo X, trunc C1), trunc C)   C fits X
 *   and X, C                       -> X        when X's possibly-set bits are all in C
 *   and (bo (and Y, C2), Z), C     -> and (bo Y, Z), C   when C2 keeps every demanded bit
 *   and (srem X, 2^k), C           -> and X, C           when C < 2^k
 *
 * Invariants: only the bits of C are demanded of the `and`'s operand; through and/or/xor
 * the operands' demanded bits are the same, through add/sub/mul the bits up to C's highest
 * (carries only go up). A rewritten inner instruction has a single use (the one being
 * simplified), so changing it in place changes no other value. Known bits come from
 * analysis/known-bits.ts, whose walk is depth-bounded.
 */
import { ConstantInt } from '../../ir/constants.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { type Value, ValueKind } from '../../ir/value.js';
import { computeKnownBits } from '../../analysis/known-bits.js';
import type { NewInstSink } from './evaluate-in-type.js';

export interface DemandedSink extends NewInstSink {
  /** Queues an instruction to be looked at again (e.g. an operand that may be dead now). */
  revisit(i: Instruction): void;
}

const isInst = (v: Value): v is Instruction => v.kind === ValueKind.Instruction;
const mask = (w: number): bigint => (1n << BigInt(w)) - 1n;
const bitLength = (x: bigint): number => (x === 0n ? 0 : x.toString(2).length);

function isNarrowable(op: Opcode): boolean {
  return op === Opcode.Xor || op === Opcode.Or || op === Opcode.Mul || op === Opcode.Add || op === Opcode.Sub;
}

/** A single-use zext's source, or null. */
function oneUseZExtSource(v: Value): Value | null {
  return isInst(v) && v.op === Opcode.ZExt && v.hasOneUse() ? v.ops[0].value : null;
}

/** The narrowing rules of visitAnd; `and` is `and X, C` with C a constant. */
export function narrowMaskedBinOp(and: Instruction, sink: NewInstSink): Value | null {
  const bo = and.ops[0].value;
  const c = and.ops[1].value as ConstantInt;
  if (!isInst(bo) || !bo.hasOneUse() || !isNarrowable(bo.op)) return null;
  const cu = c.zext();
  const ty = and.type;
  const op0 = bo.ops[0].value;
  const op1 = bo.ops[1].value;
  // and (bo (zext X), C1), C --> zext (and (bo X, TruncC1), TruncC) when C fits X
  for (let k = 0; k < 2; k++) {
    const x = oneUseZExtSource(k === 0 ? op0 : op1);
    const other = k === 0 ? op1 : op0;
    if (x === null || other.kind !== ValueKind.ConstantInt) continue;
    const xw = x.type.bits;
    if (cu > mask(xw)) continue;
    const c1 = ConstantInt.get(x.type, (other as ConstantInt).zext());
    const nb = sink.insertAt(new Instruction(bo.op, x.type, k === 0 ? [x, c1] : [c1, x]), and);
    const na = sink.insertAt(new Instruction(Opcode.And, x.type, [nb, ConstantInt.get(x.type, cu)]), and);
    return sink.insertAt(new Instruction(Opcode.ZExt, ty, [na]), and);
  }
  // and (bo (zext X), Y), mask(X) --> zext (bo X, (trunc Y)) (and the mirror image)
  for (let k = 0; k < 2; k++) {
    const x = oneUseZExtSource(k === 0 ? op0 : op1);
    if (x === null || cu !== mask(x.type.bits)) continue;
    const y = k === 0 ? op1 : op0;
    const ty2 = x.type;
    const tr: Value = y.kind === ValueKind.ConstantInt ? ConstantInt.get(ty2, (y as ConstantInt).zext()) : sink.insertAt(new Instruction(Opcode.Trunc, ty2, [y]), and);
    const nb = sink.insertAt(new Instruction(bo.op, ty2, k === 0 ? [x, tr] : [tr, x]), and);
    return sink.insertAt(new Instruction(Opcode.ZExt, ty, [nb]), and);
  }
  return null;
}

/** `and X, C` is X when every bit X may have set is in C. */
export function andIsRedundant(and: Instruction): Value | null {
  const c = (and.ops[1].value as ConstantInt).zext();
  const x = and.ops[0].value;
  const k = computeKnownBits(x);
  const maybeOne = mask(and.type.bits) & ~k.zero;
  return (maybeOne & ~c) === 0n ? x : null;
}

/**
 * SimplifyDemandedUseBits, one level: in `and (bo A, B), C` with a single-use bo, an
 * operand `and Y, C2` (or a `zext (trunc Y)` back to Y's type) that keeps every demanded
 * bit is replaced by Y. Returns whether it changed something.
 */
export function simplifyDemandedOperands(and: Instruction, sink: DemandedSink): boolean {
  const bo = and.ops[0].value;
  const c = (and.ops[1].value as ConstantInt).zext();
  // `X srem 2^k` has the low k bits of X (it differs from X by a multiple of 2^k): an and
  // that keeps only those reads X (LLVM: SimplifyDemandedUseBits on SRem), e.g. the
  // `((x % 8) + 8) % 8` of index wrapping becomes `x & 7`
  if (isInst(bo) && bo.op === Opcode.SRem && bo.ops[1].value.kind === ValueKind.ConstantInt) {
    const d = (bo.ops[1].value as ConstantInt).value;
    if (d > 0n && (d & (d - 1n)) === 0n && c < d) {
      and.setOperand(0, bo.ops[0].value);
      sink.revisit(bo);
      return true;
    }
  }
  if (!isInst(bo) || !bo.hasOneUse()) return false;
  let demanded: bigint;
  switch (bo.op) {
    case Opcode.And:
    case Opcode.Or:
    case Opcode.Xor:
      demanded = c;
      break;
    case Opcode.Add:
    case Opcode.Sub:
    case Opcode.Mul:
      demanded = mask(bitLength(c));
      break;
    default:
      return false;
  }
  // an or/xor/add operand with no demanded bit possibly set (and, for add, none below one):
  // the and only sees the other operand (LLVM: SimplifyDemandedUseBits returning an operand)
  if (bo.op === Opcode.Or || bo.op === Opcode.Xor || bo.op === Opcode.Add) {
    const need = bo.op === Opcode.Add ? mask(bitLength(demanded)) : demanded;
    for (let k = 0; k < 2; k++) {
      if ((computeKnownBits(bo.ops[k].value).zero & need) !== need) continue;
      and.setOperand(0, bo.ops[1 - k].value);
      sink.revisit(bo);
      return true;
    }
  }
  let changed = false;
  for (let k = 0; k < 2; k++) {
    const y = bo.ops[k].value;
    if (!isInst(y)) continue;
    let repl: Value | null = null;
    if (y.op === Opcode.And && y.ops[1].value.kind === ValueKind.ConstantInt) {
      const c2 = (y.ops[1].value as ConstantInt).zext();
      if ((c2 & demanded) === demanded) repl = y.ops[0].value;
    } else if (y.op === Opcode.ZExt) {
      const t = y.ops[0].value;
      if (isInst(t) && t.op === Opcode.Trunc && t.ops[0].value.type === y.type && (demanded & ~mask(t.type.bits)) === 0n) repl = t.ops[0].value;
    }
    if (repl === null) continue;
    bo.setOperand(k, repl);
    sink.revisit(y);
    changed = true;
  }
  if (changed) {
    // nsw/nuw/disjoint were facts about the old operands' high bits
    bo.flags = 0;
    sink.revisit(bo);
  }
  return changed;
}
