/**
 * Trip counts of bottom-tested loops in closed form, for an induction variable that steps by
 * one (Muchnick, "Advanced Compiler Design and Implementation" §14.1, trip counts of counted
 * loops; LLVM's ScalarEvolution computes them as backedge-taken count + 1).
 *
 * Invariant: the answer is exact or null, never an estimate, with the IV's arithmetic modulo
 * 2^bits as the IR computes it (an `ne` test may be met only after the IV wraps around;
 * callers that index memory with the IV check the range themselves). Declined: the tests
 * that go on while the IV is above k (ugt, uge, sgt, sge), and ule/sle against the largest
 * value. Checked against a simulation by a property test (test/passes/loop-idiom.test.ts).
 */
import { evalICmp } from './instsimplify.js';
import { inversePred, Pred } from '../ir/opcodes.js';

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
