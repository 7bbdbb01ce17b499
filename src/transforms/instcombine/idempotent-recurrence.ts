/**
 * An idempotent recurrence folds to its first value (InstCombine does this in LLVM 19:
 * `opt-19 -passes=instcombine` turns `%o = or i32 %p, %x` with `%p = phi [%s, %entry],
 * [%o, %loop]` into `or i32 %s, %x`): with op `and` or `or` and %x the same in every
 * iteration, iteration 0 computes op(s, x) and iteration k op(op(s, x), x) = op(s, x).
 * Csmith's `l = l | g` in loops (csmith-7004053) leaves such a chain; once folded the value
 * is loop-invariant and LICM hoists what depends on it.
 *
 * Why it is sound: %p has two entries, %s from E and %o from L. %o uses %p, so %p's block H
 * dominates %o, which dominates the end of L: L→H is a back edge of a natural loop headed by
 * H, E is H's only other predecessor and dominates it, so %s (available at E's end)
 * dominates %o. %x is a constant, an argument, or defined in a block that strictly dominates
 * H: no path from H back to H passes it (the loop's blocks are dominated by H), so it has
 * one value for the whole loop.
 *
 * Invariants: only `and`/`or` whose operand is such a phi change; the new op(s, x) goes right
 * before %o and replaces it; the phi keeps its entries (it now merges s and op(s, x)).
 */
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { type Value, ValueKind } from '../../ir/value.js';
import type { InstCombiner } from './combiner.js';

export function foldIdempotentRecurrence(ic: InstCombiner, i: Instruction): Value | null {
  if (i.op !== Opcode.And && i.op !== Opcode.Or) return null;
  for (let k = 0; k < 2; k++) {
    const p = i.operand(k);
    const x = i.operand(1 - k);
    if (!(p instanceof Instruction) || p.op !== Opcode.Phi || p.numIncoming !== 2 || x === p) continue;
    const back = p.incomingValue(0) === i ? 0 : p.incomingValue(1) === i ? 1 : -1;
    if (back < 0) continue;
    const s = p.incomingValue(1 - back);
    if (s === i || s === p) continue;
    const invariant = x.kind === ValueKind.ConstantInt || x.kind === ValueKind.GlobalVariable || ic.dominatesPhi(x, p.parent!);
    if (!invariant) continue;
    return ic.bin(i.op, s, x);
  }
  return null;
}
