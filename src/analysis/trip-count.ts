/**
 * Counted loops: `readCountedIV` reads a rotated loop's latch test as an induction variable
 * against a constant (shared by loop-unroll and loop-idiom), and `tripCount` gives trip counts
 * of bottom-tested loops in closed form, for an induction variable that steps by
 * one (Muchnick, "Advanced Compiler Design and Implementation" §14.1, trip counts of counted
 * loops; LLVM's ScalarEvolution computes them as backedge-taken count + 1).
 *
 * Invariant: the answer is exact or null, never an estimate, with the IV's arithmetic modulo
 * 2^bits as the IR computes it (an `ne` test may be met only after the IV wraps around;
 * callers that index memory with the IV check the range themselves). Declined: the tests
 * that go on while the IV is above k (ugt, uge, sgt, sge), and ule/sle against the largest
 * value. Checked against a simulation by a property test (test/passes/loop-idiom.test.ts).
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { ConstantInt } from '../ir/constants.js';
import { Instruction } from '../ir/instruction.js';
import { inversePred, Opcode, Pred, swappedPred } from '../ir/opcodes.js';
import { ValueKind, type Value } from '../ir/value.js';
import { evalICmp } from './constant-folding.js';

function isConst(v: Value): v is ConstantInt {
  return v.kind === ValueKind.ConstantInt;
}

/**
 * Number of runs of a bottom-tested loop body (≥ 1) whose IV takes a, a+1, … in run 1, 2, …
 * (`first` is the value tested in run 1: S for i, S + 1 for i.next), and which goes on while
 * `icmp pred v, k` is `stay`; null when the test never fails before the IV wraps around, or
 * the count is not given by this closed form.
 */
export function tripCount(pred: Pred, bits: number, first: bigint, k: bigint, stay: boolean): bigint | null {
  const p = stay ? pred : inversePred(pred);
  const mod = 1n << BigInt(bits);
  const u = (x: bigint) => BigInt.asUintN(bits, x);
  const s = (x: bigint) => BigInt.asIntN(bits, x);
  // the loop goes on while `v p k`; run n tests first + n - 1
  if (!evalICmp(p, bits, first, k)) return 1n;
  switch (p) {
    case Pred.NE:
      return u(k - first) + 1n;
    case Pred.EQ:
      return 2n; // first == k, first + 1 != k
    case Pred.ULT:
      return u(k) - u(first) + 1n;
    case Pred.SLT:
      return s(k) - s(first) + 1n;
    case Pred.ULE:
      return u(k) === mod - 1n ? null : u(k) - u(first) + 2n;
    case Pred.SLE:
      return s(k) === mod / 2n - 1n ? null : s(k) - s(first) + 2n;
    default:
      // ugt, uge, sgt, sge hold until the IV wraps around
      return null;
  }
}

/** The latch test of a counted loop: an IV `phi [C0, preheader], [next, latch]` with next = phi ± C. */
export interface CountedIV {
  phi: Instruction;
  next: Instruction;
  /** The latch's test, `icmp pred A, K` with A the phi or next. */
  test: Instruction;
  start: bigint;
  step: bigint;
  bits: number;
  pred: Pred;
  bound: bigint;
  /** The test reads `next` (else the phi). */
  testsNext: boolean;
  /** The loop goes on when the test is true. */
  stayOnTrue: boolean;
}

/**
 * The latch test of a rotated loop (`br i1 %c` in the latch, back to the header or out) as a
 * counted IV against a constant, or null.
 */
export function readCountedIV(header: BasicBlock, preheader: BasicBlock, latch: BasicBlock): CountedIV | null {
  const t = latch.terminator();
  if (t === null || !t.isConditionalBranch()) return null;
  const c = t.operand(0);
  if (!(c instanceof Instruction) || c.op !== Opcode.ICmp) return null;
  let a = c.operand(0);
  let k = c.operand(1);
  let pred: Pred = c.pred;
  if (isConst(a) && !isConst(k)) {
    [a, k] = [k, a];
    pred = swappedPred(pred);
  }
  if (!isConst(k) || !(a instanceof Instruction) || !a.type.isInt()) return null;
  // a is the IV's phi or its increment
  let phi: Instruction;
  let next: Instruction;
  if (a.op === Opcode.Phi && a.parent === header) {
    phi = a;
    const n = a.incomingValueFor(latch);
    if (!(n instanceof Instruction)) return null;
    next = n;
  } else {
    next = a;
    const p = next.op === Opcode.Add || next.op === Opcode.Sub ? next.operand(0) : null;
    const q = next.op === Opcode.Add ? next.operand(1) : null;
    const cand = p instanceof Instruction && p.op === Opcode.Phi && p.parent === header ? p : q instanceof Instruction && q.op === Opcode.Phi && q.parent === header ? q : null;
    if (cand === null) return null;
    phi = cand;
  }
  if (phi.incomingValueFor(latch) !== next) return null;
  const start = phi.incomingValueFor(preheader);
  if (start === undefined || !isConst(start)) return null;
  let step: bigint;
  if (next.op === Opcode.Add && next.operand(0) === phi && isConst(next.operand(1))) step = (next.operand(1) as ConstantInt).value;
  else if (next.op === Opcode.Add && next.operand(1) === phi && isConst(next.operand(0))) step = (next.operand(0) as ConstantInt).value;
  else if (next.op === Opcode.Sub && next.operand(0) === phi && isConst(next.operand(1))) step = -(next.operand(1) as ConstantInt).value;
  else return null;
  return { phi, next, test: c, start: start.value, step, bits: phi.type.bits, pred, bound: k.value, testsNext: a === next, stayOnTrue: t.successor(0) === header };
}

/** The exact trip count of an IV stepping by one, in closed form (any size), or null. */
export function closedTripCount(iv: CountedIV): bigint | null {
  if (iv.step !== 1n) return null;
  const first = iv.testsNext ? BigInt.asIntN(iv.bits, iv.start + 1n) : iv.start;
  return tripCount(iv.pred, iv.bits, first, iv.bound, iv.stayOnTrue);
}
